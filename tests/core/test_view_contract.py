"""The view contract (`ludoteca.core.view`), checked over every registered game.

Each game's ``view`` module gives ``drawing(state)`` and ``click_paths(state)``. Seeded random
games, under the default options and the conformance suite's option variants, are checked at
every ply: the drawing is well formed, shows every piece, and every legal move (and nothing
else) can be made by clicking regions of the drawing.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

import ludoteca
from ludoteca.core.view import Drawing
from tests.conformance.test_conformance import VARIANTS

CASES: list[tuple[str, dict[str, object]]] = [(game_id, {}) for game_id in ludoteca.GAMES] + [
    (game_id, options) for game_id, variants in VARIANTS.items() for options in variants[:2]
]
GAMES_PER_CASE = 2
MAX_PLIES = 1100


def view_of(game: ludoteca.Game) -> ModuleType:
    """The ``view`` module of the game's package."""
    return importlib.import_module(f"{type(game).__module__}.view")


def expected_pieces(state: Any) -> int:
    """How many pieces the drawing of ``state`` must show."""
    game_id = state.game.id
    if game_id == "splinter":
        return int(sum(state.counts(0)) + sum(state.counts(1)))
    if game_id == "steppin_stones":
        return 20 + 4 + len(state.layout.aces)  # coins, pawns, aces
    return {"salta": 30, "pente_grammai": 10, "salt_n_pepper": 30}[game_id]


def random_game(game: ludoteca.Game, seed: int) -> Iterator[ludoteca.State]:
    """The positions of a seeded random game (chance outcomes drawn with their odds)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(MAX_PLIES):
        yield state
        if state.is_over:
            return
        outcomes = state.chance_outcomes()
        if outcomes:
            moves, weights = zip(*outcomes, strict=True)
            state = state.apply(rng.choices(moves, weights)[0])
        else:
            state = state.apply(rng.choice(state.legal_moves()))


def check_drawing(drawing: Drawing, state: ludoteca.State) -> None:
    """Check the dimensions, regions, pieces, dice and status of one drawing."""
    assert drawing.width > 0 and drawing.height > 0
    ids = [region.id for region in drawing.regions]
    assert len(ids) == len(set(ids)), "region ids are unique"
    for region in drawing.regions:
        assert region.label, f"{region.id} has a screen-reader label"
        assert region.width > 0 and region.height > 0
        assert region.x >= 0 and region.x + region.width <= drawing.width + 1e-9, region
        assert region.y >= 0 and region.y + region.height <= drawing.height + 1e-9, region
    known = set(ids)
    for piece in drawing.pieces:
        assert piece.region in known, piece
        assert piece.label, piece
    assert len(drawing.pieces) == expected_pieces(state), state.to_text()
    assert drawing.status.strip(), "the status line says something"
    assert "\n" not in drawing.status
    for die in drawing.dice:
        assert die.label and 0 <= die.value <= die.faces


def check_click_paths(
    paths: dict[str, tuple[str, ...]], state: ludoteca.State, known: set[str]
) -> Counter[tuple[str, ...]]:
    """Check the paths against the legal moves and the regions; count the moves per path."""
    if state.is_over or state.to_move == ludoteca.CHANCE:
        assert paths == {}
        return Counter()
    assert set(paths) == {move.text for move in state.legal_moves()}
    for text, path in paths.items():
        assert all(region in known for region in path), (text, path)
    return Counter(paths.values())


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_drawing_and_click_path_keeps_the_contract(
    game_id: str, options: dict[str, object]
) -> None:
    game = ludoteca.make(game_id, **options)
    view = view_of(game)
    drawing_of: Callable[[ludoteca.State], Drawing] = view.drawing
    click_paths: Callable[[ludoteca.State], dict[str, tuple[str, ...]]] = view.click_paths
    shared = 0
    decisions = 0
    for seed in range(GAMES_PER_CASE):
        for state in random_game(game, seed):
            drawing = drawing_of(state)
            check_drawing(drawing, state)
            known = {region.id for region in drawing.regions}
            counts = check_click_paths(click_paths(state), state, known)
            decisions += bool(counts)
            shared += sum(n - 1 for path, n in counts.items() if n > 1 and path)
    assert decisions > 0
    # Moves sharing a whole path are allowed (the front end offers them by text); only
    # Splinter's choice of the surviving group should make them.
    if game_id != "splinter":
        assert shared == 0


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_drawings_are_values_that_depend_only_on_the_position(game_id: str) -> None:
    game = ludoteca.make(game_id)
    view = view_of(game)
    for state in random_game(game, 7):
        again = game.parse_state(state.to_text())
        assert view.drawing(state) == view.drawing(again)
        assert view.click_paths(state) == view.click_paths(again)

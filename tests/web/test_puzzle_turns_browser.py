"""A whole-turn puzzle (Steppin' Stones) built move by move in Chromium: one wrong turn, then
the solution.

The set is one puzzle made here from the endgame of `tests.learn.test_puzzles_turns` (the last
turn the engine's safeguard allows: one turn wins, every other loses, so the values are exact),
declared as the game's puzzle set for the test's server as a game package declares its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ludoteca.analysis.puzzle_turns import step_over
from ludoteca.analysis.puzzles import save
from ludoteca.core import make
from ludoteca.core.registry import game_class
from ludoteca.web.boards import board_of
from ludoteca.web.puzzles import puzzle_set
from tests.learn.test_puzzles_turns import LAST_TURN, TINY, _last_turn_puzzle
from tests.web.server import TEST_SETTINGS, running_server

GAME = "steppin_stones"
#: No warm-up: the test uses one game, whose kernels load when it first asks.
SETTINGS = dataclasses.replace(TEST_SETTINGS, warm_up=False)
WRONG = ["A:b1-a1", "A:c2-b2", "end"]


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server whose Steppin' Stones set is the one endgame puzzle."""
    game = make(GAME)
    path = tmp_path / "turns.json"
    save(game, 1, [_last_turn_puzzle()], path, {"margin": TINY.margin})
    cls = game_class(GAME)
    monkeypatch.setattr(cls, "info", dataclasses.replace(cls.info, puzzles=path))
    puzzle_set.cache_clear()
    try:
        with running_server(tmp_path / "games.sqlite3", settings=SETTINGS) as url:
            yield url
    finally:
        puzzle_set.cache_clear()


def _click(page: Page, moves: list[str]) -> None:
    """Click ``moves`` on the board one after another from the puzzle's position, each along
    its click path (``end``, which has none, by its button), the turn so far shown between."""
    state = make(GAME).parse_state(LAST_TURN)
    for number, move in enumerate(moves, start=1):
        path = board_of(state).click_paths[move]
        for region in path:
            page.click(f'#board .region[data-region="{region}"]')
        if not path:
            page.click(f'#choices button[data-move="{move}"]')
        state = state.apply(move)
        if not step_over(state):
            so_far = ", ".join(moves[:number])
            expect(page.locator("#turn-so-far")).to_have_text(f"Your turn so far: {so_far}")


@pytest.mark.browser
def test_a_whole_turn_is_built_on_the_board_and_answered(page: Page, base: str) -> None:
    puzzle = _last_turn_puzzle()
    page.goto(f"{base}/puzzles")
    page.click(f'a[data-puzzles="{GAME}"]')
    expect(page.locator("#puzzle-title")).to_have_text("Puzzle 1 of 1")
    expect(page.locator("#task")).to_contain_text("find the clearly best whole turn")
    expect(page.locator("#turn-again")).to_be_hidden()
    # A move typed, then taken back with "Start the turn again".
    page.fill("#move-input", WRONG[0])
    page.press("#move-input", "Enter")
    expect(page.locator("#turn-so-far")).to_have_text(f"Your turn so far: {WRONG[0]}")
    page.click("#turn-again")
    expect(page.locator("#turn-so-far")).to_have_text("")
    # An illegal move is refused with the engine's reason, and the turn so far is kept.
    page.fill("#move-input", "A:b1-h8")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).not_to_be_empty()
    expect(page.locator("#feedback")).to_have_text("")
    # A wrong turn, clicked move by move: answered once its step has ended.
    _click(page, WRONG)
    expect(page.locator("#feedback")).to_contain_text(
        f"Not the best: the solution is {puzzle.solution}"
    )
    expect(page.locator("#why")).to_contain_text(
        f"{', '.join(WRONG)} leaves a position that wins exactly 0 %"
    )
    expect(page.locator("#turn-so-far")).to_have_text("")
    # The solution, from the puzzle's position again: right.
    _click(page, [puzzle.solution])
    expect(page.locator("#feedback")).to_have_text(f"Right! {puzzle.solution} is the best turn.")
    expect(page.locator("#turn-so-far")).to_be_hidden()
    expect(page.locator("#player-count")).to_have_text("0 of 1 right at the first try")

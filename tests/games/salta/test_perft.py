"""Perft counts kept as data, and differential tests against the plain-Python reference.

`data/perft.txt` holds the expected counts; the runner computes them through the public API
(``legal_moves`` and ``apply``) and, when one is wrong, fails with the per-move split ("divide")
of the engine next to the reference's. The differential tests compare the engine's legal moves and
simplified scores with `tests.games.salta.reference` (which shares no code with the engine) on
positions from seeded random games, and on positions around walled-in armies, where the no-block
rule, its fallback and passing come into play (random games from the start never get there).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import ludoteca
from ludoteca.games.salta import SaltaMove, SaltaState
from tests import support
from tests.games.salta import reference
from tests.games.salta.diagrams import position_from_pieces

PERFT_DATA = Path(__file__).parent / "data" / "perft.txt"


# -- perft -----------------------------------------------------------------------------------------


PERFT_CASES = support.read_perft_cases(PERFT_DATA)


def reference_divide(state: SaltaState, depth: int) -> dict[str, int]:
    pieces, side = as_reference(state)
    return {
        move: reference.perft(reference.apply(pieces, move), 1 - side, depth - 1)
        for move in reference.legal_moves(pieces, side)
    }


def perft_failure(state: SaltaState, name: str, depth: int, expected: int) -> str | None:
    """``None`` when perft matches ``expected``, else a message with the divide report."""
    return support.perft_failure(
        state, name, depth, expected, lambda: reference_divide(state, depth)
    )


@pytest.mark.parametrize(
    ("case", "depth"),
    [(case, depth) for case in PERFT_CASES for depth in sorted(case.counts)],
    ids=lambda value: value.name if isinstance(value, support.PerftCase) else f"depth{value}",
)
def test_perft(case: support.PerftCase, depth: int) -> None:
    state = ludoteca.make("salta", **case.options).parse_state(case.text)
    assert isinstance(state, SaltaState)
    support.assert_perft(
        state, case.name, depth, case.counts[depth], lambda: reference_divide(state, depth)
    )


def test_the_perft_data_covers_the_start_to_depth_4() -> None:
    start = next(case for case in PERFT_CASES if case.name == "start")
    assert start.text == ludoteca.make("salta").initial_state().to_text()
    assert {1: 9, 2: 81, 3: 891, 4: 9801}.items() <= start.counts.items()
    assert {case.name for case in PERFT_CASES} >= {"jumps", "no-block", "fallback"}


def test_a_wrong_count_fails_with_the_divide() -> None:
    state = ludoteca.make("salta").initial_state()
    assert isinstance(state, SaltaState)
    assert perft_failure(state, "start", 2, 81) is None
    message = perft_failure(state, "start", 2, 80)
    assert message is not None
    assert message.startswith("perft(start, 2) = 81, expected 80\n")
    rows = [line.split() for line in message.splitlines()[-9:]]
    assert {row[0]: (int(row[1]), int(row[2])) for row in rows} == {
        move: (9, 9) for move in ("a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
                                  "i3-h4", "i3-j4")
    }  # fmt: skip


# -- differential testing against the reference ----------------------------------------------------


def as_reference(state: SaltaState) -> tuple[dict[str, str], int]:
    """The position as the reference writes it (square -> token) and the side to move."""
    pieces = {}
    for square, tokens in state.pieces().items():
        assert len(tokens) == 1, f"{square} holds {tokens} outside the played scoring phase"
        pieces[square] = tokens[0]
    assert state.to_move is not None
    return pieces, state.to_move


def kinds(pieces: dict[str, str], side: int) -> set[str]:
    """What the mover's position exercises: jumps, a refused step, the fallback, a pass."""
    jumps = reference.candidate_jumps(pieces, side)
    steps = reference.candidate_steps(pieces, side)
    if jumps:
        return {"jump"}
    if not steps:
        return {"pass"}
    blocking = {m for m in steps if not reference.has_a_move(reference.apply(pieces, m), 1 - side)}
    if blocking == steps:
        return {"fallback"}
    return {"no-block"} if blocking else {"step"}


def check_against_reference(state: SaltaState) -> tuple[dict[str, str], int]:
    """Compare legal moves, simplified scores and goals with the reference."""
    pieces, side = as_reference(state)
    engine = {move.text for move in state.legal_moves()}
    expected = reference.legal_moves(pieces, side)
    assert engine == expected, (
        f"legal moves differ in {state.to_text()!r}\n{state}\n"
        f"engine only: {sorted(engine - expected)}; reference only: {sorted(expected - engine)}"
    )
    goal = str(state.game.options["goal"])
    for player in (0, 1):
        assert state.goal_distance(player) == reference.simplified_score(pieces, player, goal)
        assert state.goal_complete(player) == reference.goal_complete(pieces, player, goal)
    return pieces, side


def test_legal_moves_match_the_reference_in_random_games() -> None:
    """200 seeded random games through the play phase, 20 positions sampled from each."""
    jumps = 0
    games = {goal: ludoteca.make("salta", goal=goal) for goal in ("seed", "ludii")}
    for seed in range(200):
        rng = random.Random(seed)
        state = games["ludii" if seed % 4 == 3 else "seed"].initial_state()
        assert isinstance(state, SaltaState)
        sampled = set(rng.sample(range(240), 20))
        while not state.is_over and not state.in_scoring_phase:
            if state.ply in sampled:
                check_against_reference(state)
                jumps += any(isinstance(m, SaltaMove) and m.is_jump for m in state.legal_moves())
            state = state.apply(rng.choice(state.legal_moves()))
    assert jumps > 500


def _dark_squares(ranks: range) -> list[str]:
    names = (reference.square(file, rank) for rank in ranks for file in range(1, 11))
    return [name for name in names if reference.is_dark(name)]


def _walled_in(rng: random.Random) -> SaltaState:
    """A random variation on WALLED_IN of test_rules: Red at home behind a Green wall.

    Green fills ranks 5-7 except for up to three holes, whose pieces stand on ranks 1-4 instead;
    half the time the board is turned and the colours swapped, so Green is walled in by Red.
    """
    pieces = {square: token for square, token in reference.START.items() if token.islower()}
    green = sorted(token for token in reference.START.values() if token.isupper())
    wall = _dark_squares(range(5, 8))
    holes = set(rng.sample(wall, rng.choice((0, 1, 1, 2, 3))))
    moved = rng.sample(_dark_squares(range(1, 5)), len(holes))
    squares = [square for square in wall if square not in holes] + moved
    pieces.update(zip(squares, green, strict=True))
    if rng.random() < 0.5:
        pieces = {reference.rotate(square): token.swapcase() for square, token in pieces.items()}
    state = ludoteca.make("salta").parse_state(position_from_pieces(pieces, rng.randrange(40, 60)))
    assert isinstance(state, SaltaState)
    return state


def test_legal_moves_match_the_reference_around_walled_in_armies() -> None:
    """Short random walks from crowded positions where the no-block rule matters."""
    seen: Counter[str] = Counter()
    for seed in range(300):
        rng = random.Random(seed)
        state = _walled_in(rng)
        for _ in range(8):
            seen.update(kinds(*check_against_reference(state)))
            state = state.apply(rng.choice(state.legal_moves()))
    assert min(seen[kind] for kind in ("jump", "step", "no-block", "fallback", "pass")) >= 20, seen


def test_played_scoring_moves_match_the_reference() -> None:
    """Random games continued through the played scoring phase (move_limit=30, a cap of 40).

    In every other game Red enters the phase with 25 moves already counted, so it reaches the
    cap first and then only passes while Green goes on.
    """
    game = ludoteca.make("salta", move_limit=30, scoring_cap=40)
    finished_passes = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_over:
            assert isinstance(state, SaltaState)
            if state.ply == 60 and seed % 2:
                state = game.parse_state(state.to_text().replace("scoring 0 0", "scoring 0 25"))
            if state.in_scoring_phase:
                side = state.to_move
                assert side is not None
                own = {
                    square: token
                    for square, tokens in state.pieces().items()
                    for token in tokens
                    if reference.owner(token) == side
                }
                if state.scoring_moves[side] >= 40 or reference.goal_complete(own, side):
                    expected = {"pass"}
                    finished_passes += 1
                else:
                    expected = reference.played_steps(own, side) or {"pass"}
                assert {m.text for m in state.legal_moves()} == expected, state.to_text()
            state = state.apply(rng.choice(state.legal_moves()))
        assert state.outcome is not None
        assert state.outcome.reason.startswith("120-move rule, played scoring")
    assert finished_passes > 0

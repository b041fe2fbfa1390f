"""A slow, plain-Python reference for Salta's move rules, used for differential testing.

This module is written apart from the engine (it does not import or read ``ludoteca``) so that
the two can be compared move set against move set and perft count against perft count. It favours
obviousness over speed: positions are dicts, squares are strings, and nothing is cached.

Conventions:
    * Board 10x10, squares ``"a1"``..``"j10"`` (files a..j left to right, ranks 1..10 bottom to
      top). Only dark squares are used: file number (a=1) plus rank is even.
    * Side 0 is Green (moves up the board), side 1 is Red (moves down).
    * A position maps square -> token. A token is a letter (``S`` Star, ``M`` Moon, ``O`` Sun)
      and a number 1..5; uppercase is Green, lowercase is Red.
    * Moves are ``"c3-d4"`` (step), ``"e5xg7"`` (jump) or ``"pass"``.

Run ``python tests/games/salta/reference.py`` for the self-check and perft counts from the start.
"""

from __future__ import annotations

import time

FILES = "abcdefghij"
SIZE = 10
DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
KINDS = ("S", "M", "O")  # Star, Moon, Sun: the order of the three rows, back row first


# --- squares -------------------------------------------------------------------------------------


def square(file: int, rank: int) -> str:
    """Names the square at 1-based ``file`` and ``rank`` (for example ``(1, 1) -> "a1"``)."""
    return FILES[file - 1] + str(rank)


def coords(name: str) -> tuple[int, int]:
    """Returns the 1-based ``(file, rank)`` of a square name (for example ``"c3" -> (3, 3)``)."""
    return FILES.index(name[0]) + 1, int(name[1:])


def on_board(file: int, rank: int) -> bool:
    """Tells whether 1-based ``file`` and ``rank`` lie on the 10x10 board."""
    return 1 <= file <= SIZE and 1 <= rank <= SIZE


def is_dark(name: str) -> bool:
    """Tells whether a square is one of the dark (playable) squares."""
    file, rank = coords(name)
    return (file + rank) % 2 == 0


def rotate(name: str) -> str:
    """Returns the square reached by turning the board half a turn (a1 <-> j10)."""
    file, rank = coords(name)
    return square(SIZE + 1 - file, SIZE + 1 - rank)


# --- pieces and the start position ---------------------------------------------------------------


def owner(token: str) -> int:
    """Returns the side owning a token: 0 for uppercase (Green), 1 for lowercase (Red)."""
    return 0 if token[0].isupper() else 1


def forward(side: int) -> int:
    """Returns the rank direction a side's jumps go in: +1 for Green, -1 for Red."""
    return 1 if side == 0 else -1


def _green_start() -> dict[str, str]:
    # Back row (rank 1) Stars on a1 c1 e1 g1 i1, rank 2 Moons on b2..j2, rank 3 Suns on a3..i3.
    position = {}
    for row, kind in enumerate(KINDS):
        rank = row + 1
        first_file = 1 if rank % 2 == 1 else 2
        for number in range(1, 6):
            position[square(first_file + 2 * (number - 1), rank)] = kind + str(number)
    return position


def _start() -> dict[str, str]:
    green = _green_start()
    red = {rotate(sq): token.lower() for sq, token in green.items()}
    return {**green, **red}


START: dict[str, str] = _start()
"""The start position. Red's set is Green's set turned half a turn, with lowercase tokens."""


GREEN_SEED_GOALS: dict[str, list[str]] = {
    "S": ["b8", "d8", "f8", "h8", "j8"],
    "M": ["a9", "c9", "e9", "g9", "i9"],
    "O": ["b10", "d10", "f10", "h10", "j10"],
}
"""Green's default goal squares for numbers 1..5 of each kind, written out square by square.

The far three rows hold the start formation again, Stars nearest. The Stars and Suns end one file
to the right of where they began, but the Moons one file to the left (b2 -> a9), since j2 has no
file to its right; so the table is spelled out rather than computed.
"""


def goal_squares(side: int, goal: str = "seed") -> dict[str, str]:
    """Maps each of a side's tokens to the square it must finish on.

    Args:
        side: 0 (Green) or 1 (Red).
        goal: ``"seed"`` - the start formation rebuilt on the far three rows (see
            ``GREEN_SEED_GOALS``; Red's is its half-turn); ``"ludii"`` - every piece ends where the
            opponent's piece of the same kind and number started.

    Returns:
        A dict token -> square, with tokens in the side's case.
    """
    if goal == "seed":
        green = {k + str(n): sqs[n - 1] for k, sqs in GREEN_SEED_GOALS.items() for n in range(1, 6)}
    elif goal == "ludii":
        green = {token: rotate(sq) for sq, token in _green_start().items()}
    else:
        raise ValueError(f"unknown goal {goal!r}")
    if side == 0:
        return green
    return {token.lower(): rotate(sq) for token, sq in green.items()}


# --- raw move generation -------------------------------------------------------------------------


def candidate_jumps(pieces: dict[str, str], side: int) -> set[str]:
    """All jumps for ``side``: forward-diagonal, over an adjacent enemy piece, onto an empty square.

    Nothing is captured, a jump never goes backward or over an own piece, and there are no chains.
    """
    moves = set()
    for origin, token in pieces.items():
        if owner(token) != side:
            continue
        file, rank = coords(origin)
        dr = forward(side)
        for df in (1, -1):
            over = (file + df, rank + dr)
            land = (file + 2 * df, rank + 2 * dr)
            if not on_board(*land):
                continue
            jumped = pieces.get(square(*over))
            if jumped is None or owner(jumped) == side:
                continue
            if square(*land) not in pieces:
                moves.add(f"{origin}x{square(*land)}")
    return moves


def candidate_steps(pieces: dict[str, str], side: int) -> set[str]:
    """All steps for ``side``: one square along any of the four diagonals, onto an empty square."""
    moves = set()
    for origin, token in pieces.items():
        if owner(token) != side:
            continue
        file, rank = coords(origin)
        for df, dr in DIAGONALS:
            if on_board(file + df, rank + dr) and square(file + df, rank + dr) not in pieces:
                moves.add(f"{origin}-{square(file + df, rank + dr)}")
    return moves


def has_a_move(pieces: dict[str, str], side: int) -> bool:
    """Tells whether ``side`` has any jump or any step (before the no-block rule)."""
    return bool(candidate_jumps(pieces, side)) or bool(candidate_steps(pieces, side))


# --- legal moves in the play phase ---------------------------------------------------------------


def apply(pieces: dict[str, str], move: str) -> dict[str, str]:
    """Returns the position after ``move``; the input dict is left untouched.

    ``"pass"`` returns a copy. Steps and jumps just move the piece (a jump captures nothing).
    """
    result = dict(pieces)
    if move == "pass":
        return result
    sep = "x" if "x" in move else "-"
    origin, target = move.split(sep)
    if origin not in result:
        raise ValueError(f"no piece on {origin} for {move!r}")
    if target in result:
        raise ValueError(f"{target} is occupied for {move!r}")
    result[target] = result.pop(origin)
    return result


def _blocks(pieces: dict[str, str], side: int, move: str) -> bool:
    """Tells whether ``move`` by ``side`` leaves the opponent with no jump and no step."""
    return not has_a_move(apply(pieces, move), 1 - side)


def legal_moves(pieces: dict[str, str], side: int) -> set[str]:
    """The legal moves for ``side`` in the play phase.

    Jumps are compulsory, and no move may leave the opponent without a move. In order:
    the jumps that do not block; else the steps that do not block; else (every candidate blocks)
    all the jumps if there are any, otherwise all the steps; and with no candidates, ``{"pass"}``.
    """
    jumps = candidate_jumps(pieces, side)
    steps = candidate_steps(pieces, side)
    if not jumps and not steps:
        return {"pass"}
    fine_jumps = {m for m in jumps if not _blocks(pieces, side, m)}
    if fine_jumps:
        return fine_jumps
    fine_steps = {m for m in steps if not _blocks(pieces, side, m)}
    if fine_steps:
        return fine_steps
    return set(jumps) if jumps else set(steps)


def perft(pieces: dict[str, str], side: int, depth: int) -> int:
    """Counts the move sequences of length ``depth`` in the play phase (``"pass"`` counts).

    Sides alternate; the end of the game is not detected (it cannot come within a few plies of
    the start).
    """
    if depth == 0:
        return 1
    return sum(perft(apply(pieces, m), 1 - side, depth - 1) for m in legal_moves(pieces, side))


# --- goals and scoring ---------------------------------------------------------------------------


def _own(pieces: dict[str, str], side: int) -> dict[str, str]:
    """Square -> token for ``side``'s pieces only."""
    return {sq: token for sq, token in pieces.items() if owner(token) == side}


def goal_complete(pieces: dict[str, str], side: int, goal: str = "seed") -> bool:
    """Tells whether every one of the side's 15 pieces stands on its own goal square."""
    where = {token: sq for sq, token in _own(pieces, side).items()}
    return all(where.get(token) == sq for token, sq in goal_squares(side, goal).items())


def chebyshev(a: str, b: str) -> int:
    """The king-move distance between two squares: the larger of the file and rank differences."""
    (fa, ra), (fb, rb) = coords(a), coords(b)
    return max(abs(fa - fb), abs(ra - rb))


def simplified_score(pieces: dict[str, str], side: int, goal: str = "seed") -> int:
    """Sum over the side's pieces of the Chebyshev distance to their goal squares (lower is better).

    ``pieces`` may hold both sides (only ``side``'s tokens are looked at); all 15 must be present.
    """
    where = {token: sq for sq, token in _own(pieces, side).items()}
    return sum(chebyshev(where[token], sq) for token, sq in goal_squares(side, goal).items())


def played_steps(own: dict[str, str], side: int) -> set[str]:
    """Moves of the ``"played"`` scoring phase for ``side``.

    In that phase the opponent is treated as absent, so ``own`` must hold only ``side``'s pieces
    (two pieces of different colours may then share a square, which one dict could not express).
    Every diagonal step, in all four directions, to a square not holding an own piece is returned;
    there are no jumps, no compulsion and no no-block rule. Passing (when every piece is home, or
    when the set is empty) is left to the caller.
    """
    if any(owner(token) != side for token in own.values()):
        raise ValueError("played_steps expects only the given side's pieces")
    return candidate_steps(own, side)


# --- self-check ----------------------------------------------------------------------------------


def self_check() -> None:
    """Asserts a few facts about the start position and the goals that are easy to see by eye."""
    assert len(START) == 30 and all(is_dark(sq) for sq in START)
    assert START["a1"] == "S1" and START["i3"] == "O5" and START["j2"] == "M5"
    assert START["j10"] == "s1" and START["b8"] == "o5" and START["a9"] == "m5"
    green_goal, red_goal = goal_squares(0), goal_squares(1)
    assert [green_goal[f"S{n}"] for n in range(1, 6)] == ["b8", "d8", "f8", "h8", "j8"]
    assert [green_goal[f"M{n}"] for n in range(1, 6)] == ["a9", "c9", "e9", "g9", "i9"]
    assert [green_goal[f"O{n}"] for n in range(1, 6)] == ["b10", "d10", "f10", "h10", "j10"]
    assert [red_goal[f"s{n}"] for n in range(1, 6)] == ["i3", "g3", "e3", "c3", "a3"]
    assert [red_goal[f"m{n}"] for n in range(1, 6)] == ["j2", "h2", "f2", "d2", "b2"]
    assert [red_goal[f"o{n}"] for n in range(1, 6)] == ["i1", "g1", "e1", "c1", "a1"]
    assert all(is_dark(sq) for sq in [*green_goal.values(), *red_goal.values()])
    assert goal_squares(0, "ludii")["S1"] == "j10" and goal_squares(1, "ludii")["o5"] == "i3"
    assert simplified_score(START, 0) == 105 and simplified_score(START, 1) == 105
    assert not goal_complete(START, 0) and not goal_complete(START, 1)
    green_home = {sq: token for token, sq in goal_squares(0).items()}
    assert goal_complete(green_home, 0) and simplified_score(green_home, 0) == 0
    assert candidate_jumps(START, 0) == set() and len(legal_moves(START, 0)) == 9
    assert apply(START, "a3-b4") != START and "a3" in START  # the input is not mutated
    assert len(played_steps(_own(START, 0), 0)) == 9


if __name__ == "__main__":
    self_check()
    print("self-check passed")
    for depth in range(1, 5):
        began = time.perf_counter()
        count = perft(START, 0, depth)
        print(f"perft({depth}) = {count:>8}   {time.perf_counter() - began:8.3f} s")

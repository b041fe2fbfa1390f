"""Collecting a puzzle set from self-play games 1, 2, ... taken in order, in one process or many.

The searching kinds of puzzle (`ludoteca.analysis.puzzle_search` for two players,
`ludoteca.analysis.puzzle_turns` for a solitaire) each play a numbered self-play game and verify
what it offers; this module plays the games, in ``jobs`` processes where asked, and takes their
puzzles in game order, so that a set is the same for a seed whatever ``jobs``. A position gives
one puzzle at most (by its ``key``). ``keep`` hears of every game that found puzzles, so that an
interrupted run leaves a prefix of the set, and a run resumes such a prefix from the game after
it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")


def collect(
    play: Callable[[int], list[Item]],
    key: Callable[[Item], str],
    count: int,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    max_games: int = 10_000,
    keep: Callable[[list[Item], int], None] | None = None,
    found_before: Sequence[Item] = (),
    games_before: int = 0,
) -> tuple[list[Item], int]:
    """``count`` puzzles from games ``games_before + 1``, ... in order, and the games played.

    Args:
        play: The puzzles of the self-play game with this number (a module-level function, or
            a `functools.partial` of one, so that it reaches the worker processes).
        key: What tells two puzzles' positions apart (the first one met is kept).
        count: How many puzzles.
        jobs: Processes playing games at once.
        progress: Called with (puzzles found, games played) after each game.
        max_games: Give up after this many games.
        keep: Called with the puzzles found so far and the games played after each game that
            found any.
        found_before: The puzzles that games 1 to ``games_before`` gave (a set being resumed).
        games_before: The games a resumed set has played.
    """
    seen: set[str] = set()
    found: list[Item] = []
    games = games_before

    def take(batch: Sequence[Item]) -> None:
        for item in batch:
            if key(item) not in seen and len(found) < count:
                seen.add(key(item))
                found.append(item)
        if batch and keep is not None and games > games_before:
            keep(list(found), games)

    take(found_before)
    if jobs <= 1:
        while len(found) < count and games < max_games:
            games += 1
            take(play(games))
            if progress is not None:
                progress(len(found), games)
        return found, games
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: dict[int, Future[list[Item]]] = {}
        submitted = games_before
        while len(found) < count and games < max_games:
            while len(pending) < jobs * 2 and submitted < max_games:
                submitted += 1
                pending[submitted] = pool.submit(play, submitted)
            games += 1
            take(pending.pop(games).result())
            if progress is not None:
                progress(len(found), games)
        for future in pending.values():
            future.cancel()
    return found, games

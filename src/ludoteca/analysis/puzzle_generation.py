"""Generating puzzle sets: self-play, screened and verified per kind of game.

Self-play: each side plays its exact best move, except that one move in four is drawn at random
among the legal ones (so that the games visit the positions that mistakes lead to); dice are
drawn with their probabilities. Everything is drawn from one generator seeded with ``seed``, so a
set is the same for the same seed, count and version. A position (without the move count) gives
one puzzle at most.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from ludoteca.analysis.puzzles import (
    MARGIN,
    Puzzle,
    PuzzleError,
    PuzzleSet,
    clear_best,
    move_chances,
)
from ludoteca.core.game import Game
from ludoteca.core.outcome import CHANCE

if TYPE_CHECKING:
    from ludoteca.analysis.puzzle_search import Found
    from ludoteca.analysis.puzzle_turns import TurnFound

#: The share of self-play moves drawn at random instead of the best move.
RANDOM_SHARE: Final = 0.25


def generate(
    game: Game,
    count: int,
    seed: int,
    *,
    progress: Callable[[int, int], None] | None = None,
    max_games: int = 100_000,
    jobs: int = 1,
) -> list[Puzzle]:
    """``count`` puzzles from self-play, deterministic for ``seed`` (whatever ``jobs``).

    A solved game's puzzles are proved by its exact values (`generate_exact`); any other
    game's by deep searches (`ludoteca.analysis.puzzle_search`), in ``jobs`` processes.

    Args:
        game: The game with its options.
        count: How many puzzles.
        seed: The seed of the self-play.
        progress: Called with (puzzles found, games played) after each game.
        max_games: Give up after this many games (a safety net).
        jobs: Processes that play and search games at once (estimated puzzles only).

    Raises:
        PuzzleError: Too few puzzles were found.
    """
    return generate_set(
        game, count, seed, progress=progress, max_games=max_games, jobs=jobs
    ).puzzles


def generate_set(
    game: Game,
    count: int,
    seed: int,
    *,
    progress: Callable[[int, int], None] | None = None,
    max_games: int = 100_000,
    jobs: int = 1,
    keep: Callable[[PuzzleSet], None] | None = None,
    resume: PuzzleSet | None = None,
) -> PuzzleSet:
    """Like `generate`, with the header of the set's file.

    For a game without exact values, the deep search's noise is measured first
    (`ludoteca.analysis.puzzle_search.measure_noise`, on positions of the same seed's
    self-play) and sets the acceptance margin; the header records both. ``keep`` is called
    with the set found so far after each game that found puzzles (estimated sets only).
    ``resume`` goes on with a set that such a run of the same seed left (`load_set`): its
    header's noise and margin stand, and self-play goes on from the game after its last, so
    the result is the one the uninterrupted run gives.
    """
    if game.info.exact_values is not None:
        found_exact = generate_exact(game, count, seed, progress=progress, max_games=max_games)
        return PuzzleSet(found_exact, {"margin": MARGIN})
    if game.num_players == 1:
        return _generate_turns(game, count, seed, progress, max_games, jobs, keep)
    if game.num_players != 2:
        raise PuzzleError(f"{game.name}: puzzles are made for two-player games and solitaires")
    from ludoteca.analysis import puzzle_search

    if resume is None:
        noise = puzzle_search.measure_noise(game, puzzle_search.NOISE_POSITIONS, seed)
        budget = puzzle_search.budget_for(noise)
        header = puzzle_search.set_header(budget, noise)
    else:
        header = {k: v for k, v in resume.header.items() if k != "games"}
        budget = puzzle_search.budget_of_header(header)
    estimate = budget.describe()

    def keep_found(found: list[puzzle_search.Found], games: int) -> None:
        if keep is not None:
            keep(PuzzleSet(_numbered(game, found, estimate), header | {"games": games}))

    before = [] if resume is None else [_found(puzzle) for puzzle in resume.puzzles]

    found, games = puzzle_search.generate_found(
        game,
        count,
        seed,
        budget,
        jobs=jobs,
        progress=progress,
        max_games=min(max_games, 10_000),
        keep=keep_found,
        found_before=before,
        games_before=0 if resume is None else resume.header["games"],
    )
    if len(found) < count:
        raise PuzzleError(f"only {len(found)} puzzles in {games} games; asked for {count}")
    return PuzzleSet(_numbered(game, found, estimate), header | {"games": games})


def _generate_turns(
    game: Game,
    count: int,
    seed: int,
    progress: Callable[[int, int], None] | None,
    max_games: int,
    jobs: int,
    keep: Callable[[PuzzleSet], None] | None,
) -> PuzzleSet:
    """A solitaire's set: whole turns verified by expert playouts (`puzzle_turns`)."""
    from ludoteca.analysis import puzzle_turns

    if game.info.expert is None or game.info.expert_playouts is None:
        raise PuzzleError(
            f"{game.name} is a solitaire without expert playouts: its turns cannot be judged"
        )
    budget = puzzle_turns.TurnBudget()

    def keep_found(found: list[puzzle_turns.TurnFound], games: int) -> None:
        if keep is not None:
            header = puzzle_turns.set_header(budget, found) | {"games": games}
            keep(PuzzleSet(_numbered(game, found, budget.describe()), header))

    found, games = puzzle_turns.generate_found(
        game,
        count,
        seed,
        budget,
        jobs=jobs,
        progress=progress,
        max_games=min(max_games, 10_000),
        keep=keep_found,
    )
    if len(found) < count:
        raise PuzzleError(f"only {len(found)} puzzles in {games} games; asked for {count}")
    header = puzzle_turns.set_header(budget, found) | {"games": games}
    return PuzzleSet(_numbered(game, found, budget.describe()), header)


def _numbered(game: Game, found: Sequence[Found | TurnFound], estimate: str) -> list[Puzzle]:
    """What the searches found as the set's puzzles, numbered from 1 (``estimate``: how)."""
    from ludoteca.analysis.puzzle_search import Found

    return [
        Puzzle(
            id=f"{game.id}-{number}",
            position=item.position,
            to_move=item.to_move,
            solution=item.solution,
            chances=item.chances,
            margin=item.margin,
            source=item.source,
            estimate=estimate,
            intervals=item.intervals,
            reply=item.reply if isinstance(item, Found) else None,
            reply_chance=item.reply_chance if isinstance(item, Found) else None,
            turn=not isinstance(item, Found),
        )
        for number, item in enumerate(found, start=1)
    ]


def _found(puzzle: Puzzle) -> Any:
    """A puzzle of a set being resumed, as the search found it (before its number)."""
    from ludoteca.analysis.puzzle_search import Found

    if puzzle.estimate is None or puzzle.intervals is None:
        raise PuzzleError(f"{puzzle.id} is exact: only estimated sets are resumed")
    return Found(
        position=puzzle.position,
        to_move=puzzle.to_move,
        solution=puzzle.solution,
        chances=dict(puzzle.chances),
        intervals=dict(puzzle.intervals),
        margin=puzzle.margin,
        source=puzzle.source,
        reply=puzzle.reply,
        reply_chance=puzzle.reply_chance,
    )


def generate_exact(
    game: Game,
    count: int,
    seed: int,
    *,
    progress: Callable[[int, int], None] | None = None,
    max_games: int = 100_000,
) -> list[Puzzle]:
    """``count`` puzzles of a solved game from self-play, deterministic for ``seed``.

    Raises:
        PuzzleError: The game has no exact values, or too few puzzles were found.
    """
    if game.info.exact_values is None:
        raise PuzzleError(f"{game.name} is not solved: its puzzles are made by search (generate)")
    rng = random.Random(seed)
    puzzles: list[Puzzle] = []
    seen: set[str] = set()
    games = 0
    while len(puzzles) < count and games < max_games:
        games += 1
        state = game.initial_state()
        ply = 0
        while not state.is_over and len(puzzles) < count:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
                state = state.apply(move)
                ply += 1
                continue
            chances = move_chances(state)
            found = clear_best(chances)
            key = _without_move_count(state.to_text())
            if found is not None and key not in seen:
                seen.add(key)
                assert state.to_move is not None
                puzzles.append(
                    Puzzle(
                        id=f"{game.id}-{len(puzzles) + 1}",
                        position=state.to_text(),
                        to_move=game.player_names[state.to_move],
                        solution=found[0],
                        chances={m: round(c, 9) for m, c in sorted(chances.items())},
                        margin=round(found[1], 9),
                        source=f"self-play seed {seed}, game {games}, ply {ply}",
                    )
                )
            if rng.random() < RANDOM_SHARE:
                move_text = rng.choice([m.text for m in state.legal_moves()])
            else:
                move_text = max(chances, key=lambda m: (chances[m], m))
            state = state.apply(move_text)
            ply += 1
        if progress is not None:
            progress(len(puzzles), games)
    if len(puzzles) < count:
        raise PuzzleError(f"only {len(puzzles)} puzzles in {games} games; asked for {count}")
    return puzzles


def _without_move_count(text: str) -> str:
    """Position text without its last field (the ply count), to tell positions apart."""
    return text.rsplit(" ", 1)[0]

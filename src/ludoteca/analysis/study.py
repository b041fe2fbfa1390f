"""Balance studies: many games of each variant of a game, and what they say about its rules.

A study plays ``games`` games of every variant, then summarises each variant
(`ludoteca.analysis.study_summary`) and tests every measure against a baseline
(`ludoteca.analysis.study_measures`). A variant is one combination of the ``--vary`` values
played by one lineup of agents; several lineups (``--agents level:1 --agents level:3``) make a
study of balance at several strengths.

**Batches and seeds.** Each variant's games are split into batches of a fixed size
(`RANDOM_BATCH` games for random play, `AGENT_BATCH` with agents). A batch's seed is derived
from the study's seed, the variant's number and the batch's number only (`batch_seed`), and the
results are put back in batch order, so a study gives identical numbers whether it runs in one
process, in N worker processes or on a Ray cluster of any size. No two batches of a study share
a seed (`SeedBook`): the variants' games are independent samples, as the tests assume.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ludoteca.ai.agents import AgentError
from ludoteca.ai.specs import agent_from_spec
from ludoteca.analysis.batches import BatchRunner, batch_sizes
from ludoteca.analysis.study_games import (
    AGENT_BATCH,
    COLUMNS,
    NO_WINNER,
    RANDOM_BATCH,
    Batch,
    GameTable,
    StudyError,
    is_random_play,
    lead_measures,
    play_batch,
)
from ludoteca.core.errors import InvalidOptionError
from ludoteca.core.game import Game
from ludoteca.core.options import parse_option_assignments
from ludoteca.core.registry import make

__all__ = [
    "AGENT_BATCH",
    "COLUMNS",
    "MAX_GAMES",
    "NO_WINNER",
    "RANDOM_BATCH",
    "Batch",
    "GameTable",
    "SeedBook",
    "StudyError",
    "StudyPlan",
    "Variant",
    "batch_seed",
    "lead_measures",
    "parse_vary",
    "plan_study",
    "plan_variants",
    "run_study",
]

MAX_GAMES = 100_000_000
SEED_BITS = 31  # the kernels seed numba's generator with a 32-bit number; we keep it positive


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant of the study: every option of the game, what the study varies, who plays.

    Attributes:
        options: Every option with its value, as `Game.options` gives them.
        varied: The options set by ``--vary`` (or ``--search``), name to value, in the order
            given; ``agents`` is among them when the study has several lineups.
        agents: One agent spec per seat.
    """

    options: dict[str, Any]
    varied: dict[str, Any]
    agents: tuple[str, ...]

    @property
    def random_play(self) -> bool:
        """Whether every seat plays uniformly at random (the compiled path)."""
        return is_random_play(self.agents)

    @property
    def batch_size(self) -> int:
        """Games per batch: large in the kernels, small for agents (so workers share them)."""
        return RANDOM_BATCH if self.random_play else AGENT_BATCH


@dataclass(frozen=True, slots=True)
class StudyPlan:
    """Everything that fixes a study's numbers (not how or where it runs)."""

    game_id: str
    variants: tuple[Variant, ...]
    lineups: tuple[tuple[str, ...], ...]
    games: int
    seed: int
    baseline: int = 0
    batches: tuple[Batch, ...] = field(default=(), repr=False)


class SeedBook:
    """Hands out batch seeds that no other batch of the same study or search has.

    A batch's seed is `batch_seed` of (study seed, variant, batch); in the rare case that two
    batches draw the same 31-bit number, the later one (in the order they are asked for, which
    the plan fixes) draws again with an attempt number added, so the seeds stay fixed by the
    plan and still never repeat.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._given: dict[tuple[int, int], int] = {}
        self._taken: set[int] = set()

    def seed_for(self, variant: int, batch: int) -> int:
        """The seed of ``batch`` of ``variant`` (the same number every time it is asked)."""
        key = (variant, batch)
        if key not in self._given:
            attempt = 0
            value = batch_seed(self.seed, variant, batch)
            while value in self._taken:
                attempt += 1
                value = batch_seed(self.seed, variant, batch, attempt)
            self._given[key] = value
            self._taken.add(value)
        return self._given[key]


def batch_seed(seed: int, variant: int, batch: int, attempt: int = 0) -> int:
    """A 31-bit number drawn from (study seed, variant, batch), by numpy's `SeedSequence`."""
    entropy = [seed, variant, batch] + ([attempt] if attempt else [])
    state = np.random.SeedSequence(entropy).generate_state(1, dtype=np.uint32)
    return int(state[0]) >> (32 - SEED_BITS)


def parse_vary(texts: Sequence[str], flag: str = "--vary") -> list[tuple[str, list[str]]]:
    """Read ``NAME=V1,V2,...`` items (of ``--vary`` or ``--search``).

    Raises:
        StudyError: An item is not of that form, or an option is named twice.
    """
    result: list[tuple[str, list[str]]] = []
    for text in texts:
        name, sep, values_text = text.partition("=")
        values = [value.strip() for value in values_text.split(",") if value.strip()]
        if not sep or not name.strip() or not values:
            raise StudyError(f"{flag} {text!r} is not of the form NAME=V1,V2,...")
        if name.strip() in [n for n, _ in result]:
            raise StudyError(f"{flag} names {name.strip()!r} twice; give all its values once")
        result.append((name.strip(), values))
    return result


def plan_variants(
    game_id: str,
    *,
    options: Sequence[str] = (),
    vary: Sequence[str] = (),
    lineups: Sequence[Sequence[str]] = (("random",),),
    flag: str = "--vary",
) -> tuple[list[Variant], tuple[tuple[str, ...], ...]]:
    """Check the options, variations and lineups, and list the variants they make.

    Returns:
        The variants (option combinations in the order given, each lineup within one), and the
        lineups with one spec per seat.

    Raises:
        LudotecaError: An unknown game, option or agent, or a bad value (the message lists what
            is accepted).
    """
    shared = parse_option_assignments(list(options))
    varied = parse_vary(vary, flag)
    for name, _ in varied:
        if name in shared:
            raise StudyError(f"option {name!r} is given with -o and varied; use one of them")
    names = [name for name, _ in varied]
    games: list[tuple[Game, dict[str, Any]]] = []
    for combination in itertools.product(*[values for _, values in varied]):
        game = make(game_id, **shared, **dict(zip(names, combination, strict=True)))
        games.append((game, {name: game.options[name] for name in names}))
    keys = [repr(sorted(game.options.items())) for game, _ in games]
    if len(set(keys)) != len(keys):
        raise InvalidOptionError(f"{flag} gives the same variant twice; give each value once")
    full_lineups = tuple(_lineup(games[0][0], lineup) for lineup in lineups or (("random",),))
    if len(set(full_lineups)) != len(full_lineups):
        raise AgentError("--agents gives the same lineup twice; give each one once")
    variants = []
    for game, chosen in games:
        for lineup in full_lineups:
            shown = {**chosen, "agents": _lineup_text(lineup)} if len(full_lineups) > 1 else chosen
            variants.append(Variant(options=game.options, varied=shown, agents=lineup))
    return variants, full_lineups


def _lineup(game: Game, specs: Sequence[str]) -> tuple[str, ...]:
    """One spec per seat, checked: ``specs`` has one for each seat, or one for all."""
    lineup = tuple(spec.strip() for spec in specs) or ("random",)
    if len(lineup) == 1:
        lineup = lineup * game.num_players
    if len(lineup) != game.num_players:
        raise AgentError(
            f"{game.name} has {game.num_players} seat(s): give one agent spec for every seat "
            f"or one for all; got {len(lineup)}"
        )
    for spec in set(lineup):
        agent_from_spec(spec, game, seed=0)  # a bad spec fails now, not in a worker
    return lineup


def _lineup_text(lineup: tuple[str, ...]) -> str:
    return lineup[0] if len(set(lineup)) == 1 else " vs ".join(lineup)


def plan_study(
    game_id: str,
    *,
    options: Sequence[str] = (),
    vary: Sequence[str] = (),
    lineups: Sequence[Sequence[str]] = (("random",),),
    games: int = 1000,
    seed: int = 0,
    baseline: int = 0,
) -> StudyPlan:
    """Check a study's settings and fix its variants and batches.

    Args:
        game_id: The game.
        options: ``NAME=VALUE`` options shared by every variant.
        vary: ``NAME=V1,V2,...`` items; one variant per combination of their values.
        lineups: Who plays: each lineup is one agent spec per seat, or one for every seat (that
            agent playing itself); several lineups make a variant of each.
        games: Games per variant.
        seed: The study's seed (at least 0).
        baseline: The variant the others are compared with (its number, from 0).

    Raises:
        LudotecaError: An unknown game, option or agent, a bad value (the message lists what is
            accepted), or a number out of range.
    """
    check_games_and_seed(games, seed)
    variants, full_lineups = plan_variants(game_id, options=options, vary=vary, lineups=lineups)
    if not 0 <= baseline < len(variants):
        raise StudyError(f"--baseline must be from 1 to {len(variants)}; got {baseline + 1}")
    resolved = make(game_id, **variants[0].options).id
    book = SeedBook(seed)
    batches = []
    for index, variant in enumerate(variants):
        first = 0
        for number, count in enumerate(batch_sizes(games, variant.batch_size)):
            batches.append(variant_batch(resolved, index, variant, number, first, count, book))
            first += count
    return StudyPlan(
        game_id=resolved,
        variants=tuple(variants),
        lineups=full_lineups,
        games=games,
        seed=seed,
        baseline=baseline,
        batches=tuple(batches),
    )


def check_games_and_seed(games: int, seed: int) -> None:
    """Refuse a number of games or a seed out of range.

    Raises:
        StudyError: ``games`` is not from 1 to `MAX_GAMES`, or ``seed`` is negative.
    """
    if not 1 <= games <= MAX_GAMES:
        raise StudyError(f"--games must be from 1 to {MAX_GAMES:,}; got {games}")
    if seed < 0:
        raise StudyError(f"--seed must be 0 or more; got {seed}")


def variant_batch(
    game_id: str, index: int, variant: Variant, number: int, first: int, count: int, book: SeedBook
) -> Batch:
    """Batch ``number`` of variant ``index``: ``count`` games from game ``first`` on."""
    return Batch(
        variant=index,
        number=number,
        first_game=first,
        count=count,
        game_id=game_id,
        options=variant.options,
        agents=variant.agents,
        seed=book.seed_for(index, number),
    )


def run_study(
    plan: StudyPlan,
    *,
    jobs: int = 1,
    ray: str | None = None,
    progress: Callable[[Batch], None] | None = None,
) -> list[GameTable]:
    """Play every batch of ``plan``; return one table of games per variant.

    Args:
        plan: From `plan_study`.
        jobs: Worker processes (1 plays in this process).
        ray: ``None`` to work locally, ``""`` for a local Ray, else a Ray address.
        progress: Called with each batch once it is played.
    """

    def report(index: int, table: GameTable) -> None:
        if progress is not None:
            progress(plan.batches[index])

    with BatchRunner(jobs=min(jobs, max(1, len(plan.batches))), ray=ray) as runner:
        tables = runner.run(play_batch, plan.batches, report)
    return [
        GameTable.join([t for b, t in zip(plan.batches, tables, strict=True) if b.variant == i])
        for i in range(len(plan.variants))
    ]

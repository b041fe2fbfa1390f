"""Random playouts: whole uniformly random games from the start, inside the game's kernels.

They are counted three ways: *plies* (every move applied, chance outcomes such as die rolls
included), *decisions* (moves chosen by a player: chance outcomes excluded) and *turns* (a
player's whole turn, its die rolls included: the unit to compare engines in).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ludoteca.analysis.bench.mcts import SEARCH_SECONDS, SETTINGS, MCTSResult, bench_mcts
from ludoteca.analysis.bench.measure import Meter
from ludoteca.core.game import Game


@dataclass(frozen=True, slots=True)
class BenchResult:
    """One row's figures.

    Attributes:
        game: The game id.
        options: The options it ran with, as ``name=value`` text.
        row: ``"defaults"``, the name of an extra row (e.g. ``"play phase"``), or ``"options"``
            for options given on the command line.
        measures: What the row measures, in words.
        seconds: Wall-clock time of the playouts (after a warm-up).
        cpu_seconds: CPU time of the playouts.
        playouts: Random games played to the end.
        plies: Moves applied, chance outcomes included.
        decisions: Moves chosen by a player (chance outcomes excluded).
        turns: Players' turns (`ludoteca.core.game.PlayoutStats.turns`: a decision in Salta,
            Splinter and Salt 'n' Pepper; a roll and the move or pass after it in Pente Grammai;
            a roll and everything played until the turn ends in Steppin' Stones).
        playouts_per_second, plies_per_second, decisions_per_second, turns_per_second: The
            counts over ``seconds``.
        mean_plies: Mean game length in plies.
        mean_turns: Mean game length in turns.
        mean_legal_moves: Mean number of legal moves over the decision states visited.
        longest_plies: Plies in the longest game.
        wins: Games won, per player.
        draws: Games without a winner.
        safeguard_ends: Games ended by an engine safeguard (``max_plies``, ``max_turns``, Salt 'n'
            Pepper's double-pass stop) rather than by a rule.
        load_start, load_end: Load averages (1, 5, 15 minutes) around the playouts.
        mcts_iterations_per_second: MCTS iterations per second in the ``levels`` setting (0 when
            MCTS was not measured).
        mcts: Per setting, the MCTS figures.
    """

    game: str
    options: str
    row: str
    measures: str
    seconds: float
    cpu_seconds: float
    playouts: int
    plies: int
    decisions: int
    turns: int
    playouts_per_second: float
    plies_per_second: float
    decisions_per_second: float
    turns_per_second: float
    mean_plies: float
    mean_turns: float
    mean_legal_moves: float
    longest_plies: int
    wins: tuple[int, ...]
    draws: int
    safeguard_ends: int
    load_start: tuple[float, float, float]
    load_end: tuple[float, float, float]
    mcts_iterations_per_second: float = 0.0
    mcts: dict[str, MCTSResult] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["wins"] = list(self.wins)
        data["load_start"] = list(self.load_start)
        data["load_end"] = list(self.load_end)
        data["cpu_share"] = self.cpu_seconds / self.seconds if self.seconds > 0 else 0.0
        cpu = self.cpu_seconds
        data["per_cpu_second"] = {
            "plies": self.plies / cpu if cpu > 0 else 0.0,
            "decisions": self.decisions / cpu if cpu > 0 else 0.0,
            "turns": self.turns / cpu if cpu > 0 else 0.0,
        }
        data["mcts"] = {name: result.to_dict() for name, result in self.mcts.items()}
        return data


def bench_game(
    game: Game,
    *,
    seconds: float = 3.0,
    seed: int = 0,
    search_seconds: float = SEARCH_SECONDS,
    row: str = "defaults",
    measures: str = "uniformly random games from the start",
) -> BenchResult:
    """Run random playouts of ``game`` for about ``seconds``, then MCTS, and return the rates.

    A short warm-up first loads (or compiles) the kernels, so it is not measured. Each MCTS
    setting searches each benchmark position for ``search_seconds`` (0 skips MCTS).
    """
    game.random_playouts(1, seed)
    batch, playouts, plies, decisions, legal, longest, draws = 1, 0, 0, 0, 0, 0, 0
    turns = safeguard = 0
    wins = [0] * game.num_players
    meter = Meter()
    while meter.wall < seconds:
        before = meter.wall
        with meter.measure():
            stats = game.random_playouts(batch, seed + playouts + 1)
        playouts += stats.games
        plies += stats.plies
        decisions += stats.decisions
        turns += stats.turns
        safeguard += stats.safeguard_ends
        legal += stats.legal_moves
        longest = max(longest, stats.longest)
        draws += stats.draws
        wins = [total + won for total, won in zip(wins, stats.wins, strict=True)]
        if meter.wall - before < 0.05:  # grow batches so the timer's overhead stays negligible
            batch *= 2
    usage = meter.usage()
    elapsed = usage.wall_seconds
    mcts: dict[str, MCTSResult] = {}
    if search_seconds > 0:
        for setting in SETTINGS:
            mcts[setting] = bench_mcts(game, setting, seconds=search_seconds, seed=seed)
    return BenchResult(
        game=game.id,
        options=game.describe_options(),
        row=row,
        measures=measures,
        seconds=elapsed,
        cpu_seconds=usage.cpu_seconds,
        playouts=playouts,
        plies=plies,
        decisions=decisions,
        turns=turns,
        playouts_per_second=playouts / elapsed,
        plies_per_second=plies / elapsed,
        decisions_per_second=decisions / elapsed,
        turns_per_second=turns / elapsed,
        mean_plies=plies / playouts,
        mean_turns=turns / playouts,
        mean_legal_moves=legal / decisions if decisions else 0.0,
        longest_plies=longest,
        wins=tuple(wins),
        draws=draws,
        safeguard_ends=safeguard,
        load_start=usage.load_start,
        load_end=usage.load_end,
        mcts_iterations_per_second=mcts["levels"].iterations_per_second if mcts else 0.0,
        mcts=mcts,
    )

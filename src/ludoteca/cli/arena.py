"""``ludoteca arena``: a round-robin tournament between agent specs, printed as a table."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ludoteca.ai import ALL_AGENT_SPECS
from ludoteca.analysis.tournament import (
    GameResult,
    TournamentResult,
    default_jobs,
    run_tournament,
)
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game

MAX_GAMES_PER_PAIR = 100_000


def add_arena_command(
    commands: argparse._SubParsersAction,  # type: ignore[type-arg]
    handler: Callable[..., int],
) -> argparse.ArgumentParser:
    """Add ``arena`` to the ``ludoteca`` subcommands (``handler`` runs it)."""
    arena: argparse.ArgumentParser = commands.add_parser(
        "arena",
        help="a round-robin tournament between computer players",
        description=(
            "Play every pair of agents against each other (seats alternated), or each agent "
            "alone in a solitaire, and print wins, draws, losses, 95% Wilson intervals and Elo "
            f"ratings. Agents: {ALL_AGENT_SPECS}."
        ),
    )
    arena.add_argument("game", help="game id, e.g. splinter")
    arena.add_argument("agents", nargs="+", metavar="AGENT", help="agent specs, e.g. level:3")
    arena.add_argument(
        "--games", type=int, default=10, help="games per pair of agents (default 10)"
    )
    arena.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    arena.add_argument(
        "--jobs", type=int, default=None, help="worker processes (default: one per core)"
    )
    arena.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="play the games on Ray: a local cluster, or the cluster at ADDRESS",
    )
    arena.add_argument(
        "--save",
        metavar="DIR",
        default=None,
        help="folder for the saved games (default arena/<game>-<date-time>)",
    )
    arena.add_argument("--no-save", action="store_true", help="do not save the games")
    arena.add_argument("--json", action="store_true", help="print JSON instead of a table")
    arena.set_defaults(handler=handler)
    return arena


def run_arena(arguments: argparse.Namespace, console: Console, game: Game) -> int:
    """Run the tournament that ``arguments`` describe and print its table (or JSON)."""
    if not 1 <= arguments.games <= MAX_GAMES_PER_PAIR:
        raise LudotecaError(
            f"--games must be from 1 to {MAX_GAMES_PER_PAIR:,}; got {arguments.games}"
        )
    jobs = default_jobs() if arguments.jobs is None else arguments.jobs
    if jobs < 1:
        raise LudotecaError(f"--jobs must be at least 1; got {jobs}")
    save_dir = None
    if not arguments.no_save:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        save_dir = Path(arguments.save or f"arena/{game.id}-{stamp}")
        if save_dir.exists() and not save_dir.is_dir():
            raise LudotecaError(f"--save {save_dir} is a file; give a folder")

    def progress(result: GameResult) -> None:
        if not arguments.json:
            seats = " vs ".join(result.seats)
            line = f"game {result.number + 1}: {seats}: {_result_text(result)}"
            console.print(escape(line), style="dim")

    try:
        result = run_tournament(
            game,
            arguments.agents,
            games_per_pair=arguments.games,
            seed=arguments.seed,
            jobs=jobs,
            save_dir=save_dir,
            progress=progress,
            ray=arguments.ray,
        )
    except OSError as error:
        raise LudotecaError(f"could not save the games under {save_dir}: {error}") from error
    if arguments.json:
        console.print_json(json.dumps(result.to_dict()))
        return 0
    console.print(standings_table(result, game))
    if save_dir is not None:
        console.print(f"Saved {len(result.results)} games under {escape(str(save_dir))}/")
    return 0


def standings_table(result: TournamentResult, game: Game) -> Table:
    """The results table: W/D/L, score with its 95 % interval, Elo with its standard error."""
    solitaire = game.num_players == 1
    table = Table(title=f"{game.name}: {len(result.results)} games, seed {result.seed}")
    columns = ["agent", "games", "W", "D", "L", "score", "95% CI"]
    if solitaire:
        columns = ["agent", "games", "won", "lost", "win rate", "95% CI"]
    else:
        columns.append("Elo")
    for column in columns:
        table.add_column(column, justify="left" if column == "agent" else "right", no_wrap=True)
    for s in result.standings:
        interval = f"{s.low:.1%}-{s.high:.1%}"
        if solitaire:
            table.add_row(
                escape(s.spec), str(s.games), str(s.wins), str(s.losses), f"{s.score:.1%}", interval
            )
            continue
        table.add_row(
            escape(s.spec),
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{s.score:.1%}",
            interval,
            _elo_text(s.elo, s.elo_error),
        )
    return table


def _elo_text(elo: float | None, error: float | None) -> str:
    if elo is None or error is None:
        return ""
    return f"{elo:+.0f} ± {error:.0f}"


def _result_text(result: GameResult) -> str:
    if len(result.seats) == 1:
        verdict = "won" if result.returns[0] > 0 else "lost"
    elif max(result.returns) <= 0:
        verdict = "draw"
    else:
        verdict = f"{result.seats[result.returns.index(max(result.returns))]} won"
    return f"{verdict} ({result.reason}, {result.plies} plies)"

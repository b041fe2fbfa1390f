"""``ludoteca review FILE``: judge every decision of a saved game (see docs/review.md).

Prints the moves with their labels and the better move where there was one, each player's
summary and a compact chart of the first player's chance; ``--json`` prints the review as JSON,
``--plot`` draws the chart to a PNG or SVG file and ``--save`` keeps the review beside the game
as ``FILE.review.json`` (which ``ludoteca replay`` shows). Ctrl+C stops the workers at once and
writes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ludoteca.analysis.review import MAX_BUDGET, default_budget, method_for, review
from ludoteca.analysis.review_charts import MARKS, check_plot_path, sparkline, write_plot
from ludoteca.analysis.review_model import LABELS, Review, ReviewError
from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.core.notation import numbered_plies
from ludoteca.core.records import GameRecord, write_atomically

INTERRUPTED = 130
REVIEW_SUFFIX = ".review.json"
_STYLES = {
    "best": "green",
    "good": "",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}


def review_path(game_file: str | os.PathLike[str]) -> Path:
    """Where the review of a saved game is kept: ``FILE.review.json`` beside it."""
    path = Path(game_file)
    return path.with_name(path.name + REVIEW_SUFFIX)


def saved_review(record: GameRecord, game_file: str | os.PathLike[str]) -> Review | None:
    """The saved review of ``record``, or ``None`` if there is none.

    Raises:
        ReviewError: The review file is unreadable, or belongs to another game (other moves,
            game or options), so it must not be shown.
    """
    path = review_path(game_file)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReviewError(f"{path} is not a readable review: {error}") from None
    found = Review.from_json(data)
    game = record.game
    if (found.game, found.options, found.moves) != (game.id, dict(game.options), record.moves):
        raise ReviewError(f"{path} reviews another game (its moves or options differ)")
    return found


def _budget(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_BUDGET:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 1 to {MAX_BUDGET:,} (playouts per move, or search "
            f"iterations per position); got {text!r}"
        )
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 0; got {text!r}")
    return value


def add_review_command(
    commands: argparse._SubParsersAction,  # type: ignore[type-arg]
    handler: Callable[..., int],
) -> argparse.ArgumentParser:
    """Add ``review`` to the ``ludoteca`` subcommands (``handler`` runs it)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "review",
        help="judge every move of a saved game: labels, better moves, accuracy",
        description=(
            "Estimate the mover's chance of winning before and after every move of a saved "
            "game, label each move (best, good, inaccuracy, mistake, blunder) and show the "
            "better move. Pente Grammai's chances are exact; Steppin' Stones' come from the "
            "planner's playouts; the other games' from MCTS searches. See docs/review.md."
        ),
    )
    parser.add_argument("file", help="a saved game (JSON)")
    parser.add_argument(
        "--budget",
        type=_budget,
        help="playouts per move (Steppin' Stones; default 8) or MCTS iterations per position "
        "(Salta, Salt 'n' Pepper, Splinter; default 10,000); Pente Grammai is exact",
    )
    parser.add_argument("--seed", type=_count, default=0, help="seed of the estimates (0)")
    parser.add_argument("--jobs", type=_count, help="worker processes (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument("--plot", metavar="OUT.png|OUT.svg", help="draw the chance chart")
    parser.add_argument(
        "--save", action="store_true", help=f"keep the review beside the game (FILE{REVIEW_SUFFIX})"
    )
    parser.set_defaults(handler=handler)
    return parser


def run_review_command(arguments: argparse.Namespace, console: Console) -> int:
    """Review the game ``arguments.file``; print, plot and save as asked."""
    if arguments.jobs is not None and arguments.jobs < 1:
        raise LudotecaError(f"--jobs must be at least 1; got {arguments.jobs}")
    if arguments.plot is not None:
        check_plot_path(arguments.plot)
    try:
        record = records.load(arguments.file)
    except KeyboardInterrupt:
        console.print("Interrupted while reading the game: nothing was written.")
        return INTERRUPTED
    game = record.game
    budget = arguments.budget if arguments.budget is not None else default_budget(game)
    started, cpu_started = time.perf_counter(), time.process_time()
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("positions"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=arguments.json,
        transient=True,
    )
    done = 0
    with progress:
        task = progress.add_task(f"Reviewing {game.name}", total=None)

        def advance(finished: int, total: int) -> None:
            nonlocal done
            done = finished
            progress.update(task, completed=finished, total=total)

        try:
            result = review(
                record,
                budget=arguments.budget,
                seed=arguments.seed,
                progress=advance,
                jobs=arguments.jobs,
            )
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"Interrupted after {done:,} positions: nothing was written.")
            return INTERRUPTED
    wall = time.perf_counter() - started
    if arguments.plot is not None:
        title = f"{game.name}: {Path(arguments.file).name}"
        write_plot(result, arguments.plot, title=title, first_player=game.player_names[0])
    if arguments.save:
        write_atomically(review_path(arguments.file), json.dumps(result.to_json(), indent=1) + "\n")
    if arguments.json:
        console.print_json(json.dumps(result.to_json()))
        return 0
    print_review(result, record, console)
    method = {"exact": "exact values", "rollouts": "planner playouts", "search": "MCTS searches"}
    per = "" if budget is None else f", budget {budget:,}"
    console.print(
        f"{method[method_for(game)]}{per}, seed {arguments.seed}: {wall:.1f} s "
        f"(CPU here {time.process_time() - cpu_started:.1f} s; load {os.getloadavg()[0]:.2f})"
    )
    if arguments.plot is not None:
        console.print(f"Chart: {escape(arguments.plot)}")
    if arguments.save:
        console.print(f"Saved: {escape(str(review_path(arguments.file)))}")
    return 0


def print_review(result: Review, record: GameRecord, console: Console) -> None:
    """The moves with their labels, the players' summaries and the chart."""
    names = record.game.player_names
    plies = numbered_plies(record.states, record.moves)
    table = Table(title=f"{record.game.name}: {len(result.decisions)} decisions")
    for column in ("ply", "player", "move", "label", "chance", "loss", "better move"):
        table.add_column(column, justify="right" if column in ("ply", "chance", "loss") else "left")
    for decision in result.decisions:
        style = _STYLES[decision.label]
        better = (
            ""
            if decision.best_move == decision.move or decision.label == "best"
            else (f"{decision.best_move} ({decision.best_chance:.0%})")
        )
        label = f"[{style}]{decision.label}[/{style}]" if style else decision.label
        table.add_row(
            str(decision.ply + 1),  # plies count from 1 everywhere (ludoteca.core.notation)
            escape(names[decision.player]),
            escape(plies[decision.ply].label) + (" (forced)" if decision.forced else ""),
            label,
            f"{decision.chance_before:.0%} → {decision.chance_after:.0%}",
            f"{decision.loss:.1f}",
            escape(better),
        )
    console.print(table)
    summary = Table(title="Players")
    summary.add_column("player")
    summary.add_column("accuracy", justify="right")
    for label in LABELS:
        summary.add_column(label, justify="right")
    for player, name in enumerate(names):
        stats = result.players[player]
        accuracy = "–" if stats.accuracy is None else f"{stats.accuracy:.1f} %"
        summary.add_row(escape(name), accuracy, *(str(stats.labels[label]) for label in LABELS))
    console.print(summary)
    line, marks = sparkline(result, width=min(72, max(20, console.width - 12)))
    if line:
        first = names[0]
        console.print(f"{escape(first)}'s chance of winning, ply by ply (low = 0 %, full = 100 %):")
        console.print(f"  │{line}│")
        if marks:
            legend = ", ".join(f"{mark} {label}" for label, mark in MARKS.items())
            console.print(f"   {marks}")
            console.print(f"  ({legend})")

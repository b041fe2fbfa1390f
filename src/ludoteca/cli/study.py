"""``ludoteca study``: a balance report of a game's variants, on this machine or a Ray cluster.

Plays ``--games`` games of every variant, shows a progress bar with the time left, then the
summary and the comparisons, and writes ``report.html``, ``study.json`` and ``games.csv`` in
``--out``. Ctrl+C stops the study at once; nothing is written for an interrupted study (the
numbers of part of a study would be biased towards short games).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

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

from ludoteca.ai import ALL_AGENT_SPECS
from ludoteca.analysis.study import Batch, plan_study, run_study
from ludoteca.analysis.study_files import write_study
from ludoteca.analysis.study_summary import summarise
from ludoteca.analysis.tournament import default_jobs
from ludoteca.core.errors import LudotecaError

INTERRUPTED = 130


def add_study_command(
    commands: argparse._SubParsersAction,  # type: ignore[type-arg]
    handler: Callable[..., int],
) -> argparse.ArgumentParser:
    """Add ``study`` to the ``ludoteca`` subcommands (``handler`` runs it)."""
    study: argparse.ArgumentParser = commands.add_parser(
        "study",
        help="a balance report: many games of each variant, with intervals and tests",
        description=(
            "Play many games of each variant of a game (one per combination of the --vary "
            "values) and report wins per seat, the first player's advantage, game lengths and "
            "legal moves with 95% Wilson intervals, and compare each variant with the first "
            "(two-sided test, Holm's correction). Writes report.html, study.json and games.csv. "
            f"Agents: {ALL_AGENT_SPECS}."
        ),
    )
    study.add_argument("game", help="game id, e.g. salt_n_pepper")
    study.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="an option to vary, e.g. --vary first=0,1 (repeatable: every combination)",
    )
    study.add_argument(
        "--agents",
        nargs="+",
        default=["random"],
        metavar="SPEC",
        help="one agent spec per seat, or one for all (default: random, in the compiled kernels)",
    )
    study.add_argument(
        "--games", type=int, default=10_000, help="games per variant (default 10,000)"
    )
    study.add_argument("--seed", type=int, default=0, help="the study's seed (default 0)")
    study.add_argument(
        "--baseline",
        type=int,
        default=1,
        metavar="N",
        help="the variant the others are compared with, counted from 1 (default 1)",
    )
    study.add_argument(
        "--jobs", type=int, default=None, help="worker processes (default: one per core)"
    )
    study.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run the games on Ray: a local cluster, or the cluster at ADDRESS",
    )
    study.add_argument(
        "--out", default=None, metavar="DIR", help="output folder (default studies/<game>-<time>)"
    )
    study.add_argument("--json", action="store_true", help="print study.json instead of tables")
    study.set_defaults(handler=handler)
    return study


def run_study_command(
    arguments: argparse.Namespace, console: Console, argv: list[str] | None = None
) -> int:
    """Run the study that ``arguments`` describe; print its tables (or JSON) and write files."""
    jobs = default_jobs() if arguments.jobs is None else arguments.jobs
    if jobs < 1:
        raise LudotecaError(f"--jobs must be at least 1; got {jobs}")
    plan = plan_study(
        arguments.game,
        options=arguments.option,
        vary=arguments.vary,
        agents=arguments.agents,
        games=arguments.games,
        seed=arguments.seed,
        baseline=arguments.baseline - 1,
    )
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(arguments.out or f"studies/{plan.game_id}-{stamp}")
    if out.exists() and not out.is_dir():
        raise LudotecaError(f"--out {out} is a file; give a folder")
    total = plan.games * len(plan.variants)
    done = 0
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=arguments.json,
    )
    with progress:
        task = progress.add_task(f"Studying {plan.game_id}", total=total)

        def advance(batch: Batch) -> None:
            nonlocal done
            done += batch.count
            progress.update(task, advance=batch.count)

        try:
            tables = run_study(plan, jobs=jobs, ray=arguments.ray, progress=advance)
        except KeyboardInterrupt:
            progress.stop()
            console.print(
                f"Interrupted after {done:,} of {total:,} games: nothing was saved "
                "(the numbers of part of a study would favour short games)."
            )
            return INTERRUPTED
    wall = time.perf_counter() - started
    study = summarise(plan, tables)
    run = {
        "command": "ludoteca " + shlex.join(argv if argv is not None else sys.argv[1:]),
        "backend": "ray" if arguments.ray is not None else f"{jobs} process(es)",
        "ray_address": arguments.ray,
        "wall_seconds": wall,
        "cpu_seconds": _cpu_seconds() - cpu_started,
        "load_average": list(os.getloadavg()),
        "cores": default_jobs(),
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "games_per_second": total / wall if wall > 0 else None,
    }
    try:
        write_study(out, study, run, tables)
    except OSError as error:
        raise LudotecaError(f"could not write the study to {out}: {error}") from error
    if arguments.json:
        console.print_json(json.dumps(study))
        return 0
    console.print(summary_table(study))
    if study["comparisons"]:
        console.print(comparison_table(study))
    console.print(
        f"{total:,} games in {wall:.1f} s ({total / wall:,.0f} games/s; "
        f"CPU {run['cpu_seconds']:.1f} s; load {run['load_average'][0]:.2f}). "
        f"Report: {escape(str(out / 'report.html'))}"
    )
    return 0


def _cpu_seconds() -> float:
    """CPU time of this process and its finished workers (Ray workers are not counted)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def summary_table(study: dict[str, Any]) -> Table:
    """One row per variant: wins per seat, first player, length and legal moves (in %)."""
    solitaire = len(study["players"]) == 1
    table = Table(
        title=f"{study['name']}: {study['games_per_variant']:,} games per variant "
        "(rates in %, [95% Wilson interval])"
    )
    columns = ["variant"]
    if solitaire:
        columns += ["win rate"]
    else:
        columns += [f"{name} wins" for name in study["players"]]
        columns += ["draws", "first player wins"]
    columns += ["safeguard ends", "plies (mean)", "legal moves"]
    exact = any(v["exact_first_player_value"] is not None for v in study["variants"])
    if exact:
        columns.append("exact (perfect play)")
    for column in columns:
        table.add_column(column, justify="left" if column == "variant" else "right")
    for v in study["variants"]:
        row = [escape(v["label"])]
        for seat, rate in enumerate(v["win_rate"]):
            row.append(_rate(rate, v["win_ci"][seat]))
        if not solitaire:
            row += [_rate(v["draw_rate"], v["draw_ci"])]
            row += [_rate(v["first_player_win_rate"], v["first_player_ci"])]
        row += [f"{v['safeguard_ends']:,}", f"{v['plies']['mean']:.1f}"]
        row.append(f"{v['legal_moves_mean']:.2f}")
        if exact:
            value = v["exact_first_player_value"]
            row.append("" if value is None else f"{100 * value:.1f}")
        table.add_row(*row)
    return table


def _rate(rate: float, interval: list[float]) -> str:
    return f"{100 * rate:.1f} [dim][{100 * interval[0]:.1f}–{100 * interval[1]:.1f}][/dim]"


def comparison_table(study: dict[str, Any]) -> Table:
    """Each variant against the baseline: the difference in the first player's win rate."""
    base = study["variants"][study["baseline"]]["label"]
    rate = "win rate" if len(study["players"]) == 1 else "first player's win rate"
    table = Table(title=f"Against {base}: change in the {rate} (Holm-corrected)")
    for column in ("variant", "difference", "95% CI", "p", "p (Holm)", ""):
        table.add_column(column, justify="left" if column in ("variant", "") else "right")
    for c in study["comparisons"]:
        low, high = c["ci"]
        table.add_row(
            escape(c["label"]),
            f"{c['difference']:+.1%}",
            f"{low:+.1%} to {high:+.1%}",
            _p_text(c["p_value"]),
            _p_text(c["p_adjusted"]),
            "[bold]significant[/bold]" if c["significant"] else "no evidence of a change",
        )
    return table


def _p_text(p: float) -> str:
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"

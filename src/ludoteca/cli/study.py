"""``ludoteca study``: a balance report of a game's variants, or a search for the best one.

A study plays ``--games`` games of every variant (``--vary``, and one variant per ``--agents``
lineup), shows a progress bar with the time left, then the summary and the findings, and writes
``report.html``, ``study.json``, ``games.csv`` and ``run.json`` in ``--out``. A search
(``--search ... --objective ...``) races the variants instead and writes ``search.json`` and
``run.json``. Ctrl+C stops either at once; nothing is written for an interrupted run (the
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
from ludoteca.analysis.batches import BatchRunner
from ludoteca.analysis.study import Batch, plan_study, run_study
from ludoteca.analysis.study_files import write_json, write_study
from ludoteca.analysis.study_objectives import ACCEPTED as OBJECTIVES
from ludoteca.analysis.study_search import plan_search, run_search
from ludoteca.analysis.study_summary import summarise
from ludoteca.analysis.tournament import default_jobs
from ludoteca.core.errors import LudotecaError

INTERRUPTED = 130
STUDY_GAMES = 10_000


def add_study_command(
    commands: argparse._SubParsersAction,  # type: ignore[type-arg]
    handler: Callable[..., int],
) -> argparse.ArgumentParser:
    """Add ``study`` to the ``ludoteca`` subcommands (``handler`` runs it)."""
    study: argparse.ArgumentParser = commands.add_parser(
        "study",
        help="a balance report of a game's variants, or a search for the best one",
        description=(
            "Play many games of each variant of a game (one per combination of the --vary "
            "values, for each --agents lineup) and test every measure: seat balance and the "
            "first move against 50%, wins, draws, lengths, legal moves and leads against the "
            "baseline, with Holm's correction. Writes report.html, study.json, games.csv. "
            "With --search, race the variants for the best by --objective instead. "
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
        action="append",
        nargs="+",
        default=None,
        metavar="SPEC",
        help="who plays: one spec per seat, or one for every seat (that agent playing itself); "
        "repeat --agents for several strengths (default: random, in the compiled kernels)",
    )
    study.add_argument(
        "--games",
        type=int,
        default=None,
        help=f"games per variant (default {STUDY_GAMES:,}); with --search, the most per variant",
    )
    study.add_argument("--seed", type=int, default=0, help="the study's seed (default 0)")
    study.add_argument(
        "--baseline",
        type=int,
        default=None,
        metavar="N",
        help="the variant the others are compared with, counted from 1 (default 1)",
    )
    study.add_argument(
        "--search",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="race every combination of these values for the best by --objective (repeatable)",
    )
    study.add_argument(
        "--objective",
        default=None,
        metavar="OBJECTIVE",
        help=f"what --search looks for (default balance): {OBJECTIVES}",
    )
    study.add_argument(
        "--budget",
        default=None,
        metavar="GAMES|SECONDSs",
        help="what --search may spend: games in all (200000) or seconds (90s)",
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
    study.add_argument("--json", action="store_true", help="print the JSON instead of tables")
    study.set_defaults(handler=handler)
    return study


def run_study_command(
    arguments: argparse.Namespace, console: Console, argv: list[str] | None = None
) -> int:
    """Run the study or search that ``arguments`` describe; print it and write its files."""
    jobs = default_jobs() if arguments.jobs is None else arguments.jobs
    if jobs < 1:
        raise LudotecaError(f"--jobs must be at least 1; got {jobs}")
    lineups = arguments.agents or [["random"]]
    command = "ludoteca " + shlex.join(argv if argv is not None else sys.argv[1:])
    if arguments.search:
        return _search(arguments, console, jobs, lineups, command)
    for flag, value in (("--objective", arguments.objective), ("--budget", arguments.budget)):
        if value is not None:
            raise LudotecaError(f"{flag} goes with --search NAME=V1,V2,...")
    plan = plan_study(
        arguments.game,
        options=arguments.option,
        vary=arguments.vary,
        lineups=lineups,
        games=STUDY_GAMES if arguments.games is None else arguments.games,
        seed=arguments.seed,
        baseline=(arguments.baseline or 1) - 1,
    )
    out = _out_folder(arguments.out, plan.game_id)
    total = plan.games * len(plan.variants)
    progress = _progress(console, arguments.json, total)
    done = 0
    clock = _Clock()
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
            _interrupted(console, f"{done:,} of {total:,} games")
            return INTERRUPTED
    study = summarise(plan, tables)
    run = clock.run(command, arguments.ray, jobs, total)
    try:
        write_study(out, study, run, tables)
    except OSError as error:
        raise LudotecaError(f"could not write the study to {out}: {error}") from error
    if arguments.json:
        console.print_json(json.dumps(study))
        return 0
    console.print(summary_table(study))
    for finding in study["findings"]:
        console.print(f"• {escape(finding['text'])}", highlight=False)
    console.print(f"{_timing(run, total)} Report: {escape(str(out / 'report.html'))}")
    return 0


def _search(
    arguments: argparse.Namespace,
    console: Console,
    jobs: int,
    lineups: list[list[str]],
    command: str,
) -> int:
    if arguments.vary:
        raise LudotecaError(
            "give --vary (a study of every variant) or --search (a race for the best), not both"
        )
    if len(lineups) > 1:
        raise LudotecaError("--search races one lineup: give --agents once")
    if arguments.baseline is not None:
        raise LudotecaError("--baseline belongs to a study; a search ranks every variant")
    plan = plan_search(
        arguments.game,
        search=arguments.search,
        objective=arguments.objective or "balance",
        options=arguments.option,
        lineup=lineups[0],
        max_games=arguments.games,
        budget=arguments.budget,
        seed=arguments.seed,
    )
    out = _out_folder(arguments.out, plan.game_id)
    progress = _progress(console, arguments.json, None)
    done = 0
    clock = _Clock()
    with progress:
        task = progress.add_task(f"Racing {len(plan.variants)} variants", total=None)

        def advance(batch: Batch) -> None:
            nonlocal done
            done += batch.count
            progress.update(task, advance=batch.count)

        try:
            with BatchRunner(jobs=jobs, ray=arguments.ray) as runner:
                result = run_search(plan, runner, progress=advance)
        except KeyboardInterrupt:
            progress.stop()
            _interrupted(console, f"{done:,} games")
            return INTERRUPTED
    run = clock.run(command, arguments.ray, jobs, result["games_used"])
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_json(out / "search.json", result)
        write_json(out / "run.json", run)
    except OSError as error:
        raise LudotecaError(f"could not write the search to {out}: {error}") from error
    if arguments.json:
        console.print_json(json.dumps(result))
        return 0
    console.print(ranking_table(result))
    console.print(search_summary(result), highlight=False)
    console.print(f"{_timing(run, result['games_used'])} Saved: {escape(str(out))}")
    return 0


class _Clock:
    """Wall and CPU time since it was made, for ``run.json``."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.cpu_started = _cpu_seconds()

    def run(self, command: str, ray: str | None, jobs: int, games: int) -> dict[str, Any]:
        wall = time.perf_counter() - self.started
        return {
            "command": command,
            "backend": "ray" if ray is not None else f"{jobs} process(es)",
            "ray_address": ray,
            "wall_seconds": wall,
            "cpu_seconds": _cpu_seconds() - self.cpu_started,
            "load_average": list(os.getloadavg()),
            "cores": default_jobs(),
            "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "games": games,
            "games_per_second": games / wall if wall > 0 else None,
        }


def _out_folder(text: str | None, game_id: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(text or f"studies/{game_id}-{stamp}")
    if out.exists() and not out.is_dir():
        raise LudotecaError(f"--out {out} is a file; give a folder")
    return out


def _progress(console: Console, quiet: bool, total: int | None) -> Progress:
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
    ]
    if total is not None:
        columns += [TextColumn("ETA"), TimeRemainingColumn()]
    return Progress(*columns, console=console, disable=quiet)


def _interrupted(console: Console, what: str) -> None:
    console.print(
        f"Interrupted after {what}: nothing was saved "
        "(the numbers of part of a study would favour short games)."
    )


def _timing(run: dict[str, Any], games: int) -> str:
    wall = run["wall_seconds"]
    rate = games / wall if wall > 0 else 0.0
    shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2f}"
    return (
        f"{games:,} games in {wall:.1f} s ({shown} games/s; "
        f"CPU {run['cpu_seconds']:.1f} s; load {run['load_average'][0]:.2f})."
    )


def _cpu_seconds() -> float:
    """CPU time of this process and its finished workers (Ray workers are not counted)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def summary_table(study: dict[str, Any]) -> Table:
    """One row per variant: wins per seat, balance, length and legal moves (in %)."""
    solitaire = len(study["players"]) == 1
    table = Table(
        title=f"{study['name']}: {study['games_per_variant']:,} games per variant "
        "(rates in %, [95% interval])"
    )
    columns = ["variant"]
    if solitaire:
        columns += ["win rate"]
    else:
        columns += [f"{name} wins" for name in study["players"]]
        columns += ["draws", f"{study['players'][0]} share of won", "first mover share of won"]
    columns += ["safeguard ends", "plies (mean)", "turns (mean)", "legal moves"]
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
            row += [_rate(v["decided_share"][0], v["decided_share_ci"][0])]
            if v["first_mover_always"] is None:
                row += [_rate(v["first_move_share"], v["first_move_ci"])]
            else:
                row += [f"{study['players'][v['first_mover_always']]} always"]
        row += [f"{v['safeguard_ends']:,}", f"{v['plies']['mean']:.1f}"]
        row += [f"{v['turns']['mean']:.1f}", f"{v['legal_moves_mean']:.2f}"]
        if exact:
            value = v["exact_first_player_value"]
            row.append("" if value is None else f"{100 * value:.1f}")
        table.add_row(*row)
    return table


def _rate(rate: float | None, interval: list[float]) -> str:
    if rate is None:
        return "–"
    return f"{100 * rate:.1f} [dim][{100 * interval[0]:.1f}–{100 * interval[1]:.1f}][/dim]"


def ranking_table(result: dict[str, Any]) -> Table:
    """The search's ranking, best first, with each score's 95 % interval."""
    objective = result["objective"]
    table = Table(
        title=f"{result['name']}: {escape(objective['definition'])} ({objective['goal']})"
    )
    for column in ("rank", "variant", "score", "95% interval", "games", ""):
        table.add_column(column, justify="left" if column in ("variant", "") else "right")
    for rank, entry in enumerate(result["ranking"], start=1):
        low, high = entry["ci"]
        status = entry["status"]
        if entry["dropped_after_round"] is not None:
            status = f"worse (dropped after round {entry['dropped_after_round']})"
        table.add_row(
            str(rank),
            escape(entry["label"]),
            _score(entry["score"]),
            f"{_score(low)} to {_score(high)}",
            f"{entry['games']:,}",
            status,
        )
    return table


def _score(value: float | None) -> str:
    return "–" if value is None else f"{value:.4f}"


def search_summary(result: dict[str, Any]) -> str:
    """What the search found and what it saved, in one paragraph."""
    count = len(result["ranking"])
    best = result["ranking"][0]
    verdict = (
        f"Best: {best['label']}, significantly better than every other variant"
        if result["decided"]
        else f"Best estimate: {best['label']}; "
        + ", ".join(e["label"] for e in result["ranking"][1:] if not e["significantly_worse"])
        + " could not be told apart from it at this precision"
    )
    return (
        f"{escape(verdict)} (stopped: {result['stopped']}). The race played "
        f"{result['games_used']:,} games; the full grid at equal precision ({count} variants × "
        f"{best['games']:,} games, as many as the best got) would play "
        f"{result['full_grid_games']:,}: {result['saved_games']:,} fewer "
        f"({result['saved_share']:.0%}); looking once, with milder intervals, it would still "
        f"need about {result['full_grid_one_look_games']:,}."
    )

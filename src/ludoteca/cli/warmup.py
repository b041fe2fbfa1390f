"""``ludoteca warmup``: compile (or load from numba's cache) every game's kernels now.

The first start after an install compiles every game's rules kernels and the searches, which
takes tens of seconds; later starts load them from numba's on-disk cache in a few seconds.
``ludoteca serve`` (and so ``make run``) runs the same warm-up, with the same progress bar,
before it accepts requests; this command also compiles the learning interface's kernels
(observations, masks, `ludoteca.rl.VectorEnv`), which the server never calls.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ludoteca.ai.warmup import WarmUpTime, warm_up


def add_warmup_parser(commands: Any) -> None:
    """Add the ``warmup`` command to the ``ludoteca`` subcommands."""
    warmup = commands.add_parser(
        "warmup",
        help="compile every game's kernels now (later starts load them from the cache)",
        description="Compile, or load from numba's on-disk cache, the rules kernels of every "
        "registered game, the searches and evaluations the computer players use and the "
        "learning interface's batch kernels, with a progress bar, then print the time each "
        "game took.",
    )
    warmup.add_argument("--json", action="store_true", help="print JSON instead of a table")
    warmup.set_defaults(handler=warmup_command)


def warm_up_with_progress(console: Console, *, learning: bool = False) -> list[WarmUpTime]:
    """Run `ludoteca.ai.warmup.warm_up` with a progress bar on ``console``."""
    columns = (
        TextColumn("Preparing the games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
    )
    # A bar on a terminal only: in a pipe or a log it would leave a blank line.
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as bar:
        task = bar.add_task("", total=None)

        def progress(game_id: str, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, description=game_id)

        return warm_up(progress, learning=learning)


def warmup_command(arguments: argparse.Namespace, console: Console, read_line: object) -> int:
    """Warm up every game; print the time each took."""
    started, cpu = time.perf_counter(), time.process_time()
    quiet = Console(quiet=True) if arguments.json else console
    times = warm_up_with_progress(quiet, learning=True)
    total, total_cpu = time.perf_counter() - started, time.process_time() - cpu
    if arguments.json:
        payload = {
            "seconds": total,
            "cpu_seconds": total_cpu,
            "games": [
                {"game": t.game, "seconds": t.seconds, "cpu_seconds": t.cpu_seconds} for t in times
            ],
        }
        console.print_json(json.dumps(payload))
        return 0
    for t in times:
        console.print(f"{t.game:<16} {t.seconds:6.1f} s  (CPU {t.cpu_seconds:.1f} s)")
    console.print(f"Games ready in {total:.1f} s (CPU {total_cpu:.1f} s).")
    return 0

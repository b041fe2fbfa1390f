"""``ludoteca warmup``: compile (or load from numba's cache) every game's kernels now.

The first start after an install compiles every game's rules kernels and the searches, which
takes minutes of CPU; later starts load them from numba's on-disk cache in seconds. A game the
cache holds is loaded here; the others are compiled in parallel processes, one per game, as many
at once as there are cores (`ludoteca.preparation`). ``ludoteca serve`` (and so ``make run``)
runs the same preparation while it already answers, with the same report
(`PreparationReport`): a line per game, and a progress bar on a terminal. This command also
compiles the learning interface's kernels (observations, masks, `ludoteca.rl.VectorEnv`),
which the server never calls.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ludoteca.core.registry import game_ids
from ludoteca.preparation import Event, Failed, Outcome, Prepared, default_processes, prepare_games


def add_warmup_parser(commands: Any) -> None:
    """Add the ``warmup`` command to the ``ludoteca`` subcommands."""
    warmup = commands.add_parser(
        "warmup",
        help="compile every game's kernels now (later starts load them from the cache)",
        description="Compile, or load from numba's on-disk cache, the rules kernels of every "
        "registered game, the searches and evaluations the computer players use and the "
        "learning interface's batch kernels, in parallel processes (one per game, as many at "
        "once as there are cores), then print the time each game took.",
    )
    warmup.add_argument("--json", action="store_true", help="print JSON instead of a table")
    warmup.set_defaults(handler=warmup_command)


class PreparationReport:
    """What the console shows while games are prepared: a line per game, and on a terminal a bar.

    `event` is given to `ludoteca.preparation.Preparation` (it is called from its threads).
    """

    def __init__(self, console: Console, games: Sequence[str], processes: int) -> None:
        """Report on ``console`` the preparation of ``games`` by ``processes`` processes."""
        self.console = console
        self.games = tuple(games)
        self.processes = processes
        self.outcomes: dict[str, Outcome] = {}
        self._running: list[str] = []
        self._lock = threading.Lock()
        self._started = time.perf_counter()
        self._finished = threading.Event()
        self._bar: Progress | None = None
        self._task: Any = None

    def start(self) -> None:
        """Say what is being prepared; show the bar on a terminal."""
        self._started = time.perf_counter()
        if not self.games:
            self._finished.set()
            return
        if self.console.is_terminal:
            self._bar = Progress(
                TextColumn("Preparing the games"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
            )
            self._task = self._bar.add_task("", total=len(self.games))
            self._bar.start()
        else:  # a pipe or a log: lines (a bar would print nothing there)
            self.console.print(
                f"Preparing {len(self.games)} games (a first start compiles them, "
                f"{self.processes} at once: minutes; later starts load them from the cache)."
            )

    def event(self, event: Event) -> None:
        """Show one event of the preparation."""
        with self._lock:
            if event.kind == "started" and event.game not in self._running:
                self._running.append(event.game)
            elif event.kind in ("ready", "failed"):
                if event.game in self._running:
                    self._running.remove(event.game)
                assert event.outcome is not None
                self.outcomes[event.game] = event.outcome
            done = len(self.outcomes)
            running = ", ".join(self._running)
        name = escape(event.game)
        if event.kind == "retrying":
            self.console.print(f"Preparing {name} ... failed ({escape(event.reason)}); once more")
        elif event.kind == "failed":
            self.console.print(
                f"Preparing {name} ... failed: {escape(event.reason)}. "
                f"{name} cannot be played until this is fixed."
            )
        elif isinstance(event.outcome, Prepared):
            outcome = event.outcome
            where = "" if outcome.compiled else ", from the cache"
            self.console.print(
                f"Preparing {name} ... ready in {outcome.seconds:.1f} s "
                f"(CPU {outcome.cpu_seconds:.1f} s{where})"
            )
        if self._bar is not None:
            self._bar.update(self._task, completed=done, description=running)
        if done == len(self.games) and not self._finished.is_set():
            self._finished.set()
            self.stop()
            self.console.print(self.summary())

    def summary(self) -> str:
        """One line: how long the games took, wall and CPU, and which failed."""
        wall = time.perf_counter() - self._started
        prepared = [o for o in self.outcomes.values() if isinstance(o, Prepared)]
        cpu = sum(o.cpu_seconds for o in prepared)
        compiled = sum(o.compiled for o in prepared)
        failed = [o.game for o in self.outcomes.values() if isinstance(o, Failed)]
        how = f"; {compiled} compiled, {self.processes} at once" if compiled else ""
        line = f"Games ready in {wall:.1f} s (CPU {cpu:.1f} s{how})."
        if failed:
            line += f" Not prepared: {', '.join(failed)}."
        return escape(line)

    def stop(self) -> None:
        """Take the bar away (the server may still be running)."""
        bar, self._bar = self._bar, None
        if bar is not None:
            bar.stop()


def warmup_command(arguments: argparse.Namespace, console: Console, read_line: object) -> int:
    """Prepare every game; print the time each took. Exit status 1 if one failed."""
    started, cpu = time.perf_counter(), time.process_time()
    games = game_ids()
    processes = min(default_processes(), len(games))
    report = PreparationReport(Console(quiet=True) if arguments.json else console, games, processes)
    report.start()
    try:
        outcomes = prepare_games(games, learning=True, on_event=report.event)
    finally:
        report.stop()
    prepared = [o for o in outcomes if isinstance(o, Prepared)]
    failed = [o for o in outcomes if isinstance(o, Failed)]
    total = time.perf_counter() - started
    total_cpu = time.process_time() - cpu + sum(o.cpu_seconds for o in prepared)
    if arguments.json:
        payload = {
            "seconds": total,
            "cpu_seconds": total_cpu,
            "processes": processes,
            "games": [
                {
                    "game": o.game,
                    "seconds": o.seconds,
                    "cpu_seconds": o.cpu_seconds,
                    "compiled": o.compiled,
                }
                for o in prepared
            ],
            "failed": [{"game": o.game, "reason": o.reason} for o in failed],
        }
        console.print_json(json.dumps(payload))
    return 1 if failed else 0

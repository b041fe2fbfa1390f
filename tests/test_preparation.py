"""Preparing games in parallel processes: outcomes, crashes, hangs, stopping, and the report.

The preparations here run `tests.preparing.pretend` instead of compiling anything (its process
starts Python and does what the game's name says), so each costs a fraction of a second of CPU.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import threading
from pathlib import Path

from rich.console import Console

from ludoteca.cli.warmup import PreparationReport
from ludoteca.preparation import (
    NICENESS,
    Event,
    Failed,
    Preparation,
    Prepared,
    never_cached,
    read_status,
)
from tests.preparing import pretend


def _kinds(events: list[Event], game: str) -> list[str]:
    return [event.kind for event in events if event.game == game]


def test_each_game_is_prepared_in_its_own_process_and_failures_are_reported(
    tmp_path: Path,
) -> None:
    events: list[Event] = []
    preparation = Preparation(
        ["cached", "crashes", "fine", "raises"],
        processes=3,
        status_dir=tmp_path,
        on_event=events.append,
        prepare=pretend,
        from_cache=lambda game, learning: game == "cached",
    )
    cached, crashed, fine, raised = preparation.run()
    preparation.close()

    assert isinstance(fine, Prepared) and fine.cpu_seconds > 0 and fine.seconds > 0
    assert fine.compiled
    assert _kinds(events, "fine") == ["started", "ready"]
    # A game the cache holds whole is loaded here, with no process of its own.
    assert isinstance(cached, Prepared) and not cached.compiled
    assert _kinds(events, "cached") == ["started", "ready"]
    # A crash or an error is tried once more, then reported with what went wrong.
    assert crashed == Failed(
        "crashes", "its preparation process stopped unexpectedly (exit status 3)"
    )
    assert raised == Failed("raises", "RuntimeError: no compiler here")
    for game in ("crashes", "raises"):
        assert _kinds(events, game) == ["started", "retrying", "started", "failed"]
    # Each outcome is written for the server processes.
    assert read_status(tmp_path, "fine") == fine
    assert read_status(tmp_path, "cached") == cached
    assert read_status(tmp_path, "crashes") == crashed
    assert read_status(tmp_path, "unknown") is None
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no partial file


def test_a_hanging_preparation_is_stopped_after_its_time_limit() -> None:
    # The process never answers, so it runs past any limit, however busy the machine.
    preparation = Preparation(["hangs"], prepare=pretend, from_cache=never_cached, timeout=1)
    (outcome,) = preparation.run()
    preparation.close()
    assert outcome == Failed("hangs", "its preparation took longer than 1 s")
    assert not [p for p in multiprocessing.active_children() if "prepare" in p.name]


def test_closing_stops_the_processes_still_running() -> None:
    started = threading.Event()
    preparation = Preparation(
        ["hangs"],
        prepare=pretend,
        from_cache=never_cached,
        on_event=lambda event: started.set() if event.kind == "started" else None,
    )
    preparation.start()
    assert started.wait(60)
    preparation.close()
    assert preparation.wait(0)
    assert preparation.outcomes["hangs"] == Failed("hangs", "the preparation was stopped")
    assert not [p for p in multiprocessing.active_children() if "prepare" in p.name]


def _reported(console: Console) -> PreparationReport:
    report = PreparationReport(console, ["salta", "splinter", "pente_grammai"], 2)
    report.start()
    report.event(Event("started", "salta"))
    report.event(Event("started", "splinter"))
    report.event(Event("ready", "salta", outcome=Prepared("salta", 34.25, 30.12)))
    cached = Prepared("pente_grammai", 0.52, 0.31, compiled=False)
    report.event(Event("ready", "pente_grammai", outcome=cached))
    report.event(Event("retrying", "splinter", reason="it was killed by SIGKILL"))
    report.event(Event("failed", "splinter", reason="RuntimeError: no", outcome=Failed(
        "splinter", "RuntimeError: no")))  # fmt: skip
    return report


def test_the_report_prints_a_line_per_game_when_the_output_is_not_a_terminal() -> None:
    out = io.StringIO()
    _reported(Console(file=out, width=200, force_terminal=False))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Preparing 3 games (a first start compiles them, 2 at once")
    assert lines[1] == "Preparing salta ... ready in 34.2 s (CPU 30.1 s)"
    assert lines[2] == "Preparing pente_grammai ... ready in 0.5 s (CPU 0.3 s, from the cache)"
    assert lines[3] == "Preparing splinter ... failed (it was killed by SIGKILL); once more"
    assert lines[4].startswith("Preparing splinter ... failed: RuntimeError: no.")
    assert lines[5].startswith("Games ready in ")
    assert "(CPU 30.4 s; 1 compiled, 2 at once)" in lines[5]
    assert lines[5].endswith("Not prepared: splinter.")


def test_the_report_shows_a_bar_on_a_terminal() -> None:
    out = io.StringIO()
    report = PreparationReport(Console(file=out, width=120, force_terminal=True), ["salta"], 1)
    report.start()
    report.event(Event("started", "salta"))
    assert "Preparing the games" in out.getvalue()
    report.event(Event("ready", "salta", outcome=Prepared("salta", 2.0, 1.5)))
    assert "Games ready in" in out.getvalue()


def test_the_processes_run_as_much_nicer_as_asked() -> None:
    """A server's preparation yields to its requests (niceness 5 by default); a test run's,
    which only waits for it, runs at the run's own priority (0)."""
    base = os.nice(0)
    expected = {f"nice-{min(base + n, 19)}": n for n in (NICENESS, 0)}
    for game, niceness in expected.items():
        preparation = Preparation(
            [game], prepare=pretend, from_cache=never_cached, niceness=niceness
        )
        (outcome,) = preparation.run()
        preparation.close()
        assert isinstance(outcome, Prepared), outcome
    wrong = Preparation([f"nice-{base}"], prepare=pretend, from_cache=never_cached, niceness=1)
    (outcome,) = wrong.run()
    wrong.close()
    assert isinstance(outcome, Failed) and f"niceness {min(base + 1, 19)}" in outcome.reason

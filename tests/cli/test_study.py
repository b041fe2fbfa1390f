from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import run, run_combined

ISSUE_KEYS = {
    "options",
    "games",
    "wins",
    "draws",
    "safeguard_ends",
    "win_rate",
    "win_ci",
    "first_player_win_rate",
    "first_player_ci",
    "plies",
    "legal_moves_mean",
    "exact_first_player_value",
}


def test_a_study_writes_its_report_json_and_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "study"
    argv = ["study", "salt_n_pepper", "--vary", "first=0,1", "--games", "300", "--out", str(out)]
    status, output = run_combined(capsys, [*argv, "--jobs", "1"])
    assert status == 0, output
    assert "Salt wins" in output and "Pepper wins" in output
    assert "Seat imbalance. first=0: Pepper wins" in output
    assert "600 games in" in output
    assert sorted(p.name for p in out.iterdir()) == [
        "games.csv",
        "report.html",
        "run.json",
        "study.json",
    ]
    study = json.loads((out / "study.json").read_text())
    assert [v["games"] for v in study["variants"]] == [300, 300]
    with (out / "games.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 600
    assert {row["variant"] for row in rows} == {"1", "2"}
    page = (out / "report.html").read_text()
    # One plot per measure: seat balance, outcomes, draws and safeguard ends, plies, turns,
    # legal moves; none for the first move, which one seat always makes in both variants.
    assert page.count("<svg") == 6
    assert page.index("In short") < page.index("Results per variant") < page.index("Every test")
    assert "Seat imbalance" in page and "random legal moves" in page
    assert "ludoteca study salt_n_pepper --vary first=0,1" in page
    run_info = json.loads((out / "run.json").read_text())
    assert run_info["wall_seconds"] > 0 and len(run_info["load_average"]) == 3


def test_json_output_has_the_documented_fields(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["study", "steppin_stones", "--games", "20", "--json", "--out", str(tmp_path / "s")]
    status, out, err = run(capsys, argv)
    assert status == 0, err
    study = json.loads(out)
    assert study["game"] == "steppin_stones" and study["lineups"] == [["random"]]
    (variant,) = study["variants"]
    assert set(variant) >= ISSUE_KEYS
    assert len(variant["wins"]) == 1
    assert set(variant["plies"]) >= {"mean", "median", "p10", "p90", "max"}
    assert all(test["against"] is None for test in study["tests"])
    assert study["findings"][0]["kind"] == "played"
    assert json.loads((tmp_path / "s" / "study.json").read_text()) == study


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["study", "chess"], "unknown game"),
        (["study", "salta", "-o", "scoring=best"], "accepted: one of played, simplified"),
        (["study", "salta", "--vary", "scoring"], "not of the form NAME=V1,V2"),
        (["study", "salta", "--vary", "colour=a,b"], "accepted options: goal"),
        (["study", "salta", "--agents", "level:2", "x"], "unknown agent 'x'; accepted: random"),
        (["study", "steppin_stones", "--agents", "expert", "expert"], "1 seat(s)"),
        (["study", "salta", "--games", "0"], "--games must be from 1"),
        (["study", "salta", "--jobs", "0"], "--jobs must be at least 1"),
        (["study", "salta", "--objective", "balance"], "--objective goes with --search"),
        (["study", "salta", "--budget", "9"], "--budget goes with --search"),
        (["study", "salta", "--search", "goal=seed,ludii", "--vary", "scoring=played"], "not both"),
        (["study", "salta", "--search", "goal=seed,ludii", "--budget", "x"], "--budget 'x'"),
        (["study", "salta", "--search", "goal=seed,ludii", "--objective", "y"], "accepted: bal"),
        (["study", "salta", "--search", "goal=seed,ludii", "--baseline", "2"], "--baseline"),
        (
            ["study", "salta", "--search", "goal=seed", "--agents", "level:1", "--agents", "x"],
            "give --agents once",
        ),
    ],
)
def test_bad_input_gets_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, [*argv, "--out", str(tmp_path / "s")])
    assert status == 2
    assert message.lower() in err.lower()
    assert "Traceback" not in out + err
    assert not (tmp_path / "s").exists()


def test_a_search_ranks_the_variants_and_says_what_it_saved(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "search"
    argv = ["study", "salt_n_pepper", "--search", "first=0,1", "-o", "ranks=8", "--jobs", "1"]
    status, output = run_combined(capsys, [*argv, "--out", str(out)])
    assert status == 0, output
    assert "Best: first=0, significantly better than every other variant" in output
    assert "the full grid at equal precision" in output
    assert sorted(p.name for p in out.iterdir()) == ["run.json", "search.json"]
    result = json.loads((out / "search.json").read_text())
    best, other = result["ranking"]
    assert set(best) >= {"options", "score", "ci", "games"}
    assert best["options"]["first"] == 0 and best["options"]["ranks"] == 8
    assert other["significantly_worse"]
    status, printed, err = run(capsys, [*argv, "--json", "--out", str(tmp_path / "again")])
    assert status == 0, err
    assert json.loads(printed) == result


def test_several_strengths_are_variants_of_one_study(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["study", "salt_n_pepper", "-o", "ranks=6", "--games", "4", "--json"]
    lineups = ["--agents", "random:seed=1", "--agents", "random:seed=2", "random:seed=3"]
    status, out, err = run(capsys, [*argv, *lineups, "--out", str(tmp_path / "s")])
    assert status == 0, err
    study = json.loads(out)
    assert [v["label"] for v in study["variants"]] == [
        "agents=random:seed=1",
        "agents=random:seed=2 vs random:seed=3",
    ]
    assert study["lineups"] == [
        ["random:seed=1", "random:seed=1"],
        ["random:seed=2", "random:seed=3"],
    ]
    assert {t["measure"] for t in study["tests"]} >= {"seat_balance", "lead_changes", "plies"}


def test_an_out_folder_that_is_a_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    status, _, err = run(capsys, ["study", "salta", "--games", "5", "--out", str(taken)])
    assert status == 2 and "is a file" in err
    assert taken.read_text() == "keep me"


def _hear_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a terminal's foreground job does


def _wait_for_workers(pid: int, count: int) -> None:
    """Wait until process ``pid`` runs ``count`` pool workers and hears Ctrl+C again.

    While its pool starts, the study ignores Ctrl+C (so that the workers start ignoring it);
    its other child, multiprocessing's resource tracker, is not a worker.
    """
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if not children.exists():
        pytest.skip("needs Linux's /proc to see the worker processes")
    deadline = time.monotonic() + 240  # a guard against a hang, not a measurement
    while not (len(_workers(children)) >= count and _catches_ctrl_c(pid)):
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)


def _workers(children: Path) -> list[str]:
    workers = []
    for child in children.read_text().split():
        with contextlib.suppress(OSError):  # a child may end meanwhile
            if b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes():
                workers.append(child)
    return workers


def _catches_ctrl_c(pid: int) -> bool:
    """Whether process ``pid`` has a handler for SIGINT (its mask of caught signals, from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    return False


@pytest.mark.parametrize(
    "command",
    [
        ["study", "salta", "--games", "10000000"],
        ["study", "salta", "--search", "scoring=played,simplified", "--games", "10000000"],
    ],
    ids=["study", "search"],
)
def test_ctrl_c_stops_a_study_or_search_cleanly_and_saves_nothing(
    tmp_path: Path, command: list[str]
) -> None:
    out = tmp_path / "s"
    jobs = ["--jobs", "2", "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, "-m", "ludoteca", *command, *jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=_hear_ctrl_c,
    )
    try:
        _wait_for_workers(process.pid, 2)  # the study is under way: its pool is playing
        os.killpg(process.pid, signal.SIGINT)
        output, _ = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):  # nothing of the study may outlive it
            os.killpg(process.pid, signal.SIGKILL)
        if process.poll() is None:
            process.communicate()
    assert process.returncode == 130, output
    assert "Interrupted after" in output and "nothing was saved" in output
    assert "Traceback" not in output
    assert not out.exists()


def test_ray_without_ray_installed_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what Python does for a missing module
    argv = ["study", "salta", "--games", "5", "--ray", "--out", str(tmp_path / "s")]
    status, out, err = run(capsys, argv)
    assert status == 2
    assert "pip install 'ludoteca[cluster]'" in err
    assert "Traceback" not in out + err

from __future__ import annotations

import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ludoteca
from ludoteca.core import records
from tests.support import run, run_combined


def test_play_against_a_computer_level(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "vs-level.json"
    status, _out = run_combined(
        capsys, ["play", "salta", "--p1", "level:2", "--seed", "3"], "c3-d4", f"save {saved}"
    )
    assert status == 0
    record = records.load(saved)
    assert record.moves[0] == "c3-d4"
    assert len(record.moves) == 2  # the computer answered
    assert record.players == ("human", "level:2")


def test_hint_names_a_legal_move_and_a_win_chance(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(capsys, ["play", "splinter"], "hint")
    assert status == 0
    found = re.search(r"Hint: (\S+) \(estimated win chance (\d+)%\)", out)
    assert found is not None, out
    start = ludoteca.make("splinter").initial_state()
    assert found.group(1) in {m.text for m in start.legal_moves()}
    assert 0 <= int(found.group(2)) <= 100
    assert "hint" in run(capsys, ["play", "splinter"], "help")[1]


def test_arena_prints_standings_and_saves_the_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "games"
    argv = ["arena", "salt_n_pepper", "random", "mcts:iters=20", "--games", "2", "--jobs", "1"]
    status, out = run_combined(capsys, [*argv, "-o", "ranks=6", "--save", str(folder)])
    assert status == 0
    assert "Salt 'n' Pepper: 2 games, seed 0" in out
    assert re.search(r"mcts:iters=20 +│ +2 │", out), out
    assert "Elo" in out and "95% CI" in out
    assert len(list(folder.glob("*.json"))) == 2


def test_arena_json_lists_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "splinter", "random", "random:seed=1", "--games", "2", "--jobs", "1"]
    status, out, _ = run(capsys, [*argv, "--no-save", "--json"])
    assert status == 0
    data = json.loads(out)
    assert data["game"] == "splinter"
    assert len(data["results"]) == 2
    assert {s["spec"] for s in data["standings"]} == {"random", "random:seed=1"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "splinter", "random", "random"], "each agent spec may appear once"),
        (["arena", "splinter", "random", "level:7"], "level must be 1, 2, 3, 4 or 5"),
        (["arena", "splinter", "random", "level:1", "--games", "0"], "--games must be from 1"),
        (["arena", "splinter", "random", "level:1", "--jobs", "0"], "--jobs must be at least 1"),
        (["arena", "chess", "random", "level:1"], "unknown game 'chess'"),
        (["arena", "splinter", "random", "level:1", "-o", "size=3x3"], "size"),
    ],
)
def test_arena_refuses_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out = run_combined(capsys, [*argv, "--no-save"])
    assert status == 2
    assert message in out


def test_arena_refuses_a_save_folder_that_is_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    argv = ["arena", "splinter", "random", "level:1", "--games", "1", "--save", str(blocker)]
    status, out = run_combined(capsys, argv)
    assert status == 2
    assert "is a file; give a folder" in out
    assert blocker.read_text() == "not a folder"


def _hear_ctrl_c() -> None:
    """Run in the child before it starts: Ctrl+C as in a terminal's foreground job.

    A test run started in the background (``nohup``, ``&``) ignores SIGINT, and children
    inherit that, so without this the arena would never hear the signal the test sends.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _helper_threads(pid: int) -> list[int]:
    """The ids of the process's threads other than the main one (Linux's /proc)."""
    return [int(tid) for tid in os.listdir(f"/proc/{pid}/task") if int(tid) != pid]


def _pool_workers(pid: int) -> list[str]:
    """The process ids of the process's children (Linux's /proc)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return path.read_text().split() if path.exists() else []


def _wait_for_the_pool(process: subprocess.Popen[str]) -> None:
    """Wait until the arena's pool runs (its helper threads exist), then a moment more, so the
    workers are in their first games (about 20 s each)."""
    if not Path(f"/proc/{process.pid}/task").is_dir():
        time.sleep(8)  # no /proc: a fixed wait
        return
    deadline = time.monotonic() + 60
    # Worker processes, not just threads: numpy's import starts threads of its own, long before
    # the command has finished importing and installed its Ctrl+C handling.
    while not _pool_workers(process.pid) and process.poll() is None:
        assert time.monotonic() < deadline, "the arena's pool never started"
        time.sleep(0.1)
    time.sleep(1.0)


def _signal_a_helper_thread(pid: int) -> None:
    """Send SIGINT to one of the process's threads other than the main one (Linux's tgkill)."""
    tgkill = getattr(ctypes.CDLL(None), "tgkill", None)
    if tgkill is None or not Path(f"/proc/{pid}/task").is_dir():
        pytest.skip("needs Linux's tgkill to aim a signal at one thread")
    helpers = _helper_threads(pid)
    assert helpers, "the pool's helper threads should be running"
    assert tgkill(pid, helpers[0], signal.SIGINT) == 0


@pytest.mark.parametrize("delivered_to", ["the process group", "a helper thread"])
def test_ctrl_c_stops_a_parallel_arena_at_once_without_a_traceback(
    tmp_path: Path, delivered_to: str
) -> None:
    """The kernel may hand Ctrl+C to any thread; the main thread must still notice at once.

    Quick enough for every run: instead of a fixed 8 s wait it signals as soon as the pool's
    threads are up (plus a second), while the workers play their first games.
    """
    argv = ["arena", "salta", "level:3", "level:4", "--games", "4", "--jobs", "2", "--no-save"]
    process = subprocess.Popen(
        [sys.executable, "-m", "ludoteca", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, like a terminal's foreground job
        preexec_fn=_hear_ctrl_c,
        cwd=tmp_path,
    )
    _wait_for_the_pool(process)
    if delivered_to == "a helper thread":
        _signal_a_helper_thread(process.pid)
    else:
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl+C sends to the whole group
    try:
        output, _ = process.communicate(timeout=120)  # a safety net against a hang, not a bound
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130
    assert "Interrupted." in output
    assert "Traceback" not in output
    # At once: before any game was over (each takes many seconds), whatever the machine's load.
    assert "game 1:" not in output and "game 2:" not in output, output

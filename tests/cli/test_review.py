"""``ludoteca review``: the printed review, --json, --plot, --save, bad input, Ctrl+C, replay."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ludoteca
from ludoteca.analysis.review_model import LABELS
from ludoteca.cli import main
from ludoteca.core import records
from ludoteca.core.notation import numbered_plies
from tests.support import run, run_combined


def saved_game(folder: Path, game_id: str, plies: int, seed: int = 3) -> Path:
    game = ludoteca.make(game_id)
    rng = random.Random(seed)
    state, moves = game.initial_state(), []
    while not state.is_over and len(moves) < plies:
        move = rng.choice(state.legal_moves())
        moves.append(move.text)
        state = state.apply(move)
    path = folder / f"{game_id}.json"
    records.save(records.create(game, moves), path)
    return path


def test_review_prints_labels_summary_and_chart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = saved_game(tmp_path, "pente_grammai", 60)
    status, output = run_combined(capsys, ["review", str(game), "--jobs", "1"])
    assert status == 0, output
    assert "accuracy" in output and "White" in output and "Blue" in output
    assert "chance of winning, ply by ply" in output
    assert "exact values" in output
    assert any(label in output for label in ("good", "inaccuracy", "mistake", "blunder"))


def test_review_json_has_the_documented_keys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = saved_game(tmp_path, "pente_grammai", 50)
    status, out, err = run(capsys, ["review", str(game), "--json", "--jobs", "1"])
    assert status == 0, err
    data = json.loads(out)
    assert data["game"] == "pente_grammai" and data["method"] == "exact"
    moves = json.loads(game.read_text())["moves"]
    for decision in data["decisions"]:
        assert moves[decision["ply"]] == decision["move"]
        assert 0 <= decision["chance_before"] <= 1 and decision["label"] in LABELS
    assert all(set(player["labels"]) == set(LABELS) for player in data["players"])


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_writes_png_or_svg(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str
) -> None:
    game = saved_game(tmp_path, "salta", 12)
    plot = tmp_path / f"chart{suffix}"
    argv = ["review", str(game), "--budget", "60", "--jobs", "1", "--plot", str(plot)]
    status, output = run_combined(capsys, argv)
    assert status == 0, output
    head = plot.read_bytes()[:200]
    assert head.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in plot.read_bytes()
    assert not list(tmp_path.glob(".*tmp")), "a temporary file was left behind"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--budget", "0"], "--budget: must be a whole number from 1"),
        (["--budget", "lots"], "--budget: must be a whole number from 1"),
        (["--plot", "chart.pdf"], "--plot writes .png or .svg files"),
        (["--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_options_get_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], message: str
) -> None:
    game = saved_game(tmp_path, "salta", 4)
    try:
        status = main(["review", str(game), *extra])
    except SystemExit as stop:  # argparse refuses some before the command runs
        status = int(stop.code or 0)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err and "Traceback" not in err


def test_a_missing_or_corrupt_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _out, err = run(capsys, ["review", str(tmp_path / "none.json")])
    assert status == 2 and "none.json" in err and "Traceback" not in err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    status, _out, err = run(capsys, ["review", str(broken)])
    assert status == 2 and "Traceback" not in err and err.count("\n") == 1


def test_saved_review_shows_in_replay_and_a_stale_one_is_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = saved_game(tmp_path, "pente_grammai", 40)
    before = game.read_text()
    status, reviewed = run_combined(capsys, ["review", str(game), "--save", "--jobs", "1"])
    assert status == 0, reviewed
    sidecar = tmp_path / "pente_grammai.json.review.json"
    data = json.loads(sidecar.read_text())
    assert game.read_text() == before  # the saved game is never touched
    status, output = run_combined(capsys, ["replay", str(game), "--all"])
    assert status == 0, output
    first = data["decisions"][0]
    record = records.load(game)
    plies = numbered_plies(record.states, record.moves)
    # One numbering: the review's table and the replay name the same ply by the same number.
    for decision in data["decisions"][:5]:
        ply = plies[decision["ply"]]
        assert ply.ply == decision["ply"] + 1 and ply.move == decision["move"]
        assert f"Ply {ply.ply} · {ply.label} · {decision['label']}" in output
        row = next(line for line in reviewed.split("\n") if f" {ply.label} " in line)
        assert row.split("│")[1].strip() == str(ply.ply)
    data["moves"] = data["moves"][:-1]
    sidecar.write_text(json.dumps(data))
    status, output = run_combined(capsys, ["replay", str(game), "--all"])
    assert status == 0 and "Review not shown" in output and "reviews another game" in output
    assert f"{first['move']} · {first['label']}" not in output


def _hear_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a terminal's foreground job does


@pytest.mark.timeout(120)
def test_ctrl_c_stops_a_review_cleanly_and_writes_nothing(tmp_path: Path) -> None:
    game = saved_game(tmp_path, "salta", 120)
    plot = tmp_path / "chart.png"
    argv = ["review", str(game), "--budget", "200000", "--jobs", "2", "--save"]
    process = subprocess.Popen(
        [sys.executable, "-m", "ludoteca", *argv, "--plot", str(plot)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=_hear_ctrl_c,
        env={**os.environ, "PYTHONPATH": str(Path(ludoteca.__file__).parents[1])},
    )
    time.sleep(8)  # the workers are searching their first positions
    os.killpg(process.pid, signal.SIGINT)
    try:
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, output
    assert "Interrupted after" in output and "nothing was written" in output
    assert "Traceback" not in output
    assert not plot.exists() and not (tmp_path / "salta.json.review.json").exists()

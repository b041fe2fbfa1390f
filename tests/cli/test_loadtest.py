"""``ludoteca loadtest`` against real servers: short runs, failover, Ctrl+C, refused arguments."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from ludoteca.cli import main
from ludoteca.loadtest import LoadTest, LoadTestError, Settings, is_loopback, parse_target
from ludoteca.web.app import ServerSettings
from tests.support import run
from tests.web.server import free_port, running_server

KEYS = {
    "urls",
    "seconds",
    "games",
    "watchers",
    "moves",
    "moves_per_s",
    "latency_ms",
    "errors",
    "errors_by_kind",
    "conflicts",
    "rate_limited",
    "failovers",
    "games_created",
    "games_finished",
    "watchers_connected",
    "watchers_saw_last_move",
    "watcher_lag_ms",
    "games_replayed",
    "replay_failures",
    "client_cpu_s",
    "load_average",
}


def loadtest_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    status, out, err = run(capsys, ["loadtest", *argv, "--json", "--seed", "5"])
    assert "Traceback" not in out + err
    report: dict[str, Any] = json.loads(out)
    return status, report


def test_a_short_run_plays_watches_and_replays_every_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with running_server(tmp_path / "games.sqlite3") as base:
        status, report = loadtest_json(
            capsys, base, "--games", "6", "--watchers", "3", "--seconds", "3"
        )
    assert set(report) >= KEYS
    assert set(report["latency_ms"]) == {"p50", "p95", "p99", "max"}
    assert set(report["watcher_lag_ms"]) == {"p50", "p95", "max"}
    assert report["urls"] == [base]
    assert report["moves"] > 0 and report["moves_per_s"] > 0
    assert (
        0
        < report["latency_ms"]["p50"]
        <= report["latency_ms"]["p99"]
        <= report["latency_ms"]["max"]
    )
    assert report["errors"] == 0, report["error_examples"]
    assert report["games_created"] >= 6
    assert report["games_replayed"] == report["games_created"]
    assert report["replay_failures"] == 0, report["replay_failure_examples"]
    assert report["watchers_connected"] == 3
    assert report["watchers_saw_last_move"] == 3
    assert report["watcher_lag_ms"]["max"] is not None
    assert report["client_cpu_s"] > 0
    assert status == 0


def test_a_rate_spreads_the_moves_like_players_who_think(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with running_server(tmp_path / "games.sqlite3") as base:
        status, report = loadtest_json(
            capsys, base, "--games", "4", "--watchers", "0", "--seconds", "3", "--rate", "8"
        )
    assert status == 0 and report["errors"] == 0 and report["rate"] == 8
    # 8 moves a second for 3 s: each game moves every half second, no faster.
    assert 12 <= report["moves"] <= 8 * 3 + 4, report["moves"]
    assert report["games_replayed"] == report["games_created"]


def test_the_table_names_the_figures_and_a_solitaire_has_one_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with running_server(tmp_path / "games.sqlite3") as base:
        argv = ["loadtest", base, "--games", "2", "--watchers", "1", "--seconds", "1.5"]
        status, out, err = run(capsys, [*argv, "--game", "steppin_stones"])
    assert "Traceback" not in out + err
    assert "Playing 2 games with 1 watcher for 1.5 s" in err
    for row in ("moves/s", "move latency p50 / p95 / p99 / max (ms)", "watcher lag", "client CPU"):
        assert row in out
    assert "errors" in out and "games replayed from the saved records" in out
    assert status == 0


def test_a_killed_process_is_a_failover_and_no_acknowledged_move_is_lost(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two servers on one database; one stops mid-run; its games go on through the other."""
    db = tmp_path / "games.sqlite3"
    outcome: list[int] = []
    with ExitStack() as first, running_server(db) as second:
        doomed = first.enter_context(running_server(db))
        argv = ["loadtest", doomed, second, "--games", "4", "--watchers", "4", "--seconds", "4"]
        argv.append("--json")
        runner = threading.Thread(target=lambda: outcome.append(main(argv)))
        runner.start()
        time.sleep(1.0)
        first.close()  # the first server stops; its listening socket is gone
        assert runner.is_alive(), "the run ended before the server stopped"
        runner.join(timeout=30)
    report = json.loads(capsys.readouterr().out)
    assert report["failovers"] > 0, report
    assert report["errors"] == 0, report["error_examples"]
    assert report["moves"] > 0
    assert report["games_replayed"] == report["games_created"]
    assert outcome == [0]


def test_watchers_on_one_process_see_the_moves_made_through_another(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite3"
    with running_server(db) as first, running_server(db) as second:
        status, report = loadtest_json(
            capsys, first, second, "--games", "4", "--watchers", "4", "--seconds", "2"
        )
    assert report["errors"] == 0, report["error_examples"]
    assert report["games_replayed"] == report["games_created"]
    assert report["watchers_saw_last_move"] == 4
    assert report["watcher_lag_ms"]["max"] is not None
    assert status == 0


def test_a_server_that_does_not_answer_is_counted_as_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, report = loadtest_json(
        capsys, f"http://127.0.0.1:{free_port()}", "--games", "2", "--seconds", "1"
    )
    assert report["moves"] == 0
    assert report["errors"] > 0
    assert any("ConnectError" in kind for kind in report["errors_by_kind"])
    assert status == 1


def test_rate_limited_creation_is_counted_waited_for_and_explained(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The server's own limit: a burst of 10 new games, then one a second.
    settings = ServerSettings(game_rate=60, hint_rate=0)
    with running_server(tmp_path / "games.sqlite3", settings=settings) as base:
        argv = ["loadtest", base, "--games", "12", "--seconds", "3", "--json"]
        status, out, err = run(capsys, argv)
    report = json.loads(out)
    assert report["rate_limited"] == report["rate_limited_creation"] > 0
    assert report["games_created"] >= 12
    assert report["errors"] == 0, report["error_examples"]
    assert report["games_replayed"] == report["games_created"]
    assert "The server limited game creation" in err
    assert "ludoteca serve --game-rate 0" in err
    assert status == 0


def _hear_ctrl_c() -> None:
    """Ctrl+C as in a terminal's foreground job (a test run in the background ignores it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_the_run_and_still_reports(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as base:
        process = subprocess.Popen(
            [sys.executable, "-m", "ludoteca", "loadtest", base, "--games", "3", "--seconds", "60"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            preexec_fn=_hear_ctrl_c,
        )
        try:
            assert process.stderr is not None
            assert process.stderr.readline().startswith("Playing 3 games")
            time.sleep(1.0)  # the run has started and installed its Ctrl+C handler
            os.killpg(process.pid, signal.SIGINT)
            # Stopped by Ctrl+C, not by the end of its 60 s (a safety net, not a bound).
            out, err = process.communicate(timeout=45)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
    assert "Traceback" not in out + err
    assert "stopped by Ctrl+C" in out
    assert "moves acknowledged" in out
    assert process.returncode == 0


# -- refused arguments: nothing is sent ------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["http://192.0.2.1:8000"], "192.0.2.1 is not this machine"),
        (["http://[2001:db8::1]:8000"], "needs --allow-remote"),
        (["http://127.0.0.1:8000", "http://192.0.2.1:8000"], "192.0.2.1 is not this machine"),
        (["ftp://127.0.0.1:8000"], "starts with http:// or https://"),
        (["127.0.0.1:8000"], "starts with http:// or https://"),
        (["http://127.0.0.1:8000/?debug=1"], "no query"),
        (["http://127.0.0.1:99999"], "is not a URL"),
        (["http://:8000"], "names no host"),
        (["http://127.0.0.1:8000", "http://127.0.0.1:8000/"], "each URL must be given once"),
        (["http://127.0.0.1:8000", "--games", "0"], "--games must be from 1 to 2,000; got 0"),
        (["http://127.0.0.1:8000", "--games", "2001"], "--games must be from 1 to 2,000"),
        (["http://127.0.0.1:8000", "--watchers", "5001"], "--watchers must be from 0 to 5,000"),
        (["http://127.0.0.1:8000", "--seconds", "3601"], "--seconds must be above 0 and at most"),
        (["http://127.0.0.1:8000", "--seconds", "0"], "--seconds must be above 0"),
        (["http://127.0.0.1:8000", "--seconds", "nan"], "--seconds must be above 0"),
        (["http://127.0.0.1:8000", "--timeout", "0"], "--timeout must be above 0"),
        (["http://127.0.0.1:8000", "--rate", "-1"], "--rate must be from 0 to 100,000"),
        (["http://127.0.0.1:8000", "--rate", "nan"], "--rate must be from 0"),
        (["http://127.0.0.1:8000", "--game", "chess"], "unknown game 'chess'; accepted: "),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], arguments: list[str], fragment: str
) -> None:
    status, out, err = run(capsys, ["loadtest", *arguments])
    assert status == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1
    assert out == ""


def _allow_1024_open_files() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 1024))


def test_a_load_beyond_the_open_file_limit_is_refused_before_it_starts() -> None:
    argv = ["loadtest", "http://127.0.0.1:9", "--games", "2000", "--watchers", "100"]
    process = subprocess.run(
        [sys.executable, "-m", "ludoteca", *argv],
        capture_output=True,
        text=True,
        preexec_fn=_allow_1024_open_files,
        timeout=60,
    )
    assert process.returncode == 2
    assert "needs about 2,164 open connections" in process.stderr
    assert "allows 1,024 open files" in process.stderr
    assert process.stdout == ""


def test_a_count_that_is_not_a_number_is_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["loadtest", "http://127.0.0.1:8000", "--games", "many"])
    assert exited.value.code == 2
    assert "invalid int value: 'many'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "host", ["localhost", "LocalHost", "127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]
)
def test_this_machine_is_loopback(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["10.0.0.1", "192.0.2.1", "0.0.0.0", "2001:db8::1", "::"])
def test_other_addresses_are_not_loopback(host: str) -> None:
    assert not is_loopback(host)


def test_allow_remote_accepts_another_machine_and_keeps_a_path_prefix() -> None:
    with pytest.raises(LoadTestError, match="--allow-remote"):
        parse_target("https://192.0.2.1/ludoteca/", allow_remote=False)
    target = parse_target("HTTPS://192.0.2.1/ludoteca/", allow_remote=True)
    assert target.url == "https://192.0.2.1/ludoteca"
    assert target.ws_url == "wss://192.0.2.1/ludoteca"
    assert target.api("/api/games") == "https://192.0.2.1/ludoteca/api/games"
    ipv6 = parse_target("http://[::1]:8000", allow_remote=False)
    assert (ipv6.url, ipv6.ws_url) == ("http://[::1]:8000", "ws://[::1]:8000")


def test_watchers_connect_through_another_url_than_the_moves() -> None:
    urls = ["http://127.0.0.1:8001", "http://127.0.0.2:8002", "http://127.0.0.3:8003"]
    targets = tuple(parse_target(url, allow_remote=False) for url in urls)
    settings = Settings(
        targets=targets,
        games=3,
        watchers=6,
        seconds=1.0,
        game_ids=("salta",),
        seats={"salta": 2},
        seed=0,
        timeout=5.0,
    )
    test = LoadTest(settings, progress=None)
    for moves in range(3):
        chosen = {test.watchers.target_for(moves, turn) for turn in range(4)}
        assert chosen == set(range(3)) - {moves}  # the other two, in turn
    targets[1].down_until = time.monotonic() + 60  # a stopped process is passed over
    assert test.watchers.target_for(0, 0) == 2
    targets[2].down_until = time.monotonic() + 60  # only the moves' process is left
    assert test.watchers.target_for(0, 0) == 0

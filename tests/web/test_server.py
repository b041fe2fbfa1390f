"""A real server: restarts keep games, simultaneous moves, live updates, ``ludoteca serve``."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

import ludoteca
from ludoteca.cli import main
from tests.web.server import free_port, running_server, serve_process


def create(base: str, game: str, seats: list[str]) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/games", json={"game": game, "seats": seats})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_a_restarted_server_continues_the_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    with running_server(db, port=port) as base:
        created = create(base, "salta", ["human", "invite"])
        green, red = (seat["token"] for seat in created["seats"])
        game = f"{base}/api/games/{created['id']}"
        assert httpx.post(f"{game}/moves", json={"move": "c3-d4", "token": green}).is_success
        assert httpx.post(f"{game}/moves", json={"move": "h8-g7", "token": red}).is_success
        before = httpx.get(game).json()
    with running_server(db, port=port) as base:
        after = httpx.get(game).json()
        assert after.pop("now") >= before.pop("now")  # the server's time, for the clocks
        assert after == before
        assert httpx.post(f"{game}/moves", json={"move": "d4-e5", "token": green}).is_success
        assert httpx.get(game).json()["ply"] == 3
        assert [g["id"] for g in httpx.get(f"{base}/api/games").json()["games"]] == [created["id"]]


def test_of_two_simultaneous_moves_exactly_one_is_accepted(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as base, httpx.Client() as client:
        for attempt in range(4):
            created = create(base, "salta", ["human", "invite"])
            token = created["seats"][0]["token"]
            url = f"{base}/api/games/{created['id']}/moves"
            barrier = threading.Barrier(2)
            answers: list[httpx.Response] = []

            def send(
                text: str,
                url: str = url,
                token: str = token,
                barrier: threading.Barrier = barrier,
                answers: list[httpx.Response] = answers,
            ) -> None:
                barrier.wait()
                answers.append(client.post(url, json={"move": text, "token": token, "ply": 0}))

            threads = [threading.Thread(target=send, args=(t,)) for t in ("c3-d4", "a3-b4")]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            statuses = sorted(answer.status_code for answer in answers)
            assert statuses == [200, 409], (attempt, [a.text for a in answers])
            refused = next(a for a in answers if a.status_code == 409).json()["error"]
            assert "not your turn" in refused or "moved on" in refused
            assert httpx.get(f"{base}/api/games/{created['id']}").json()["ply"] == 1


def test_a_second_client_sees_a_move_live(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as base:
        created = create(base, "salta", ["human", "invite"])
        ws_url = base.replace("http", "ws") + f"/ws/games/{created['id']}"
        with connect(ws_url, open_timeout=60) as watcher:
            first = json.loads(watcher.recv(timeout=60))
            assert first["type"] == "state" and first["game"]["ply"] == 0
            token = created["seats"][0]["token"]
            httpx.post(
                f"{base}/api/games/{created['id']}/moves", json={"move": "c3-d4", "token": token}
            )
            update = json.loads(watcher.recv(timeout=60))
            assert update["game"]["moves"][0]["text"] == "c3-d4"
            assert update["board"]["last_move"] == "c3-d4"
            assert "svg" in update["board"]


def test_a_websocket_for_an_unknown_game_is_closed(tmp_path: Path) -> None:
    from websockets.exceptions import InvalidStatus

    with (
        running_server(tmp_path / "games.sqlite3") as base,
        pytest.raises(InvalidStatus),
        connect(base.replace("http", "ws") + "/ws/games/nope"),
    ):
        pass


# -- the serve command ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["--port", "abc"], "--port must be a whole number from 1 to 65535; got 'abc'"),
        (["--port", "70000"], "--port must be a whole number"),
        (["--port", "0"], "--port must be a whole number"),
        (["--host", "no.such.host.invalid"], "--host 'no.such.host.invalid' is not an address"),
    ],
)
def test_bad_serve_arguments_are_one_line_and_status_2(
    arguments: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["serve", "--db", str(tmp_path / "g.sqlite3"), *arguments])
    err = capsys.readouterr().err
    assert status == 2
    assert fragment in " ".join(err.split())
    assert "Traceback" not in err


def test_a_bad_database_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("not a database " * 200)
    assert main(["serve", "--db", str(not_sqlite)]) == 2
    assert "not a usable SQLite database" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["serve", "--db", str(blocker / "games.sqlite3")]) == 2
    assert "cannot open the games database" in capsys.readouterr().err


def test_a_port_in_use_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(["serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")])
    assert status == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_serve_prints_its_address_and_serves(tmp_path: Path) -> None:
    port = free_port()
    with serve_process(port, tmp_path / "data") as process:
        _check_serving(process, port, tmp_path)


def _check_serving(process: subprocess.Popen[str], port: int, tmp_path: Path) -> None:
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # at once: the games are prepared while it serves
        assert f"http://127.0.0.1:{port}/" in line
        assert str(tmp_path / "data" / "ludoteca" / "games.sqlite3") in " ".join(line.split())
        deadline = time.monotonic() + 120  # a safety net against a hang, not a bound
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/").status_code == 200
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        reported = []  # a line per game (the output is not a terminal), then the total
        while "Games ready in" not in (line := process.stdout.readline()):
            assert line, "the server stopped before its games were ready"
            reported.append(line)
        for game in ludoteca.GAMES:
            assert any(f"Preparing {game} ... ready in" in line for line in reported), reported
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=120)  # a safety net against a hang, not a bound
    assert process.returncode == 0
    assert process.stderr is not None and process.stdout is not None
    assert "Traceback" not in process.stderr.read()
    assert "stopped" in process.stdout.read()

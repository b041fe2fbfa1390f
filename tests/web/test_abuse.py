"""Abuse from outside that the server must shrug off: sockets that never read, connections
that never finish a request, floods through side doors, and requests that arrive at a bad time.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import logging
import os
import resource
import select
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from ludoteca.cli.serve import ServeError, connection_limits, parse_public_url
from ludoteca.web.api_models import ID_PATTERN
from ludoteca.web.app import ServerSettings, create_app
from ludoteca.web.connections import ConnectionLimits
from ludoteca.web.errors import BusyError
from ludoteca.web.reviews import MAX_RUNNING
from ludoteca.web.service import MAX_NAME, GameService
from tests.support import flat
from tests.web.server import free_port, running_server, serve_process
from tests.web.test_online import eventually
from tests.web.test_review import BUDGET, ONE_REVIEW_WORKER, finished_game

#: Seconds a request may take: with no warm-up, the first use of a game compiles its kernels
#: when numba's cache lacks them (a minute or more on a busy machine).
FIRST_USE = 300

#: Moves and take-backs made at most while waiting for a non-reading socket to be dropped; far
#: more than it takes to fill the socket's buffers, which is what makes the server drop it.
MAX_ROUNDS = 3000


def _open_websocket(base: str, game_id: str, *, receive_buffer: int) -> socket.socket:
    """A WebSocket to the game whose client never reads (a small receive buffer fills soon)."""
    address = urlsplit(base)
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    client.connect((address.hostname, address.port))
    key = base64.b64encode(os.urandom(16)).decode()
    client.sendall(
        (
            f"GET /ws/games/{game_id} HTTP/1.1\r\nHost: {address.netloc}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    return client


def _how_it_ends(client: socket.socket) -> str:
    """Read what is left: ``"reset"`` (dropped by the server), ``"closed"`` or ``"open"``."""
    client.settimeout(30)
    try:
        while client.recv(1 << 16):
            pass
    except ConnectionResetError:
        return "reset"
    except TimeoutError:
        return "open"
    return "closed"


def test_a_websocket_that_never_reads_keeps_a_bounded_mailbox_and_is_dropped(
    tmp_path: Path,
) -> None:
    app = create_app(
        tmp_path / "g.sqlite3", seed=1, settings=ServerSettings(game_rate=0, warm_up=False)
    )
    service: GameService = app.state.service
    # Pings are left out (far apart) so that only not reading is what drops the socket.
    limits = ConnectionLimits(ws_ping_interval=600, ws_ping_timeout=600, ws_send_timeout=0.2)
    with (
        running_server(tmp_path / "g.sqlite3", app=app, limits=limits) as base,
        httpx.Client(base_url=base, timeout=FIRST_USE) as http,
    ):
        created = http.post("/api/games", json={"game": "salta", "seats": ["human", "human"]})
        game_id = created.json()["id"]
        tokens = [seat["token"] for seat in created.json()["seats"]]
        client = _open_websocket(base, game_id, receive_buffer=4096)
        try:
            while not service.has_subscribers(game_id):  # the socket is accepted
                http.get(f"/api/games/{game_id}")
            rounds = 0
            largest = 0
            while service.has_subscribers(game_id) and rounds < MAX_ROUNDS:
                game = http.get(f"/api/games/{game_id}").json()
                moved = http.post(
                    f"/api/games/{game_id}/moves",
                    json={"move": game["legal_moves"][0], "token": tokens[game["to_move"]]},
                )
                assert moved.status_code == 200, moved.text
                undone = http.post(
                    f"/api/games/{game_id}/undo", json={"token": tokens[game["to_move"]]}
                )
                assert undone.status_code == 200, undone.text
                largest = max(
                    [largest, *(len(box) for box in service.broadcast.mailboxes(game_id))]
                )
                rounds += 1
            assert not service.has_subscribers(game_id), f"still subscribed after {rounds} rounds"
            assert largest <= 2  # one state and one review message at most
            # Dropped with a reset: the data it never read is thrown away, not kept for it.
            assert _how_it_ends(client) == "reset"
        finally:
            client.close()


# -- connections that never finish a request ---------------------------------------------------

#: Short limits, so the tests wait little for what the server does on its own.
SHORT = ConnectionLimits(request_timeout=0.3, keep_alive=0.3, max_head_bytes=4096)
#: How long a test waits for the server to close a connection before calling it left open.
PATIENCE = 20


def _connect(base: str) -> socket.socket:
    address = urlsplit(base)
    client = socket.create_connection((address.hostname, address.port))
    client.settimeout(PATIENCE)
    return client


def _answer_then_close(client: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (TimeoutError if it does not)."""
    received = b""
    while chunk := client.recv(1 << 16):
        received += chunk
    return received


def test_connections_that_do_not_finish_a_request_are_closed(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.sqlite3", settings=ServerSettings(warm_up=False))
    with running_server(tmp_path / "g.sqlite3", app=app, limits=SHORT) as base:
        idle = _connect(base)
        half_head = _connect(base)
        half_head.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
        short_body = _connect(base)
        short_body.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"game":'
        )
        answered = _connect(base)  # a whole request is answered, then the idle connection closed
        answered.sendall(b"GET /api/session HTTP/1.1\r\nHost: x\r\n\r\n")
        for client in (idle, half_head, short_body):
            try:
                assert _answer_then_close(client) == b""
            finally:
                client.close()
        try:
            assert _answer_then_close(answered).startswith(b"HTTP/1.1 200 ")
        finally:
            answered.close()


def test_a_dripping_request_head_is_closed(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.sqlite3", settings=ServerSettings(warm_up=False))
    with running_server(tmp_path / "g.sqlite3", app=app, limits=SHORT) as base:
        client = _connect(base)
        try:
            client.sendall(b"GET /api/lobby HTTP/1.1\r\n")
            closed = False
            for _ in range(PATIENCE * 100):  # a byte at a time, never finishing the head
                ready, _, _ = select.select([client], [], [], 0.01)
                if ready:
                    closed = client.recv(1) == b""
                    break
                client.sendall(b"x")
            assert closed
        finally:
            client.close()


def test_a_request_head_over_the_limit_is_refused(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.sqlite3", settings=ServerSettings(warm_up=False))
    with running_server(tmp_path / "g.sqlite3", app=app, limits=SHORT) as base:
        client = _connect(base)
        try:
            client.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nX-Big: ")
            with contextlib.suppress(ConnectionError):  # closed before all of it was sent
                client.sendall(b"a" * 8192 + b"\r\n\r\n")
            answer = _answer_then_close(client)
            assert answer.startswith(b"HTTP/1.1 431 ")
            assert b"larger than 4 KiB" in answer
        finally:
            client.close()
        with httpx.Client(base_url=base, timeout=FIRST_USE) as http:  # ordinary requests still pass
            assert http.get("/api/session").status_code == 200
        # A body larger than the head's limit, arriving with the head, is no head.
        client = _connect(base)
        try:
            body = b'{"game":"salta","position":"' + b"x" * 40_000 + b'"}'
            client.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
            )
            assert _answer_then_close(client).startswith(b"HTTP/1.1 400 ")  # the position's limit
        finally:
            client.close()


def test_serve_reads_the_connection_limits() -> None:
    options = {"request_timeout": "7.5", "max_header_size": "8", "ws_timeout": "12"}
    limits = connection_limits(argparse.Namespace(**options))
    assert limits == ConnectionLimits(
        request_timeout=7.5,
        keep_alive=7.5,
        max_head_bytes=8192,
        ws_ping_interval=12,
        ws_ping_timeout=12,
        ws_send_timeout=12,
    )
    for name, bad in (("request_timeout", "0"), ("ws_timeout", "nan"), ("max_header_size", "0")):
        with pytest.raises(ServeError, match="--" + name.replace("_", "-")):
            connection_limits(argparse.Namespace(**(options | {name: bad})))


# -- floods through side doors -----------------------------------------------------------------


def test_rematches_count_against_the_limit_of_new_games(tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=1, warm_up=False)  # a burst of 10, then 1 a minute
    app = create_app(tmp_path / "g.sqlite3", seed=1, settings=settings)
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": "salta", "seats": ["human", "random"]})
        game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
        made = 1
        while True:
            assert client.post(f"/api/games/{game_id}/resign", json={"token": token}).is_success
            answer = client.post(f"/api/games/{game_id}/rematch", json={"token": token})
            if answer.status_code != 200:
                break
            game_id, token = answer.json()["rematch"], answer.json()["token"]
            made += 1
            assert made <= 10, "a rematch made more games than the burst allows"
        assert answer.status_code == 429
        assert "too many new games" in answer.json()["error"]
        assert answer.headers["Retry-After"]
        assert made == 10


def test_at_most_max_running_reviews_start_however_many_ask_at_once(tmp_path: Path) -> None:
    settings = ServerSettings(
        game_rate=0, hint_rate=0, review_budget=BUDGET, warm_up=False, lanes=ONE_REVIEW_WORKER
    )
    app = create_app(tmp_path / "g.sqlite3", seed=1, settings=settings)
    service: GameService = app.state.service
    with TestClient(app) as client:
        games = [finished_game(client.post) for _ in range(10)]

        async def ask_at_once() -> list[Any]:
            return await asyncio.gather(
                *(service.reviews.start(game) for game in games), return_exceptions=True
            )

        answers = client.portal.call(ask_at_once)
        started = [a for a in answers if isinstance(a, tuple) and a[0] == 202]
        refused = [a for a in answers if isinstance(a, BusyError)]
        assert len(started) == MAX_RUNNING
        assert len(refused) == len(games) - MAX_RUNNING
        assert f"at most {MAX_RUNNING} at once" in str(refused[0])
        # Through the API: a clear 503 with Retry-After while they run.
        answer = client.post(f"/api/games/{games[-1]}/review")
        if answer.status_code == 503:  # (unless the first reviews are over already)
            assert "reviewing" in answer.json()["error"]
            assert answer.headers["Retry-After"]


# -- requests at a bad time ----------------------------------------------------------------------


def _ended(client: TestClient, how: str) -> tuple[str, str]:
    """A game between two people of this browser, ended ``how``; its id and Green's token."""
    clock = {"initial": 1, "increment": 0} if how == "time out" else None
    created = client.post(
        "/api/games", json={"game": "salta", "seats": ["human", "human"], "clock": clock}
    ).json()
    game_id = created["id"]
    green, red = (seat["token"] for seat in created["seats"])
    assert client.post(
        f"/api/games/{game_id}/moves", json={"move": "c3-d4", "token": green}
    ).is_success
    if how == "time out":  # Red's second runs out; the server's timer flags it
        for _ in range(PATIENCE * 20):
            if client.get(f"/api/games/{game_id}/clock").json()["clock"]["running"] is None:
                break
            time.sleep(0.05)
    elif how == "agreed draw":
        client.post(f"/api/games/{game_id}/draw", json={"token": red})
        client.post(f"/api/games/{game_id}/draw", json={"token": green, "action": "accept"})
    else:
        client.post(f"/api/games/{game_id}/resign", json={"token": red})
    game = client.get(f"/api/games/{game_id}").json()
    assert game["outcome"] is not None, how
    assert game["undo_allowed"] is False
    return game_id, green


def _stored_record(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game's saved record, less the moment it was made (``updated`` is the download's)."""
    record = json.loads(client.get(f"/api/games/{game_id}/record").text)
    record.pop("updated")
    return dict(record)


@pytest.mark.parametrize("how", ["time out", "agreed draw", "resignation"])
def test_undo_is_refused_once_the_game_is_over(tmp_path: Path, how: str) -> None:
    app = create_app(tmp_path / "g.sqlite3", settings=ServerSettings(game_rate=0, warm_up=False))
    with TestClient(app) as client:
        game_id, green = _ended(client, how)
        before = _stored_record(client, game_id)
        answer = client.post(f"/api/games/{game_id}/undo", json={"token": green})
        assert answer.status_code == 409
        assert "the game is over" in answer.json()["error"]
        assert "cannot be taken back" in answer.json()["error"]
        assert _stored_record(client, game_id) == before
        assert client.get(f"/api/games/{game_id}").json()["ply"] == 1


# -- bad input ------------------------------------------------------------------------------------


def test_deeply_nested_json_is_a_clear_400_and_logs_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(tmp_path / "g.sqlite3", settings=ServerSettings(game_rate=0, warm_up=False))
    with TestClient(app, raise_server_exceptions=False) as client:
        created = client.post("/api/games", json={"game": "salta"}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        caplog.clear()
        for depth in (1000, 30_000):  # (bodies up to 64 KiB are read)
            nested = "[" * depth + "]" * depth
            for path, body in (
                (f"/api/games/{game_id}/moves", f'{{"move":{nested},"token":"{token}"}}'),
                (f"/api/games/{game_id}/undo", f'{{"token":{nested}}}'),
                ("/api/games", f'{{"game":"salta","options":{nested}}}'),
                ("/api/session/name", f'{{"name":{nested}}}'),
            ):
                answer = client.post(
                    path, content=body, headers={"content-type": "application/json"}
                )
                assert answer.status_code == 400, (path, depth, answer.text)
                assert "nested too deeply" in answer.json()["error"]
        assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_setting_names_is_rate_limited_and_a_refusal_makes_no_session(tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=1, warm_up=False)  # a burst of 10, then 1 a minute
    app = create_app(tmp_path / "g.sqlite3", settings=settings)
    with TestClient(app) as client:
        answers = []
        for number in range(11):
            client.cookies.clear()  # a new browser every time
            answers.append(client.post("/api/session/name", json={"name": f"Ada {number}"}))
        assert [a.status_code for a in answers] == [200] * 10 + [429]
        assert "too many name changes" in answers[-1].json()["error"]
        assert answers[-1].headers["Retry-After"]
        assert "set-cookie" not in answers[-1].headers
        client.cookies.clear()
        assert client.get("/api/session").json() == {"name": None}


# -- addresses, cookies and origins -------------------------------------------------------------


def test_the_cookie_is_secure_when_a_trusted_proxy_says_https(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.sqlite3", settings=ServerSettings(game_rate=0, warm_up=False))
    # uvicorn trusts 127.0.0.1 by default: the tests' requests come from a trusted proxy.
    with running_server(tmp_path / "g.sqlite3", app=app) as base:
        over_https = httpx.post(
            f"{base}/api/session/name",
            json={"name": "Ada"},
            headers={"X-Forwarded-Proto": "https"},
            timeout=FIRST_USE,
        )
        plain = httpx.post(f"{base}/api/session/name", json={"name": "Ada"})
    assert "secure" in over_https.headers["set-cookie"].lower()
    assert "secure" not in plain.headers["set-cookie"].lower()


def test_links_use_the_public_url_not_the_host_header(tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=0, warm_up=False, public_url="https://games.example/")
    app = create_app(tmp_path / "g.sqlite3", settings=settings)
    with TestClient(app) as client:
        created = client.post(
            "/api/games",
            json={"game": "salta", "seats": ["human", "invite"]},
            headers={"Host": "evil.example"},
        ).json()
        assert created["url"].startswith("https://games.example/games/")
        assert created["seats"][1]["link"].startswith("https://games.example/games/")
        named = client.post("/api/session/name", json={"name": "Ada"})
        assert "secure" in named.headers["set-cookie"].lower()  # the public site is HTTPS


def test_a_websocket_from_another_sites_page_is_refused(tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=0, warm_up=False, public_url="https://games.example")
    app = create_app(tmp_path / "g.sqlite3", settings=settings)
    with running_server(tmp_path / "g.sqlite3", app=app) as base:
        game_id = httpx.post(f"{base}/api/games", json={"game": "salta"}, timeout=FIRST_USE).json()[
            "id"
        ]
        address = base.replace("http://", "ws://") + f"/ws/games/{game_id}"
        for origin in (None, base, "https://games.example"):  # no browser, the site's own pages
            with connect(address, origin=origin) as socket_:  # type: ignore[arg-type]
                assert json.loads(socket_.recv(timeout=PATIENCE))["type"] == "state"
        with pytest.raises(InvalidStatus) as refused:
            connect(address, origin="https://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403


def test_serve_reads_the_public_url() -> None:
    assert parse_public_url(None) is None
    assert parse_public_url(" https://games.example/play/ ") == "https://games.example/play"
    for bad in ("games.example", "ftp://games.example", "https://", "https://g.example/?a=1"):
        with pytest.raises(ServeError, match="--public-url must be an address like"):
            parse_public_url(bad)


def test_the_openapi_schema_is_as_strict_as_the_server(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.sqlite3", settings=ServerSettings(game_rate=0, warm_up=False))
    with TestClient(app) as client:
        schema = client.get("/openapi.json").json()
        name = schema["components"]["schemas"]["NameRequest"]["properties"]["name"]
        assert name["maxLength"] == MAX_NAME
        played = {
            p: o for p, o in schema["paths"].items() if p.startswith(("/api/games/", "/api/c"))
        }
        assert len(played) > 10
        for path, operations in played.items():  # (elsewhere game_id is a kind of game)
            for operation in operations.values():
                for parameter in operation.get("parameters", ()):
                    if parameter["name"] in ("game_id", "challenge_id"):
                        assert parameter["schema"]["pattern"] == ID_PATTERN, path
        board = schema["paths"]["/api/games/{game_id}/board"]["get"]["parameters"]
        at = next(p for p in board if p["name"] == "at")
        assert at["schema"]["anyOf"][0]["minimum"] == 0
        # What the schema refuses, the server refuses with a clear 400.
        answer = client.get("/api/games/not.an.id")
        assert answer.status_code == 400 and "game_id" in answer.json()["error"]
        answer = client.post("/api/challenges/x%20y/accept", json={})
        assert answer.status_code == 400 and "challenge_id" in answer.json()["error"]
        answer = client.post("/api/session/name", json={"name": "x" * (MAX_NAME + 1)})
        assert answer.status_code == 400 and f"at most {MAX_NAME}" in answer.json()["error"]


def _lobby_answers(base: str, process: subprocess.Popen[str]) -> bool:
    if process.poll() is not None:
        pytest.fail(f"the server stopped: {process.communicate()[1]}")
    try:
        return httpx.get(f"{base}/api/lobby").status_code == 200
    except httpx.TransportError:
        return False


def _stop(process: subprocess.Popen[str]) -> str:
    """Stop the server with Ctrl+C; what it printed."""
    process.send_signal(signal.SIGINT)
    printed, _ = process.communicate(timeout=120)
    return printed


def test_idle_connections_beyond_the_inherited_file_limit_leave_room_for_requests(
    tmp_path: Path,
) -> None:
    """`ludoteca serve` raises its limit of open files: started with a soft limit of 256 (the
    common 1,024 scaled down), it answers a request beside 300 idle connections, which its
    request timeout (an hour here) does not close meanwhile."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1024:
        pytest.skip(f"this machine allows only {hard} open files per process")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = serve_process(port, tmp_path, "--request-timeout", "3600", open_files=(256, hard))
    idle: list[socket.socket] = []
    try:
        eventually(lambda: _lobby_answers(base, process), "the server to answer", 600)
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(300)]
        # A safety net against a hang, not a bound on speed: without room for another
        # connection the request is never accepted.
        answer = httpx.get(f"{base}/api/session", timeout=120)
        assert answer.status_code == 200
    finally:
        for connection in idle:
            connection.close()
        _stop(process)


def test_a_server_says_when_the_system_allows_few_connections(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = serve_process(port, tmp_path, open_files=(256, 1000))
    try:
        eventually(lambda: _lobby_answers(base, process), "the server to answer", 600)
    finally:
        printed = _stop(process)
    assert "lets a process open 1,000 files (ulimit -Hn)" in flat(printed)

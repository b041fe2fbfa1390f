"""Abuse from outside that the server must shrug off: sockets that never read, connections
that never finish a request, floods through side doors, and requests that arrive at a bad time.
"""

from __future__ import annotations

import base64
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from ludoteca.web.app import ServerSettings, create_app
from ludoteca.web.connections import ConnectionLimits
from ludoteca.web.service import GameService
from tests.web.server import running_server

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


def _closed_by_server(client: socket.socket) -> bool:
    """Read what is left; whether the connection then ends (closed or reset by the server)."""
    client.settimeout(30)
    try:
        while client.recv(1 << 16):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


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
        httpx.Client(base_url=base) as http,
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
                    [largest, *(len(box) for box in service._subscribers.get(game_id, ()))]
                )
                rounds += 1
            assert not service.has_subscribers(game_id), f"still subscribed after {rounds} rounds"
            assert largest <= 2  # one state and one review message at most
            assert _closed_by_server(client)
        finally:
            client.close()

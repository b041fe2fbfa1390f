"""The lobby's WebSocket: challenges and games to watch, pushed as they change.

Through the API: one browser watches the lobby on ``/ws/lobby`` while others post, accept and
withdraw challenges; and across two server processes on one database (SQLite, PostgreSQL).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.web.server import running_server
from tests.web.test_online import named, post_challenge

#: A safety net against a hang (seconds), far beyond any push; not a bound on the time taken.
PATIENCE = 60


def _until(
    receive: Callable[[], str], condition: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The first lobby pushed that satisfies ``condition`` (earlier pushes are skipped)."""
    while True:
        message = json.loads(receive())
        assert message["type"] == "lobby"
        lobby: dict[str, Any] = message["lobby"]
        if condition(lobby):
            return lobby


def _ids(lobby: dict[str, Any], part: str) -> set[str]:
    return {entry["id"] for entry in lobby[part]}


@contextlib.contextmanager
def _lobby_socket(
    base: str, browser: httpx.Client | None = None, origin: str | None = None
) -> Iterator[Callable[[], str]]:
    """The lobby's socket, opened with ``browser``'s cookies; yields its receive function."""
    headers = {}
    if browser is not None:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    if origin is not None:
        headers["Origin"] = origin
    socket: ClientConnection
    with connect(
        base.replace("http", "ws") + "/ws/lobby", additional_headers=headers, open_timeout=PATIENCE
    ) as socket:

        def receive() -> str:
            text = socket.recv(timeout=PATIENCE)
            assert isinstance(text, str)
            return text

        yield receive


def test_the_lobby_socket_pushes_challenges_and_games(tmp_path: Path) -> None:
    with (
        running_server(tmp_path / "games.sqlite3") as base,
        httpx.Client(base_url=base) as poster,
        httpx.Client(base_url=base) as accepter,
        _lobby_socket(base) as receive,
    ):
        named(poster, "Ada")
        named(accepter, "Bob")
        first = json.loads(receive())
        assert first["type"] == "lobby" and first["lobby"]["challenges"] == []
        assert "now" in first
        posted = post_challenge(poster, side="Green")
        lobby = _until(receive, lambda lb: posted["id"] in _ids(lb, "challenges"))
        (shown,) = lobby["challenges"]
        assert shown["poster"] == "Ada" and shown["yours"] is False
        assert "secret" not in shown and "token" not in json.dumps(lobby)
        accepted = accepter.post(f"/api/challenges/{posted['id']}/accept", json={})
        assert accepted.status_code == 201, accepted.text
        game_id = accepted.json()["id"]
        lobby = _until(receive, lambda lb: game_id in _ids(lb, "playing"))
        assert lobby["challenges"] == []
        second = post_challenge(poster, side="Red")
        _until(receive, lambda lb: second["id"] in _ids(lb, "challenges"))
        withdrawn = poster.post(
            f"/api/challenges/{second['id']}/withdraw", json={"secret": second["secret"]}
        )
        assert withdrawn.status_code == 200, withdrawn.text
        _until(receive, lambda lb: lb["challenges"] == [])
        resigned = accepter.post(
            f"/api/games/{game_id}/resign", json={"token": accepted.json()["token"]}
        )
        assert resigned.status_code == 200, resigned.text
        _until(receive, lambda lb: game_id not in _ids(lb, "playing"))


def test_the_lobby_socket_lists_the_browsers_own_games(tmp_path: Path) -> None:
    with (
        running_server(tmp_path / "games.sqlite3") as base,
        httpx.Client(base_url=base) as poster,
        httpx.Client(base_url=base) as accepter,
    ):
        named(poster, "Ada")
        named(accepter, "Bob")
        with _lobby_socket(base, poster) as receive:
            json.loads(receive())
            posted = post_challenge(poster)
            lobby = _until(receive, lambda lb: bool(lb["challenges"]))
            assert lobby["challenges"][0]["yours"] is True
            accepter.post(f"/api/challenges/{posted['id']}/accept", json={})
            _until(receive, lambda lb: posted["game_id"] in _ids(lb, "mine"))


def test_a_lobby_socket_from_another_site_is_refused(tmp_path: Path) -> None:
    with (
        running_server(tmp_path / "games.sqlite3") as base,
        pytest.raises(InvalidStatus),
        _lobby_socket(base, origin="https://elsewhere.example"),
    ):
        pass


def test_the_lobby_socket_hears_other_processes(database: str) -> None:
    with (
        running_server(database, seed=1) as one,
        running_server(database, seed=2) as two,
        httpx.Client(base_url=two) as poster,
    ):
        named(poster, "Ada")
        with _lobby_socket(one) as receive:
            json.loads(receive())
            posted = post_challenge(poster, side="Green")
            _until(receive, lambda lb: posted["id"] in _ids(lb, "challenges"))
            with httpx.Client(base_url=two) as accepter:
                named(accepter, "Bob")
                accepted = accepter.post(f"/api/challenges/{posted['id']}/accept", json={})
                assert accepted.status_code == 201, accepted.text
            _until(receive, lambda lb: posted["game_id"] in _ids(lb, "playing"))

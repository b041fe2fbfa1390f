"""Abuse and accidents, each refused with its own status and a clear message.

Bodies too large, tokens that are no tokens, huge numbers, searches asked for by name, floods of
new games and hints, a full database; the security headers, ``Allow`` on 405, token-free logs,
one session cookie however many games, the lobby's pages and the cache's eviction.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.web.app import ServerSettings, create_app
from ludoteca.web.guards import SESSION_COOKIE, ScrubTokens, scrub_tokens
from tests.web.server import TEST_LANES


def create(client: TestClient, game: str = "salta", **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    message: str = body["error"]
    return message


def test_a_body_over_64_kib_is_413_and_never_echoed(client: TestClient) -> None:
    created = create(client, seats=["human", "human"])
    token = created["seats"][0]["token"]
    huge = "c3-d4" + "x" * 100_000
    response = client.post(f"/api/games/{created['id']}/moves", json={"move": huge, "token": token})
    message = error_of(response, 413)
    assert "64 KiB" in message and "xxxx" not in message

    def chunks() -> Any:  # no Content-Length: the server must count what arrives
        yield b'{"move": "'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}'

    chunked = client.post(
        f"/api/games/{created['id']}/moves",
        content=chunks(),
        headers={"Content-Type": "application/json"},
    )
    assert chunked.status_code == 413
    assert client.get(f"/api/games/{created['id']}").json()["ply"] == 0


def test_a_long_move_text_is_400_and_not_echoed_back(client: TestClient) -> None:
    created = create(client, seats=["human", "human"])
    token = created["seats"][0]["token"]
    response = client.post(
        f"/api/games/{created['id']}/moves", json={"move": "z" * 5000, "token": token}
    )
    message = error_of(response, 400)
    assert "move" in message and "zzzzzzzzzz" not in message and len(message) < 300


@pytest.mark.parametrize("token", ["\u00e9", "é" * 24, "a b", "../../etc", "x" * 150, "%00"])
def test_tokens_that_are_no_tokens_are_403(client: TestClient, token: str) -> None:
    created = create(client, seats=["human", "human"])
    base = f"/api/games/{created['id']}"
    for path, body in (
        ("/moves", {"move": "c3-d4", "token": token}),
        ("/undo", {"token": token}),
        ("/resign", {"token": token}),
        ("/hint", {"token": token}),
    ):
        assert client.post(base + path, json=body).status_code == 403, path
    assert client.get(base + "/hint", params={"token": token}).status_code == 403
    page = client.get(f"/games/{created['id']}", params={"token": token})
    assert page.status_code == 403 and "not valid" in page.text
    raw_cookie = f"{SESSION_COOKIE}={token}".encode()  # sent as bytes, as a browser might
    watcher = client.get(f"/games/{created['id']}", headers={"cookie": raw_cookie})
    assert watcher.status_code == 200 and '"tokens": {}' in watcher.text
    assert client.get(base).json()["ply"] == 0


def test_huge_numbers_are_400_naming_the_bounds(client: TestClient) -> None:
    message = error_of(
        client.post("/api/games", json={"game": "salta", "options": {"max_plies": 1e30}}), 400
    )
    assert "from 1 to 1000000" in message
    message = error_of(
        client.post("/api/games", json={"game": "splinter", "options": {"max_plies": 10**40}}),
        400,
    )
    assert "from 1 to 1000000" in message
    created = create(client, seats=["human", "human"])
    token = created["seats"][0]["token"]
    response = client.post(
        f"/api/games/{created['id']}/moves", json={"move": "c3-d4", "token": token, "ply": 10**30}
    )
    assert "ply" in error_of(response, 400)
    assert "at" in error_of(client.get(f"/api/games/{created['id']}/board?at=99999999999"), 400)
    assert "page" in error_of(client.get("/api/games?page=0"), 400)


@pytest.mark.parametrize(
    "seat", ["alphabeta:depth=30", "mcts:iters=100000000", "expert", "level:5,seed=1", "human "]
)
def test_only_the_listed_seats_are_accepted(client: TestClient, seat: str) -> None:
    response = client.post("/api/games", json={"game": "salta", "seats": [seat, "random"]})
    if seat == "human ":  # spaces around a listed seat are forgiven
        assert response.status_code == 201
        return
    message = error_of(response, 400)
    assert "accepted: human, invite, random, level:1" in message


class StoppedClock:
    """A clock for the rate limiters that moves only when the test says: slow requests on a
    busy machine refill no bucket behind the test's back."""

    def __init__(self) -> None:
        self.now = 1024.0  # a power of two: the steps below add up exactly

    def __call__(self) -> float:
        return self.now


def test_creating_games_is_rate_limited_per_client(tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=6, hint_rate=6)
    with TestClient(create_app(tmp_path / "g.sqlite3", settings=settings)) as client:
        clock = client.app.state.game_limiter.clock = StoppedClock()  # type: ignore[attr-defined]
        statuses = [
            client.post("/api/games", json={"game": "salta"}).status_code for _ in range(12)
        ]
        assert statuses[:10] == [201] * 10  # the burst
        assert statuses[10:] == [429, 429]
        refused = client.post("/api/games", json={"game": "salta"})
        assert int(refused.headers["Retry-After"]) == 10  # one game each 10 s
        assert "too many new games" in error_of(refused, 429)
        clock.now += 10  # one game's worth of refill
        assert client.post("/api/games", json={"game": "salta"}).status_code == 201
        assert client.post("/api/games", json={"game": "salta"}).status_code == 429


def test_hints_are_rate_limited_per_client(tmp_path: Path) -> None:
    # Bursts of 5, then 2 a minute; hints at normal priority (tests/web/server.py).
    settings = ServerSettings(game_rate=0, hint_rate=2, lanes=TEST_LANES)
    with TestClient(create_app(tmp_path / "g.sqlite3", settings=settings)) as client:
        clock = client.app.state.hint_limiter.clock = StoppedClock()  # type: ignore[attr-defined]
        created = create(client, "steppin_stones", seats=["human"], hints=True)
        url = f"/api/games/{created['id']}/hint"
        token = created["seats"][0]["token"]
        statuses = [client.post(url, json={"token": token}).status_code for _ in range(7)]
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429, 429]
        clock.now += 29.75  # not yet a whole hint's worth of refill ...
        assert client.post(url, json={"token": token}).status_code == 429
        clock.now += 0.25  # ... now one (2 a minute: one each 30 s)
        assert client.post(url, json={"token": token}).status_code == 200
        assert client.post(url, json={"token": token}).status_code == 429


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/games", "/rules/salta", "/static/app.css", "/nothing"):
        headers = client.get(path).headers
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"
        policy = headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/api/games", {"GET", "POST"}),
        ("/api/accounts", {"POST"}),
        ("/api/login", {"POST"}),
        ("/api/puzzles/pente_grammai/next", {"GET"}),
    ],
)
def test_a_405_says_which_methods_are_allowed(
    client: TestClient, path: str, allowed: set[str]
) -> None:
    response = client.delete(path)
    assert response.status_code == 405
    assert set(response.headers["Allow"].replace(" ", "").split(",")) == allowed
    assert "allowed: " in response.json()["error"]


def test_tokens_never_reach_the_access_log(caplog: pytest.LogCaptureFixture) -> None:
    assert scrub_tokens("GET /games/abc?token=SeCrEt.OtHeR&x=1") == "GET /games/abc?token=***&x=1"
    logger = logging.getLogger("tests.access")
    logger.addFilter(ScrubTokens())
    with caplog.at_level(logging.INFO, logger="tests.access"):
        logger.info(
            '%s - "%s %s HTTP/%s" %d', "127.0.0.1", "GET", "/games/g?token=abcd", "1.1", 303
        )
    assert "abcd" not in caplog.text and "token=***" in caplog.text


def test_one_session_cookie_holds_the_seats_of_every_game(client: TestClient) -> None:
    games = [create(client, seats=["human", "invite"]) for _ in range(30)]
    for created in games:
        assert client.get(created["url"], follow_redirects=False).status_code == 303
    names = [cookie.name for cookie in client.cookies.jar]
    assert names == [SESSION_COOKIE]
    assert len(client.cookies[SESSION_COOKIE]) < 100
    for created in games[::7]:
        page = client.get(f"/games/{created['id']}").text
        assert created["seats"][0]["token"] in page
    # An invitation link opened in another browser gives that browser the invited seat only.
    mine = client.cookies[SESSION_COOKIE]
    client.cookies.clear()
    invite = games[0]["seats"][1]["link"]
    assert client.get(invite, follow_redirects=False).status_code == 303
    assert client.cookies[SESSION_COOKIE] != mine
    page = client.get(f"/games/{games[0]['id']}").text
    assert games[0]["seats"][1]["token"] in page
    assert games[0]["seats"][0]["token"] not in page
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, mine)
    assert games[0]["seats"][0]["token"] in client.get(f"/games/{games[0]['id']}").text
    # A forged session cookie is a watcher's.
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, mine[:-3] + "abc")
    assert games[0]["seats"][0]["token"] not in client.get(f"/games/{games[0]['id']}").text


def test_a_cookie_of_the_first_server_is_taken_over_and_removed(client: TestClient) -> None:
    created = create(client, seats=["human", "invite"])
    token = created["seats"][0]["token"]
    client.cookies.set(f"ludoteca_{created['id']}", token)
    page = client.get(f"/games/{created['id']}")
    assert page.status_code == 200 and token in page.text
    set_cookies = page.headers.get_list("set-cookie")
    assert any(c.startswith(f"ludoteca_{created['id']}=") and "Max-Age=0" in c for c in set_cookies)
    assert any(c.startswith(f"{SESSION_COOKIE}=") for c in set_cookies)
    client.cookies.delete(f"ludoteca_{created['id']}")
    assert token in client.get(f"/games/{created['id']}").text  # now from the session


def test_the_lobby_and_the_list_paginate(client: TestClient) -> None:
    ids = [create(client)["id"] for _ in range(55)]
    first = client.get("/api/games").json()
    assert first["total"] == 55 and first["pages"] == 2 and len(first["games"]) == 50
    second = client.get("/api/games?page=2").json()
    assert len(second["games"]) == 5
    assert {g["id"] for g in first["games"] + second["games"]} == set(ids)
    assert first["games"][0]["id"] == ids[-1]  # newest first
    lobby = client.get("/").text
    assert "Page 1 of 2" in lobby and '/?page=2#saved"' in lobby
    assert ids[0] in client.get("/?page=2").text


def test_a_full_database_is_503_and_the_game_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    app = create_app(path, settings=ServerSettings(game_rate=0))
    with TestClient(app) as client:
        created = create(client, seats=["human", "human"])
        token = created["seats"][0]["token"]
        store = app.state.service.store
        from sqlalchemy import event

        @event.listens_for(store.engine, "connect")
        def _full(dbapi_connection: sqlite3.Connection, _record: object) -> None:
            pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
            dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

        store.engine.dispose()
        # SQLite's own "database or disk is full", as on a full disk: no page can be added.
        answers = [client.post("/api/games", json={"game": "salta"}) for _ in range(60)]
        refused = [a for a in answers if a.status_code != 201]
        assert refused, "the database never filled up"
        message = error_of(refused[0], 503)
        assert "full" in message and "nothing was changed" in message
        assert refused[0].headers["Retry-After"]
        assert client.get(f"/api/games/{created['id']}").json()["ply"] == 0
        answer = client.post(
            f"/api/games/{created['id']}/moves", json={"move": "c3-d4", "token": token}
        )
        assert answer.status_code in (200, 503)
        state = client.get(f"/api/games/{created['id']}").json()
        assert state["ply"] == (1 if answer.status_code == 200 else 0)


def test_games_beyond_the_cache_are_dropped_and_loaded_again(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.sqlite3", settings=ServerSettings(game_rate=0, cache_size=5))
    with TestClient(app) as client:
        games = [create(client, seats=["human", "human"]) for _ in range(12)]
        service = app.state.service
        assert len(service._games) <= 5
        oldest = games[0]
        token = oldest["seats"][0]["token"]
        answer = client.post(
            f"/api/games/{oldest['id']}/moves", json={"move": "c3-d4", "token": token}
        )
        assert answer.status_code == 200 and answer.json()["ply"] == 1
        assert len(service._games) <= 5

"""Player accounts: sign up, log in and out, password change, sessions, deletion, profiles.

Every test that stores something runs on SQLite and on PostgreSQL (the ``database`` fixture).
Two ``TestClient``s on one app are two browsers (each keeps its own cookies).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ludoteca.web.app import create_app
from ludoteca.web.guards import SESSION_COOKIE, RateLimiter
from tests.web.server import TEST_SETTINGS

#: The kernels compile on first use (these tests play few moves): no warm-up per app.
SETTINGS = dataclasses.replace(TEST_SETTINGS, warm_up=False)

PASSWORD = "correct horse battery"
OTHER_SITE = "http://evil.example"


@pytest.fixture
def app(database: str) -> FastAPI:
    return create_app(database, seed=3, settings=SETTINGS)


@pytest.fixture
def first(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[TestClient]:
    """A browser on an SQLite server, for the refusals that store nothing."""
    with TestClient(create_app(tmp_path / "games.sqlite3", settings=SETTINGS)) as client:
        yield client


@pytest.fixture
def second(app: FastAPI, first: TestClient) -> TestClient:
    return TestClient(app)  # the same server (started by ``first``), another browser


def sign_up(client: TestClient, name: str = "Ada", password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def log_in(client: TestClient, name: str = "Ada", password: str = PASSWORD) -> Any:
    return client.post("/api/login", json={"name": name, "password": password})


def new_game(client: TestClient, game: str = "salta") -> dict[str, Any]:
    """A game of two human seats, both played by this browser (its link visited)."""
    response = client.post("/api/games", json={"game": game})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    assert client.get(created["url"]).status_code == 200  # the link gives this browser the seats
    return created


def held_tokens(client: TestClient, game_id: str) -> dict[str, str]:
    """The seat tokens the board page gives this browser."""
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    found = re.search(r'<script id="page-data" type="application/json">(.*?)</script>', page.text)
    assert found is not None
    tokens: dict[str, str] = json.loads(found.group(1))["tokens"]
    return tokens


def assert_error(response: Any, status: int, *fragments: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    for fragment in fragments:
        assert fragment in body["error"]
    return str(body["error"])


def cookie(client: TestClient) -> str | None:
    return client.cookies.get(SESSION_COOKIE)


# -- sign up, log in, log out ----------------------------------------------------------------


def test_sign_up_logs_in_and_claims_the_browsers_games(first: TestClient) -> None:
    game = new_game(first)
    anonymous = cookie(first)
    assert anonymous is not None
    answer = sign_up(first, "Ada_1")
    assert answer["name"] == "Ada_1" and answer["created"]
    assert set(answer) == {"name", "created"}
    assert cookie(first) not in (None, anonymous)  # a new session id
    account = first.get("/api/account").json()
    assert account["name"] == "Ada_1"
    assert [s["current"] for s in account["sessions"]] == [True]
    assert account["sessions"][0]["address"] == "testclient"
    tokens = held_tokens(first, game["id"])
    assert tokens == {str(s["seat"]): s["token"] for s in game["seats"]}
    profile = first.get("/api/players/ada_1").json()
    assert profile["name"] == "Ada_1" and [g["id"] for g in profile["recent"]] == [game["id"]]
    assert first.get("/api/session").json() == {"name": "Ada_1"}  # the account's name plays
    renamed = first.post("/api/session/name", json={"name": "Someone else"})
    assert_error(renamed, 409, "logged in as 'Ada_1'")
    first.post("/api/logout")
    assert first.post("/api/session/name", json={"name": "Someone else"}).status_code == 200


def test_a_second_browser_logged_in_plays_the_accounts_seats(
    first: TestClient, second: TestClient
) -> None:
    sign_up(first)
    game = new_game(first)  # taken while logged in
    second.post("/api/session/name", json={"name": "guest"})  # an anonymous session first
    before = cookie(second)
    assert before is not None
    assert held_tokens(second, game["id"]) == {}
    response = log_in(second, "ADA")  # any case
    assert response.status_code == 200, response.text
    assert response.json()["name"] == "Ada"
    assert cookie(second) not in (None, before)  # the session id changes at login
    tokens = held_tokens(second, game["id"])
    assert tokens == held_tokens(first, game["id"]) != {}
    board = second.get(f"/api/games/{game['id']}/board").json()
    text = next(t for t, path in board["click_paths"].items() if path)
    moved = second.post(f"/api/games/{game['id']}/moves", json={"move": text, "token": tokens["0"]})
    assert moved.status_code == 200, moved.text
    # Seats the second browser takes are the first's too.
    later = new_game(second, "pente_grammai")
    assert held_tokens(first, later["id"]) == held_tokens(second, later["id"]) != {}
    mine = {g["id"] for g in first.get("/api/lobby").json()["mine"]}
    assert {game["id"], later["id"]} <= mine


def test_log_out_leaves_the_seats_with_the_account(first: TestClient, second: TestClient) -> None:
    sign_up(first)
    game = new_game(first)
    assert first.post("/api/logout").json() == {"logged_in": False}
    assert_error(first.get("/api/account"), 401, "log in")
    assert held_tokens(first, game["id"]) == {}
    assert first.post("/api/logout").status_code == 200  # logged out already: nothing to do
    assert log_in(second).status_code == 200
    assert held_tokens(second, game["id"]) != {}


def test_switching_accounts_leaves_each_its_own_seats(
    first: TestClient, second: TestClient
) -> None:
    sign_up(first, "Ada")
    ada_game = new_game(first)
    sign_up(first, "Bob")  # signing up while logged in as Ada: Ada's seats stay hers
    assert held_tokens(first, ada_game["id"]) == {}
    bob_game = new_game(first)
    assert log_in(first, "Ada").status_code == 200  # and back: Bob's stay his
    assert held_tokens(first, ada_game["id"]) != {}
    assert held_tokens(first, bob_game["id"]) == {}
    assert log_in(second, "Bob").status_code == 200
    assert held_tokens(second, bob_game["id"]) != {}
    assert held_tokens(second, ada_game["id"]) == {}
    assert [g["id"] for g in second.get("/api/players/Bob").json()["recent"]] == [bob_game["id"]]
    assert [g["id"] for g in second.get("/api/players/Ada").json()["recent"]] == [ada_game["id"]]


def test_log_in_refuses_a_wrong_name_or_password_with_one_message(first: TestClient) -> None:
    sign_up(first)
    first.post("/api/logout")
    wrong_password = assert_error(log_in(first, "Ada", "not the password"), 401)
    wrong_name = assert_error(log_in(first, "Bob", PASSWORD), 401)
    bad_name = assert_error(log_in(first, "no such name!", PASSWORD), 401)
    assert wrong_password == wrong_name == bad_name == "wrong name or password"
    assert_error(first.get("/api/account"), 401)


def test_a_wrong_name_costs_as_much_as_a_wrong_password(first: TestClient) -> None:
    """Both check a password hash (CPU time, measured in this process, where the server's
    threads run), so timing an answer does not tell which names have accounts."""
    sign_up(first)
    first.post("/api/logout")

    def cpu_of_login(name: str) -> float:
        started = time.process_time()
        assert log_in(first, name, "not the password").status_code == 401
        return time.process_time() - started

    wrong_password = min(cpu_of_login("Ada") for _ in range(3))
    wrong_name = min(cpu_of_login("Nobody") for _ in range(3))
    assert wrong_name >= 0.5 * wrong_password, (wrong_name, wrong_password)


def test_names_are_unique_whatever_the_case(first: TestClient, second: TestClient) -> None:
    sign_up(first, "Ada")
    assert_error(
        second.post("/api/accounts", json={"name": "aDA", "password": PASSWORD}), 409, "taken"
    )


@pytest.mark.parametrize(
    ("name", "password", "status", "fragment"),
    [
        ("A", PASSWORD, 400, "2 to 24"),
        ("x" * 25, PASSWORD, 400, "2 to 24"),
        ("Ada Lovelace", PASSWORD, 400, "letters"),
        ("Adá", PASSWORD, 400, "letters"),
        ("Ada", "", 400, "8 to 128 characters"),
        ("Ada", "short", 400, "8 to 128 characters"),
        ("Ada", "p" * 129, 400, "8 to 128 characters"),
        ("Ada", "p" * 1_000_000, 413, "larger than"),
    ],
)
def test_sign_up_refuses_bad_names_and_passwords(
    plain: TestClient, name: str, password: str, status: int, fragment: str
) -> None:
    response = plain.post("/api/accounts", json={"name": name, "password": password})
    assert_error(response, status, fragment)
    assert "p" * 20 not in response.text
    assert cookie(plain) is None  # nothing was created


def test_malformed_bodies_are_clear_400s(plain: TestClient) -> None:
    client = plain
    assert_error(client.post("/api/accounts", json={"name": "Ada"}), 400, "password is required")
    assert_error(client.post("/api/login", json=["Ada"]), 400, "JSON object")
    assert_error(
        client.post("/api/login", json={"name": "Ada", "password": PASSWORD, "x": 1}),
        400,
        "not a field",
    )


# -- the account --------------------------------------------------------------------------------


def test_change_password(first: TestClient, second: TestClient) -> None:
    sign_up(first)
    assert log_in(second).status_code == 200
    change = "/api/account/password"
    assert_error(
        first.post(change, json={"old_password": "wrong one!", "new_password": "new secret 1"}),
        403,
        "password is wrong",
    )
    assert_error(
        first.post(change, json={"old_password": PASSWORD, "new_password": "short"}),
        400,
        "8 to 128",
    )
    answer = first.post(change, json={"old_password": PASSWORD, "new_password": "new secret 1"})
    assert answer.json() == {"changed": True}
    assert first.get("/api/account").status_code == 200  # this browser stays in
    assert_error(second.get("/api/account"), 401)  # the others are logged out
    assert_error(log_in(second), 401)
    assert log_in(second, password="new secret 1").status_code == 200
    assert_error(
        TestClient(second.app).post(change, json={"old_password": "x", "new_password": "y"}), 401
    )


def test_sessions_are_listed_and_revoked(first: TestClient, second: TestClient) -> None:
    sign_up(first)
    game = new_game(first)
    assert log_in(second).status_code == 200
    sessions = first.get("/api/account").json()["sessions"]
    assert sorted(s["current"] for s in sessions) == [False, True]
    assert all(set(s) == {"id", "created", "seen", "address", "agent", "current"} for s in sessions)
    other = next(s["id"] for s in sessions if not s["current"])
    assert_error(first.post("/api/account/sessions/0123456789abcdef/revoke"), 404, "no logged-in")
    assert_error(first.post("/api/account/sessions/not-hex/revoke"), 400)
    assert first.post(f"/api/account/sessions/{other}/revoke").json() == {"revoked": other}
    assert_error(second.get("/api/account"), 401)
    assert held_tokens(second, game["id"]) == {}  # the revoked browser plays no more
    assert held_tokens(first, game["id"]) != {}
    assert [s["current"] for s in first.get("/api/account").json()["sessions"]] == [True]
    assert_error(second.post(f"/api/account/sessions/{other}/revoke"), 401)


def test_delete_account_keeps_the_games_as_deleted_player(
    first: TestClient, second: TestClient
) -> None:
    sign_up(first)
    game = new_game(first)
    assert log_in(second).status_code == 200
    assert_error(first.request("DELETE", "/api/account", json={"password": "wrong one!"}), 403)
    answer = first.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert answer.json() == {"deleted": True}
    assert_error(first.get("/api/account"), 401)
    assert_error(second.get("/api/account"), 401)
    assert_error(log_in(second), 401, "wrong name or password")
    assert_error(first.get("/api/players/Ada"), 404)
    assert first.get("/@/Ada").status_code == 404
    names = [s["name"] for s in first.get(f"/api/games/{game['id']}").json()["seats"]]
    assert names == ["deleted player", "deleted player"]
    assert held_tokens(second, game["id"]) == {}
    sign_up(second, "ada")  # the name is free again; the old games are not the new account's
    assert second.get("/api/players/ada").json()["recent"] == []


# -- limits and cross-site requests -------------------------------------------------------


def test_login_attempts_are_limited_per_address_and_per_account(
    app: FastAPI, first: TestClient
) -> None:
    sign_up(first)
    first.post("/api/logout")
    frozen = 0.0  # the buckets never refill during the test
    app.state.login_limiter = RateLimiter(0, burst=1)
    app.state.account_login_limiter = RateLimiter(10, burst=10, clock=lambda: frozen)
    for _ in range(10):
        assert_error(log_in(first, "ada", "wrong password"), 401)
    limited = log_in(first, "Ada", PASSWORD)  # the right password too: the account is locked
    assert_error(limited, 429, "too many login attempts for this account")
    assert int(limited.headers["Retry-After"]) >= 1
    assert_error(log_in(first, "Bob", PASSWORD), 401)  # another name is not locked
    app.state.account_login_limiter = RateLimiter(0, burst=1)
    app.state.login_limiter = RateLimiter(10, burst=10, clock=lambda: frozen)
    for number in range(10):
        assert_error(log_in(first, f"name{number}", PASSWORD), 401)
    assert_error(log_in(first, "Ada", PASSWORD), 429, "too many login attempts")


@pytest.mark.parametrize("header", ["Origin", "Referer"])
def test_requests_from_another_site_are_refused(
    first: TestClient, second: TestClient, header: str
) -> None:
    other = {header: OTHER_SITE + ("/page" if header == "Referer" else "")}
    body = {"name": "Ada", "password": PASSWORD}
    assert_error(first.post("/api/accounts", json=body, headers=other), 403, "another site")
    sign_up(first)
    second.post("/api/session/name", json={"name": "x"})
    refused = [
        second.post("/api/login", json=body, headers=other),
        first.post("/api/logout", headers=other),
        first.post(
            "/api/account/password",
            json={"old_password": PASSWORD, "new_password": "new secret 1"},
            headers=other,
        ),
        first.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=other),
        first.post("/api/account/sessions/0123456789abcdef/revoke", headers=other),
    ]
    for response in refused:
        assert_error(response, 403, "another site")
    assert first.get("/api/account").status_code == 200  # nothing was done
    assert_error(second.get("/api/account"), 401)
    own = {header: "http://testserver" + ("/account" if header == "Referer" else "")}
    assert second.post("/api/login", json=body, headers=own).status_code == 200


# -- profiles --------------------------------------------------------------------------------


def test_player_games_pages_and_filters(first: TestClient) -> None:
    sign_up(first)
    made = [new_game(first)["id"] for _ in range(21)]
    other = new_game(first, "pente_grammai")
    resigned = first.post(
        f"/api/games/{made[0]}/resign", json={"token": held_tokens(first, made[0])["0"]}
    )
    assert resigned.status_code == 200, resigned.text
    listing = first.get("/api/players/ada/games").json()
    assert (listing["total"], listing["pages"], len(listing["games"])) == (22, 2, 20)
    page_two = first.get("/api/players/ada/games", params={"page": 2}).json()
    ids = [g["id"] for g in listing["games"] + page_two["games"]]
    assert sorted(ids) == sorted([*made, other["id"]])
    salta = first.get("/api/players/ada/games", params={"game": "salta"}).json()
    assert salta["total"] == 21 and {g["game"] for g in salta["games"]} == {"salta"}
    over = first.get("/api/players/ada/games", params={"result": "over"}).json()
    assert [g["id"] for g in over["games"]] == [made[0]]
    running = first.get("/api/players/ada/games", params={"result": "running", "game": "salta"})
    assert running.json()["total"] == 20
    profile = first.get("/api/players/Ada").json()
    assert profile["games"] == 22 and len(profile["recent"]) == 10
    assert_error(first.get("/api/players/ada/games", params={"game": "chess"}), 400, "salta")
    assert_error(first.get("/api/players/ada/games", params={"result": "bogus"}), 400)
    assert_error(first.get("/api/players/ada/games", params={"page": 0}), 400)
    assert_error(first.get("/api/players/nobody"), 404, "no player")
    assert_error(first.get("/api/players/nobody/games"), 404, "no player")


def test_pages(first: TestClient, second: TestClient) -> None:
    page = second.get("/account")
    assert page.status_code == 200
    assert 'id="signup-form"' in page.text and 'id="login-form"' in page.text
    assert '/account">Log in</a>' in second.get("/").text
    sign_up(first)
    game = new_game(first)
    page = first.get("/account")
    assert 'id="account-title">Ada<' in page.text and 'id="delete-form"' in page.text
    profile = first.get("/@/ADA")
    assert profile.status_code == 200 and f"/games/{game['id']}" in profile.text
    assert "1 game<" in profile.text
    missing = first.get("/@/nobody", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and "no player" in missing.text


def test_no_password_or_hash_in_any_answer_or_log(
    first: TestClient, second: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret, renewed = "Tr0ub4dor&3-unique", "another-unique-secret"
    answers = [
        first.post("/api/accounts", json={"name": "Ada", "password": secret}),
        first.get("/api/account"),
        log_in(second, "Ada", "wrong-" + secret),
        log_in(second, "Ada", secret),
        first.post("/api/account/password", json={"old_password": secret, "new_password": renewed}),
        first.get("/api/players/Ada"),
        first.get("/account"),
        first.get("/@/Ada"),
        first.request("DELETE", "/api/account", json={"password": renewed}),
    ]
    assert [a.status_code for a in answers] == [201, 200, 401, 200, 200, 200, 200, 200, 200]
    everything = "\n".join(a.text + str(a.headers) for a in answers) + caplog.text
    for text in (secret, renewed, "$argon2"):
        assert text not in everything

"""Accounts under bad input and abuse; ``serve --login-rate``; the navigation's account link.

A taken name, a weak or 1 MB password, a wrong password, a deleted account, a thousand logins a
minute: each gets a clear 4xx that says what is accepted, and nothing changes. No password,
hash or session id appears in an answer's body or in the log.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ludoteca.cli import main
from ludoteca.cli import serve as serve_cli
from ludoteca.web import app as web_app
from ludoteca.web.guards import SESSION_COOKIE, RateLimiter
from tests.web.authenticator import SoftAuthenticator
from tests.web.server import TEST_SETTINGS, free_port

SETTINGS = dataclasses.replace(TEST_SETTINGS, warm_up=False)
PASSWORD = "correct horse battery"
#: A password the server refuses before hashing anything (over 128 characters).
OVERLONG = "p" * 129


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create(tmp_path, SETTINGS)


def create(tmp_path: Path, settings: web_app.ServerSettings) -> FastAPI:
    return web_app.create_app(tmp_path / "games.sqlite3", seed=3, settings=settings)


@pytest.fixture
def first(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture
def second(app: FastAPI, first: TestClient) -> TestClient:
    return TestClient(app)


def assert_error(response: Any, status: int, *fragments: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    for fragment in fragments:
        assert fragment in body["error"], body["error"]
    return str(body["error"])


def sign_up(client: TestClient, name: str = "Ada", password: str = PASSWORD) -> None:
    response = client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status_code == 201, response.text


def log_in(client: TestClient, name: str = "Ada", password: str = PASSWORD) -> Any:
    return client.post("/api/login", json={"name": name, "password": password})


class FrozenClock:
    """A clock for the rate limiters that moves only when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# -- ludoteca serve --login-rate --------------------------------------------------------------


@pytest.mark.parametrize("value", ["many", "-1", "1.5", "100001"])
def test_a_bad_login_rate_is_one_line_and_status_2(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["serve", "--db", str(tmp_path / "g.sqlite3"), "--login-rate", value])
    err = capsys.readouterr().err
    assert status == 2
    assert "--login-rate must be a whole number from 0 to 100000" in " ".join(err.split())
    assert "Traceback" not in err


class _NoPreparation:
    """Stands in for the kernels' preparation: the command is checked, no game is served."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def start(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("option", "expected"), [([], 10.0), (["--login-rate", "3"], 3.0)])
def test_serve_passes_the_login_rate_to_every_server_process(
    option: list[str], expected: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve`` hands its settings to the server processes in the environment: each process's
    app limits logins per address and per name at that rate."""
    made: list[FastAPI] = []

    def run(arguments: argparse.Namespace, listener: socket.socket, *rest: Any) -> None:
        listener.close()
        made.append(web_app.create_app_from_environment())

    monkeypatch.setattr(serve_cli, "_run", run)
    monkeypatch.setattr("ludoteca.preparation.Preparation", _NoPreparation)
    # What the command sets is taken away after the test.
    for name in (web_app.ENV_DB, web_app.ENV_GAME_RATE, web_app.ENV_HINT_RATE):
        monkeypatch.setenv(name, "")
    monkeypatch.setenv(web_app.ENV_LOGIN_RATE, "99")
    monkeypatch.delenv(web_app.ENV_LOGIN_RATE)
    db = str(tmp_path / "g.sqlite3")
    assert main(["serve", "--db", db, "--port", str(free_port()), *option]) == 0
    (app,) = made
    try:
        assert app.state.login_limiter.per_minute == expected
        assert app.state.account_login_limiter.per_minute == expected
    finally:
        app.state.service.store.close()


def test_the_login_rate_sets_how_soon_logins_may_be_tried_again(tmp_path: Path) -> None:
    slow = dataclasses.replace(SETTINGS, login_rate=1)
    with TestClient(create(tmp_path, slow)) as client:
        for _ in range(10):  # the burst; a password over 128 characters is refused unhashed
            assert_error(log_in(client, "Ada", OVERLONG), 401)
        limited = log_in(client, "Ada", OVERLONG)
        assert_error(limited, 429, "too many login attempts")
        assert int(limited.headers["Retry-After"]) > 30  # one a minute: about 60 s
    unlimited = dataclasses.replace(SETTINGS, login_rate=0)
    with TestClient(create(tmp_path / "off", unlimited)) as client:
        answers = {log_in(client, f"name{n}", OVERLONG).status_code for n in range(1_000)}
        assert answers == {401}


# -- bad input and abuse ----------------------------------------------------------------------


def test_a_thousand_logins_a_minute_are_refused_and_change_nothing(
    app: FastAPI, first: TestClient, second: TestClient
) -> None:
    sign_up(first)
    clock = FrozenClock()  # a minute that does not pass while the attempts are made
    app.state.login_limiter = RateLimiter(10, burst=10, clock=clock)
    app.state.account_login_limiter = RateLimiter(10, burst=10, clock=clock)
    statuses = [log_in(second, "Ada", f"guess number {n}").status_code for n in range(1_000)]
    assert statuses.count(401) == 10 and statuses.count(429) == 990  # ten passwords were tried
    limited = log_in(second, "Ada", PASSWORD)  # the right one too, within the minute
    assert_error(limited, 429, "too many login attempts", "try again in")
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert_error(second.get("/api/account"), 401)
    assert len(first.get("/api/account").json()["sessions"]) == 1
    # From many addresses, one name: the account's own limit.
    clock.now += 60
    app.state.login_limiter = RateLimiter(0, burst=1)
    statuses = [
        TestClient(app, client=(f"10.0.{n // 250}.{n % 250}", 40_000))
        .post("/api/login", json={"name": "ada", "password": OVERLONG})
        .status_code
        for n in range(100)
    ]
    assert statuses.count(401) == 10 and statuses.count(429) == 90
    clock.now += 60  # a minute later the right password logs in
    assert log_in(second).status_code == 200


def test_a_1_mb_or_weak_password_is_refused_and_changes_nothing(
    first: TestClient, second: TestClient
) -> None:
    sign_up(first)
    huge = "p" * 1_000_000
    assert_error(log_in(second, "Ada", huge), 413, "larger than")
    assert_error(log_in(second, "Ada", OVERLONG), 401, "wrong name or password")
    changes = [
        (huge, 413, "larger than"),
        (OVERLONG, 400, "8 to 128 characters"),
        ("weak", 400, "8 to 128 characters long (this one has 4)"),
        ("", 400, "8 to 128 characters"),
    ]
    for new, status, fragment in changes:
        body = {"old_password": PASSWORD, "new_password": new}
        response = first.post("/api/account/password", json=body)
        assert_error(response, status, fragment)
        assert "pppppppppp" not in response.text
    wrong_old = {"old_password": "not the password", "new_password": "a good new one"}
    assert_error(first.post("/api/account/password", json=wrong_old), 403, "password is wrong")
    assert_error(
        first.request("DELETE", "/api/account", json={"password": huge}), 413, "larger than"
    )
    assert_error(first.request("DELETE", "/api/account", json={"password": OVERLONG}), 403)
    assert log_in(second).status_code == 200  # the password is still the first one
    assert len(first.get("/api/account").json()["sessions"]) == 2


@pytest.mark.parametrize(
    "weak", ["password", "PassWord123", "qwertyuiop", "zzzzzzzzzz", "ada_lovelace"]
)
def test_a_password_guessed_first_is_refused(
    first: TestClient, second: TestClient, weak: str
) -> None:
    response = second.post("/api/accounts", json={"name": "Ada_Lovelace", "password": weak})
    assert_error(response, 400, "among the first ones guessed", "8 to 128 characters")
    assert_error(second.get("/api/account"), 401)  # no account, not logged in
    sign_up(first, "Ada_Lovelace")
    change = {"old_password": PASSWORD, "new_password": weak}
    assert_error(first.post("/api/account/password", json=change), 400, "first ones guessed")
    assert log_in(second, "Ada_Lovelace").status_code == 200  # the password did not change


def test_a_taken_name_is_refused_and_changes_nothing(first: TestClient, second: TestClient) -> None:
    sign_up(first, "Ada")
    for name in ("Ada", "ADA", "aDa"):
        response = second.post("/api/accounts", json={"name": name, "password": "another one!"})
        assert_error(response, 409, "taken", "choose another")
    assert_error(second.get("/api/account"), 401)
    assert_error(log_in(second, "Ada", "another one!"), 401)  # the password did not change
    assert log_in(second).status_code == 200


def test_a_deleted_account_is_refused_everywhere(first: TestClient, second: TestClient) -> None:
    sign_up(first)
    stale = first.cookies.get(SESSION_COOKIE)
    assert first.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    assert_error(log_in(second), 401, "wrong name or password")
    first.cookies.set(SESSION_COOKIE, stale)  # the deleted account's old session cookie
    assert_error(first.get("/api/account"), 401, "log in first")
    assert_error(
        first.post(
            "/api/account/password", json={"old_password": PASSWORD, "new_password": "x" * 10}
        ),
        401,
    )
    assert_error(first.request("DELETE", "/api/account", json={"password": PASSWORD}), 401)
    assert_error(first.post("/api/account/sessions/0123456789abcdef/revoke"), 401)
    assert_error(first.post("/api/account/passkeys/options"), 401)
    assert_error(first.get("/api/players/Ada"), 404, "no player")
    assert '/account">Log in</a>' in first.get("/").text


def test_no_password_hash_or_session_id_in_any_answer_or_log(
    app: FastAPI, first: TestClient, second: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret, renewed = "Tr0ub4dor&3-unique", "another-unique-secret"
    device = SoftAuthenticator("http://testserver")
    sessions: set[str] = set()

    def noted(response: Any) -> Any:
        for client in (first, second):
            session = app.state.sessions.read(client.cookies.get(SESSION_COOKIE))
            if session is not None:
                sessions.add(session)
        return response

    answers = [noted(first.post("/api/accounts", json={"name": "Ada", "password": secret}))]
    answers.append(noted(first.get("/api/account")))
    offered = noted(first.post("/api/account/passkeys/options"))
    answers += [offered]
    answers.append(
        noted(
            first.post("/api/account/passkeys", json={"credential": device.create(offered.json())})
        )
    )
    answers += [
        noted(log_in(second, "Ada", "wrong-" + secret)),
        noted(log_in(second, "Ada", secret)),
        noted(second.post("/api/logout")),
    ]
    offered = noted(second.post("/api/login/passkey/options"))
    answers += [
        offered,
        noted(second.post("/api/login/passkey", json={"credential": device.get(offered.json())})),
        noted(
            first.post(
                "/api/account/password", json={"old_password": secret, "new_password": renewed}
            )
        ),
        noted(first.get("/api/account")),
        noted(first.get("/api/account/passkeys")),
        noted(first.get("/account")),
        noted(first.get("/@/Ada")),
        noted(first.get("/")),
        noted(first.request("DELETE", "/api/account", json={"password": renewed})),
    ]
    assert [a.status_code for a in answers] == [201, 200, 200, 201, 401, 200, 200] + [200] * 9
    assert len(sessions) >= 4  # each login renewed the session id
    # The cookie carries the signed session id: everything else of the answers, and the log.
    shown = [
        a.text + str({k: v for k, v in a.headers.items() if k != "set-cookie"}) for a in answers
    ]
    everything = "\n".join(shown) + caplog.text
    for text in (secret, renewed, "$argon2", *sessions):
        assert text not in everything


# -- the navigation -----------------------------------------------------------------------------


def nav_link(client: TestClient, path: str) -> str:
    page = client.get(path)
    assert page.status_code == 200, (path, page.text[:200])
    found = re.search(r'<a id="nav-account" href="([^"]*)"[^>]*>([^<]*)</a>', page.text)
    assert found is not None, path
    assert found.group(1).endswith("/account")
    return found.group(2)


def test_the_navigation_names_the_logged_in_account(first: TestClient, second: TestClient) -> None:
    game = first.post("/api/games", json={"game": "salta"}).json()
    pages = ["/", "/learn", "/puzzles", "/account", "/rules/salta", f"/games/{game['id']}"]
    assert {nav_link(first, page) for page in pages} == {"Log in"}
    sign_up(first, "Ada_7")
    assert {nav_link(first, page) for page in [*pages, "/@/Ada_7"]} == {"Ada_7"}
    assert nav_link(second, "/") == "Log in"  # another browser is not logged in
    first.post("/api/logout")
    assert nav_link(first, "/") == "Log in"

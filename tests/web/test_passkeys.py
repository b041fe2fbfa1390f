"""Passkeys through the API: register, log in, list, remove; bad, replayed and expired challenges.

The authenticator is a software one (`tests.web.authenticator`); the browser test with
Chromium's virtual authenticator is in test_passkeys_browser.py. Two ``TestClient``s on one app
are two browsers.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from ludoteca.web import passkeys
from ludoteca.web.app import create_app
from ludoteca.web.guards import SESSION_COOKIE, RateLimiter
from ludoteca.web.migrations import alembic_config
from ludoteca.web.storage import GameStore
from tests.web.authenticator import SoftAuthenticator, b64url
from tests.web.server import TEST_SETTINGS

SETTINGS = dataclasses.replace(TEST_SETTINGS, warm_up=False)
PASSWORD = "correct horse battery"
ORIGIN = "http://testserver"
LOGIN_OPTIONS = "/api/login/passkey/options"
REGISTER_OPTIONS = "/api/account/passkeys/options"


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(tmp_path / "games.sqlite3", seed=3, settings=SETTINGS)


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


def sign_up(client: TestClient, name: str = "Ada") -> None:
    response = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text


def options(client: TestClient, url: str) -> dict[str, Any]:
    response = client.post(url)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def register(client: TestClient, device: SoftAuthenticator, name: str = "Phone") -> dict[str, Any]:
    credential = device.create(options(client, REGISTER_OPTIONS))
    response = client.post("/api/account/passkeys", json={"credential": credential, "name": name})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def passkey_login(client: TestClient, device: SoftAuthenticator) -> Any:
    credential = device.get(options(client, LOGIN_OPTIONS))
    return client.post("/api/login/passkey", json={"credential": credential})


def test_register_log_out_and_log_in_with_a_passkey(database: str) -> None:
    app = create_app(database, seed=3, settings=SETTINGS)
    device = SoftAuthenticator(ORIGIN)
    with TestClient(app) as home:
        sign_up(home)
        offered = options(home, REGISTER_OPTIONS)
        assert offered["rp"] == {"id": "testserver", "name": "Ludoteca"}
        assert offered["user"]["name"] == "Ada"
        assert offered["authenticatorSelection"]["residentKey"] == "required"
        assert offered["excludeCredentials"] == []
        credential = device.create(offered)
        added = home.post("/api/account/passkeys", json={"credential": credential, "name": "Phone"})
        assert added.status_code == 201, added.text
        assert set(added.json()) == {"id", "name", "created", "used"}
        assert added.json()["name"] == "Phone" and added.json()["used"] is None
        again = options(home, REGISTER_OPTIONS)
        assert [c["id"] for c in again["excludeCredentials"]] == [device.id]
        assert home.post("/api/logout").status_code == 200

        phone = TestClient(app)  # another browser, with no cookie yet
        offered = options(phone, LOGIN_OPTIONS)
        assert offered["rpId"] == "testserver" and offered["allowCredentials"] == []
        before = phone.cookies.get(SESSION_COOKIE)
        assert before is not None  # the challenge is kept for this browser's session
        answer = phone.post("/api/login/passkey", json={"credential": device.get(offered)})
        assert answer.status_code == 200, answer.text
        assert answer.json()["name"] == "Ada"
        assert phone.cookies.get(SESSION_COOKIE) not in (None, before)  # a new session id
        assert phone.get("/api/account").json()["name"] == "Ada"
        listed = phone.get("/api/account/passkeys").json()["passkeys"]
        assert [(p["id"], p["name"]) for p in listed] == [(added.json()["id"], "Phone")]
        assert listed[0]["used"] is not None
        # The authenticator's counter went up: the next login with it works too.
        assert phone.post("/api/logout").status_code == 200
        assert passkey_login(phone, device).status_code == 200


def test_an_answered_challenge_cannot_be_replayed(first: TestClient, second: TestClient) -> None:
    device = SoftAuthenticator(ORIGIN)
    sign_up(first)
    credential = device.create(options(first, REGISTER_OPTIONS))
    body = {"credential": credential}
    assert first.post("/api/account/passkeys", json=body).status_code == 201
    assert_error(first.post("/api/account/passkeys", json=body), 400, "no passkey challenge")
    answer = device.get(options(second, LOGIN_OPTIONS))
    assert second.post("/api/login/passkey", json={"credential": answer}).status_code == 200
    second.post("/api/logout")
    replayed = second.post("/api/login/passkey", json={"credential": answer})
    assert_error(replayed, 400, "no passkey challenge", LOGIN_OPTIONS)
    assert_error(second.get("/api/account"), 401)  # not logged in


def test_an_expired_challenge_is_refused_and_spent(
    first: TestClient, second: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    device = SoftAuthenticator(ORIGIN)
    sign_up(first)
    later = time.time() + passkeys.CHALLENGE_SECONDS + 1
    offered = options(first, REGISTER_OPTIONS)
    with monkeypatch.context() as patch:
        patch.setattr(passkeys, "_clock", lambda: later)
        expired = first.post("/api/account/passkeys", json={"credential": device.create(offered)})
    assert_error(expired, 400, "expired", REGISTER_OPTIONS)
    assert first.get("/api/account/passkeys").json() == {"passkeys": []}
    register(first, device)
    offered = options(second, LOGIN_OPTIONS)
    answer = device.get(offered)
    with monkeypatch.context() as patch:
        patch.setattr(passkeys, "_clock", lambda: later)
        assert_error(second.post("/api/login/passkey", json={"credential": answer}), 400, "expired")
    # Refused once, it is spent: the same answer in time is refused too.
    assert_error(
        second.post("/api/login/passkey", json={"credential": answer}), 400, "no passkey challenge"
    )
    assert_error(second.get("/api/account"), 401)


def test_bad_answers_are_clear_4xx_and_log_nobody_in(
    app: FastAPI, first: TestClient, second: TestClient
) -> None:
    device = SoftAuthenticator(ORIGIN)
    sign_up(first)
    register(first, device)

    def login(answer: dict[str, Any]) -> Any:
        return second.post("/api/login/passkey", json={"credential": answer})

    fresh = TestClient(app)  # no session, so no challenge
    assert_error(
        fresh.post(
            "/api/login/passkey",
            json={"credential": device.get({"challenge": "x", "rpId": "testserver"})},
        ),
        400,
        "no passkey challenge",
    )
    # An answer to an earlier challenge, once a new one was asked for.
    stale = device.get(options(second, LOGIN_OPTIONS))
    options(second, LOGIN_OPTIONS)
    assert_error(login(stale), 401, "passkey login failed", "challenge")
    assert_error(
        login(device.get(options(second, LOGIN_OPTIONS), origin=ORIGIN.replace("http", "https"))),
        401,
        "origin",
    )
    assert_error(
        login(device.get(options(second, LOGIN_OPTIONS), rp_id="evil.example")),
        401,
        "passkey login failed",
    )
    unknown = SoftAuthenticator(ORIGIN)
    assert_error(login(unknown.get(options(second, LOGIN_OPTIONS))), 401, "not registered")
    forged = device.get(options(second, LOGIN_OPTIONS))
    forged["response"]["signature"] = b64url(b"\x30\x06\x02\x01\x01\x02\x01\x01")
    assert_error(login(forged), 401, "passkey login failed")
    other_user = device.get(options(second, LOGIN_OPTIONS))
    other_user["response"]["userHandle"] = b64url(b"someone else")
    assert_error(login(other_user), 401, "another account")
    options(second, LOGIN_OPTIONS)
    assert_error(login({}), 400, "not a passkey's answer", "id")
    options(second, LOGIN_OPTIONS)
    assert_error(login({"id": device.id, "response": "nonsense"}), 400, "not a passkey")
    assert_error(second.post("/api/login/passkey", json={}), 400, "credential is required")
    assert_error(second.post("/api/login/passkey", json={"credential": []}), 400, "credential")
    assert_error(second.get("/api/account"), 401)  # nobody logged in through any of these

    # Registration: logged in only, the answer checked against this browser's challenge.
    assert_error(second.post(REGISTER_OPTIONS), 401, "log in first")
    assert_error(second.post("/api/account/passkeys", json={"credential": {}}), 401, "log in first")
    another = SoftAuthenticator(ORIGIN)
    stale = another.create(options(first, REGISTER_OPTIONS))
    offered = options(first, REGISTER_OPTIONS)
    refused = first.post("/api/account/passkeys", json={"credential": stale})
    assert_error(refused, 400, "could not be checked", "challenge")
    wrong_origin = another.create(options(first, REGISTER_OPTIONS), origin="http://evil.example")
    assert_error(
        first.post("/api/account/passkeys", json={"credential": wrong_origin}), 400, "origin"
    )
    options(first, REGISTER_OPTIONS)
    assert_error(
        first.post("/api/account/passkeys", json={"credential": {"id": "x"}}),
        400,
        "could not be checked",
    )
    assert_error(
        first.post("/api/account/passkeys", json={"credential": {}, "name": "n" * 65}), 400, "name"
    )
    # The same passkey twice (a browser that ignored excludeCredentials).
    offered = options(first, REGISTER_OPTIONS)
    twice = first.post("/api/account/passkeys", json={"credential": device.create(offered)})
    assert_error(twice, 409, "registered already")
    assert len(first.get("/api/account/passkeys").json()["passkeys"]) == 1


def test_a_challenge_belongs_to_the_browser_that_asked(
    first: TestClient, second: TestClient
) -> None:
    device = SoftAuthenticator(ORIGIN)
    sign_up(first)
    register(first, device)
    first.post("/api/logout")
    answer = device.get(options(first, LOGIN_OPTIONS))  # the first browser's challenge
    options(second, LOGIN_OPTIONS)  # the second has one of its own
    assert_error(second.post("/api/login/passkey", json={"credential": answer}), 401, "challenge")
    assert first.post("/api/login/passkey", json={"credential": answer}).status_code == 200


def test_remove_passkeys_and_delete_the_account(first: TestClient, second: TestClient) -> None:
    phone, key = SoftAuthenticator(ORIGIN), SoftAuthenticator(ORIGIN)
    sign_up(first)
    kept = register(first, phone, "Phone")
    removed = register(first, key, "Key")
    assert [p["name"] for p in first.get("/api/account/passkeys").json()["passkeys"]] == [
        "Phone",
        "Key",
    ]
    assert_error(first.delete("/api/account/passkeys/0123456789abcdef"), 404, "no passkey")
    assert_error(first.delete("/api/account/passkeys/not-an-id"), 400)
    assert_error(second.delete(f"/api/account/passkeys/{kept['id']}"), 401)
    assert first.delete(f"/api/account/passkeys/{removed['id']}").json() == {
        "removed": removed["id"]
    }
    assert_error(passkey_login(second, key), 401, "not registered")
    assert passkey_login(second, phone).status_code == 200
    second.post("/api/logout")
    deleted = first.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert deleted.status_code == 200
    assert_error(passkey_login(second, phone), 401, "not registered")
    sign_up(first, "Ada")  # the name again: a new account has no passkey
    assert first.get("/api/account/passkeys").json() == {"passkeys": []}


def test_requests_from_another_site_are_refused(first: TestClient, second: TestClient) -> None:
    device = SoftAuthenticator(ORIGIN)
    sign_up(first)
    added = register(first, device)
    other = {"Origin": "http://evil.example"}
    refused = [
        first.post(REGISTER_OPTIONS, headers=other),
        first.post("/api/account/passkeys", json={"credential": {}}, headers=other),
        first.delete(f"/api/account/passkeys/{added['id']}", headers=other),
        second.post(LOGIN_OPTIONS, headers=other),
        second.post("/api/login/passkey", json={"credential": {}}, headers=other),
    ]
    for response in refused:
        assert_error(response, 403, "another site")
    assert len(first.get("/api/account/passkeys").json()["passkeys"]) == 1


def test_login_options_count_as_login_attempts(app: FastAPI, second: TestClient) -> None:
    frozen = 0.0
    app.state.login_limiter = RateLimiter(10, burst=10, clock=lambda: frozen)
    for _ in range(10):
        options(second, LOGIN_OPTIONS)
    limited = second.post(LOGIN_OPTIONS)
    assert_error(limited, 429, "too many login attempts")
    assert int(limited.headers["Retry-After"]) >= 1


def test_the_relying_party_is_the_public_url_when_there_is_one(app: FastAPI) -> None:
    app.state.public_url = "https://games.example.org"
    public = "https://games.example.org"
    device = SoftAuthenticator(public)
    with TestClient(app, base_url="https://testserver") as client:  # behind a proxy
        sign_up(client)
        offered = options(client, REGISTER_OPTIONS)
        assert offered["rp"]["id"] == "games.example.org"
        wrong = device.create(offered, origin="https://testserver")
        assert_error(
            client.post("/api/account/passkeys", json={"credential": wrong}), 400, "origin"
        )
        register(client, device)
        client.post("/api/logout")
        offered = options(client, LOGIN_OPTIONS)
        assert offered["rpId"] == "games.example.org"
        answer = client.post("/api/login/passkey", json={"credential": device.get(offered)})
        assert answer.status_code == 200, answer.text


def test_the_migration_adds_the_passkey_tables_and_takes_them_away(database: str) -> None:
    tables = {"account_passkeys", "webauthn_challenges"}
    store = GameStore(database)
    try:
        assert tables <= set(inspect(store.engine).get_table_names())
        config = alembic_config()
        with store.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0006")
        assert not tables & set(inspect(store.engine).get_table_names())
    finally:
        store.close()
    store = GameStore(database)  # opening upgrades the database again
    try:
        assert tables <= set(inspect(store.engine).get_table_names())
    finally:
        store.close()


def test_of_requests_answering_one_challenge_at_once_only_one_gets_it(database: str) -> None:
    store = GameStore(database)
    try:
        challenges = passkeys.PasskeyStore(store)
        now = time.time()
        for round_ in range(5):
            given = passkeys.Challenge(f"challenge-{round_}", None, now + 60)
            challenges.give_challenge("browser", passkeys.LOGIN, given, now)
            with ThreadPoolExecutor(4) as pool:
                taken = list(
                    pool.map(
                        lambda _: challenges.take_challenge("browser", passkeys.LOGIN), range(4)
                    )
                )
            assert [t for t in taken if t is not None] == [given]
    finally:
        store.close()

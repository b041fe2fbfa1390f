"""Accounts in a real Chromium: sign up, start a game, log in from a second browser, play."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.server import running_server

pytestmark = [pytest.mark.browser]

#: How long to wait for what a page shows: a safety net against a hang, not a bound.
TIMEOUT = 60_000


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("accounts") / "games.sqlite3") as url:
        yield url


def new_page(browser: Browser, errors: list[str]) -> Page:
    page = browser.new_context().new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def test_sign_up_play_and_take_the_seat_on_a_second_browser(browser: Browser, base: str) -> None:
    errors: list[str] = []
    home, away = new_page(browser, errors), new_page(browser, errors)
    try:
        home.goto(base + "/")
        home.get_by_role("link", name="Log in").click()
        signup = home.locator("#signup-form")
        signup.locator("input[name=name]").fill("Ada")
        signup.locator("input[name=password]").fill("a long passphrase")
        signup.get_by_role("button", name="Create the account").click()
        expect(home.locator("#account-title")).to_have_text("Ada")
        expect(home.locator("#account-sessions")).to_contain_text("This browser")
        created = home.request.post(base + "/api/games", data={"game": "salta"}).json()
        home.goto(created["url"])
        expect(home.locator("#status")).to_contain_text("Your move")
        # Another browser sees the game as a spectator, then logs in and plays it.
        away.goto(f"{base}/games/{created['id']}")
        expect(away.locator("#status")).not_to_contain_text("Your move")
        away.goto(base + "/account")
        login = away.locator("#login-form")
        login.locator("input[name=name]").fill("ada")
        login.locator("input[name=password]").fill("a long passphrase")
        login.get_by_role("button", name="Log in").click()
        expect(away.locator("#account-title")).to_have_text("Ada")
        away.goto(f"{base}/games/{created['id']}")
        expect(away.locator("#status")).to_contain_text("Your move")
        board = httpx.get(f"{base}/api/games/{created['id']}/board").json()
        path = next(p for p in board["click_paths"].values() if p)
        for region in path:
            away.locator(f'#board .region[data-region="{region}"]').click()
        expect(home.locator("#status")).to_contain_text("move 2")
        # The first browser lists both logins.
        home.goto(base + "/account")
        expect(home.locator("#account-sessions li")).to_have_count(2)
        assert errors == []
    finally:
        home.context.close()
        away.context.close()

"""Rated games in a real Chromium: two players sign up, post and accept a rated challenge in the
lobby, one resigns, and both profiles show the game and the new ratings; they agree to a rematch,
and one of them logs in on a phone (a third browser) and gets their seat in that running game."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from ludoteca.analysis.glicko2 import Rating, rate_pair
from tests.web.server import running_server

pytestmark = [pytest.mark.browser]

#: How long to wait for what a page shows: a safety net against a hang, not a bound.
TIMEOUT = 60_000


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("ratings") / "games.sqlite3") as url:
        yield url


def new_page(browser: Browser, errors: list[str]) -> Page:
    page = browser.new_context().new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def sign_up(page: Page, base: str, name: str) -> None:
    page.goto(base + "/account")
    signup = page.locator("#signup-form")
    signup.locator("input[name=name]").fill(name)
    signup.locator("input[name=password]").fill("a long passphrase")
    signup.get_by_role("button", name="Create the account").click()
    expect(page.locator("#account-title")).to_have_text(name)


#: A phone's screen (CSS pixels) for the third browser.
PHONE = {"width": 390, "height": 844}


def test_a_rated_game_from_the_lobby_moves_both_ratings(browser: Browser, base: str) -> None:
    errors: list[str] = []
    ada, bob = new_page(browser, errors), new_page(browser, errors)
    phone_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        sign_up(ada, base, "Ada")
        sign_up(bob, base, "Bob")
        ada.goto(base + "/")
        expect(ada.locator("#name-input")).to_have_value("Ada")  # the account's name plays
        ada.locator("#post-challenge summary").click()
        form = ada.locator("#challenge-form")
        form.locator("select[name=game]").select_option("salta")
        form.locator("select[name=clock]").select_option("")
        form.locator("input[name=rated]").check()
        form.get_by_role("button", name="Post the challenge").click()
        expect(ada.locator("#challenges")).to_contain_text("(waiting for someone to accept)")
        bob.goto(base + "/")
        challenge = bob.locator("#challenges li.challenge").filter(has_text="Ada (1500?)")
        expect(challenge).to_contain_text("rated")
        bob.locator("#min-rating").fill("1600")  # the rating range hides it
        expect(bob.locator("#challenges")).to_contain_text("No open challenge in this rating")
        bob.locator("#min-rating").fill("1400")
        challenge.get_by_role("button").click()
        expect(bob.locator("#status")).to_be_visible()
        expect(ada).to_have_url(bob.url)  # the poster's lobby opens the accepted game
        bob.once("dialog", lambda dialog: dialog.accept())
        bob.locator("#resign").click()
        expect(ada.locator("#status")).to_contain_text("resigned")
        ada_after, bob_after = rate_pair(Rating(), Rating(), 1.0)
        game_path = bob.url.removeprefix(base)
        for page, name, shown in (
            (ada, "Bob", f"{round(bob_after.rating)}?"),
            (bob, "Ada", f"{round(ada_after.rating)}?"),
        ):
            page.goto(f"{base}/@/{name}")
            ratings = page.locator("#profile-ratings")
            expect(ratings.locator(".rating-value")).to_have_text(shown)
            expect(ratings).to_contain_text("1 rated game")
            expect(ratings.locator("svg.rating-chart")).to_be_visible()
            expect(page.locator(f'#profile-games a[href$="{game_path}"]')).to_be_visible()
            expect(page.locator("#profile-games")).to_contain_text("rated")
        # A rematch, agreed on the finished game's page: a running rated game.
        ada.goto(base + game_path)
        ada.get_by_role("button", name="Rematch").click()
        bob.goto(base + game_path)
        bob.get_by_role("button", name="Accept the rematch").click()
        expect(bob).not_to_have_url(base + game_path)
        rematch_url = bob.url
        expect(ada).to_have_url(rematch_url)  # both pages move on to the new game
        expect(ada.locator("#resign")).to_be_visible()
        # Ada logs in on her phone and opens the running game: her seat, not a spectator's view.
        phone = phone_context.new_page()
        phone.set_default_timeout(TIMEOUT)
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(base + "/account")
        login = phone.locator("#login-form")
        login.locator("input[name=name]").fill("Ada")
        login.locator("input[name=password]").fill("a long passphrase")
        login.get_by_role("button", name="Log in").click()
        expect(phone.locator("#account-title")).to_have_text("Ada")
        phone.goto(rematch_url)
        expect(phone.locator("#role")).to_contain_text(re.compile(r"Your move|You play"))
        expect(phone.locator("#resign")).to_be_visible()
        assert phone.evaluate("window.innerWidth") == PHONE["width"]
        # From the phone she resigns the rematch, and Bob's page sees it.
        phone.once("dialog", lambda dialog: dialog.accept())
        phone.locator("#resign").click()
        expect(bob.locator("#status")).to_contain_text("resigned")
        assert errors == []
    finally:
        ada.context.close()
        bob.context.close()
        phone_context.close()

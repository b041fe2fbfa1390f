"""Every game's board page fits the screen, on a desktop (1280x800) and on a phone (390x844):
the turn bar, the board and the move controls lie inside the viewport without scrolling,
measured by their bounding boxes; on a phone the draw offer, the rematch and "your move" are in
view too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import ludoteca
from tests.web.server import running_server

pytestmark = [pytest.mark.browser]

#: How long to wait for what a page shows: a safety net against a hang, not a bound.
TIMEOUT = 60_000
SCREENS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("fit") / "games.sqlite3") as url:
        yield url


def open_page(browser: Browser, screen: str, errors: list[str]) -> Page:
    page = browser.new_context(**SCREENS[screen]).new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def assert_in_view(page: Page, selector: str, what: str) -> None:
    """The element's whole bounding box lies inside the viewport, the page scrolled to the top."""
    assert page.evaluate("() => window.scrollY") == 0
    element = page.locator(selector)
    expect(element).to_be_visible()
    box = element.bounding_box()
    view = page.viewport_size
    assert box is not None and view is not None
    right, bottom = box["x"] + box["width"], box["y"] + box["height"]
    assert box["x"] >= 0 and box["y"] >= 0, f"{what}: {selector} starts outside, at {box}"
    assert right <= view["width"] + 0.5 and bottom <= view["height"] + 0.5, (
        f"{what}: {selector} ends at ({right:.0f}, {bottom:.0f}), outside "
        f"{view['width']}x{view['height']}"
    )


def assert_no_sideways_scroll(page: Page, what: str) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    view = page.viewport_size
    assert view is not None and width <= view["width"], f"{what}: the page is {width} px wide"


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_board_the_turn_bar_and_the_move_controls_fit(
    browser: Browser, base: str, game_id: str, screen: str
) -> None:
    errors: list[str] = []
    page = open_page(browser, screen, errors)
    try:
        players = ludoteca.make(game_id).num_players
        created = httpx.post(
            f"{base}/api/games", json={"game": game_id, "seats": ["human"] * players}
        ).json()
        page.goto(created["url"])
        expect(page.locator("body")).to_have_attribute("data-live", "yes")
        page.wait_for_selector("#board svg")
        expect(page.locator("#status")).to_contain_text("Your move")
        what = f"{game_id} on a {screen}"
        # Resign stands in the row of the game's buttons (Undo joins it after a move).
        for selector in ("#turnbar", "#status", "#board svg", "#move-form", "#resign"):
            assert_in_view(page, selector, what)
        choices = page.locator("#choices > button")
        for index in range(choices.count()):
            assert_in_view(page, f"#choices > button >> nth={index}", what)
        assert_no_sideways_scroll(page, what)
        assert errors == [], errors
    finally:
        page.context.close()


def test_a_phone_shows_your_move_the_draw_offer_and_the_rematch(
    browser: Browser, base: str
) -> None:
    errors: list[str] = []
    created = httpx.post(
        f"{base}/api/games", json={"game": "salta", "seats": ["human", "human"]}
    ).json()
    seats = {seat["seat"]: seat for seat in created["seats"]}
    green, red = open_page(browser, "phone", errors), open_page(browser, "phone", errors)
    try:
        green.goto(seats[0]["link"])
        red.goto(seats[1]["link"])
        for page in (green, red):
            expect(page.locator("body")).to_have_attribute("data-live", "yes")
        expect(green.locator("#status")).to_contain_text("Your move")
        assert_in_view(green, "#status", "your move")
        # Green offers a draw: Red's phone shows the offer and the buttons that answer it.
        green.get_by_role("button", name="Offer a draw").click()
        expect(red.locator("#offer-text")).to_contain_text("offers a draw")
        for selector in ("#offer-text", "#draw-accept", "#draw-decline"):
            assert_in_view(red, selector, "the draw offer")
        red.get_by_role("button", name="Decline the draw").click()
        expect(green.locator("#offer-text")).to_be_hidden()
        # Red resigns; Green asks for a rematch, which Red's phone shows with its answer.
        red.once("dialog", lambda dialog: dialog.accept())
        red.get_by_role("button", name="Resign").click()
        expect(green.locator("#result")).to_contain_text("Game over")
        assert_in_view(green, "#rematch", "the rematch")
        green.get_by_role("button", name="Rematch").click()
        expect(red.locator("#offer-text")).to_contain_text("asks for a rematch")
        assert_in_view(red, "#offer-text", "the rematch offer")
        assert_in_view(red, "#rematch", "the rematch offer")
        red.get_by_role("button", name="Accept the rematch").click()
        red.wait_for_url(re.compile(r"/games/[\w-]+$"))
        assert errors == [], errors
    finally:
        green.context.close()
        red.context.close()

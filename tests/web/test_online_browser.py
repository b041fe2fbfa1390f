"""Online play in a real Chromium: names, an open challenge posted and accepted, a real-time
clock that flags, a rematch with the seats swapped, an agreed draw, and the board on a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import ludoteca
from ludoteca.web.lobby import LISTED
from tests.web.server import running_server

pytestmark = [
    pytest.mark.browser,
]

#: How long to wait for what a page shows: a safety net against a hang, not a bound.
TIMEOUT = 60_000
PHONE = {"width": 390, "height": 844}
TOUCH_PX = 40


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("online") / "games.sqlite3") as url:
        yield url


def new_page(browser: Browser, errors: list[str], **context: Any) -> Page:
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def choose_name(page: Page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("#name-input", name)
    page.get_by_role("button", name="Save name").click()
    expect(page.locator("#name-saved")).to_contain_text(name)


def click_first_move(page: Page, base: str, game_id: str) -> str:
    board = httpx.get(f"{base}/api/games/{game_id}/board").json()
    text, path = next((t, p) for t, p in board["click_paths"].items() if p)
    for region in path:
        page.locator(f'#board .region[data-region="{region}"]').click()
    return str(text)


def test_challenge_clock_flag_rematch_and_draw(browser: Browser, base: str) -> None:
    errors: list[str] = []
    ada, bob = new_page(browser, errors), new_page(browser, errors)
    try:
        choose_name(ada, base, "Ada <b>&</b>")
        choose_name(bob, base, "Bob")
        for page in (ada, bob):  # the lobby is pushed on its WebSocket, with the session's games
            expect(page.locator("body")).to_have_attribute("data-lobby-live", "yes")
        # Ada posts Salta, playing Green, with a 4 s clock; Bob's lobby shows it by itself.
        ada.locator("#post-challenge > summary").click()
        form = ada.locator("#challenge-form")
        form.locator("select[name=game]").select_option("salta")
        form.locator("select[name=side]").select_option("0")
        form.locator("select[name=clock]").select_option("custom")
        form.locator("input[name=initial]").fill("4")
        form.locator("input[name=increment]").fill("0")
        form.get_by_role("button", name="Post the challenge").click()
        expect(ada.locator("#challenges")).to_contain_text("waiting for someone")
        offer = bob.locator("#challenges li", has_text="Ada <b>&</b> plays Green")
        expect(offer).to_contain_text("4 s")
        offer.get_by_role("button", name="Accept: play Red").click()
        # Both end up on the board, each in their seat, each name shown as text.
        bob.wait_for_url(re.compile(r"/games/[\w-]+$"))
        ada.wait_for_url(bob.url)
        game_id = bob.url.rsplit("/", 1)[1]
        for page in (ada, bob):
            expect(page.locator("body")).to_have_attribute("data-live", "yes")
            expect(page.locator("#players")).to_contain_text("Green: Ada <b>&</b>")
            expect(page.locator("#players")).to_contain_text("Red: Bob")
            expect(page.locator("#clocks")).to_be_visible()
        expect(ada.locator("#status")).to_contain_text("Your move, Green (Ada <b>&</b>) · move 1")
        expect(ada).to_have_title(re.compile("^● Your turn"))
        expect(bob).not_to_have_title(re.compile("Your turn"))
        # No clock runs before the first move; then Red's runs, then Green's.
        click_first_move(ada, base, game_id)
        expect(bob.locator("#clocks .clock.running")).to_contain_text("Bob")
        expect(bob).to_have_title(re.compile("^● Your turn"))
        click_first_move(bob, base, game_id)
        expect(ada.locator("#clocks .clock.running")).to_contain_text("Ada")
        # Ada does not move: the server flags her and both pages show why.
        for page in (ada, bob):
            expect(page.locator("#status")).to_contain_text("Green ran out of time (time out)")
        record = httpx.get(f"{base}/api/games/{game_id}/record").json()
        assert record["ending"] == {"time out": 0}
        assert record["players"] == ["Ada <b>&</b>", "Bob"]
        expect(ada.locator(".invite-link")).to_have_count(0)  # Bob's seat is his alone
        expect(ada.locator("#undo")).to_be_hidden()
        expect(ada.locator("#resign")).to_be_hidden()
        expect(ada.locator("#draw-offer")).to_be_hidden()
        # Rematch: Ada asks, Bob accepts; both move on to the new game, seats swapped.
        ada.get_by_role("button", name="Rematch").click()
        expect(bob.locator("#offer-text")).to_contain_text("asks for a rematch")
        bob.get_by_role("button", name="Accept the rematch").click()
        for page in (ada, bob):
            page.wait_for_url(re.compile(r"/games/(?!" + re.escape(game_id) + r")[\w-]+$"))
            expect(page.locator("body")).to_have_attribute("data-live", "yes")
            expect(page.locator("#players")).to_contain_text("Green: Bob")
            expect(page.locator("#players")).to_contain_text("Red: Ada <b>&</b>")
        # A draw offer, accepted.
        bob.get_by_role("button", name="Offer a draw").click()
        expect(ada.locator("#offer-text")).to_contain_text("Green (Bob) offers a draw")
        ada.get_by_role("button", name="Accept the draw").click()
        for page in (ada, bob):
            expect(page.locator("#status")).to_contain_text("draw agreed by the players")
        new_id = ada.url.rsplit("/", 1)[1]
        assert httpx.get(f"{base}/api/games/{new_id}/record").json()["ending"] == {"agreed": "draw"}
        assert errors == [], errors
    finally:
        ada.context.close()
        bob.context.close()


def _visible(page: Page, selector: str) -> dict[str, float]:
    expect(page.locator(selector).first).to_be_visible()  # the page may not have drawn it yet
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)
    return box


def test_a_phone_sees_the_side_to_move_the_dice_and_the_last_move(
    browser: Browser, base: str
) -> None:
    errors: list[str] = []
    phone = new_page(browser, errors, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        created = httpx.post(
            f"{base}/api/games", json={"game": "pente_grammai", "seats": ["human", "random"]}
        ).json()
        game_id = created["id"]
        phone.goto(created["url"])
        expect(phone.locator("body")).to_have_attribute("data-live", "yes")
        phone.wait_for_function(
            f"() => fetch('/api/games/{game_id}').then(r => r.json()).then(g => g.to_move === 0)"
        )
        click_first_move(phone, base, game_id)
        phone.wait_for_function(
            f"() => fetch('/api/games/{game_id}').then(r => r.json())"
            ".then(g => g.to_move === 0 && g.ply >= 3)"
        )
        expect(phone.locator("#status")).to_contain_text("Your move")
        expect(phone.locator("#status")).to_contain_text(re.compile(r"move \d+"))
        assert phone.evaluate("() => window.scrollY") == 0
        _visible(phone, "#status")
        _visible(phone, "#dice .die")
        _visible(phone, "#board svg")
        # In a game without dice, the last move (the computer's reply) is marked in view.
        created = httpx.post(
            f"{base}/api/games", json={"game": "salta", "seats": ["human", "random"]}
        ).json()
        game_id = created["id"]
        phone.goto(created["url"])
        expect(phone.locator("body")).to_have_attribute("data-live", "yes")
        click_first_move(phone, base, game_id)
        expect(phone.locator("#status")).to_contain_text("Your move, Green · move 3")
        _visible(phone, "#status")
        _visible(phone, "#board .region.last-move")
        assert errors == [], errors
    finally:
        phone.context.close()


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_touch_targets_on_a_phone_are_at_least_40_px(
    browser: Browser, base: str, game_id: str
) -> None:
    errors: list[str] = []
    phone = new_page(browser, errors, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        players = ludoteca.make(game_id).num_players
        created = httpx.post(
            f"{base}/api/games", json={"game": game_id, "seats": ["human", "random"][:players]}
        ).json()
        phone.goto(created["url"])
        expect(phone.locator("body")).to_have_attribute("data-live", "yes")
        phone.wait_for_selector("#board svg")
        smallest = "() => Math.min(...[...document.querySelectorAll('#board .region[data-region]')]"
        smallest += ".map(e => e.getBoundingClientRect()).map(b => Math.min(b.width, b.height)))"
        size = phone.evaluate(smallest)
        if size < TOUCH_PX:  # the page offers a zoomed board that scrolls
            phone.get_by_role("button", name="Zoom the board").click()
            size = phone.evaluate(smallest)
        assert size >= TOUCH_PX, f"{game_id}: places of {size:.1f} px"
        for button in phone.locator("button:visible").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= TOUCH_PX, (game_id, box)
        assert errors == [], errors
    finally:
        phone.context.close()


def test_the_lobby_is_short_on_a_phone_and_labels_fit(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    errors: list[str] = []
    with running_server(tmp_path_factory.mktemp("busy") / "games.sqlite3") as busy:
        # A busy lobby, whatever other tests left: as many games to watch as it lists, and
        # challenges from several browsers.
        for _ in range(LISTED):
            httpx.post(f"{busy}/api/games", json={"game": "salta", "seats": ["human", "human"]})
        for game_id in ludoteca.GAMES:
            httpx.post(f"{busy}/api/challenges", json={"game": game_id})
        phone = new_page(browser, errors, viewport=PHONE, is_mobile=True)
        try:
            _check_the_lobby_on_a_phone(phone, busy, errors)
        finally:
            phone.context.close()


def _check_the_lobby_on_a_phone(phone: Page, base: str, errors: list[str]) -> None:
    phone.goto(base + "/")
    expect(phone.locator("#watch-count")).to_have_text(f"({LISTED})")  # lists shown
    height = phone.evaluate("() => document.documentElement.scrollHeight")
    assert height < 3000, f"the lobby is {height} px tall on a phone"
    assert phone.locator("details.fold-on-phone[open]").count() == 0
    # Every choice's label fits its dropdown (measured in the dropdown's font).
    for fold in phone.locator("details.new-game").all():
        fold.evaluate("e => e.open = true")
    cut = phone.evaluate(
        """() => { const c = document.createElement('canvas').getContext('2d');
        return [...document.querySelectorAll('select')].filter(s => s.offsetWidth > 0)
          .flatMap(s => { c.font = getComputedStyle(s).font;
            return [...s.options].filter(o => c.measureText(o.text).width + 30 > s.clientWidth)
              .map(o => o.text); }); }"""
    )
    assert cut == []
    detail = phone.locator("#game-salta .seat-detail").nth(1)
    expect(detail).to_contain_text("computer level 3")
    assert errors == [], errors

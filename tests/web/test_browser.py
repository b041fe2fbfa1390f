"""The web UI in a real Chromium: every game by clicking, typing, resigning; two browsers
playing over an invitation; the keyboard; text alternatives; a phone-sized screen."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import ludoteca
from tests.web.server import running_server

pytestmark = [
    pytest.mark.browser,
]

#: How long to wait for what a page shows: a safety net against a hang, never a bound the tests
#: check (a busy machine may take many seconds; the expectation waits for the event itself).
TIMEOUT = 60_000


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("web") / "games.sqlite3") as url:
        yield url


def create(base: str, game: str, seats: list[str], **body: Any) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/games", json={"game": game, "seats": seats, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def state_of(base: str, game_id: str) -> dict[str, Any]:
    state: dict[str, Any] = httpx.get(f"{base}/api/games/{game_id}").json()
    return state


def open_board(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-live", "yes")
    expect(page.locator("#status")).not_to_be_empty()


def wait_for_my_turn(page: Page, base: str, game_id: str, seat: int = 0) -> dict[str, Any]:
    page.wait_for_function(
        f"() => fetch('/api/games/{game_id}').then(r => r.json()).then(g => g.to_move === {seat})"
    )
    expect(page.locator("#role")).to_contain_text("Your move")
    return state_of(base, game_id)


def click_move(page: Page, base: str, game_id: str) -> str:
    """Click the regions of one legal move (choosing it by text if the clicks are ambiguous)."""
    board = httpx.get(f"{base}/api/games/{game_id}/board").json()
    paths = {text: path for text, path in board["click_paths"].items() if path}
    assert paths, "the view gives no click paths"
    text, path = next(iter(paths.items()))
    for region in path:
        page.locator(f'#board .region[data-region="{region}"]').click()
    choice = page.locator("#choices .move-choice", has_text=re.compile(f"^{re.escape(text)}$"))
    if choice.count():
        choice.click()
    return text


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_play_by_clicking_refuse_a_typed_move_and_resign(
    page: Page, base: str, game_id: str
) -> None:
    players = ludoteca.make(game_id).num_players
    created = create(base, game_id, ["human", "random"][:players])
    open_board(page, created["url"])
    game_id_ = created["id"]
    before = wait_for_my_turn(page, base, game_id_)["ply"]
    played = click_move(page, base, game_id_)
    moves = page.locator("#moves")
    expect(moves).to_contain_text(played)
    after = state_of(base, game_id_)
    assert after["ply"] > before and played in [m["text"] for m in after["moves"]]
    # An illegal typed move is refused with the reason; nothing changes.
    wait_for_my_turn(page, base, game_id_)
    ply = state_of(base, game_id_)["ply"]
    page.fill("#move-input", "no such move")
    page.click("#move-form button")
    expect(page.locator("#message")).to_contain_text("not a move")
    assert state_of(base, game_id_)["ply"] == ply
    # Resigning ends the game and shows the result.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator("#status")).to_contain_text("resigned")
    expect(page.locator("#replay")).to_be_visible()
    assert state_of(base, game_id_)["outcome"]["resigned"] == 0


def test_a_move_is_one_round_trip(page: Page, base: str) -> None:
    """The page redraws from the move's answer (or the push): no second request per move."""
    created = create(base, "salta", ["human", "human"])
    open_board(page, created["url"])
    wait_for_my_turn(page, base, created["id"])
    requests: list[str] = []
    page.on("request", lambda request: requests.append(f"{request.method} {request.url}"))
    played = click_move(page, base, created["id"])
    expect(page.locator("#moves")).to_contain_text(played)
    expect(page.locator("#role")).to_contain_text("Red")
    api = [r for r in requests if "/api/" in r]
    assert len(api) == 1 and api[0].startswith("POST ") and "/moves?board=true" in api[0], api
    expect(page.locator("#board .region.last-move")).to_have_count(2)


def test_a_new_game_from_the_lobby_form(page: Page, base: str) -> None:
    page.goto(base + "/")
    card = page.locator("#game-splinter")
    card.locator("summary", has_text="New game").click()
    card.get_by_label("The board, files x ranks").fill("4x4")
    card.get_by_role("button", name="Start Splinter").click()
    expect(card.locator(".error")).to_contain_text("size")
    card.get_by_label("The board, files x ranks").fill("9x10")
    card.locator("select[data-seat='1']").select_option("human")
    card.get_by_role("button", name="Start Splinter").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    expect(page.locator("#role")).to_contain_text("Your move, Blue")
    expect(page.locator("#board svg")).to_be_visible()


def test_the_lobby_offers_the_computer_first_with_friendly_option_labels(
    page: Page, base: str
) -> None:
    page.goto(base + "/")
    # "Play the computer" comes before anything else of the page.
    assert page.locator("main h1").first.inner_text() == "Play the computer"
    card = page.locator("#game-salta")
    card.locator("summary", has_text="New game").click()
    # Options are labelled from their descriptions, never by their identifiers; the engine
    # safeguards wait under "Advanced".
    labels = card.locator(".option label").all_inner_texts()
    assert "Scoring phase" in labels and "Goal squares" in labels
    for identifier in ("scoring_cap", "max_plies", "move_limit", "scoring", "goal"):
        assert identifier not in labels
    advanced = card.locator("details.advanced")
    expect(advanced.locator("label", has_text="after this many plies is a draw")).to_be_hidden()
    advanced.locator("summary").click()
    expect(advanced.locator("label", has_text="after this many plies is a draw")).to_be_visible()
    # The random agent is a "random player"; the About texts are folded.
    seat = card.locator("select[data-seat='1'] option[value='random']")
    expect(seat).to_have_text("random player")
    expect(page.locator("details.about[open]")).to_have_count(0)
    # One click starts a game against the computer, on the side chosen.
    quick = page.locator("#quick-play")
    quick.locator("select[name=game]").select_option("salta")
    quick.locator("select[name=opponent]").select_option("random")
    expect(quick.locator("select[name=side] option").nth(1)).to_have_text("Red")
    quick.locator("select[name=side]").select_option("1")
    quick.get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    expect(page.locator("#players")).to_contain_text("Green: random player")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bflipped\b"))


def test_two_browsers_play_over_the_invitation_link(browser: Browser, base: str) -> None:
    created = create(base, "salta", ["human", "invite"])
    contexts = [browser.new_context() for _ in range(2)]
    try:
        green, red = (context.new_page() for context in contexts)
        for p in (green, red):
            p.set_default_timeout(TIMEOUT)
        open_board(green, created["url"])
        invitation = green.locator(".invite-link").input_value()
        assert invitation == created["seats"][1]["link"]
        open_board(red, invitation)
        expect(red.locator("#role")).to_contain_text("waiting for Green")
        green.locator('#board .region[data-region="c3"]').click()
        green.locator('#board .region[data-region="d4"]').click()
        expect(red.locator("#moves")).to_contain_text("1. c3-d4")
        expect(red.locator("#role")).to_contain_text("Your move, Red")
        red.fill("#move-input", "h8-g7")
        red.press("#move-input", "Enter")
        expect(green.locator("#moves")).to_contain_text("2. h8-g7")
        expect(green.locator("#role")).to_contain_text("Your move, Green")
        # A spectator (no token) watches read-only.
        spectator = browser.new_page()
        spectator.goto(f"{base}/games/{created['id']}")
        expect(spectator.locator("#role")).to_have_text("You are watching.")
        spectator.locator('#board .region[data-region="d4"]').click()
        expect(spectator.locator("#message")).to_contain_text("watching")
        spectator.close()
    finally:
        for context in contexts:
            context.close()


def test_the_board_works_with_the_keyboard_and_has_text_alternatives(page: Page, base: str) -> None:
    created = create(base, "salta", ["human", "human"], hints=True)
    open_board(page, created["url"])
    regions = page.locator("#board .region")
    assert regions.count() == 100
    assert regions.first.get_attribute("tabindex") == "0"
    assert regions.first.get_attribute("role") == "button"
    assert regions.first.get_attribute("aria-label")
    titles = page.locator("#board .pieces [role=img] > title").all_text_contents()
    assert len(titles) == 30 and all(titles)
    page.locator('#board .region[data-region="c3"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('#board .region[data-region="d4"]')).to_have_class(re.compile("next"))
    page.locator('#board .region[data-region="d4"]').focus()
    page.keyboard.press(" ")
    expect(page.locator("#moves")).to_contain_text("1. c3-d4")
    expect(page.locator('#board .region[data-region="d4"]')).to_have_class(re.compile("last-move"))
    # The hint button asks the computer for Red's best move.
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text(
        re.compile(r"Hint: \S+ \(about \d+% to win\)"),
        timeout=4 * TIMEOUT,  # the hints' worker may start first: a safety net, not a bound
    )


def test_a_finished_game_is_replayed_step_by_step(page: Page, base: str) -> None:
    created = create(base, "splinter", ["random", "random"], options={"size": "5x6"})
    game_id = created["id"]
    deadline = time.monotonic() + 300  # a safety net against a hang, not a bound
    while state_of(base, game_id)["outcome"] is None:
        assert time.monotonic() < deadline, "the computers did not finish the game"
        time.sleep(0.1)
    total = state_of(base, game_id)["ply"]
    page.goto(f"{base}/games/{game_id}")
    reason = state_of(base, game_id)["outcome"]["reason"]
    expect(page.locator("#result")).to_contain_text("Game over. ")
    expect(page.locator("#result")).to_contain_text(reason)
    expect(page.locator("#move-form")).to_be_hidden()
    expect(page.locator("#replay-label")).to_have_text(f"After move {total} of {total}")
    page.get_by_role("button", name="previous move").click()
    expect(page.locator("#replay-label")).to_have_text(f"After move {total - 1} of {total}")
    expect(page.locator("#moves li.current")).to_have_count(1)
    page.get_by_role("button", name="start position").click()
    expect(page.locator("#replay-label")).to_contain_text("Start position")
    page.get_by_role("button", name="last position").click()
    expect(page.locator("#replay-label")).to_have_text(f"After move {total} of {total}")
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename == f"splinter-{game_id}.json"


def test_the_game_summaries_show_their_markup_rendered(page: Page, base: str) -> None:
    page.goto(base + "/")
    card = page.locator("#game-steppin_stones")
    card.locator("summary", has_text="About").click()
    summary = card.locator("p.summary")
    expect(summary.locator("code", has_text="*")).to_have_count(2)
    assert "``" not in summary.inner_text()


def test_the_second_player_sees_the_board_from_their_side_and_can_flip_it(
    page: Page, base: str
) -> None:
    created = create(base, "salta", ["random", "human"])
    open_board(page, created["url"])
    board = page.locator("#board")
    flip = page.locator("#flip")
    expect(board).to_have_class(re.compile(r"\bflipped\b"))
    expect(flip).to_have_attribute("aria-pressed", "true")
    # Green's corner (c3, near the first player) is at the top for Red, at the bottom unflipped.
    square = page.locator('#board .region[data-region="a1"]')
    label = page.locator("#board svg text").first
    flipped_y = square.bounding_box()["y"]  # type: ignore[index]
    flip.click()
    expect(board).not_to_have_class(re.compile(r"\bflipped\b"))
    expect(flip).to_have_attribute("aria-pressed", "false")
    plain_y = square.bounding_box()["y"]  # type: ignore[index]
    middle = board.bounding_box()["y"] + board.bounding_box()["height"] / 2  # type: ignore[index]
    assert (flipped_y < middle) != (plain_y < middle), (flipped_y, plain_y, middle)
    # The texts stay upright: turned back as the board turns (the signs of the two turns).
    upright = """([svg, text]) => [svg, text].map(
        (e) => new DOMMatrix(getComputedStyle(e).transform === 'none'
            ? undefined : getComputedStyle(e).transform).a).reduce((x, y) => x * y, 1) > 0"""
    assert label.evaluate("(t) => (" + upright + ")([t.ownerSVGElement, t])")
    flip.click()
    expect(board).to_have_class(re.compile(r"\bflipped\b"))
    assert label.evaluate("(t) => getComputedStyle(t.ownerSVGElement).transform !== 'none'")
    assert label.evaluate("(t) => (" + upright + ")([t.ownerSVGElement, t])")
    # The first player's page is not turned.
    first = create(base, "salta", ["human", "random"])
    open_board(page, first["url"])
    expect(page.locator("#flip")).to_be_visible()
    expect(board).not_to_have_class(re.compile(r"\bflipped\b"))


def test_moves_are_numbered_with_rolls_beside_them_and_the_arrow_keys_step(
    page: Page, base: str
) -> None:
    """Pente Grammai draws who starts and rolls before every move: those are no moves."""
    created = create(base, "pente_grammai", ["random", "random"])
    game_id = created["id"]
    deadline = time.monotonic() + 300  # a safety net against a hang, not a bound
    while state_of(base, game_id)["outcome"] is None:
        assert time.monotonic() < deadline, "the computers did not finish the game"
        time.sleep(0.1)
    moves = state_of(base, game_id)["moves"]
    played = [m for m in moves if not m["is_chance"]]
    total = len(played)
    page.goto(f"{base}/games/{game_id}")
    label = page.locator("#replay-label")
    expect(label).to_have_text(f"After move {total} of {total}")
    shown = page.locator("#moves li:visible")
    expect(shown).to_have_count(total)
    texts = shown.all_inner_texts()
    for number, (text, move) in enumerate(zip(texts, played, strict=True), start=1):
        assert text.startswith(f"{number}. {move['text']}"), (number, text)
    assert re.fullmatch(r"1\. \S+ \(.+, .+\)", texts[0]), texts[0]  # who starts, the roll
    page.keyboard.press("Home")
    expect(label).to_have_text(f"Start position ({total} moves)")
    # → through the draw of who starts and the first roll to the first move.
    page.keyboard.press("ArrowRight")
    expect(label).to_contain_text("before move 1 of")
    page.keyboard.press("ArrowRight")
    expect(label).to_contain_text("before move 1 of")
    page.keyboard.press("ArrowRight")
    expect(label).to_have_text(f"After move 1 of {total}")
    expect(page.locator("#moves li.current")).to_have_text(texts[0])
    page.keyboard.press("End")
    expect(label).to_have_text(f"After move {total} of {total}")
    page.keyboard.press("ArrowLeft")
    expect(label).not_to_have_text(f"After move {total} of {total}")
    page.keyboard.press("End")
    expect(label).to_have_text(f"After move {total} of {total}")


def test_the_arrow_keys_are_left_to_a_text_box_that_has_the_focus(page: Page, base: str) -> None:
    created = create(base, "salta", ["human", "invite"])
    token = created["seats"][0]["token"]
    moved = httpx.post(
        f"{base}/api/games/{created['id']}/moves", json={"move": "c3-d4", "token": token}
    )
    assert moved.status_code == 200, moved.text
    resigned = httpx.post(f"{base}/api/games/{created['id']}/resign", json={"token": token})
    assert resigned.status_code == 200, resigned.text
    open_board(page, created["url"])
    expect(page.locator("#replay-label")).to_have_text("After move 1 of 1")
    # The page takes a key (and keeps the browser from scrolling) only outside a text box:
    # dispatchEvent answers false when the page's handler took the key.
    taken = """([selector, key]) => !document.querySelector(selector).dispatchEvent(
        new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}))"""
    assert page.evaluate(taken, [".invite-link", "Home"]) is False
    assert page.evaluate(taken, [".invite-link", "ArrowLeft"]) is False
    expect(page.locator("#replay-label")).to_have_text("After move 1 of 1")
    assert page.evaluate(taken, ["body", "Home"]) is True
    expect(page.locator("#replay-label")).to_have_text("Start position (1 move)")


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_nothing_overflows_at_phone_width(browser: Browser, base: str, game_id: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        phone = context.new_page()
        players = ludoteca.make(game_id).num_players
        created = create(base, game_id, ["human", "random"][:players])
        for url in (created["url"], f"{base}/", f"{base}/rules/{game_id}"):
            phone.goto(url)
            phone.wait_for_load_state("networkidle")
            width = phone.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 390, f"{url} is {width}px wide"
    finally:
        context.close()


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_board_and_its_controls_are_in_view_at_1280_by_800(
    browser: Browser, base: str, game_id: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        players = ludoteca.make(game_id).num_players
        created = create(base, game_id, ["human", "random"][:players])
        open_board(page, created["url"])
        wait_for_my_turn(page, base, created["id"])
        assert page.evaluate("() => window.scrollY") == 0
        for selector in ("#board svg", "#turnbar", "#move-form", ".board-tools", ".actions"):
            box = page.locator(selector).first.bounding_box()
            assert box is not None, f"{selector} is not shown"
            inside = box["x"] >= 0 and box["y"] >= 0
            inside = inside and box["x"] + box["width"] <= 1280
            assert inside and box["y"] + box["height"] <= 800, f"{game_id}: {selector} at {box}"
        # The board is drawn large enough to play on, not shrunk to nothing.
        board = page.locator("#board svg").bounding_box()
        assert board is not None and board["height"] >= 240
    finally:
        context.close()

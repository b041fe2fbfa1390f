"""A game's review in a real Chromium: the button, the pushed progress, the graph, the jumps,
the marks in the move list and the phone layout."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.server import running_server
from tests.web.test_review import OPENING, SETTINGS, finished_game, wait_for_review

pytestmark = [
    pytest.mark.browser,
]

#: A review starts a worker process that loads every game's kernels first.
TIMEOUT = 120_000
#: How long the page may take to answer a click.
CLICK_TIMEOUT = 60_000  # a safety net against a hang, not a bound


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("web") / "games.sqlite3", settings=SETTINGS) as url:
        yield url


@contextmanager
def opened(browser: Browser, url: str, viewport: dict[str, int]) -> Iterator[Page]:
    """The page at ``url``, live; no script error may happen on it."""
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    context.set_default_timeout(CLICK_TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(url)
        expect(page.locator("body")).to_have_attribute("data-live", "yes")
        yield page
    finally:
        context.close()
    assert errors == [], errors


def test_reviewing_a_game_draws_the_graph_and_clicking_it_shows_the_position(
    browser: Browser, base: str
) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        game_id = finished_game(client.post)
    with opened(browser, f"{base}/games/{game_id}", {"width": 1200, "height": 900}) as page:
        check_the_review_page(page, base, game_id)


def check_the_review_page(page: Page, base: str, game_id: str) -> None:
    review = page.locator("#review")
    expect(review).to_be_visible()
    expect(page.locator("#review-graph")).to_be_hidden()
    page.click("#review-start")
    # The progress is pushed over the WebSocket (the page checks by GET only every 5 s).
    expect(page.locator("#review-chart svg")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#review-start")).to_be_hidden()
    points = page.locator("#review-chart svg .chart-point")
    expect(points).to_have_count(len(OPENING) + 1)  # the start and after each move
    points.nth(2).click()
    expect(page.locator("#replay-label")).to_have_text(f"After move 2 of {len(OPENING)}")
    expect(page.locator("#moves li.current")).to_have_text("2. h8-g7" + mark(page, 2))
    expect(page.locator("#review-detail")).to_contain_text("Move 2, Red: h8-g7")
    # A move in the list jumps too.
    page.locator("#moves li").nth(3).click()
    expect(page.locator("#replay-label")).to_have_text(f"After move 4 of {len(OPENING)}")
    # The marks in the list are the review's labels, and a marked move draws the better one.
    with httpx.Client(base_url=base) as client:
        stored = wait_for_review(client.get, game_id)["decisions"]
    for decision in stored:
        li = page.locator("#moves li").nth(decision["ply"])
        expect(li).to_have_attribute("data-label", decision["label"])
    marked = [d for d in stored if d["label"] in ("inaccuracy", "mistake", "blunder")]
    if marked:
        page.locator("#moves li").nth(marked[0]["ply"]).click()
        expect(page.locator("#board .region.better").first).to_be_attached()
    # Opened again later (a replay), the review is there at once.
    page.reload()
    expect(page.locator("#review-chart svg .chart-point")).to_have_count(len(OPENING) + 1)


def mark(page: Page, number: int) -> str:
    """The mark the page shows after move ``number`` (empty for a good move)."""
    label = page.locator("#moves li").nth(number - 1).get_attribute("data-label")
    return {"inaccuracy": " ?!", "mistake": " ?", "blunder": " ??"}.get(label or "", "")


def test_the_review_fits_a_phone(browser: Browser, base: str) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        game_id = finished_game(client.post)
        client.post(f"/api/games/{game_id}/review")
        wait_for_review(client.get, game_id)
    with opened(browser, f"{base}/games/{game_id}", {"width": 390, "height": 844}) as page:
        chart = page.locator("#review-chart svg")
        expect(chart).to_be_visible(timeout=CLICK_TIMEOUT)
        box = chart.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#review-chart svg .chart-point").nth(1).click()
        expect(page.locator("#replay-label")).to_have_text(f"After move 1 of {len(OPENING)}")

"""The lessons in a real Chromium: the Salta and Pente Grammai courses completed as a newcomer
would, one wrong move each answered with the engine's reason; the keyboard; kept progress."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from ludoteca.core.lessons import course
from ludoteca.web.app import ServerSettings
from tests.web.server import running_server

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = ServerSettings(game_rate=0, hint_rate=0, warm_up=False)
    with running_server(
        tmp_path_factory.mktemp("learn") / "games.sqlite3", settings=settings
    ) as url:
        yield url


def _type(page: Page, move: str) -> None:
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")


@pytest.mark.parametrize(
    ("game_id", "wrong_at", "wrong", "reason"),
    [
        ("salta", "no-block", "g5-f6", "g5-f6 would leave Red without a move (the no-block rule)"),
        ("pente_grammai", "six", "hand-W1", "for White a 6 enters on B1"),
    ],
)
def test_a_whole_course_with_one_wrong_move(
    page: Page, base: str, game_id: str, wrong_at: str, wrong: str, reason: str
) -> None:
    steps = course(game_id).steps
    page.goto(f"{base}/learn")
    page.click(f'a[data-course="{game_id}"]')
    for number, step in enumerate(steps, start=1):
        expect(page.locator("#step-count")).to_have_text(f"Step {number} of {len(steps)}")
        expect(page.locator("#step-title")).to_have_text(step.title)
        expect(page.locator("#step-rule")).to_have_text(step.rule)
        expect(page.locator("#board svg")).to_be_visible()
        if step.task.kind == "watch":
            for count in range(1, len(step.task.solutions[0]) + 1):
                page.click("#watch-next")
                expect(page.locator("#explained li")).to_have_count(count)
        else:
            if step.id == wrong_at:
                _type(page, wrong)
                expect(page.locator("#message")).to_contain_text(reason)
                expect(page.locator("#message")).to_contain_text(f"Hint: {step.task.hint}")
            solution = step.task.solutions[0]
            for count, move in enumerate(solution, start=1):
                _type(page, move)
                if count < len(solution):
                    expect(page.locator("#feedback")).to_contain_text("Right.")
        expect(page.locator("#feedback")).to_contain_text("Right!")
        expect(page.locator(f'#step-list a[data-step="{step.id}"]')).to_have_class(
            re.compile("done")
        )
        if number < len(steps):
            page.click("#next-step")
    expect(page.locator("#feedback")).to_contain_text("the course is complete")
    # Progress stays in this browser: the list of courses counts the steps done.
    page.goto(f"{base}/learn")
    expect(page.locator(f'[data-progress="{game_id}"]')).to_have_text(f"{len(steps)} steps done")


def test_a_step_by_keyboard_clicks_on_the_board(page: Page, base: str) -> None:
    page.goto(f"{base}/learn/salta#jump")
    expect(page.locator("#step-title")).to_have_text("Jumping is compulsory")
    page.locator('#board .region[data-region="g5"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('#board .region[data-region="i7"]')).to_have_class(re.compile("next"))
    page.locator('#board .region[data-region="i7"]').focus()
    page.keyboard.press(" ")
    expect(page.locator("#feedback")).to_contain_text("Right!")


@pytest.mark.parametrize("game_id", ["salta", "splinter", "steppin_stones"])
def test_nothing_overflows_at_phone_width(browser: Browser, base: str, game_id: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        phone = context.new_page()
        for url in (f"{base}/learn", f"{base}/learn/{game_id}"):
            phone.goto(url)
            phone.wait_for_load_state("networkidle")
            width = phone.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 390, f"{url} is {width}px wide"
        expect(phone.locator("#board svg")).to_be_visible()
    finally:
        context.close()

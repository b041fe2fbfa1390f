"""The analysis board in a real Chromium: a tree of two branches built by hand (rolls and moves),
stepped through with the keys and the move list, the exact evaluation shown, the shared link and
the downloaded line; a bad position text answered in the page; the game page's Analyse link."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from ludoteca.core import records
from ludoteca.core.registry import make
from tests.web.server import TEST_SETTINGS, running_server

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = replace(TEST_SETTINGS, warm_up=False)
    with running_server(
        tmp_path_factory.mktemp("analysis") / "games.sqlite3", settings=settings
    ) as url:
        yield url


def _choose(page: Page, index: int) -> str:
    """Click the ``index``-th legal move or roll offered; return its move text."""
    button = page.locator("#choices button.move-choice").nth(index)
    move = button.get_attribute("data-move")
    assert move is not None
    plies = page.locator("#tree .tree-move").count()
    button.click()
    expect(page.locator("#tree .tree-move.current")).to_have_attribute("data-move", move)
    expect(page.locator("#tree .tree-move")).to_have_count(plies + 1)
    return move


def test_two_branches_stepped_through_and_evaluated(page: Page, base: str, tmp_path: Path) -> None:
    page.goto(f"{base}/analysis/pente_grammai")
    expect(page.locator("#evaluation")).to_contain_text("exact, from the solved game")
    first = [_choose(page, 0), _choose(page, 0), _choose(page, 0)]  # who starts, a roll, a move
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^Ply 3 of 3"))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^Ply 2 of 3"))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^Ply 1 of 3"))
    # Another roll from here is a second branch beside the first.
    second = [*first[:1], _choose(page, 1), _choose(page, 0)]
    assert second[1] != first[1]
    expect(page.locator("#tree .variation")).to_have_count(1)
    expect(page.locator("#tree .variation .tree-move")).to_have_count(2)
    expect(page.locator("#evaluation")).to_have_text(re.compile(r"White \d+\.\d% · Blue \d+\.\d%"))
    expect(page.locator("#evaluation")).to_have_attribute("data-method", "exact")
    state = make("pente_grammai").initial_state()
    for move in second:
        state = state.apply(move)
    expect(page.locator("#legal-moves option")).to_have_count(len(state.legal_moves()))
    # The link carries the start and the line shown; the download is that line.
    assert "line=" + "%2C".join(m.replace(" ", "+") for m in second) in page.url
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "line.json"
    download.value.save_as(saved)
    assert list(records.load(saved).moves) == second
    # The first branch is one click away in the move list; Home and End step along it.
    page.click(f'#tree > .tree-move[data-move="{first[2]}"]')
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^Ply 3 of 3: "))
    page.keyboard.press("Home")
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^Start"))
    page.keyboard.press("End")
    expect(page.locator("#tree .tree-move.current")).to_have_attribute("data-move", first[2])
    # The shared link opens the same line (one branch) at the same ply.
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^Ply 2 of 3"))
    expect(page.locator("#share-link")).to_have_value(re.compile("ply=2"))
    shared = page.locator("#share-link").input_value()
    page.goto(shared)
    expect(page.locator("#tree .tree-move")).to_have_count(4)
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^Ply 2 of 3"))


def test_a_bad_position_text_gets_the_parsers_reason(page: Page, base: str) -> None:
    page.goto(f"{base}/analysis/salta")
    expect(page.locator("#status")).not_to_be_empty()
    page.fill("#position-input", "not a board")
    page.click("#position-form button[type=submit]")
    expect(page.locator("#position-error")).to_contain_text("is not a Salta position")
    page.goto(f"{base}/analysis/salta?position=nonsense")
    expect(page.locator("#position-error")).to_contain_text("is not a Salta position")
    expect(page.locator("#board svg")).to_be_visible()  # the start is shown meanwhile


def test_the_game_page_opens_its_position_on_the_analysis_board(page: Page, base: str) -> None:
    created = httpx.post(
        f"{base}/api/games", json={"game": "salta", "seats": ["human", "human"]}
    ).json()
    token = created["seats"][0]["token"]
    move = created["game"]["legal_moves"][0]
    httpx.post(f"{base}/api/games/{created['id']}/moves", json={"move": move, "token": token})
    page.goto(f"{base}/games/{created['id']}")
    expect(page.locator("#analyse")).to_have_attribute("href", re.compile("/analysis/salta"))
    page.click("#analyse")
    expect(page.locator("#tree .tree-move.current")).to_have_attribute("data-move", move)
    expect(page.locator("#evaluation")).to_contain_text("MCTS")


def test_a_finished_games_replay_opens_the_position_shown(page: Page, base: str) -> None:
    created = httpx.post(
        f"{base}/api/games", json={"game": "splinter", "seats": ["human", "human"]}
    ).json()
    token = created["seats"][0]["token"]
    moves = created["game"]["legal_moves"][:1]
    httpx.post(f"{base}/api/games/{created['id']}/moves", json={"move": moves[0], "token": token})
    httpx.post(f"{base}/api/games/{created['id']}/resign", json={"token": token})
    page.goto(f"{base}/games/{created['id']}")
    expect(page.locator("#result")).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#analyse")).to_have_attribute("href", re.compile(r"ply=0"))
    page.click("#analyse")
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^Start \(line of 1 ply\)"))
    expect(page.locator(f'#tree .tree-move[data-move="{moves[0]}"]')).to_be_visible()


def test_a_roll_among_many_is_drawn_at_random(page: Page, base: str) -> None:
    page.goto(f"{base}/analysis/steppin_stones")
    expect(page.locator("#moves-title")).to_have_text("Choose the roll (1296)")
    expect(page.locator("#choices button.move-choice")).to_have_count(0)
    page.click("#random-roll")
    expect(page.locator("#tree .tree-move")).to_have_count(2)
    expect(page.locator("#evaluation")).to_contain_text("playouts of the expert")


@pytest.mark.parametrize("game_id", ["salta", "splinter", "steppin_stones"])
def test_nothing_overflows_at_phone_width(browser: Browser, base: str, game_id: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(f"{base}/analysis/{game_id}")
        expect(phone.locator("#tree .tree-move.current")).to_be_visible()
        phone.wait_for_load_state("networkidle")
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"the {game_id} analysis board is {width}px wide"
    finally:
        context.close()

"""Save a PNG of each game's board page under docs/images/<game>.png (for the README: a
desktop at 1280x800) and <game>-phone.png (a phone at 390x844), of
online play: the lobby and a game with clocks, on a desktop and on a phone
(``lobby-desktop.png``, ``lobby-phone.png``, ``clock-game-desktop.png``, ``clock-game-phone.png``),
and of each game's review (``review-<game>.png``: a short game of random moves, reviewed by the
server, with its worst move shown), and of the analysis board (``analysis-desktop.png``,
``analysis-phone.png``, `tests.web.screenshots_analysis`).

Run ``make screenshots`` (or ``.venv/bin/python -m tests.web.screenshots [OUTPUT_DIR]``;
``--boards`` after the folder takes the board pages alone, ``--reviews`` the reviews alone). It
starts a server on a temporary database, plays a few seeded random moves in each game so the
board is not the bare start, and photographs the page in headless Chromium.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

import ludoteca
from ludoteca.web.app import ServerSettings
from tests.web.screenshots_analysis import save_analysis_screenshots
from tests.web.server import CHROMIUM, CHROMIUM_ARGS, running_server

OPENING_PLIES = 6
VIEWPORT = {"width": 1200, "height": 860}


def play_opening(base: str, game_id: str, seed: int) -> str:
    """Create a game for people at every seat, play a few random moves; return its page URL."""
    players = ludoteca.make(game_id).num_players
    created = httpx.post(
        f"{base}/api/games", json={"game": game_id, "seats": ["human"] * players}
    ).json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    rng = random.Random(seed)
    url = f"{base}/api/games/{created['id']}"
    for _ in range(OPENING_PLIES):
        state = httpx.get(url).json()
        if state["outcome"] is not None:
            break
        move = rng.choice(state["legal_moves"])
        httpx.post(f"{url}/moves", json={"move": move, "token": tokens[state["to_move"]]})
    return str(created["url"])


#: The board pages' sizes: the name's suffix, the viewport, and whether it is a phone.
BOARD_SIZES = (
    ("", {"width": 1280, "height": 800}, False),
    ("-phone", {"width": 390, "height": 844}, True),
)


def save_screenshots(output: Path) -> list[Path]:
    """Photograph every game's board page into ``output``, on a desktop and on a phone.

    Returns the files written.
    """
    output.mkdir(parents=True, exist_ok=True)
    written = []
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "g.sqlite3") as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for seed, game_id in enumerate(ludoteca.GAMES):
            url = play_opening(base, game_id, seed)
            for suffix, viewport, phone in BOARD_SIZES:
                context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)  # type: ignore[arg-type]
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector("body[data-live=yes]")
                page.wait_for_selector("#board svg")
                target = output / f"{game_id}{suffix}.png"
                page.screenshot(path=str(target))
                context.close()
                written.append(target)
        browser.close()
    return written


PHONE = {"width": 390, "height": 844}


def online_scene(base: str) -> tuple[httpx.Client, str]:
    """Two named players: open challenges in the lobby, and a game with a running clock.

    Returns the first player's client (its session cookie) and the game's id.
    """
    ada = httpx.Client(base_url=base)
    ada.post("/api/session/name", json={"name": "Ada"})
    with httpx.Client(base_url=base) as bob, httpx.Client(base_url=base) as cy:
        bob.post("/api/session/name", json={"name": "Bob"})
        cy.post("/api/session/name", json={"name": "Cy"})
        clock = {"initial": 600, "increment": 5}
        posted = ada.post(
            "/api/challenges", json={"game": "salta", "side": "Green", "clock": clock}
        ).json()
        game = bob.post(f"/api/challenges/{posted['id']}/accept", json={}).json()
        cy.post("/api/challenges", json={"game": "pente_grammai", "clock": {"per_move": 86400}})
        bob.post("/api/challenges", json={"game": "splinter", "clock": {"initial": 300}})
        tokens = {0: posted["token"], 1: game["token"]}
        for text in ("c3-d4", "h8-g7", "b2-c3", "g7-f6"):
            state = ada.get(f"/api/games/{game['id']}").json()
            ada.post(
                f"/api/games/{game['id']}/moves",
                json={"move": text, "token": tokens[state["to_move"]]},
            )
    return ada, str(game["id"])


def save_online_screenshots(output: Path) -> list[Path]:
    """The lobby and a game with clocks, on a desktop and on a phone."""
    output.mkdir(parents=True, exist_ok=True)
    written = []
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "g.sqlite3") as base,
        sync_playwright() as playwright,
    ):
        ada, game_id = online_scene(base)
        cookies = [{"name": c.name, "value": c.value or "", "url": base} for c in ada.cookies.jar]
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for label, viewport, mobile in (("desktop", VIEWPORT, False), ("phone", PHONE, True)):
            context = browser.new_context(viewport=viewport, is_mobile=mobile)  # type: ignore[arg-type]
            context.add_cookies(cookies)  # type: ignore[arg-type]
            page = context.new_page()
            page.goto(base + "/")
            page.wait_for_selector("#challenges .challenge")
            target = output / f"lobby-{label}.png"
            page.screenshot(path=str(target))
            written.append(target)
            page.goto(f"{base}/games/{game_id}")
            page.wait_for_selector("body[data-live=yes]")
            page.wait_for_selector("#clocks .clock.running")
            target = output / f"clock-game-{label}.png"
            page.screenshot(path=str(target))
            written.append(target)
            context.close()
        browser.close()
        ada.close()
    return written


#: Random moves of each reviewed sample game (then the player to move resigns).
REVIEW_PLIES = 16
#: The review's budget per position for the pictures (None: the review's own default).
REVIEW_BUDGET = None
REVIEW_VIEWPORT = {"width": 1200, "height": 1000}


def finished_sample(base: str, game_id: str, seed: int) -> tuple[str, str]:
    """A short game of seeded random moves, resigned if still running; (id, page URL)."""
    players = ludoteca.make(game_id).num_players
    created = httpx.post(
        f"{base}/api/games", json={"game": game_id, "seats": ["human"] * players}
    ).json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    rng = random.Random(seed)
    url = f"{base}/api/games/{created['id']}"
    for _ in range(REVIEW_PLIES):
        state = httpx.get(url).json()
        if state["outcome"] is not None:
            break
        move = rng.choice(state["legal_moves"])
        httpx.post(f"{url}/moves", json={"move": move, "token": tokens[state["to_move"]]})
    if httpx.get(url).json()["outcome"] is None:
        httpx.post(f"{url}/resign", json={"token": next(iter(tokens.values()))})
    return str(created["id"]), str(created["url"])


def save_review_screenshots(output: Path, games: tuple[str, ...] = ludoteca.GAMES) -> list[Path]:
    """Review a short game of each kind through the page and photograph it."""
    output.mkdir(parents=True, exist_ok=True)
    written = []
    settings = ServerSettings(game_rate=0, hint_rate=0, review_budget=REVIEW_BUDGET)
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "g.sqlite3", settings=settings) as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for seed, game_id in enumerate(games):
            reviewed_id, url = finished_sample(base, game_id, seed)
            page = browser.new_page(viewport=REVIEW_VIEWPORT)  # type: ignore[arg-type]
            page.set_default_timeout(300_000)
            page.goto(url)
            page.wait_for_selector("body[data-live=yes]")
            page.click("#review-start")
            page.wait_for_selector("#review-chart svg .chart-point")
            # Show the position after the move that lost the most (its better move drawn).
            review = httpx.get(f"{base}/api/games/{reviewed_id}/review").json()
            worst = max(review["decisions"], key=lambda decision: decision["loss"])
            page.locator("#moves li").nth(worst["ply"]).click()
            page.wait_for_function("document.getElementById('replay-label').textContent !== ''")
            page.wait_for_timeout(300)
            target = output / f"review-{game_id}.png"
            page.screenshot(path=str(target), full_page=True)
            page.close()
            written.append(target)
        browser.close()
    return written


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images")
    if sys.argv[2:] == ["--reviews"]:
        made = save_review_screenshots(folder)
    elif sys.argv[2:] == ["--boards"]:
        made = save_screenshots(folder)
    else:
        made = [
            *save_screenshots(folder),
            *save_online_screenshots(folder),
            *save_review_screenshots(folder),
            *save_analysis_screenshots(folder),
        ]
    for path in made:
        print(f"wrote {path}")

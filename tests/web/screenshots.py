"""Save a PNG of each game's board page under docs/images/<game>.png (for the README).

Run ``make screenshots`` (or ``.venv/bin/python -m tests.web.screenshots [OUTPUT_DIR]``). It
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


def save_screenshots(output: Path) -> list[Path]:
    """Photograph every game's board page into ``output``; return the files written."""
    output.mkdir(parents=True, exist_ok=True)
    written = []
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "g.sqlite3") as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for seed, game_id in enumerate(ludoteca.GAMES):
            page = browser.new_page(viewport=VIEWPORT)  # type: ignore[arg-type]
            page.goto(play_opening(base, game_id, seed))
            page.wait_for_selector("body[data-live=yes]")
            page.wait_for_selector("#board svg")
            target = output / f"{game_id}.png"
            page.screenshot(path=str(target))
            page.close()
            written.append(target)
        browser.close()
    return written


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images")
    for path in save_screenshots(folder):
        print(f"wrote {path}")

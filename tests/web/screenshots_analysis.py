"""Save pictures of the analysis board: ``analysis-desktop.png`` (1280x800) and
``analysis-phone.png`` (390x844) under docs/images/ (``make screenshots`` takes them with the
others; ``.venv/bin/python -m tests.web.screenshots_analysis [OUTPUT_DIR]`` alone).

A Pente Grammai line of seeded random plies is opened by its link, then a second branch is
played from two plies before its end, so the move list shows a variation and the engine's
exact evaluation.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Page, sync_playwright

import ludoteca
from tests.web.server import CHROMIUM, CHROMIUM_ARGS, running_server

GAME = "pente_grammai"
PLIES = 14
SIZES = {
    "desktop": ({"width": 1280, "height": 800}, False),
    "phone": ({"width": 390, "height": 844}, True),
}


def sample_line(seed: int = 5) -> list[str]:
    """Seeded random plies of Pente Grammai from its start (rolls included)."""
    rng = random.Random(seed)
    state = ludoteca.make(GAME).initial_state()
    moves: list[str] = []
    while len(moves) < PLIES and not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(move.text)
        state = state.apply(move)
    return moves


def show_scene(page: Page, base: str, line: list[str]) -> None:
    """Open the line, go back to the last position with a choice, play another: a branch."""
    page.goto(f"{base}/analysis/{GAME}?{urlencode({'line': ','.join(line)})}")
    page.wait_for_selector(f"#tree .tree-move >> nth={len(line)}")
    for ply in range(len(line) - 1, -1, -1):
        before = page.locator("#ply-label").inner_text()
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(
            "(text) => document.getElementById('ply-label').textContent !== text", arg=before
        )
        if ply < len(line) - 2 and page.locator("#choices button.move-choice").count() > 1:
            break
    others = page.locator(f'#choices button.move-choice:not([data-move="{line[ply]}"])')
    others.first.click()
    page.wait_for_selector("#tree .variation")
    page.wait_for_selector("#evaluation[data-method]")


def save_analysis_screenshots(output: Path) -> list[Path]:
    """Photograph the analysis board on a desktop and on a phone; return the files written."""
    output.mkdir(parents=True, exist_ok=True)
    written = []
    line = sample_line()
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "g.sqlite3") as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for label, (viewport, mobile) in SIZES.items():
            context = browser.new_context(viewport=viewport, is_mobile=mobile)  # type: ignore[arg-type]
            page = context.new_page()
            show_scene(page, base, line)
            page.evaluate("window.scrollTo(0, 0)")  # the clicks scrolled the page
            target = output / f"analysis-{label}.png"
            page.screenshot(path=str(target))
            written.append(target)
            context.close()
        browser.close()
    return written


if __name__ == "__main__":
    for path in save_analysis_screenshots(
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images")
    ):
        print(f"wrote {path}")

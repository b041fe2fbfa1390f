"""The lobby in a real Chromium while a game is prepared: its card says so and its form waits,
then the lobby's own refresh lets the game start once it is ready."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ludoteca.preparation import Failed, Prepared, write_status
from ludoteca.web.app import ServerSettings
from tests.web.server import running_server
from tests.web.test_preparing import HELD, LEFT_OUT, READY

# Without Chromium it skips, but fails under CI=true (tests/web/conftest.py).
pytestmark = pytest.mark.browser


def test_the_lobby_waits_for_a_game_being_prepared_and_starts_it_once_ready(
    page: Page, tmp_path: Path
) -> None:
    status = tmp_path / "status"
    status.mkdir()
    write_status(status, Prepared(READY, 1.0, 1.0))
    for game, reason in LEFT_OUT.items():
        write_status(status, Failed(game, reason))
    settings = ServerSettings(
        game_rate=0, hint_rate=0, serve_while_preparing=True, preparation_dir=status
    )
    with running_server(tmp_path / "games.sqlite3", settings=settings) as base:
        page.goto(base)
        held = page.locator(f"#game-{HELD}")
        expect(held.locator(".readiness")).to_contain_text("Being prepared")
        expect(held.locator("button[type=submit]")).to_be_disabled()
        expect(page.locator(f"#game-{READY} button[type=submit]")).to_be_enabled()
        left_out = page.locator(f"#game-{next(iter(LEFT_OUT))}")
        expect(left_out.locator(".readiness")).to_contain_text(
            "Not available on this server: its preparation failed (not prepared for this test)"
        )
        expect(left_out.locator("button[type=submit]")).to_be_disabled()

        write_status(status, Prepared(HELD, 1.0, 1.0))  # released: no reload of the page
        expect(held.locator("button[type=submit]")).to_be_enabled()
        expect(held.locator(".readiness")).to_be_hidden()
        held.locator("summary", has_text="New game").click()
        held.locator("button[type=submit]").click()
        page.wait_for_url(f"{base}/games/*")
        expect(page.locator("#status")).not_to_be_empty()

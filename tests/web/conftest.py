from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect, sync_playwright

from ludoteca.web.app import create_app
from tests.web.server import CHROMIUM, CHROMIUM_ARGS, TEST_SETTINGS

POSTGRES = os.environ.get("LUDOTECA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


#: The test client's server: no rate limits (the tests create games quickly; the limits have
#: tests of their own).
UNLIMITED = TEST_SETTINGS


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "games.sqlite3", seed=3, settings=UNLIMITED)
    with TestClient(app) as test_client:
        yield test_client


def _postgres_schema() -> Iterator[str]:
    """A fresh schema in the test database, as a URL; dropped afterwards.

    Skips when PostgreSQL is not running, except under CI=true, where it must be.
    """
    import psycopg

    try:
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs PostgreSQL at {POSTGRES}: {error}")
        pytest.skip(f"needs PostgreSQL at {POSTGRES} ({str(error).strip()[:80]})")
    schema = f"ludoteca_test_{secrets.token_hex(6)}"
    with admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        try:
            yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
        finally:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a schema of this test's own."""
    yield from _postgres_schema()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each store in turn: an SQLite file, then PostgreSQL (skipped if it is not running)."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
    else:
        yield from _postgres_schema()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Browser tests skip without Chromium, except under CI=true, where they fail."""
    if item.get_closest_marker("browser") is None or Path(CHROMIUM).exists():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs Chromium at {CHROMIUM} (.ci/run installs it)", pytrace=False)
    pytest.skip(f"needs Chromium at {CHROMIUM}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium for the browser tests (one per test module)."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


#: How long a browser action may wait: a safety net against a hang, never a bound on speed.
BROWSER_TIMEOUT = 60_000
# Playwright's assertions wait 5 s by default, whatever the page's own limit: on a busy machine
# a search's answer or a server's reply can take longer without anything being wrong.
expect.set_options(timeout=BROWSER_TIMEOUT)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page at 1200x900; the test fails if the page raised an uncaught error."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(BROWSER_TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors

"""Passkeys in a real Chromium, with its virtual authenticator (DevTools' WebAuthn domain).

Sign up, add a passkey from the account page, log out, log back in with the passkey; remove it,
and the passkey no longer logs in. Browsers offer passkeys on HTTPS sites and on ``localhost``
(never on a bare IP address), so the page is opened as ``localhost``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.web.server import TEST_SETTINGS, running_server

pytestmark = [pytest.mark.browser]

#: How long to wait for what a page shows: a safety net against a hang, not a bound.
TIMEOUT = 60_000


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = dataclasses.replace(TEST_SETTINGS, warm_up=False)  # no game is played here
    db = tmp_path_factory.mktemp("passkeys") / "games.sqlite3"
    with running_server(db, settings=settings) as url:
        yield url.replace("127.0.0.1", "localhost")


def test_add_a_passkey_log_out_and_log_in_with_it(browser: Browser, base: str) -> None:
    errors: list[str] = []
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda error: errors.append(str(error)))
    devtools = context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    authenticator = devtools.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )["authenticatorId"]
    try:
        page.goto(base + "/account")
        signup = page.locator("#signup-form")
        signup.locator("input[name=name]").fill("Ada")
        signup.locator("input[name=password]").fill("a long passphrase")
        signup.get_by_role("button", name="Create the account").click()
        expect(page.locator("#account-title")).to_have_text("Ada")
        expect(page.locator("#nav-account")).to_have_text("Ada")
        expect(page.locator("#passkey-list")).to_contain_text("No passkey yet")

        form = page.locator("#passkey-form")
        form.locator("input[name=name]").fill("This laptop")
        form.get_by_role("button", name="Add a passkey").click()
        expect(form.locator(".status")).to_have_text("Passkey added.")
        expect(page.locator("#passkey-list")).to_contain_text("This laptop")
        expect(page.locator("#passkey-list")).to_contain_text("never used")
        stored = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        assert [c["isResidentCredential"] for c in stored["credentials"]] == [True]

        page.get_by_role("button", name="Log out").click()
        expect(page.locator("#account-title")).to_have_text("Log in")
        expect(page.locator("#nav-account")).to_have_text("Log in")
        page.get_by_role("button", name="Log in with a passkey").click()
        expect(page.locator("#account-title")).to_have_text("Ada")
        expect(page.locator("#nav-account")).to_have_text("Ada")
        expect(page.locator("#passkey-list")).to_contain_text("last used")
        after = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        assert after["credentials"][0]["signCount"] >= 1

        # Removed from the account, the passkey (still on the device) logs nobody in.
        page.get_by_role("button", name="Remove the passkey This laptop").click()
        expect(page.locator("#passkey-list")).to_contain_text("No passkey yet")
        page.get_by_role("button", name="Log out").click()
        expect(page.locator("#account-title")).to_have_text("Log in")
        page.get_by_role("button", name="Log in with a passkey").click()
        expect(page.locator("#account-error")).to_contain_text("not registered")
        expect(page.locator("#account-title")).to_have_text("Log in")
        assert errors == []
    finally:
        context.close()

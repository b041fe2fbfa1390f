"""The documented 80x24 screens, captured from a real terminal: ``ludoteca`` run inside tmux.

The screens in docs/terminal.md are recorded by `tests.cli.screens` on an 80x24 console; here
the same sessions run as the ``ludoteca`` command in a tmux window of 80x24, the same lines are
typed, and the captured pane must be those screens, line for line. Skipped where tmux is not
installed, except under CI=true, where .ci/run installs it and the tests fail without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.screens import HEIGHT, TYPED, WIDTH, typed_screen

TMUX = shutil.which("tmux")
#: A guard against a hung session, not a measurement: the test waits for the prompt to show.
GIVE_UP_AFTER = 120.0
COMMANDS = {
    "help": ["play", "salta"],
    "moves": ["play", "splinter"],
    "analyse": ["analyse", "pente_grammai"],
}

pytestmark = pytest.mark.skipif(
    TMUX is None and os.environ.get("CI") != "true", reason="tmux is not installed"
)


def _tmux(*words: str) -> str:
    assert TMUX is not None, "CI needs tmux (.ci/run installs it)"
    done = subprocess.run([TMUX, *words], capture_output=True, text=True, check=True)
    return done.stdout


def _pane(session: str) -> list[str]:
    return [line.rstrip() for line in _tmux("capture-pane", "-p", "-t", session).split("\n")]


def _wait_until(session: str, ready: Callable[[list[str]], bool]) -> list[str]:
    """The pane's non-empty lines once ``ready`` says so (polled; fails on a hung session)."""
    deadline = time.monotonic() + GIVE_UP_AFTER
    while True:
        lines = [line for line in _pane(session) if line]
        if ready(lines):
            return lines
        if time.monotonic() > deadline:
            pytest.fail("the session did not answer:\n" + "\n".join(lines))
        time.sleep(0.1)


def _at_a_prompt(lines: list[str]) -> bool:
    return bool(lines) and lines[-1].endswith(">")


@pytest.mark.parametrize("name", list(TYPED))
def test_the_documented_screen_is_what_an_80x24_terminal_shows(name: str, tmp_path: Path) -> None:
    session = f"ludoteca-{uuid.uuid4().hex[:8]}"
    command = " ".join([sys.executable, "-m", "ludoteca", *COMMANDS[name]])
    _tmux(
        "new-session", "-d", "-s", session, "-x", str(WIDTH), "-y", str(HEIGHT),
        "-e", f"XDG_DATA_HOME={tmp_path}",
        "-e", f"LUDOTECA_NUMBA_CACHE={os.environ.get('LUDOTECA_NUMBA_CACHE', '')}",
        command,
    )  # fmt: skip
    expected = typed_screen(name).split("\n")
    try:
        lines = _wait_until(session, _at_a_prompt)
        for typed in TYPED[name].lines:
            before = lines
            _tmux("send-keys", "-t", session, "-l", typed)
            _tmux("send-keys", "-t", session, "Enter")
            # Answered: a new prompt, under new output (each line typed prints something).
            lines = _wait_until(
                session, lambda now, before=before: _at_a_prompt(now) and now != before
            )
        # The last answer may still be drawing: wait for the documented screen, or give up.
        shown = _wait_until(
            session,
            lambda now: now[-HEIGHT:] == [line for line in expected if line][-len(now) :],
        )
    finally:
        _tmux("kill-session", "-t", session)
    assert all(len(line) <= WIDTH for line in shown)

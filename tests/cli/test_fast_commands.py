"""``ludoteca --version`` and ``ludoteca --help`` import neither numba nor the web stack.

Each command's module is imported only when that command runs, so the quick answers stay
quick. The imports are read from ``python -X importtime`` of the real command in a fresh process.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from ludoteca.cli import COMMANDS, _parser

HEAVY = {"numba", "llvmlite", "fastapi", "uvicorn", "httpx", "sqlalchemy", "starlette"}


def _imported_by(*words: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "ludoteca", *words],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()  # the version or the help was printed
    return {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


@pytest.mark.parametrize("words", [["--version"], ["--help"]], ids=" ".join)
def test_the_quick_answers_import_no_numba_and_no_web_stack(words: list[str]) -> None:
    imported = _imported_by(*words)
    assert "ludoteca.cli" in imported  # the report is read right
    top_level = {name.split(".")[0] for name in imported}
    assert top_level & HEAVY == set()
    assert not any(name.startswith(("ludoteca.web", "ludoteca.ai")) for name in imported)


def test_the_help_lists_each_command_with_its_own_parsers_line() -> None:
    listing = _parser().format_help()
    for name in COMMANDS:
        assert name in listing
        assert _parser(name).format_help() == listing, name

"""The front end's unit tests (tests/js/, Node's own test runner) run inside the suite.

The pure modules of ``ludoteca/web/static`` (click paths, notation, clocks, the review graph)
are tested by ``node --test tests/js/``; this test runs them and fails with Node's report.
Without Node it skips, except under CI=true, where it fails (.ci/run installs nodejs).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = ROOT / "tests" / "js"


def test_js_unit_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs Node.js for tests/js/ (.ci/run installs nodejs)", pytrace=False)
        pytest.skip("needs Node.js (node) for the front end's unit tests in tests/js/")
    files = sorted(JS_TESTS.glob("*.test.mjs"))
    assert files, f"no *.test.mjs files in {JS_TESTS}"
    done = subprocess.run(
        [node, "--test", *map(str, files)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, f"node --test failed:\n{report}"
    # Every file ran: Node counts its tests, none skipped, none left out.
    assert "# fail 0" in report, report
    assert "# pass 0\n" not in report, report

"""Settings for the whole test run, made before any test module imports Ludoteca or numba."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from tests.isolation import isolate

# -- compiled kernels: the checkout's own cache, never the user's ---------------------------------
# Test runs (and the processes they start, which inherit the variable) compile into .cache/numba/
# of this checkout (ignored by git), keyed by the sources like any other cache
# (ludoteca.kernel_cache, docs/testing.md).
CHECKOUT = Path(__file__).resolve().parent.parent
os.environ["LUDOTECA_NUMBA_CACHE"] = str(CHECKOUT / ".cache" / "numba")

# -- the GPU backend (ludoteca.rl.gpu): numba's CUDA simulator, unless the run says otherwise ------
# numba reads the setting once, when anything first imports its CUDA target. Set it to 0 to run
# tests/rl/test_gpu.py on a machine's GPU.
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

# -- data, caches and settings: a fresh folder per run, removed at the end -------------------------
# (tests/isolation.py). Nothing a test run reads comes from the user's folders or an earlier run.
RUN_STARTED = time.time()
RUN_DIR = Path(tempfile.mkdtemp(prefix="ludoteca-tests-")).resolve()
isolate(os.environ, RUN_DIR)
atexit.register(shutil.rmtree, RUN_DIR, ignore_errors=True)


# -- compiled kernels: before the first test, outside every test's time limit ---------------------
def pytest_collection_finish(session: pytest.Session) -> None:
    """Compile every game's kernels (the learning interface's too) into the run's cache before
    the first test: each test, and each server or worker process a test starts, then loads them
    in a second or two.

    With a cold cache this takes minutes of CPU (in parallel processes, one per game, on every
    core); a test that had to do it under its own limit failed on a busy machine without a fault
    of its own. With a warm cache it loads them in a few seconds. The processes run at the run's
    own priority: the run waits for them, so nothing of its own should come first.
    """
    if session.config.option.collectonly or not session.items:
        return
    from ludoteca.core.registry import game_ids
    from ludoteca.preparation import Failed, prepare_games

    outcomes = prepare_games(game_ids(), learning=True, niceness=0)
    failed = [outcome for outcome in outcomes if isinstance(outcome, Failed)]
    if failed:  # the tests of those games will say what is wrong, one by one
        print("\n".join(f"{o.game}: not prepared: {o.reason}" for o in failed))

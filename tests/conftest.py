"""Settings for the whole test run, made before any test module imports Ludoteca or numba."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from pathlib import Path

from tests.isolation import isolate

# -- compiled kernels: the checkout's own cache, never the user's ---------------------------------
# Test runs (and the processes they start, which inherit the variable) compile into .cache/numba/
# of this checkout (ignored by git), keyed by the sources like any other cache
# (ludoteca.kernel_cache, docs/testing.md).
CHECKOUT = Path(__file__).resolve().parent.parent
os.environ["LUDOTECA_NUMBA_CACHE"] = str(CHECKOUT / ".cache" / "numba")

# -- data, caches and settings: a fresh folder per run, removed at the end -------------------------
# (tests/isolation.py). Nothing a test run reads comes from the user's folders or an earlier run.
RUN_STARTED = time.time()
RUN_DIR = Path(tempfile.mkdtemp(prefix="ludoteca-tests-")).resolve()
isolate(os.environ, RUN_DIR)
atexit.register(shutil.rmtree, RUN_DIR, ignore_errors=True)

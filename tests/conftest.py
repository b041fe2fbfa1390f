"""Settings for the whole test run, made before any test module imports Ludoteca or numba."""

from __future__ import annotations

import os
from pathlib import Path

# -- compiled kernels: the checkout's own cache, never the user's ---------------------------------
# Test runs (and the processes they start, which inherit the variable) compile into .cache/numba/
# of this checkout (ignored by git), keyed by the sources like any other cache
# (ludoteca.kernel_cache, docs/testing.md).
CHECKOUT = Path(__file__).resolve().parent.parent
os.environ["LUDOTECA_NUMBA_CACHE"] = str(CHECKOUT / ".cache" / "numba")

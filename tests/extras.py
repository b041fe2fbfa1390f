"""Which optional extras a test run must have: their tests fail there instead of skipping.

`make test` runs without the optional extras (``pip install 'ludoteca[rl]'`` and so on), so
their tests skip with the reason. ``.ci/run`` installs them afterwards and names them in
``LUDOTECA_REQUIRED_EXTRAS`` (comma-separated) for its second run, where a test module of a
missing extra fails to import instead of skipping::

    if not extra_required("rl"):
        pytest.importorskip("gymnasium", reason="Gymnasium is not installed: ...")
"""

from __future__ import annotations

import os

#: Names the extras that must be installed (comma-separated): their tests may not skip.
REQUIRED_EXTRAS_VARIABLE = "LUDOTECA_REQUIRED_EXTRAS"


def required_extras() -> frozenset[str]:
    """The extras this run must have (``LUDOTECA_REQUIRED_EXTRAS``)."""
    names = os.environ.get(REQUIRED_EXTRAS_VARIABLE, "")
    return frozenset(name.strip() for name in names.split(",") if name.strip())


def extra_required(extra: str) -> bool:
    """Whether this run must have ``extra`` installed, so that its tests run and never skip."""
    return extra in required_extras()

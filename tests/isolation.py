"""Keep a test run away from the user's own data: every data, cache and settings folder per run.

`tests/conftest.py` calls `isolate` before any test module imports Ludoteca, so the run, and every
process it starts (they inherit the environment), reads and writes only under one fresh folder of
its own: the web server's database and the terminal's autosaves (``$XDG_DATA_HOME``), Pente
Grammai's solved tables (``$XDG_CACHE_HOME``), anything else that follows the XDG folders. A table
solved by an earlier run, or by the user's own ``ludoteca``, can therefore never stand in for
this run's solver.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path

#: The XDG folders, each moved to a subfolder of the run's own folder.
XDG_FOLDERS = {
    "XDG_DATA_HOME": "data",
    "XDG_CACHE_HOME": "cache",
    "XDG_CONFIG_HOME": "config",
    "XDG_STATE_HOME": "state",
}

#: Ludoteca's own settings that point at data or caches, or change the server's limits: a value
#: from the user's shell must not reach the tests (each test that needs one sets it itself).
CLEARED = (
    "LUDOTECA_CACHE",
    "LUDOTECA_DB",
    "LUDOTECA_PREPARATION_DIR",
    "LUDOTECA_GAME_RATE",
    "LUDOTECA_HINT_RATE",
)


def isolate(environ: MutableMapping[str, str], run_dir: Path) -> None:
    """Point every data and cache folder of ``environ`` into ``run_dir`` (created here)."""
    for variable, name in XDG_FOLDERS.items():
        folder = run_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        environ[variable] = str(folder)
    for variable in CLEARED:
        environ.pop(variable, None)

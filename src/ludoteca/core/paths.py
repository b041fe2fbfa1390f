"""Where Ludoteca keeps the user's data.

The folder is ``$XDG_DATA_HOME/ludoteca`` (default ``~/.local/share/ludoteca``), shared by the
web server's database and the terminal's autosaves.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The user's Ludoteca data folder (not created here)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ludoteca"


def autosave_dir() -> Path:
    """Where the terminal autosaves every game after each move (not created here)."""
    return data_dir() / "autosave"

"""Every test here keeps the terminal's autosaves in its own temporary data folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``XDG_DATA_HOME`` at a fresh folder, so no test touches the user's data."""
    folder = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder

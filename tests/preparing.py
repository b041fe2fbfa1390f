"""A stand-in for a game's preparation, for the tests of `ludoteca.preparation`.

A module of its own, importing nothing heavy: each preparation process imports it.
"""

from __future__ import annotations

import os
import threading


def pretend(game_id: str, learning: bool) -> None:
    """A game's preparation, as its name says: crash, raise, hang, or be done at once;
    ``nice-N`` is done only if its process runs at niceness N."""
    if game_id == "crashes":
        os._exit(3)
    if game_id == "raises":
        raise RuntimeError("no compiler here")
    if game_id == "hangs":
        threading.Event().wait()
    if game_id.startswith("nice-") and os.nice(0) != int(game_id.removeprefix("nice-")):
        raise RuntimeError(f"running at niceness {os.nice(0)}")

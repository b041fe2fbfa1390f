"""Nim position text: the pile, the player to move and the moves played.

For example ``15 0 0``, the start of the default game.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from ludoteca.core.array_state import Cells
from ludoteca.core.errors import InvalidStateError
from ludoteca_nim import kernels as k

if TYPE_CHECKING:
    from ludoteca_nim import NimGame

POSITION = re.compile(r"(\d{1,4}) ([01]) (\d{1,6})")


def position_text(cells: Cells) -> str:
    """``<pile> <player to move> <moves played>``."""
    return f"{int(cells[k.PILE])} {int(cells[k.TO_MOVE])} {int(cells[k.PLY])}"


def read_position(game: NimGame, text: str) -> Cells:
    """Read position text (see the module docstring) into a position array.

    Raises:
        InvalidStateError: What is wrong, and the expected form.
    """
    match = POSITION.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidStateError(f"a Nim position is '<pile> <0|1> <moves played>'; got {text!r}")
    pile, player, ply = (int(group) for group in match.groups())
    cells = np.array([pile, player, ply, k.NO_WINNER], dtype=np.int32)
    if pile == 0:
        if ply == 0:
            raise InvalidStateError("an empty pile needs at least one move played")
        cells[k.WINNER] = 1 - player  # whoever moved last took the last counter
    return cells

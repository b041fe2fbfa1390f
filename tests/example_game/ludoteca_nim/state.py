"""Nim positions, moves and notation.

Notation: ``t1``, ``t2``, ... (take one, two, ... counters). Position text: the pile, the
player to move and the moves played, e.g. ``15 0 0`` (the start of the default game).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ludoteca.core.array_state import ArrayState
from ludoteca.core.errors import InvalidStateError
from ludoteca.core.outcome import Outcome
from ludoteca_nim import kernels as k

if TYPE_CHECKING:
    from ludoteca_nim import NimGame

POSITION = re.compile(r"(\d{1,4}) ([01]) (\d{1,6})")


class NimState(ArrayState):
    """A Nim position. Build one with the game's ``initial_state``/``parse_state``."""

    __slots__ = ()

    move_forms: ClassVar[str] = "t1, t2, t3 (take one, two or three counters)"
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(r"t[1-9]")

    @property
    def pile(self) -> int:
        """The counters left."""
        return int(self.cells[k.PILE])

    @property
    def to_move(self) -> int | None:
        """The player to move, ``None`` once the pile is empty."""
        return None if self.pile == 0 else int(self.cells[k.TO_MOVE])

    @property
    def outcome(self) -> Outcome | None:
        """The player who took the last counter wins."""
        if self.pile > 0:
            return None
        winner = int(self.cells[k.WINNER])
        return Outcome.win(winner, 2, f"{self._game.player_names[winner]} took the last counter")

    def _action_text(self, action: int) -> str:
        return f"t{action + 1}"

    def _why_illegal(self, text: str) -> str:
        most = min(self.pile, int(self._game.options["max_take"]))  # type: ignore[call-overload]
        return f"{text} takes too many: a move takes 1 to {most} counters here"

    def to_text(self) -> str:
        """``<pile> <player to move> <moves played>``."""
        return f"{self.pile} {int(self.cells[k.TO_MOVE])} {int(self.cells[k.PLY])}"

    def __str__(self) -> str:
        return f"{'o' * self.pile} ({self.pile} left)"


def parse_position(game: NimGame, text: str) -> NimState:
    """Read position text written by `NimState.to_text`.

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
    return NimState(game, cells)

"""Nim positions, moves and notation.

Notation: ``t1``, ``t2``, ... (take one, two, ... counters). Position text is read and written
in `ludoteca_nim.position`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from ludoteca.core.array_state import ArrayState
from ludoteca.core.outcome import Outcome
from ludoteca_nim import kernels as k
from ludoteca_nim.position import position_text

if TYPE_CHECKING:
    pass


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
        """``<pile> <player to move> <moves played>`` (`ludoteca_nim.position`)."""
        return position_text(self.cells)

    def __str__(self) -> str:
        return f"{'o' * self.pile} ({self.pile} left)"

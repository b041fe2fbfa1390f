"""`ArrayState`: the state base class for games whose rules run as compiled kernels.

The position lives in one small read-only numpy integer array; the game's kernels compute legal
actions and successor arrays from it. This class turns those integers into `Move` values and
gives equality and hashing by the array's contents.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE

Cells = npt.NDArray[np.int32]


class ArrayState(State):
    """A position stored as a read-only ``int32`` array, with rules in compiled kernels."""

    __slots__ = ("_cells",)
    _cells: Cells

    move_class: ClassVar[type[Move]] = Move

    def __init__(self, game: Game, cells: Cells) -> None:
        super().__init__(game)
        frozen = np.array(cells, dtype=np.int32, copy=True)
        frozen.flags.writeable = False
        object.__setattr__(self, "_cells", frozen)

    @property
    def cells(self) -> Cells:
        """The raw position array (read-only), for agents and kernels."""
        return self._cells

    @abstractmethod
    def _legal_actions(self) -> npt.NDArray[np.int64]:
        """Legal action indices (chance outcome indices at a chance node), in a fixed order."""

    @abstractmethod
    def _successor(self, action: int) -> Cells:
        """The array of the position after the legal ``action``."""

    @abstractmethod
    def _action_text(self, action: int) -> str:
        """The canonical text of a legal ``action`` in this position."""

    def _compute_legal_moves(self) -> tuple[Move, ...]:
        is_chance = self.to_move == CHANCE
        return tuple(
            self.move_class(int(a), self._action_text(int(a)), is_chance)
            for a in self._legal_actions()
        )

    def _apply_legal(self, move: Move) -> State:
        return type(self)(self._game, self._successor(move.index))

    def _key(self) -> Any:
        return self._cells.tobytes()

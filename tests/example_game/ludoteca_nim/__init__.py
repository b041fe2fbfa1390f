"""Nim: take counters from one pile; who takes the last counter wins.

A small game from outside Ludoteca, kept in Ludoteca's test suite to show how a game package
plugs in: numba kernels (its rules in ``kernels/rules.py``; the kernel contract is generated
from them into ``kernels/__init__.py``), an immutable state (``state.py``), a view
(``view.py``), exact heuristics (``heuristics.py``), and a declaration (`NimGame.info`). It
registers through the ``ludoteca.games`` entry point group or ``ludoteca.register(NimGame)``.

Rules in brief: two players take turns removing 1 to 3 counters (``max_take``) from a pile of
15 (``pile``); the player who takes the last counter wins. The player to move loses with best
play exactly when the pile is a multiple of ``max_take + 1``.

Notation: ``t1``, ``t2``, ``t3`` (take one, two or three counters), e.g. ``t3`` leaves 12 of
15. Position text: ``<pile> <player to move> <moves played>``, e.g. ``15 0 0``.

Options: ``pile`` (1-100, default 15) and ``max_take`` (1-9, default 3).
"""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from ludoteca.core import GameInfo, LevelSetting, PieceStyle, RegionStyle, View, levels_with
from ludoteca.core.array_state import KernelGame
from ludoteca.core.options import OptionSpec
from ludoteca_nim import heuristics, view
from ludoteca_nim import kernels as k
from ludoteca_nim.position import read_position
from ludoteca_nim.state import NimState

__all__ = ["NimGame", "NimState"]


class NimGame(KernelGame):
    """Nim with one pile (see the module docstring)."""

    kernels: ClassVar[ModuleType] = k
    id: ClassVar[str] = "nim"
    name: ClassVar[str] = "Nim"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("First", "Second")
    num_actions: ClassVar[int] = k.NUM_ACTIONS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("pile", 15, "Counters in the pile at the start.", minimum=1, maximum=100),
        OptionSpec("max_take", 3, "The most counters one move may take.", minimum=1, maximum=9),
    )
    info: ClassVar[GameInfo] = GameInfo(
        rollout_plies=4,
        levels=levels_with({5: LevelSetting("strongest: perfect play", "expert", 0)}),
        evaluate=heuristics.evaluate,
        expert=heuristics.expert_move,
        view=View.of(view),
        piece_styles=(PieceStyle("amber", "#e0a030"),),
        region_styles=(RegionStyle("slot", "#f4ecd8"),),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        params[k.P_MAX_TAKE] = int(self._options["max_take"] or 0)
        params.flags.writeable = False
        self.params: npt.NDArray[np.int64] = params
        self.kernel_args = (self.params,)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(2,)``: the pile / 100, and whether the observer is to move."""
        return (k.NUM_FEATURES,)

    @property
    def num_chance_outcomes(self) -> int:
        """0: Nim has no chance."""
        return 0

    @property
    def max_game_length(self) -> int:
        """The pile: every move takes at least one counter."""
        return int(self._options["pile"] or 0)

    def initial_state(self) -> NimState:
        """The full pile, the first player to move."""
        pile = int(self._options["pile"] or 0)
        return NimState(self, np.array([pile, 0, 0, k.NO_WINNER], dtype=np.int32))

    def parse_state(self, text: str) -> NimState:
        """Read position text written by `NimState.to_text`.

        Raises:
            InvalidStateError: What is wrong with the text, and the expected form.
        """
        return NimState(self, read_position(self, text))

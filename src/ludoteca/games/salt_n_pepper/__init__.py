"""Salt 'n' Pepper (Martin H. Samuel, 2010): two armies cross each other's path to get home.

Rules in brief (full text in docs/rules/salt_n_pepper.md): Salt (white) and Pepper (black) have
15 pieces each. Salt starts on the dark squares of the three top ranks and moves diagonally
down; Pepper starts on the light squares of ranks 1-3 and moves straight up (optionally also
sideways; never backward). A piece steps to an empty square, or may leap over one adjacent
opponent piece (never an own piece) to the empty square beyond; nothing is captured. A piece
that reaches its own back rank (rank 1 for Salt, the top rank for Pepper) stays there until it
moves home on a later turn, and while a side has such a piece it must move one home. A piece
one rank short of its back rank may leap home over an opponent piece standing on it. A side
without a move forfeits its turn. The first side with all 15 pieces home wins.

Sources: Martin H. Samuel's rules sheet (Games Above Board, 2010), and the readings Ludoteca
settled (docs/rules/salt_n_pepper.md says which are ours and why).

Start position (10 ranks; S = Salt, P = Pepper; empty dark squares ``.``, light blank)::

    10  S     S     S     S     S
     9     S     S     S     S     S
     8  S     S     S     S     S
     7     .     .     .     .     .
     ...
     3  P     P     P     P     P
     2     P     P     P     P     P
     1  P     P     P     P     P
        a  b  c  d  e  f  g  h  i  j

Notation: ``c8-b7`` (a step), ``e5xc3`` (a leap), ``d1-home`` (home from the back rank),
``c2xhome`` (a leap home), ``pass``; the bag draw's outcomes are ``first-0`` (Salt starts) and
``first-1`` (Pepper starts). Position text: see `ludoteca.games.salt_n_pepper.position`.

Options:
    first: ``"random"`` (default; the bag draw, an explicit chance node at even odds), ``0``
        (Salt moves first) or ``1`` (Pepper moves first).
    pepper_sideways: whether Pepper may also step and leap sideways (default False).
    ranks: the number of ranks, 6 to 20 (default 10); the board is always ten files wide.
    max_plies: engine safeguard (default 2,000 plies: a draw).

Engine safeguards, not rules of the game: two passes in a row (neither side can move) end the
game in a draw, and so does ``max_plies``.

Not implemented, deliberately: the rules sheet's advice to swap colours every other game (a
matter for a match, not for one game).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from ludoteca.core.array_state import KernelGame
from ludoteca.core.info import (
    GameInfo,
    LearnedPlayer,
    LevelSetting,
    PieceStyle,
    RegionStyle,
    View,
    levels_with,
)
from ludoteca.core.options import OPTION_MAXIMUM, OptionSpec
from ludoteca.games.salt_n_pepper import heuristics, view
from ludoteca.games.salt_n_pepper import kernels as k
from ludoteca.games.salt_n_pepper.position import build_cells, parse_cells, start_squares
from ludoteca.games.salt_n_pepper.state import SaltNPepperMove, SaltNPepperState

__all__ = ["SaltNPepperGame", "SaltNPepperMove", "SaltNPepperState"]


class SaltNPepperGame(KernelGame):
    """Salt 'n' Pepper with one choice of options; see the module docstring for the rules."""

    kernels: ClassVar[ModuleType] = k
    id: ClassVar[str] = "salt_n_pepper"
    name: ClassVar[str] = "Salt 'n' Pepper"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("Salt", "Pepper")
    num_actions: ClassVar[int] = k.NUM_ACTIONS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "first",
            "random",
            "Who moves first: 'random' = the bag draw (a chance node, even odds), 0 = Salt, "
            "1 = Pepper.",
            choices=("random", 0, 1),
        ),
        OptionSpec(
            "pepper_sideways",
            False,
            "Whether Pepper may also step and leap sideways (never backward).",
        ),
        OptionSpec(
            "ranks",
            10,
            "Ranks on the board (ten files always); each side starts on the three ranks "
            "farthest from its home.",
            minimum=k.MIN_RANKS,
            maximum=k.MAX_RANKS,
        ),
        OptionSpec(
            "max_plies",
            2_000,
            "Engine safeguard: a game without a result after this many plies is a draw.",
            minimum=1,
            maximum=OPTION_MAXIMUM,
        ),
    )
    info: ClassVar[GameInfo] = GameInfo(
        rollout_plies=10,
        levels=levels_with(
            {5: LevelSetting("strongest: alpha-beta, 40,000 positions", "alphabeta", 40_000)}
        ),
        evaluate=heuristics.evaluate,
        search_leaf=heuristics.search_leaf,
        # A network trained by self-play (docs/ai.md): about level 5's CPU time per move.
        learned=LearnedPlayer(weights=Path(__file__).with_name("network.npz"), iterations=6000),
        lessons=Path(__file__).with_name("lessons.toml"),
        puzzles=Path(__file__).with_name("puzzles.json"),
        view=View.of(view),
        piece_styles=(
            PieceStyle("salt", "#fdfdfb"),
            PieceStyle("pepper", "#262320", text="#fff"),
        ),
        # The home rows hold salt and pepper alike: a mid-tone green that both stand out from
        # by WCAG's 3:1 or more, as from the dark squares.
        region_styles=(RegionStyle("home", "#7f9a78"),),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        first = self._options["first"]
        self.first: int | None = None if first == "random" else int(str(first))
        ranks = int(str(self._options["ranks"]))
        params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        params[k.P_RANKS] = ranks
        params[k.P_PEPPER_DIRECTIONS] = 3 if self._options["pepper_sideways"] else 1
        params[k.P_MAX_PLIES] = int(str(self._options["max_plies"]))
        params.flags.writeable = False
        self.params: npt.NDArray[np.int64] = params
        targets = k.build_targets(ranks)
        targets.flags.writeable = False
        self.targets: npt.NDArray[np.int64] = targets
        self.kernel_args = (self.params, self.targets)

    @property
    def ranks(self) -> int:
        """The number of ranks on the board."""
        return int(self.params[k.P_RANKS])

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(8, ranks, 10)``: the planes of docs/rl.md, rank 1 first, file a first."""
        return (k.NUM_PLANES, self.ranks, k.WIDTH)

    @property
    def num_chance_outcomes(self) -> int:
        """2: the bag draw's ``first-0`` and ``first-1`` (drawn only with ``first="random"``)."""
        return int(k.NUM_CHANCE_OUTCOMES)

    @property
    def max_game_length(self) -> int:
        """``max_plies``, plus one for the bag draw with ``first="random"``."""
        return int(self.params[k.P_MAX_PLIES]) + (1 if self.first is None else 0)

    def initial_state(self) -> SaltNPepperState:
        """The start position: the bag draw to come (``first="random"``), or the first move."""
        cells = build_cells(self.ranks, start_squares(self.ranks), first=self.first)
        k.settle(cells, self.params)
        return SaltNPepperState(self, cells)

    def parse_state(self, text: str) -> SaltNPepperState:
        """Read position text written by `SaltNPepperState.to_text`.

        Raises:
            InvalidStateError: What is wrong with the text, and the expected form.
        """
        return SaltNPepperState(self, parse_cells(self, text))

    def playout_totals(self, count: int, seed: int) -> dict[str, int]:
        """Everything `random_playouts` counts, plus what the rules report adds.

        Keys: ``plies``, ``decisions``, ``legal_moves``, ``longest``, ``draws``, ``salt_wins``,
        ``pepper_wins``, ``stuck_draws`` and ``cap_draws`` (the two engine safeguards),
        ``passes`` (forfeited turns), ``salt_first`` (games Salt began), ``first_mover_wins``,
        ``leaps`` and ``leaps_home``.
        """
        start = self.initial_state().cells
        totals = k.random_playouts(start, self.params, self.targets, count, seed)
        return {name: int(totals[slot]) for name, slot in _TOTALS}


_TOTALS = (
    ("plies", k.T_PLIES),
    ("decisions", k.T_DECISIONS),
    ("legal_moves", k.T_LEGAL_MOVES),
    ("longest", k.T_LONGEST),
    ("draws", k.T_DRAWS),
    ("salt_wins", k.T_WINS + k.SALT),
    ("pepper_wins", k.T_WINS + k.PEPPER),
    ("stuck_draws", k.T_STUCK_DRAWS),
    ("cap_draws", k.T_CAP_DRAWS),
    ("passes", k.T_PASSES),
    ("salt_first", k.T_SALT_FIRST),
    ("first_mover_wins", k.T_FIRST_MOVER_WINS),
    ("leaps", k.T_LEAPS),
    ("leaps_home", k.T_LEAPS_HOME),
)

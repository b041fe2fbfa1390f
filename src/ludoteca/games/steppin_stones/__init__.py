"""Steppin' Stones (Ken Maher, 2004): a dice solitaire for the piecepack.

Rules in brief (full text in docs/rules/steppin_stones.md): one player brings four pawns home
across stepping stones. Each suit (Suns, Moons, Crowns, Arms) has five coins, a pawn, a die and a
home tile in a corner of an 8x8 board. While any coin of a suit shows its value, the suit is in
phase 1: each turn all phase-1 dice are rolled together; a value moves one coin of that value
(any suit) exactly that many orthogonal steps, passing only over lower coins; the suit face
``*`` forces the player to turn a coin of that suit into a stepping stone. Once all five of a
suit's coins are stones, the suit is in phase 2: its die, rolled after the phase-1 dice, gives a
budget of steps (null 1, ``*`` 6) for its stones and its pawn, and the pawn moves only onto its
own stones and home tile. A pawn at home retires its suit. All four home wins; a dead position
(no suit in phase 1, nothing able to move) loses.

Source: Ken Maher's rules of 2004 (KenMGames), for the piecepack game system (piecepack.org),
with the readings Ludoteca settled (docs/rules/steppin_stones.md
says which are ours and why).

Start position (default options; ``[S]`` Suns' home tile, ``SP`` Sun pawn, ``S2`` Sun 2)::

     8  [S]  [S]   S5   .    .    M5  [M]  [M]
     7  [S]  [S]   S4   .    .    M4  [M]  [M]
     6   S3   S2   S0   .    .    M0   M2   M3
     5   .    .    .    CP   AP   .    .    .
     4   .    .    .    MP   SP   .    .    .
     3   A3   A2   A0   .    .    C0   C2   C3
     2  [A]  [A]   A4   .    .    C4  [C]  [C]
     1  [A]  [A]   A5   .    .    C5  [C]  [C]
         a    b    c    d    e    f    g    h

Notation: rolls ``S* M0 C4 A2`` (suit order; ``*`` suit face, ``0`` null); ``S2:b6-c5`` (a coin
showing its value), ``S:c5-c3`` (a stepping stone), ``SP:e4-e6`` (a pawn), ``flip:S2``, ``end``,
``resign``. The designer's example turn from the start: ``S* M0 C4 A2``, ``S2:b6-c5``,
``S4:c7-a5``, ``flip:S2``, ``end``. Position text: see `ludoteca.games.steppin_stones.position`.

Options:
    stones: ``"any"`` (default; a suit face turns any coin of its suit) or ``"highest"`` (it must
        turn the suit's highest coin still showing a value).
    aces: 0 (default), 2 or 4 aces as fixed obstacles, one space beyond the 2 coin of their suit
        (two: the Suns' and the Crowns'); see `layout`.
    aces_as_stones: with aces, any pawn may also step onto them (default false).
    large_board: 10x10 from all 24 tiles with a hole in the centre, where the pawns start.
    max_turns: engine safeguard: the game is lost after this many turns (default 500).

Not implemented, deliberately: drawing leftover tiles to place the aces at random (our aces
stand on fixed squares, so every game with the same options starts the same).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from ludoteca.core.array_state import KernelGame
from ludoteca.core.errors import InvalidOptionError
from ludoteca.core.info import GameInfo, LevelSetting, PieceStyle, RegionStyle, View
from ludoteca.core.options import OPTION_MAXIMUM, OptionSpec
from ludoteca.games.steppin_stones import heuristics, view
from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.layout import Layout, board_layout
from ludoteca.games.steppin_stones.planner import expert_move, expert_playouts
from ludoteca.games.steppin_stones.position import parse_position
from ludoteca.games.steppin_stones.state import SteppinStonesMove, SteppinStonesState

__all__ = ["SteppinStonesGame", "SteppinStonesMove", "SteppinStonesState"]


class SteppinStonesGame(KernelGame):
    """Steppin' Stones with one choice of options; see the module docstring for the rules."""

    kernels: ClassVar[ModuleType] = k
    id: ClassVar[str] = "steppin_stones"
    name: ClassVar[str] = "Steppin' Stones"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 1
    player_names: ClassVar[tuple[str, ...]] = ("Player",)
    num_actions: ClassVar[int] = c.NUM_ACTIONS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "stones",
            "any",
            "Which coin a suit face turns: 'any' coin of the suit showing a value, or the "
            "'highest' one.",
            choices=("any", "highest"),
        ),
        OptionSpec(
            "aces",
            0,
            "Aces placed as fixed obstacles beyond the 2 coins: 0, 2 (Suns and Crowns) or 4.",
            choices=(0, 2, 4),
        ),
        OptionSpec(
            "aces_as_stones",
            False,
            "With aces, any pawn may step onto them as if they were its own stones.",
        ),
        OptionSpec(
            "large_board",
            False,
            "Play on 10x10 spaces from all 24 tiles, with the centre tile missing.",
        ),
        OptionSpec(
            "max_turns",
            500,
            "Engine safeguard: the game is lost when this many turns pass without a result.",
            minimum=1,
            maximum=OPTION_MAXIMUM,
        ),
    )
    info: ClassVar[GameInfo] = GameInfo(
        lessons=Path(__file__).with_name("lessons.toml"),
        rollout_plies=10,
        # The planner; a random move breaks the jams a greedy plan walks into.
        levels=(
            LevelSetting(
                "beginner: a random move 9 times in 10, else the planner's", "expert", 0, 0.9
            ),
            LevelSetting(
                "casual: a random move 7 times in 8, else the planner's", "expert", 0, 0.875
            ),
            LevelSetting(
                "club: a random move 17 times in 20, else the planner's", "expert", 0, 0.85
            ),
            LevelSetting(
                "strong: a random move 4 times in 5, else the planner's", "expert", 0, 0.8
            ),
            LevelSetting(
                "strongest: the planner, with a random move one time in two", "expert", 0, 0.5
            ),
        ),
        evaluate=heuristics.evaluate,
        search_leaf=heuristics.search_leaf,
        expert=expert_move,
        # The planner's value is how far the suits have come towards home, not a win chance.
        expert_value="progress",
        expert_playouts=expert_playouts,
        view=View.of(view),
        piece_styles=(
            # Deep enough to stand out from every light place by WCAG's 3:1, with white numbers.
            PieceStyle("suns", "#9a6200", text="#fff"),
            PieceStyle("moons", "#3f5bb5", text="#fff"),
            PieceStyle("crowns", "#a83a82", text="#fff"),
            PieceStyle("arms", "#2f7a40", text="#fff"),
        ),
        region_styles=(
            RegionStyle("home-suns", "#f6d7a4"),
            RegionStyle("home-moons", "#d7dcf2"),
            RegionStyle("home-crowns", "#f0d4e6"),
            RegionStyle("home-arms", "#d3ead9"),
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        aces = int(self._options["aces"] or 0)
        if self._options["aces_as_stones"] and aces == 0:
            raise InvalidOptionError(
                "aces_as_stones=true needs aces on the board: give aces=2 or aces=4 as well"
            )
        self.layout: Layout = board_layout(bool(self._options["large_board"]), aces)
        self.geometry: npt.NDArray[np.int64] = self.layout.geometry()
        params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        params[k.P_NUM_SQUARES] = self.layout.num_squares
        params[k.P_MAX_TURNS] = int(self._options["max_turns"] or 0)
        params[k.P_HIGHEST] = int(self._options["stones"] == "highest")
        params[k.P_ACES_AS_STONES] = int(bool(self._options["aces_as_stones"]))
        params.flags.writeable = False
        self.params: npt.NDArray[np.int64] = params
        self.kernel_args = (self.params, self.geometry)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(55, 8, 8)``, or ``(55, 10, 10)`` on the large board: the planes of docs/rl.md."""
        return (k.NUM_OBS_PLANES, self.layout.size, self.layout.size)

    @property
    def num_chance_outcomes(self) -> int:
        """1,296: the faces of four dice (suits that do not roll count as face 0)."""
        return int(c.NUM_OUTCOMES)

    @property
    def max_game_length(self) -> int:
        """``max_turns`` turns of at most 32 plies (chance outcomes included).

        A turn has at most two rolls, one use of each of the four phase-1 dice, 24 steps of
        phase-2 budget (four dice of at most 6, and every move costs at least one step) and two
        ``end``s.
        """
        return int(k.MAX_PLIES_PER_TURN) * int(self.params[k.P_MAX_TURNS])

    def initial_state(self) -> SteppinStonesState:
        """The start position: every coin showing its value, the phase-1 dice to be rolled."""
        cells = np.zeros(c.CELLS_SIZE, dtype=np.int32)
        for suit in range(c.NUM_SUITS):
            for value, square in self.layout.coin_start[suit].items():
                c.set_coin_cell(cells, square, c.value_coin(suit, value))
            c.place_pawn(cells, suit, self.layout.pawn_start[suit])
        for suit, square in self.layout.aces.items():
            c.set_coin_cell(cells, square, c.ACE_BASE + suit)
        return SteppinStonesState(self, k.started(cells, self.params, self.geometry))

    def parse_state(self, text: str) -> SteppinStonesState:
        """Read position text written by `SteppinStonesState.to_text`.

        Raises:
            InvalidStateError: What is wrong with the text, and the expected form.
        """
        return SteppinStonesState(self, parse_position(self, text))

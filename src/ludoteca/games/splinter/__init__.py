"""Splinter (Ed Nadel, 2021): push lines of pieces, and keep all three types on the board.

Rules in brief (full text in docs/rules/splinter.md): two players, Blue (moves first by default)
and Red, each with 2 squares, 4 crosses and 9 circles, start in a checkerboard block in the middle
of a 15x18 board. A turn moves one own piece one square in any of eight directions, pushing the
unbroken line of pieces ahead of it (either colour, any length); a piece pushed past the edge is
removed, but the moving piece may not leave the board. No piece may be pushed back onto the
square it left on the opponent's last turn. When the pieces fall apart into separate groups
(touching through sides or corners), only the largest group stays; between tied largest groups
the mover chooses. A player left without a square, a cross or a circle loses; when both are left
so by the same move, more pieces wins, and equal is a tie.

Sources: Ed Nadel's rules (the squares/crosses/circles edition, 2021), and the readings
Ludoteca settled. The board size and the piece-type layout are ours: the designer's diagram of
the start is not available (see `ludoteca.games.splinter.layout`).

Start position (default options; upper case Blue, lower case Red; S square, X cross, O circle)::

    13 . . . . . . . . . . . . . . .
    12 . . . . . o O o O o . . . . .
    11 . . . . . O x X x O . . . . .
    10 . . . . . o X s S o . . . . .
     9 . . . . . O s S x O . . . . .
     8 . . . . . o X x X o . . . . .
     7 . . . . . O o O o O . . . . .
     6 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o      (ranks 1-5 and 13-18 are empty)

Notation: ``h9-N`` (the Blue square on h9 moves north, pushing h10, h11 and h12 along),
``h9-NE/k12`` (a move that splits the pieces into tied largest groups, keeping the group whose
first square is k12), ``pass``; ``first-0``/``first-1`` for the draw of the first player.
Position text: see `ludoteca.games.splinter.position`.

Options:
    size: the board, files x ranks (default ``"15x18"``, our reading).
    layout: the types of Blue's start cells (default ``"OOO/XX/OSO/XS/OXO/OO"``, our reading).
    first: who moves first: 0 (Blue, default), 1 (Red) or ``"random"`` (a chance node).
    max_plies: engine safeguard, turns after which an unfinished game is a tie (default 1,000).

Not implemented, deliberately: the designer's own start diagram (unavailable), and any other
piece sets of the game.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from ludoteca.core.array_state import KernelGame
from ludoteca.core.info import GameInfo, LevelSetting, PieceStyle, RegionStyle, View, levels_with
from ludoteca.core.options import OPTION_MAXIMUM, OptionSpec
from ludoteca.games.splinter import heuristics, view
from ludoteca.games.splinter import kernels as k
from ludoteca.games.splinter.layout import (
    DEFAULT_LAYOUT,
    DEFAULT_SIZE,
    LAYOUT_FORM,
    SIZE_FORM,
    TextOptionSpec,
    neighbour_table,
    read_layout,
    read_size,
    size_of,
    start_pieces,
)
from ludoteca.games.splinter.position import read_position
from ludoteca.games.splinter.state import SplinterMove, SplinterState

__all__ = ["SplinterGame", "SplinterMove", "SplinterState"]


class SplinterGame(KernelGame):
    """Splinter with one choice of options; see the module docstring for the rules."""

    kernels: ClassVar[ModuleType] = k
    id: ClassVar[str] = "splinter"
    name: ClassVar[str] = "Splinter"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("Blue", "Red")
    num_actions: ClassVar[int] = k.NUM_ACTIONS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        TextOptionSpec(
            "size",
            DEFAULT_SIZE,
            "The board, files x ranks (our reading: the designer's diagram is not available).",
            form=SIZE_FORM,
            reader=read_size,
        ),
        TextOptionSpec(
            "layout",
            DEFAULT_LAYOUT,
            "The types of Blue's start cells, row by row from Blue's side (S square, X cross, "
            "O circle); Red's are the same turned through 180°. Our reading.",
            form=LAYOUT_FORM,
            reader=read_layout,
        ),
        OptionSpec(
            "first",
            0,
            "Who moves first: 0 = Blue, 1 = Red, random = drawn at the start (a chance node).",
            choices=(0, 1, "random"),
        ),
        OptionSpec(
            "max_plies",
            1_000,
            "Engine safeguard: a game without a result after this many turns is a tie.",
            minimum=1,
            maximum=OPTION_MAXIMUM,
        ),
    )
    info: ClassVar[GameInfo] = GameInfo(
        lessons=Path(__file__).with_name("lessons.toml"),
        puzzles=Path(__file__).with_name("puzzles.json"),
        rollout_plies=4,
        levels=levels_with(
            {5: LevelSetting("strongest: alpha-beta, 80,000 positions", "alphabeta", 80_000)}
        ),
        evaluate=heuristics.evaluate,
        search_leaf=heuristics.search_leaf,
        view=View.of(view),
        piece_styles=(
            PieceStyle("blue", "#1f4f9a", text="#fff"),
            PieceStyle("red", "#a82620", text="#fff"),
        ),
        # Pieces stand on both colours of square: a lighter wood than the shared one, so that both
        # colours stand out from it by WCAG's 3:1 or more.
        region_styles=(RegionStyle("dark", "#dcc9a3"),),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.width, self.height = size_of(str(self._options["size"]))
        first = self._options["first"]
        params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        params[k.P_WIDTH] = self.width
        params[k.P_HEIGHT] = self.height
        params[k.P_MAX_PLIES] = int(self._options["max_plies"] or 0)
        params[k.P_FIRST] = first if isinstance(first, int) else k.CHANCE
        params.flags.writeable = False
        self.params: npt.NDArray[np.int64] = params
        self.nbr: npt.NDArray[np.int64] = neighbour_table(self.width, self.height)
        self.kernel_args = (self.params, self.nbr)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(10, ranks, files)``: the planes of docs/rl.md, from the observer's side."""
        return (k.NUM_OBS_PLANES, self.height, self.width)

    @property
    def num_chance_outcomes(self) -> int:
        """2 with ``first="random"`` (``first-0``, ``first-1``), else 0: no chance node."""
        return 2 if self.params[k.P_FIRST] == k.CHANCE else 0

    @property
    def max_game_length(self) -> int:
        """``max_plies`` turns, plus the draw of the first player with ``first="random"``."""
        return int(self.params[k.P_MAX_PLIES]) + (1 if self.params[k.P_FIRST] == k.CHANCE else 0)

    def initial_state(self) -> SplinterState:
        """The start position: the first player to move, or the draw of the first player."""
        cells = np.zeros(k.cells_size(self.width, self.height), dtype=np.int32)
        for square, side, kind in start_pieces(
            self.width, self.height, str(self._options["layout"])
        ):
            k.set_board_cell(cells, square, k.piece_code(side, kind))
        cells[k.TO_MOVE_AT] = self.params[k.P_FIRST]
        k.recount(cells, self.params)
        k.settle(cells, self.params)
        return SplinterState(self, cells)

    def parse_state(self, text: str) -> SplinterState:
        """Read position text written by `SplinterState.to_text`.

        Raises:
            InvalidStateError: What is wrong with the text, and the expected form.
        """
        return SplinterState(self, read_position(self, text))

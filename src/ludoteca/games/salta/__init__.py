"""Salta (Konrad Heinrich Büttgenbach, 1899): a race to mirror your army on the far side.

Rules in brief (full text in docs/rules/salta.md): two players, Green (moves first) and Red,
each with 15 distinct pieces (Stars, Moons and Suns numbered 1-5) on the dark squares of a
10x10 board. A move is a diagonal step in any direction to an empty square, or a single forward
jump over an adjacent opponent piece (nothing is captured). Jumps are compulsory, and no move
may leave the opponent without a move. Whoever first brings every piece to its own goal
square wins; when Green gets there first, Red has one extra move to draw by getting there too.
After 120 moves each, the 120-move rule decides by a scoring phase.

Sources: a modern retelling of Büttgenbach's rules of 1899, and the readings Ludoteca
settled (docs/rules/salta.md says which are ours and why).

Start position (Green below; S = Star, M = Moon, O = Sun; upper case Green, lower case Red)::

    10  .  s5 .  s4 .  s3 .  s2 .  s1
     9  m5 .  m4 .  m3 .  m2 .  m1 .
     8  .  o5 .  o4 .  o3 .  o2 .  o1
     7 ...
     3  O1 .  O2 .  O3 .  O4 .  O5 .
     2  .  M1 .  M2 .  M3 .  M4 .  M5
     1  S1 .  S2 .  S3 .  S4 .  S5 .
        a  b  c  d  e  f  g  h  i  j

Notation: ``c3-d4`` (a step), ``e5xg7`` (a jump), ``pass``. Position text: see
`ludoteca.games.salta.state`.

Options:
    goal: ``"seed"`` (default; each piece ends seven ranks ahead, in the mirrored layout) or
        ``"ludii"`` (each piece ends on the start square of its opposite number).
    move_limit: moves per player before the 120-move rule (default 120); ``None`` disables it.
    scoring: ``"played"`` (default; both sides race home ignoring each other, fewer moves wins)
        or ``"simplified"`` (sum of distances to goal, lower wins).
    scoring_cap: engine safeguard for the played scoring phase (default 400 moves per player).
    max_plies: engine safeguard when the move limit is disabled (default 10,000 plies: a draw).

Not implemented, deliberately: Ludii's reading (backward and chained jumps, no no-block rule, no
120-move rule, no extra move), which contradicts Büttgenbach's rules.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from ludoteca.core.array_state import KernelGame
from ludoteca.core.errors import InvalidOptionError
from ludoteca.core.info import (
    BenchRow,
    GameInfo,
    LevelSetting,
    PieceStyle,
    RegionStyle,
    View,
    levels_with,
)
from ludoteca.core.options import OPTION_MAXIMUM, OptionSpec
from ludoteca.games.salta import heuristics, view
from ludoteca.games.salta import kernels as k
from ludoteca.games.salta.position import read_position
from ludoteca.games.salta.state import SaltaMove, SaltaState

__all__ = ["SaltaGame", "SaltaMove", "SaltaState"]


def _squares(names: str) -> list[int]:
    return [(int(name[1:]) - 1) * k.WIDTH + "abcdefghij".index(name[0]) for name in names.split()]


# Green's pieces in piece order (Stars 1-5, Moons 1-5, Suns 1-5); Red's are the 180° rotation.
GREEN_START = _squares("a1 c1 e1 g1 i1 b2 d2 f2 h2 j2 a3 c3 e3 g3 i3")
GREEN_SEED_GOAL = _squares("b8 d8 f8 h8 j8 a9 c9 e9 g9 i9 b10 d10 f10 h10 j10")


def _rotated(squares: list[int]) -> list[int]:
    return [k.NUM_SQUARES - 1 - square for square in squares]


START_SQUARES = np.array([GREEN_START, _rotated(GREEN_START)], dtype=np.int64)
GOALS = {
    "seed": np.array([GREEN_SEED_GOAL, _rotated(GREEN_SEED_GOAL)], dtype=np.int64),
    "ludii": np.array([START_SQUARES[1], START_SQUARES[0]], dtype=np.int64),
}


class SaltaGame(KernelGame):
    """Salta with one choice of options; see the module docstring for the rules."""

    kernels: ClassVar[ModuleType] = k
    id: ClassVar[str] = "salta"
    name: ClassVar[str] = "Salta"
    version: ClassVar[int] = 2
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("Green", "Red")
    num_actions: ClassVar[int] = k.NUM_ACTIONS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "goal",
            "seed",
            "Goal squares: 'seed' = seven ranks ahead in mirrored order; 'ludii' = the start "
            "squares of the opposite pieces.",
            choices=("seed", "ludii"),
        ),
        OptionSpec(
            "move_limit",
            120,
            "Moves per player before the 120-move rule starts the scoring phase (none: no limit).",
            minimum=1,
            maximum=OPTION_MAXIMUM,
            allow_none=True,
        ),
        OptionSpec(
            "scoring",
            "played",
            "Scoring phase: 'played' = race home ignoring the opponent, fewer moves wins; "
            "'simplified' = sum of distances to goal, lower wins.",
            choices=("played", "simplified"),
        ),
        OptionSpec(
            "scoring_cap",
            400,
            "Engine safeguard: moves per player in the played scoring phase before the remaining "
            "distance is added to the count.",
            minimum=1,
            maximum=OPTION_MAXIMUM,
        ),
        OptionSpec(
            "max_plies",
            10_000,
            "Engine safeguard: a game without a result after this many plies is a draw.",
            minimum=1,
            maximum=OPTION_MAXIMUM,
        ),
    )
    info: ClassVar[GameInfo] = GameInfo(
        rollout_plies=10,
        # Long games (about 180 decisions a side): smaller budgets than the default.
        levels=levels_with(
            {
                4: LevelSetting("strong: MCTS 2,000 iterations", "mcts", 2000),
                5: LevelSetting("strongest: MCTS 5,000 iterations", "mcts", 5000),
            }
        ),
        evaluate=heuristics.evaluate,
        search_leaf=heuristics.search_leaf,
        view=View.of(view),
        piece_styles=(
            PieceStyle("green", "#1f7a3a", text="#fff"),
            PieceStyle("red", "#b02a24", text="#fff"),
        ),
        # Pieces stand on the dark squares: a lighter wood than the shared one, so that both
        # colours stand out from it by WCAG's 3:1 or more.
        region_styles=(RegionStyle("dark", "#dcc9a3"),),
        lessons=Path(__file__).with_name("lessons.toml"),
        puzzles=Path(__file__).with_name("puzzles.json"),
        bench_rows=(
            BenchRow(
                {"scoring": "simplified"},
                "play phase",
                "the play phase alone: simplified scoring ends each game at the 120-move rule, "
                "without the long scoring phase that makes up most plies of the default row",
            ),
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        move_limit = self._options["move_limit"]
        if isinstance(move_limit, int) and 2 * move_limit > int(self._options["max_plies"] or 0):
            raise InvalidOptionError(
                f"max_plies ({self._options['max_plies']}) must be at least twice move_limit "
                f"({move_limit}), or the safeguard would end the game before the 120-move rule"
            )
        params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        params[k.P_SCORING_START] = -1 if move_limit is None else 2 * int(move_limit)
        params[k.P_SCORING_MODE] = (
            k.SCORING_PLAYED if self._options["scoring"] == "played" else k.SCORING_SIMPLIFIED
        )
        params[k.P_SCORING_CAP] = int(self._options["scoring_cap"] or 0)
        params[k.P_MAX_PLIES] = int(self._options["max_plies"] or 0)
        params.flags.writeable = False
        self.params: npt.NDArray[np.int64] = params
        self.goals: npt.NDArray[np.int64] = GOALS[str(self._options["goal"])]
        self.kernel_args = (self.params, self.goals)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(39, 10, 10)``: the planes of docs/rl.md, from the observer's side of the board."""
        return (k.NUM_OBS_PLANES, k.WIDTH, k.WIDTH)

    @property
    def num_chance_outcomes(self) -> int:
        """0: Salta has no chance."""
        return 0

    @property
    def max_game_length(self) -> int:
        """The plies before the 120-move rule, plus the played scoring phase if there is one.

        In the played scoring phase each side makes at most ``scoring_cap`` counted moves, and
        a finished side's uncounted passes alternate with the other side's moves. Without the
        move limit, ``max_plies``.
        """
        start = int(self.params[k.P_SCORING_START])
        if start < 0:
            return int(self.params[k.P_MAX_PLIES])
        if self.params[k.P_SCORING_MODE] == k.SCORING_SIMPLIFIED:
            return start
        return start + 2 * int(self.params[k.P_SCORING_CAP])

    def initial_state(self) -> SaltaState:
        """The start position, Green to move."""
        cells = np.zeros(k.CELLS_SIZE, dtype=np.int32)
        for side in (k.GREEN, k.RED):
            for piece, square in enumerate(START_SQUARES[side]):
                k.put_piece(cells, side, piece, square)
        k.settle(cells, self.params, self.goals)
        return SaltaState(self, cells)

    def parse_state(self, text: str) -> SaltaState:
        """Read position text written by `SaltaState.to_text`.

        Raises:
            InvalidStateError: What is wrong with the text, and the expected form.
        """
        return SaltaState(self, read_position(self, text))

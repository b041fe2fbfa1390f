"""Pente Grammai ("Five Lines"): the ancient Greek dice race, as Ulrich Schädler plays it.

Rules in brief (full text in docs/rules/pente_grammai.md): two players, White and Blue, five
counters each, all in hand at the start, and one die. The board is five parallel lines with a
point at each end, ten points on one circuit that both sides travel counter-clockwise. Each turn
begins with a roll (an explicit chance node). A counter in hand must enter if it can: a 1-5 on
the mover's own point of that number, a 6 on the opponent's point 1. Otherwise one counter on
the board moves exactly that many points, passing over others, to a point that can take it; if
nothing can move, the turn is passed. An ordinary point holds one counter; the two ends of the
middle line, the sacred line, hold any number. Whoever first has all five counters on the far
end of the sacred line (White on B3, Blue on W3), reached only by an exact landing, wins.

Sources: Ulrich Schädler's reconstruction, in a retelling of his rules for play; the Locus Ludi
project's knock-off mode (option ``capture``); a Ludii-like storage reading (option
``sacred="storage"``). docs/rules/pente_grammai.md says which readings are ours and why.

The board, as White sees it (the circuit runs W1 > W2 > ... > W5 > B1 > ... > B5 > W1)::

                             Blue
      B1 [    .     ]----------------------[    .     ] W5
      B2 [    .     ]----------------------[    .     ] W4
      B3 [    .     ]==== sacred line =====[    .     ] W3
      B4 [    .     ]----------------------[    .     ] W2
      B5 [    .     ]----------------------[    .     ] W1
                            White

Notation: die rolls ``d1`` … ``d6``; who starts ``first-0`` / ``first-1``; ``hand-W4`` (enter a
counter on W4), ``W4-B2`` (move the counter on W4 to B2), ``pass``. Position text: see
`ludoteca.games.pente_grammai.state`.

Options:
    first: ``"random"`` (default; a chance node draws who starts), ``0`` (White) or ``1`` (Blue).
    sacred: ``"schaedler"`` (default; sacred points hold any number of counters and counters on
        the goal stay in play) or ``"storage"`` (a counter landing exactly on the empty goal
        leaves the circuit for a store; sacred points hold one counter).
    capture: ``False`` (default) or ``True`` (Locus Ludi knock-off mode: landing on an
        opponent's counter on an ordinary point sends it back to its owner's hand).
    start: ``"hand"`` (default; every counter starts in hand) or ``"schaedler"`` (White on
        W1-W5, Blue on B1-B5).
    max_plies: engine safeguard (default 10,000 plies, rolls included: a draw).

Engine safeguards beyond the rules: ``max_plies``, and a draw at once when no roll can ever give
either side a move again (only ``sacred="storage"`` can freeze like that).

Not implemented, deliberately: two dice, extra rolls and storing counters by default (found in
some modern retellings and in Ludii), which Schädler's reconstruction does not have.
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
    LearnedPlayer,
    LevelSetting,
    PieceStyle,
    RegionStyle,
    View,
)
from ludoteca.core.options import OPTION_MAXIMUM, OptionSpec
from ludoteca.games.pente_grammai import heuristics, view
from ludoteca.games.pente_grammai import kernels as k
from ludoteca.games.pente_grammai.position import read_position
from ludoteca.games.pente_grammai.solver import exact_move_values, expert_move
from ludoteca.games.pente_grammai.state import PenteGrammaiMove, PenteGrammaiState

__all__ = ["PenteGrammaiGame", "PenteGrammaiMove", "PenteGrammaiState"]


class PenteGrammaiGame(KernelGame):
    """Pente Grammai with one choice of options; see the module docstring for the rules."""

    kernels: ClassVar[ModuleType] = k
    id: ClassVar[str] = "pente_grammai"
    name: ClassVar[str] = "Pente Grammai"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("White", "Blue")
    num_actions: ClassVar[int] = k.NUM_ACTIONS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "first",
            "random",
            "Who starts: 'random' = drawn at a chance node before the first roll; 0 = White; "
            "1 = Blue.",
            choices=("random", 0, 1),
        ),
        OptionSpec(
            "sacred",
            "schaedler",
            "The sacred points: 'schaedler' = they hold any number of counters and counters on "
            "the goal stay in play; 'storage' = a counter landing exactly on the empty goal is "
            "stored off the circuit for good, and a sacred point holds one counter.",
            choices=("schaedler", "storage"),
        ),
        OptionSpec(
            "capture",
            False,
            "Knock-off mode (Locus Ludi): landing on an opponent's counter on an ordinary point "
            "sends it back to its owner's hand.",
        ),
        OptionSpec(
            "start",
            "hand",
            "Where the counters start: 'hand' = all in hand; 'schaedler' = White on W1-W5 and "
            "Blue on B1-B5.",
            choices=("hand", "schaedler"),
        ),
        OptionSpec(
            "max_plies",
            10_000,
            "Engine safeguard: a game without a result after this many plies (die rolls "
            "included) is a draw.",
            minimum=1,
            maximum=OPTION_MAXIMUM,
        ),
    )
    info: ClassVar[GameInfo] = GameInfo(
        rollout_plies=10,
        # Solved: every level plays perfectly, but for its random moves.
        levels=(
            LevelSetting("beginner: a random move one time in two", "expert", 0, 0.5),
            LevelSetting("casual: a random move one time in four", "expert", 0, 0.25),
            LevelSetting("club: a random move one time in ten", "expert", 0, 0.1),
            LevelSetting("strong: a random move one time in 25", "expert", 0, 0.04),
            LevelSetting("strongest: perfect play (the game is solved)", "expert", 0),
        ),
        evaluate=heuristics.evaluate,
        search_leaf=heuristics.search_leaf,
        expert=expert_move,
        exact_values=exact_move_values,
        # A network trained by self-play (docs/ai.md); perfect play is level 5, so no level 6.
        learned=LearnedPlayer(weights=Path(__file__).with_name("network.npz"), iterations=400),
        lessons=Path(__file__).with_name("lessons.toml"),
        puzzles=Path(__file__).with_name("puzzles.json"),
        view=View.of(view),
        piece_styles=(PieceStyle("white", "#ffffff"), PieceStyle("blue", "#1b2a4a", text="#fff")),
        # White and dark blue pieces share every place: mid-tone places that both stand out
        # from by WCAG's 3:1 or more.
        region_styles=(
            RegionStyle("point", "#a09070"),
            RegionStyle("sacred", "#b08a30"),
            RegionStyle("hand", "#7f8fa3"),
        ),
        bench_rows=(
            BenchRow(
                {"sacred": "storage"},
                "storage",
                "the storage reading (sacred=storage), the one closest to Ludii's: a counter "
                "leaves the circuit on reaching its goal and every point holds one counter, so "
                "games are short",
            ),
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        opts = self._options
        if opts["sacred"] == "storage" and opts["start"] == "schaedler" and not opts["capture"]:
            raise InvalidOptionError(
                "sacred=storage with start=schaedler fills all ten one-counter points, so no "
                "counter could ever move; use capture=true, sacred=schaedler or start=hand"
            )
        params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        params[k.P_SACRED] = k.SACRED_STORAGE if opts["sacred"] == "storage" else 0
        params[k.P_CAPTURE] = 1 if opts["capture"] else 0
        params[k.P_MAX_PLIES] = int(opts["max_plies"] or 0)
        params[k.P_FIRST] = k.NO_SIDE if opts["first"] == "random" else int(opts["first"] or 0)
        params[k.P_START] = k.START_SCHAEDLER if opts["start"] == "schaedler" else k.START_HAND
        params.flags.writeable = False
        self.params: npt.NDArray[np.int64] = params
        self.kernel_args = (self.params,)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(14, 10)``: the rows of docs/rl.md over the ten points, the observer's W1 first."""
        return (k.NUM_PLANES, k.NUM_POINTS)

    @property
    def num_chance_outcomes(self) -> int:
        """8: the rolls ``d1``..``d6`` (0..5), then ``first-0`` and ``first-1`` (6, 7)."""
        return int(k.NUM_CHANCE_OUTCOMES)

    @property
    def max_game_length(self) -> int:
        """``max_plies``: the ply count includes the rolls and the first-player draw."""
        return int(self.params[k.P_MAX_PLIES])

    def initial_state(self) -> PenteGrammaiState:
        """The start: who starts drawn (or fixed by ``first``), then White's or Blue's roll."""
        return PenteGrammaiState(self, k.initial_cells(self.params))

    def parse_state(self, text: str) -> PenteGrammaiState:
        """Read position text written by `PenteGrammaiState.to_text`.

        Raises:
            InvalidStateError: What is wrong with the text, and the expected form.
        """
        return PenteGrammaiState(self, read_position(self, text))

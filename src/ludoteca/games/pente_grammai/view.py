"""What the terminal draws for a Pente Grammai position: the five lines, counts and whose turn.

The board is drawn as White sees it, sitting below it: the five lines run across, White's points
W1..W5 are their right-hand ends (W1 nearest White) and Blue's B1..B5 their left-hand ends (B1
nearest Blue). The middle line is the sacred line::

                             Blue
      B1 [    .     ]----------------------[    .     ] W5
      B2 [    .     ]----------------------[    .     ] W4
      B3 [    .     ]==== sacred line =====[    .     ] W3
      B4 [    .     ]----------------------[    .     ] W2
      B5 [    .     ]----------------------[    .     ] W1
                            White

Each point shows its counters, ``w`` for White and ``b`` for Blue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ludoteca.games.pente_grammai import kernels as k
from ludoteca.games.pente_grammai.state import POINT_NAMES, SIDE_NAMES

if TYPE_CHECKING:
    from ludoteca.games.pente_grammai.state import PenteGrammaiState

CELL_WIDTH = 10  # five counters of each side fit on a sacred point
ORDINARY_LINE = "-" * 22
SACRED_LINE = "==== sacred line ====="
CIRCUIT = " > ".join((*POINT_NAMES, POINT_NAMES[0]))


def _cell(state: PenteGrammaiState, point: str) -> str:
    white, blue = state.counters(point)
    return f"[{('w' * white + 'b' * blue or '.'):^{CELL_WIDTH}}]"


def render_board(state: PenteGrammaiState) -> str:
    """The diagram, the circuit, the counters in hand and home, then whose turn or the result."""
    lines = [f"{'Blue':^{CELL_WIDTH * 2 + 34}}".rstrip()]
    for line in range(5):  # from Blue's side (line 5) down to White's (line 1)
        left, right = POINT_NAMES[5 + line], POINT_NAMES[4 - line]
        bar = SACRED_LINE if line == 2 else ORDINARY_LINE
        lines.append(f"  {left} {_cell(state, left)}{bar}{_cell(state, right)} {right}")
    lines.append(f"{'White':^{CELL_WIDTH * 2 + 34}}".rstrip())
    lines.append(f"Circuit: {CIRCUIT}")
    lines.append(" · ".join(_side_summary(state, side) for side in (k.WHITE, k.BLUE)))
    lines.append(status_line(state))
    return "\n".join(lines)


def _side_summary(state: PenteGrammaiState, side: int) -> str:
    goal = POINT_NAMES[int(k.GOAL[side])]
    if state.game.options["sacred"] == "storage":
        home = f"{state.stored(side)} stored from {goal}"
    else:
        home = f"{state.home(side)} home on {goal}"
    return f"{SIDE_NAMES[side]}: {state.hand(side)} in hand, {home}"


def status_line(state: PenteGrammaiState) -> str:
    """One line: the result, or whose turn and what it is: a draw, a roll or a move."""
    outcome = state.outcome
    if outcome is not None:
        winner = "Draw" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
        return f"{winner}: {outcome.reason}."
    side, die = state.side, state.die
    if side is None:
        return "Who starts is drawn: first-0 (White) or first-1 (Blue)."
    name = SIDE_NAMES[side]
    if die is None:
        return f"{name} to roll the die (d1 … d6), ply {state.ply + 1}."
    moves = [move.text for move in state.legal_moves()]
    if moves == ["pass"]:
        return f"{name} rolled a {die} and can neither enter nor move: pass."
    return f"{name} rolled a {die}. Legal moves: {', '.join(moves)}"

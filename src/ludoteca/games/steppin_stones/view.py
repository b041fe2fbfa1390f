"""What the terminal shows of a Steppin' Stones position: the board, the suits, the dice.

The board uses the tokens of the position text (``S2`` a coin showing its value, ``s`` a Sun
stepping stone, ``SP`` the Sun pawn, ``SP+s`` the pawn on a stone, ``S*`` an ace, ``#`` the hole)
and puts the spaces of the home tiles in brackets (``[S]`` an empty space of the Suns' home
tile). Below it, one line per suit says its phase, and the dice section says which dice are in
which phase this turn and what each die still left can do.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from ludoteca.core.grids import FILE_LETTERS
from ludoteca.games.steppin_stones import cells as c
from ludoteca.games.steppin_stones.layout import SUIT_NAME, SUIT_NAMES, SUITS
from ludoteca.games.steppin_stones.notation import cell_token, face_text, roll_example

if TYPE_CHECKING:
    from ludoteca.games.steppin_stones.state import SteppinStonesState

CELL_WIDTH = 6
KEY = (
    "Key: S2 coin showing its value · s stepping stone · SP pawn · SP+s pawn on its stone · "
    "S* ace · [S] home tile · # hole"
)


def render(state: SteppinStonesState) -> str:
    """The whole picture: board, suits, dice and what comes next."""
    return "\n".join([*board_lines(state), KEY, *suit_lines(state), *dice_lines(state)])


def board_lines(state: SteppinStonesState) -> list[str]:
    """The board with file letters and rank numbers, rank 8 (or 10) at the top."""
    layout = state.layout
    size = layout.size
    files = "    " + "".join(letter.center(CELL_WIDTH) for letter in FILE_LETTERS[:size])
    lines = [f"Steppin' Stones · turn {state.turn}", files.rstrip()]
    coins, pawns = _contents(state)
    for rank in range(size - 1, -1, -1):
        cells = []
        for file in range(size):
            square = rank * size + file
            token = cell_token(coins[square], pawns[square])
            home = layout.home_of[square]
            if square in layout.hole_set and token == ".":
                token = "#"
            elif home is not None:
                token = f"[{SUITS[home] if token == '.' else token}]"
            cells.append(token.center(CELL_WIDTH))
        lines.append(f"{rank + 1:>2}  {''.join(cells)}  {rank + 1}".rstrip())
    lines.append(files.rstrip())
    return lines


def _contents(state: SteppinStonesState) -> tuple[list[int], list[int]]:
    """The coin code and the pawn (suit + 1, or 0) on each square."""
    squares = state.layout.num_squares
    cells = state.cells
    return cells[c.COIN_AT : c.COIN_AT + squares].tolist(), cells[
        c.PAWN_AT : c.PAWN_AT + squares
    ].tolist()


def suit_lines(state: SteppinStonesState) -> list[str]:
    """One line per suit: its phase, its coins still showing a value, or its pawn."""
    layout = state.layout
    coins, _ = _contents(state)
    showing: list[list[int]] = [[] for _ in range(c.NUM_SUITS)]
    for code in coins:
        if c.is_value_coin(code):
            showing[c.coin_suit(code)].append(c.coin_value(code))
    lines = []
    for suit in range(c.NUM_SUITS):
        label = f"{SUIT_NAMES[suit]:<7}"
        phase = state.phase(suit)
        values = sorted(showing[suit])
        if phase == c.RETIRED:
            lines.append(f"{label}home: retired, its die has left play")
        elif phase == c.PHASE_ONE:
            shown = " ".join(f"{SUITS[suit]}{v}" for v in values)
            lines.append(
                f"{label}phase 1: {5 - len(values)} of 5 coins are stones; to turn: {shown}"
            )
        else:
            pawn = layout.name(state.pawn_square(suit))
            lines.append(f"{label}phase 2: all five coins are stones; pawn on {pawn}")
    return lines


def dice_lines(state: SteppinStonesState) -> list[str]:
    """Which dice are in which phase this turn, and what each one left can still do."""
    outcome = state.outcome
    if outcome is not None:
        verdict = "Won" if outcome.winner == 0 else "Lost"
        return [f"{verdict}: {outcome.reason}."]
    stage = state.stage
    if stage == c.ROLL1:
        lines = [f"Next: roll the phase-1 dice: {_names(state.rolling_suits)}{_typed(state)}."]
    elif stage == c.PLAY1:
        lines = ["Phase-1 dice (colour does not matter, except for the suit face *):"]
        lines += _phase_one_dice(state)
    elif stage == c.ROLL2:
        return [f"Next: roll the phase-2 dice: {_names(state.phase_two_dice)}{_typed(state)}."]
    else:
        lines = ["Phase-2 dice (steps left, spent on that suit's stones and pawn):"]
        lines += _phase_two_dice(state)
        lines.append("Type a move, or end to finish the turn (or resign).")
        return lines
    later = state.phase_two_dice
    lines.append(
        f"Phase-2 dice this turn: {_names(later)}, rolled after phase 1."
        if later
        else "No phase-2 dice this turn."
    )
    if stage == c.PLAY1:
        lines.append("Type a move, or end to finish phase 1 (or resign).")
    return lines


def _typed(state: SteppinStonesState) -> str:
    """How a roll of real dice is typed in, e.g. `` (typed like S* M0 C4 A2)``."""
    return f" (typed like {roll_example(state.rolling_suits)})"


def _names(suits: tuple[int, ...]) -> str:
    return ", ".join(SUIT_NAMES[suit] for suit in suits) or "none"


def _phase_one_dice(state: SteppinStonesState) -> list[str]:
    moves_by_coin: dict[str, list[str]] = defaultdict(list)
    flips = []
    for move in state.legal_moves():
        if move.text.startswith("flip:"):
            flips.append(move.text)
        elif ":" in move.text:
            coin, _, path = move.text.partition(":")
            moves_by_coin[coin].append(path.partition("-")[2])
    lines = []
    for suit in range(c.NUM_SUITS):
        die = state.phase_one_die(suit)
        if die is None:
            continue
        face, used = die
        label = f"  {SUITS[suit]}{face_text(face)}  "
        if face == c.FACE_NULL:
            lines.append(f"{label}null: does nothing")
        elif used:
            lines.append(
                f"{label}used" if face != c.FACE_SUIT else f"{label}honoured: a coin turned"
            )
        elif face == c.FACE_SUIT:
            lines.append(
                f"{label}must turn a {SUIT_NAME[suit]} coin into a stone: {' '.join(sorted(flips))}"
            )
        else:
            options = [
                f"{coin} -> {' '.join(targets)}"
                for coin, targets in moves_by_coin.items()
                if coin[1] == str(face)
            ]
            can = "; ".join(options) if options else "no coin showing it can move"
            lines.append(f"{label}may move one coin showing {face} exactly {face} steps: {can}")
    return lines


def _phase_two_dice(state: SteppinStonesState) -> list[str]:
    names = state.layout.names
    coins, pawns = _contents(state)
    targets: dict[tuple[int, str], list[str]] = defaultdict(list)
    keys: dict[int, tuple[int, str]] = {}
    for move in state.legal_moves():
        if move.index >= c.FLIP_BASE:
            continue
        origin, destination = divmod(move.index, c.STRIDE)
        key = keys.get(origin)
        if key is None:
            if pawns[origin]:
                key = (pawns[origin] - 1, f"pawn {names[origin]}")
            else:
                key = (c.coin_suit(coins[origin]), f"stone {names[origin]}")
            keys[origin] = key
        targets[key].append(names[destination])
    lines = []
    for suit in state.phase_two_dice:
        pieces = [f"{who} -> {' '.join(to)}" for (s, who), to in targets.items() if s == suit]
        can = "; ".join(pieces) if pieces else "nothing of theirs can move"
        lines.append(f"  {SUIT_NAMES[suit]:<7}{state.budget(suit)} left: {can}")
    if not lines:
        lines.append("  none left in play")
    return lines

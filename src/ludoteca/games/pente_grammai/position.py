"""Pente Grammai position text, and the terminal's board diagram.

Position text: eight fields separated by spaces::

    <W1>/<W2>/<W3>/<W4>/<W5>/<B1>/<B2>/<B3>/<B4>/<B5> <White in hand> <Blue in hand>
    <White stored> <Blue stored> <side> <die> <plies>

(one line in reality). The ten points are written in circuit order, each as ``.`` when empty or
one letter per counter, ``w`` for White and ``b`` for Blue, White's first (``wwb`` on a sacred
point). The stored counts are 0 unless ``sacred="storage"``. ``side`` is whose turn it is (``w``
or ``b``; ``-`` before the first player is drawn), ``die`` the roll of this turn (``1`` to ``6``;
``-`` while it is still to be rolled), and ``plies`` the moves applied so far, die rolls and the
first-player draw included. The start with the default options::

    ./././././././././. 5 5 0 0 - - 0
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

import numpy as np

from ludoteca.core.array_state import Cells
from ludoteca.core.errors import InvalidStateError
from ludoteca.games.pente_grammai import kernels as k

if TYPE_CHECKING:
    from ludoteca.games.pente_grammai import PenteGrammaiGame
    from ludoteca.games.pente_grammai.state import PenteGrammaiState

SIDE_NAMES = ("White", "Blue")
SIDE_LETTERS = ("w", "b")
POINT_NAMES = ("W1", "W2", "W3", "W4", "W5", "B1", "B2", "B3", "B4", "B5")
_CELL = re.compile(r"\.|w*b*")


def point_index(name: str) -> int:
    """The index (0..9, circuit order) of a point name such as ``"W4"``."""
    return POINT_NAMES.index(name)


def position_text(state: PenteGrammaiState) -> str:
    """The canonical one-line position text (see the module docstring)."""
    cells = []
    for point in POINT_NAMES:
        white, blue = state.counters(point)
        cells.append("w" * white + "b" * blue or ".")
    side = "-" if state.side is None else SIDE_LETTERS[state.side]
    die = "-" if state.die is None else str(state.die)
    return (
        f"{'/'.join(cells)} {state.hand(k.WHITE)} {state.hand(k.BLUE)} "
        f"{state.stored(k.WHITE)} {state.stored(k.BLUE)} {side} {die} {state.ply}"
    )


# -- the terminal's diagram (see `ludoteca.games.pente_grammai.view` for its picture) ------------

CELL_WIDTH = 10  # five counters of each side fit on a sacred point
ORDINARY_LINE = "-" * 22
SACRED_LINE = "==== sacred line ====="
CIRCUIT = " > ".join((*POINT_NAMES, POINT_NAMES[0]))


def _cell(state: PenteGrammaiState, point: str, marked: Collection[str] = frozenset()) -> str:
    white, blue = state.counters(point)
    counters = "w" * white + "b" * blue or "."
    if point in marked:  # the last move's origin or target: arrows inside the box
        return f"[>{counters:^{CELL_WIDTH - 2}}<]"
    return f"[{counters:^{CELL_WIDTH}}]"


def board_text(state: PenteGrammaiState, *, marked: Collection[str] = frozenset()) -> str:
    """The terminal's board: the points in ``marked`` shown with arrows (``[>  w   <]``)."""
    return render_board(state, marked=marked)


def render_board(state: PenteGrammaiState, *, marked: Collection[str] = frozenset()) -> str:
    """The diagram, the circuit, the counters in hand and home, then whose turn or the result.

    The points named in ``marked`` are shown with arrows inside their box (``[>  w   <]``).
    """
    lines = [f"{'Blue':^{CELL_WIDTH * 2 + 34}}".rstrip()]
    for line in range(5):  # from Blue's side (line 5) down to White's (line 1)
        left, right = POINT_NAMES[5 + line], POINT_NAMES[4 - line]
        bar = SACRED_LINE if line == 2 else ORDINARY_LINE
        cells = _cell(state, left, marked), _cell(state, right, marked)
        lines.append(f"  {left} {cells[0]}{bar}{cells[1]} {right}")
    lines.append(f"{'White':^{CELL_WIDTH * 2 + 34}}".rstrip())
    lines.append(f"Circuit: {CIRCUIT}")
    lines.append(" · ".join(side_summary(state, side) for side in (k.WHITE, k.BLUE)))
    lines.append(status_line(state))
    return "\n".join(lines)


def side_summary(state: PenteGrammaiState, side: int) -> str:
    """What one side has in hand and home (or stored), as a phrase."""
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


def read_position(game: PenteGrammaiGame, text: str) -> Cells:
    """Read position text (see the module docstring) and check that the position can occur.

    Returns the position array, settled; `PenteGrammaiGame.parse_state` makes the state of it.

    Raises:
        InvalidStateError: What is wrong with the text, and the expected form.
    """
    if not isinstance(text, str):
        raise InvalidStateError(f"Pente Grammai position text must be a string; got {text!r}")
    form = (
        "'<10 points W1..B5 separated by /> <White in hand> <Blue in hand> <White stored> "
        "<Blue stored> <side w|b|-> <die 1-6|-> <plies>'"
    )
    fields = text.split()
    if len(fields) != 8:
        raise InvalidStateError(f"position text has {len(fields)} fields; expected 8: {form}")
    board, *counts, side_text, die_text, ply_text = fields
    cells = np.zeros(k.CELLS_SIZE, dtype=np.int32)
    _read_points(game, board, cells)
    _read_counts(game, counts, cells)
    _read_turn(game, side_text, die_text, ply_text, cells)
    k.settle(cells, game.params)
    return cells


def _read_points(game: PenteGrammaiGame, board: str, cells: Cells) -> None:
    points = board.split("/")
    if len(points) != k.NUM_POINTS:
        raise InvalidStateError(
            f"the board has {len(points)} points; expected 10 (W1 to B5) separated by '/'"
        )
    storage = game.options["sacred"] == "storage"
    for index, cell in enumerate(points):
        name = POINT_NAMES[index]
        if not cell or not _CELL.fullmatch(cell):
            raise InvalidStateError(
                f"point {name} ({cell!r}) must be '.' or counters such as 'w', 'b' or 'wwb' "
                "(White's first)"
            )
        white, blue = cell.count("w"), cell.count("b")
        sacred = index in (k.W3, k.B3)
        if white + blue > 1 and (not sacred or storage):
            kind = "a sacred point with sacred=storage" if sacred else "an ordinary point"
            raise InvalidStateError(f"{name} holds {white + blue} counters; {kind} holds one")
        if storage and index == int(k.GOAL[k.WHITE]) and white:
            raise InvalidStateError(
                "with sacred=storage a White counter landing on B3 is stored at once"
            )
        if storage and index == int(k.GOAL[k.BLUE]) and blue:
            raise InvalidStateError(
                "with sacred=storage a Blue counter landing on W3 is stored at once"
            )
        k.set_counters_on(cells, k.WHITE, index, white)
        k.set_counters_on(cells, k.BLUE, index, blue)


def _read_counts(game: PenteGrammaiGame, counts: list[str], cells: Cells) -> None:
    if not all(count.isdigit() for count in counts):
        raise InvalidStateError(
            f"counters in hand and stored must be whole numbers; got {' '.join(counts)!r}"
        )
    hands, stores = [int(c) for c in counts[:2]], [int(c) for c in counts[2:]]
    if any(stores) and game.options["sacred"] != "storage":
        raise InvalidStateError("stored counters exist only with sacred=storage; expected 0 0")
    for side in (k.WHITE, k.BLUE):
        on_board = int(k.point_counts(cells, side).sum())
        total = on_board + hands[side] + stores[side]
        if total != k.COUNTERS:
            raise InvalidStateError(
                f"{SIDE_NAMES[side]} has {on_board} on the board, {hands[side]} in hand and "
                f"{stores[side]} stored: {total} counters; expected 5"
            )
        k.set_in_hand(cells, side, hands[side])
        k.set_in_store(cells, side, stores[side])
    if any(hands) and game.options["start"] == "schaedler" and not game.options["capture"]:
        raise InvalidStateError(
            "with start=schaedler and no capture every counter is on the board; expected 0 0 "
            "in hand"
        )


def _read_turn(
    game: PenteGrammaiGame, side_text: str, die_text: str, ply_text: str, cells: Cells
) -> None:
    if not ply_text.isdigit():
        raise InvalidStateError(f"plies played must be a whole number; got {ply_text!r}")
    ply = int(ply_text)
    if ply > int(game.params[k.P_MAX_PLIES]):
        raise InvalidStateError(
            f"the game ends in a draw after max_plies ({game.options['max_plies']}) plies; "
            f"got {ply}"
        )
    if side_text not in ("w", "b", "-") or die_text not in ("-", "1", "2", "3", "4", "5", "6"):
        raise InvalidStateError(
            f"expected the side to move (w, b or -) and the die (1-6 or -); "
            f"got {side_text!r} {die_text!r}"
        )
    first = game.options["first"]
    drawn = 1 if first == "random" else 0  # the first-player draw takes a ply
    if first == "random" and ply == 0:
        if (side_text, die_text) != ("-", "-"):
            raise InvalidStateError("with first=random the game starts with '- -' (no roll yet)")
        cells[k.SIDE_AT] = k.NO_SIDE
        cells[k.PLY_AT] = 0
        return
    if side_text == "-":
        raise InvalidStateError(f"after {ply} plies the side to move must be w or b, not -")
    side = SIDE_LETTERS.index(side_text)
    rolled = (ply - drawn) % 2 == 1  # each turn is a roll, then a move
    if rolled != (die_text != "-"):
        expected = "a die 1-6 (the roll is made)" if rolled else "'-' (the die is to be rolled)"
        raise InvalidStateError(f"after {ply} plies the die field must be {expected}")
    if first != "random" and side != (int(first or 0) + ply // 2) % 2:
        raise InvalidStateError(
            f"with first={first} the side to move after {ply} plies is "
            f"{SIDE_LETTERS[(int(first or 0) + ply // 2) % 2]}"
        )
    cells[k.SIDE_AT] = side
    cells[k.DIE_AT] = 0 if die_text == "-" else int(die_text)
    cells[k.PLY_AT] = ply
    for winner in (k.WHITE, k.BLUE):
        if k.home_count(cells, winner, game.params) == k.COUNTERS and (
            side != 1 - winner or rolled
        ):
            raise InvalidStateError(
                f"{SIDE_NAMES[winner]} is home, so the game ended on {SIDE_NAMES[winner]}'s "
                f"move: {SIDE_LETTERS[1 - winner]} - would follow"
            )

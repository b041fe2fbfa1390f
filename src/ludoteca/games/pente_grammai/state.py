"""Pente Grammai positions, moves, notation and position text.

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
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

import numpy as np

from ludoteca.core.array_state import ArrayState, Cells
from ludoteca.core.errors import InvalidStateError
from ludoteca.core.game import Move
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.games.pente_grammai import kernels as k

if TYPE_CHECKING:
    from ludoteca.games.pente_grammai import PenteGrammaiGame

SIDE_NAMES = ("White", "Blue")
SIDE_LETTERS = ("w", "b")
POINT_NAMES = ("W1", "W2", "W3", "W4", "W5", "B1", "B2", "B3", "B4", "B5")
DICE_OUTCOMES = "d1 … d6"

_POINT = re.compile(r"([wb])([1-5])")
_CELL = re.compile(r"\.|w*b*")


def point_index(name: str) -> int:
    """The index (0..9, circuit order) of a point name such as ``"W4"``."""
    return POINT_NAMES.index(name)


@dataclass(frozen=True, slots=True)
class PenteGrammaiMove(Move):
    """A Pente Grammai move or chance outcome.

    Texts: ``d1`` … ``d6`` (the roll), ``first-0`` / ``first-1`` (who starts), ``hand-W4`` (enter
    a counter), ``W4-B2`` (move a counter), ``pass``.
    """

    @property
    def is_entry(self) -> bool:
        """Whether the move brings a counter from the hand onto the board."""
        return self.text.startswith("hand-")

    @property
    def origin(self) -> str | None:
        """The point a counter leaves, ``"hand"`` when entering, ``None`` otherwise."""
        if self.is_chance or self.text == "pass":
            return None
        return self.text.split("-")[0]

    @property
    def destination(self) -> str | None:
        """The point a counter lands on (``None`` for a pass or a chance outcome)."""
        if self.is_chance or self.text == "pass":
            return None
        return self.text.split("-")[1]


class PenteGrammaiState(ArrayState):
    """A Pente Grammai position; `PenteGrammaiGame.initial_state` or `parse_state` builds one."""

    __slots__ = ()

    move_class = PenteGrammaiMove
    move_forms: ClassVar[str] = (
        "d1 … d6 (the die), first-0 / first-1 (who starts), hand-W4 (enter a counter), "
        "W4-B2 (move a counter), pass"
    )
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(
        r"d[1-6]|first-[01]|hand-[WB][1-5]|[WB][1-5]-[WB][1-5]|pass"
    )

    @property
    def game(self) -> PenteGrammaiGame:
        """The game (rules and options) this position belongs to."""
        return cast("PenteGrammaiGame", self._game)

    # -- moves and their text -------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if self.side is None:
            return f"first-{action - k.FIRST_0}"
        die = self.die
        if die is None:
            return f"d{action + 1}"
        if action == k.PASS:
            return "pass"
        if action == k.ENTER:
            return f"hand-{POINT_NAMES[int(k.ENTRY[self.side, die - 1])]}"
        return f"{POINT_NAMES[action]}-{POINT_NAMES[int(k.LANDING[action, die - 1])]}"

    def _chance_probabilities(self) -> tuple[float, ...]:
        if self.side is None:
            return (0.5, 0.5)
        return (1 / 6,) * 6

    def _normalise_move_text(self, text: str) -> str:
        compact = "".join(text.split()).lower()
        return _POINT.sub(lambda match: match[1].upper() + match[2], compact)

    # -- what the state says ------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """Moves applied so far: die rolls, the first-player draw and passes included."""
        return int(self._cells[k.PLY_AT])

    @property
    def side(self) -> int | None:
        """Whose turn it is (rolling or moving), or ``None`` before the first player is drawn."""
        side = int(self._cells[k.SIDE_AT])
        return None if side == k.NO_SIDE else side

    @property
    def die(self) -> int | None:
        """The roll of this turn (1..6), or ``None`` while the die is still to be rolled."""
        die = int(self._cells[k.DIE_AT])
        return None if die == 0 or self.side is None else die

    @property
    def to_move(self) -> int | None:
        """White (0) or Blue (1), `CHANCE` before a roll or the draw, ``None`` at the end."""
        if self._cells[k.STATUS_AT] != k.ONGOING:
            return None
        if k.is_chance_node(self._cells):
            return CHANCE
        return self.side

    def hand(self, side: int) -> int:
        """Counters of ``side`` in hand."""
        return k.in_hand(self._cells, side)

    def stored(self, side: int) -> int:
        """Counters of ``side`` in its store (only with ``sacred="storage"``)."""
        return k.in_store(self._cells, side)

    def counters(self, point: str) -> tuple[int, int]:
        """How many White and Blue counters stand on ``point`` (a name such as ``"B3"``)."""
        index = point_index(point)
        return (
            k.counters_on(self._cells, k.WHITE, index),
            k.counters_on(self._cells, k.BLUE, index),
        )

    def home(self, side: int) -> int:
        """Counters of ``side`` home: on its goal point, or stored with ``sacred="storage"``."""
        return int(k.home_count(self._cells, side, self.game.params))

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, with the reason, or ``None`` while it runs."""
        status = int(self._cells[k.STATUS_AT])
        if status == k.ONGOING:
            return None
        reason = int(self._cells[k.REASON_AT])
        if status == k.DRAW:
            if reason == k.DEADLOCK:
                return Outcome.draw(
                    2,
                    "engine safeguard: no roll can ever give either side a move again "
                    "(every point they could reach is blocked)",
                )
            return Outcome.draw(
                2, f"engine safeguard: {self.game.options['max_plies']} plies without a result"
            )
        winner = k.WHITE if status == k.WHITE_WINS else k.BLUE
        goal = POINT_NAMES[int(k.GOAL[winner])]
        if self.game.options["sacred"] == "storage":
            return Outcome.win(winner, 2, f"{SIDE_NAMES[winner]} stored all five counters")
        return Outcome.win(winner, 2, f"{SIDE_NAMES[winner]} has all five counters on {goal}")

    # -- why a well-formed move is refused ------------------------------------------------------

    def _legal_list(self) -> str:
        return ", ".join(move.text for move in self.legal_moves())

    def _why_illegal(self, text: str) -> str:
        side = self.side
        if side is None:
            return f"{text}: who starts is drawn first (first-0 for White, first-1 for Blue)"
        name = SIDE_NAMES[side]
        if text.startswith("first-"):
            return f"{text}: who starts was decided already ({SIDE_NAMES[side]} has the turn)"
        die = self.die
        if die is None:
            return f"{text}: {name}'s turn starts with a roll of the die ({DICE_OUTCOMES})"
        if text.startswith("d"):
            return (
                f"{text}: {name} has rolled a {die} already and must now move; "
                f"legal moves: {self._legal_list()}"
            )
        if text == "pass":
            return (
                f"pass is only allowed when {name} can neither enter nor move a counter; "
                f"legal moves: {self._legal_list()}"
            )
        origin, destination = text.split("-")
        if origin == "hand":
            return self._why_not_entering(side, die, destination)
        return self._why_not_moving(side, die, text, origin, destination)

    def _entry_phrase(self, side: int, die: int) -> str:
        entry = POINT_NAMES[int(k.ENTRY[side, die - 1])]
        if die == 6:
            return f"a 6 enters on {entry}, the opponent's point 1"
        return f"a {die} enters on {entry}"

    def _why_not_entering(self, side: int, die: int, destination: str) -> str:
        name = SIDE_NAMES[side]
        text = f"hand-{destination}"
        if self.hand(side) == 0:
            return f"{text}: {name} has no counters in hand; legal moves: {self._legal_list()}"
        entry = POINT_NAMES[int(k.ENTRY[side, die - 1])]
        if destination != entry:
            return f"{text}: for {name} {self._entry_phrase(side, die)}, not on {destination}"
        return (
            f"{text}: {self._blocked_because(side, entry)}, so {name} cannot enter and must move "
            f"a counter instead; legal moves: {self._legal_list()}"
        )

    def _why_not_moving(self, side: int, die: int, text: str, origin: str, destination: str) -> str:
        name = SIDE_NAMES[side]
        origin_index = point_index(origin)
        if k.counters_on(self._cells, side, origin_index) == 0:
            stored = ""
            if origin_index == int(k.GOAL[side]) and self.stored(side) > 0:
                stored = " (stored counters stay in the store for good)"
            return f"{text}: there is no {name} counter on {origin}{stored}"
        landing = POINT_NAMES[int(k.LANDING[origin_index, die - 1])]
        if destination != landing:
            return f"{text}: with a {die} the counter on {origin} goes to {landing}"
        entry = POINT_NAMES[int(k.ENTRY[side, die - 1])]
        if self.legal_moves()[0].text == f"hand-{entry}":
            return (
                f"{text}: entering has priority; {name} has counters in hand and "
                f"{self._entry_phrase(side, die)}, so the move is hand-{entry}"
            )
        return f"{text}: {self._blocked_because(side, landing)}; legal moves: {self._legal_list()}"

    def _blocked_because(self, side: int, point: str) -> str:
        own, other = self.counters(point)
        if side == k.BLUE:
            own, other = other, own
        if point_index(point) in (k.W3, k.B3):
            return f"{point} already holds a counter (with sacred=storage a sacred point holds one)"
        if own:
            return (
                f"{point} already holds a {SIDE_NAMES[side]} counter (an ordinary point holds one)"
            )
        return (
            f"{point} holds a {SIDE_NAMES[1 - side]} counter (an ordinary point holds one, "
            "and capture is off)"
        )

    # -- text -------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The canonical one-line position text (see the module docstring)."""
        cells = []
        for point in POINT_NAMES:
            white, blue = self.counters(point)
            cells.append("w" * white + "b" * blue or ".")
        side = "-" if self.side is None else SIDE_LETTERS[self.side]
        die = "-" if self.die is None else str(self.die)
        return (
            f"{'/'.join(cells)} {self.hand(k.WHITE)} {self.hand(k.BLUE)} "
            f"{self.stored(k.WHITE)} {self.stored(k.BLUE)} {side} {die} {self.ply}"
        )

    def __str__(self) -> str:
        return render_board(self)


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


def parse_position(game: PenteGrammaiGame, text: str) -> PenteGrammaiState:
    """Read position text (see the module docstring) and check that the position can occur.

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
    return PenteGrammaiState(game, cells)


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

"""Pente Grammai positions and moves: the state, its notation and why a move is refused.

Position text is read and written in `ludoteca.games.pente_grammai.position`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

from ludoteca.core.array_state import ArrayState
from ludoteca.core.game import Move
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.games.pente_grammai import kernels as k
from ludoteca.games.pente_grammai.position import (
    POINT_NAMES,
    SIDE_NAMES,
    point_index,
    position_text,
    render_board,
)

if TYPE_CHECKING:
    from ludoteca.games.pente_grammai import PenteGrammaiGame

DICE_OUTCOMES = "d1 … d6"

_POINT = re.compile(r"([wb])([1-5])")


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

    def to_text(self) -> str:
        """The canonical one-line position text (`ludoteca.games.pente_grammai.position`)."""
        return position_text(self)

    def __str__(self) -> str:
        return render_board(self)

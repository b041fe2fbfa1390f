"""Splinter positions and moves: notation, the reasons a move is refused, and the board diagram.

Notation: ``h9-NE`` moves the piece on h9 one square north-east, pushing the unbroken line of
pieces ahead of it; the directions are ``N NE E SE S SW W NW``. When the move splits the pieces
into several largest groups of the same size, the mover names the one that stays by its first
square (in the order a1 b1 ... a2 b2 ...): ``h9-NE/k12``. ``pass`` is the move of a side that has
none. With ``first=random`` the game opens with a chance node whose outcomes are ``first-0``
(Blue starts) and ``first-1`` (Red starts). Position text: see
`ludoteca.games.splinter.position`.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

import numpy as np

from ludoteca.core.array_state import ArrayState
from ludoteca.core.game import Move
from ludoteca.core.grids import SQUARE_PATTERN, parse_square, square_name
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.games.splinter import kernels as k
from ludoteca.games.splinter.layout import TYPE_NAMES, TYPE_PLURALS
from ludoteca.games.splinter.position import (
    SIDE_NAMES,
    board_diagram,
    position_text,
    record_squares,
)

if TYPE_CHECKING:
    from ludoteca.games.splinter import SplinterGame

_DIRECTIONS = "|".join(sorted(k.DIRECTION_NAMES, key=len, reverse=True))
_MOVE = re.compile(rf"({SQUARE_PATTERN})-({_DIRECTIONS})(?:/({SQUARE_PATTERN}))?")
FIRST_PLAYER_OUTCOMES = ("first-0", "first-1")


@dataclass(frozen=True, slots=True)
class SplinterMove(Move):
    """A Splinter move: ``h9-NE``, ``h9-NE/k12``, ``pass``, or a draw ``first-0``/``first-1``."""

    @property
    def origin(self) -> str | None:
        """The square of the moving piece (``None`` for a pass or a draw)."""
        match = _MOVE.fullmatch(self.text)
        return None if match is None else match.group(1)

    @property
    def direction(self) -> str | None:
        """The direction, ``N`` to ``NW`` (``None`` for a pass or a draw)."""
        match = _MOVE.fullmatch(self.text)
        return None if match is None else match.group(2)

    @property
    def keeps(self) -> str | None:
        """The first square of the tied largest group the mover keeps, if the move chooses one."""
        match = _MOVE.fullmatch(self.text)
        return None if match is None else match.group(3)


def _pieces(n: int) -> str:
    return f"{n} piece" if n == 1 else f"{n} pieces"


def piece_name(code: int) -> str:
    """A piece's name for people, e.g. ``"Red circle"``."""
    side, kind = divmod(code - 1, k.NUM_TYPES)
    return f"{SIDE_NAMES[side]} {TYPE_NAMES[kind]}"


class SplinterState(ArrayState):
    """A Splinter position. Build one with `SplinterGame.initial_state` or `.parse_state`."""

    __slots__ = ()

    move_class = SplinterMove
    move_forms: ClassVar[str] = (
        "h9-NE (the piece on h9 moves one square north-east, pushing the pieces ahead; "
        "directions N NE E SE S SW W NW), h9-NE/k12 (the same, keeping the tied largest group "
        "whose first square is k12), pass, first-0 / first-1 (who starts, when drawn)"
    )
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(rf"{_MOVE.pattern}|pass|first-[01]")

    @property
    def game(self) -> SplinterGame:
        """The game (rules and options) this position belongs to."""
        return cast("SplinterGame", self._game)

    # -- moves and their text -------------------------------------------------------------------

    def _compute_legal_moves(self) -> tuple[Move, ...]:
        actions = self._legal_actions()
        if self.to_move == CHANCE:
            return tuple(SplinterMove(int(a), FIRST_PLAYER_OUTCOMES[int(a)], True) for a in actions)
        keeps = k.kept_first_squares(self._cells, self.game.params, self.game.nbr, actions)
        return tuple(
            SplinterMove(int(a), self._move_text(int(a), int(keep)))
            for a, keep in zip(actions, keeps, strict=True)
        )

    def _move_text(self, action: int, keep: int) -> str:
        if action == k.PASS:
            return "pass"
        move = action // k.MAX_CHOICES
        origin, direction = divmod(move, k.NUM_DIRECTIONS)
        text = f"{self._name(origin)}-{k.DIRECTION_NAMES[direction]}"
        return text if keep < 0 else f"{text}/{self._name(keep)}"

    def _action_text(self, action: int) -> str:
        for move in self.legal_moves():
            if move.index == action:
                return move.text
        return self._move_text(action, -1)

    def _chance_probabilities(self) -> tuple[float, ...]:
        return (0.5, 0.5)

    def _normalise_move_text(self, text: str) -> str:
        compact = "".join(text.split())
        head, dash, rest = compact.partition("-")
        if dash and head.lower() != "first":
            direction, slash, keep = rest.partition("/")
            return f"{head.lower()}-{direction.upper()}{slash}{keep.lower()}"
        return compact.lower()

    def _name(self, square: int) -> str:
        return square_name(square, self.game.width)

    # -- what the state says ------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """Turns played so far (passes included; the draw of the first player is not a turn)."""
        return int(self._cells[k.PLY_AT])

    @property
    def to_move(self) -> int | None:
        """Blue (0) or Red (1), `CHANCE` while the first player is drawn, ``None`` when over."""
        if self._cells[k.STATUS_AT] != k.ONGOING:
            return None
        return int(self._cells[k.TO_MOVE_AT])

    def counts(self, side: int) -> tuple[int, int, int]:
        """How many squares, crosses and circles ``side`` has on the board."""
        squares, crosses, circles = k.piece_counts(self._cells, side)
        return int(squares), int(crosses), int(circles)

    def pieces(self) -> dict[str, str]:
        """Square name -> piece letter (``S X O`` Blue, ``s x o`` Red) for every piece."""
        board = k.board_cells(self._cells)
        letters = "SXOsxo"
        return {self._name(int(sq)): letters[int(board[sq]) - 1] for sq in np.flatnonzero(board)}

    @property
    def no_return(self) -> tuple[str, tuple[str, ...]] | None:
        """What the no-return rule restricts now, or ``None`` when nothing.

        The pieces the opponent's last move displaced that are still on the board, as
        ``(the direction they moved, their squares)``.
        """
        record = record_squares(self._cells, self.game.nbr, self.game.width)
        return None if record is None else (record[0], tuple(record[1]))

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, with the reason, or ``None`` while it runs."""
        status = int(self._cells[k.STATUS_AT])
        if status == k.ONGOING:
            return None
        reason = self._reason_text(int(self._cells[k.REASON_AT]))
        if status == k.TIE:
            return Outcome.draw(2, reason)
        return Outcome.win(k.BLUE if status == k.BLUE_WINS else k.RED, 2, reason)

    def _missing(self, side: int) -> str:
        """The types ``side`` has run out of, e.g. ``"crosses"`` or ``"squares or circles"``."""
        gone = [TYPE_PLURALS[kind] for kind, n in enumerate(self.counts(side)) if n == 0]
        return gone[0] if len(gone) == 1 else f"{', '.join(gone[:-1])} or {gone[-1]}"

    def _reason_text(self, reason: int) -> str:
        if reason == k.MISSING_TYPE:
            loser = k.BLUE if 0 in self.counts(k.BLUE) else k.RED
            return f"{SIDE_NAMES[loser]} has no {self._missing(loser)} left"
        if reason == k.BOTH_MISSING:
            blue, red = sum(self.counts(k.BLUE)), sum(self.counts(k.RED))
            lost = (
                f"both sides ran out of a type in the same move (Blue has no "
                f"{self._missing(k.BLUE)}, Red no {self._missing(k.RED)})"
            )
            if blue == red:
                return f"{lost} and both have {_pieces(blue)} on the board: a tie"
            more = SIDE_NAMES[k.BLUE if blue > red else k.RED]
            return (
                f"{lost}; {more} has more pieces on the board, {max(blue, red)} to {min(blue, red)}"
            )
        return f"engine safeguard: {self.game.options['max_plies']} turns without a result"

    # -- why a well-formed move is refused ------------------------------------------------------

    def _why_illegal(self, text: str) -> str:
        if self.to_move == CHANCE:
            return (
                f"{text}: first the first player is drawn; the outcomes are first-0 (Blue "
                "starts) and first-1 (Red starts)"
            )
        side = int(self._cells[k.TO_MOVE_AT])
        name = SIDE_NAMES[side]
        if text in FIRST_PLAYER_OUTCOMES:
            return f"{text} is the draw of the first player, only at the start with first=random"
        if text == "pass":
            return f"pass is only allowed when {name} has no move"
        match = _MOVE.fullmatch(text)
        assert match is not None  # the text matched move_syntax
        origin_name, direction_name, keep_name = match.groups()
        game = self.game
        origin = parse_square(origin_name, game.width, game.height)
        if origin is None:
            last = square_name(game.width * game.height - 1, game.width)
            return f"{text}: squares run from a1 to {last}"
        code = k.board_cell(self._cells, origin)
        if code == 0:
            return f"{text}: {origin_name} is empty"
        if (code - 1) // k.NUM_TYPES != side:
            owner = SIDE_NAMES[1 - side]
            return f"{text}: the piece on {origin_name} is {owner}'s; {name} moves only its own"
        direction = k.DIRECTION_NAMES.index(direction_name)
        if game.nbr[origin, direction] < 0:
            return f"{text}: the moving piece may not leave the board"
        pushed, beyond = k.push_line(self._cells, game.nbr, origin, direction)
        back = int(
            k.returning_piece(self._cells, game.params, game.nbr, origin, direction, pushed, beyond)
        )
        if back >= 0:
            returned = piece_name(k.board_cell(self._cells, back))
            left = self._name(int(game.nbr[back, direction]))
            return (
                f"{text}: the {returned} on {self._name(back)} would go back to {left}, the "
                f"square it left on {SIDE_NAMES[1 - side]}'s last turn (the no-return rule)"
            )
        firsts = np.empty(k.NUM_DIRECTIONS, dtype=np.int64)
        n_tied, size = k.tie_firsts(self._cells, game.nbr, origin, direction, firsts)
        base = f"{origin_name}-{direction_name}"
        choices = ", ".join(f"{base}/{self._name(int(sq))}" for sq in firsts[:n_tied])
        if n_tied == 1:
            return f"{text}: this move leaves one largest group, so there is no choice; play {base}"
        if keep_name is None:
            return (
                f"{text} splits the pieces into {n_tied} largest groups of {size}; say which "
                f"stays: {choices}"
            )
        return (
            f"{text}: {keep_name} is not the first square of one of the {n_tied} tied largest "
            f"groups; say which stays: {choices}"
        )

    # -- text -------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The canonical one-line position text (see `ludoteca.games.splinter.position`)."""
        game = self.game
        return position_text(self._cells, game.nbr, game.width, game.height)

    def __str__(self) -> str:
        game = self.game
        lines = board_diagram(self._cells, game.width, game.height)
        for side, letters in ((k.BLUE, "S X O"), (k.RED, "s x o")):
            squares, crosses, circles = self.counts(side)
            lines.append(
                f"{SIDE_NAMES[side]} ({letters}): squares {squares}, crosses {crosses}, "
                f"circles {circles}"
            )
        record = self.no_return
        if record is not None and not self.is_over:
            back = k.DIRECTION_NAMES[k.opposite(k.DIRECTION_NAMES.index(record[0]))]
            lines.append(
                f"No return: the pieces on {', '.join(record[1])} moved {record[0]} last turn "
                f"and may not be pushed back {back}."
            )
        lines.append(self._status_line())
        return "\n".join(lines)

    def board_text(self, marked: Collection[str] = frozenset()) -> str:
        """The terminal's compact board (see `ludoteca.games.splinter.view.board_text`)."""
        game = self.game
        lines = board_diagram(self._cells, game.width, game.height, marked=marked)
        counts = []
        for side, letters in ((k.BLUE, "SXO"), (k.RED, "sxo")):
            numbers = zip(self.counts(side), letters, strict=True)
            counts.append(f"{SIDE_NAMES[side]} " + " ".join(f"{n}{kind}" for n, kind in numbers))
        lines.append("Pieces: " + " · ".join(counts) + " (S square, X cross, O circle)")
        record = self.no_return
        if record is not None and not self.is_over:
            back = k.DIRECTION_NAMES[k.opposite(k.DIRECTION_NAMES.index(record[0]))]
            lines.append(f"No return: {' '.join(record[1])} moved {record[0]}; not back {back}.")
        lines.append(self._status_line())
        return "\n".join(lines)

    def _status_line(self) -> str:
        outcome = self.outcome
        if outcome is not None:
            verdict = "Tie" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
            return f"{verdict}: {outcome.reason}."
        if self.to_move == CHANCE:
            return "Who starts is drawn at random: first-0 (Blue) or first-1 (Red)."
        return f"{SIDE_NAMES[self._cells[k.TO_MOVE_AT]]} to move, turn {self.ply + 1}."

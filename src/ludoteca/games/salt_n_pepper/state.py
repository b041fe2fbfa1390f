"""Salt 'n' Pepper positions, moves and notation.

Notation: ``c8-b7`` (a step), ``e5xc3`` (a leap), ``d1-home`` (a piece on the back rank moves
home), ``c2xhome`` (a leap home over a piece on the back rank), ``pass`` (a forfeited turn);
at the bag draw, ``first-0`` (Salt starts) or ``first-1`` (Pepper starts). Position text: see
`ludoteca.games.salt_n_pepper.position`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

from ludoteca.core.array_state import ArrayState
from ludoteca.core.game import Move
from ludoteca.core.grids import SQUARE_PATTERN, parse_square, square_name
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.games.salt_n_pepper import kernels as k
from ludoteca.games.salt_n_pepper.position import position_text, render_board

if TYPE_CHECKING:
    from ludoteca.games.salt_n_pepper import SaltNPepperGame

SIDE_NAMES = ("Salt", "Pepper")
DRAW_OUTCOMES = ("first-0", "first-1")
FORWARD = ((k.SW, k.SE), (k.N,))  # per side: the directions a leap home can take


def kind_of(action: int) -> int:
    """The kind of a move action (``k.HOME``, ``k.LEAP + direction`` ...; see the codec)."""
    return int(action % k.KINDS)


def origin_of(action: int) -> int:
    """The square of the piece that a move action moves."""
    return int(action // k.KINDS)


@dataclass(frozen=True, slots=True)
class SaltNPepperMove(Move):
    """A move (``c8-b7``, ``e5xc3``, ``d1-home``, ``c2xhome``, ``pass``) or a bag draw outcome."""

    @property
    def is_pass(self) -> bool:
        """Whether this is a forfeited turn."""
        return self.text == "pass"

    @property
    def origin(self) -> str | None:
        """The square the piece leaves (``None`` for a pass or a bag draw outcome)."""
        if self.is_chance or self.is_pass:
            return None
        return re.split("[-x]", self.text)[0]

    @property
    def destination(self) -> str | None:
        """The square the piece lands on; ``"home"`` off the board; ``None`` for a pass or draw."""
        if self.is_chance or self.is_pass:
            return None
        return re.split("[-x]", self.text)[1]

    @property
    def is_leap(self) -> bool:
        """Whether the piece leaps over an opponent piece (a leap home included)."""
        return not self.is_chance and "x" in self.text

    @property
    def is_home(self) -> bool:
        """Whether the piece leaves the board for home (by a move or by a leap home)."""
        return self.destination == "home"


class SaltNPepperState(ArrayState):
    """A Salt 'n' Pepper position. Build one with the game's ``initial_state``/``parse_state``."""

    __slots__ = ()

    move_class = SaltNPepperMove
    move_forms: ClassVar[str] = (
        "c8-b7 (a step), e5xc3 (a leap), d1-home (home from the back rank), c2xhome (a leap "
        "home), pass, and at the bag draw first-0 (Salt starts) or first-1 (Pepper starts)"
    )
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(
        rf"{SQUARE_PATTERN}[-x](?:{SQUARE_PATTERN}|home)|pass|first-[01]"
    )

    @property
    def game(self) -> SaltNPepperGame:
        """The game (rules and options) this position belongs to."""
        return cast("SaltNPepperGame", self._game)

    # -- moves and their text -------------------------------------------------------------------

    def _chance_probabilities(self) -> tuple[float, ...]:
        return (0.5, 0.5)

    def _action_text(self, action: int) -> str:
        if self.to_move == CHANCE:
            return DRAW_OUTCOMES[action]
        if action == k.PASS:
            return "pass"
        origin = square_name(origin_of(action), k.WIDTH)
        kind = kind_of(action)
        if kind == k.HOME:
            return f"{origin}-home"
        if kind == k.LEAP_HOME:
            return f"{origin}xhome"
        destination = square_name(int(self.game.targets[origin_of(action), kind]), k.WIDTH)
        return f"{origin}{'x' if kind >= k.LEAP else '-'}{destination}"

    def _normalise_move_text(self, text: str) -> str:
        return "".join(text.split()).lower()

    # -- what the state says ------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """Plies played since the bag draw (passes included)."""
        return int(self._cells[k.PLY_AT])

    @property
    def first(self) -> int | None:
        """The side that moved (or moves) first, or ``None`` before the bag draw."""
        first = int(self._cells[k.FIRST_AT])
        return None if first == k.UNDRAWN else first

    @property
    def side(self) -> int | None:
        """The side whose turn it is, or would be once the game is over.

        ``None`` before the bag draw.
        """
        first = self.first
        return None if first is None else (first + self.ply) % 2

    @property
    def to_move(self) -> int | None:
        """Salt (0), Pepper (1), ``CHANCE`` at the bag draw, or ``None`` once the game is over."""
        if self._cells[k.STATUS_AT] != k.ONGOING:
            return None
        return CHANCE if self.side is None else self.side

    @property
    def passes_in_a_row(self) -> int:
        """How many passes were just played in a row (0, 1, or 2 when both sides were stuck)."""
        return int(self._cells[k.PASSES_AT])

    def squares(self, side: int) -> tuple[str, ...]:
        """The squares of ``side``'s pieces on the board, in index order (a1, b1, ... a2 ...)."""
        return tuple(square_name(int(q), k.WIDTH) for q in k.piece_squares(self._cells, side))

    def pieces_home(self, side: int) -> int:
        """How many of ``side``'s 15 pieces are home (off the board)."""
        return int(k.PIECES_PER_SIDE) - k.pieces_on_board(self._cells, side)

    def back_rank_pieces(self, side: int) -> tuple[str, ...]:
        """The squares of ``side``'s pieces on its own back rank (they must go home first)."""
        row = str(k.back_rank(side, self.game.params) + 1)
        return tuple(name for name in self.squares(side) if name[1:] == row)

    def has_a_move(self, side: int) -> bool:
        """Whether ``side`` could move, rather than forfeit its turn, if it were to move here."""
        game = self.game
        return bool(k.has_a_move(self._cells, side, game.params, game.targets))

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, with the reason, or ``None`` while it runs."""
        status = int(self._cells[k.STATUS_AT])
        if status == k.ONGOING:
            return None
        reason = int(self._cells[k.REASON_AT])
        if status == k.DRAW:
            if reason == k.BOTH_STUCK:
                text = "engine safeguard: both sides forfeited their turn in a row"
                text += " (neither can move)"
            else:
                text = f"engine safeguard: {self.game.options['max_plies']} plies without a result"
            return Outcome.draw(2, text)
        winner = k.SALT if status == k.SALT_WINS else k.PEPPER
        return Outcome.win(winner, 2, f"{SIDE_NAMES[winner]} brought all 15 pieces home")

    # -- why a well-formed move is refused ------------------------------------------------------

    def _why_illegal(self, text: str) -> str:
        side = self.side
        if side is None:
            return f"{text}: the bag draw comes first; type first-0 (Salt starts) or first-1"
        if text in DRAW_OUTCOMES:
            return f"{text}: the bag draw is over; {SIDE_NAMES[side]} moved first"
        me = SIDE_NAMES[side]
        if text == "pass":
            return f"pass is only allowed when {me} has no move (a forfeited turn)"
        origin_name, destination_name = re.split("[-x]", text)
        is_leap = "x" in text
        ranks = int(self.game.params[k.P_RANKS])
        origin = parse_square(origin_name, k.WIDTH, ranks)
        destination = (
            None if destination_name == "home" else parse_square(destination_name, k.WIDTH, ranks)
        )
        if origin is None or (destination is None and destination_name != "home"):
            return f"{text}: squares run from a1 to j{ranks}"
        if k.board_cell(self._cells, origin) != side + 1:
            return f"{text}: there is no {me} piece on {origin_name}"
        waiting = self.back_rank_pieces(side)
        back = k.back_rank(side, self.game.params) + 1
        if waiting:
            home = ", ".join(f"{name}-home" for name in waiting)
            return (
                f"{text}: {me} has a piece on its back rank (rank {back}), so it must move a "
                f"piece home from there: {home}"
            )
        if destination is None:
            return _why_not_home(text, side, origin, is_leap, self)
        return _why_not_step_or_leap(text, side, origin, destination, is_leap, self)

    def to_text(self) -> str:
        """The canonical one-line position text (see `ludoteca.games.salt_n_pepper.position`)."""
        return position_text(self._cells, int(self.game.params[k.P_RANKS]))

    def __str__(self) -> str:
        return render_board(self)


def _why_not_home(text: str, side: int, origin: int, is_leap: bool, state: SaltNPepperState) -> str:
    """Why ``<origin>-home`` or ``<origin>xhome`` is refused."""
    me = SIDE_NAMES[side]
    back = k.back_rank(side, state.game.params) + 1
    if not is_leap:
        return f"{text}: only a piece on {me}'s back rank (rank {back}) can move home"
    before = 2 if side == k.SALT else back - 1
    if origin // k.WIDTH + 1 != before:
        return (
            f"{text}: a leap home starts on rank {before}, one rank before {me}'s back rank, "
            f"and goes over an opponent piece on rank {back}"
        )
    targets = state.game.targets
    over = [int(targets[origin, d]) for d in FORWARD[side] if int(targets[origin, d]) >= 0]
    names = " or ".join(square_name(square, k.WIDTH) for square in over)
    return f"{text}: a leap home goes over an opponent piece on {names}, and there is none"


def _why_not_step_or_leap(
    text: str,
    side: int,
    origin: int,
    destination: int,
    is_leap: bool,
    state: SaltNPepperState,
) -> str:
    """Why a step or a leap between two squares is refused."""
    game = state.game
    me = SIDE_NAMES[side]
    distance = 2 if is_leap else 1
    kind_name = "leap" if is_leap else "step"
    df = destination % k.WIDTH - origin % k.WIDTH
    dr = destination // k.WIDTH - origin // k.WIDTH
    allowed = [int(d) for d in k.SIDE_DIRECTIONS[side][: k.direction_count(side, game.params)]]
    direction = next(
        (
            d
            for d, (sf, sr) in enumerate(k.DIRECTION_STEPS)
            if (sf * distance, sr * distance) == (df, dr)
        ),
        None,
    )
    if direction is None or direction not in allowed:
        if side == k.SALT:
            how = "diagonally forward (down the board)"
        elif game.options["pepper_sideways"]:
            how = "straight up or sideways (never down)"
        else:
            how = "straight up (sideways only with the pepper_sideways option)"
        squares = "square" if distance == 1 else "squares"
        return f"{text}: a {me} {kind_name} goes exactly {distance} {squares} {how}"
    destination_name = square_name(destination, k.WIDTH)
    if not is_leap:
        return f"{text}: {destination_name} is occupied"
    over = int(game.targets[origin, direction])
    over_name = square_name(over, k.WIDTH)
    over_cell = k.board_cell(state.cells, over)
    if over_cell == k.EMPTY:
        return f"{text}: a leap goes over an opponent piece, and {over_name} is empty"
    if over_cell == side + 1:
        return f"{text}: never leap over an own piece ({over_name} holds a {me} piece)"
    return f"{text}: the landing square {destination_name} is occupied"

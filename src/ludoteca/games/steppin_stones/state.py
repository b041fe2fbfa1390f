"""Steppin' Stones positions and moves.

Why a well-formed move is refused is said in the terms of the rules (`why_illegal`).
A position is an immutable `SteppinStonesState` over the array described in `layout`. Its moves
are written and its text read as in `position`, and ``str(state)`` draws it as in
`view`. ``resign`` is accepted at any moment of a running game by `parse_move`, `apply` and
`move_from_index`, but it is not listed among the legal moves, so that agents choosing among
``legal_moves()`` (the random player, searches) never give up.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, ClassVar, cast

from ludoteca.core.array_state import ArrayState
from ludoteca.core.game import Move, State
from ludoteca.core.grids import parse_square
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.layout import SUIT_NAME, SUIT_NAMES, SUITS, Layout
from ludoteca.games.steppin_stones.position import (
    MOVE_FORMS,
    MOVE_SYNTAX,
    action_text,
    decision_text,
    face_text,
    normalise,
    position_text,
    roll_example,
    roll_text,
)
from ludoteca.games.steppin_stones.view import render

if TYPE_CHECKING:
    from ludoteca.games.steppin_stones import SteppinStonesGame


class SteppinStonesMove(Move):
    """A Steppin' Stones move or roll: ``S* M0 C4 A2``, ``S2:b6-c5``, ``flip:S2``, ``end``, ..."""

    @property
    def is_end(self) -> bool:
        """Whether this move finishes the current part of the turn."""
        return not self.is_chance and self.index == c.END

    @property
    def is_flip(self) -> bool:
        """Whether this move turns a coin into a stepping stone."""
        return not self.is_chance and c.FLIP_BASE <= self.index < c.END

    @property
    def is_resign(self) -> bool:
        """Whether this move gives the game up."""
        return not self.is_chance and self.index == c.RESIGN


RESIGN_MOVE = SteppinStonesMove(c.RESIGN, "resign")


@dataclass(frozen=True)
class Rolls:
    """Every roll of one set of dice: in outcome order, by text and by index."""

    moves: tuple[SteppinStonesMove, ...]
    by_text: dict[str, SteppinStonesMove]
    by_index: dict[int, SteppinStonesMove]


@cache
def rolls(mask: int) -> Rolls:
    """Every roll of the dice of the suits in ``mask`` (bit per suit).

    Moves are values, so all chance nodes that roll the same dice share them.
    """
    rolling = [suit for suit in range(c.NUM_SUITS) if mask & (1 << suit)]
    moves = []
    for faces in itertools.product(range(6), repeat=len(rolling)):
        outcome = sum(
            c.outcome_digit(face, suit) for face, suit in zip(faces, rolling, strict=True)
        )
        moves.append(SteppinStonesMove(outcome, roll_text(outcome, mask), True))
    return Rolls(tuple(moves), {m.text: m for m in moves}, {m.index: m for m in moves})


@lru_cache(maxsize=1 << 16)
def decision_move(pawn: int, code: int, action: int, size: int) -> SteppinStonesMove:
    """The move ``action``, given the piece it concerns (see `notation.decision_text`).

    Moves are values, so positions share them.
    """
    return SteppinStonesMove(action, decision_text(pawn, code, action, size))


class SteppinStonesState(ArrayState):
    """A Steppin' Stones position (from `SteppinStonesGame.initial_state` or `.parse_state`)."""

    __slots__ = ()

    move_class = SteppinStonesMove
    move_forms: ClassVar[str] = MOVE_FORMS
    move_syntax: ClassVar[re.Pattern[str]] = MOVE_SYNTAX

    @property
    def game(self) -> SteppinStonesGame:
        """The game (rules and options) this position belongs to."""
        return cast("SteppinStonesGame", self._game)

    @property
    def layout(self) -> Layout:
        """The board and start squares of this game's options."""
        return self.game.layout

    # -- moves and their text -------------------------------------------------------------------

    def _compute_legal_moves(self) -> tuple[Move, ...]:
        if self.to_move == CHANCE:
            return rolls(self._roll_mask()).moves
        size = self.layout.size
        coins = c.coin_cells(self._cells).tolist()
        pawns = c.pawn_cells(self._cells).tolist()
        moves = []
        for action in self._legal_actions().tolist():
            if action >= c.END:
                moves.append(decision_move(0, 0, action, size))
            elif action >= c.FLIP_BASE:
                moves.append(decision_move(0, coins[action - c.FLIP_BASE], action, size))
            else:
                origin = action // c.STRIDE
                moves.append(decision_move(pawns[origin], coins[origin], action, size))
        return tuple(moves)

    def _roll_mask(self) -> int:
        return sum(1 << suit for suit in self.rolling_suits)

    def _action_text(self, action: int) -> str:
        if self.to_move == CHANCE:
            return roll_text(action, self._roll_mask())
        return action_text(self._cells, action, self.layout.size)

    def _normalise_move_text(self, text: str) -> str:
        return normalise(text)

    def _chance_probabilities(self) -> tuple[float, ...]:
        count = len(self.legal_actions())
        return (1.0 / count,) * count

    # -- resigning: accepted at any time, never listed ------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read move text and return the move it names (``resign`` included).

        Raises:
            InvalidMoveError: The text is not a move in Steppin' Stones notation.
            IllegalMoveError: The move is well formed but not legal here (the message says why).
        """
        if isinstance(text, str) and not self.is_over and normalise(text) == "resign":
            return RESIGN_MOVE
        return super().parse_move(text)

    def apply(self, move: Move | str) -> State:
        """Return the position after ``move`` (a `Move` or its text); this state is unchanged.

        Raises:
            InvalidMoveError: Unparsable move text, or a value that is not a move.
            IllegalMoveError: The move is not legal here.
        """
        if move == RESIGN_MOVE and not self.is_over:  # text goes through parse_move, which knows it
            return self._apply_legal(RESIGN_MOVE)
        return super().apply(move)

    def _legal_by_index(self) -> Mapping[int, Move]:
        if self.to_move == CHANCE:  # shared tables: a roll of four dice has 1,296 outcomes
            return rolls(self._roll_mask()).by_index
        return super()._legal_by_index()

    def _legal_by_text(self) -> Mapping[str, Move]:
        if self.to_move == CHANCE:
            return rolls(self._roll_mask()).by_text
        return super()._legal_by_text()

    def move_from_index(self, index: int) -> Move:
        """The legal move with this integer action (``RESIGN`` included while the game runs).

        Raises:
            IllegalMoveError: No legal move has this index here.
        """
        if index == c.RESIGN and not self.is_over:
            return RESIGN_MOVE
        return super().move_from_index(index)

    # -- what the state says --------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The number of the current turn (1 for the first)."""
        return int(self._cells[c.TURNS_AT]) + 1

    @property
    def stage(self) -> int:
        """`layout.ROLL1`, `layout.PLAY1`, `layout.ROLL2` or `layout.PLAY2`."""
        return int(self._cells[c.STAGE_AT])

    @property
    def to_move(self) -> int | None:
        """0 (the player), `CHANCE` when dice are to be rolled, ``None`` once the game is over."""
        if self._cells[c.STATUS_AT] != c.ONGOING:
            return None
        return CHANCE if self.stage in (c.ROLL1, c.ROLL2) else 0

    @property
    def rolling_suits(self) -> tuple[int, ...]:
        """The suits whose dice are rolled at this chance node (``()`` elsewhere)."""
        if self.is_over or self.stage not in (c.ROLL1, c.ROLL2):
            return ()
        if self.stage == c.ROLL1:
            return tuple(s for s in range(c.NUM_SUITS) if self.phase(s) == c.PHASE_ONE)
        return self.phase_two_dice

    @property
    def phase_two_dice(self) -> tuple[int, ...]:
        """The suits whose dice are phase-2 dice this turn (retired suits excluded)."""
        return tuple(s for s in range(c.NUM_SUITS) if c.phase_two_die(self._cells, s))

    def phase(self, suit: int) -> int:
        """The phase of ``suit``: `layout.PHASE_ONE`, `layout.PHASE_TWO` or `layout.RETIRED`.

        Phase 1 lasts while a coin of the suit shows a value; the suit retires when its pawn is
        home.
        """
        if c.pawn_square(self._cells, suit) in self.layout.home[suit]:
            return c.RETIRED
        return c.PHASE_ONE if c.value_coins_left(self._cells, suit) > 0 else c.PHASE_TWO

    def phase_one_die(self, suit: int) -> tuple[int, bool] | None:
        """``(face, used)`` of ``suit``'s phase-1 die this turn, or ``None`` if it did not roll."""
        face = c.die_face(self._cells, suit)
        return None if face == c.NO_FACE else (face, c.die_used(self._cells, suit))

    def budget(self, suit: int) -> int:
        """Steps left on ``suit``'s phase-2 die (0 when it has none)."""
        return c.budget_left(self._cells, suit)

    def coin(self, square: int) -> int:
        """The coin code on ``square`` (see `layout`; 0 for none)."""
        return c.coin_cell(self._cells, square)

    def pawn(self, square: int) -> int | None:
        """The suit of the pawn on ``square``, if any."""
        pawn = c.pawn_cell(self._cells, square)
        return pawn - 1 if pawn else None

    def pawn_square(self, suit: int) -> int:
        """The square of ``suit``'s pawn."""
        return c.pawn_square(self._cells, suit)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, with the reason, or ``None`` while it runs."""
        status = int(self._cells[c.STATUS_AT])
        if status == c.ONGOING:
            return None
        reason = int(self._cells[c.REASON_AT])
        if status == c.WON:
            return Outcome.win(0, 1, "all four pawns are home")
        if reason == c.DEAD:
            text = "the position is dead: no suit is in phase 1 and no stone or pawn can move"
        elif reason == c.RESIGNED:
            text = "the player resigned"
        else:
            text = (
                f"engine safeguard: {self.game.options['max_turns']} turns played without "
                "bringing every pawn home"
            )
        return Outcome.solitaire_loss(text)

    # -- errors, text ---------------------------------------------------------------------------

    def _why_illegal(self, text: str) -> str:
        return why_illegal(self, text)

    def to_text(self) -> str:
        """The canonical one-line position text (see `position`)."""
        text: str | None = self._cache.get("text")
        if text is None:
            text = position_text(self._cells, self.layout)
            self._cache["text"] = text
        return text

    def __str__(self) -> str:
        return render(self)


PASSING = (
    "passing only over empty spaces and coins worth less than itself (a stone counts 1), never "
    "over a pawn or an ace, and never visiting a square twice"
)


def why_illegal(state: SteppinStonesState, text: str) -> str:
    """Why the well-formed move ``text`` is not legal in ``state``.

    The rule is found by the kernels (`kernels.illegal_reason`, with the checks that build the
    legal moves); this module only words it.
    """
    if text[1:2] in ("*", "0", "2", "3", "4", "5") and ":" not in text:
        return _why_roll(state, text)
    origin = destination = -1
    if text == "end":
        piece = k.END_PIECE
    elif text.startswith("flip:"):
        piece = k.FLIP_PIECE + c.value_coin(SUITS.index(text[5]), int(text[6]))
    else:
        name, _, squares = text.partition(":")
        origin_name, _, destination_name = squares.partition("-")
        size = state.layout.size
        first = parse_square(origin_name, size, size)
        last = parse_square(destination_name, size, size)
        if first is None or last is None:
            return f"{text}: squares run from a1 to {state.layout.name(size * size - 1)}"
        origin, destination = first, last
        piece = _piece_code(name)
    params, geometry = state.game.params, state.game.geometry
    code = int(k.illegal_reason(state.cells, params, geometry, piece, origin, destination))
    if code == k.LEGAL_MOVE:  # cannot happen for a move the legal list lacks
        return f"{text} is not possible here"
    return _words(state, text, code, piece, origin, destination)


def _piece_code(name: str) -> int:
    """The `illegal_reason` code of the piece a move names: ``SP``, ``S2``, ``S``."""
    suit = SUITS.index(name[0])
    if name.endswith("P"):
        return int(k.PAWN_PIECE) + suit
    if len(name) == 2:
        return c.value_coin(suit, int(name[1]))
    return c.STONE_BASE + suit


def describe(state: SteppinStonesState, square: int) -> str:
    """What stands on ``square``, for messages: ``"the Sun 2"``, ``"a Moon stone"``, ..."""
    pawn = state.pawn(square)
    if pawn is not None:
        return f"the {SUIT_NAME[pawn]} pawn"
    code = state.coin(square)
    if code == 0:
        return "nothing"
    suit = SUIT_NAME[c.coin_suit(code)]
    if c.is_value_coin(code):
        value = c.coin_value(code)
        return f"the {suit} {'null' if value == 0 else value}"
    return f"a {suit} stone" if c.is_stone(code) else f"the {suit} ace"


def _roll_prompt(state: SteppinStonesState) -> str:
    part = "phase-1" if state.stage == c.ROLL1 else "phase-2"
    names = ", ".join(SUIT_NAMES[suit] for suit in state.rolling_suits)
    return (
        f"roll the {part} dice of the {names} and name each die once, in suit order S M C A, "
        f"e.g. {roll_example(state.rolling_suits)}"
    )


def _why_roll(state: SteppinStonesState, text: str) -> str:
    if state.to_move != CHANCE:
        return f"{text}: the dice for this part of the turn have been rolled; use them, then end"
    return f"{text}: {_roll_prompt(state)}"


def _dice_summary(state: SteppinStonesState) -> str:
    dice = []
    for suit in range(c.NUM_SUITS):
        die = state.phase_one_die(suit)
        if die is not None:
            dice.append(f"{SUITS[suit]}{face_text(die[0])}{' (used)' if die[1] else ''}")
    return ", ".join(dice) or "none"


def _flips(state: SteppinStonesState) -> str:
    return ", ".join(sorted(m.text for m in state.legal_moves() if m.text.startswith("flip:")))


def _find_coin(state: SteppinStonesState, code: int) -> int | None:
    for square in range(state.layout.num_squares):
        if state.coin(square) == code:
            return square
    return None


def _words(
    state: SteppinStonesState, text: str, code: int, piece: int, origin: int, destination: int
) -> str:
    """The reason ``code`` of `kernels.illegal_reason` in words, prefixed by the move."""
    if code == k.WHY_DICE_FIRST:
        return f"{text}: the dice come first; {_roll_prompt(state)}"
    if code == k.WHY_SUIT_FACE_FIRST:
        return _why_end(state)
    if piece >= k.FLIP_PIECE:
        return f"{text}: {_flip_words(state, code, piece - k.FLIP_PIECE)}"
    name = state.layout.name
    if code == k.WHY_IN_HOLE:
        return f"{text}: {name(destination)} is in the hole of the large board; nothing goes there"
    if c.is_value_coin(piece):
        return f"{text}: {_coin_words(state, code, piece, origin, destination)}"
    pawn = piece >= k.PAWN_PIECE
    suit = piece - k.PAWN_PIECE if pawn else c.coin_suit(piece)
    return f"{text}: {_piece_words(state, code, suit, pawn, (origin, destination))}"


def _why_end(state: SteppinStonesState) -> str:
    for suit in range(c.NUM_SUITS):
        if state.phase_one_die(suit) == (c.FACE_SUIT, False):
            return (
                f"end: the {SUITS[suit]}* must be honoured first by turning a {SUIT_NAME[suit]} "
                f"coin into a stepping stone ({_flips(state)})"
            )
    return "end is not possible here"


def _flip_words(state: SteppinStonesState, code: int, coin: int) -> str:
    suit, value = c.coin_suit(coin), c.coin_value(coin)
    name, letter = SUIT_NAME[suit], SUITS[suit]
    if code == k.WHY_FLIP_NOT_NOW:
        return "coins are turned only in phase 1, by a die showing the suit face"
    if code == k.WHY_ALREADY_STONE:
        return f"the {name} {value or 'null'} is already a stepping stone"
    if code == k.WHY_NO_SUIT_FACE:
        die = state.phase_one_die(suit)
        shown = "did not roll in phase 1" if die is None else f"shows {face_text(die[0])}"
        return (
            f"only the {name} die showing the suit face ({letter}*) turns a {name} coin, and "
            f"this turn it {shown}"
        )
    if code == k.WHY_FACE_HONOURED:
        return f"the {letter}* has been honoured already this turn"
    highest = int(k.highest_value(state.cells, state.game.params, suit))
    return (
        f"with stones=highest the {letter}* must turn the highest {name} coin showing a value, "
        f"{letter}{highest}"
    )


def _coin_words(
    state: SteppinStonesState, code: int, coin: int, origin: int, destination: int
) -> str:
    value = c.coin_value(coin)
    label = f"{SUITS[c.coin_suit(coin)]}{value}"
    name = state.layout.name
    if code == k.WHY_NULL_NEVER_MOVES:
        return "a null coin never moves (a null die does nothing)"
    if code == k.WHY_COIN_NOT_NOW:
        return "coins showing a value move only with the phase-1 dice, earlier in the turn"
    if code == k.WHY_NO_SUCH_COIN:
        where = _find_coin(state, coin)
        found = "it is a stepping stone now" if where is None else f"it is on {name(where)}"
        return f"there is no {label} on {name(origin)} ({found})"
    if code == k.WHY_NO_DIE_VALUE:
        return f"no unused phase-1 die shows {value} (this turn's dice: {_dice_summary(state)})"
    if code == k.WHY_COIN_LANDS_ON_PIECE:
        held = describe(state, destination)
        return f"a coin ends on an empty space, and {name(destination)} holds {held}"
    return (
        f"{label} moves exactly {value} orthogonal steps, {PASSING}; no such path leads from "
        f"{name(origin)} to {name(destination)}"
    )


def _piece_words(
    state: SteppinStonesState, code: int, suit: int, pawn: bool, squares: tuple[int, int]
) -> str:
    """Why a stone (or the pawn) of ``suit`` may not move (`illegal_reason` code ``code``)."""
    origin, destination = squares
    name, one, many = state.layout.name, SUIT_NAME[suit], SUIT_NAMES[suit]
    simple = {
        k.WHY_NO_SUCH_STONE: f"there is no {one} stepping stone on {name(origin)}",
        k.WHY_SUIT_HOME: f"the {many} are home: their die has left play",
        k.WHY_PAWN_HOME: f"the {one} pawn is home already",
        k.WHY_NOT_PHASE_TWO_NOW: (
            "stones and pawns move in phase 2, with their suit's die, later in the turn"
        ),
        k.WHY_NOT_A_PHASE_TWO_DIE: (
            f"the {one} die is not a phase-2 die this turn (a suit whose last coin turned this "
            "turn rolls in phase 2 from the next turn)"
        ),
        k.WHY_NO_STEPS_LEFT: f"the {one} die has no steps left this turn (the {many} are done)",
    }
    if code in simple:
        return simple[code]
    if code == k.WHY_STONE_CARRIES_PAWN:
        return f"{describe(state, origin)} stands on that stone; a stone carrying a pawn stays put"
    if code == k.WHY_PAWN_ELSEWHERE:
        return f"the {one} pawn is on {name(state.pawn_square(suit))}, not on {name(origin)}"
    if code == k.WHY_SUIT_IN_PHASE_ONE and pawn:
        return f"the {one} pawn moves only once all five {one} coins are stepping stones"
    if code == k.WHY_SUIT_IN_PHASE_ONE:
        return (
            f"the {many} are still in phase 1: their stones move once all five {one} coins are "
            "stones"
        )
    if code == k.WHY_STONE_LANDS_ON_PIECE:
        held = describe(state, destination)
        return f"a stone ends on an empty space, and {name(destination)} holds {held}"
    if code == k.WHY_TOO_FAR:
        game = state.game
        pawn_suit = suit if pawn else -1
        cost = int(
            k.shortest_cost(state.cells, game.params, game.geometry, origin, destination, pawn_suit)
        )
        budget = state.budget(suit)
        return f"that takes {cost} steps, and the {one} die has {budget} left"
    if code == k.WHY_NO_PAWN_PATH:
        aces = " or an ace" if state.game.options["aces_as_stones"] else ""
        return (
            f"every step of a pawn lands on a stone of its suit, a space of its home tile{aces}; "
            f"no such path leads from {name(origin)} to {name(destination)}"
        )
    return (
        "a stone passes only over empty spaces and null coins, never over a pawn, an ace or "
        f"another stone; no such path leads from {name(origin)} to {name(destination)}"
    )

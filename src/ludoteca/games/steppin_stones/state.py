"""Steppin' Stones positions and moves.

A position is an immutable `SteppinStonesState` over the array described in `cells`. Its moves
are written as in `notation`, its text as in `position`, and ``str(state)`` draws it as in
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
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.games.steppin_stones import cells as c
from ludoteca.games.steppin_stones.explain import why_illegal
from ludoteca.games.steppin_stones.layout import Layout
from ludoteca.games.steppin_stones.notation import (
    MOVE_FORMS,
    MOVE_SYNTAX,
    action_text,
    decision_text,
    normalise,
    roll_text,
)
from ludoteca.games.steppin_stones.position import position_text
from ludoteca.games.steppin_stones.view import render

if TYPE_CHECKING:
    from ludoteca.games.steppin_stones import SteppinStonesGame


@dataclass(frozen=True, slots=True)
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
        """`cells.ROLL1`, `cells.PLAY1`, `cells.ROLL2` or `cells.PLAY2`."""
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
        """The phase of ``suit``: `cells.PHASE_ONE`, `cells.PHASE_TWO` or `cells.RETIRED`.

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
        """The coin code on ``square`` (see `cells`; 0 for none)."""
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

"""Salta positions and moves: the state, its notation and why a move is refused.

Position text is read and written in `ludoteca.games.salta.position`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

from ludoteca.core.array_state import ArrayState
from ludoteca.core.game import Move
from ludoteca.core.grids import SQUARE_PATTERN, parse_square, square_name
from ludoteca.core.outcome import Outcome
from ludoteca.games.salta import kernels as k
from ludoteca.games.salta.position import (
    SIDE_NAMES,
    piece_token,
    position_text,
    render_board,
)

if TYPE_CHECKING:
    from ludoteca.games.salta import SaltaGame


@dataclass(frozen=True, slots=True)
class SaltaMove(Move):
    """A Salta move: ``c3-d4`` (a step), ``e5xg7`` (a jump) or ``pass``."""

    @property
    def origin(self) -> str | None:
        """The square the piece leaves (``None`` for a pass)."""
        return None if self.index == k.PASS else square_name(int(k.ACTION_ORIGIN[self.index]), 10)

    @property
    def destination(self) -> str | None:
        """The square the piece lands on (``None`` for a pass)."""
        if self.index == k.PASS:
            return None
        return square_name(int(k.ACTION_DESTINATION[self.index]), 10)

    @property
    def is_jump(self) -> bool:
        """Whether the move jumps over an opponent piece."""
        return bool(k.is_jump(self.index))


class SaltaState(ArrayState):
    """A Salta position. Build one with `SaltaGame.initial_state` or `SaltaGame.parse_state`."""

    __slots__ = ()

    move_class = SaltaMove
    move_forms: ClassVar[str] = "c3-d4 (a step), e5xg7 (a jump), pass"
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(
        rf"{SQUARE_PATTERN}[-x]{SQUARE_PATTERN}|pass"
    )

    @property
    def game(self) -> SaltaGame:
        """The game (rules and options) this position belongs to."""
        return cast("SaltaGame", self._game)

    # -- moves and their text -------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if action == k.PASS:
            return "pass"
        separator = "x" if k.is_jump(action) else "-"
        origin = square_name(int(k.ACTION_ORIGIN[action]), k.WIDTH)
        return f"{origin}{separator}{square_name(int(k.ACTION_DESTINATION[action]), k.WIDTH)}"

    def _normalise_move_text(self, text: str) -> str:
        return "".join(text.split()).lower()

    # -- what the state says ------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """Plies played so far (passes included)."""
        return int(self._cells[k.PLY_AT])

    @property
    def to_move(self) -> int | None:
        """Green (0) or Red (1), or ``None`` once the game is over."""
        if self._cells[k.STATUS_AT] != k.ONGOING:
            return None
        return self.ply % 2

    @property
    def in_scoring_phase(self) -> bool:
        """Whether the 120-move rule has struck and the played scoring phase is under way."""
        return bool(k.in_scoring_phase(self._cells, self.game.params)) and not self.is_over

    @property
    def awaiting_extra_move(self) -> bool:
        """Whether Green has completed its goal and Red is to make its one extra move.

        Never in the played scoring phase: there a finished side passes and the counts decide.
        """
        return self.to_move == k.RED and not self.in_scoring_phase and self.goal_complete(k.GREEN)

    @property
    def scoring_moves(self) -> tuple[int, int]:
        """Moves each side has made in the played scoring phase (the cap penalty included)."""
        return k.scoring_moves_of(self._cells, k.GREEN), k.scoring_moves_of(self._cells, k.RED)

    def goal_complete(self, side: int) -> bool:
        """Whether every piece of ``side`` stands on its goal square."""
        return bool(k.goal_complete(self._cells, side, self.game.goals))

    def goal_distance(self, side: int) -> int:
        """The simplified score: the sum of Chebyshev distances of ``side``'s pieces to goal."""
        return int(k.goal_distance(self._cells, side, self.game.goals))

    def pieces(self) -> dict[str, list[str]]:
        """Square name -> tokens standing there (one, or two in the played scoring phase)."""
        result: dict[str, list[str]] = {}
        for side in (k.GREEN, k.RED):
            for piece, square in enumerate(k.piece_squares(self._cells, side).tolist()):
                result.setdefault(square_name(square, k.WIDTH), []).append(piece_token(side, piece))
        return result

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, with the reason, or ``None`` while it runs."""
        status = int(self._cells[k.STATUS_AT])
        if status == k.ONGOING:
            return None
        reason = self._reason_text(int(self._cells[k.REASON_AT]))
        if status == k.DRAW:
            return Outcome.draw(2, reason)
        return Outcome.win(k.GREEN if status == k.GREEN_WINS else k.RED, 2, reason)

    def _reason_text(self, reason: int) -> str:
        if reason == k.RED_GOAL:
            return "Red reached its goal first"
        if reason == k.GREEN_GOAL:
            return "Green reached its goal and Red's extra move did not reach Red's goal"
        if reason == k.BOTH_GOALS:
            return "Green reached its goal and Red reached its own with the extra move: a draw"
        if reason == k.SCORED_PLAYED:
            green, red = self.scoring_moves
            return f"120-move rule, played scoring: Green {green} moves, Red {red} moves"
        if reason == k.SCORING_DECIDED:
            winner = k.GREEN if int(self._cells[k.STATUS_AT]) == k.GREEN_WINS else k.RED
            loser = 1 - winner
            count = self.scoring_moves[winner]
            at_least = self.scoring_moves[loser] + self.goal_distance(loser)
            return (
                f"120-move rule, played scoring: {SIDE_NAMES[winner]} finished in {count} moves, "
                f"{SIDE_NAMES[loser]} cannot finish in fewer than {at_least}"
            )
        if reason == k.SCORED_SIMPLIFIED:
            green, red = self.goal_distance(k.GREEN), self.goal_distance(k.RED)
            return f"120-move rule, simplified scoring: Green {green}, Red {red}"
        return f"engine safeguard: {self.game.options['max_plies']} plies without a result"

    # -- why a well-formed move is refused ------------------------------------------------------

    def _why_illegal(self, text: str) -> str:
        """Word the rule the kernels name (`kernels.illegal_reason`) for a refused move."""
        side = self.ply % 2
        origin = destination = -1
        is_jump = "x" in text
        origin_name = destination_name = ""
        if text != "pass":
            origin_name, destination_name = re.split("[-x]", text)
            found = parse_square(origin_name, k.WIDTH, k.WIDTH)
            target = parse_square(destination_name, k.WIDTH, k.WIDTH)
            if found is None or target is None:
                return f"{text}: squares run from a1 to j10"
            origin, destination = found, target
        game = self.game
        code = k.illegal_reason(self._cells, game.params, game.goals, origin, destination, is_jump)
        kind, distance = ("jump", 2) if is_jump else ("step", 1)
        legal = self.legal_moves()
        messages = {
            k.WHY_PASS: f"pass is only allowed when {SIDE_NAMES[side]} has no move",
            k.WHY_NO_PIECE: f"{text}: there is no {SIDE_NAMES[side]} piece on {origin_name}",
            k.WHY_NOT_DIAGONAL: f"{text}: a {kind} goes exactly {distance} "
            + ("square" if distance == 1 else "squares")
            + " diagonally",
            k.WHY_NO_JUMPS_WHEN_SCORING: f"{text}: there are no jumps in the scoring phase",
            k.WHY_BACKWARD_JUMP: f"{text}: jumps go forward only",
            k.WHY_NOTHING_TO_JUMP: f"{text}: a jump goes over an opponent piece, and "
            f"{square_name((origin + destination) // 2, k.WIDTH)} holds none",
            k.WHY_OCCUPIED: f"{text}: {destination_name} is occupied",
            k.WHY_SCORING_FINISHED: f"{text}: {SIDE_NAMES[side]} has finished the scoring phase "
            "(home, or at the scoring cap) and can only pass",
            k.WHY_JUMP_COMPULSORY: f"{text}: a jump is compulsory; legal jumps: "
            + ", ".join(m.text for m in legal if isinstance(m, SaltaMove) and m.is_jump),
            k.WHY_NO_BLOCK: f"{text} would leave {SIDE_NAMES[1 - side]} without a move (the "
            f"no-block rule); legal moves: {', '.join(m.text for m in legal)}",
        }
        return messages.get(code, f"{text} is not a legal move here")

    def to_text(self) -> str:
        """The canonical one-line position text (`ludoteca.games.salta.position`)."""
        return position_text(self)

    def __str__(self) -> str:
        return render_board(self)

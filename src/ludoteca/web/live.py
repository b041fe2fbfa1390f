"""A game being played on the server: its rules, positions, moves and seats.

`LiveGame` is the in-memory mirror of a stored game (`ludoteca.web.storage.GameRow`): the
positions after each move are kept so that undo, the move list and replay need no recomputation.
It decides nothing about the rules; it asks the states. Its ``version`` is the stored game's
version (`ludoteca.web.storage`): the copy is current while the two agree.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any

from ludoteca.core import records
from ludoteca.core.game import Game, Move, State
from ludoteca.core.notation import numbered_plies
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make
from ludoteca.web.clocks import ClockSpec, ClockState, spec_from_json
from ludoteca.web.storage import GameRow, SeatRow

HUMAN = "human"
INVITE = "invite"
COMPUTER = "computer"

#: What a seat token looks like (`new_token`); anything else belongs to no seat.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_game_id() -> str:
    """A short random id for a new game (URL-safe)."""
    return secrets.token_urlsafe(6)


def new_token() -> str:
    """A secret seat token."""
    return secrets.token_urlsafe(18)


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the rules' outcome, or a resignation."""

    winner: int | None
    returns: tuple[float, ...]
    reason: str
    resigned: int | None = None


@dataclass
class LiveGame:
    """A stored game replayed through the rules.

    Attributes:
        id: The game id.
        game: The rules and options.
        seats: Who plays each seat.
        states: The start position followed by the position after each move.
        moves: The moves played, chance outcomes included.
        resigned: The seat that resigned, if one did.
        created: When the game was created (ISO 8601).
        updated: When it last changed (ISO 8601).
        version: The stored game's version this copy reflects.
        hints: Whether its players may ask for hints.
        since: When this process learnt of this version (`time.monotonic`).
    """

    id: str
    game: Game
    seats: tuple[SeatRow, ...]
    states: list[State]
    moves: list[Move] = field(default_factory=list)
    resigned: int | None = None
    created: str = ""
    updated: str = ""
    version: int = 0
    hints: bool = False
    clock: ClockSpec | None = None
    clock_state: ClockState | None = None
    timed_out: int | None = None
    agreed: str | None = None
    draw_offer: int | None = None
    rematch_offer: int | None = None
    rematch_id: str | None = None
    rated: bool = False
    since: float = field(default_factory=time.monotonic)
    _snapshot: Snapshot | None = field(default=None, repr=False, compare=False)
    #: The click paths of the latest board drawn, by move number (they mark the next board's
    #: last move without working them out again).
    click_paths: dict[int, dict[str, list[str]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _move_entries: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)

    @classmethod
    def from_row(cls, row: GameRow, previous: LiveGame | None = None) -> LiveGame:
        """Replay a stored game through the rules.

        Args:
            row: The stored game.
            previous: An older copy of the same game: the positions of the moves both share
                are taken from it instead of being replayed.

        Raises:
            LudotecaError: The stored rules, start or moves are no longer valid.
        """
        game = make(row.game, **row.options)
        start = game.parse_state(row.start) if row.start is not None else game.initial_state()
        if previous is not None and (
            previous.game.id != game.id
            or previous.game.options != game.options
            or previous.start.to_text() != start.to_text()
        ):
            previous = None
        if previous is not None:  # keep its objects: its positions are shared below
            game, start = previous.game, previous.start
        live = cls(
            id=row.id,
            game=game,
            seats=row.seats,
            states=[start],
            resigned=row.resigned,
            created=row.created,
            updated=row.updated,
            version=row.version,
            hints=row.hints,
        )
        live.set_extras(row)
        shared = 0
        if previous is not None:
            for mine, stored in zip(previous.moves, row.moves, strict=False):
                if mine.text != stored:
                    break
                shared += 1
            live.states = previous.states[: shared + 1]
            live.moves = previous.moves[:shared]
        for text in row.moves[shared:]:
            live.push(live.state.parse_move(text))
        return live

    def set_extras(self, row: GameRow) -> None:
        """Take the clock, the ending and the offers from the stored game."""
        self.clock = spec_from_json(row.clock)
        self.clock_state = (
            ClockState.from_json(row.clock_state) if row.clock_state is not None else None
        )
        self.timed_out = row.timed_out
        self.agreed = row.agreed
        self.draw_offer = row.draw_offer
        self.rematch_offer = row.rematch_offer
        self.rematch_id = row.rematch_id
        self.rated = row.rated

    # -- positions --------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current position."""
        return self.states[-1]

    @property
    def start(self) -> State:
        """The start position."""
        return self.states[0]

    @property
    def ply(self) -> int:
        """How many moves (chance outcomes included) have been played."""
        return len(self.moves)

    def push(self, move: Move) -> None:
        """Play a legal move (the caller has checked it with `State.parse_move`)."""
        self.states.append(self.state.apply(move))
        self.moves.append(move)

    def extend(self, moves: list[Move], states: list[State]) -> None:
        """Add moves already played: ``states[i]`` is the position after ``moves[i]``."""
        self.moves.extend(moves)
        self.states.extend(states)

    def truncate(self, keep: int) -> None:
        """Take back every move after the first ``keep``."""
        del self.states[keep + 1 :]
        del self.moves[keep:]
        del self._move_entries[keep:]

    def _move_list(self) -> list[dict[str, Any]]:
        """The moves for the API; each entry is made once, as the moves are added.

        ``number`` is the ply (from 1); ``move_number`` and ``label`` number the players' moves
        alone with the chance outcomes before each beside it (`ludoteca.core.notation`):
        ``"12. W4-B2 (5)"``; a chance outcome has no ``move_number`` and its words as ``label``.
        """
        entries = self._move_entries
        if len(entries) < self.ply:
            # Number from just after the last player's move already listed: the chance
            # outcomes since then go beside the next move.
            start = len(entries)
            while start > 0 and entries[start - 1]["move_number"] is None:
                start -= 1
            before: int = entries[start - 1]["move_number"] if start else 0
            texts = [move.text for move in self.moves[start:]]
            for numbered in numbered_plies(self.states[start:], texts):
                number = start + numbered.ply
                if number <= len(entries):
                    continue
                if numbered.number is not None:
                    numbered = replace(numbered, number=before + numbered.number)
                mover = self.mover(number)
                move = self.moves[number - 1]
                entries.append(
                    {
                        "number": number,
                        "text": move.text,
                        "player": mover,
                        "player_name": self.player_name(mover),
                        "is_chance": move.is_chance,
                        "move_number": numbered.number,
                        "label": numbered.label,
                    }
                )
        return list(entries)

    # -- who plays ----------------------------------------------------------------------------

    @property
    def result(self) -> Result | None:
        """How the game ended (a resignation, a time out, an agreed draw count), or ``None``."""
        names = self.game.player_names
        if self.timed_out is not None:
            returns = tuple(-1.0 if p == self.timed_out else 1.0 for p in range(len(names)))
            winner = 1 - self.timed_out if len(names) == 2 else None
            return Result(winner, returns, f"{names[self.timed_out]} ran out of time (time out)")
        if self.agreed == "draw":
            return Result(None, (0.0,) * len(names), "draw agreed by the players")
        if self.resigned is not None:
            if self.game.num_players == 1:
                return Result(None, (-1.0,), f"{names[0]} resigned", self.resigned)
            winner = 1 - self.resigned if self.game.num_players == 2 else None
            returns = tuple(-1.0 if p == self.resigned else 1.0 for p in range(len(names)))
            return Result(winner, returns, f"{names[self.resigned]} resigned", self.resigned)
        outcome = self.state.outcome
        if outcome is None:
            return None
        return Result(outcome.winner, tuple(outcome.returns), outcome.reason)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended, by the rules or by resignation."""
        return self.result is not None

    @property
    def to_move(self) -> int | None:
        """The seat to move (`CHANCE` at a chance node), ``None`` once over."""
        return None if self.is_over else self.state.to_move

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat this token belongs to, or ``None`` (also for text that is no token)."""
        if not isinstance(token, str) or not TOKEN_PATTERN.fullmatch(token):
            return None
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return seat.seat
        return None

    def is_computer(self, seat: int | None) -> bool:
        """Whether ``seat`` is played by the computer."""
        return seat is not None and seat >= 0 and self.seats[seat].kind == COMPUTER

    @property
    def computer_to_move(self) -> bool:
        """Whether the computer should move now."""
        return self.is_computer(self.to_move)

    @property
    def human_to_move(self) -> bool:
        """Whether a person should move now."""
        seat = self.to_move
        return seat is not None and seat != CHANCE and not self.is_computer(seat)

    @property
    def has_invited_player(self) -> bool:
        """Whether another person plays by invitation (undo is not allowed then)."""
        return any(seat.kind == INVITE for seat in self.seats)

    def mover(self, number: int) -> int | None:
        """Who played move ``number`` (1-based): a seat, or `CHANCE`."""
        return self.states[number - 1].to_move

    # -- output -------------------------------------------------------------------------------

    def player_name(self, seat: int | None) -> str:
        """A seat's name, ``"chance"`` for chance nodes, ``""`` for ``None``."""
        if seat is None:
            return ""
        return "chance" if seat == CHANCE else self.game.player_names[seat]

    @property
    def draw_possible(self) -> bool:
        """Whether the players may agree on a draw: two or more people and no computer."""
        return self.game.num_players >= 2 and not any(s.kind == COMPUTER for s in self.seats)

    @property
    def move_number(self) -> int:
        """The number of the move to play now, counting players' moves only (not dice rolls)."""
        return 1 + sum(1 for move in self.moves if not move.is_chance)

    def clocks(self, now: float | None = None) -> dict[str, Any] | None:
        """The clocks for the API.

        ``remaining`` is each seat's seconds as of ``since`` (the server's acknowledgement of
        the last change, epoch seconds); the ``running`` seat's clock has run since then. With
        ``now`` (epoch seconds), ``left`` adds each seat's seconds at that moment.
        """
        if self.clock is None or self.clock_state is None:
            return None
        state = self.clock_state
        answer: dict[str, Any] = {
            **self.clock.to_dict(),
            "description": self.clock.describe(),
            "remaining": list(state.remaining),
            "running": state.running,
            "since": state.since,
        }
        if now is not None:
            answer["left"] = [state.left(seat, now) for seat in range(len(state.remaining))]
            answer["now"] = now
            answer["flag_at"] = state.flag_at()
        return answer

    def record(self) -> records.GameRecord:
        """The game as a saved-game record (`ludoteca.core.records`)."""
        return records.create(
            self.game,
            self.moves,
            players=[seat.name or seat_spec(seat) for seat in self.seats],
            start=self.start,
            created=self.created or None,
            resigned=self.resigned,
            agreed="draw" if self.agreed == "draw" else None,
            timed_out=self.timed_out,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready state of the game for the API (no tokens)."""
        result = self.result
        to_move = self.to_move
        return {
            "id": self.id,
            "game": self.game.id,
            "name": self.game.name,
            "options": self.game.options,
            "players": list(self.game.player_names),
            "seats": [
                {
                    "seat": seat.seat,
                    "player": self.game.player_names[seat.seat],
                    "kind": seat.kind,
                    "agent": seat.agent,
                    "name": seat.name,
                }
                for seat in self.seats
            ],
            "position": self.state.to_text(),
            "to_move": to_move,
            "to_move_name": self.player_name(to_move),
            "legal_moves": [] if self.is_over else [m.text for m in self.state.legal_moves()],
            "ply": self.ply,
            "moves": self._move_list(),
            "outcome": None
            if result is None
            else {
                "winner": result.winner,
                "winner_name": self.player_name(result.winner),
                "returns": list(result.returns),
                "reason": result.reason,
                "resigned": result.resigned,
                "timed_out": self.timed_out,
                "agreed": self.agreed,
            },
            "move_number": self.move_number,
            "clock": self.clocks(),
            "draw_possible": self.draw_possible and result is None,
            "draw_offer": self.draw_offer,
            "rematch_offer": self.rematch_offer,
            "rematch": self.rematch_id,
            "undo_allowed": not self.has_invited_player and result is None,
            "hints": self.hints,
            "rated": self.rated,
            "version": self.version,
            "computer_to_move": self.computer_to_move,
            "created": self.created,
            "updated": self.updated,
        }


def seat_spec(seat: SeatRow) -> str:
    """How a seat is named in saved games: ``human``, ``invite`` or the agent spec."""
    return seat.agent if seat.kind == COMPUTER and seat.agent else seat.kind


@dataclass(slots=True)
class Snapshot:
    """A game's JSON at one version, serialised once and sent to everyone who asks.

    The board (SVG, dice, click paths) is drawn only when someone needs it: a WebSocket
    subscriber, a page, ``GET .../board``; API clients that only play get the game alone.

    Attributes:
        version: The game's version.
        game: `LiveGame.to_dict` as JSON text.
        board: The board now (`ludoteca.web.service.GameService.board`) as JSON text, once drawn.
    """

    version: int
    game: str
    board: str | None = None

    def message(self, board: str) -> str:
        """The WebSocket message: ``{"type": "state", "game": ..., "board": ...}``."""
        return f'{{"type":"state","game":{self.game},"board":{board}}}'

    def reply(self, board: str | None) -> str:
        """The answer to a change: the game, with its ``board`` added when given."""
        return self.game if board is None else f'{self.game[:-1]},"board":{board}}}'


def with_now(message: str) -> str:
    """A JSON object's text with ``"now"``, the server's time (epoch seconds), added.

    Pages show the clocks in the server's time: they take the difference from their own.
    """
    return f'{message[:-1]},"now":{time.time():.3f}}}'


def to_json(value: object) -> str:
    """Compact JSON, as every snapshot is written."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

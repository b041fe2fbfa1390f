"""A game being played on the server: its rules, positions, moves and seats.

`LiveGame` is the in-memory mirror of a stored game (`ludoteca.web.storage.GameRow`). To keep a
cached game at kilobytes, it holds the moves, who played each, the start, the current position
and the positions of the last `RECENT_PLIES` moves and of the chance outcomes just before them
(what a move, an undo and the move list need); an older position (a replay step, a review) is
rebuilt on demand from the nearest one kept, through the rules.
It decides nothing about the rules; it asks the states. Its ``version`` is the stored game's
version (`ludoteca.web.storage`): the copy is current while the two agree.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import InitVar, dataclass, field
from typing import Any

from ludoteca.core import records
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make
from ludoteca.web.clocks import ClockSpec, ClockState, spec_from_json
from ludoteca.web.game_json import clocks, game_dict
from ludoteca.web.storage import GameChanges, GameRow, SeatRow

HUMAN = "human"
INVITE = "invite"
COMPUTER = "computer"

#: The positions kept besides the start and the current one: after each of the last moves.
RECENT_PLIES = 2

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
        positions: The start position followed by the position after each move (given when
            the copy is made; only the recent ones are kept, `state_at` rebuilds the others).
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
    positions: InitVar[list[State]]
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
    #: The click paths of the latest board drawn, by move number (they mark the next board's
    #: last move without working them out again).
    click_paths: dict[int, dict[str, list[str]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    #: The move list's entries made so far (`ludoteca.web.game_json.move_list`).
    move_entries: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)
    #: The first of those entries as JSON texts (`ludoteca.web.game_json.game_json`).
    move_entries_json: list[str] = field(default_factory=list, repr=False, compare=False)
    _start: State = field(init=False, repr=False, compare=False)
    _current: State = field(init=False, repr=False, compare=False)
    #: The positions kept before the current one: after each of the `RECENT_PLIES` moves before
    #: the last, by move count.
    _recent: dict[int, State] = field(init=False, repr=False, compare=False)
    #: Who was to move before each move (`mover`): a seat, or `CHANCE`.
    _movers: list[int | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self, positions: list[State]) -> None:
        if len(positions) != len(self.moves) + 1:
            raise ValueError("a game's positions are its start and the one after each move")
        self._start = positions[0]
        self._current = positions[-1]
        self._movers = [state.to_move for state in positions[:-1]]
        self._recent = {}
        self._keep_recent(positions, 0)

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
        shared = 0
        if previous is not None:
            for mine, stored in zip(previous.moves, row.moves, strict=False):
                if mine.text != stored:
                    break
                shared += 1
        live = cls(
            id=row.id,
            game=game,
            seats=row.seats,
            positions=[start],
            resigned=row.resigned,
            created=row.created,
            updated=row.updated,
            version=row.version,
            hints=row.hints,
        )
        live.set_extras(row)
        if previous is not None:
            live._adopt(previous, shared)
        for text in row.moves[shared:]:
            live.push(live.state.parse_move(text))
        return live

    def catch_up(self, changes: GameChanges, *, one_change: bool) -> None:
        """Bring this copy up to the stored game in place: the new moves, or an undo.

        Args:
            changes: The stored game's columns and its moves after ``changes.first - 1``.
            one_change: Whether ``changes`` is exactly one change after this copy's version:
                then the stored moves extend this copy's (a move) or keep a prefix of them (an
                undo), and ``changes`` holds only the moves after this copy's. Otherwise
                ``changes`` must hold every move (``first == 1``); they are compared with this
                copy's and what differs is taken back and played again.

        Raises:
            LudotecaError: A stored move is no longer legal (reload the whole game).
            ValueError: ``changes`` does not hold the moves needed.
        """
        if one_change:
            if changes.first != self.ply + 1:
                raise ValueError("one change is read from this copy's move count on")
            if changes.move_count < self.ply:
                self.truncate(changes.move_count)
            new = changes.moves
        else:
            if changes.first != 1:
                raise ValueError("several changes are compared over every move")
            shared = 0
            for mine, stored in zip(self.moves, changes.moves, strict=False):
                if mine.text != stored:
                    break
                shared += 1
            if shared < self.ply:
                self.truncate(shared)
            new = changes.moves[shared:]
        for text in new:
            self.push(self.state.parse_move(text))
        self.seats = changes.seats
        self.resigned = changes.resigned
        self.version = changes.version
        self.updated = changes.updated
        self.since = time.monotonic()
        self.set_extras(changes)

    def set_extras(self, row: GameRow | GameChanges) -> None:
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
        return self._current

    @property
    def start(self) -> State:
        """The start position."""
        return self._start

    @property
    def states(self) -> list[State]:
        """The start and the position after each move (rebuilt: prefer `state` or `state_at`)."""
        return self.states_to(self.ply)

    def states_to(self, ply: int) -> list[State]:
        """The start and the positions after the first ``ply`` moves."""
        return self.states_between(0, ply)

    def states_between(self, first: int, last: int) -> list[State]:
        """The positions after ``first``, ``first + 1``, ... ``last`` moves, in one replay."""
        states = [self.state_at(first)]
        for number in range(first + 1, last + 1):
            kept = self._current if number == self.ply else self._recent.get(number)
            states.append(kept if kept is not None else states[-1].apply(self.moves[number - 1]))
        return states

    def state_at(self, ply: int) -> State:
        """The position after the first ``ply`` moves (0: the start)."""
        if ply == self.ply:
            return self._current
        if ply == 0:
            return self._start
        kept = self._recent.get(ply)
        if kept is not None:
            return kept
        earlier = max((n for n in self._recent if n < ply), default=0)
        state = self._recent[earlier] if earlier else self._start
        for move in self.moves[earlier:ply]:
            state = state.apply(move)
        return state

    def _adopt(self, previous: LiveGame, shared: int) -> None:
        """Take the first ``shared`` moves, their positions and move list from ``previous``."""
        self._current = previous.state_at(shared)
        self.moves = previous.moves[:shared]
        self._movers = previous._movers[:shared]
        self._recent = {n: s for n, s in previous._recent.items() if n <= shared}
        self.move_entries = previous.move_entries[:shared]
        self.move_entries_json = previous.move_entries_json[:shared]

    def _keep_recent(self, states: list[State], first: int) -> None:
        """Remember ``states[i]`` as the position after ``first + i`` moves; forget old ones."""
        for offset, state in enumerate(states):
            if first + offset > 0:
                self._recent[first + offset] = state
        oldest = self.ply - RECENT_PLIES
        # The move list numbers a player's move with the chance outcomes just before it, so the
        # next listing starts from the position before the first of them: keep those too (else
        # every move of a dice game replayed it from the start).
        while oldest > 0 and self._movers[oldest - 1] == CHANCE:
            oldest -= 1
        for number in [n for n in self._recent if n < oldest or n >= self.ply]:
            del self._recent[number]

    @property
    def ply(self) -> int:
        """How many moves (chance outcomes included) have been played."""
        return len(self.moves)

    def push(self, move: Move) -> None:
        """Play a legal move (the caller has checked it with `State.parse_move`)."""
        self.extend([move], [self._current.apply(move)])

    def extend(self, moves: list[Move], states: list[State]) -> None:
        """Add moves already played: ``states[i]`` is the position after ``moves[i]``."""
        first = self.ply + 1
        before = [self._current, *states[:-1]]
        self._movers.extend(state.to_move for state in before)
        self.moves.extend(moves)
        self._current = states[-1] if states else self._current
        # ``before[i]`` is the position after ``first - 1 + i`` moves: the one that was current
        # and those passed through, so that the move list and the board's last move (the
        # position before the current one) need no replay from the start.
        self._keep_recent(before, first - 1)

    def truncate(self, keep: int) -> None:
        """Take back every move after the first ``keep``."""
        current = self.state_at(keep)
        del self.moves[keep:]
        del self._movers[keep:]
        del self.move_entries[keep:]
        del self.move_entries_json[keep:]
        self._current = current
        self._keep_recent([], keep)

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
        return self._movers[number - 1]

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
        """The clocks for the API (`ludoteca.web.game_json.clocks`)."""
        return clocks(self, now)

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
        """The JSON-ready state of the game for the API (`ludoteca.web.game_json.game_dict`)."""
        return game_dict(self)


def seat_spec(seat: SeatRow) -> str:
    """How a seat is named in saved games: ``human``, ``invite`` or the agent spec."""
    return seat.agent if seat.kind == COMPUTER and seat.agent else seat.kind

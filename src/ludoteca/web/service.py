"""The game service: creating games, playing moves, the computer's turns and live updates.

Every change to a game runs under that game's `asyncio.Lock` and is committed to the store
before the caller gets an answer; the store checks the move number again inside its transaction,
so of two moves sent at the same moment exactly one is accepted. Chance nodes are resolved here
with the server's own random generator (`ludoteca.core.chance.sample_outcome`) and recorded as
moves. Computer players think in a thread pool, so the server keeps answering meanwhile; each
change is pushed to the game's subscribers (the WebSocket connections).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import ludoteca.ai
from ludoteca.ai import LEVELS, Agent, agent_from_spec
from ludoteca.core.chance import sample_outcome
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Move
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make
from ludoteca.web.boards import board_of
from ludoteca.web.errors import (
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    UnavailableError,
    http_error,
)
from ludoteca.web.live import COMPUTER, HUMAN, INVITE, LiveGame, new_game_id, new_token
from ludoteca.web.storage import GameStore, MoveConflictError, SeatRow

log = logging.getLogger(__name__)

SEAT_FORMS = "human, invite, random or level:1 … level:5"


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game and the secret tokens of its seats played by people."""

    live: LiveGame
    tokens: dict[int, str]


class GameService:
    """The games of one server: a cache over the store, locks, computer turns, subscribers."""

    def __init__(self, store: GameStore, *, seed: int | None = None, threads: int = 2) -> None:
        self.store = store
        self._rng = random.Random(seed)
        self._games: dict[str, LiveGame] = {}
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._agents: dict[tuple[str, int], Agent] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._subscribers: dict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="ludoteca-ai")

    async def close(self) -> None:
        """Stop the computer players' tasks and threads."""
        for task in list(self._tasks.values()):
            task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- reading -----------------------------------------------------------------------------

    def get(self, game_id: str) -> LiveGame:
        """The game with this id (loaded from the store on first use).

        Raises:
            NotFoundError: No game has this id.
        """
        live = self._games.get(game_id)
        if live is not None:
            self._schedule_computer(live)  # resumes a computer that failed or was interrupted
            return live
        row = self.store.load(game_id)
        if row is None:
            raise NotFoundError(f"there is no game {game_id!r}; GET /api/games lists the games")
        try:
            live = LiveGame.from_row(row)
        except LudotecaError as error:
            raise ConflictError(f"game {game_id!r} cannot be replayed: {error}") from None
        self._games[game_id] = live
        self._schedule_computer(live)
        return live

    def list_games(self, limit: int = 100) -> list[dict[str, Any]]:
        """The most recently changed games, with their state (running or over) and result."""
        listed = []
        for row in self.store.list_games()[:limit]:
            try:
                live = self.get(row["id"])
            except LudotecaError:
                continue
            result = live.result
            listed.append(
                {
                    "id": live.id,
                    "game": live.game.id,
                    "name": live.game.name,
                    "players": [
                        f"{live.game.player_names[s.seat]}: {s.agent or s.kind}" for s in live.seats
                    ],
                    "ply": live.ply,
                    "status": "over" if result is not None else "running",
                    "result": None if result is None else result.reason,
                    "created": live.created,
                    "updated": live.updated,
                }
            )
        return listed

    def payload(self, live: LiveGame) -> dict[str, Any]:
        """What the page needs: the game (`LiveGame.to_dict`) and its board."""
        return {"type": "state", "game": live.to_dict(), "board": self.board(live)}

    def board(self, live: LiveGame, at: int | None = None) -> dict[str, Any]:
        """The board after ``at`` moves (default: now), the last move highlighted."""
        ply = live.ply if at is None else at
        if not 0 <= ply <= live.ply:
            raise BadRequestError(f"at must be a move number from 0 to {live.ply}; got {at}")
        state = live.states[ply]
        previous = live.states[ply - 1] if ply else None
        last = live.moves[ply - 1].text if ply else None
        is_now = ply == live.ply
        result = live.result
        status = ""
        if is_now and result is not None and result.resigned is not None:
            status = f"{result.reason}."
        board = board_of(
            state,
            previous=previous,
            last_move=last,
            status=status,
            with_clicks=is_now and live.human_to_move,
        )
        return {"ply": ply, "last_move": last, **board.to_dict()}

    # -- changing ----------------------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        *,
        options: dict[str, Any],
        seats: Sequence[str],
        position: str | None = None,
    ) -> CreatedGame:
        """Create and store a game; chance nodes at the start are resolved at once.

        Raises:
            BadRequestError: An unknown game or option, a bad position or seat.
            UnavailableError: A computer level this installation does not have.
        """
        try:
            game = make(game_id, **options)
            start = game.parse_state(position) if position is not None else game.initial_state()
        except LudotecaError as error:
            raise http_error(error) from None
        if len(seats) != game.num_players:
            raise BadRequestError(
                f"{game.name} has {game.num_players} seat(s) ({', '.join(game.player_names)}); "
                f"got {len(seats)} in seats"
            )
        rows = [self._seat_row(game.id, index, spec) for index, spec in enumerate(seats)]
        live = LiveGame(id=new_game_id(), game=game, seats=tuple(rows), states=[start])
        self.store.create_game(
            live.id,
            game=game.id,
            options=game.options,
            start=None if start == game.initial_state() else start.to_text(),
            seats=rows,
        )
        stored = self.store.load(live.id)
        assert stored is not None
        live.created, live.updated = stored.created, stored.updated
        self._games[live.id] = live
        async with self._locks[live.id]:
            self._resolve_chance(live)
        self._schedule_computer(live)
        tokens = {row.seat: row.token for row in rows if row.token is not None}
        return CreatedGame(live=live, tokens=tokens)

    def _seat_row(self, game_id: str, index: int, spec: str) -> SeatRow:
        kind = spec.strip().lower()
        if kind in (HUMAN, INVITE):
            return SeatRow(seat=index, kind=kind, agent=None, token=new_token())
        if kind.startswith("level:") and kind[6:].isdigit() and int(kind[6:]) not in LEVELS:
            raise BadRequestError(f"seat {index}: computer levels are 1 to 5; got {spec!r}")
        try:
            agent_from_spec(kind, make(game_id), seed=0)
        except LudotecaError as error:
            if kind.startswith("level:"):
                raise UnavailableError(
                    f"seat {index}: computer {spec!r} is not available in this installation "
                    f"({error})"
                ) from None
            raise BadRequestError(
                f"seat {index}: {spec!r} is not a seat; accepted: {SEAT_FORMS}"
            ) from None
        return SeatRow(seat=index, kind=COMPUTER, agent=kind, token=None)

    async def play(
        self, game_id: str, text: str, token: str | None, *, ply: int | None = None
    ) -> LiveGame:
        """Play a person's move, given by its seat's token.

        Args:
            game_id: The game.
            text: The move in notation.
            token: The secret token of the seat to move.
            ply: The number of moves the player has seen; a different count means the game has
                moved on and the move is refused.

        Raises:
            NotFoundError, ForbiddenError, ConflictError, BadRequestError: see the API.
        """
        live = self.get(game_id)
        async with self._locks[game_id]:
            seat = live.seat_of_token(token)
            if seat is None:
                raise ForbiddenError("this token does not belong to a seat of this game")
            self._check_running(live)
            if live.to_move != seat:
                raise ConflictError(
                    f"it is not your turn: {live.player_name(live.to_move)} is to move, "
                    f"you play {live.player_name(seat)}"
                )
            if ply is not None and ply != live.ply:
                raise ConflictError(
                    f"the game has moved on: you saw move {ply}, it is now at move {live.ply}"
                )
            try:
                move = live.state.parse_move(text)
            except LudotecaError as error:
                raise http_error(error) from None
            self._commit(live, move)
            self._resolve_chance(live)
        self._changed(live)
        return live

    async def undo(self, game_id: str, token: str | None) -> LiveGame:
        """Take back the token holder's last move and every move after it.

        Raises:
            ForbiddenError: A bad token.
            ConflictError: Undo is not allowed in this game, or there is nothing to undo.
        """
        live = self.get(game_id)
        async with self._locks[game_id]:
            if live.seat_of_token(token) is None:
                raise ForbiddenError("this token does not belong to a seat of this game")
            if live.has_invited_player:
                raise ConflictError("undo is not allowed in a game against an invited player")
            if live.resigned is not None:
                raise ConflictError("the game was resigned; a resignation cannot be undone")
            keep = next(
                (
                    number - 1
                    for number in range(live.ply, 0, -1)
                    if self._is_person(live, live.mover(number))
                ),
                None,
            )
            if keep is None:
                raise ConflictError("there is no move of yours to undo")
            self.store.truncate_moves(live.id, keep)
            live.truncate(keep)
        self._changed(live)
        return live

    async def resign(self, game_id: str, token: str | None) -> LiveGame:
        """The token holder's seat resigns; the game is over.

        Raises:
            ForbiddenError: A bad token.
            ConflictError: The game is already over.
        """
        live = self.get(game_id)
        async with self._locks[game_id]:
            seat = live.seat_of_token(token)
            if seat is None:
                raise ForbiddenError("this token does not belong to a seat of this game")
            self._check_running(live)
            self.store.set_resigned(live.id, seat)
            live.resigned = seat
        self._changed(live)
        return live

    async def hint(self, game_id: str) -> dict[str, Any]:
        """The computer's suggestion for the person to move: the move and a win chance.

        Raises:
            UnavailableError: This installation has no hints yet.
            ConflictError: No person is to move.
        """
        live = self.get(game_id)
        hint_function = getattr(ludoteca.ai, "hint", None)
        if hint_function is None:
            raise UnavailableError("hints are not available in this installation of Ludoteca")
        if not live.human_to_move:
            raise ConflictError("a hint is for a person to move, and no person is to move now")
        state = live.state
        loop = asyncio.get_running_loop()
        hint = await loop.run_in_executor(self._executor, hint_function, state)
        return {
            "move": str(hint.move),
            "win_chance": float(hint.win_chance),
            "player": live.player_name(state.to_move),
            "ply": live.ply,
        }

    # -- internals ---------------------------------------------------------------------------

    @staticmethod
    def _is_person(live: LiveGame, seat: int | None) -> bool:
        return seat is not None and seat != CHANCE and not live.is_computer(seat)

    @staticmethod
    def _check_running(live: LiveGame) -> None:
        result = live.result
        if result is not None:
            raise ConflictError(f"the game is over ({result.reason}); no move is possible")

    def _commit(self, live: LiveGame, move: Move) -> None:
        """Store ``move`` as the next move, then play it in memory (caller holds the lock)."""
        try:
            self.store.append_move(live.id, live.ply + 1, move.text)
        except MoveConflictError as error:
            raise ConflictError(str(error)) from None
        live.push(move)
        live.updated = _now()

    def _resolve_chance(self, live: LiveGame) -> None:
        """Roll for every chance node reached (caller holds the lock)."""
        while not live.is_over and live.state.to_move == CHANCE:
            self._commit(live, sample_outcome(live.state, self._rng))

    def _changed(self, live: LiveGame) -> None:
        """Tell the subscribers, and let the computer move if it is its turn."""
        self._schedule_computer(live)
        self.publish(live)

    def publish(self, live: LiveGame) -> None:
        """Send the game's new state to every subscriber."""
        queues = self._subscribers.get(live.id)
        if not queues:
            return
        payload = self.payload(live)
        for queue in queues:
            queue.put_nowait(payload)

    def subscribe(self, game_id: str) -> asyncio.Queue[dict[str, Any]]:
        """A queue that receives the game's state after every change."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._subscribers[game_id].add(queue)
        return queue

    def unsubscribe(self, game_id: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop sending to ``queue``."""
        self._subscribers[game_id].discard(queue)

    def _schedule_computer(self, live: LiveGame) -> None:
        if not live.computer_to_move:
            return
        running = self._tasks.get(live.id)
        if running is not None and not running.done():
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # loaded outside the server loop: the next request schedules it
            return
        self._tasks[live.id] = asyncio.create_task(self._computer_turns(live))

    async def _computer_turns(self, live: LiveGame) -> None:
        """Let the computer move while it is its turn (a person's undo interrupts it)."""
        loop = asyncio.get_running_loop()
        while live.computer_to_move:
            seat = live.to_move
            assert seat is not None
            agent = self._agent(live, seat)
            ply, state = live.ply, live.state
            try:
                move = await loop.run_in_executor(self._executor, agent.choose, state)
            except Exception:
                log.exception("the computer failed to move in game %s", live.id)
                return
            async with self._locks[live.id]:
                if live.ply != ply or live.is_over:  # undone or resigned meanwhile
                    continue
                try:
                    self._commit(live, move)
                    self._resolve_chance(live)
                except LudotecaError:
                    log.exception("the computer's move could not be stored in game %s", live.id)
                    return
            self.publish(live)

    def _agent(self, live: LiveGame, seat: int) -> Agent:
        key = (live.id, seat)
        agent = self._agents.get(key)
        if agent is None:
            spec = live.seats[seat].agent or "random"
            agent = agent_from_spec(spec, live.game, seed=self._rng.randrange(2**32))
            self._agents[key] = agent
        return agent


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")

"""The game service: creating games, playing moves, the computer's turns and live updates.

The database is the authority (`ludoteca.web.storage`); this process keeps a bounded cache of
the games it serves (`LiveGame`, least recently used evicted first). A change to a game is
prepared in memory under that game's `asyncio.Lock`, written in one transaction that is
refused if the stored game has moved on since this copy (another request, another server
process), and only then applied to the copy, published and answered. A write that loses such a
race reloads the game and is decided again as if the copy had been current, so a stale process
can never overwrite or delete another's move.

The event loop never waits on the database or a search: every query runs on a worker thread
(writes to SQLite on one thread, since SQLite has one writer at a time) and every search in a
worker process (`ludoteca.web.searches`). Chance nodes are resolved here with the server's own
random generator and stored with the move that reached them. Each change is serialised once
(`Snapshot`) and pushed to the game's WebSocket subscribers in this process; other processes
hear of it through the change feed (`ludoteca.web.changes`) and push it to theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
import unicodedata
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from ludoteca.ai import LEVELS
from ludoteca.core.chance import sample_outcome
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import game_class, make
from ludoteca.web.boards import board_of
from ludoteca.web.changes import ChangeFeed
from ludoteca.web.clocks import ClockSpec, parse_spec, spec_from_json, spec_to_json, start_state
from ludoteca.web.errors import (
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    WebError,
    http_error,
)
from ludoteca.web.live import (
    COMPUTER,
    HUMAN,
    INVITE,
    LiveGame,
    Snapshot,
    new_game_id,
    new_token,
    to_json,
)
from ludoteca.web.mailbox import Mailbox
from ludoteca.web.rating_store import RatingStore
from ludoteca.web.readiness import Readiness
from ludoteca.web.reviews import DEFAULT_STALE_SECONDS, Reviews
from ludoteca.web.schema import NO_WINNER
from ludoteca.web.searches import (
    HINTS,
    PoolBusyError,
    SearchFailedError,
    SearchJob,
    SearchPool,
    SearchTimeoutError,
    lane_of,
)
from ludoteca.web.storage import (
    REVIEW_CHANGE,
    ChallengeRow,
    ChallengeTakenError,
    GameStore,
    GameSummary,
    SeatRow,
    VersionConflictError,
    Written,
    now_stamp,
)

log = logging.getLogger(__name__)

SEAT_FORMS = "human, invite, random, level:1, level:2, level:3, level:4 or level:5"
COMPUTER_SEATS = ("random", *(f"level:{level}" for level in LEVELS))
#: Games kept in memory per process; the least recently used beyond this are dropped.
DEFAULT_CACHE_SIZE = 2000
#: A computer turn nobody has played for this long is taken up by whichever process sees it
#: (its process may have been stopped); a fresher one is left to the process playing it.
STALLED_SECONDS = 5.0
#: Attempts at one change when other writers keep winning the race.
WRITE_ATTEMPTS = 5
PER_PAGE = 50
#: The longest display name, in characters.
MAX_NAME = 24
#: Sides a challenge may offer the other player's choice from.
RANDOM_SIDE = "random"

T = TypeVar("T")


class RatedWithoutAccountError(WebError):
    """A rated challenge posted or accepted by a browser not logged in to an account."""

    status = 401


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game and the secret tokens of its seats played by people."""

    live: LiveGame
    tokens: dict[int, str]


class GameService:
    """The games of one server process: a cache over the store, computer turns, subscribers."""

    def __init__(
        self,
        store: GameStore,
        *,
        seed: int | None = None,
        pool: SearchPool | None = None,
        cache_size: int = DEFAULT_CACHE_SIZE,
        review_budget: Any = None,
        review_stale_seconds: float = DEFAULT_STALE_SECONDS,
        readiness: Readiness | None = None,
    ) -> None:
        self.store = store
        self.pool = pool if pool is not None else SearchPool()
        # Games whose kernels are not loaded yet are refused, never compiled on the event loop.
        self.readiness = readiness if readiness is not None else Readiness()
        self.cache_size = cache_size
        self._rng = random.Random(seed)
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._refreshing: set[str] = set()
        self._subscribers: dict[str, set[Mailbox]] = defaultdict(set)
        # SQLite has one writer at a time: one writing thread queues them without lock waits.
        self._writer = ThreadPoolExecutor(
            max_workers=1 if store.is_sqlite else 4, thread_name_prefix="ludoteca-db-write"
        )
        self._reader = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ludoteca-db-read")
        self._feed = ChangeFeed(store, self._reader, self._heard, self._resync)
        self._flag_timers: dict[str, asyncio.TimerHandle] = {}
        self._sweep: asyncio.Task[None] | None = None
        self._started = False
        self._closing = False
        self.reviews = Reviews(self, budget=review_budget, stale_seconds=review_stale_seconds)

    async def start(self) -> None:
        """Start hearing other processes' changes (call on the server's event loop)."""
        if not self._started:
            self._started = True
            self._feed.start()
            # Games with a running clock are watched here, so a flag is noticed on time even
            # after a restart when nobody looks at the game.
            self._sweep = asyncio.get_running_loop().create_task(self.sweep_clocks())

    async def close(self) -> None:
        """Stop the computer players, the change feed and the database threads."""
        self._closing = True
        if self._sweep is not None:
            self._sweep.cancel()
        for handle in self._flag_timers.values():
            handle.cancel()
        for task in list(self._tasks.values()):
            task.cancel()
        await self.reviews.close()
        await self._feed.close()
        await self.pool.close()
        self._writer.shutdown(wait=False, cancel_futures=True)
        self._reader.shutdown(wait=False, cancel_futures=True)

    async def _write(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, lambda: function(*args, **kwargs))

    async def _read(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader, lambda: function(*args, **kwargs))

    async def write(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a write of the store on the writing thread (never on the event loop)."""
        return await self._write(function, *args, **kwargs)

    async def read(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a read of the store on a reading thread (never on the event loop)."""
        return await self._read(function, *args, **kwargs)

    @property
    def closing(self) -> bool:
        """Whether the service is stopping."""
        return self._closing

    # -- reading -----------------------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game with this id (loaded from the store when this process does not hold it).

        Raises:
            NotFoundError: No game has this id.
            ConflictError: The stored game can no longer be replayed.
        """
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
            if time.monotonic() - live.since > STALLED_SECONDS:
                self._schedule_computer(live)  # resumes a computer turn left unplayed
            return live
        return await self._load(game_id)

    async def current(self, game_id: str) -> LiveGame:
        """The game as stored now: like `get`, but a copy another process overtook is reloaded.

        Reads (the game, its board, its record, a watcher's first state) ask the database for
        the version, since the change feed may not have brought the news yet.

        Raises:
            NotFoundError: No game has this id.
        """
        live = await self.get(game_id)
        stored = await self._read(self.store.version, game_id)
        if stored is not None and stored != live.version:
            live = await self._load(game_id)
        if live.clock_state is not None and live.clock_state.flagged(time.time()) is not None:
            live = await self._attempt(game_id, self._flag_if_due)
        return live

    async def _load(self, game_id: str) -> LiveGame:
        if len(game_id) > 64:
            raise NotFoundError(f"there is no game {game_id[:64]!r}…")
        row = await self._read(self.store.load, game_id)
        if row is None:
            raise NotFoundError(f"there is no game {game_id!r}; GET /api/games lists the games")
        self.readiness.check(row.game)
        async with self._locks[game_id]:
            current = self._games.get(game_id)
            if current is not None and current.version >= row.version:
                return current
            try:
                live = LiveGame.from_row(row, previous=current)
            except LudotecaError as error:
                raise ConflictError(f"game {game_id!r} cannot be replayed: {error}") from None
            self._remember(live)
        self._arm_flag(live)
        if current is None:
            self._resume_later(live)
        return live

    def _remember(self, live: LiveGame) -> None:
        """Cache ``live``, dropping the least recently used games that nothing is using."""
        self._games[live.id] = live
        self._games.move_to_end(live.id)
        excess = len(self._games) - self.cache_size
        for game_id in list(self._games)[:excess] if excess > 0 else ():
            if game_id in self._tasks or self._subscribers.get(game_id):
                continue
            lock = self._locks.get(game_id)
            if lock is not None and lock.locked():
                continue
            del self._games[game_id]
            self._locks.pop(game_id, None)
            self._subscribers.pop(game_id, None)

    def _resume_later(self, live: LiveGame) -> None:
        """A game just loaded with the computer to move: play it now if nobody has lately."""
        if not live.computer_to_move:
            return
        age = _age_seconds(live.updated)
        if age >= STALLED_SECONDS:
            self._schedule_computer(live)
            return
        loop = asyncio.get_running_loop()
        loop.call_later(STALLED_SECONDS - age, self._resume_if_stalled, live.id, live.version)

    def _resume_if_stalled(self, game_id: str, version: int) -> None:
        live = self._games.get(game_id)
        if live is not None and live.version == version and not self._closing:
            self._schedule_computer(live)

    async def list_games(self, page: int = 1, per_page: int = PER_PAGE) -> dict[str, Any]:
        """A page of games, most recently changed first, with their state and result."""
        summaries, total = await self._read(
            self.store.list_games, offset=(page - 1) * per_page, limit=per_page
        )
        return {
            "games": [_summary_dict(summary) for summary in summaries],
            "page": page,
            "per_page": per_page,
            "total": total,
            "pages": max(1, -(-total // per_page)),
        }

    def snapshot(self, live: LiveGame) -> Snapshot:
        """The game now, serialised once per version."""
        cached = live._snapshot
        if cached is None or cached.version != live.version:
            cached = Snapshot(version=live.version, game=to_json(live.to_dict()))
            live._snapshot = cached
        return cached

    def board_json(self, live: LiveGame) -> str:
        """The board now, drawn and serialised once per version."""
        snapshot = self.snapshot(live)
        if snapshot.board is None:
            snapshot.board = to_json(self.board(live))
        return snapshot.board

    def message(self, live: LiveGame) -> str:
        """The WebSocket message for the game now (game and board)."""
        return self.snapshot(live).message(self.board_json(live))

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
            previous_paths=live.click_paths.get(ply - 1),
        )
        if is_now and live.human_to_move:
            live.click_paths = {ply: board.click_paths}  # the next board's last-move path
        return {"ply": ply, "last_move": last, **board.to_dict()}

    # -- changing ----------------------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        *,
        options: dict[str, Any],
        seats: Sequence[str],
        position: str | None = None,
        hints: bool | None = None,
        clock: object = None,
        names: Sequence[str | None] = (),
    ) -> CreatedGame:
        """Create and store a game; chance nodes at the start are resolved at once.

        Args:
            game_id: The game.
            options: Its options by name.
            seats: Who plays each seat (`SEAT_FORMS`).
            position: A start position text, or ``None`` for the usual start.
            hints: Whether the players may ask for hints (default: only against the computer).
            clock: The clock as the API takes it (`ludoteca.web.clocks.parse_spec`), or ``None``.
            names: Display names of the seats played by people (checked with `clean_name`).

        Raises:
            BadRequestError: An unknown game or option, a bad position, seat, clock or name.
            GamePreparingError: The game's kernels are still being prepared.
        """
        self.readiness.check(game_id)
        game, start = _rules(game_id, options, position)
        if len(seats) != game.num_players:
            raise BadRequestError(
                f"{game.name} has {game.num_players} seat(s) ({', '.join(game.player_names)}); "
                f"got {len(seats)} in seats"
            )
        rows = [_seat_row(index, spec) for index, spec in enumerate(seats)]
        for index, name in enumerate(names[: len(rows)]):
            if name is not None and rows[index].kind != COMPUTER:
                rows[index] = replace(rows[index], name=clean_name(name))
        if hints is None:
            hints = any(row.kind == COMPUTER for row in rows)
        return await self._new_game(new_game_id(), game, start, rows, parse_spec(clock), hints)

    async def _new_game(
        self,
        new_id: str,
        game: Game,
        start: State,
        rows: list[SeatRow],
        clock: ClockSpec | None,
        hints: bool,
        **store_options: Any,
    ) -> CreatedGame:
        """Store a new game with these seats and clock; remember it and let the computer start."""
        moves, states = self._rolls(start)
        end = states[-1].outcome if states else start.outcome
        clock_state = start_state(clock, [row.kind != COMPUTER for row in rows])
        try:
            stored = await self._write(
                self.store.create_game,
                new_id,
                game=game.id,
                options=game.options,
                start=None if start == game.initial_state() else start.to_text(),
                seats=rows,
                moves=[move.text for move in moves],
                result=None if end is None else end.reason,
                hints=hints,
                clock=spec_to_json(clock),
                clock_state=None if clock_state is None else clock_state.to_json(),
                **store_options,
            )
        except ChallengeTakenError as error:
            raise ConflictError(str(error)) from None
        live = LiveGame(
            id=stored.id,
            game=game,
            seats=tuple(rows),
            states=[start, *states],
            moves=moves,
            created=stored.created,
            updated=stored.updated,
            version=stored.version,
            hints=hints,
            clock=clock,
            clock_state=clock_state,
            rated=bool(store_options.get("rated", False)),
        )
        self._remember(live)
        self._schedule_computer(live)
        tokens = {row.seat: row.token for row in rows if row.token is not None}
        return CreatedGame(live=live, tokens=tokens)

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

        def decide(live: LiveGame) -> list[Move]:
            seat = self._seat(live, token)
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
                return [live.state.parse_move(text)]
            except LudotecaError as error:
                raise http_error(error) from None

        return await self._change(game_id, decide)

    async def undo(self, game_id: str, token: str | None) -> LiveGame:
        """Take back the token holder's last move and every move after it.

        Raises:
            ForbiddenError: A bad token.
            ConflictError: Undo is not allowed in this game (an invited player, or the game is
                over: by the rules, a resignation, a time out or an agreed draw), or there is
                nothing to undo.
        """

        async def attempt(live: LiveGame) -> None:
            self._seat(live, token)
            if live.has_invited_player:
                raise ConflictError("undo is not allowed in a game against an invited player")
            result = live.result
            if result is not None:
                raise ConflictError(
                    f"the game is over ({result.reason}); the moves of a finished game "
                    "cannot be taken back"
                )
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
            clocks: dict[str, Any] = {}
            state = live.clock_state
            if state is not None:  # the time spent stays spent; the clock of the seat to move runs
                now = time.time()
                after = live.states[keep]
                seat = after.to_move if after.outcome is None else None
                state = state.stopped(now).run(
                    seat if seat is not None and seat >= 0 else None, now
                )
                clocks["clock_state"] = state.to_json()
            written = await self._write(
                self.store.truncate_moves, live.id, keep, based_on=live.version, **clocks
            )
            live.truncate(keep)
            live.clock_state = state
            self._moved_on(live, written)
            self._arm_flag(live)

        return await self._attempt(game_id, attempt)

    async def resign(self, game_id: str, token: str | None) -> LiveGame:
        """The token holder's seat resigns; the game is over.

        Raises:
            ForbiddenError: A bad token.
            ConflictError: The game is already over.
        """

        async def attempt(live: LiveGame) -> None:
            seat = self._seat(live, token)
            self._check_running(live)
            reason = f"{live.game.player_names[seat]} resigned"
            written = await self._write(
                self.store.set_resigned,
                live.id,
                seat,
                based_on=live.version,
                result=reason,
                **self._stop_clocks(live),
            )
            live.resigned = seat
            live.draw_offer = None
            self._moved_on(live, written)

        return await self._attempt(game_id, attempt)

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The strongest level's suggestion for the token holder, who must be to move.

        Raises:
            ForbiddenError: A bad token.
            ConflictError: Hints are off in this game, or the token holder is not to move.
            BusyError: Too many hints are being computed; try again shortly.
        """
        live = await self.get(game_id)
        seat = self._seat(live, token)
        if not live.hints:
            raise ConflictError(
                "hints are off in this game: they are offered in games against the computer, "
                "or when the game is created with hints on"
            )
        if live.to_move != seat:
            raise ConflictError("a hint is for the player to move, and it is not your turn")
        state = live.state
        job = SearchJob("hint", live.game.id, dict(live.game.options), state.to_text())
        try:
            move_text, win_chance, estimate, meaning = await self.pool.run(HINTS, job)
        except (PoolBusyError, SearchTimeoutError, SearchFailedError) as error:
            raise http_error(error) from None
        return {
            "move": move_text,
            "win_chance": float(win_chance),
            "estimate": estimate,
            "meaning": meaning,
            "player": live.player_name(state.to_move),
            "ply": live.ply,
        }

    # -- clocks --------------------------------------------------------------------------------

    @staticmethod
    def _stop_clocks(live: LiveGame) -> dict[str, Any]:
        """The columns that stop the game's clocks as it ends (none without a clock)."""
        if live.clock_state is None:
            return {}
        live.clock_state = live.clock_state.stopped(time.time())
        return {"clock_state": live.clock_state.to_json()}

    async def _flag_if_due(self, live: LiveGame) -> None:
        """End the game on time if the running clock has reached zero (lock held)."""
        state = live.clock_state
        if state is None or live.is_over:
            return
        seat = state.flagged(time.time())
        if seat is None:
            return
        reason = f"{live.game.player_names[seat]} ran out of time (time out)"
        stopped = state.stopped(time.time())
        written = await self._write(
            self.store.update_game,
            live.id,
            based_on=live.version,
            timed_out=seat,
            result=reason,
            clock_state=stopped.to_json(),
            draw_offer=None,
        )
        live.timed_out = seat
        live.clock_state = stopped
        live.draw_offer = None
        self._moved_on(live, written)

    def _arm_flag(self, live: LiveGame) -> None:
        """Check the game when its running clock reaches zero (a timer in this process)."""
        handle = self._flag_timers.pop(live.id, None)
        if handle is not None:
            handle.cancel()
        state = live.clock_state
        flag_at = state.flag_at() if state is not None and not live.is_over else None
        if flag_at is None or self._closing:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, flag_at - time.time()) + 0.05
        self._flag_timers[live.id] = loop.call_later(
            delay, lambda: loop.create_task(self._check_flag(live.id))
        )

    async def _check_flag(self, game_id: str) -> None:
        self._flag_timers.pop(game_id, None)
        try:
            await self.current(game_id)
        except LudotecaError as error:
            log.warning("could not check the clock of game %s: %s", game_id, error)

    async def sweep_clocks(self, game: str | None = None) -> None:
        """Load every running game with a clock, so that its flag is noticed here on time.

        Args:
            game: Only the games of this game id (the ones just ready to be loaded).
        """
        summaries, _ = await self._read(self.store.list_games, running=True, limit=10_000)
        for summary in summaries:
            if summary.clock is not None and game in (None, summary.game):
                with contextlib.suppress(LudotecaError):
                    await self.current(summary.id)

    # -- draws and rematches ---------------------------------------------------------------------

    async def draw(self, game_id: str, token: str | None, action: str) -> LiveGame:
        """Offer, accept or decline a draw (``action``: ``offer``, ``accept``, ``decline``).

        Raises:
            ForbiddenError: A bad token.
            ConflictError: No draw is possible in this game, the game is over, or there is no
                offer to accept or decline.
            BadRequestError: Another action.
        """
        if action not in ("offer", "accept", "decline"):
            raise BadRequestError(f"action must be offer, accept or decline; got {action[:20]!r}")

        async def attempt(live: LiveGame) -> None:
            seat = self._seat(live, token)
            self._check_running(live)
            if not live.draw_possible:
                raise ConflictError(
                    "a draw is agreed between people: not in a solitaire or against the computer"
                )
            offer = live.draw_offer
            columns: dict[str, Any]
            if action == "offer" and offer == seat:
                raise ConflictError("you have already offered a draw; the other player decides")
            if action in ("accept", "decline") and (offer is None or offer == seat):
                raise ConflictError("there is no draw offer from the other player to " + action)
            if action == "decline":
                columns = {"draw_offer": None}
            elif action == "accept" or offer is not None:  # two offers make an agreement
                columns = {
                    "agreed": "draw",
                    "draw_offer": None,
                    "result": "draw agreed by the players",
                    **self._stop_clocks(live),
                }
            else:
                columns = {"draw_offer": seat}
            written = await self._write(
                self.store.update_game, live.id, based_on=live.version, **columns
            )
            live.draw_offer = columns.get("draw_offer")
            if "agreed" in columns:
                live.agreed = "draw"
            self._moved_on(live, written)

        return await self._attempt(game_id, attempt)

    async def rematch(
        self, game_id: str, token: str | None, before_create: Callable[[], None] | None = None
    ) -> dict[str, Any]:
        """Offer or accept a rematch: the same game and clock, seats swapped.

        The first player to ask offers it; once every person in the game has asked (at once
        against the computer), the new game is created. Asking again after that answers the
        new game and the asker's seat and token in it. ``before_create`` is called just before
        the new game is created, and may refuse it by raising (the game-creation rate limit).

        Raises:
            ForbiddenError: A bad token.
            ConflictError: The game is not over yet.
        """
        created: list[CreatedGame] = []

        async def attempt(live: LiveGame) -> None:
            seat = self._seat(live, token)
            if live.result is None:
                raise ConflictError("a rematch is offered once the game is over")
            if live.rematch_id is not None:
                return
            people = [s.seat for s in live.seats if s.kind != COMPUTER]
            others = [p for p in people if p != seat]
            if others and live.rematch_offer not in others:
                if live.rematch_offer == seat:
                    return
                written = await self._write(
                    self.store.update_game, live.id, based_on=live.version, rematch_offer=seat
                )
                live.rematch_offer = seat
                self._moved_on(live, written)
                return
            if before_create is not None:
                before_create()
            count = len(live.seats)
            rows = [
                replace(live.seats[(new - 1) % count], seat=new, token=None) for new in range(count)
            ]
            rows = [
                replace(row, token=new_token()) if row.kind != COMPUTER else row for row in rows
            ]
            made = await self._new_game(
                new_game_id(),
                live.game,
                live.start,
                rows,
                live.clock,
                live.hints,
                rematch_of=(live.id, live.version),
            )
            created.append(made)
            live.rematch_id = made.live.id
            live.rematch_offer = None
            self._moved_on(live, Written(live.version + 1, made.live.created))

        live = await self._attempt(game_id, attempt)
        answer: dict[str, Any] = {"rematch": live.rematch_id, "offered_by": live.rematch_offer}
        if live.rematch_id is not None:
            new = created[0].live if created else await self.get(live.rematch_id)
            seat = self._seat(live, token)
            new_seat = (seat + 1) % len(live.seats)
            answer |= {"seat": new_seat, "token": new.seats[new_seat].token}
        return answer

    # -- open challenges ----------------------------------------------------------------------

    async def post_challenge(
        self,
        game_id: str,
        *,
        options: dict[str, Any],
        side: str,
        clock: object,
        name: str | None,
        session: str | None,
        rated: bool = False,
        account: str | None = None,
    ) -> ChallengeRow:
        """Post an open challenge to the lobby; anyone may accept it and take the other seat.

        Args:
            game_id: The game.
            options: Its options by name.
            side: The poster's player name (``Green``), its index, or ``random``.
            clock: The clock as the API takes it, or ``None``.
            name: The poster's display name.
            session: The poster's browser session (it gets the seat once accepted).
            rated: Whether the game is to be rated (`ludoteca.web.ratings`).
            account: The poster's account (needed for a rated challenge).

        Raises:
            BadRequestError: A bad game, option, side, clock or name.
            GamePreparingError: The game's kernels are still being prepared.
        """
        self.readiness.check(game_id)
        game, _ = _rules(game_id, options, None)
        if game.num_players != 2:
            raise BadRequestError(
                f"open challenges are for two players; {game.name} has {game.num_players}"
            )
        poster_name = _required_name(name)
        if rated and account is None:
            raise RatedWithoutAccountError(
                "a rated challenge is posted by a player logged in to an account "
                "(POST /api/login); post it with rated false to play a casual game"
            )
        spec = parse_spec(clock)
        seat = _side(game, side)
        stamp = now_stamp()
        challenge = ChallengeRow(
            id=new_game_id(),
            game=game.id,
            options=dict(game.options),
            clock=spec_to_json(spec),
            hints=False,
            poster_seat=seat,
            poster_name=poster_name,
            poster_session=session,
            secret=new_token(),
            game_id=new_game_id(),
            poster_token=new_token(),
            status="open",
            accepter_name=None,
            created=stamp,
            updated=stamp,
            rated=rated,
            poster_account=account,
        )
        await self._write(self.store.post_challenge, challenge)
        return challenge

    async def challenge(self, challenge_id: str) -> ChallengeRow:
        """The challenge with this id.

        Raises:
            NotFoundError: There is none.
        """
        found = await self._read(self.store.challenge, challenge_id[:64])
        if found is None:
            raise NotFoundError(f"there is no challenge {challenge_id[:64]!r}; GET /api/lobby")
        return found

    async def accept_challenge(
        self,
        challenge_id: str,
        *,
        name: str | None,
        session: str | None,
        account: str | None = None,
    ) -> tuple[CreatedGame, int]:
        """Accept an open challenge: its game is created with the accepter in the other seat.

        Of several accepting at once, exactly one gets the game; the others get 409.

        Raises:
            NotFoundError: No such challenge.
            ConflictError: It was accepted or withdrawn already, or it is the accepter's own.
            BadRequestError: No display name.
        """
        challenge = await self.challenge(challenge_id)
        accepter = _required_name(name)
        if challenge.status != "open":
            raise ConflictError(f"this challenge is no longer open (it was {challenge.status})")
        if session is not None and session == challenge.poster_session:
            raise ConflictError("this is your own challenge; wait for someone to accept it")
        if challenge.rated and account is None:
            raise RatedWithoutAccountError(
                "this challenge is rated: it is accepted by a player logged in to an account "
                "(POST /api/login), and only casual challenges are open to anyone"
            )
        if challenge.rated and account == challenge.poster_account:
            raise ConflictError("this is your own account's challenge; a rated game needs two")
        self.readiness.check(challenge.game)
        game, start = _rules(challenge.game, challenge.options, None)
        mine = 1 - challenge.poster_seat
        rows = [
            SeatRow(
                challenge.poster_seat,
                HUMAN,
                None,
                challenge.poster_token,
                challenge.poster_name,
                challenge.poster_account if challenge.rated else None,
            ),
            SeatRow(
                mine, INVITE, None, new_token(), accepter, account if challenge.rated else None
            ),
        ]
        rows.sort(key=lambda row: row.seat)
        spec = parse_spec(json.loads(challenge.clock)) if challenge.clock else None
        made = await self._new_game(
            challenge.game_id,
            game,
            start,
            rows,
            spec,
            challenge.hints,
            challenge=challenge.id,
            accepter_session=session,
            rated=challenge.rated,
        )
        return made, mine

    async def withdraw_challenge(self, challenge_id: str, secret: str | None) -> None:
        """Withdraw an open challenge, given the secret its posting answered.

        Raises:
            NotFoundError, ForbiddenError, ConflictError.
        """
        challenge = await self.challenge(challenge_id)
        if not isinstance(secret, str) or not secrets.compare_digest(
            challenge.secret.encode(), secret.encode()
        ):
            raise ForbiddenError("this secret does not belong to the challenge")
        try:
            await self._write(self.store.withdraw_challenge, challenge.id)
        except ChallengeTakenError as error:
            raise ConflictError(str(error)) from None

    async def lobby(self, session: str | None) -> dict[str, Any]:
        """Open challenges, running games to watch, and this browser's own games."""
        challenges = await self._read(self.store.open_challenges)
        running, _ = await self._read(self.store.list_games, running=True, limit=20)
        mine: list[GameSummary] = []
        if session is not None:
            mine, _ = await self._read(self.store.list_games, session=session, limit=20)
        return {
            "challenges": await with_poster_ratings(self, challenges, session),
            "playing": [_summary_dict(s) for s in running],
            "mine": [_summary_dict(s) for s in mine],
            **self.readiness.summary(),
        }

    # -- display names --------------------------------------------------------------------------

    async def set_name(self, session: str, name: str) -> str:
        """Set the display name of a browser session; answers the name as kept."""
        cleaned = clean_name(name)
        await self._write(self.store.set_session_name, session, cleaned)
        return cleaned

    async def name_of(self, session: str | None) -> str | None:
        """The display name of a browser session, if it chose one."""
        return None if session is None else await self._read(self.store.session_name, session)

    # -- browser sessions ----------------------------------------------------------------------

    async def session_secret(self) -> str:
        """The secret that signs browser sessions (shared by every server process)."""
        return await self._write(self.store.secret, "session")

    async def add_session_seats(self, session: str, game_id: str, seats: Sequence[int]) -> None:
        """Remember that the browser ``session`` plays these seats of the game."""
        await self._write(self.store.add_session_seats, session, game_id, seats)

    async def session_seats(self, session: str, game_id: str) -> list[int]:
        """The seats of the game that the browser ``session`` plays."""
        return await self._read(self.store.session_seats, session, game_id)

    # -- internals ---------------------------------------------------------------------------

    async def _change(self, game_id: str, decide: Callable[[LiveGame], list[Move]]) -> LiveGame:
        """Append the moves ``decide`` picks (plus the rolls they reach), race-free."""

        async def attempt(live: LiveGame) -> None:
            moves = decide(live)
            await self._append(live, moves)

        return await self._attempt(game_id, attempt)

    async def _attempt(self, game_id: str, attempt: Callable[[LiveGame], Any]) -> LiveGame:
        """Run a change under the game's lock; if another writer won, reload and decide again."""
        for _ in range(WRITE_ATTEMPTS):
            live = await self.get(game_id)
            try:
                async with self._locks[game_id]:
                    if self._games.get(game_id) is not live:
                        continue  # reloaded meanwhile: decide on the newer copy
                    await attempt(live)
            except VersionConflictError:
                await self._reload(game_id)
                continue
            except LudotecaError as error:
                # A refusal decided on a copy another process has overtaken would be wrong
                # (not your turn, illegal): refuse only what the stored game refuses.
                if await self._read(self.store.version, game_id) not in (None, live.version):
                    await self._reload(game_id)
                    continue
                raise http_error(error) from None
            self._changed(live)
            return live
        raise ConflictError("the game is changing too fast; look at it again and retry")

    async def _append(self, live: LiveGame, moves: list[Move]) -> None:
        """Store ``moves`` and the rolls after them, then play them in ``live`` (lock held)."""
        states = []
        state = live.state
        for move in moves:
            state = state.apply(move)
            states.append(state)
        rolls, roll_states = self._rolls(state)
        moves, states = moves + rolls, states + roll_states
        end = states[-1].outcome
        columns: dict[str, Any] = {}
        clock_state = None
        if live.clock is not None and live.clock_state is not None:
            now = time.time()
            mover = live.to_move
            clock_state = live.clock_state
            if mover is not None and mover >= 0 and clock_state.running == mover:
                clock_state = clock_state.charged(live.clock, mover, now)
            clock_state = clock_state.run(None, now)
            after = states[-1]
            nxt = after.to_move
            if end is None and nxt is not None and nxt >= 0 and len(after.legal_moves()) > 1:
                clock_state = clock_state.run(nxt, now)  # a forced move costs nothing
            columns["clock_state"] = clock_state.to_json()
        if live.draw_offer is not None:
            columns["draw_offer"] = None  # a move declines a standing draw offer
        if end is not None:
            columns["winner"] = NO_WINNER if end.winner is None else end.winner
        written = await self._write(
            self.store.append_moves,
            live.id,
            based_on=live.version,
            first=live.ply + 1,
            texts=[move.text for move in moves],
            result=None if end is None else end.reason,
            **columns,
        )
        live.extend(moves, states)
        if clock_state is not None:
            live.clock_state = clock_state
        live.draw_offer = None
        self._moved_on(live, written)
        self._arm_flag(live)

    def _rolls(self, state: State) -> tuple[list[Move], list[State]]:
        """Roll for every chance node from ``state`` on: the outcomes and the positions."""
        moves: list[Move] = []
        states: list[State] = []
        while not state.is_over and state.to_move == CHANCE:
            move = sample_outcome(state, self._rng)
            state = state.apply(move)
            moves.append(move)
            states.append(state)
        return moves, states

    @staticmethod
    def _moved_on(live: LiveGame, written: Written) -> None:
        live.version = written.version
        live.updated = written.updated
        live.since = time.monotonic()

    async def _reload(self, game_id: str) -> None:
        """Read the stored game again after losing a race to another writer."""
        with contextlib.suppress(NotFoundError):
            await self._load(game_id)

    @staticmethod
    def _seat(live: LiveGame, token: str | None) -> int:
        seat = live.seat_of_token(token)
        if seat is None:
            raise ForbiddenError("this token does not belong to a seat of this game")
        return seat

    @staticmethod
    def _is_person(live: LiveGame, seat: int | None) -> bool:
        return seat is not None and seat != CHANCE and not live.is_computer(seat)

    @staticmethod
    def _check_running(live: LiveGame) -> None:
        result = live.result
        if result is not None:
            raise ConflictError(f"the game is over ({result.reason}); no move is possible")

    def _changed(self, live: LiveGame) -> None:
        """Tell the subscribers, and let the computer move if it is its turn."""
        self._schedule_computer(live)
        self.publish(live)

    def publish(self, live: LiveGame) -> None:
        """Send the game's new state to every subscriber in this process."""
        mailboxes = self._subscribers.get(live.id)
        if not mailboxes:
            return
        message = self.message(live)
        for mailbox in mailboxes:
            mailbox.put(message)

    def has_subscribers(self, game_id: str) -> bool:
        """Whether a WebSocket of this process watches the game."""
        return bool(self._subscribers.get(game_id))

    def send(self, game_id: str, message: str) -> None:
        """Send a JSON message (text) to the game's subscribers in this process."""
        for mailbox in self._subscribers.get(game_id, ()):
            mailbox.put(message)

    def subscribe(self, game_id: str) -> Mailbox:
        """A mailbox that receives the game's state (a JSON message) after every change."""
        mailbox = Mailbox()
        self._subscribers[game_id].add(mailbox)
        return mailbox

    def unsubscribe(self, game_id: str, mailbox: Mailbox) -> None:
        """Stop sending to ``mailbox``."""
        mailboxes = self._subscribers.get(game_id)
        if mailboxes is not None:
            mailboxes.discard(mailbox)
            if not mailboxes:
                del self._subscribers[game_id]

    # -- what other processes changed -------------------------------------------------------

    def _heard(self, game_id: str, version: int) -> None:
        """A change was committed (by any process): refresh the copy if it is behind."""
        if game_id.startswith(REVIEW_CHANGE):
            self.reviews.heard(game_id.removeprefix(REVIEW_CHANGE))
            return
        live = self._games.get(game_id)
        if live is None or live.version >= version or game_id in self._refreshing:
            return
        self._refreshing.add(game_id)
        asyncio.get_running_loop().create_task(self._refresh(game_id))

    async def _refresh(self, game_id: str) -> None:
        try:
            before = self._games.get(game_id)
            live = await self._load(game_id)
            if live is not before:
                self.publish(live)
        except LudotecaError as error:
            log.warning("could not refresh game %s: %s", game_id, error)
        finally:
            self._refreshing.discard(game_id)

    def _resync(self) -> None:
        """Announcements may have been missed: check every game this process holds."""
        for game_id in list(self._games):
            if game_id not in self._refreshing:
                self._refreshing.add(game_id)
                asyncio.get_running_loop().create_task(self._refresh(game_id))

    # -- the computer's turns -------------------------------------------------------------------

    def _schedule_computer(self, live: LiveGame) -> None:
        if self._closing or not live.computer_to_move:
            return
        running = self._tasks.get(live.id)
        if running is not None and not running.done():
            return
        self._tasks[live.id] = asyncio.get_running_loop().create_task(self._computer_turns(live.id))

    async def _computer_turns(self, game_id: str) -> None:
        """Let the computer move while it is its turn; a change meanwhile restarts the turn."""
        try:
            while not self._closing:
                live = self._games.get(game_id) or await self._load(game_id)
                if not live.computer_to_move:
                    return
                version, state = live.version, live.state
                seat = live.to_move
                assert seat is not None
                move = await self._computer_move(live, seat, state)
                try:
                    async with self._locks[game_id]:
                        current = self._games.get(game_id)
                        if current is None or current.version != version:
                            continue  # undone, resigned or played elsewhere meanwhile
                        await self._append(current, [move])
                except VersionConflictError:
                    await self._reload(game_id)
                    continue
                self.publish(current)
        except LudotecaError as error:  # the database refused: the next visit resumes it
            log.warning("the computer could not move in game %s: %s", game_id, error)
        finally:
            self._tasks.pop(game_id, None)

    async def _computer_move(self, live: LiveGame, seat: int, state: State) -> Move:
        """The computer's move: random at once, a level in the search pool."""
        spec = live.seats[seat].agent or "random"
        seed = self._rng.randrange(2**32)
        if spec == "random":
            return random.Random(seed).choice(state.legal_moves())
        job = SearchJob("move", live.game.id, dict(live.game.options), state.to_text(), spec, seed)
        while True:
            try:
                text = await self.pool.run(lane_of(spec), job)
                return state.parse_move(text)
            except PoolBusyError:
                await asyncio.sleep(1.0)
            except (SearchTimeoutError, SearchFailedError, LudotecaError) as error:
                # A level that fails or overruns must not stall the game: play a random move.
                log.warning(
                    "%s failed in game %s (%s); a random move instead", spec, live.id, error
                )
                return random.Random(seed).choice(state.legal_moves())


def _seat_row(index: int, spec: object) -> SeatRow:
    kind = spec.strip().lower() if isinstance(spec, str) else ""
    if kind in (HUMAN, INVITE):
        return SeatRow(seat=index, kind=kind, agent=None, token=new_token())
    if kind in COMPUTER_SEATS:
        return SeatRow(seat=index, kind=COMPUTER, agent=kind, token=None)
    shown = str(spec)[:40]
    raise BadRequestError(f"seat {index}: {shown!r} is not a seat; accepted: {SEAT_FORMS}")


def _summary_dict(summary: GameSummary) -> dict[str, Any]:
    try:
        cls = game_class(summary.game)
        name, players = cls.name, cls.player_names
    except LudotecaError:
        name, players = summary.game, tuple(str(s.seat) for s in summary.seats)
    return {
        "id": summary.id,
        "game": summary.game,
        "name": name,
        "players": [
            f"{players[s.seat] if s.seat < len(players) else s.seat}: {s.name or s.agent or s.kind}"
            for s in summary.seats
        ],
        "names": [s.name for s in summary.seats],
        "ply": summary.move_count,
        "status": "over" if summary.result is not None else "running",
        "result": summary.result,
        "created": summary.created,
        "updated": summary.updated,
        "clock": _clock_words(summary.clock),
    }


def _clock_words(stored: str | None) -> str | None:
    spec = spec_from_json(stored)
    return None if spec is None else spec.describe()


def _age_seconds(stamp: str) -> float:
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return STALLED_SECONDS
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return max(0.0, (datetime.now(UTC) - then).total_seconds())


def clean_name(name: object) -> str:
    """A display name as kept: spaces trimmed and joined, 1 to `MAX_NAME` printable characters.

    Raises:
        BadRequestError: Empty, too long, or with control or invisible characters.
    """
    if not isinstance(name, str):
        raise BadRequestError("a name is a text")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise BadRequestError("a name needs at least one visible character")
    if len(cleaned) > MAX_NAME:
        raise BadRequestError(f"a name has at most {MAX_NAME} characters; got {len(cleaned)}")
    if any(unicodedata.category(c).startswith("C") for c in cleaned):
        raise BadRequestError("a name cannot contain control or invisible characters")
    return cleaned


def _required_name(name: str | None) -> str:
    if name is None:
        raise BadRequestError(
            "choose a display name first (POST /api/session/name, or name in the request)"
        )
    return clean_name(name)


def _rules(game_id: str, options: dict[str, Any], position: str | None) -> tuple[Game, State]:
    try:
        game = make(game_id, **options)
        start = game.parse_state(position) if position is not None else game.initial_state()
    except LudotecaError as error:
        raise http_error(error) from None
    return game, start


def _side(game: Game, side: object) -> int:
    names = [name.lower() for name in game.player_names]
    text = str(side).strip().lower() if isinstance(side, str | int) else ""
    if text == RANDOM_SIDE:
        return secrets.randbelow(game.num_players)
    if text in names:
        return names.index(text)
    if text.isdigit() and int(text) < game.num_players:
        return int(text)
    raise BadRequestError(
        f"side must be {', '.join(game.player_names)} or random; got {str(side)[:20]!r}"
    )


def challenge_dict(challenge: ChallengeRow, session: str | None = None) -> dict[str, Any]:
    """A challenge for the API (no secrets)."""
    try:
        cls = game_class(challenge.game)
        name, players = cls.name, cls.player_names
    except LudotecaError:
        name, players = challenge.game, ("0", "1")
    spec = spec_from_json(challenge.clock)
    return {
        "id": challenge.id,
        "game": challenge.game,
        "name": name,
        "options": challenge.options,
        "clock": None if spec is None else spec.to_dict() | {"description": spec.describe()},
        "poster": challenge.poster_name,
        "poster_side": players[challenge.poster_seat],
        "accepter_side": players[1 - challenge.poster_seat],
        "status": challenge.status,
        "accepted_by": challenge.accepter_name,
        "game_id": challenge.game_id if challenge.status == "accepted" else None,
        "created": challenge.created,
        "yours": session is not None and session == challenge.poster_session,
        "rated": challenge.rated,
    }


async def with_poster_ratings(
    service: GameService, challenges: Sequence[ChallengeRow], session: str | None
) -> list[dict[str, Any]]:
    """The challenges for the API, each with its poster's rating in its game and time control.

    ``poster_rating`` is ``null`` for a poster without an account (`ludoteca.web.rating_store`).
    """
    ratings = await service.read(RatingStore(service.store).poster_ratings, challenges)
    return [
        challenge_dict(c, session)
        | {"poster_rating": None if c.id not in ratings else ratings[c.id].public()}
        for c in challenges
    ]

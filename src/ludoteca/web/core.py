"""The transaction core of the web server: load, conditional write, retry, the game cache.

The database is the authority (`ludoteca.web.storage`); this process keeps a bounded cache of
the games it serves (`LiveGame`, least recently used dropped first). A change is decided on the
cached copy under that game's `asyncio.Lock`, written in one transaction that is refused if the
stored game moved on since this copy (another request, another server process), and only then
applied to the copy. A write that loses such a race reloads the game and is decided again, so a
stale process never overwrites or deletes another's move.

Every accepted change is announced once, after its commit, as an event of
`ludoteca.web.events` on `GameCore.events`; clocks, computer turns, broadcast, reviews and the
lobby are subscribers, never called from here. Reads have no side effects: `GameCore.get` and
`GameCore.current` load and cache, nothing more (a sweeper resumes stalled computer turns and
flags clocks: `ludoteca.web.computer`, `ludoteca.web.flags`).

Two subscription points exist for the end of a game:

- **after the commit**: ``core.events.on_game_end(handler)`` (or any event with ``ended``);
- **inside the transaction that records the result**: ``core.on_result_recorded(hook)``; the
  hook is called as ``hook(connection, ResultRecorded)`` on the writing thread within the write
  that stores the result, so what it writes commits with the result or not at all; raising
  refuses the change (the request answers the error, the game is unchanged).

The event loop never waits on the database: queries run on worker threads (writes to SQLite on
one thread, since SQLite has one writer at a time).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from ludoteca.core.chance import sample_outcome
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE
from ludoteca.web.clocks import ClockSpec, after_move, spec_to_json, start_state
from ludoteca.web.errors import ConflictError, NotFoundError, http_error
from ludoteca.web.events import (
    Event,
    Events,
    GameCreated,
    GameRefreshed,
    MoveMade,
    ResultRecorded,
)
from ludoteca.web.live import COMPUTER, LiveGame
from ludoteca.web.readiness import Readiness
from ludoteca.web.schema import NO_WINNER
from ludoteca.web.storage import (
    ChallengeTakenError,
    GameStore,
    SeatRow,
    VersionConflictError,
    Written,
)

log = logging.getLogger(__name__)

#: Games kept in memory per process; the least recently used beyond this are dropped.
DEFAULT_CACHE_SIZE = 2000
#: Attempts at one change when other writers keep winning the race.
WRITE_ATTEMPTS = 5

T = TypeVar("T")
#: A change: decided on the copy (lock held), written, applied; answers the event to announce.
Attempt = Callable[[LiveGame], Awaitable[Event | None]]


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game and the secret tokens of its seats played by people."""

    live: LiveGame
    tokens: dict[int, str]


class GameCore:
    """The games of one server process: the cache over the store and the changes to it."""

    def __init__(
        self,
        store: GameStore,
        *,
        seed: int | None = None,
        cache_size: int = DEFAULT_CACHE_SIZE,
        readiness: Readiness | None = None,
    ) -> None:
        self.store = store
        # Games whose kernels are not loaded yet are refused, never compiled on the event loop.
        self.readiness = readiness if readiness is not None else Readiness()
        self.cache_size = cache_size
        self.events = Events()
        self.rng = random.Random(seed)
        self.closing = False
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._refreshing: set[str] = set()
        #: The newest version heard of, for the games being refreshed.
        self._wanted: dict[str, int] = {}
        #: Tests of whether a game is in use (watched, being played): such games stay cached.
        self.pins: list[Callable[[str], bool]] = []
        # SQLite has one writer at a time: one writing thread queues them without lock waits.
        self._writer = ThreadPoolExecutor(
            max_workers=1 if store.is_sqlite else 4, thread_name_prefix="ludoteca-db-write"
        )
        self._reader = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ludoteca-db-read")

    @property
    def reader(self) -> ThreadPoolExecutor:
        """The threads that read the store."""
        return self._reader

    def close(self) -> None:
        """Stop the database threads."""
        self.closing = True
        self._writer.shutdown(wait=False, cancel_futures=True)
        self._reader.shutdown(wait=False, cancel_futures=True)

    async def write(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a write of the store on the writing thread (never on the event loop)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, lambda: function(*args, **kwargs))

    async def read(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a read of the store on a reading thread (never on the event loop)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader, lambda: function(*args, **kwargs))

    def on_result_recorded(self, hook: Callable[[Connection, ResultRecorded], None]) -> None:
        """Call ``hook(connection, recorded)`` inside every write that stores a game's result."""
        self.store.result_hooks.append(hook)

    # -- the cache -----------------------------------------------------------------------------

    def cached(self, game_id: str) -> LiveGame | None:
        """This process's copy of the game, if it holds one (no database read)."""
        return self._games.get(game_id)

    def cached_games(self) -> list[LiveGame]:
        """Every game this process holds."""
        return list(self._games.values())

    def __len__(self) -> int:
        """How many games are cached."""
        return len(self._games)

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock under which the game's changes are decided."""
        return self._locks[game_id]

    async def get(self, game_id: str) -> LiveGame:
        """The game with this id, from the cache or loaded from the store. Changes nothing.

        Raises:
            NotFoundError: No game has this id.
            ConflictError: The stored game can no longer be replayed.
        """
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
            return live
        return await self.load(game_id)

    async def current(self, game_id: str) -> LiveGame:
        """The game as stored now: like `get`, but a copy another process overtook is reloaded.

        Reads ask the database for the version, since the change feed may not have brought the
        news yet. Changes nothing in the store (a clock that ran out is flagged by the sweeper).

        Raises:
            NotFoundError: No game has this id.
        """
        live = await self.get(game_id)
        stored = await self.read(self.store.version, game_id)
        if stored is not None and stored != live.version:
            live = await self.load(game_id)
        return live

    async def load(self, game_id: str) -> LiveGame:
        """Read the stored game into the cache.

        A cached copy is brought up to date in place (`catch_up`): only the moves it lacks are
        read and played, or the moves taken back are dropped. The whole game is read and
        replayed only when the copy cannot be caught up. Replacing an older copy is announced
        as `GameRefreshed`.

        Raises:
            NotFoundError: No game has this id.
            ConflictError: The stored game can no longer be replayed.
        """
        if len(game_id) > 64:
            raise NotFoundError(f"there is no game {game_id[:64]!r}…")
        current = self._games.get(game_id)
        if current is not None:
            caught = await self.catch_up(current)
            if caught is not None:
                return caught
        return await self._load_whole(game_id)

    async def catch_up(self, live: LiveGame) -> LiveGame | None:
        """Bring a cached copy up to the stored game in place; ``None`` if it cannot be.

        One change after the copy's version (the usual news from another process) is read as
        the game's columns and the moves after the copy's: a move adds them, an undo keeps a
        prefix. Several changes are read with every move's text and compared.
        """
        based = live.version
        changes = await self.read(self.store.changes_since, live.id, live.ply)
        if changes is None:
            raise NotFoundError(f"there is no game {live.id!r}; GET /api/games lists the games")
        if changes.version <= based:
            return live
        one_change = changes.version == based + 1
        if not one_change:
            changes = await self.read(self.store.changes_since, live.id, 0)
            if changes is None:
                raise NotFoundError(f"there is no game {live.id!r}")
        async with self._locks[live.id]:
            if self._games.get(live.id) is not live or live.version != based:
                return None  # changed meanwhile: read it whole
            running = live.result is None
            try:
                live.catch_up(changes, one_change=one_change)
            except (LudotecaError, ValueError) as error:
                log.info("game %s is read again whole: %s", live.id, error)
                del self._games[live.id]  # a half-updated copy is never served
                return None
        ended = running and live.result is not None
        self.events.emit(GameRefreshed(live.id, live.version, live, ended=ended))
        return live

    async def _load_whole(self, game_id: str) -> LiveGame:
        row = await self.read(self.store.load, game_id)
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
            self.remember(live)
        if current is not None:
            ended = _ended(current, live)
            self.events.emit(GameRefreshed(live.id, live.version, live, ended=ended))
        return live

    def remember(self, live: LiveGame) -> None:
        """Cache ``live``, dropping the least recently used games that nothing is using."""
        self._games[live.id] = live
        self._games.move_to_end(live.id)
        excess = len(self._games) - self.cache_size
        for game_id in list(self._games)[:excess] if excess > 0 else ():
            if any(pinned(game_id) for pinned in self.pins):
                continue
            lock = self._locks.get(game_id)
            if lock is not None and lock.locked():
                continue
            del self._games[game_id]
            self._locks.pop(game_id, None)

    async def reload(self, game_id: str) -> None:
        """Read the stored game again after losing a race to another writer."""
        with contextlib.suppress(NotFoundError):
            await self.load(game_id)

    # -- changing ------------------------------------------------------------------------------

    async def attempt(self, game_id: str, attempt: Attempt) -> LiveGame:
        """Run a change under the game's lock; if another writer won, reload and decide again.

        The event ``attempt`` answers is announced once the change is committed.
        """
        for _ in range(WRITE_ATTEMPTS):
            live = await self.get(game_id)
            try:
                async with self._locks[game_id]:
                    if self._games.get(game_id) is not live:
                        continue  # reloaded meanwhile: decide on the newer copy
                    event = await attempt(live)
            except VersionConflictError:
                await self.reload(game_id)
                continue
            except LudotecaError as error:
                # A refusal decided on a copy another process has overtaken would be wrong
                # (not your turn, illegal): refuse only what the stored game refuses.
                if await self.read(self.store.version, game_id) not in (None, live.version):
                    await self.reload(game_id)
                    continue
                raise http_error(error) from None
            if event is not None:
                self.events.emit(event)
            return live
        raise ConflictError("the game is changing too fast; look at it again and retry")

    async def append(self, live: LiveGame, moves: list[Move]) -> MoveMade:
        """Store ``moves`` and the rolls after them, then play them in ``live`` (lock held)."""
        mover = live.to_move
        states = []
        state = live.state
        for move in moves:
            state = state.apply(move)
            states.append(state)
        rolls, roll_states = self.rolls(state)
        moves, states = moves + rolls, states + roll_states
        end = states[-1].outcome
        columns: dict[str, Any] = {}
        clock_state = None
        if live.clock is not None and live.clock_state is not None:
            after = states[-1]
            nxt = after.to_move if end is None else None
            forced = nxt is not None and nxt >= 0 and len(after.legal_moves()) <= 1
            clock_state = after_move(
                live.clock, live.clock_state, mover, None if forced else nxt, time.time()
            )
            columns["clock_state"] = clock_state.to_json()
        if live.draw_offer is not None:
            columns["draw_offer"] = None  # a move declines a standing draw offer
        if end is not None:
            columns["winner"] = NO_WINNER if end.winner is None else end.winner
        first = live.ply + 1
        texts = tuple(move.text for move in moves)
        written = await self.write(
            self.store.append_moves,
            live.id,
            based_on=live.version,
            first=first,
            texts=list(texts),
            result=None if end is None else end.reason,
            **columns,
        )
        live.extend(moves, states)
        if clock_state is not None:
            live.clock_state = clock_state
        live.draw_offer = None
        moved_on(live, written)
        return MoveMade(
            live.id, live.version, live, ended=end is not None, first=first, texts=texts
        )

    async def new_game(
        self,
        new_id: str,
        game: Game,
        start: State,
        rows: list[SeatRow],
        clock: ClockSpec | None,
        hints: bool,
        **store_options: Any,
    ) -> CreatedGame:
        """Store a new game with these seats and clock; cache it and announce `GameCreated`."""
        moves, states = self.rolls(start)
        end = states[-1].outcome if states else start.outcome
        clock_state = start_state(clock, [row.kind != COMPUTER for row in rows])
        try:
            stored = await self.write(
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
            positions=[start, *states],
            moves=moves,
            created=stored.created,
            updated=stored.updated,
            version=stored.version,
            hints=hints,
            clock=clock,
            clock_state=clock_state,
            rated=bool(store_options.get("rated", False)),
        )
        self.remember(live)
        self.events.emit(GameCreated(live.id, live.version, live, ended=end is not None))
        tokens = {row.seat: row.token for row in rows if row.token is not None}
        return CreatedGame(live=live, tokens=tokens)

    def rolls(self, state: State) -> tuple[list[Move], list[State]]:
        """Roll for every chance node from ``state`` on: the outcomes and the positions."""
        moves: list[Move] = []
        states: list[State] = []
        while not state.is_over and state.to_move == CHANCE:
            move = sample_outcome(state, self.rng)
            state = state.apply(move)
            moves.append(move)
            states.append(state)
        return moves, states

    # -- what other processes changed -----------------------------------------------------------

    def heard(self, game_id: str, version: int) -> None:
        """A change was committed (by any process): refresh the copy if it is behind."""
        live = self._games.get(game_id)
        if live is None or live.version >= version:
            return
        self._wanted[game_id] = max(version, self._wanted.get(game_id, 0))
        if game_id in self._refreshing:
            return  # the refresh under way looks again once done
        self._refreshing.add(game_id)
        asyncio.get_running_loop().create_task(self._refresh(game_id))

    def resync(self) -> None:
        """Announcements may have been missed: check every game this process holds."""
        for game_id in list(self._games):
            if game_id not in self._refreshing:
                self._refreshing.add(game_id)
                asyncio.get_running_loop().create_task(self._refresh(game_id))

    async def _refresh(self, game_id: str) -> None:
        try:
            for _ in range(WRITE_ATTEMPTS):  # news heard meanwhile is fetched too
                live = await self.load(game_id)
                if live.version >= self._wanted.get(game_id, 0):
                    break
        except LudotecaError as error:
            log.warning("could not refresh game %s: %s", game_id, error)
        finally:
            self._refreshing.discard(game_id)
            self._wanted.pop(game_id, None)


def moved_on(live: LiveGame, written: Written) -> None:
    """The copy is at the version just written."""
    live.version = written.version
    live.updated = written.updated
    live.since = time.monotonic()


def _ended(before: LiveGame, after: LiveGame) -> bool:
    return before.result is None and after.result is not None

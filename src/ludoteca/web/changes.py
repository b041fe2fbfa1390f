"""The change feed: how a server process hears that another process changed a game.

Every write to the games database announces ``(game id, new version)`` in its own transaction
(`ludoteca.web.storage.GameStore`), so only committed changes are ever announced:

- **PostgreSQL**: ``NOTIFY`` on the channel `ludoteca.web.storage.NOTIFY_CHANNEL`, heard here with
  ``LISTEN`` on one connection. Notifications are transactional and need no other service, which
  is why Ludoteca uses them rather than Redis pub/sub; they arrive within milliseconds.
- **SQLite**: a row in the ``events`` table, read here every `POLL_SECONDS`; several processes on
  one file see each other's moves within that delay. Old rows are pruned, and the write-ahead
  log is checkpointed here every `CHECKPOINT_SECONDS` (`GameStore.checkpoint`) rather than in
  the commit of a move.

A listener that loses its connection reconnects and then asks the service to check every game
it holds (`on_resync`), since announcements made meanwhile were missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor

from sqlalchemy.engine import make_url

from ludoteca.core.errors import LudotecaError
from ludoteca.web.storage import NOTIFY_CHANNEL, GameStore

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
CHECKPOINT_SECONDS = 0.5
PRUNE_EVERY_SECONDS = 60.0
KEEP_EVENTS_SECONDS = 600.0
RECONNECT_SECONDS = 1.0

OnChange = Callable[[str, int], None]


class ChangeFeed:
    """Calls ``on_change(game_id, version)`` for every change committed by any process."""

    def __init__(
        self,
        store: GameStore,
        executor: Executor,
        on_change: OnChange,
        on_resync: Callable[[], None],
    ) -> None:
        self._store = store
        self._executor = executor
        self._on_change = on_change
        self._on_resync = on_resync
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start listening (on the running event loop)."""
        listen = self._listen_sqlite if self._store.is_sqlite else self._listen_postgresql
        self._task = asyncio.get_running_loop().create_task(listen())

    async def close(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _listen_sqlite(self) -> None:
        loop = asyncio.get_running_loop()
        seq: int | None = None
        pruned = checkpointed = time.monotonic()
        while True:
            try:
                if seq is None:
                    seq = await loop.run_in_executor(self._executor, self._store.latest_event)
                events = await loop.run_in_executor(self._executor, self._store.events_after, seq)
                for number, game_id, version in events:
                    self._on_change(game_id, version)
                    seq = number
                if time.monotonic() - checkpointed > CHECKPOINT_SECONDS:
                    checkpointed = time.monotonic()
                    await loop.run_in_executor(self._executor, self._store.checkpoint)
                if time.monotonic() - pruned > PRUNE_EVERY_SECONDS:
                    pruned = time.monotonic()
                    await loop.run_in_executor(
                        self._executor, self._store.prune_events, KEEP_EVENTS_SECONDS
                    )
            except LudotecaError as error:  # the database is busy or gone for a moment
                log.warning("cannot read the change feed: %s", error)
            await asyncio.sleep(POLL_SECONDS)

    async def _listen_postgresql(self) -> None:
        import psycopg

        url = make_url(self._store.url).set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    if not first:
                        self._on_resync()  # announcements made while we were away are lost
                    first = False
                    async for note in connection.notifies():
                        game_id, _, version = note.payload.partition(" ")
                        if version.isdigit():
                            self._on_change(game_id, int(version))
            except (psycopg.Error, OSError) as error:
                log.warning("lost the database's change notifications (%s); reconnecting", error)
            await asyncio.sleep(RECONNECT_SECONDS)

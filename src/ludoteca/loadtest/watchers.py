"""A load test's WebSocket watchers: each follows a slot's games and measures the lag.

A watcher connects to ``/ws/games/{id}`` through another URL than the one its slot's moves go
to, so with several server processes it sees a move only if it crossed processes. The lag of a
move is the time from the reply to the move to the watcher's receiving it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import Coroutine, Sequence
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

from ludoteca.loadtest.settings import Target
from ludoteca.loadtest.tracks import (
    BACKOFF_S,
    DOWN_FOR_S,
    Measures,
    Slot,
    Track,
    Watcher,
    usable,
)

WATCH_GRACE_S = 2.0
"""After the last move, watchers get this long to receive it (the wait ends as soon as they all
have): twice the 1 s a server process may take to pass on a move made through another."""


class Watchers:
    """The run's ``--watchers`` WebSocket connections, spread evenly over the slots."""

    def __init__(
        self,
        count: int,
        slots: Sequence[Slot],
        targets: Sequence[Target],
        measures: Measures,
        *,
        timeout: float,
    ) -> None:
        self.all = [Watcher(i) for i in range(count)]
        self.slots = slots
        self.targets = targets
        self.measures = measures
        self.timeout = timeout
        self.stopped = asyncio.Event()
        """Set when the watchers stop (after the grace that follows the last move)."""

    async def watch(self, watcher: Watcher) -> None:
        """Follow the games of one slot over WebSocket, through another URL than its moves."""
        slot = self.slots[watcher.index % len(self.slots)]
        turn = watcher.index // len(self.slots)  # spreads a slot's watchers over the other URLs
        watched: Track | None = None
        ended: Track | None = None
        while not self.stopped.is_set():
            track = slot.track
            if track is None or track is ended or (track is watched and track.over):
                await _first(slot.new_game.wait(), self.stopped.wait())
                continue
            watched = track
            target = self.target_for(track.target, turn)
            try:
                if await self._follow(watcher, track, target):
                    ended = track
            except (OSError, WebSocketException, ValueError, KeyError, TypeError) as error:
                watcher.connected = False
                await self._failed(target, error)
            except Exception as error:  # a fault of the client itself: said, never hidden
                watcher.connected = False
                self.measures.error("load client failed", f"{type(error).__name__}: {error}")
                return

    def target_for(self, moves_target: int, turn: int) -> int:
        """The URL a slot's watcher ``turn`` connects through: another than the moves' URL.

        A slot's watchers take the other URLs in turn; a URL that refused lately is passed over,
        and the moves' URL is used only when no other answers.
        """
        count = len(self.targets)
        if count == 1:
            return 0
        preferred = (moves_target + 1 + turn % (count - 1)) % count
        target = usable(self.targets, preferred)
        if target == moves_target:  # only the moves' URL answers: better than none
            return usable(self.targets, (target + 1) % count)
        return target

    async def _follow(self, watcher: Watcher, track: Track, target: int) -> bool:
        """Receive ``track``'s states until it is over (then answer True) or the watchers stop.

        ``watcher.connected`` stays True after a game's end: the watcher saw all of it.
        """
        url = f"{self.targets[target].ws_url}/ws/games/{track.id}"
        async with connect(
            url,
            proxy=None,
            open_timeout=self.timeout,
            close_timeout=1,
            max_size=16 * 2**20,
        ) as connection:
            watcher.track, watcher.last_ply, watcher.connected = track, -1, True
            return await self._receive(watcher, track, connection)

    async def _receive(self, watcher: Watcher, track: Track, connection: ClientConnection) -> bool:
        lags = self.measures.lags
        first = True
        async for message in connection:
            seen = time.perf_counter()
            game = _game_of(message)
            ply: int = game["ply"]
            watcher.last_ply = ply
            times = track.ack_times
            if first:  # the state on connecting, not a push after a move: no lag to measure
                first = False
            elif ply < len(times):
                acknowledged = times[ply]
                if not math.isnan(acknowledged):
                    lags.append(max(0.0, seen - acknowledged))
            else:  # the push overtook the reply to the move
                track.early[ply] = track.early.get(ply, 0) + 1
            if game["outcome"] is not None or game["to_move"] is None:
                return True
        if not self.stopped.is_set():
            raise ConnectionError("the server closed the WebSocket")
        return False

    async def _failed(self, target: int, error: Exception) -> None:
        lost = isinstance(error, ConnectionClosed) or (
            isinstance(error, OSError) and not isinstance(error, TimeoutError)
        )
        if lost and len(self.targets) > 1:  # that server process is gone: use another
            self.targets[target].down_until = time.monotonic() + DOWN_FOR_S
            self.measures.failovers += 1
        else:
            if isinstance(error, InvalidStatus):
                kind = f"WebSocket refused {error.response.status_code}"
            elif lost:
                kind = "WebSocket connection lost"
            elif isinstance(error, TimeoutError):
                kind = "WebSocket timeout"
            elif isinstance(error, WebSocketException):
                kind = f"WebSocket: {type(error).__name__}"
            else:
                kind = "unexpected WebSocket message"
            self.measures.error(kind, f"{self.targets[target].ws_url}: {error}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopped.wait(), timeout=BACKOFF_S)

    def connected(self) -> int:
        """How many watchers hold a connection (or saw their game to its end)."""
        return sum(w.connected for w in self.all)

    def current(self) -> int:
        """How many watchers have received their game's last acknowledged move."""
        return sum(
            w.connected and w.track is not None and w.last_ply >= w.track.ply for w in self.all
        )

    async def grace(self) -> None:
        """Give the watchers up to `WATCH_GRACE_S` to receive the last moves."""
        deadline = time.perf_counter() + WATCH_GRACE_S
        while time.perf_counter() < deadline and self.current() < len(self.all):
            await asyncio.sleep(0.05)


_STATE_PREFIX = '{"type":"state","game":'
_DECODER = json.JSONDecoder()


def _game_of(message: str | bytes) -> dict[str, Any]:
    """The game in a watcher's message, without decoding the board after it.

    The board (an SVG of tens of kilobytes) is most of each message, and a watcher only needs
    the game; decoding both would put the client's own work into the lag it measures.
    """
    text = message.decode() if isinstance(message, bytes) else message
    if text.startswith(_STATE_PREFIX):
        game, _ = _DECODER.raw_decode(text, len(_STATE_PREFIX))
    else:
        game = json.loads(text)["game"]
    if not isinstance(game, dict):
        raise ValueError("a watcher's message without a game")
    return game


async def _first(*waits: Coroutine[Any, Any, Any]) -> None:
    """Wait until one of ``waits`` is done; cancel the others."""
    tasks = [asyncio.create_task(wait) for wait in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()

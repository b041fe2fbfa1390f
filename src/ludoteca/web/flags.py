"""Flag timers: a game whose running clock reaches zero ends on time, noticed by the server.

A subscriber of the core's events (`ludoteca.web.events`): after every change of a game with a
clock, its timer in this process is armed for the moment the running clock reaches zero (or
cancelled once no clock runs). When it fires, the game is checked in a change of its own
(`GameCore.attempt`): if the stored clock has run out, the game ends ``time out`` and
`GameEnded` is announced. The `FlagWatcher.sweep` of the server's sweeper arms the timers of the
running games with a clock that this process holds (loaded by a read, heard of from another
process, or found at start) and flags those already out of time, so reads never write.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ludoteca.core.errors import LudotecaError
from ludoteca.web.core import GameCore, moved_on
from ludoteca.web.events import Event, GameChanged, GameEnded
from ludoteca.web.live import LiveGame

log = logging.getLogger(__name__)

#: A timer fires this long after the flag is due (the clock has surely run out by then).
LATE_SECONDS = 0.05


class FlagWatcher:
    """The flag timers of one server process."""

    def __init__(self, core: GameCore) -> None:
        self._core = core
        self._timers: dict[str, asyncio.TimerHandle] = {}
        core.events.subscribe(self._changed, GameChanged)

    def close(self) -> None:
        """Cancel every timer."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    def armed(self, game_id: str) -> bool:
        """Whether a timer watches the game's clock."""
        return game_id in self._timers

    def _changed(self, event: GameChanged) -> None:
        self.arm(event.live)

    def arm(self, live: LiveGame) -> None:
        """Check the game when its running clock reaches zero (a timer in this process)."""
        handle = self._timers.pop(live.id, None)
        if handle is not None:
            handle.cancel()
        state = live.clock_state
        flag_at = state.flag_at() if state is not None and not live.is_over else None
        if flag_at is None or flag_at <= time.time() or self._core.closing:
            return  # a clock already out of time is flagged by the sweep, never by a read
        loop = asyncio.get_running_loop()
        delay = flag_at - time.time() + LATE_SECONDS
        self._timers[live.id] = loop.call_later(
            delay, lambda: loop.create_task(self._fire(live.id))
        )

    async def _fire(self, game_id: str) -> None:
        self._timers.pop(game_id, None)
        try:
            await self.flag_if_due(game_id)
        except LudotecaError as error:
            log.warning("could not check the clock of game %s: %s", game_id, error)

    async def flag_if_due(self, game_id: str) -> LiveGame:
        """End the game on time if its stored running clock has reached zero."""
        core = self._core
        live = await core.current(game_id)
        state = live.clock_state
        if state is None or live.is_over or state.flagged(time.time()) is None:
            return live

        async def attempt(live: LiveGame) -> Event | None:
            state = live.clock_state
            now = time.time()
            seat = None if state is None or live.is_over else state.flagged(now)
            if state is None or seat is None:
                return None
            reason = f"{live.game.player_names[seat]} ran out of time (time out)"
            stopped = state.stopped(now)
            written = await core.write(
                core.store.update_game,
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
            moved_on(live, written)
            return GameEnded(live.id, live.version, live, ended=True, how="time out")

        return await core.attempt(game_id, attempt)

    async def sweep(self, game: str | None = None, *, stored: bool = False) -> None:
        """Flag the held games whose clock ran out and arm the timers of the others.

        Args:
            game: Only the games of this game id.
            stored: Load every running game with a clock from the store first (at start, and
                when a game's kernels become ready), so its flag is noticed here on time.
        """
        core = self._core
        if stored:
            summaries, _ = await core.read(core.store.list_games, running=True, limit=10_000)
            for summary in summaries:
                if summary.clock is not None and game in (None, summary.game):
                    try:
                        await core.current(summary.id)
                    except LudotecaError as error:
                        log.debug("not watching the clock of game %s: %s", summary.id, error)
        now = time.time()
        for live in core.cached_games():
            state = live.clock_state
            if state is None or live.is_over or game not in (None, live.game.id):
                continue
            if state.flagged(now) is not None:
                try:
                    await self.flag_if_due(live.id)
                except LudotecaError as error:
                    log.warning("could not flag game %s: %s", live.id, error)
            elif live.id not in self._timers and state.flag_at() is not None:
                self.arm(live)

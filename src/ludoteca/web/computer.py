"""The computer's turns: a subscriber that moves for computer seats.

After every change that leaves a computer seat to move (`GameCreated`, `MoveMade`,
`MoveUndone`...), one task per game asks the search pool (`ludoteca.web.searches`) for the move
and plays it through the core (`GameCore.append`), announcing `MoveMade` like any move. A change
meanwhile (an undo, a resignation, a move by another process) makes the task decide again.

A turn nobody has played for `STALLED_SECONDS` (its process was stopped, or the game was just
loaded by a read) is taken up by the sweeper (`ComputerTurns.sweep`), never by a read.
"""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import UTC, datetime

from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Move, State
from ludoteca.web.core import GameCore
from ludoteca.web.events import GameChanged, GameRefreshed
from ludoteca.web.live import LiveGame
from ludoteca.web.search_worker import SearchJob
from ludoteca.web.searches import (
    PoolBusyError,
    SearchFailedError,
    SearchPool,
    SearchTimeoutError,
    lane_of,
)
from ludoteca.web.storage import VersionConflictError

log = logging.getLogger(__name__)

#: A computer turn nobody has played for this long is taken up by whichever process sees it
#: (its process may have been stopped); a fresher one is left to the process playing it.
STALLED_SECONDS = 5.0


class ComputerTurns:
    """The computer players of one server process."""

    def __init__(self, core: GameCore, pool: SearchPool) -> None:
        self._core = core
        self._pool = pool
        self._tasks: dict[str, asyncio.Task[None]] = {}
        core.events.subscribe(self._changed, GameChanged)
        core.pins.append(self.playing)

    def playing(self, game_id: str) -> bool:
        """Whether a computer turn of the game is being played here."""
        return game_id in self._tasks

    def close(self) -> None:
        """Stop every computer turn."""
        for task in list(self._tasks.values()):
            task.cancel()

    def _changed(self, event: GameChanged) -> None:
        if not isinstance(event, GameRefreshed):  # another process plays its own turns
            self.schedule(event.live)

    def schedule(self, live: LiveGame) -> None:
        """Play the computer's turn in the game if it is to move (once per game at a time)."""
        if self._core.closing or not live.computer_to_move:
            return
        running = self._tasks.get(live.id)
        if running is not None and not running.done():
            return
        self._tasks[live.id] = asyncio.get_running_loop().create_task(self._turns(live.id))

    def sweep(self) -> None:
        """Resume the held games whose computer turn nobody has played lately."""
        for live in self._core.cached_games():
            if not live.computer_to_move or live.id in self._tasks:
                continue
            if _age_seconds(live.updated) >= STALLED_SECONDS:
                self.schedule(live)

    async def _turns(self, game_id: str) -> None:
        """Let the computer move while it is its turn; a change meanwhile restarts the turn."""
        core = self._core
        try:
            while not core.closing:
                live = core.cached(game_id) or await core.load(game_id)
                if not live.computer_to_move:
                    return
                version, state = live.version, live.state
                seat = live.to_move
                assert seat is not None
                move = await self._move(live, seat, state)
                try:
                    async with core.lock(game_id):
                        current = core.cached(game_id)
                        if current is None or current.version != version:
                            continue  # undone, resigned or played elsewhere meanwhile
                        event = await core.append(current, [move])
                except VersionConflictError:
                    await core.reload(game_id)
                    continue
                self._tasks.pop(game_id, None)  # the event may schedule the next turn
                core.events.emit(event)
                return
        except LudotecaError as error:  # the database refused: the sweeper resumes it
            log.warning("the computer could not move in game %s: %s", game_id, error)
        finally:
            task = self._tasks.get(game_id)
            if task is asyncio.current_task():
                self._tasks.pop(game_id, None)

    async def _move(self, live: LiveGame, seat: int, state: State) -> Move:
        """The computer's move: random at once, a level in the search pool."""
        spec = live.seats[seat].agent or "random"
        seed = self._core.rng.randrange(2**32)
        if spec == "random":
            return random.Random(seed).choice(state.legal_moves())
        job = SearchJob("move", live.game.id, dict(live.game.options), state.to_text(), spec, seed)
        while True:
            try:
                text = await self._pool.run(lane_of(spec), job)
                return state.parse_move(text)
            except PoolBusyError:
                await asyncio.sleep(1.0)
            except (SearchTimeoutError, SearchFailedError, LudotecaError) as error:
                # A level that fails or overruns must not stall the game: play a random move.
                log.warning(
                    "%s failed in game %s (%s); a random move instead", spec, live.id, error
                )
                return random.Random(seed).choice(state.legal_moves())


def _age_seconds(stamp: str) -> float:
    """How long ago a stored time was (a game's last change, by any process)."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return STALLED_SECONDS
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return max(0.0, (datetime.now(UTC) - then).total_seconds())

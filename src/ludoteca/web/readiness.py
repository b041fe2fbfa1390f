"""Which games this server process can play now, while the others are being prepared.

A server answers its lobby within seconds of starting, even when numba must first compile the
games' kernels (minutes of CPU on a first start). The kernels are compiled in other processes
(`ludoteca.preparation`), which report each game's outcome in a status directory: ``ludoteca
serve`` runs them once for all its server processes, and an app started another way runs
them itself. `Readiness` watches that directory and, as each game's compiled kernels arrive in
numba's cache, loads them into this process in a thread (never on the event loop), then marks
the game ready. Until then the lobby shows the game as being prepared, and creating, posting,
accepting or opening a game of it is refused with `GamePreparingError` (503, ``Retry-After``).
A game whose preparation failed is marked unavailable, with the reason, and refused with
`GameUnavailableError`. Each game is ready as soon as its own kernels are, not all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import game_class, normalise_game_id, runtime_registrations
from ludoteca.preparation import Failed, Preparation, Prepared, read_status, write_status
from ludoteca.warmup import is_warm, warm_up_game
from ludoteca.web.errors import RetryLaterError, WebError

log = logging.getLogger(__name__)

PREPARING, READY, UNAVAILABLE = "preparing", "ready", "unavailable"
#: How often the status directory is looked at, in seconds.
POLL_SECONDS = 0.25
#: The ``Retry-After`` of a game still being prepared, in seconds.
RETRY_SECONDS = 5


class GamePreparingError(RetryLaterError):
    """The game's kernels are still being compiled or loaded; try again in a few seconds."""

    status = 503


class GameUnavailableError(WebError):
    """The game could not be prepared on this server (the message says why)."""

    status = 503


class Readiness:
    """The state of each game in this process: being prepared, ready or unavailable.

    A game this registry does not list (an unknown id, a game registered later) counts as
    ready, so that asking for it gives the usual answer (an unknown game, say).
    """

    def __init__(self, games: Iterable[str] = ()) -> None:
        """Every game listed starts as being prepared; `start` prepares them."""
        self._states = {game_id: PREPARING for game_id in games}
        self._reasons: dict[str, str] = {}
        self._settled = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._preparation: Preparation | None = None
        self._own_dir: Path | None = None
        if not self._states:
            self._settled.set()

    # -- what the lobby and game creation ask ----------------------------------------------------

    def state(self, game_id: str) -> str:
        """``"preparing"``, ``"ready"`` or ``"unavailable"``."""
        if not isinstance(game_id, str):  # not a game id: the rules say what is accepted
            return READY
        return self._states.get(normalise_game_id(game_id), READY)

    def is_ready(self, game_id: str) -> bool:
        """Whether games of this kind may be created, opened and played now."""
        return self.state(game_id) == READY

    def check(self, game_id: str) -> None:
        """Refuse a game that is not ready.

        Raises:
            GamePreparingError: It is still being prepared.
            GameUnavailableError: Its preparation failed.
        """
        state = self.state(game_id)
        if state == PREPARING:
            raise GamePreparingError(
                f"{_name(game_id)} is still being prepared; try again in a few seconds",
                retry_after=RETRY_SECONDS,
            )
        if state == UNAVAILABLE:
            reason = self._reasons.get(normalise_game_id(game_id), "")
            raise GameUnavailableError(
                f"{_name(game_id)} cannot be played on this server: its preparation failed "
                f"({reason})"
            )

    def summary(self) -> dict[str, Any]:
        """The games not ready yet: ``preparing`` (ids) and ``unavailable`` (id: reason)."""
        return {
            "preparing": [g for g, state in self._states.items() if state == PREPARING],
            "unavailable": {
                g: self._reasons.get(g, "") for g, s in self._states.items() if s == UNAVAILABLE
            },
        }

    async def settled(self) -> None:
        """Wait until every game is ready or unavailable."""
        await self._settled.wait()

    # -- preparing -------------------------------------------------------------------------------

    def start(
        self,
        status_dir: Path | None = None,
        *,
        on_ready: Callable[[str], Awaitable[None] | None] | None = None,
    ) -> None:
        """Prepare the games in the background (call on the server's event loop).

        Args:
            status_dir: Where ``ludoteca serve`` reports each game's preparation
                (`ludoteca.preparation.read_status`); ``None``: prepare the games not yet loaded
                in this process with a `Preparation` of our own.
            on_ready: Called with each game id once the game is ready.
        """
        if self._task is not None:
            return
        pending = [game_id for game_id, state in self._states.items() if state == PREPARING]
        if not pending:
            self._settled.set()
            return
        if status_dir is None:  # prepare them ourselves: those this process has not loaded yet
            self._own_dir = Path(tempfile.mkdtemp(prefix="ludoteca-prepare-"))
            status_dir = self._own_dir
            cold = [game_id for game_id in pending if not is_warm(game_id)]
            for game_id in pending:
                if game_id not in cold:
                    write_status(status_dir, Prepared(game_id, 0.0, 0.0))
            if cold:
                self._preparation = Preparation(
                    cold, status_dir=status_dir, registrations=runtime_registrations()
                )
                self._preparation.start()
        self._task = asyncio.get_running_loop().create_task(
            self._watch(status_dir, pending, on_ready)
        )

    async def close(self) -> None:
        """Stop preparing (the processes of our own preparation are stopped)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._preparation is not None:
            await asyncio.to_thread(self._preparation.close)
        if self._own_dir is not None:
            shutil.rmtree(self._own_dir, ignore_errors=True)

    async def _watch(
        self,
        status_dir: Path,
        pending: list[str],
        on_ready: Callable[[str], Awaitable[None] | None] | None,
    ) -> None:
        """Load each game as its preparation is reported; mark it ready or unavailable."""
        try:
            while pending:
                for game_id in list(pending):
                    outcome = read_status(status_dir, game_id)
                    if outcome is None:
                        continue
                    pending.remove(game_id)
                    if isinstance(outcome, Failed):
                        self._give_up(game_id, outcome.reason)
                        continue
                    try:  # from numba's cache, in a thread: the event loop goes on answering
                        # The rules and boards only: the searches run in the search workers.
                        await asyncio.to_thread(warm_up_game, game_id, engines=False)
                    except Exception as error:
                        self._give_up(game_id, f"loading failed: {type(error).__name__}: {error}")
                        continue
                    self._states[game_id] = READY
                    log.info("%s is ready", game_id)
                    if on_ready is not None:
                        await _call(on_ready, game_id)
                if pending:
                    await asyncio.sleep(POLL_SECONDS)
        finally:
            self._settled.set()

    def _give_up(self, game_id: str, reason: str) -> None:
        self._states[game_id] = UNAVAILABLE
        self._reasons[game_id] = reason
        log.error("%s cannot be played: its preparation failed: %s", game_id, reason)


async def _call(callback: Callable[[str], Awaitable[None] | None], game_id: str) -> None:
    """Run a readiness callback; its failure is logged, never the watcher's end."""
    try:
        result = callback(game_id)
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.exception("after %s became ready", game_id)


def _name(game_id: str) -> str:
    """The game's name as people read it (its id if it has none)."""
    try:
        return game_class(game_id).name
    except LudotecaError:
        return game_id

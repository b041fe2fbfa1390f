"""Reviews of finished games on the server: run in the search pool, stored with the game.

``POST /api/games/{id}/review`` asks for one. The review's positions
(`ludoteca.analysis.review.review_tasks`) are searched in the pool's ``review`` lane
(`ludoteca.web.searches`), as many at once as it has workers: worker processes at the lowest
priority, never the event loop, and never ahead of a computer's move or a hint. The review is
then assembled on a worker thread and stored in the games database with the game
(`GameStore.finish_review`).

One review per game at a time, across every server process sharing the database: a process
starts one only after claiming it with a conditional write (`GameStore.start_review`). The
process running it beats a heartbeat in the database as it goes (and records its progress);
a review whose heartbeat stopped for `DEFAULT_STALE_SECONDS` (its process was killed or
restarted) is answered as ``interrupted`` and may be claimed and started again. A server that
stops cleanly marks its reviews ``interrupted`` at once.

Each change of a review is announced on the change feed (`ludoteca.web.changes`) as
``review:<game id>``; every process pushes the review's progress, then the review, to the
game's WebSocket subscribers as ``{"type": "review", "review": ...}`` (the answer of
``GET /api/games/{id}/review``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from ludoteca.core.errors import LudotecaError
from ludoteca.web.boards import click_paths_of
from ludoteca.web.errors import BusyError, ConflictError
from ludoteca.web.events import ReviewChanged
from ludoteca.web.live import LiveGame
from ludoteca.web.messages import to_json
from ludoteca.web.search_worker import SearchJob
from ludoteca.web.searches import REVIEW, PoolBusyError
from ludoteca.web.storage import ReviewRow

if TYPE_CHECKING:
    from ludoteca.web.broadcast import Broadcast
    from ludoteca.web.core import GameCore
    from ludoteca.web.searches import SearchPool

log = logging.getLogger(__name__)

#: A running review whose heartbeat is older than this was abandoned (its process stopped).
DEFAULT_STALE_SECONDS = 30.0
#: How often the process running a review records its progress (when it moved on) ...
PROGRESS_SECONDS = 0.5
#: ... and beats its heartbeat (also when one position takes long).
HEARTBEAT_SECONDS = 5.0
#: Reviews one server process runs at once; more are refused with 503 until one ends.
MAX_RUNNING = 4


class _TakenOverError(Exception):
    """Another process holds the review now (this one's heartbeat was found too old)."""


class Reviews:
    """The reviews of one server process: starting, running, answering and pushing them."""

    def __init__(
        self,
        core: GameCore,
        broadcast: Broadcast,
        pool: SearchPool,
        *,
        budget: Any = None,
        seed: int = 0,
        stale_seconds: float = DEFAULT_STALE_SECONDS,
    ) -> None:
        """Reviews made with ``budget`` and ``seed`` (`ludoteca.analysis.review.review_tasks`).

        Args:
            core: The process's transaction core (its store, threads and events).
            broadcast: The games' WebSocket subscribers, to push a review's progress to.
            pool: The search pool the reviews run in.
            budget: The search budget of each position (``None``: the review's default).
            seed: The seed of the searches (a review of a game is then reproducible).
            stale_seconds: How old a running review's heartbeat may be before it counts as
                abandoned.
        """
        self._core = core
        self._broadcast = broadcast
        self._pool = pool
        core.events.subscribe(self._changed, ReviewChanged)
        self.budget = budget
        self.seed = seed
        self.stale_seconds = stale_seconds
        self._owner = secrets.token_hex(8)  # this process, in the database's claims
        self._running: dict[str, asyncio.Task[None]] = {}
        #: Games whose review this process is starting: they hold a place among `MAX_RUNNING`
        #: from the check until they run (or fail to start).
        self._starting: set[str] = set()

    # -- asking ------------------------------------------------------------------------------

    async def start(self, game_id: str) -> tuple[int, dict[str, Any]]:
        """Start the review of a finished game, unless one runs or is done already.

        Returns:
            ``(status, answer)``: 202 and the progress of the review now running (this
            request's, or another's already running), or 200 and the finished review.

        Raises:
            NotFoundError: No game has this id.
            ConflictError: The game is still being played.
            BusyError: This process runs too many reviews already (503, try again later).
        """
        service = self._core
        live = await service.current(game_id)
        if not live.is_over:
            raise ConflictError(
                f"game {game_id!r} is still being played; a review is made of a finished game"
            )
        row = await service.read(service.store.load_review, game_id)
        status = self._status(row, live)
        if status == "done":
            assert row is not None
            return 200, self.answer(row, live)
        if status == "running":
            assert row is not None
            return 202, self.answer(row, live)
        busy = self._running.keys() | self._starting
        if game_id not in busy and len(busy) >= MAX_RUNNING:
            raise BusyError(
                f"the server is reviewing {len(busy)} games already (at most {MAX_RUNNING} at "
                "once); try again in a minute",
                retry_after=30,
            )
        # The place is taken before the first wait, so that requests arriving meanwhile count it.
        self._starting.add(game_id)
        try:
            await self._claim(live)
        finally:
            self._starting.discard(game_id)
        row = await service.read(service.store.load_review, game_id)
        assert row is not None
        return 202, self.answer(row, live)

    async def _claim(self, live: LiveGame) -> None:
        """Claim the game's review in the database and run it here, unless another has."""
        from ludoteca.analysis.review import review_tasks

        service = self._core
        game_id = live.id
        record = live.record()
        try:
            tasks = await asyncio.to_thread(
                review_tasks, record, budget=self.budget, seed=self.seed
            )
        except LudotecaError as error:
            raise ConflictError(f"game {game_id!r} cannot be reviewed: {error}") from None
        claimed = await service.write(
            service.store.start_review,
            game_id,
            owner=self._owner,
            total=len(tasks),
            moves=live.ply,
            budget=json.dumps(self.budget),
            seed=self.seed,
            stale_before=time.time() - self.stale_seconds,
        )
        if claimed:
            self._running[game_id] = asyncio.get_running_loop().create_task(
                self._run(live, record, tasks)
            )

    async def get(self, game_id: str) -> dict[str, Any]:
        """The game's review, its progress, or ``{"status": "none"}``.

        Raises:
            NotFoundError: No game has this id.
        """
        live = await self._core.current(game_id)
        row = await self._core.read(self._core.store.load_review, game_id)
        return self.answer(row, live)

    def _status(self, row: ReviewRow | None, live: LiveGame) -> str:
        """none, running, interrupted, done or failed (see `answer`)."""
        if row is None or (row.moves != live.ply and row.status != "running"):
            return "none"  # never reviewed, or moves were taken back since
        if row.status == "running" and time.time() - row.heartbeat > self.stale_seconds:
            return "interrupted"
        return row.status

    def answer(self, row: ReviewRow | None, live: LiveGame) -> dict[str, Any]:
        """The API's answer for a review (``GET /api/games/{id}/review``).

        ``status`` is ``none`` (no review), ``running`` (with ``done`` of ``total``
        positions), ``interrupted`` (its server stopped; it may be asked for again),
        ``failed`` (with ``error``) or ``done``: then the review's own fields follow
        (``game``, ``options``, ``decisions``, ``players``; `ludoteca.analysis.review`) and
        ``paths``, by ply, the regions of the move played (``move``) and of the better move
        (``best``), for drawing them on the board.
        """
        status = self._status(row, live)
        answer: dict[str, Any] = {"id": live.id, "status": status}
        if row is None or status == "none":
            return answer
        answer |= {
            "done": row.done,
            "total": row.total,
            "budget": json.loads(row.budget) if row.budget else None,
            "seed": row.seed,
            "started": row.started,
            "updated": row.updated,
        }
        if status == "failed" or status == "interrupted":
            answer["error"] = row.error or "the server stopped during the review"
        if status == "done" and row.review is not None:
            answer = {**answer, **json.loads(row.review), "id": live.id, "status": "done"}
            answer["paths"] = json.loads(row.paths) if row.paths else {}
            answer["finished"] = row.finished
        return answer

    # -- running -----------------------------------------------------------------------------

    async def _run(self, live: LiveGame, record: Any, tasks: list[Any]) -> None:
        """Search every position in the pool, then assemble and store the review."""
        from ludoteca.analysis.review import assemble_review

        service = self._core
        game_id = live.id
        done = [0]
        beat = asyncio.get_running_loop().create_task(self._beat(game_id, done))
        pending = iter(tasks)  # shared by the searches below, which take the next in turn
        results = []

        async def search_in_turn() -> None:
            for task in pending:
                job = SearchJob("review", live.game.id, dict(live.game.options), "", task=task)
                results.append(await self._search(job))
                done[0] = len(results)
                if beat.done():
                    raise _TakenOverError

        try:
            # As many positions at once as the lane has workers (the tasks are independent).
            async with asyncio.TaskGroup() as group:
                for _ in range(self._pool.workers(REVIEW)):
                    group.create_task(search_in_turn())
            review = await asyncio.to_thread(
                assemble_review, record, results, budget=self.budget, seed=self.seed
            )
            document = review.to_json()
            paths = await asyncio.to_thread(move_paths, live, document)
            beat.cancel()
            await service.write(
                service.store.finish_review, game_id, self._owner, to_json(document), to_json(paths)
            )
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a failed search or review must not stay "running"
            if isinstance(error, ExceptionGroup):  # from the searches' task group
                error = error.exceptions[0]
            if isinstance(error, _TakenOverError):
                return  # another process took the review over
            log.warning("the review of game %s failed: %s", game_id, error)
            with contextlib.suppress(LudotecaError):
                await service.write(
                    service.store.fail_review, game_id, self._owner, f"the review failed: {error}"
                )
        finally:
            beat.cancel()
            self._running.pop(game_id, None)

    async def _search(self, job: SearchJob) -> Any:
        """One position in the review lane; a full lane is waited out, not a failure."""
        while True:
            try:
                return await self._pool.run(REVIEW, job)
            except PoolBusyError:
                if self._core.closing:
                    raise
                await asyncio.sleep(1.0)

    async def _beat(self, game_id: str, done: list[int]) -> None:
        """Record the progress as it moves on, and the heartbeat, until cancelled.

        Ends by itself when the database says another process holds the review now.
        """
        service = self._core
        every = min(HEARTBEAT_SECONDS, self.stale_seconds / 3)  # well within the staleness
        written, last = -1, time.monotonic()
        while True:
            await asyncio.sleep(min(PROGRESS_SECONDS, every))
            if done[0] == written and time.monotonic() - last < every:
                continue
            try:
                held = await service.write(
                    service.store.review_progress, game_id, self._owner, done[0]
                )
            except LudotecaError as error:  # the database is busy: beat again soon
                log.warning("could not record the progress of review %s: %s", game_id, error)
                continue
            written, last = done[0], time.monotonic()
            if not held:
                return

    async def close(self) -> None:
        """Stop the reviews of this process and mark them interrupted (they may be restarted)."""
        for game_id, task in list(self._running.items()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, LudotecaError):
                await task
            with contextlib.suppress(LudotecaError, RuntimeError):
                await self._core.write(
                    self._core.store.fail_review,
                    game_id,
                    self._owner,
                    "the server stopped during the review; ask for it again",
                    status="interrupted",
                )

    # -- pushing -----------------------------------------------------------------------------

    def _changed(self, event: ReviewChanged) -> None:
        self.heard(event.game_id)

    def heard(self, game_id: str) -> None:
        """A review changed (in any process): push it to this process's watchers of the game."""
        if self._broadcast.has_subscribers(game_id):
            asyncio.get_running_loop().create_task(self._push(game_id))

    async def _push(self, game_id: str) -> None:
        try:
            live = await self._core.get(game_id)
            row = await self._core.read(self._core.store.load_review, game_id)
        except LudotecaError as error:
            log.warning("could not read the review of game %s: %s", game_id, error)
            return
        message = to_json({"type": "review", "review": self.answer(row, live)})
        self._broadcast.send(game_id, message)


def move_paths(live: LiveGame, review: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """By ply, the regions of the move played and of the better move (where it differs).

    The page draws them on the board (`ludoteca.core.view`'s click paths of the position the
    move was played in).
    """
    paths: dict[str, dict[str, list[str]]] = {}
    states = live.states  # rebuilt once for every decision
    for decision in review.get("decisions", []):
        ply = int(decision["ply"])
        best = decision.get("best_move")
        if best is None or best == decision.get("move") or not 0 <= ply < len(states):
            continue
        clicks = click_paths_of(states[ply])
        paths[str(ply)] = {
            "move": clicks.get(str(decision.get("move")), []),
            "best": clicks.get(str(best), []),
        }
    return paths

"""The computer players' process pool: searches off the event loop, bounded and fair.

A search is CPU work that can take seconds, so it runs in a worker *process* (never a thread of
the server: a thread cannot be stopped, and it would hold the interpreter). The pool has lanes,
each with its own workers and a bounded queue:

- ``quick``: levels 1-2 (milliseconds to a fraction of a second),
- ``deep``: levels 3-5 (up to the levels' 1.8 s cap),
- ``hints``: the hints people ask for (level 5's engine, never blundering),
- ``review``: the positions of game reviews (`ludoteca.analysis.review`), at the lowest
  priority and with a longer time limit of their own.

So two long level-5 searches never delay a level-1 reply, a flood of hints never delays a
computer's move, and a review only takes what the processor has left. Within a lane jobs run
first come, first served; a game has at most one computer move waiting, so no game can take
more than its turn. Every job has a hard time limit: a worker that overruns it is killed and
replaced, and the job fails with `SearchTimeoutError`.
A full queue refuses at once with `PoolBusyError`. Workers start on first use (``ludoteca serve``
starts them in the background as it starts). Workers load the games' compiled kernels from
numba's cache (`ludoteca.warmup.warm_up_game`): those prepared when they start before they take
work, each game prepared later (`SearchPool.load`) in a thread while they wait for work, and in
any case before their first job of a game, under a limit of its own (`WORKER_LOAD_CPU_SECONDS`
of CPU time), so the search itself keeps its whole time limit. The server sends only games that
are prepared (`ludoteca.web.readiness`), so a worker loads and never compiles.
Deep searches and hints run at a lower priority (a higher niceness), so on a busy machine they
give way to the server and to quick replies. What runs inside a worker, and how the server waits
on one, is `ludoteca.web.search_worker`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import game_ids, runtime_registrations
from ludoteca.web.search_worker import (
    WORKER_CHECK_SECONDS,
    SearchJob,
    wait_for_worker,
    wait_readable,
    worker_main,
)

log = logging.getLogger(__name__)

QUICK, DEEP, HINTS, REVIEW = "quick", "deep", "hints", "review"
DEFAULT_TIME_LIMIT = 10.0
#: The hard limit on one position of a review (a review's budget is spent position by position).
DEFAULT_REVIEW_TIME_LIMIT = 120.0
#: The CPU time a worker may use to start, and to load a game's kernels before its first job of
#: that game, before it is given up as broken. CPU time, not seconds on the clock: on a busy
#: machine a worker at a low priority may wait minutes for its turn, and is not broken for that.
WORKER_START_CPU_SECONDS = 120.0
WORKER_LOAD_CPU_SECONDS = 120.0


class PoolBusyError(LudotecaError):
    """Too many searches are waiting; the request should be tried again shortly."""


class SearchTimeoutError(LudotecaError):
    """A search ran past the hard time limit and its worker was stopped."""


class SearchFailedError(LudotecaError):
    """A search failed in its worker (the message says why)."""


@dataclass(frozen=True, slots=True)
class LaneSize:
    """A lane's worker processes, how many jobs may wait in it, and their niceness.

    Attributes:
        workers: Worker processes.
        queue: Jobs that may wait; one more is refused with `PoolBusyError`.
        niceness: Added to the workers' niceness: a deep search gives way to the server.
        time_limit: The hard limit on one job of this lane, in seconds (``None``: the pool's).
    """

    workers: int
    queue: int
    niceness: int = 0
    time_limit: float | None = None


DEFAULT_LANES = {
    QUICK: LaneSize(workers=1, queue=256, niceness=0),
    DEEP: LaneSize(workers=2, queue=256, niceness=10),
    HINTS: LaneSize(workers=1, queue=8, niceness=10),
    REVIEW: LaneSize(workers=2, queue=8, niceness=15, time_limit=DEFAULT_REVIEW_TIME_LIMIT),
}


def lane_of(agent: str) -> str:
    """The lane of a computer seat's agent spec."""
    return QUICK if agent in ("random", "level:1", "level:2") else DEEP


# -- the server's side ------------------------------------------------------------------------


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    connection: Connection
    games: set[str] = field(default_factory=set)  # the games of the jobs it was sent

    def ask_to_load(self, game_id: str) -> None:
        with contextlib.suppress(OSError):  # a worker that died is replaced on its next job
            self.connection.send(("load", game_id))

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=1)


@dataclass
class _Lane:
    name: str
    size: LaneSize
    queue: asyncio.Queue[tuple[SearchJob, asyncio.Future[Any]]]
    slots: list[asyncio.Task[None]] = field(default_factory=list)
    workers: list[_Worker | None] = field(default_factory=list)
    spawning: list[asyncio.Task[_Worker] | None] = field(default_factory=list)


class SearchPool:
    """Lanes of worker processes that run searches with a hard time limit."""

    def __init__(
        self,
        lanes: dict[str, LaneSize] | None = None,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        games: Sequence[str] | None = None,
    ) -> None:
        """Lanes of these sizes (default: `DEFAULT_LANES`); no worker starts yet.

        Args:
            lanes: The lanes' sizes by name.
            time_limit: The hard limit on one search, in seconds (a lane may have its own).
            games: The games whose kernels a worker loads before it takes work (default:
                every registered game); `load` adds more.
        """
        self.time_limit = time_limit
        self._games = list(game_ids() if games is None else games)
        self._sizes = dict(DEFAULT_LANES if lanes is None else lanes)
        self._lanes: dict[str, _Lane] = {}
        self._context = multiprocessing.get_context("spawn")
        self._closed = False

    def _lane(self, name: str) -> _Lane:
        lane = self._lanes.get(name)
        if lane is None:
            size = self._sizes.get(name) or DEFAULT_LANES[name]  # a lane not configured: as usual
            lane = _Lane(name, size, asyncio.Queue(maxsize=size.queue))
            lane.workers = [None] * size.workers
            lane.spawning = [None] * size.workers
            lane.slots = [
                asyncio.get_running_loop().create_task(self._serve(lane, index))
                for index in range(size.workers)
            ]
            self._lanes[name] = lane
        return lane

    async def start(self, names: Sequence[str] = (QUICK, DEEP, HINTS)) -> None:
        """Start the workers of these lanes now rather than on first use, and wait for them.

        Raises:
            SearchFailedError: A worker did not start.
        """
        lanes = [self._lane(name) for name in names]
        await asyncio.gather(
            *(self._worker(lane, index) for lane in lanes for index in range(len(lane.workers)))
        )

    async def run(self, lane_name: str, job: SearchJob) -> Any:
        """Run ``job`` in a worker of the lane and return its answer.

        Raises:
            PoolBusyError: The lane's queue is full.
            SearchTimeoutError: The search overran the hard time limit.
            SearchFailedError: The search failed.
        """
        if self._closed:
            raise PoolBusyError("the server is stopping")
        lane = self._lane(lane_name)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        try:
            lane.queue.put_nowait((job, future))
        except asyncio.QueueFull:
            raise PoolBusyError(
                f"the computer is busy ({lane.queue.qsize()} searches waiting); try again soon"
            ) from None
        return await future

    def load(self, game_id: str) -> None:
        """Have every worker load this game's kernels while it waits for work.

        Workers started later load it before they take work. Called once the game is prepared,
        so that its first search does not wait for the load.
        """
        if game_id in self._games:
            return
        self._games.append(game_id)
        for lane in self._lanes.values():
            for worker in lane.workers:
                if worker is not None:
                    worker.ask_to_load(game_id)

    def workers(self, lane_name: str) -> int:
        """How many worker processes a lane has."""
        return (self._sizes.get(lane_name) or DEFAULT_LANES[lane_name]).workers

    def waiting(self, lane_name: str) -> int:
        """How many jobs wait in a lane."""
        lane = self._lanes.get(lane_name)
        return 0 if lane is None else lane.queue.qsize()

    async def _serve(self, lane: _Lane, index: int) -> None:
        """One slot of a lane: take jobs one at a time and run them on this slot's worker."""
        while not self._closed:
            job, future = await lane.queue.get()
            if future.done():  # the caller gave up (e.g. the request was cancelled)
                continue
            try:
                worker = await self._worker(lane, index)
                answer = await self._ask(worker, job, lane.size.time_limit or self.time_limit)
            except SearchTimeoutError as error:
                lane.workers[index] = None
                if not future.done():
                    future.set_exception(error)
                continue
            except (LudotecaError, OSError, EOFError) as error:
                failed = lane.workers[index]
                lane.workers[index] = None
                if failed is not None:
                    failed.stop()
                if not future.done():
                    future.set_exception(SearchFailedError(f"the search worker failed: {error}"))
                continue
            if not future.done():
                if answer[0] == "ok":
                    future.set_result(answer[1])
                else:
                    future.set_exception(SearchFailedError(str(answer[1])))

    async def _worker(self, lane: _Lane, index: int) -> _Worker:
        """The slot's live worker, started (once, whoever asks first) if it has none."""
        worker = lane.workers[index]
        if worker is not None and worker.process.is_alive():
            return worker
        if worker is not None:
            worker.stop()
            lane.workers[index] = None
        spawning = lane.spawning[index]
        if spawning is None:
            spawning = asyncio.get_running_loop().create_task(self._spawn_into(lane, index))
            lane.spawning[index] = spawning
        return await asyncio.shield(spawning)  # a caller that gives up leaves it to the slot

    async def _spawn_into(self, lane: _Lane, index: int) -> _Worker:
        try:
            preload = tuple(self._games)
            worker = lane.workers[index] = await self._spawn(lane.size.niceness, preload)
            for game_id in self._games[len(preload) :]:  # prepared while it started
                worker.ask_to_load(game_id)
            return worker
        finally:
            lane.spawning[index] = None

    async def _spawn(self, niceness: int, preload: tuple[str, ...] = ()) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=worker_main,
            args=(child, niceness, runtime_registrations(), preload),
            name="ludoteca-search",
            daemon=True,
        )
        loop = asyncio.get_running_loop()
        starting = loop.run_in_executor(None, process.start)
        try:
            await asyncio.shield(starting)
        except asyncio.CancelledError:  # the thread starts it all the same: stop it then
            starting.add_done_callback(lambda _: _Worker(process, parent).stop())
            raise
        child.close()
        worker = _Worker(process, parent)
        try:
            await self._receive_while_working(
                worker, WORKER_START_CPU_SECONDS, "a search worker did not start"
            )
        except SearchTimeoutError as error:
            raise SearchFailedError(str(error)) from None
        except BaseException:  # cancelled while it started: it must not outlive the pool
            worker.stop()
            raise
        return worker

    async def _ask(self, worker: _Worker, job: SearchJob, seconds: float) -> tuple[str, Any]:
        worker.connection.send(job)
        if job.game not in worker.games:
            await self._receive_while_working(
                worker, WORKER_LOAD_CPU_SECONDS, f"a search worker could not load {job.game}"
            )
            worker.games.add(job.game)
        answer: tuple[str, Any] = await self._receive(worker, seconds)
        return answer

    async def _receive(
        self,
        worker: _Worker,
        seconds: float,
        overrun: str = "the search took longer than {seconds:g} s",
    ) -> Any:
        """The worker's next message, waiting on its pipe without blocking the loop."""
        if not await wait_readable(worker.connection, seconds):
            worker.stop()
            raise SearchTimeoutError(overrun.format(seconds=seconds) + " and was stopped")
        return worker.connection.recv()

    async def _receive_while_working(self, worker: _Worker, cpu_seconds: float, failed: str) -> Any:
        """The worker's next message, however long a busy machine makes it wait for it.

        The worker is given up (stopped, `SearchTimeoutError`) only when it has died, has used
        ``cpu_seconds`` of CPU time meanwhile, or has not answered in `WORKER_WAIT_CAP_SECONDS`.
        """
        message = await wait_for_worker(
            worker.connection, worker.process, cpu_seconds, WORKER_CHECK_SECONDS
        )
        if message is None:
            worker.stop()
            raise SearchTimeoutError(failed)
        return message[0]

    async def close(self) -> None:
        """Stop every worker at once (searches in progress are abandoned)."""
        self._closed = True
        for lane in self._lanes.values():
            for spawning in lane.spawning:
                if spawning is not None:
                    spawning.cancel()
            for slot in lane.slots:
                slot.cancel()
            for worker in lane.workers:
                if worker is not None:
                    worker.process.kill()
            while not lane.queue.empty():
                _, future = lane.queue.get_nowait()
                if not future.done():
                    future.set_exception(PoolBusyError("the server is stopping"))
        for lane in self._lanes.values():
            for task in [*lane.slots, *(t for t in lane.spawning if t is not None)]:
                with contextlib.suppress(asyncio.CancelledError, LudotecaError):
                    await task
            for worker in lane.workers:
                if worker is not None:
                    worker.stop()

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
starts them before it accepts requests) and load every game's compiled kernels from numba's
cache, which the server fills first. Deep searches and hints run at a lower priority (a higher
niceness), so on a busy machine they give way to the server and to quick replies.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import runtime_registrations

log = logging.getLogger(__name__)

QUICK, DEEP, HINTS, REVIEW = "quick", "deep", "hints", "review"
DEFAULT_TIME_LIMIT = 10.0
#: The hard limit on one position of a review (a review's budget is spent position by position).
DEFAULT_REVIEW_TIME_LIMIT = 120.0
WORKER_START_SECONDS = 120.0


class PoolBusyError(LudotecaError):
    """Too many searches are waiting; the request should be tried again shortly."""


class SearchTimeoutError(LudotecaError):
    """A search ran past the hard time limit and its worker was stopped."""


class SearchFailedError(LudotecaError):
    """A search failed in its worker (the message says why)."""


@dataclass(frozen=True, slots=True)
class SearchJob:
    """What a worker needs: the rules, the position and who plays.

    Attributes:
        kind: ``"move"`` (the agent's move), ``"hint"`` (`ludoteca.ai.hint`) or ``"review"``
            (one position of a review: ``task``).
        game: The game id.
        options: The game's options.
        position: The position text (`State.to_text`).
        agent: The agent spec (``"level:3"``) for moves.
        seed: The agent's seed.
        task: A review's `ludoteca.analysis.review.ReviewTask` (picklable), for ``"review"``.
    """

    kind: str
    game: str
    options: dict[str, Any]
    position: str
    agent: str = ""
    seed: int = 0
    task: Any = None


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


# -- the worker process -------------------------------------------------------------------------


def _worker_main(connection: Connection, niceness: int, games: tuple[str, ...] = ()) -> None:
    """Answer jobs from ``connection`` until it closes (runs in the worker process).

    ``games`` are the server's games registered at run time (``"module:ClassName"``), which a
    spawned process does not know by itself.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    if niceness:
        os.nice(niceness)  # long searches yield the processor to the server and quick replies
    from ludoteca.ai import agent_from_spec, hint
    from ludoteca.ai.warmup import warm_up
    from ludoteca.core.errors import LudotecaError
    from ludoteca.core.registry import make, register_path

    for path in games:
        try:
            register_path(path)
        except LudotecaError:  # jobs for that game then fail with a clear "unknown game"
            continue

    warm_up()  # load every game's compiled kernels now, not during a player's first move

    agents: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
    connection.send(("ready", os.getpid()))
    while True:
        try:
            job: SearchJob = connection.recv()
        except (EOFError, OSError):
            return
        try:
            if job.kind == "review":
                from ludoteca.analysis.review import run_review_task

                answer: tuple[str, Any] = ("ok", run_review_task(job.task))
            else:
                game = make(job.game, **job.options)
                state = game.parse_state(job.position)
                if job.kind == "hint":
                    found = hint(state)
                    answer = (
                        "ok",
                        (found.move.text, float(found.win_chance), found.estimate, found.meaning),
                    )
                else:
                    key = (job.game, repr(sorted(job.options.items())), job.agent)
                    agent = agents.get(key)
                    if agent is None:
                        agent = agent_from_spec(job.agent, game, seed=job.seed)
                        agents[key] = agent
                        if len(agents) > 64:
                            agents.popitem(last=False)
                    agents.move_to_end(key)
                    answer = ("ok", agent.choose(state).text)
        except Exception as error:  # reported to the server, which logs it
            answer = ("error", f"{type(error).__name__}: {error}")
        try:
            connection.send(answer)
        except (BrokenPipeError, OSError):
            return


# -- the server's side ------------------------------------------------------------------------


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    connection: Connection

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


class SearchPool:
    """Lanes of worker processes that run searches with a hard time limit."""

    def __init__(
        self,
        lanes: dict[str, LaneSize] | None = None,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
    ) -> None:
        self.time_limit = time_limit
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
            lane.slots = [
                asyncio.get_running_loop().create_task(self._serve(lane, index))
                for index in range(size.workers)
            ]
            self._lanes[name] = lane
        return lane

    async def start(self, names: Sequence[str] = (QUICK, DEEP, HINTS)) -> None:
        """Start the workers of these lanes now rather than on first use."""
        for name in names:
            lane = self._lane(name)
            for index in range(len(lane.workers)):
                if lane.workers[index] is None:
                    lane.workers[index] = await self._spawn(lane.size.niceness)

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

    def workers(self, lane_name: str) -> int:
        """How many worker processes a lane has."""
        return (self._sizes.get(lane_name) or DEFAULT_LANES[lane_name]).workers

    def waiting(self, lane_name: str) -> int:
        """How many jobs wait in a lane."""
        lane = self._lanes.get(lane_name)
        return 0 if lane is None else lane.queue.qsize()

    async def _serve(self, lane: _Lane, index: int) -> None:
        """One slot of a lane: take jobs one at a time and run them on this slot's worker."""
        while True:
            job, future = await lane.queue.get()
            if future.done():  # the caller gave up (e.g. the request was cancelled)
                continue
            try:
                worker = lane.workers[index]
                if worker is None or not worker.process.is_alive():
                    if worker is not None:
                        worker.stop()
                    worker = lane.workers[index] = await self._spawn(lane.size.niceness)
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

    async def _spawn(self, niceness: int) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main,
            args=(child, niceness, runtime_registrations()),
            name="ludoteca-search",
            daemon=True,
        )
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, process.start)
        child.close()
        worker = _Worker(process, parent)
        try:
            await self._receive(worker, WORKER_START_SECONDS)
        except SearchTimeoutError:
            raise SearchFailedError("a search worker did not start") from None
        return worker

    async def _ask(self, worker: _Worker, job: SearchJob, seconds: float) -> tuple[str, Any]:
        worker.connection.send(job)
        answer: tuple[str, Any] = await self._receive(worker, seconds)
        return answer

    async def _receive(self, worker: _Worker, seconds: float) -> Any:
        """The worker's next message, waiting on its pipe without blocking the loop."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        descriptor = worker.connection.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(descriptor, readable)
        try:
            await asyncio.wait_for(ready, seconds)
        except TimeoutError:
            worker.stop()
            raise SearchTimeoutError(
                f"the search took longer than {seconds:g} s and was stopped"
            ) from None
        finally:
            loop.remove_reader(descriptor)
        return worker.connection.recv()

    async def close(self) -> None:
        """Stop every worker at once (searches in progress are abandoned)."""
        self._closed = True
        for lane in self._lanes.values():
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
            for slot in lane.slots:
                with contextlib.suppress(asyncio.CancelledError):
                    await slot
            for worker in lane.workers:
                if worker is not None:
                    worker.stop()

"""The search pool's worker process: what runs in it, and how the server waits on it.

`worker_main` is the body of a worker process of `ludoteca.web.searches.SearchPool`: it loads
the games' kernels, then answers `SearchJob` messages on its end of a pipe until the pipe
closes. The server's side waits on a worker without blocking its event loop
(`wait_readable`), and gives a starting or loading worker up by the CPU time it used
(`wait_for_worker`), not by the clock, since on a busy machine a worker at a low priority may
wait minutes for its turn and is not broken for that.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import queue
import signal
import threading
from collections import OrderedDict
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

#: A worker that has neither answered nor used up its CPU time is given up after this long on
#: the clock all the same: a safety net against one that never gets to run, not a time limit.
WORKER_WAIT_CAP_SECONDS = 900.0
#: How often a starting or loading worker's CPU time is looked at.
WORKER_CHECK_SECONDS = 2.0


def process_cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user and system) process ``pid`` has used; None where /proc cannot tell."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()  # the name, in (), may hold spaces
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


async def wait_readable(connection: Connection, seconds: float) -> bool:
    """Whether ``connection`` has a message within ``seconds``, without blocking the loop."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()
    descriptor = connection.fileno()

    def readable() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(descriptor, readable)
    try:
        # asyncio.wait, not wait_for: Python 3.11's wait_for loses a cancellation that comes as
        # the future completes (the pool's close then waited forever on a slot that went on).
        done, _ = await asyncio.wait({ready}, timeout=seconds)
        return bool(done)
    finally:
        loop.remove_reader(descriptor)


async def wait_for_worker(
    connection: Connection,
    process: multiprocessing.process.BaseProcess,
    cpu_seconds: float,
    check_seconds: float,
    cap_seconds: float | None = None,
) -> tuple[Any] | None:
    """The process's next message on ``connection`` (as a 1-tuple), or None when it gives up.

    It gives up when the process has died, has used ``cpu_seconds`` of CPU time since the wait
    began, or ``cap_seconds`` (`WORKER_WAIT_CAP_SECONDS`) have passed; where the process's CPU
    time cannot be read, after ``cpu_seconds`` on the clock.
    """
    loop = asyncio.get_running_loop()
    began = loop.time()
    cap = WORKER_WAIT_CAP_SECONDS if cap_seconds is None else cap_seconds
    cpu_at_start = process_cpu_seconds(process.pid)
    while True:
        if await wait_readable(connection, check_seconds):
            try:
                return (connection.recv(),)
            except (EOFError, OSError):  # it died after closing its end
                return None
        cpu_now = process_cpu_seconds(process.pid)
        if cpu_at_start is None or cpu_now is None:
            used = loop.time() - began
        else:
            used = cpu_now - cpu_at_start
        if not process.is_alive() or used >= cpu_seconds or loop.time() - began >= cap:
            return None


@dataclass(frozen=True, slots=True)
class SearchJob:
    """What a worker needs: the rules, the position and who plays.

    Attributes:
        kind: ``"move"`` (the agent's move), ``"hint"`` (`ludoteca.ai.hint`), ``"evaluate"``
            (the analysis board's `ludoteca.analysis.position.evaluate`, ``task`` its budget)
            or ``"review"`` (one position of a review: ``task``).
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


def worker_main(
    connection: Connection,
    niceness: int,
    games: tuple[str, ...] = (),
    preload: tuple[str, ...] = (),
) -> None:
    """Answer jobs from ``connection`` until it closes (runs in the worker process).

    ``games`` are the server's games registered at run time (``"module:ClassName"``), which a
    spawned process does not know by itself. The kernels of the ``preload`` games are loaded
    before the worker says it is ready; those of a game named by a ``("load", game)`` message
    are loaded in a thread meanwhile, while the worker waits for jobs.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    if niceness:
        os.nice(niceness)  # long searches yield the processor to the server and quick replies
    from ludoteca.ai import agent_from_spec, hint
    from ludoteca.core.errors import LudotecaError
    from ludoteca.core.registry import make, register_path
    from ludoteca.warmup import warm_up_game

    for path in games:
        try:
            register_path(path)
        except LudotecaError:  # jobs for that game then fail with a clear "unknown game"
            continue

    def load(game_id: str) -> None:
        with contextlib.suppress(Exception):  # an unknown game: its jobs say so themselves
            warm_up_game(game_id)

    def load_meanwhile() -> None:
        while True:
            load(waiting.get())

    for game_id in preload:
        load(game_id)
    waiting: queue.SimpleQueue[str] = queue.SimpleQueue()
    threading.Thread(target=load_meanwhile, name="ludoteca-load", daemon=True).start()

    agents: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
    announced: set[str] = set()  # the games whose first job said "loaded" to the server
    connection.send(("ready", os.getpid()))
    while True:
        try:
            message: SearchJob | tuple[str, str] = connection.recv()
        except (EOFError, OSError):
            return
        if isinstance(message, tuple):  # ("load", game): while no job is waiting
            waiting.put(message[1])
            continue
        job = message
        if job.game not in announced:  # its kernels, before the search's clock starts
            load(job.game)  # at once if loaded already; it waits for a load in progress
            announced.add(job.game)
            try:
                connection.send(("loaded", job.game))
            except (BrokenPipeError, OSError):
                return
        try:
            if job.kind == "review":
                from ludoteca.analysis.review import run_review_task

                answer: tuple[str, Any] = ("ok", run_review_task(job.task))
            else:
                game = make(job.game, **job.options)
                state = game.parse_state(job.position)
                if job.kind == "evaluate":  # the analysis board: ``task`` is the budget
                    from ludoteca.analysis.position import evaluate

                    answer = ("ok", evaluate(state, budget=job.task, seed=job.seed))
                elif job.kind == "hint":
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

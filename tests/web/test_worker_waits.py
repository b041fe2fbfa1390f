"""A starting or loading search worker is judged by the CPU time it uses, not by the clock.

On a busy machine a worker at a low priority can wait minutes for its turn to run; it is not
broken for that. `wait_for_worker` gives up on a worker only when it died or burnt its CPU
allowance. The workers here are real processes: one that waits without using CPU (as a starved
one does) answers late and is still heard, one that spins is given up once it has used its CPU
allowance, and one that dies is given up at once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from multiprocessing.connection import Connection

from ludoteca.web.search_worker import process_cpu_seconds, wait_for_worker

CONTEXT = multiprocessing.get_context("spawn")


def _answers_after_idling(connection: Connection, idle_seconds: float) -> None:
    time.sleep(idle_seconds)  # no CPU used, as a worker the machine gives no turn to
    connection.send("ready")


def _spins(connection: Connection) -> None:
    while True:  # CPU used and never an answer: a broken worker
        pass


def _dies(connection: Connection) -> None:
    os._exit(3)


def _wait(target: object, *args: object, cpu_seconds: float) -> tuple[object, ...] | None:
    parent, child = CONTEXT.Pipe()
    process = CONTEXT.Process(target=target, args=(child, *args), daemon=True)
    process.start()
    child.close()
    try:
        return asyncio.run(wait_for_worker(parent, process, cpu_seconds, check_seconds=0.05))
    finally:
        process.kill()
        process.join()
        parent.close()


def test_a_worker_that_waits_without_using_cpu_is_heard_however_late() -> None:
    # Idle for 3 s against a CPU allowance of 1.5 s (starting a process takes about 0.3 s of
    # it): a limit of 1.5 s on the clock gave it up.
    assert _wait(_answers_after_idling, 3.0, cpu_seconds=1.5) == ("ready",)


def test_a_worker_that_burns_its_cpu_allowance_is_given_up() -> None:
    parent, child = CONTEXT.Pipe()
    process = CONTEXT.Process(target=_spins, args=(child,), daemon=True)
    process.start()
    child.close()
    try:
        assert asyncio.run(wait_for_worker(parent, process, 0.5, check_seconds=0.05)) is None
        used = process_cpu_seconds(process.pid)
        assert used is not None and used >= 0.5  # given up for its CPU, not for the clock
    finally:
        process.kill()
        process.join()
        parent.close()


def test_a_worker_that_dies_is_given_up() -> None:
    assert _wait(_dies, cpu_seconds=1000.0) is None


def test_the_cpu_time_of_a_process_is_read() -> None:
    before = process_cpu_seconds(os.getpid())
    assert before is not None
    deadline = time.process_time() + 0.2
    while time.process_time() < deadline:
        pass
    after = process_cpu_seconds(os.getpid())
    assert after is not None and after - before >= 0.15  # /proc counts in clock ticks
    assert process_cpu_seconds(None) is None

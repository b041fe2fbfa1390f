"""The batch runner's worker pool: results in order, and workers that start clean."""

from __future__ import annotations

import threading

import pytest

from ludoteca.analysis.batches import BatchRunner, run_batches

#: Held by a thread of the test process while the pool starts: a forked worker would start with
#: its copy held, by a thread that the worker does not have, and wait for it forever.
_HELD = threading.Lock()


def _square_when_free(number: int) -> int:
    with _HELD:
        return number * number


def test_workers_do_not_inherit_a_lock_held_by_another_thread() -> None:
    taken = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with _HELD:
            taken.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait()
    try:
        with BatchRunner(jobs=2) as runner:
            # The pool starts while the lock is held; the workers must still do their work.
            assert runner.run(_square_when_free, [1, 2, 3, 4]) == [1, 4, 9, 16]
    finally:
        release.set()
        holder.join()


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_come_back_in_the_items_order_whatever_the_workers(jobs: int) -> None:
    seen: list[int] = []
    results = run_batches(abs, [-3, 1, -2], jobs=jobs, on_result=lambda i, r: seen.append(i))
    assert results == [3, 1, 2]
    assert sorted(seen) == [0, 1, 2]

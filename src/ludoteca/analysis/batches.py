"""Running independent batches of work in this process, in worker processes, or on Ray.

Studies and tournaments split their games into batches whose seeds are fixed in advance, so the
results are the same whichever backend runs them and however many workers it has. `run_batches`
calls ``function`` on every item and returns the results in the items' order; ``on_result`` sees
each one as it finishes (for progress bars). A `BatchRunner` keeps its workers (or its Ray
session) between calls, for work that comes in rounds: a variant search decides what to play next
from what it has seen, and starting a pool or a Ray session every round would cost seconds each.

Backends:

* ``jobs=1``: one after the other in this process.
* ``jobs=N``: a pool of N worker processes (`start_pool`). Workers ignore Ctrl+C; this process
  stops them at once instead, so an interrupted run neither hangs on batches in progress nor
  prints their stacks.
* ``ray=ADDRESS``: Ray tasks (``pip install 'ludoteca[cluster]'``). ``""`` starts a local Ray
  (or joins the one already running on this machine); any other value is an address passed to
  ``ray.init`` (e.g. ``auto``, ``10.0.0.5:6379`` or ``ray://head:10001``). Every node needs the
  same version of Ludoteca installed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import signal
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, TypeVar

from ludoteca.core.errors import LudotecaError

Item = TypeVar("Item")
Result = TypeVar("Result")

_WAKE_EVERY = 0.2  # seconds: how often a waiting main thread checks for Ctrl+C


class ClusterError(LudotecaError):
    """Ray is not installed, or its cluster cannot be reached."""


class BatchRunner:
    """One backend (this process, a pool of workers, or Ray) kept up for several `run` calls.

    Use it as a context manager: leaving the ``with`` block stops the workers, and a Ray
    session that the runner started (one it joined stays up).

    Args:
        jobs: Worker processes when ``ray`` is ``None`` (1 works in this process).
        ray: ``None`` for local work; ``""`` for a local Ray; else a Ray cluster's address.
    """

    def __init__(self, *, jobs: int = 1, ray: str | None = None) -> None:
        self.jobs = jobs
        self.ray_address = ray
        self._pool: multiprocessing.pool.Pool | None = None
        self._ray: Any = None
        self._ray_started_here = False

    def __enter__(self) -> BatchRunner:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers at once, and the Ray session if this runner started it."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        if self._ray is not None and self._ray_started_here:
            self._ray.shutdown()
        self._ray = None

    def run(
        self,
        function: Callable[[Item], Result],
        items: Sequence[Item],
        on_result: Callable[[int, Result], None] | None = None,
    ) -> list[Result]:
        """``[function(item) for item in items]``, computed by this runner's backend.

        Args:
            function: A module-level function (workers import it by name).
            items: Its arguments, picklable.
            on_result: Called with ``(index, result)`` as each result comes in.

        Raises:
            ClusterError: Ray was asked for and is not installed or cannot be reached.
        """
        report = on_result or (lambda index, result: None)
        if self.ray_address is not None:
            return self._on_ray(function, items, report)
        results: list[Any] = [None] * len(items)
        if self.jobs <= 1 or (len(items) <= 1 and self._pool is None):
            for index, item in enumerate(items):
                results[index] = function(item)
                report(index, results[index])
            return results
        if self._pool is None:
            self._pool = start_pool(self.jobs)
        pending = [self._pool.apply_async(function, (item,)) for item in items]
        waiting = set(range(len(items)))
        while waiting:
            for index in sorted(waiting):
                task = pending[index]
                if task.ready():
                    results[index] = task.get()
                    waiting.discard(index)
                    report(index, results[index])
            if waiting:
                pending[min(waiting)].wait(_WAKE_EVERY)
        return results

    def _on_ray(
        self,
        function: Callable[[Item], Result],
        items: Sequence[Item],
        report: Callable[[int, Result], None],
    ) -> list[Result]:
        if self._ray is None:
            ray = import_ray()
            self._ray_started_here = not ray.is_initialized()
            if self._ray_started_here:
                address = self.ray_address
                try:
                    ray.init(
                        address=address or None,
                        include_dashboard=False,
                        log_to_driver=False,
                        configure_logging=False,
                    )
                except (ConnectionError, ValueError, RuntimeError) as error:
                    where = address or "a local Ray"
                    raise ClusterError(f"could not start or join {where}: {error}") from error
            self._ray = ray
        ray = self._ray
        remote = ray.remote(function)
        futures = [remote.remote(item) for item in items]
        index_of = {future: index for index, future in enumerate(futures)}
        results: list[Any] = [None] * len(items)
        waiting = list(futures)
        try:
            while waiting:
                done, waiting = ray.wait(waiting, num_returns=1, timeout=_WAKE_EVERY)
                for future in done:
                    index = index_of[future]
                    results[index] = ray.get(future)
                    report(index, results[index])
        finally:
            for future in waiting:
                ray.cancel(future, force=True)
        return results


def start_pool(jobs: int) -> multiprocessing.pool.Pool:
    """A pool of ``jobs`` worker processes that ignore Ctrl+C, each a fresh interpreter.

    Workers are spawned, not forked: a fork copies every thread's locks in whatever state they
    are (Ray's, gRPC's, a logging handler's), and a child that starts on a lock held by a thread
    it does not have waits forever, deaf to the SIGTERM of `multiprocessing.pool.Pool.terminate`
    when this process handles that signal in Python.
    """
    with _ctrl_c_ignored():
        return multiprocessing.get_context("spawn").Pool(jobs, initializer=_start_worker)


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ignore Ctrl+C while worker processes start, so that they start ignoring it too.

    A program started with SIGINT ignored keeps it ignored, and Python leaves an ignored SIGINT
    alone, so a spawned worker has no moment in its start-up in which a Ctrl+C (which a terminal
    sends to every process of the job) would stop it with a traceback. A Ctrl+C pressed during
    these few milliseconds is lost; the next one is heard.
    """
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)


def _start_worker() -> None:
    """A worker ignores Ctrl+C: the main process stops it.

    Workers started with the pool inherit the ignoring; one started later, to replace a worker
    that died, does not.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_batches(
    function: Callable[[Item], Result],
    items: Sequence[Item],
    *,
    jobs: int = 1,
    ray: str | None = None,
    on_result: Callable[[int, Result], None] | None = None,
) -> list[Result]:
    """``[function(item) for item in items]``, computed by the chosen backend (see `BatchRunner`).

    Raises:
        ClusterError: Ray was asked for and is not installed or cannot be reached.
    """
    with BatchRunner(jobs=min(jobs, max(1, len(items))), ray=ray) as runner:
        return runner.run(function, items, on_result)


def import_ray() -> Any:
    """The ``ray`` module.

    Raises:
        ClusterError: Ray is not installed (the message says how to install it).
    """
    try:
        import ray
    except ImportError:
        raise ClusterError(
            "--ray needs Ray, which is not installed: pip install 'ludoteca[cluster]'"
        ) from None
    return ray


def batch_sizes(total: int, size: int) -> list[int]:
    """``total`` split into batches of ``size`` (the last one smaller): fixed by these two only."""
    return [min(size, total - start) for start in range(0, total, size)]

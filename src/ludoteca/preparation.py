"""Prepare the games in parallel processes, one per game, on every core.

Compiling a game's kernels with a cold numba cache takes tens of seconds of CPU; the compiler
works on one core and holds the interpreter, so a server compiling in its own process could
neither answer requests nor use the other cores meanwhile. `Preparation` first tries to load
each game from numba's on-disk cache in this process (`ludoteca.warmup.warm_up_from_cache`, a
fraction of a second of CPU, stopped at the first function the cache lacks); a game that needs
compiling is prepared by `warm_up_game` in a process of its own (``spawn``), as many at once as
there are cores, at a lower priority than the server. Each process fills the cache
(``cache=True``), so the server and its search workers then load the game in about a second.

Failures are normal events: a process that crashes, raises or runs past `PREPARE_TIMEOUT` is
tried once more, then the game is reported failed with the reason, never waited on forever.
Each outcome is reported to a callback (``ludoteca serve`` and ``ludoteca warmup`` print it)
and, when a status directory is given, written there for the server processes to read
(`read_status`): ``<game>.ready`` or ``<game>.failed``, each written whole (a temporary file
renamed), so a reader never sees half of one.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import resource
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path

#: Seconds one try at preparing a game may take (a cold compile of the largest game took about
#: 50 s of CPU, 200 s of wall time on a 2-core machine at load 9).
PREPARE_TIMEOUT = 1800.0
#: Tries per game: a crash or a timeout is tried once more before the game is given up.
TRIES = 2
#: Added to the preparation processes' niceness: the server's requests come first.
NICENESS = 5

#: Prepares one game in a child process: (game id, learning kernels too).
PrepareGame = Callable[[str, bool], None]


@dataclass(frozen=True, slots=True)
class Prepared:
    """A game whose kernels are in numba's cache.

    Attributes:
        game: The game id.
        seconds: Wall-clock time from starting its process to the answer.
        cpu_seconds: CPU time of its process (starting Python and importing included), or of
            loading it from the cache.
        compiled: Whether it was compiled (else it was loaded from the cache).
    """

    game: str
    seconds: float
    cpu_seconds: float
    compiled: bool = True


@dataclass(frozen=True, slots=True)
class Failed:
    """A game that could not be prepared.

    Attributes:
        game: The game id.
        reason: What went wrong, in words (the last try's).
    """

    game: str
    reason: str


Outcome = Prepared | Failed


@dataclass(frozen=True, slots=True)
class Event:
    """What `Preparation` reports as it goes.

    Attributes:
        kind: ``"started"`` (a try began), ``"retrying"`` (a try failed; ``reason`` says why),
            ``"ready"`` or ``"failed"`` (``outcome`` says more).
        game: The game id.
        reason: Why a try failed (``"retrying"``, ``"failed"``).
        outcome: The game's outcome (``"ready"``, ``"failed"``).
    """

    kind: str
    game: str
    reason: str = ""
    outcome: Outcome | None = None


def default_processes() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def warm_up_in_child(game_id: str, learning: bool) -> None:
    """The usual preparation: `ludoteca.warmup.warm_up_game` (and the learning kernels)."""
    from ludoteca.warmup import warm_up_game, warm_up_learning

    warm_up_game(game_id)
    if learning:
        warm_up_learning(game_id)


def load_from_cache(game_id: str, learning: bool) -> bool:
    """`ludoteca.warmup.warm_up_from_cache`: the game loaded here if the cache has all of it."""
    from ludoteca.warmup import warm_up_from_cache

    return warm_up_from_cache(game_id, learning=learning)


def never_cached(game_id: str, learning: bool) -> bool:
    """Always a process of its own (for tests of the processes)."""
    return False


class Preparation:
    """Prepare games in the background: from the cache here, or compiled in processes.

    Each game is first loaded from numba's cache in this process (``from_cache``); a game the
    cache lacks is compiled in a process of its own, at most ``processes`` at once. `start`
    returns at once; `wait` blocks until every game has an outcome; `close` stops the
    processes still running (their games are then reported failed).
    """

    def __init__(
        self,
        games: Sequence[str],
        *,
        processes: int | None = None,
        learning: bool = False,
        status_dir: Path | None = None,
        on_event: Callable[[Event], None] | None = None,
        prepare: PrepareGame = warm_up_in_child,
        from_cache: Callable[[str, bool], bool] | None = None,
        timeout: float = PREPARE_TIMEOUT,
        registrations: Sequence[str] = (),
        niceness: int = NICENESS,
    ) -> None:
        """Set up; nothing starts before `start`.

        Args:
            games: The game ids, prepared in this order as processes come free.
            processes: How many at once (default: `default_processes`).
            learning: Also the learning interface's kernels.
            status_dir: Where to write each game's outcome for other processes (`read_status`).
            on_event: Called with each `Event`, from a background thread.
            prepare: What a child process runs for a game (a module-level function).
            from_cache: Loads a game (and the learning kernels too) in this process if numba's
                cache has all of it, and says whether it did (default: `load_from_cache`).
            timeout: Seconds one try may take.
            registrations: Games registered at run time (``"module:ClassName"``), which a
                spawned process does not know by itself.
            niceness: Added to the processes' niceness (0 where nothing else should come
                first: a test run that waits for them).
        """
        self.games = tuple(games)
        self.processes = max(1, min(processes or default_processes(), len(self.games) or 1))
        self.learning = learning
        self.status_dir = status_dir
        self.on_event = on_event
        self.prepare = prepare
        self.from_cache = from_cache or load_from_cache
        self.timeout = timeout
        self.registrations = tuple(registrations)
        self.niceness = niceness
        self.outcomes: dict[str, Outcome] = {}
        self._context = multiprocessing.get_context("spawn")
        self._children: set[multiprocessing.process.BaseProcess] = set()
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._done = threading.Event()
        self._threads: ThreadPoolExecutor | None = None

    def start(self) -> None:
        """Start preparing, in background threads that each drive one process at a time."""
        if self._threads is not None:
            return
        if self.status_dir is not None:
            self.status_dir.mkdir(parents=True, exist_ok=True)
        if not self.games:
            self._done.set()
            return
        self._threads = ThreadPoolExecutor(self.processes, thread_name_prefix="ludoteca-prepare")
        for game_id in self.games:
            self._threads.submit(self._prepare_game, game_id)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every game has an outcome; whether they all have."""
        return self._done.wait(timeout)

    def run(self) -> list[Outcome]:
        """Prepare every game and wait; the outcomes in the order of the games."""
        self.start()
        self.wait()
        return [self.outcomes[game_id] for game_id in self.games]

    def close(self) -> None:
        """Stop: kill the processes still running and wait for the background threads."""
        self._closed.set()
        with self._lock:
            children = list(self._children)
        for child in children:
            with contextlib.suppress(OSError):
                child.kill()
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
        self._done.set()

    def _prepare_game(self, game_id: str) -> None:
        # Ctrl+C on a terminal signals the whole process group: the processes started from
        # this thread inherit SIGINT blocked, so none prints a traceback while it starts up;
        # the parent stops them itself.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        outcome: Outcome = Failed(game_id, "the preparation was stopped")
        self._report(Event("started", game_id))
        try:
            cached = self._load_cached(game_id)
            if cached is not None:
                self._finish(cached)
                return
            for attempt in range(1, TRIES + 1):
                if self._closed.is_set():
                    break
                if attempt > 1:
                    self._report(Event("started", game_id))
                outcome = self._try(game_id)
                if isinstance(outcome, Prepared) or self._closed.is_set():
                    break
                if attempt < TRIES:
                    self._report(Event("retrying", game_id, reason=outcome.reason))
        except Exception as error:  # a failure of the machinery itself is the game's outcome
            outcome = Failed(game_id, f"{type(error).__name__}: {error}")
        self._finish(outcome)

    def _load_cached(self, game_id: str) -> Prepared | None:
        """The game loaded from the cache here, or ``None`` if it must be compiled."""
        if self._closed.is_set():
            return None
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            if not self.from_cache(game_id, self.learning):
                return None
        except Exception:  # whatever it is, a process of its own will say it
            return None
        seconds, cpu_seconds = time.perf_counter() - wall, time.thread_time() - cpu
        return Prepared(game_id, seconds, cpu_seconds, compiled=False)

    def _try(self, game_id: str) -> Outcome:
        """One try in a fresh process: its answer, or why there is none."""
        parent, child_end = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_child_main,
            args=(
                self.prepare,
                game_id,
                self.learning,
                self.registrations,
                self.niceness,
                child_end,
            ),
            name=f"ludoteca-prepare-{game_id}",
            daemon=True,
        )
        started = time.perf_counter()
        with self._lock:
            if self._closed.is_set():
                return Failed(game_id, "the preparation was stopped")
            process.start()
            self._children.add(process)
        child_end.close()
        try:
            ready = wait([parent, process.sentinel], timeout=self.timeout)
            answer = None
            if parent in ready:
                with contextlib.suppress(EOFError, OSError):
                    answer = parent.recv()
            if answer is None and not ready:
                process.kill()
                return Failed(game_id, f"its preparation took longer than {self.timeout:g} s")
            process.join(timeout=30)
            if answer is None:
                return Failed(game_id, _death(process.exitcode, self._closed.is_set()))
            if answer[0] == "ready":
                return Prepared(game_id, time.perf_counter() - started, float(answer[1]))
            return Failed(game_id, str(answer[1]))
        finally:
            parent.close()
            if process.is_alive():
                process.kill()
                process.join(timeout=5)
            with self._lock:
                self._children.discard(process)

    def _finish(self, outcome: Outcome) -> None:
        if self.status_dir is not None:
            write_status(self.status_dir, outcome)
        with self._lock:
            self.outcomes[outcome.game] = outcome
            finished = len(self.outcomes) == len(self.games)
        kind = "ready" if isinstance(outcome, Prepared) else "failed"
        reason = outcome.reason if isinstance(outcome, Failed) else ""
        self._report(Event(kind, outcome.game, reason=reason, outcome=outcome))
        if finished:
            self._done.set()

    def _report(self, event: Event) -> None:
        if self.on_event is not None:
            self.on_event(event)


def _death(exitcode: int | None, stopped: bool) -> str:
    """Why a preparation process ended without answering, in words."""
    if stopped:
        return "the preparation was stopped"
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"its preparation process was killed by {name}"
    return f"its preparation process stopped unexpectedly (exit status {exitcode})"


def _child_main(
    prepare: PrepareGame,
    game_id: str,
    learning: bool,
    registrations: Sequence[str],
    niceness: int,
    connection: Connection,
) -> None:
    """Prepare one game and send ("ready", CPU seconds) or ("failed", reason)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops its children itself
    with contextlib.suppress(OSError):
        os.nice(niceness)
    try:
        from ludoteca.core.registry import register_path

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # plug-ins left out are the parent's to report
            for path in registrations:
                with contextlib.suppress(Exception):
                    register_path(path)
            prepare(game_id, learning)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        answer: tuple[str, object] = ("ready", usage.ru_utime + usage.ru_stime)
    except Exception as error:
        answer = ("failed", f"{type(error).__name__}: {error}")
    connection.send(answer)
    connection.close()


# -- the status directory --------------------------------------------------------------------


def write_status(directory: Path, outcome: Outcome) -> None:
    """Write a game's outcome for the server processes (`read_status`), whole or not at all."""
    if isinstance(outcome, Prepared):
        name = f"{outcome.game}.ready"
        text = json.dumps(
            {
                "seconds": outcome.seconds,
                "cpu_seconds": outcome.cpu_seconds,
                "compiled": outcome.compiled,
            }
        )
    else:
        name = f"{outcome.game}.failed"
        text = outcome.reason
    partial = directory / f".{name}.{os.getpid()}.{threading.get_ident()}"
    partial.write_text(text, encoding="utf-8")
    partial.replace(directory / name)


def read_status(directory: Path, game_id: str) -> Outcome | None:
    """A game's outcome as written to ``directory``, or ``None`` while it is being prepared."""
    ready = directory / f"{game_id}.ready"
    failed = directory / f"{game_id}.failed"
    with contextlib.suppress(FileNotFoundError):
        text = ready.read_text(encoding="utf-8")
        try:
            data = json.loads(text)
            return Prepared(
                game_id,
                float(data["seconds"]),
                float(data["cpu_seconds"]),
                compiled=bool(data.get("compiled", True)),
            )
        except (ValueError, TypeError, KeyError):
            return Failed(game_id, f"its status file {ready} cannot be read: {text[:80]!r}")
    with contextlib.suppress(FileNotFoundError):
        return Failed(game_id, failed.read_text(encoding="utf-8").strip())
    return None


def prepare_games(
    games: Iterable[str],
    *,
    learning: bool = False,
    on_event: Callable[[Event], None] | None = None,
    processes: int | None = None,
    niceness: int = NICENESS,
) -> list[Outcome]:
    """Prepare these games in parallel processes and wait (``ludoteca warmup``)."""
    from ludoteca.core.registry import runtime_registrations

    preparation = Preparation(
        list(games),
        learning=learning,
        on_event=on_event,
        processes=processes,
        registrations=runtime_registrations(),
        niceness=niceness,
    )
    try:
        return preparation.run()
    finally:
        preparation.close()

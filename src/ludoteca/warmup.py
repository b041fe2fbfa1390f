"""Compile (or load from numba's cache) everything a game needs, before it is needed.

The rules kernels and the engines' searches are compiled on first use, which takes tens of
seconds of CPU per game with a cold cache (``ludoteca bench --cold`` measures it) and about a
second with a warm one. `warm_up_game` is the one way to do it for a game: the preparation
processes of ``ludoteca serve`` and ``ludoteca warmup`` (`ludoteca.preparation`) run it to fill
numba's on-disk cache, then each server and search worker process runs it to load what the
cache holds, so no player waits on a compiler and a running server never freezes on one.

This module sits above the engines (`ludoteca.ai`) and the learning interface
(`ludoteca.rl`), whose kernels it exercises; the command line and the web server use it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

from numba.core import event as numba_event

from ludoteca.ai.evaluation import expert_for
from ludoteca.ai.specs import agent_from_spec
from ludoteca.core.game import State
from ludoteca.core.registry import game_ids, make

#: Plies of random play per game: enough to reach each kernel (chance, captures, the end).
WARM_UP_PLIES = 400
#: A position of the random game is drawn (as the web and terminal boards do) every this many plies.
VIEW_EVERY = 10
#: The engines exercised per game, with small budgets: what they compile does not depend on it.
WARM_UP_AGENTS = ("random", "mcts:iters=30,seed=0", "alphabeta:nodes=300,seed=0")

Progress = Callable[[str, int, int], None]

_rules_warm: set[str] = set()  # the games whose rules and views are loaded in this process
_engines_warm: set[str] = set()  # ... and whose engines' searches are too
_warming: dict[str, threading.Lock] = {}  # one per game: games load side by side
_warming_lock = threading.Lock()
_cache_only = threading.local()  # .active: refuse to compile in this thread; .refused: it did


class CompileNeededError(Exception):
    """Warming up from the cache only, a function was not in numba's cache."""


@dataclass(frozen=True, slots=True)
class WarmUpTime:
    """How long one game's warm-up took: compiling with a cold cache, loading with a warm one.

    Attributes:
        game: The game id.
        seconds: Wall-clock time.
        cpu_seconds: CPU time of the process that did it, over the same stretch.
    """

    game: str
    seconds: float
    cpu_seconds: float


def warm_up(progress: Progress | None = None, *, learning: bool = False) -> list[WarmUpTime]:
    """Exercise every registered game's rules and engines in this process, one after another.

    ``ludoteca warmup`` and ``ludoteca serve`` prepare the games in parallel processes instead
    (`ludoteca.preparation`); this is for a process that needs every game itself, such as a
    benchmark's child or a test session.

    Args:
        progress: Called with (game id, games done, games in all) before each game, and with
            ("", n, n) at the end.
        learning: Also the learning interface's kernels (observations, masks and the batch
            kernels of `ludoteca.rl.vector.VectorEnv`), which the server never calls.
    """
    ids = game_ids()
    times = []
    for done, game_id in enumerate(ids):
        if progress is not None:
            progress(game_id, done, len(ids))
        wall, cpu = time.perf_counter(), time.process_time()
        warm_up_game(game_id)
        if learning:
            warm_up_learning(game_id)
        times.append(WarmUpTime(game_id, time.perf_counter() - wall, time.process_time() - cpu))
    if progress is not None:
        progress("", len(ids), len(ids))
    return times


def warm_up_game(game_id: str, *, engines: bool = True) -> None:
    """Exercise one game's rules (a random game, its texts) and each engine once.

    Safe to call from several threads: a game is warmed up once per process, and a second
    caller of the same game waits for the first (one of another game does not).

    Args:
        game_id: The game.
        engines: Exercise the engines' searches too. A web server process plays the rules and
            draws the boards, while its search workers run the searches: without them it holds
            tens of MB less of compiled code.

    Raises:
        UnknownGameError: No game has this id.
    """
    done = _engines_warm if engines else _rules_warm
    if game_id in done:
        return
    with _warming_lock:
        lock = _warming.setdefault(game_id, threading.Lock())
    with lock:
        if game_id in done:
            return
        _exercise(game_id, engines=engines)
        _rules_warm.add(game_id)
        if engines:
            _engines_warm.add(game_id)


def warm_up_from_cache(game_id: str, *, learning: bool = False) -> bool:
    """Warm a game up from numba's cache alone; stop at the first function it lacks.

    Loading from the cache takes a fraction of a second of CPU per game, compiling tens of
    seconds: this tells which is needed without paying for a compile (`ludoteca.preparation`
    then compiles in a process of its own). What was loaded stays loaded.

    Returns:
        Whether every function was in the cache (the game is warm in this process).
    """
    try:
        with cache_only():
            warm_up_game(game_id)
            if learning:
                warm_up_learning(game_id)
    except CompileNeededError:
        return False
    return True


@contextmanager
def cache_only() -> Iterator[None]:
    """Within it, this thread loads functions from numba's cache but never compiles one.

    Raises:
        CompileNeededError: A function called is not in the cache (or its entry is stale).
    """
    _listen_for_compiles()
    _cache_only.active, _cache_only.refused = True, False
    try:
        yield
    except Exception as error:
        if _cache_only.refused and not isinstance(error, CompileNeededError):
            raise CompileNeededError(str(error)) from error  # numba may wrap ours
        raise
    finally:
        _cache_only.active = False


class _RefuseCompiles(numba_event.Listener):
    """Stops a compile in a thread that warms up from the cache only (numba's event API)."""

    def on_start(self, event: numba_event.Event) -> None:
        if getattr(_cache_only, "active", False):
            _cache_only.refused = True
            name = getattr(event.data.get("dispatcher"), "__qualname__", "a function")
            raise CompileNeededError(f"{name} is not in numba's cache")

    def on_end(self, event: numba_event.Event) -> None:
        """Nothing to do once a compile is over."""


@cache
def _listen_for_compiles() -> None:
    register: Callable[[str, numba_event.Listener], None] = numba_event.register
    register("numba:compile", _RefuseCompiles())


def is_warm(game_id: str) -> bool:
    """Whether this process has already warmed the game's rules up (in memory, ready to play)."""
    return game_id in _rules_warm


def _exercise(game_id: str, *, engines: bool) -> None:
    game = make(game_id)
    rng = random.Random(0)
    state = game.initial_state()
    decision = None
    for ply in range(WARM_UP_PLIES):
        if ply % VIEW_EVERY == 0:
            _draw(state)
        if state.is_over:
            break
        moves = state.legal_moves()
        if decision is None and state.to_move is not None and state.to_move >= 0 and len(moves) > 1:
            decision = state
        move = rng.choice(moves)
        state = state.apply(state.parse_move(move.text))
        assert game.parse_state(state.to_text()) == state
    _draw(state)
    if decision is None or not engines:
        return
    specs = list(WARM_UP_AGENTS)
    if expert_for(game) is not None:
        specs.append("expert")
    for spec in specs:
        agent_from_spec(spec, game, seed=0).choose(decision)


def _draw(state: State) -> None:
    """What the front ends show of a position: its view's drawing and clicks, its text board."""
    view = state.game.info.view
    if view.drawing is not None:
        view.drawing(state)
    if view.click_paths is not None and not state.is_over:
        view.click_paths(state)
    if view.board_text is not None:
        view.board_text(state)
    str(state)


def warm_up_learning(game_id: str) -> None:
    """Exercise one game's learning kernels: an observation, a mask and a few batched steps."""
    from ludoteca.rl.vector import VectorEnv  # numpy and numba only, no learning extra

    state = make(game_id).initial_state()
    state.observation(0)
    state.legal_action_mask()
    environments = VectorEnv(game_id, 2, seed=0)
    environments.reset()
    for _ in range(3):
        environments.step(environments.random_actions())

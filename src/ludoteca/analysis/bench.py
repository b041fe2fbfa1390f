"""Single-threaded speed of the compiled rules and of the tree search, with what it cost.

Three measurements per game (docs/bench.md describes them and the JSON):

* **Random playouts**: whole uniformly random games from the start, played inside the game's
  kernels. They are counted three ways: *plies* (every move applied, chance outcomes such as die
  rolls included), *decisions* (moves chosen by a player: chance outcomes excluded) and *turns*
  (a player's whole turn, its die rolls included: the unit to compare engines in).
* **MCTS iterations per second** over a fixed set of decision positions (each with at least two
  legal moves, reached by seeded random play), for two settings: ``levels`` (the rollout length
  of the game's MCTS levels and ``mcts:`` specs, then the game's heuristic) and ``uct200``
  (plain UCT: uniform random rollouts cut at 200 plies, no heuristic, UCB1 with C = sqrt(2)).
  Only search iterations over the time spent inside the searches are counted.
* **Cold compile time** (`bench_cold`): a fresh process with an empty numba cache compiles a
  game's kernels and searches, then a second process loads them from that cache.

Every figure comes with the process's CPU time beside the wall time and the load average at the
start and end of its run, so a figure measured on a busy machine says so.
"""

from __future__ import annotations

import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from importlib import metadata
from typing import Any, Literal

from ludoteca.ai.levels import rollout_plies
from ludoteca.ai.mcts import MCTSAgent
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import game_ids, make
from ludoteca.kernel_cache import ROOT_VARIABLE

Setting = Literal["levels", "uct200"]
#: The two MCTS settings, in the order they are reported.
SETTINGS: tuple[Setting, ...] = ("levels", "uct200")
#: Rollout cap of the ``uct200`` setting, in plies.
UCT200_PLIES = 200
#: UCB1's exploration constant in the ``uct200`` setting: sqrt(2).
UCT200_EXPLORATION = 2**0.5
#: Plies of random play before each benchmark position (the first decision with at least two
#: legal moves from there on is taken; a game that ends first is replayed with the next draws).
POSITION_PLIES = (0, 3, 6, 10, 15, 20, 30, 40)
#: Seconds of each search: 1 s, the length of the searches of the comparison with Ludii's UCT.
#: (A tree's iterations get dearer as it grows, so rates are compared at the same length.)
SEARCH_SECONDS = 1.0


class BenchError(LudotecaError):
    """A benchmark cannot run as asked (the message says why)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One configuration to measure: a game with options, and what the row shows."""

    game: str
    options: dict[str, Any]
    label: str
    measures: str


#: Rows that need a word of their own, beside each game's defaults.
EXTRA_ROWS = (
    Row(
        "pente_grammai",
        {"sacred": "storage"},
        "storage",
        "the storage reading (sacred=storage), the one closest to Ludii's: a counter leaves the "
        "circuit on reaching its goal and every point holds one counter, so games are short",
    ),
    Row(
        "salta",
        {"scoring": "simplified"},
        "play phase",
        "the play phase alone: simplified scoring ends each game at the 120-move rule, without "
        "the long scoring phase that makes up most plies of the default row",
    ),
)


def default_rows(ids: Sequence[str] | None = None) -> list[Row]:
    """Each game's default options, then the extra rows of those games."""
    chosen = list(game_ids()) if ids is None else list(ids)
    rows = [
        Row(game_id, {}, "defaults", "uniformly random games from the start, default options")
        for game_id in chosen
    ]
    rows += [row for row in EXTRA_ROWS if row.game in chosen]
    return rows


@dataclass(frozen=True, slots=True)
class Usage:
    """What a measured stretch cost: wall and CPU time, and the load average around it.

    Attributes:
        wall_seconds: Wall-clock time.
        cpu_seconds: CPU time of this process (user + system) over the same stretch.
        load_start: The 1-, 5- and 15-minute load averages when it started.
        load_end: The same when it ended.
    """

    wall_seconds: float
    cpu_seconds: float
    load_start: tuple[float, float, float]
    load_end: tuple[float, float, float]

    @property
    def cpu_share(self) -> float:
        """CPU time over wall time: near 1 when the process had a core to itself."""
        return self.cpu_seconds / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        return {
            "wall_seconds": self.wall_seconds,
            "cpu_seconds": self.cpu_seconds,
            "cpu_share": self.cpu_share,
            "load_start": list(self.load_start),
            "load_end": list(self.load_end),
        }


def load_average() -> tuple[float, float, float]:
    """The system's 1-, 5- and 15-minute load averages (zeros where the system has none)."""
    try:
        return os.getloadavg()
    except OSError:
        return (0.0, 0.0, 0.0)


class Meter:
    """Adds up wall and CPU time over the stretches measured with `measure`."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0
        self.load_start: tuple[float, float, float] | None = None
        self.load_end = (0.0, 0.0, 0.0)

    @contextmanager
    def measure(self) -> Iterator[None]:
        """Count the time spent in the ``with`` block."""
        if self.load_start is None:
            self.load_start = load_average()
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.cpu += time.process_time() - cpu
            self.wall += time.perf_counter() - wall
            self.load_end = load_average()

    def usage(self) -> Usage:
        """The totals so far."""
        start = self.load_start if self.load_start is not None else load_average()
        return Usage(self.wall, self.cpu, start, self.load_end)


@dataclass(frozen=True, slots=True)
class MCTSResult:
    """MCTS iterations per second over a game's benchmark positions, for one setting.

    Attributes:
        setting: ``"levels"`` or ``"uct200"``.
        description: What the setting searches with, in words.
        rollout_plies: Plies of random rollout per iteration (``None``: to the end of the game).
        heuristic: Whether a rollout cut short is scored by the game's heuristic (else 0).
        exploration: UCB1's constant C.
        positions: The positions searched (position text), one search each.
        mean_legal_moves: Mean number of legal moves at those positions.
        iterations: Search iterations run in all.
        iterations_per_second: ``iterations`` over the time spent inside the searches.
        usage: Wall and CPU time inside the searches, and the load average around them.
    """

    setting: Setting
    description: str
    rollout_plies: int | None
    heuristic: bool
    exploration: float
    positions: tuple[str, ...]
    mean_legal_moves: float
    iterations: int
    iterations_per_second: float
    usage: Usage

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "usage"}
        data["positions"] = list(self.positions)
        data.update(self.usage.to_dict())
        cpu = self.usage.cpu_seconds
        data["iterations_per_cpu_second"] = self.iterations / cpu if cpu > 0 else 0.0
        return data


@dataclass(frozen=True, slots=True)
class BenchResult:
    """One row's figures.

    Attributes:
        game: The game id.
        options: The options it ran with, as ``name=value`` text.
        row: ``"defaults"``, the name of an extra row (e.g. ``"play phase"``), or ``"options"``
            for options given on the command line.
        measures: What the row measures, in words.
        seconds: Wall-clock time of the playouts (after a warm-up).
        cpu_seconds: CPU time of the playouts.
        playouts: Random games played to the end.
        plies: Moves applied, chance outcomes included.
        decisions: Moves chosen by a player (chance outcomes excluded).
        turns: Players' turns (`ludoteca.core.game.PlayoutStats.turns`: a decision in Salta,
            Splinter and Salt 'n' Pepper; a roll and the move or pass after it in Pente Grammai;
            a roll and everything played until the turn ends in Steppin' Stones).
        playouts_per_second, plies_per_second, decisions_per_second, turns_per_second: The
            counts over ``seconds``.
        mean_plies: Mean game length in plies.
        mean_turns: Mean game length in turns.
        mean_legal_moves: Mean number of legal moves over the decision states visited.
        longest_plies: Plies in the longest game.
        wins: Games won, per player.
        draws: Games without a winner.
        safeguard_ends: Games ended by an engine safeguard (``max_plies``, ``max_turns``, Salt 'n'
            Pepper's double-pass stop) rather than by a rule.
        load_start, load_end: Load averages (1, 5, 15 minutes) around the playouts.
        mcts_iterations_per_second: MCTS iterations per second in the ``levels`` setting (0 when
            MCTS was not measured).
        mcts: Per setting, the MCTS figures.
    """

    game: str
    options: str
    row: str
    measures: str
    seconds: float
    cpu_seconds: float
    playouts: int
    plies: int
    decisions: int
    turns: int
    playouts_per_second: float
    plies_per_second: float
    decisions_per_second: float
    turns_per_second: float
    mean_plies: float
    mean_turns: float
    mean_legal_moves: float
    longest_plies: int
    wins: tuple[int, ...]
    draws: int
    safeguard_ends: int
    load_start: tuple[float, float, float]
    load_end: tuple[float, float, float]
    mcts_iterations_per_second: float = 0.0
    mcts: dict[str, MCTSResult] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["wins"] = list(self.wins)
        data["load_start"] = list(self.load_start)
        data["load_end"] = list(self.load_end)
        data["cpu_share"] = self.cpu_seconds / self.seconds if self.seconds > 0 else 0.0
        cpu = self.cpu_seconds
        data["per_cpu_second"] = {
            "plies": self.plies / cpu if cpu > 0 else 0.0,
            "decisions": self.decisions / cpu if cpu > 0 else 0.0,
            "turns": self.turns / cpu if cpu > 0 else 0.0,
        }
        data["mcts"] = {name: result.to_dict() for name, result in self.mcts.items()}
        return data


def bench_game(
    game: Game,
    *,
    seconds: float = 3.0,
    seed: int = 0,
    search_seconds: float = SEARCH_SECONDS,
    row: str = "defaults",
    measures: str = "uniformly random games from the start",
) -> BenchResult:
    """Run random playouts of ``game`` for about ``seconds``, then MCTS, and return the rates.

    A short warm-up first loads (or compiles) the kernels, so it is not measured. Each MCTS
    setting searches each benchmark position for ``search_seconds`` (0 skips MCTS).
    """
    game.random_playouts(1, seed)
    batch, playouts, plies, decisions, legal, longest, draws = 1, 0, 0, 0, 0, 0, 0
    turns = safeguard = 0
    wins = [0] * game.num_players
    meter = Meter()
    while meter.wall < seconds:
        before = meter.wall
        with meter.measure():
            stats = game.random_playouts(batch, seed + playouts + 1)
        playouts += stats.games
        plies += stats.plies
        decisions += stats.decisions
        turns += stats.turns
        safeguard += stats.safeguard_ends
        legal += stats.legal_moves
        longest = max(longest, stats.longest)
        draws += stats.draws
        wins = [total + won for total, won in zip(wins, stats.wins, strict=True)]
        if meter.wall - before < 0.05:  # grow batches so the timer's overhead stays negligible
            batch *= 2
    usage = meter.usage()
    elapsed = usage.wall_seconds
    mcts: dict[str, MCTSResult] = {}
    if search_seconds > 0:
        for setting in SETTINGS:
            mcts[setting] = bench_mcts(game, setting, seconds=search_seconds, seed=seed)
    return BenchResult(
        game=game.id,
        options=game.describe_options(),
        row=row,
        measures=measures,
        seconds=elapsed,
        cpu_seconds=usage.cpu_seconds,
        playouts=playouts,
        plies=plies,
        decisions=decisions,
        turns=turns,
        playouts_per_second=playouts / elapsed,
        plies_per_second=plies / elapsed,
        decisions_per_second=decisions / elapsed,
        turns_per_second=turns / elapsed,
        mean_plies=plies / playouts,
        mean_turns=turns / playouts,
        mean_legal_moves=legal / decisions if decisions else 0.0,
        longest_plies=longest,
        wins=tuple(wins),
        draws=draws,
        safeguard_ends=safeguard,
        load_start=usage.load_start,
        load_end=usage.load_end,
        mcts_iterations_per_second=mcts["levels"].iterations_per_second if mcts else 0.0,
        mcts=mcts,
    )


def decision_positions(game: Game, seed: int = 0) -> tuple[State, ...]:
    """The fixed positions MCTS is measured on: one per entry of `POSITION_PLIES`.

    Each is the first decision with at least two legal moves and no move that wins at once (a
    search plays such a move without searching) at or after that many plies of seeded random
    play from the start (chance outcomes drawn with their probabilities). The
    same game and seed always give the same positions.

    Raises:
        BenchError: Random games keep ending before a position is found.
    """
    rng = random.Random(seed)
    positions: list[State] = []
    for target in POSITION_PLIES:
        for _ in range(100):
            found = _position_after(game.initial_state(), target, rng)
            if found is not None:
                positions.append(found)
                break
        else:
            raise BenchError(
                f"{game.id}: random games ended before {target} plies 100 times; "
                "no benchmark position found"
            )
    return tuple(positions)


def _position_after(state: State, target: int, rng: random.Random) -> State | None:
    ply = 0
    while not state.is_over:
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            moves = state.legal_moves()
            if ply >= target and len(moves) >= 2 and not _wins_at_once(state):
                return state
            move = rng.choice(moves)
        state = state.apply(move)
        ply += 1
    return None


def _wins_at_once(state: State) -> bool:
    mover = state.to_move
    for move in state.legal_moves():
        outcome = state.apply(move).outcome
        if outcome is not None and outcome.winner == mover:
            return True
    return False


def mcts_agent(game: Game, setting: Setting, *, seconds: float, seed: int) -> MCTSAgent:
    """A search of ``setting`` with a time budget, spending all of it (no early stop)."""
    if setting == "levels":
        return MCTSAgent(
            game,
            iterations=None,
            seconds=seconds,
            rollout_plies=rollout_plies(game),
            seed=seed,
            stop_early=False,
        )
    return MCTSAgent(
        game,
        iterations=None,
        seconds=seconds,
        exploration=UCT200_EXPLORATION,
        rollout_plies=UCT200_PLIES,
        heuristic=False,
        seed=seed,
        stop_early=False,
    )


def describe_setting(game: Game, setting: Setting) -> str:
    """The setting in words, for tables and JSON."""
    if setting == "uct200":
        return (
            f"plain UCT: uniform random rollouts cut at {UCT200_PLIES} plies (0 for an "
            "unfinished game), no heuristic, UCB1 with C = sqrt(2)"
        )
    plies = rollout_plies(game)
    rollout = "to the end of the game" if plies is None else f"of {plies} plies"
    return f"the MCTS levels' setting: random rollouts {rollout}, then the game's heuristic, C = 1"


def bench_mcts(
    game: Game, setting: Setting = "levels", *, seconds: float = SEARCH_SECONDS, seed: int = 0
) -> MCTSResult:
    """MCTS iterations per second (single-threaded) over `decision_positions`.

    Each position gets one search of ``seconds`` that spends its whole budget (no early
    stop). Only the searches are timed: building the positions
    and the agents, and a short warm-up search, are not.
    """
    if setting not in SETTINGS:
        raise BenchError(f"unknown MCTS setting {setting!r}; use one of {', '.join(SETTINGS)}")
    positions = decision_positions(game, seed)
    warm = mcts_agent(game, setting, seconds=0.001, seed=seed)
    warm.search(positions[0])
    iterations = 0
    meter = Meter()
    for index, state in enumerate(positions):
        agent = mcts_agent(game, setting, seconds=seconds, seed=seed + index)
        with meter.measure():
            result = agent.search(state)
        iterations += result.iterations
    usage = meter.usage()
    heuristic = setting == "levels"
    return MCTSResult(
        setting=setting,
        description=describe_setting(game, setting),
        rollout_plies=rollout_plies(game) if heuristic else UCT200_PLIES,
        heuristic=heuristic,
        exploration=1.0 if heuristic else UCT200_EXPLORATION,
        positions=tuple(state.to_text() for state in positions),
        mean_legal_moves=sum(len(s.legal_moves()) for s in positions) / len(positions),
        iterations=iterations,
        iterations_per_second=iterations / usage.wall_seconds,
        usage=usage,
    )


# -- cold compile --------------------------------------------------------------------------------

# Run in a fresh interpreter: time the import, then one game's warm-up (or every game's).
_COLD_SCRIPT = """
import json, sys, time
wall, cpu = time.perf_counter(), time.process_time()
from ludoteca import warmup
imported = (time.perf_counter() - wall, time.process_time() - cpu)
wall, cpu = time.perf_counter(), time.process_time()
if sys.argv[1]:
    warmup.warm_up_game(sys.argv[1])
else:
    warmup.warm_up()
print(json.dumps({"import": imported, "warm_up": (time.perf_counter() - wall,
                  time.process_time() - cpu)}))
"""


@dataclass(frozen=True, slots=True)
class ColdResult:
    """How long a fresh process takes to get a game ready, with an empty cache and a full one.

    Attributes:
        game: The game id, or ``"all"`` for every game in one process.
        compile_seconds, compile_cpu_seconds: The warm-up with an empty numba cache: compiling
            the rules kernels and the searches (wall and CPU time).
        load_seconds, load_cpu_seconds: The same warm-up in a second process, loading what the
            first one cached.
        import_seconds: Importing Ludoteca in the first process (not part of the figures above).
        load_start, load_end: Load averages around the two runs.
    """

    game: str
    compile_seconds: float
    compile_cpu_seconds: float
    load_seconds: float
    load_cpu_seconds: float
    import_seconds: float
    load_start: tuple[float, float, float]
    load_end: tuple[float, float, float]

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        data = asdict(self)
        data["load_start"] = list(self.load_start)
        data["load_end"] = list(self.load_end)
        return data


def bench_cold(game_id: str | None) -> ColdResult:
    """Warm up ``game_id`` (``None``: every game) in fresh processes with a new numba cache.

    Raises:
        BenchError: The child process failed (its error output is in the message).
    """
    if game_id is not None:
        make(game_id)  # an unknown id fails here, with the accepted ids
    load_start = load_average()
    with tempfile.TemporaryDirectory(prefix="ludoteca-numba-") as cache:
        cold = _warm_up_in_child(game_id, cache)
        warm = _warm_up_in_child(game_id, cache)
    return ColdResult(
        game=game_id or "all",
        compile_seconds=cold["warm_up"][0],
        compile_cpu_seconds=cold["warm_up"][1],
        load_seconds=warm["warm_up"][0],
        load_cpu_seconds=warm["warm_up"][1],
        import_seconds=cold["import"][0],
        load_start=load_start,
        load_end=load_average(),
    )


def _warm_up_in_child(game_id: str | None, cache: str) -> dict[str, list[float]]:
    env = dict(os.environ, **{ROOT_VARIABLE: cache})  # the keyed directories go in there
    command = [sys.executable, "-c", _COLD_SCRIPT, game_id or ""]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BenchError(f"the cold-start process failed:\n{done.stderr.strip()}")
    figures: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


# -- the machine ---------------------------------------------------------------------------------


def machine_info() -> dict[str, str]:
    """The machine and software versions the figures were measured with."""
    return {
        "cpu": _cpu_model(),
        "cores": str(os.cpu_count()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": metadata.version("numpy"),
        "numba": metadata.version("numba"),
        "ludoteca": metadata.version("ludoteca"),
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# -- batched environments (ludoteca.rl) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EnvRate:
    """How fast one environment took steps: decisions played, with what it cost.

    Attributes:
        steps: Env steps: one player's decision each (chance outcomes, played inside the
            environment, are not steps).
        steps_per_second: ``steps`` over the wall time measured.
        usage: Wall and CPU time of the measured calls, and the load average around them.
    """

    steps: int
    steps_per_second: float
    usage: Usage

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        cpu = self.usage.cpu_seconds
        return {
            "steps": self.steps,
            "steps_per_second": self.steps_per_second,
            "steps_per_cpu_second": self.steps / cpu if cpu > 0 else 0.0,
            **self.usage.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class VectorBenchResult:
    """`ludoteca.rl.VectorEnv` against the PettingZoo environment, for one game and options.

    Attributes:
        game: The game id.
        options: The options, as ``name=value`` text.
        num_envs: Games in the batch.
        vector: `VectorEnv.step` with random legal actions (observations and masks included).
        games_finished: Games the batch finished (and restarted) while measured.
        pettingzoo: The PettingZoo AEC environment, one game at a time (``None``: not measured).
        pettingzoo_note: Why it was not measured, when it was not.
    """

    game: str
    options: str
    num_envs: int
    vector: EnvRate
    games_finished: int
    pettingzoo: EnvRate | None
    pettingzoo_note: str = ""

    @property
    def speedup(self) -> float | None:
        """VectorEnv's steps per second over PettingZoo's (``None`` if not measured)."""
        if self.pettingzoo is None or self.pettingzoo.steps_per_second <= 0:
            return None
        return self.vector.steps_per_second / self.pettingzoo.steps_per_second

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        return {
            "game": self.game,
            "options": self.options,
            "num_envs": self.num_envs,
            "vector": self.vector.to_dict(),
            "games_finished": self.games_finished,
            "pettingzoo": None if self.pettingzoo is None else self.pettingzoo.to_dict(),
            "pettingzoo_note": self.pettingzoo_note,
            "speedup": self.speedup,
        }


def bench_vector(
    game: Game, num_envs: int, *, seconds: float = 3.0, seed: int = 0, pettingzoo: bool = True
) -> VectorBenchResult:
    """Env steps per second of `VectorEnv` at ``num_envs`` games, and of the PettingZoo env.

    Each runs for about ``seconds`` of measured time after a warm-up. Only the environments'
    own calls are timed: `VectorEnv.step` (observations, masks, chance, auto-reset included),
    and the PettingZoo env's ``reset``, ``last`` (which builds the observation and mask) and
    ``step``. Drawing the random legal actions is the agent's work and is not timed.

    Raises:
        BenchError: The game has no compiled batch kernels.
    """
    from ludoteca.rl.vector import VectorEnv  # imported here: only this measurement needs it

    try:
        env = VectorEnv(game, num_envs, seed=seed)
    except (NotImplementedError, ValueError) as error:
        raise BenchError(f"{game.id}: no VectorEnv: {error}") from None
    env.reset()
    env.step(env.random_actions())  # the warm-up loads the kernels
    steps = finished = 0
    meter = Meter()
    while meter.wall < seconds:
        actions = env.random_actions()
        with meter.measure():
            result = env.step(actions)
        steps += num_envs
        finished += int(result.terminated.sum())
    usage = meter.usage()
    vector = EnvRate(steps, steps / usage.wall_seconds, usage)
    rate: EnvRate | None = None
    note = "not asked for"
    if pettingzoo:
        rate, note = _bench_pettingzoo(game, seconds=seconds, seed=seed)
    return VectorBenchResult(
        game=game.id,
        options=game.describe_options(),
        num_envs=num_envs,
        vector=vector,
        games_finished=finished,
        pettingzoo=rate,
        pettingzoo_note=note,
    )


def _bench_pettingzoo(game: Game, *, seconds: float, seed: int) -> tuple[EnvRate | None, str]:
    """The PettingZoo env's decisions per second, or ``None`` and why it was not measured."""
    try:
        from ludoteca.rl import pettingzoo_env  # needs the rl extra

        options: dict[str, Any] = game.options
        env = pettingzoo_env(game.id, **options)
    except ImportError as error:
        return None, str(error)
    rng = random.Random(seed)
    meter = Meter()
    steps = 0
    with meter.measure():
        env.reset(seed=seed)
    while meter.wall < seconds:
        with meter.measure():
            observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with meter.measure():
                env.step(None)
                if not env.agents:
                    env.reset()
            continue
        action = rng.choice(_legal(observation["action_mask"]))
        with meter.measure():
            env.step(action)
        steps += 1
    usage = meter.usage()
    return EnvRate(steps, steps / usage.wall_seconds, usage), ""


def _legal(mask: Any) -> list[int]:
    return [int(i) for i in mask.nonzero()[0]]

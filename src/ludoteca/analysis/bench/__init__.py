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

The package is split by job, in modules of ``ludoteca.analysis.bench``: ``playouts`` (random
playouts), ``mcts`` (the searches and their positions), ``cold`` (cold compile), ``vector``
(batched environments), ``gpu`` (batched environments on a GPU, beside them on the CPU),
``measure`` (the meter and the machine) and ``rows`` (what is measured).
Every name is importable from the package itself.
"""

from ludoteca.analysis.bench.cold import ColdResult, bench_cold
from ludoteca.analysis.bench.gpu import GpuBenchResult, bench_gpu, gpu_missing
from ludoteca.analysis.bench.mcts import (
    POSITION_PLIES,
    SEARCH_SECONDS,
    SETTINGS,
    UCT200_EXPLORATION,
    UCT200_PLIES,
    MCTSResult,
    Setting,
    bench_mcts,
    decision_positions,
    describe_setting,
    mcts_agent,
)
from ludoteca.analysis.bench.measure import (
    BenchError,
    Meter,
    Usage,
    load_average,
    machine_info,
)
from ludoteca.analysis.bench.playouts import BenchResult, bench_game
from ludoteca.analysis.bench.rows import Row, default_rows
from ludoteca.analysis.bench.vector import EnvRate, VectorBenchResult, bench_vector

__all__ = [
    "POSITION_PLIES",
    "SEARCH_SECONDS",
    "SETTINGS",
    "UCT200_EXPLORATION",
    "UCT200_PLIES",
    "BenchError",
    "BenchResult",
    "ColdResult",
    "EnvRate",
    "GpuBenchResult",
    "MCTSResult",
    "Meter",
    "Row",
    "Setting",
    "Usage",
    "VectorBenchResult",
    "bench_cold",
    "bench_game",
    "bench_gpu",
    "bench_mcts",
    "bench_vector",
    "decision_positions",
    "default_rows",
    "describe_setting",
    "gpu_missing",
    "load_average",
    "machine_info",
    "mcts_agent",
]

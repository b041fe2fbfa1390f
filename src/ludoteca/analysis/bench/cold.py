"""Cold compile time: how long a fresh process takes to get a game ready.

A fresh process with an empty numba cache compiles a game's kernels and searches, then a second
process loads them from that cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from typing import Any

from ludoteca.analysis.bench.measure import BenchError, load_average
from ludoteca.core.registry import make
from ludoteca.kernel_cache import ROOT_VARIABLE

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

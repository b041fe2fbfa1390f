"""The figures of a load test, under the names ``ludoteca loadtest --json`` prints."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ludoteca.loadtest.tracks import EXAMPLES_KEPT

if TYPE_CHECKING:
    from ludoteca.loadtest.driver import LoadTest


def load_average() -> list[float] | None:
    """The 1-, 5- and 15-minute load averages (``None`` where the system has none)."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:  # not available on this system
        return None


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """The nearest-rank percentile of sorted ``values`` (``None`` when there are none)."""
    if not values:
        return None
    rank = max(1, math.ceil(fraction * len(values)))
    return values[rank - 1]


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


def report_fields(test: LoadTest) -> dict[str, Any]:
    """The run's figures under the names ``--json`` prints."""
    settings, measures, raw = test.settings, test.measures, test.report
    ended = raw.get("ended", time.perf_counter())
    duration = max(ended - raw["started"], 1e-9)
    cpu = raw.get("cpu_ended", time.process_time()) - raw["cpu_started"]
    latencies = sorted(measures.latencies)
    lags = sorted(measures.lags)
    failures: list[str] = raw.get("replay_failures", [])
    unchecked = len(test.tracks) - raw.get("replay_checked", 0)
    return {
        "urls": [target.url for target in settings.targets],
        "seconds": round(duration, 2),
        "seconds_requested": settings.seconds,
        "interrupted": test.interrupted,
        "games": settings.games,
        "watchers": settings.watchers,
        "seed": settings.seed,
        "rate": settings.rate or None,
        "moves": measures.moves,
        "moves_per_s": round(measures.moves / duration, 1),
        "latency_ms": {
            name: _ms(percentile(latencies, fraction))
            for name, fraction in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
        },
        "errors": sum(measures.errors.values()),
        "errors_by_kind": dict(measures.errors.most_common()),
        "error_examples": measures.error_examples,
        "conflicts": measures.conflicts,
        "rate_limited": measures.rate_limited,
        "rate_limited_creation": measures.rate_limited_creation,
        "failovers": measures.failovers,
        "stale_reads": measures.stale_reads,
        "requests_cancelled_at_stop": measures.cancelled_at_stop,
        "games_created": measures.games_created,
        "games_finished": measures.games_finished,
        "watchers_connected": raw.get("watchers_connected", test.watchers.connected()),
        "watchers_saw_last_move": raw.get("watchers_saw_last_move", test.watchers.current()),
        "watcher_lag_ms": {
            name: _ms(percentile(lags, fraction))
            for name, fraction in (("p50", 0.5), ("p95", 0.95), ("max", 1.0))
        },
        "games_replayed": raw.get("games_replayed", 0),
        "replay_failures": len(failures) + unchecked,
        "replay_failure_examples": [
            *failures[:EXAMPLES_KEPT],
            *([f"{unchecked} games not checked (interrupted)"] if unchecked else []),
        ],
        "client_cpu_s": round(cpu, 2),
        "client_cpu_ms_per_move": round(cpu * 1000 / measures.moves, 3) if measures.moves else None,
        "load_average": raw.get("load_average", load_average()),
    }

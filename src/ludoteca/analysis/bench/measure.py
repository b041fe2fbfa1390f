"""What a measured stretch cost (wall and CPU time, the load average), and the machine.

Every figure of `ludoteca.analysis.bench` is measured with a `Meter` and comes with the
`Usage` it adds up, so a figure measured on a busy machine says so.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from ludoteca.core.errors import LudotecaError


class BenchError(LudotecaError):
    """A benchmark cannot run as asked (the message says why)."""


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

"""What a load test keeps while it runs: its games, slots, watchers and measures."""

from __future__ import annotations

import asyncio
import time
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from ludoteca.loadtest.settings import Target

DOWN_FOR_S = 2.0
"""A URL that refused a connection is avoided this long before it is tried again."""
BACKOFF_S = 0.5
"""The pause after a failed request, so that a broken server is not hammered in a tight loop."""
EXAMPLES_KEPT = 5


@dataclass(eq=False)
class Track:
    """One game the run created: where its moves go, its seats and what the server last said.

    ``acked`` holds the ``moves`` of the server's last answer (dicts while the game runs, texts
    once it is over, so that finished games keep little memory); ``ack_times`` the time each ply
    was acknowledged (nan for plies learnt otherwise), for the watchers' lag.
    """

    id: str
    target: int
    tokens: list[str | None]
    state: dict[str, Any]
    acked: Sequence[Any] = ()
    ack_times: array[float] = field(default_factory=lambda: array("d"))
    early: dict[int, int] = field(default_factory=dict)
    over: bool = False

    @property
    def ply(self) -> int:
        """The number of moves the server last reported."""
        ply: int = self.state["ply"]
        return ply

    def acked_texts(self) -> list[str]:
        """The move texts of the server's last answer."""
        return [m if isinstance(m, str) else m["text"] for m in self.acked]


@dataclass(eq=False)
class Slot:
    """One of the ``--games`` concurrent players, and the game it plays now."""

    index: int
    target: int
    client: httpx.AsyncClient
    track: Track | None = None
    new_game: asyncio.Event = field(default_factory=asyncio.Event)
    next_move_at: float = 0.0  # with --rate: when this slot's next move is due

    def start(self, track: Track) -> None:
        """Play ``track`` now and wake the watchers that wait for it."""
        self.track = track
        woken, self.new_game = self.new_game, asyncio.Event()
        woken.set()


@dataclass(eq=False)
class Watcher:
    """One WebSocket watcher: the game it follows and the last ply it received there."""

    index: int
    track: Track | None = None
    last_ply: int = -1
    connected: bool = False


@dataclass
class Measures:
    """What the run counted."""

    moves: int = 0
    latencies: array[float] = field(default_factory=lambda: array("d"))
    lags: array[float] = field(default_factory=lambda: array("d"))
    errors: Counter[str] = field(default_factory=Counter)
    error_examples: list[str] = field(default_factory=list)
    conflicts: int = 0
    rate_limited: int = 0
    rate_limited_creation: int = 0
    failovers: int = 0
    stale_reads: int = 0
    games_created: int = 0
    games_finished: int = 0
    cancelled_at_stop: int = 0
    in_flight: int = 0

    def error(self, kind: str, detail: str = "") -> None:
        """Count an error of ``kind``; keep the first few details for the report."""
        self.errors[kind] += 1
        if len(self.error_examples) < EXAMPLES_KEPT:
            self.error_examples.append(f"{kind}: {detail}"[:300] if detail else kind)


def usable(targets: Sequence[Target], preferred: int) -> int:
    """``preferred`` unless it refused a connection lately and another URL did not."""
    now = time.monotonic()
    count = len(targets)
    for step in range(count):
        index = (preferred + step) % count
        if targets[index].down_until <= now:
            return index
    return preferred


def short(text: str) -> str:
    """``text``, cut to 200 characters for a report."""
    return text if len(text) <= 200 else text[:200] + "…"

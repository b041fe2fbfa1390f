"""Game clocks: real-time (minutes plus an increment per move) and correspondence (time per move).

The server is the only authority on time. A clock's state is stored with the game (in the same
conditional write as the move that changed it), as each seat's remaining seconds, the seat whose
clock runs and the wall-clock time (``time.time()``, shared by every server process) at which
the server acknowledged the change that started it. A move is charged the time from that
acknowledgement to the moment the server decides the move, so a slow network costs the player,
never the server. Nothing else is kept in memory: a restarted server, or another process, reads
the same state and finds the same remaining times.

- Clocks start with the first move: before it, no clock runs.
- Dice rolls are made by the server at once and take no time; a forced move (the only legal
  move) is not charged: the clock of a player with one move does not run.
- Computer seats have no clock.
- A clock at zero ends the game: the seat to move loses on time (reason "time out").
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from typing import Any

from ludoteca.web.errors import BadRequestError

REALTIME = "realtime"
CORRESPONDENCE = "correspondence"
#: Bounds of a real-time clock's first time and increment, in seconds.
REALTIME_INITIAL = (1, 3 * 3600)
REALTIME_INCREMENT = (0, 600)
#: Bounds of a correspondence clock's time per move, in seconds (one minute to thirty days).
CORRESPONDENCE_PER_MOVE = (60, 30 * 86400)
CLOCK_FORMS = (
    '{"initial": SECONDS, "increment": SECONDS} (real time, e.g. 600 and 5) or '
    '{"per_move": SECONDS} (correspondence, e.g. 86400 for a day a move)'
)


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """How a game is timed.

    Attributes:
        kind: `REALTIME` or `CORRESPONDENCE`.
        initial: Seconds each player starts with (correspondence: the time for each move).
        increment: Seconds added after each move (real time only).
    """

    kind: str
    initial: float
    increment: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, as the API takes and answers it."""
        if self.kind == CORRESPONDENCE:
            return {"kind": CORRESPONDENCE, "per_move": self.initial}
        return {"kind": REALTIME, "initial": self.initial, "increment": self.increment}

    def describe(self) -> str:
        """In words: ``"10 min + 5 s"`` or ``"1 day per move"``."""
        if self.kind == CORRESPONDENCE:
            return f"{_duration(self.initial)} per move"
        if not self.increment:
            return _duration(self.initial)
        return f"{_duration(self.initial)} + {_duration(self.increment)}"


def _duration(seconds: float) -> str:
    whole = round(seconds)
    for unit, size in (("day", 86400), ("h", 3600), ("min", 60)):
        if whole >= size and whole % size == 0:
            count = whole // size
            return f"{count} {unit}{'s' if unit == 'day' and count > 1 else ''}"
    return f"{whole} s"


def parse_spec(value: object) -> ClockSpec | None:
    """A clock from the API's JSON (``None``: no clock).

    Raises:
        BadRequestError: Not one of `CLOCK_FORMS`, or a time out of bounds.
    """
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRequestError(f"clock must be null or {CLOCK_FORMS}")
    keys = set(value) - {"kind"}
    if keys == {"per_move"}:
        per_move = _seconds(value, "per_move", CORRESPONDENCE_PER_MOVE)
        return ClockSpec(CORRESPONDENCE, per_move)
    if keys in ({"initial"}, {"initial", "increment"}):
        initial = _seconds(value, "initial", REALTIME_INITIAL)
        increment = _seconds(value, "increment", REALTIME_INCREMENT) if "increment" in value else 0
        return ClockSpec(REALTIME, initial, increment)
    raise BadRequestError(f"clock must be null or {CLOCK_FORMS}; got the fields {sorted(value)}")


def _seconds(value: dict[Any, Any], name: str, bounds: tuple[int, int]) -> float:
    number = value.get(name)
    if isinstance(number, bool) or not isinstance(number, int | float) or not math.isfinite(number):
        raise BadRequestError(f"clock {name} is a number of seconds; got {str(number)[:20]!r}")
    low, high = bounds
    if not low <= number <= high:
        raise BadRequestError(f"clock {name} must be from {low} to {high} seconds; got {number}")
    return float(number)


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clocks of a game at its last change.

    Attributes:
        remaining: Seconds left per seat, as of ``since`` (``None`` for computer seats).
        running: The seat whose clock runs, or ``None``.
        since: When the server acknowledged the change that started ``running`` (epoch seconds).
    """

    remaining: tuple[float | None, ...]
    running: int | None = None
    since: float | None = None

    def left(self, seat: int, now: float) -> float | None:
        """The seconds ``seat`` has at ``now`` (``None``: the seat has no clock)."""
        remaining = self.remaining[seat] if 0 <= seat < len(self.remaining) else None
        if remaining is None:
            return None
        if self.running == seat and self.since is not None:
            return remaining - max(0.0, now - self.since)
        return remaining

    def flag_at(self) -> float | None:
        """When the running clock reaches zero (epoch seconds), or ``None`` if none runs."""
        if self.running is None or self.since is None:
            return None
        remaining = self.remaining[self.running]
        return None if remaining is None else self.since + remaining

    def flagged(self, now: float) -> int | None:
        """The seat whose time has run out at ``now``, or ``None``."""
        if self.running is None:
            return None
        left = self.left(self.running, now)
        return self.running if left is not None and left <= 0 else None

    def charged(self, spec: ClockSpec, mover: int, now: float) -> ClockState:
        """After ``mover``'s move decided at ``now``: their time charged, the increment added."""
        remaining = list(self.remaining)
        left = self.left(mover, now)
        if left is not None:
            remaining[mover] = (
                spec.initial if spec.kind == CORRESPONDENCE else left + spec.increment
            )
        return ClockState(tuple(remaining), None, None)

    def run(self, seat: int | None, now: float) -> ClockState:
        """The clocks with ``seat``'s running from ``now`` (``None``: none runs)."""
        if seat is not None and (seat < 0 or self.remaining[seat] is None):
            seat = None
        return replace(self, running=seat, since=None if seat is None else now)

    def stopped(self, now: float) -> ClockState:
        """Every clock stopped at ``now`` (the game is over)."""
        remaining = list(self.remaining)
        if self.running is not None:
            remaining[self.running] = max(0.0, self.left(self.running, now) or 0.0)
        return ClockState(tuple(remaining), None, None)

    def to_json(self) -> str:
        """The stored form."""
        return json.dumps(
            {"remaining": list(self.remaining), "running": self.running, "since": self.since}
        )

    @classmethod
    def from_json(cls, text: str) -> ClockState:
        """Read the stored form."""
        data = json.loads(text)
        return cls(tuple(data["remaining"]), data.get("running"), data.get("since"))


def spec_to_json(spec: ClockSpec | None) -> str | None:
    """The stored form of a clock (``None``: no clock)."""
    return None if spec is None else json.dumps(spec.to_dict())


def spec_from_json(text: str | None) -> ClockSpec | None:
    """Read the stored form of a clock."""
    if text is None:
        return None
    data = json.loads(text)
    if data.get("kind") == CORRESPONDENCE:
        return ClockSpec(CORRESPONDENCE, float(data["per_move"]))
    return ClockSpec(REALTIME, float(data["initial"]), float(data.get("increment", 0)))


def start_state(spec: ClockSpec | None, clocked: list[bool]) -> ClockState | None:
    """The clocks of a new game: full time for each seat played by a person, none running."""
    if spec is None:
        return None
    return ClockState(tuple(spec.initial if has else None for has in clocked))


def after_move(
    spec: ClockSpec, state: ClockState, mover: int | None, next_seat: int | None, now: float
) -> ClockState:
    """The clocks after ``mover``'s move decided at ``now``.

    The mover's time is charged (and the increment added) if their clock ran; then the clock of
    ``next_seat`` runs from ``now`` (``None``: none runs, as after the last move or before a
    forced move, which costs nothing).
    """
    if mover is not None and mover >= 0 and state.running == mover:
        state = state.charged(spec, mover, now)
    state = state.run(None, now)
    if next_seat is not None and next_seat >= 0:
        state = state.run(next_seat, now)
    return state

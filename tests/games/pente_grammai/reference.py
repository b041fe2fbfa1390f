"""A slow, plain-Python reference for Pente Grammai's move rules, for differential testing.

Written apart from the engine (it imports nothing from ``ludoteca``) from RULES.md and our rules
page, favouring obviousness over speed: the circuit is a list of point names, a counter moves
one point at a time, and a position is a small dataclass.

Conventions:
    * Points ``W1``..``W5`` and ``B1``..``B5``; the circuit runs W1, W2, ..., W5, B1, ..., B5 and
      back to W1. W3 and B3 are the sacred points. White's goal is B3, Blue's is W3.
    * Sides are ``"w"`` (White) and ``"b"`` (Blue).
    * Moves are ``"hand-W4"``, ``"W4-B2"`` or ``"pass"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

CIRCUIT = ["W1", "W2", "W3", "W4", "W5", "B1", "B2", "B3", "B4", "B5"]
SACRED = {"W3", "B3"}
GOAL = {"w": "B3", "b": "W3"}


def other(side: str) -> str:
    """The opponent of ``side``."""
    return "b" if side == "w" else "w"


@dataclass(frozen=True)
class Position:
    """Counters per point (a string such as ``"wwb"``), hands, stores, side to move and die."""

    points: dict[str, str]
    hand: dict[str, int]
    stored: dict[str, int]
    side: str
    die: int
    rules: dict[str, object] = field(default_factory=dict)

    @property
    def storage(self) -> bool:
        return self.rules.get("sacred") == "storage"

    @property
    def capture(self) -> bool:
        return bool(self.rules.get("capture"))


def from_text(text: str, rules: dict[str, object]) -> Position:
    """Read the engine's position text (only positions where a player has rolled)."""
    board, white_hand, blue_hand, white_stored, blue_stored, side, die, _ = text.split()
    cells = [cell.replace(".", "") for cell in board.split("/")]
    points = dict(zip(CIRCUIT, cells, strict=True))
    return Position(
        points,
        {"w": int(white_hand), "b": int(blue_hand)},
        {"w": int(white_stored), "b": int(blue_stored)},
        side,
        int(die),
        rules,
    )


def entry_point(side: str, die: int) -> str:
    """1..5 enter on the mover's own point of that number; a 6 on the opponent's point 1."""
    own, opponent = ("W", "B") if side == "w" else ("B", "W")
    return f"{opponent}1" if die == 6 else f"{own}{die}"


def walk(point: str, die: int) -> str:
    """The point ``die`` steps further round the circuit (other counters are passed over)."""
    for _ in range(die):
        point = CIRCUIT[(CIRCUIT.index(point) + 1) % len(CIRCUIT)]
    return point


def can_land(position: Position, side: str, point: str) -> bool:
    """Whether a counter of ``side`` may end its move (or its entry) on ``point``."""
    here = position.points[point]
    if point in SACRED:
        if position.storage:
            return here == ""  # one counter at most; the goal must be empty to store
        return True  # any number of both colours
    if here == "":
        return True
    if here == side:
        return False
    return position.capture  # a lone opponent counter is knocked off only in capture mode


def legal_moves(position: Position) -> set[str]:
    """The legal moves of the side to move, with the die of ``position``."""
    side, die = position.side, position.die
    if position.hand[side] > 0 and can_land(position, side, entry_point(side, die)):
        return {f"hand-{entry_point(side, die)}"}  # entering has priority
    moves = {
        f"{point}-{walk(point, die)}"
        for point, here in position.points.items()
        if side in here and can_land(position, side, walk(point, die))
    }
    return moves or {"pass"}


def play(position: Position, move: str) -> Position:
    """The position after ``move`` (with the die cleared and the other side to roll)."""
    side = position.side
    points, hand, stored = dict(position.points), dict(position.hand), dict(position.stored)
    if move != "pass":
        origin, target = move.split("-")
        if origin == "hand":
            hand[side] -= 1
        else:
            points[origin] = points[origin].replace(side, "", 1)
        if position.storage and target == GOAL[side]:
            stored[side] += 1
        else:
            opponent = other(side)
            if target not in SACRED and opponent in points[target]:
                points[target] = ""
                hand[opponent] += 1
            counters = points[target] + side
            points[target] = "w" * counters.count("w") + "b" * counters.count("b")
    return replace(position, points=points, hand=hand, stored=stored, side=other(side), die=0)


def winner(position: Position) -> str | None:
    """The side with all five counters home (on its goal, or stored), if any."""
    for side in ("w", "b"):
        if position.storage:
            home = position.stored[side]
        else:
            home = position.points[GOAL[side]].count(side)
        if home == 5:
            return side
    return None


def board_text(position: Position) -> str:
    """The board, hands and stores in the engine's position text form (first five fields)."""
    cells = "/".join(position.points[name] or "." for name in CIRCUIT)
    return (
        f"{cells} {position.hand['w']} {position.hand['b']} "
        f"{position.stored['w']} {position.stored['b']}"
    )

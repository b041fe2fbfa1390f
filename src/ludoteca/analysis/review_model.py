"""What a game review holds: `ReviewedDecision`, `PlayerSummary`, `Review`, and their JSON.

The labels and how they are given (`label_for`), and the accuracy figure (`accuracy_of`), are
defined here and explained in docs/review.md. Chances are always the mover's chance of winning
(a draw counts half), in [0, 1]; losses are in percentage points.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ludoteca.core.errors import LudotecaError

LABELS: Final = ("best", "good", "inaccuracy", "mistake", "blunder")

#: The smallest loss (percentage points) of each label below ``blunder``'s, worst first.
BLUNDER_FROM: Final = 20.0
MISTAKE_FROM: Final = 10.0
INACCURACY_FROM: Final = 5.0

#: Losses under this many points count as none: they show as 0.0, and no estimate here (the
#: exact tables included, whose differences this small are rounding) tells them apart.
NO_LOSS: Final = 0.05

#: A move's accuracy halves with every this many points of loss (see `move_accuracy`).
ACCURACY_HALF_LOSS: Final = 10.0

#: The ways a review estimates chances (`Review.method`).
METHODS: Final = ("exact", "rollouts", "search")

FORMAT: Final = "ludoteca-review"
FORMAT_VERSION: Final = 1


class ReviewError(LudotecaError):
    """A review cannot be made or read: bad moves, a bad budget, a malformed review file."""


def label_for(loss: float, *, played_best: bool) -> str:
    """The label of a move that lost ``loss`` points (``played_best``: the estimate's own move).

    ``best``: the best move, or one within `NO_LOSS` of it; ``good``: under 5 points lost;
    ``inaccuracy``: 5 to 10; ``mistake``: 10 to 20; ``blunder``: 20 or more.
    """
    if played_best or loss < NO_LOSS:
        return "best"
    if loss >= BLUNDER_FROM:
        return "blunder"
    if loss >= MISTAKE_FROM:
        return "mistake"
    if loss >= INACCURACY_FROM:
        return "inaccuracy"
    return "good"


def move_accuracy(loss: float) -> float:
    """A move's accuracy in %: 100 for no loss, halving with every 10 points lost."""
    return float(100.0 * 0.5 ** (max(0.0, loss) / ACCURACY_HALF_LOSS))


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of the game and how it was judged.

    Attributes:
        ply: The index of the move in the record's move list (chance outcomes count).
        player: The mover's seat.
        move: The move played (its text).
        chance_before: The mover's chance before the move, under best play from there.
        chance_after: The mover's chance after the move played.
        best_move: The best move found; ``move`` itself when the move played was best.
        best_chance: The mover's chance after ``best_move``.
        loss: ``best_chance - chance_after`` in percentage points, at least 0; 0 when the move
            played is the best move.
        label: One of `LABELS` (see `label_for`).
        forced: Whether the move was the only legal one (not counted in the accuracy).
        interval: The 95 % Wilson interval of ``chance_after`` (rollout estimates only).
        rollouts: Playouts behind each rollout estimate (rollout estimates only).
    """

    ply: int
    player: int
    move: str
    chance_before: float
    chance_after: float
    best_move: str
    best_chance: float
    loss: float
    label: str
    forced: bool = False
    interval: tuple[float, float] | None = None
    rollouts: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON (``interval`` and ``rollouts`` only when present)."""
        data: dict[str, Any] = {
            "ply": self.ply,
            "player": self.player,
            "move": self.move,
            "chance_before": self.chance_before,
            "chance_after": self.chance_after,
            "best_move": self.best_move,
            "best_chance": self.best_chance,
            "loss": self.loss,
            "label": self.label,
            "forced": self.forced,
        }
        if self.interval is not None:
            data["interval"] = list(self.interval)
        if self.rollouts is not None:
            data["rollouts"] = self.rollouts
        return data


@dataclass(frozen=True)
class PlayerSummary:
    """One player's decisions in a review.

    Attributes:
        accuracy: The mean `move_accuracy` of the player's unforced decisions, in %; ``None``
            when the player had no choice to make.
        labels: How many decisions got each label (every label present).
    """

    accuracy: float | None
    labels: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABELS, 0))

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON."""
        return {"accuracy": self.accuracy, "labels": dict(self.labels)}


def summarise(decisions: Sequence[ReviewedDecision], num_players: int) -> tuple[PlayerSummary, ...]:
    """Each player's label counts and accuracy."""
    summaries = []
    for player in range(num_players):
        own = [d for d in decisions if d.player == player]
        labels = count_labels(own)
        chosen = [move_accuracy(d.loss) for d in own if not d.forced]
        accuracy = sum(chosen) / len(chosen) if chosen else None
        summaries.append(PlayerSummary(accuracy=accuracy, labels=labels))
    return tuple(summaries)


@dataclass(frozen=True)
class Review:
    """A reviewed game: every decision judged, and a summary per player.

    Attributes:
        game: The game's id.
        options: Every option of the game.
        moves: The moves of the game reviewed (so that a saved review can be matched to a game).
        decisions: The decisions, in the order played.
        players: One summary per seat.
        method: How chances were estimated: ``exact``, ``rollouts`` or ``search``.
        budget: Playouts per candidate move (``rollouts``) or search iterations per position
            (``search``); ``None`` for exact values.
        seed: The seed of the estimates.
    """

    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    decisions: tuple[ReviewedDecision, ...]
    players: tuple[PlayerSummary, ...]
    method: str
    budget: int | None
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The review as JSON-ready data (see docs/review.md)."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "options": dict(self.options),
            "method": self.method,
            "budget": self.budget,
            "seed": self.seed,
            "moves": list(self.moves),
            "decisions": [decision.to_json() for decision in self.decisions],
            "players": [player.to_json() for player in self.players],
        }

    @classmethod
    def from_json(cls, data: Any) -> Review:
        """The review that `to_json` wrote.

        Raises:
            ReviewError: ``data`` is not such a review; the message says what is wrong.
        """
        return _review_from_json(data)

    def labels_by_ply(self) -> dict[int, str]:
        """The label of each decision, by ply."""
        return {decision.ply: decision.label for decision in self.decisions}

    def first_player_curve(self) -> list[tuple[int, float]]:
        """``(ply, first player's chance)`` before each decision, and after the last one.

        In a two-player game the other player's chance ``c`` is the first player's ``1 - c``.
        """
        points: list[tuple[int, float]] = []
        for decision in self.decisions:
            points.append((decision.ply, _first_player(decision.chance_before, decision.player)))
        if self.decisions:
            last = self.decisions[-1]
            points.append((last.ply + 1, _first_player(last.chance_after, last.player)))
        return points


def _first_player(chance: float, player: int) -> float:
    return chance if player == 0 else 1.0 - chance


# -- reading a review back --------------------------------------------------------------------

_TOP_KEYS: Final = ("game", "options", "decisions", "players")
_CHANCES: Final = ("chance_before", "chance_after", "best_chance")


def _review_from_json(data: Any) -> Review:
    if not isinstance(data, Mapping):
        raise ReviewError(f"a review is a JSON object; got {type(data).__name__}")
    missing = [key for key in _TOP_KEYS if key not in data]
    if missing:
        raise ReviewError(f"a review needs {', '.join(_TOP_KEYS)}; missing {', '.join(missing)}")
    if data.get("format", FORMAT) != FORMAT:
        raise ReviewError(f"not a review: format is {data.get('format')!r}, not {FORMAT!r}")
    if not isinstance(data["game"], str):
        raise ReviewError("game must be a game id (text)")
    if not isinstance(data["options"], Mapping):
        raise ReviewError("options must be an object")
    method = data.get("method", "search")
    if method not in METHODS:
        raise ReviewError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    budget = data.get("budget")
    if budget is not None and not _is_int(budget, 1):
        raise ReviewError(f"budget must be a whole number of at least 1, or null; got {budget!r}")
    seed = data.get("seed", 0)
    if not _is_int(seed, 0):
        raise ReviewError(f"seed must be a whole number of at least 0; got {seed!r}")
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ReviewError("moves must be a list of move texts")
    if not isinstance(data["decisions"], list):
        raise ReviewError("decisions must be a list")
    decisions = tuple(_decision(item, n) for n, item in enumerate(data["decisions"]))
    if not isinstance(data["players"], list) or not data["players"]:
        raise ReviewError("players must be a non-empty list of summaries")
    players = tuple(_player(item, n) for n, item in enumerate(data["players"]))
    for decision in decisions:
        if decision.player >= len(players):
            raise ReviewError(f"the decision at ply {decision.ply} names an unknown player")
    return Review(
        game=data["game"],
        options=dict(data["options"]),
        moves=tuple(moves),
        decisions=decisions,
        players=players,
        method=method,
        budget=budget,
        seed=seed,
    )


def _is_int(value: Any, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_chance(value: Any) -> bool:
    return _is_number(value) and 0.0 <= value <= 1.0


def _decision(item: Any, index: int) -> ReviewedDecision:
    where = f"decision {index}"
    if not isinstance(item, Mapping):
        raise ReviewError(f"{where} must be an object")
    for key in ("ply", "player"):
        if not _is_int(item.get(key), 0):
            raise ReviewError(f"{where}: {key} must be a whole number of at least 0")
    for key in ("move", "best_move"):
        if not isinstance(item.get(key), str):
            raise ReviewError(f"{where}: {key} must be a move text")
    for key in _CHANCES:
        if not _is_chance(item.get(key)):
            raise ReviewError(f"{where}: {key} must be a chance from 0 to 1")
    loss: Any = item.get("loss")
    if not (_is_number(loss) and 0 <= loss <= 100):
        raise ReviewError(f"{where}: loss must be from 0 to 100 points")
    if item.get("label") not in LABELS:
        raise ReviewError(f"{where}: label must be one of {', '.join(LABELS)}")
    interval = item.get("interval")
    if interval is not None and not (
        isinstance(interval, list) and len(interval) == 2 and all(map(_is_chance, interval))
    ):
        raise ReviewError(f"{where}: interval must be [low, high], two chances")
    rollouts = item.get("rollouts")
    if rollouts is not None and not _is_int(rollouts, 1):
        raise ReviewError(f"{where}: rollouts must be a whole number of at least 1")
    return ReviewedDecision(
        ply=item["ply"],
        player=item["player"],
        move=item["move"],
        chance_before=float(item["chance_before"]),
        chance_after=float(item["chance_after"]),
        best_move=item["best_move"],
        best_chance=float(item["best_chance"]),
        loss=float(loss),
        label=item["label"],
        forced=bool(item.get("forced", False)),
        interval=None if interval is None else (float(interval[0]), float(interval[1])),
        rollouts=rollouts,
    )


def _player(item: Any, index: int) -> PlayerSummary:
    where = f"player {index}"
    if not isinstance(item, Mapping):
        raise ReviewError(f"{where} must be an object")
    accuracy: Any = item.get("accuracy")
    if accuracy is not None and not (
        isinstance(accuracy, int | float)
        and not isinstance(accuracy, bool)
        and 0 <= accuracy <= 100
    ):
        raise ReviewError(f"{where}: accuracy must be from 0 to 100, or null")
    labels = item.get("labels")
    if not isinstance(labels, Mapping) or set(labels) != set(LABELS):
        raise ReviewError(f"{where}: labels must count each of {', '.join(LABELS)}")
    if not all(_is_int(count, 0) for count in labels.values()):
        raise ReviewError(f"{where}: label counts must be whole numbers")
    return PlayerSummary(
        accuracy=None if accuracy is None else float(accuracy),
        labels={label: labels[label] for label in LABELS},
    )


def count_labels(decisions: Iterable[ReviewedDecision]) -> dict[str, int]:
    """How many of ``decisions`` got each label."""
    counts = dict.fromkeys(LABELS, 0)
    for decision in decisions:
        counts[decision.label] += 1
    return counts

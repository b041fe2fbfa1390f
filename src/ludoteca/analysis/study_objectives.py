"""What a variant search looks for: an objective, scored on a variant's games with an interval.

An objective is given as text (``--objective``):

* ``balance``: the *imbalance*, to make as small as possible: the larger of the first seat's and
  the first mover's distance from 50 %, each read as a share of the games someone won;
  ``max(abs(seat_share - 0.5), abs(first_move - 0.5))``. 0 is a game where neither the seat
  nor moving first tilts the result.
* ``decisiveness``: the mean decisive point of the won games, to make as large as possible: how
  late in the game its winner went ahead for good (agent play only; see docs/study.md).
* ``length:LO-HI``: the share of games lasting from LO to HI turns, to make as large as possible.
* ``min:EXPRESSION`` or ``max:EXPRESSION``: any arithmetic of the measures in `MEASURES` with
  ``+ - * /``, numbers, ``abs``, ``min`` and ``max``, e.g.
  ``min:abs(first_move - 0.5) + abs(turns - 60) / 100``.

`Objective.score` gives the score of a variant's games with an interval whose coverage the
caller chooses (the search widens it to pay for every look it takes): the Wilson interval for the
shares, a normal interval for means, and for an expression a normal interval from a bootstrap
standard error (resampling the games, seeded).
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.analysis.ratings import wilson_interval
from ludoteca.analysis.study_games import NO_WINNER, GameTable, StudyError

#: The measures an objective expression may use, and what each one is.
MEASURES = {
    "seat_share": "the first seat's share of the games won",
    "first_move": "the first mover's share of the games won",
    "win_rate": "the first seat's win rate (the solitaire's win rate)",
    "draws": "the share of games drawn",
    "safeguard": "the share of games ended by an engine safeguard",
    "plies": "mean game length in plies",
    "turns": "mean game length in turns",
    "legal_moves": "legal moves per decision",
    "lead_changes": "mean lead changes per game (agent play)",
    "decisiveness": "mean decisive point of the won games (agent play)",
}
AGENT_MEASURES = frozenset({"lead_changes", "decisiveness"})
FUNCTIONS: dict[str, Callable[..., float]] = {"abs": abs, "min": min, "max": max}
BOOTSTRAP_RESAMPLES = 200
#: The per-game columns a measure reads beyond the winner and the first mover.
_COLUMNS_OF = {
    "seat_share": set(),
    "first_move": set(),
    "win_rate": set(),
    "draws": set(),
    "legal_moves": {"legal_moves", "decisions"},
    "decisiveness": {"decided_at"},
}
ACCEPTED = (
    "balance, decisiveness, length:LO-HI (turns), or min:EXPRESSION / max:EXPRESSION of "
    + ", ".join(MEASURES)
)

_OPERATORS: dict[type[ast.AST], Callable[..., float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: lambda a, b: a / b if b else math.nan,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}


@dataclass(frozen=True, slots=True)
class Score:
    """A variant's score with its interval (``nan`` where the games cannot say)."""

    estimate: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Objective:
    """A parsed ``--objective``.

    Attributes:
        text: As given.
        kind: ``balance``, ``decisiveness``, ``length`` or ``expression``.
        goal: ``min`` or ``max``: which way is better.
        definition: What the score is, in words.
        parts: How many intervals the score's interval is built from (each must hold).
        span: ``(LO, HI)`` turns for ``length``.
        expression: The parsed expression for ``expression``.
    """

    text: str
    kind: str
    goal: str
    definition: str
    parts: int = 1
    span: tuple[int, int] = (0, 0)
    expression: ast.Expression | None = None

    @property
    def names(self) -> frozenset[str]:
        """The measures the score reads."""
        if self.kind == "balance":
            return frozenset({"seat_share", "first_move"})
        if self.kind == "decisiveness":
            return frozenset({"decisiveness"})
        if self.expression is None:
            return frozenset({"turns"})
        return frozenset(
            node.id
            for node in ast.walk(self.expression)
            if isinstance(node, ast.Name) and node.id in MEASURES
        )

    def better(self, a: float, b: float) -> bool:
        """Whether score ``a`` is better than ``b``."""
        return a < b if self.goal == "min" else a > b

    def score(self, table: GameTable, *, z: float, seed: int = 0) -> Score:
        """The score of ``table``'s games with an interval of ``z`` standard errors per part."""
        columns = table.columns
        if self.kind == "balance":
            return _balance(columns, z)
        if self.kind == "decisiveness":
            decided = columns["decided_at"][~np.isnan(columns["decided_at"])]
            return _mean(decided, z)
        if self.kind == "length":
            low, high = self.span
            turns = columns["turns"]
            inside = int(np.count_nonzero((turns >= low) & (turns <= high)))
            return _share(inside, turns.size, z)
        assert self.expression is not None
        return _bootstrap(self.expression, table, z, seed)


def parse_objective(text: str) -> Objective:
    """Read an ``--objective`` (see the module docs).

    Raises:
        StudyError: Not one of the accepted forms (the message lists them).
    """
    stripped = text.strip()
    if stripped == "balance":
        return Objective(
            stripped,
            "balance",
            "min",
            "imbalance: the larger of the first seat's and the first mover's distance from "
            "50 % of the games won (0 is fair)",
            parts=2,
        )
    if stripped == "decisiveness":
        return Objective(
            stripped,
            "decisiveness",
            "max",
            "decisiveness: the mean share of a won game played before its winner led for good",
        )
    if stripped.startswith("length:"):
        found = re.fullmatch(r"length:\s*(\d+)\s*-\s*(\d+)", stripped)
        if not found or int(found[1]) > int(found[2]):
            raise StudyError(
                f"--objective {text!r}: write length:LO-HI with whole numbers of turns, "
                "LO at most HI, e.g. length:40-80"
            )
        low, high = int(found[1]), int(found[2])
        return Objective(
            stripped,
            "length",
            "max",
            f"the share of games lasting {low} to {high} turns",
            span=(low, high),
        )
    goal, sep, body = stripped.partition(":")
    if sep and goal in ("min", "max") and body.strip():
        expression = _parse_expression(body.strip(), text)
        return Objective(
            stripped,
            "expression",
            goal,
            f"{'smallest' if goal == 'min' else 'largest'} {body.strip()}",
            expression=expression,
        )
    raise StudyError(f"unknown --objective {text!r}; accepted: {ACCEPTED}")


def _parse_expression(body: str, text: str) -> ast.Expression:
    try:
        tree = ast.parse(body, mode="eval")
    except SyntaxError:
        raise StudyError(f"--objective {text!r} is not an arithmetic expression") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id not in MEASURES and node.id not in FUNCTIONS:
                raise StudyError(
                    f"--objective {text!r}: unknown name {node.id!r}; accepted measures: "
                    + ", ".join(MEASURES)
                    + "; functions: "
                    + ", ".join(FUNCTIONS)
                )
        elif isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                raise StudyError(f"--objective {text!r}: only abs, min and max can be called")
            if node.keywords or not node.args:
                raise StudyError(f"--objective {text!r}: call abs, min and max with values only")
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, int | float) or isinstance(node.value, bool):
                raise StudyError(f"--objective {text!r}: only numbers may appear as values")
        elif not isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Load, *_OPERATORS)):
            raise StudyError(
                f"--objective {text!r}: only + - * /, numbers, measures, abs, min and max"
            )
    if not any(isinstance(n, ast.Name) and n.id in MEASURES for n in ast.walk(tree)):
        raise StudyError(f"--objective {text!r} uses no measure; accepted: " + ", ".join(MEASURES))
    return tree


def evaluate(expression: ast.Expression, values: dict[str, float]) -> float:
    """The value of a checked expression for the given measures."""

    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return value(node.body)
        if isinstance(node, ast.Constant):
            assert isinstance(node.value, int | float)  # checked when parsed
            return float(node.value)
        if isinstance(node, ast.Name):
            return values[node.id]
        if isinstance(node, ast.UnaryOp):
            return float(_OPERATORS[type(node.op)](value(node.operand)))
        if isinstance(node, ast.BinOp):
            return float(_OPERATORS[type(node.op)](value(node.left), value(node.right)))
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        return float(FUNCTIONS[node.func.id](*[value(a) for a in node.args]))

    return value(expression)


def measures(columns: dict[str, npt.NDArray[Any]], names: frozenset[str]) -> dict[str, float]:
    """The named measures of a set of games (``nan`` where the games cannot say)."""
    winner, first = columns["winner"], columns["first_mover"]
    n = winner.size
    found: dict[str, float] = {}
    for name in names:
        if name == "seat_share":
            won = np.count_nonzero(winner != NO_WINNER)
            found[name] = np.count_nonzero(winner == 0) / won if won else math.nan
        elif name == "first_move":
            counted = (winner != NO_WINNER) & (first != NO_WINNER)
            total = np.count_nonzero(counted)
            found[name] = np.count_nonzero(winner == first) / total if total else math.nan
        elif name == "win_rate":
            found[name] = np.count_nonzero(winner == 0) / n if n else math.nan
        elif name == "draws":
            found[name] = np.count_nonzero(winner == NO_WINNER) / n if n else math.nan
        elif name == "safeguard":
            found[name] = np.count_nonzero(columns["safeguard"]) / n if n else math.nan
        elif name == "legal_moves":
            decisions = columns["decisions"].sum()
            found[name] = columns["legal_moves"].sum() / decisions if decisions else math.nan
        elif name == "lead_changes":
            lead = columns["lead_changes"][columns["lead_changes"] >= 0]
            found[name] = float(lead.mean()) if lead.size else math.nan
        elif name == "decisiveness":
            decided = columns["decided_at"][~np.isnan(columns["decided_at"])]
            found[name] = float(decided.mean()) if decided.size else math.nan
        else:
            found[name] = float(columns[name].mean()) if n else math.nan
    return {name: float(v) for name, v in found.items()}


def _share(x: int, n: int, z: float) -> Score:
    low, high = wilson_interval(x, n, z)
    return Score(x / n if n else math.nan, low, high)


def _distance(x: int, n: int, z: float) -> Score:
    """``|x / n - 0.5|`` with the interval it takes when ``x / n`` is in its Wilson interval."""
    low, high = wilson_interval(x, n, z)
    far = max(abs(low - 0.5), abs(high - 0.5))
    near = 0.0 if low <= 0.5 <= high else min(abs(low - 0.5), abs(high - 0.5))
    return Score(abs(x / n - 0.5) if n else math.nan, near, far)


def _balance(columns: dict[str, npt.NDArray[Any]], z: float) -> Score:
    winner, first = columns["winner"], columns["first_mover"]
    won = winner != NO_WINNER
    seat = _distance(int(np.count_nonzero(winner == 0)), int(np.count_nonzero(won)), z)
    counted = won & (first != NO_WINNER)
    mover = _distance(
        int(np.count_nonzero(counted & (winner == first))), int(np.count_nonzero(counted)), z
    )
    estimate = max(seat.estimate, mover.estimate)
    return Score(estimate, max(seat.low, mover.low), max(seat.high, mover.high))


def _mean(values: npt.NDArray[Any], z: float) -> Score:
    if values.size < 2:
        return Score(float(values.mean()) if values.size else math.nan, math.nan, math.nan)
    mean = float(values.mean())
    half = z * float(values.std(ddof=1)) / math.sqrt(values.size)
    return Score(mean, mean - half, mean + half)


def _bootstrap(expression: ast.Expression, table: GameTable, z: float, seed: int) -> Score:
    names = frozenset(
        node.id
        for node in ast.walk(expression)
        if isinstance(node, ast.Name) and node.id in MEASURES
    )
    columns = table.columns
    estimate = evaluate(expression, measures(columns, names))
    n = table.games
    if n < 2 or math.isnan(estimate):
        return Score(estimate, math.nan, math.nan)
    needed = {"winner", "first_mover"} | set().union(*(_COLUMNS_OF.get(m, {m}) for m in names))
    generator = np.random.default_rng(seed)
    draws = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        picked = generator.integers(0, n, n)
        resampled = {name: columns[name][picked] for name in needed}
        draws.append(evaluate(expression, measures(resampled, names)))
    spread = float(np.nanstd(draws, ddof=1))
    return Score(estimate, estimate - z * spread, estimate + z * spread)

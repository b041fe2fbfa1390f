"""Pente Grammai solved: the exact winning chance of every position under best play by both sides.

Pente Grammai is small enough to solve outright. Ignoring the move count, a position is the
occupant of each of the eight ordinary points (empty, White or Blue), how many counters of each
side are in hand, on each sacred point and in store, and whose turn it is: about 710,000
positions with the default rules. We give every position before the roll the value ``V`` of the
side to move (+1 a certain win, -1 a certain loss, draws 0), and the rules tie the values
together (Bellman's equation of this stochastic game)::

    V(p) = mean over the six rolls d of  max over the legal moves m with d of  -V(p after m)

where a move that ends the game is worth its result to the mover instead. Counters that
overshoot, and counters moved on from the goal, come round again, so positions can repeat and
there is no order in which to fill the table once. We iterate the equation instead (value
iteration, updating in place) from ``V = 0`` until no value changes by more than `TOLERANCE`.
Each sweep reads a successor list built once (every position, roll and legal move, found by the
game's own kernels), so the rules live in one place.

The engine safeguard ``max_plies`` (a draw after 10,000 plies) is ignored: a game that long is
vanishingly rare between sensible players, and counting plies would multiply the table by
10,000. The options ``first`` and ``start`` change only the opening position, so one table
serves them all; ``sacred`` and ``capture`` change the rules and get a table each.

Solving takes some seconds; the values are then kept in memory and in a cache file (see
`cache_dir`), so later processes load them at once.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.games.pente_grammai import kernels as k
from ludoteca.games.pente_grammai.state import PenteGrammaiState

TOLERANCE = 1e-9  # largest change of any value in the last sweep
MAX_SWEEPS = 100_000  # a safety net only: the iteration converges in far fewer
SOLVER_VERSION = 1  # part of the cache file's name: bump when the table's meaning changes

ORDINARY = np.array([p for p in range(k.NUM_POINTS) if not k.IS_SACRED[p]], dtype=np.int64)
RADIX = k.COUNTERS + 1  # counts of one side in one place run 0..5
NO_LIMIT = np.iinfo(np.int32).max

# Successor codes for moves that end the game (the successor list otherwise holds indices).
WON, LOST, DRAWN = -1, -2, -3


@njit(cache=True)
def position_key(s: npt.NDArray[np.int32]) -> int:
    """A number that identifies the position (not the move count) of ``s``: used to index it."""
    key = 0
    for point in ORDINARY:
        occupant = 0
        if k.counters_on(s, k.WHITE, point) != 0:
            occupant = 1
        elif k.counters_on(s, k.BLUE, point) != 0:
            occupant = 2
        key = key * 3 + occupant
    for side in range(2):
        key = key * RADIX + k.in_hand(s, side)
        key = key * RADIX + k.counters_on(s, side, k.W3)
        key = key * RADIX + k.counters_on(s, side, k.B3)
        key = key * RADIX + k.in_store(s, side)
    return int(key * 2 + s[k.SIDE_AT])


@njit(cache=True)
def _place_side(
    s: npt.NDArray[np.int32], side: int, hand: int, w3: int, b3: int, store: int
) -> None:
    k.set_in_hand(s, side, hand)
    k.set_counters_on(s, side, k.W3, w3)
    k.set_counters_on(s, side, k.B3, b3)
    k.set_in_store(s, side, store)


@njit(cache=True)
def _split_fits(side: int, w3: int, b3: int, store: int, params: npt.NDArray[np.int64]) -> bool:
    """Whether a side's counters off the ordinary points can stand this way under the options."""
    if params[k.P_SACRED] == k.SACRED_SCHAEDLER:
        return store == 0
    own_goal = b3 if side == k.WHITE else w3  # with storage, a counter landing there is stored
    return own_goal == 0 and w3 <= 1 and b3 <= 1


@njit(cache=True)
def enumerate_positions(params: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The sorted keys of every running position before a roll under ``params``."""
    keys = []
    s = np.zeros(k.CELLS_SIZE, dtype=np.int32)
    for code in range(3**ORDINARY.size):
        s[:] = 0
        rest = code
        on_points = np.zeros(2, dtype=np.int64)
        for i in range(ORDINARY.size - 1, -1, -1):  # the last point is the lowest digit
            occupant = rest % 3
            rest //= 3
            if occupant != 0:
                k.set_counters_on(s, occupant - 1, ORDINARY[i], 1)
                on_points[occupant - 1] += 1
        if on_points[0] > k.COUNTERS or on_points[1] > k.COUNTERS:
            continue
        left_w = k.COUNTERS - on_points[0]
        left_b = k.COUNTERS - on_points[1]
        for hw in range(left_w + 1):
            for w3w in range(left_w - hw + 1):
                for b3w in range(left_w - hw - w3w + 1):
                    store_w = left_w - hw - w3w - b3w
                    if not _split_fits(k.WHITE, w3w, b3w, store_w, params):
                        continue
                    for hb in range(left_b + 1):
                        for w3b in range(left_b - hb + 1):
                            for b3b in range(left_b - hb - w3b + 1):
                                store_b = left_b - hb - w3b - b3b
                                if not _split_fits(k.BLUE, w3b, b3b, store_b, params):
                                    continue
                                if params[k.P_SACRED] == k.SACRED_STORAGE and (
                                    w3w + w3b > 1 or b3w + b3b > 1
                                ):
                                    continue
                                _place_side(s, k.WHITE, hw, w3w, b3w, store_w)
                                _place_side(s, k.BLUE, hb, w3b, b3b, store_b)
                                for side in range(2):
                                    s[k.SIDE_AT] = side
                                    k.settle(s, params)
                                    if s[k.STATUS_AT] == k.ONGOING:
                                        keys.append(position_key(s))
    return np.sort(np.array(keys, dtype=np.int64))


@njit(cache=True)
def _successor_code(s: npt.NDArray[np.int32], mover: int, keys: npt.NDArray[np.int64]) -> int:
    """The successor-list entry of position ``s`` just reached by ``mover``'s move."""
    status = s[k.STATUS_AT]
    if status == k.DRAW:
        return DRAWN
    if status != k.ONGOING:
        return WON if (status == k.WHITE_WINS) == (mover == k.WHITE) else LOST
    key = position_key(s)
    index = np.searchsorted(keys, key)
    if index >= keys.size or keys[index] != key:
        raise ValueError("a successor position is missing from the table")
    return int(index)


@njit(cache=True)
def position_cells(key: int, s: npt.NDArray[np.int32]) -> None:
    """Set up ``s`` (zeroed first) as the position with ``key`` before its roll."""
    s[:] = 0
    s[k.SIDE_AT] = key % 2
    key //= 2
    for side in range(1, -1, -1):
        k.set_in_store(s, side, key % RADIX)
        key //= RADIX
        k.set_counters_on(s, side, k.B3, key % RADIX)
        key //= RADIX
        k.set_counters_on(s, side, k.W3, key % RADIX)
        key //= RADIX
        k.set_in_hand(s, side, key % RADIX)
        key //= RADIX
    for i in range(ORDINARY.size - 1, -1, -1):
        occupant = key % 3
        key //= 3
        if occupant != 0:
            k.set_counters_on(s, occupant - 1, ORDINARY[i], 1)


@njit(cache=True)
def build_successors(
    keys: npt.NDArray[np.int64], params: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """Every position's legal moves per roll, as successor codes.

    Returns ``(starts, codes)``: the moves of position ``i`` with roll ``d`` (1..6) are
    ``codes[starts[6 * i + d - 1]:starts[6 * i + d]]``, each a position index, or `WON`, `LOST`
    or `DRAWN` for a move that ends the game (from the mover's point of view).
    """
    n = keys.size
    starts = np.zeros(6 * n + 1, dtype=np.int64)
    codes = np.empty(6 * n * 3, dtype=np.int32)  # grown below when needed
    s = np.zeros(k.CELLS_SIZE, dtype=np.int32)
    t = np.zeros(k.CELLS_SIZE, dtype=np.int32)
    out = np.empty(k.MAX_LEGAL, dtype=np.int64)
    used = 0
    for i in range(n):
        position_cells(keys[i], s)
        mover = s[k.SIDE_AT]
        for die in range(1, 7):
            s[k.DIE_AT] = die
            count = k.decision_actions_into(s, params, out)
            if used + count > codes.size:
                codes = np.concatenate((codes, np.empty(codes.size, dtype=np.int32)))
            for j in range(count):
                t[:] = s
                k.apply_action_inplace(t, out[j], params)
                codes[used] = _successor_code(t, mover, keys)
                used += 1
            starts[6 * i + die] = used
        s[k.DIE_AT] = 0
    return starts, codes[:used].copy()


@njit(cache=True)
def _move_value(code: int, values: npt.NDArray[np.float64]) -> float:
    """What a move is worth to its mover, from its successor code."""
    if code == WON:
        return 1.0
    if code == LOST:
        return -1.0
    if code == DRAWN:
        return 0.0
    return float(-values[code])


@njit(cache=True)
def iterate_values(
    starts: npt.NDArray[np.int64],
    codes: npt.NDArray[np.int32],
    tolerance: float,
    max_sweeps: int,
) -> tuple[npt.NDArray[np.float64], int]:
    """Solve the Bellman equation by value iteration in place; return the values and sweeps."""
    n = (starts.size - 1) // 6
    values = np.zeros(n, dtype=np.float64)
    for sweep in range(1, max_sweeps + 1):
        largest_change = 0.0
        for i in range(n):
            total = 0.0
            for roll in range(6):
                slot = 6 * i + roll
                best = -np.inf
                for j in range(starts[slot], starts[slot + 1]):
                    best = max(best, _move_value(codes[j], values))
                total += best
            value = total / 6.0
            largest_change = max(largest_change, abs(value - values[i]))
            values[i] = value
        if largest_change <= tolerance:
            return values, sweep
    return values, max_sweeps


class Solution:
    """The solved values of one rules set: look up positions, and the best move with a roll.

    Attributes:
        keys: Sorted `position_key` of every running position before a roll.
        values: ``values[i]``: the side to move's value of position ``keys[i]`` before its roll,
            in [-1, 1] (twice the winning chance minus one; a draw counts half).
    """

    def __init__(
        self,
        params: npt.NDArray[np.int64],
        keys: npt.NDArray[np.int64],
        values: npt.NDArray[np.float64],
    ) -> None:
        self.params = params
        self.keys = keys
        self.values = values

    def value_before_roll(self, cells: npt.NDArray[np.int32]) -> float:
        """The side to move's value of a running position whose die is still to be rolled."""
        s = cells.astype(np.int32)
        s[k.DIE_AT] = 0
        key = position_key(s)
        index = int(np.searchsorted(self.keys, key))
        if index >= self.keys.size or self.keys[index] != key:
            raise ValueError("not a running Pente Grammai position of these rules")
        return float(self.values[index])

    def move_values(self, state: PenteGrammaiState) -> dict[int, float]:
        """Each legal action's value to the mover at a decision node (die rolled)."""
        mover = state.cells[k.SIDE_AT]
        result: dict[int, float] = {}
        for action in state.legal_actions():
            after = k.apply_action(state.cells, self.params, action)
            code = _successor_code(after, mover, self.keys)
            result[action] = _move_value(code, self.values)
        return result


def cache_dir() -> Path:
    """Where solved tables are kept: ``$LUDOTECA_CACHE``, else the user's cache folder."""
    if explicit := os.environ.get("LUDOTECA_CACHE"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ludoteca"


def rules_params(params: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The options that change the rules (``sacred``, ``capture``), the rest set to neutral."""
    rules = np.zeros(k.NUM_PARAMS, dtype=np.int64)
    rules[k.P_SACRED] = params[k.P_SACRED]
    rules[k.P_CAPTURE] = params[k.P_CAPTURE]
    rules[k.P_MAX_PLIES] = NO_LIMIT  # the safeguard is ignored (see the module docstring)
    rules[k.P_FIRST] = k.NO_SIDE
    return rules


def cache_file(rules: npt.NDArray[np.int64], size: int) -> Path:
    """The cache file of a table: named by the solver version, the rules and the table size."""
    digest = hashlib.sha256(f"{SOLVER_VERSION}:{rules.tolist()}:{size}".encode()).hexdigest()
    return cache_dir() / f"pente_grammai-solution-{digest[:16]}.npy"


def _load(path: Path, size: int) -> npt.NDArray[np.float64] | None:
    """Cached values if the file holds a sound table of ``size`` values, else ``None``."""
    try:
        values = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    sound = values.dtype == np.float64 and values.shape == (size,)
    if not sound or not np.all(np.abs(values) <= 1.0):
        return None
    return np.asarray(values, dtype=np.float64)


def _store(path: Path, values: npt.NDArray[np.float64]) -> None:
    """Write the values atomically; a cache that cannot be written is simply skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npy", delete=False) as handle:
            np.save(handle, values, allow_pickle=False)
        os.replace(handle.name, path)
    except OSError:
        return


def load_or_solve(rules: npt.NDArray[np.int64]) -> Solution:
    """The solution of the rules ``rules`` (from `rules_params`): from the cache, or solved."""
    keys = enumerate_positions(rules)
    path = cache_file(rules, keys.size)
    values = _load(path, keys.size)
    if values is None:
        starts, codes = build_successors(keys, rules)
        values, _ = iterate_values(starts, codes, TOLERANCE, MAX_SWEEPS)
        _store(path, values)
    return Solution(rules, keys, values)


@functools.cache
def _solve_rules(sacred: int, capture: int) -> Solution:
    params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
    params[k.P_SACRED] = sacred
    params[k.P_CAPTURE] = capture
    return load_or_solve(rules_params(params))


def solve(params: npt.NDArray[np.int64]) -> Solution:
    """The solution for the rules of ``params`` (a game's options), solved or loaded once."""
    return _solve_rules(int(params[k.P_SACRED]), int(params[k.P_CAPTURE]))


def expert_move(state: PenteGrammaiState) -> tuple[int, float]:
    """The best action at a decision node (the die rolled) and its exact value to the mover.

    Ties go to the lowest action, so the choice is deterministic.
    """
    values = solve(state.game.params).move_values(state)
    best = max(values, key=lambda action: (values[action], -action))
    return best, values[best]


def exact_move_values(state: PenteGrammaiState) -> dict[int, float]:
    """Each legal action's exact value to the mover at a decision node (the die rolled)."""
    return solve(state.game.params).move_values(state)

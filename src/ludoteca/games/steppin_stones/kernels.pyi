"""Typed signatures of the kernel contract, checked by mypy (see docs/kernels.md).

The compiled module is the implementation; the conformance tests check that these
signatures match its functions. Other names are typed as ``Any``.
"""

from typing import Any

from ludoteca.core.kernels import (
    BoolArray,
    Cells,
    Float32Array,
    Int64Array,
    KernelArg,
    UInt64Array,
)

def legal_actions(s: Cells, params: KernelArg, geo: KernelArg, /) -> Int64Array: ...
def apply_action(s: Cells, params: KernelArg, geo: KernelArg, action: int, /) -> Cells: ...
def player_to_move(s: Cells, /) -> int: ...
def expand(
    s: Cells, params: KernelArg, geo: KernelArg, /
) -> tuple[Int64Array, Cells, Int64Array]: ...
def random_playout_inplace(
    s: Cells,
    params: KernelArg,
    geo: KernelArg,
    totals: Int64Array,
    curve: Int64Array,
    max_plies: int,
    /,
) -> int: ...
def random_rollout(
    start: Cells, params: KernelArg, geo: KernelArg, max_plies: int, seed: int, /
) -> Cells: ...
def random_playouts(
    start: Cells, params: KernelArg, geo: KernelArg, count: int, seed: int, /
) -> Int64Array: ...
def random_playout_records(
    start: Cells, params: KernelArg, geo: KernelArg, count: int, seed: int, /
) -> tuple[Int64Array, Int64Array]: ...
def illegal_reason(
    s: Cells,
    params: KernelArg,
    geo: KernelArg,
    piece: int,
    origin: int,
    destination: int,
    /,
) -> int: ...
def observation(
    s: Cells, params: KernelArg, geo: KernelArg, player: int, out: Float32Array, /
) -> None: ...
def action_mask(s: Cells, params: KernelArg, geo: KernelArg, out: BoolArray, /) -> None: ...
def vector_reset(
    batch: Cells,
    params: KernelArg,
    geo: KernelArg,
    initial: Cells,
    observations: Float32Array,
    masks: BoolArray,
    players: Int64Array,
    rng: UInt64Array,
    /,
) -> int: ...
def vector_step(
    batch: Cells,
    params: KernelArg,
    geo: KernelArg,
    initial: Cells,
    actions: Int64Array,
    observations: Float32Array,
    masks: BoolArray,
    players: Int64Array,
    rewards: Float32Array,
    terminated: BoolArray,
    rng: UInt64Array,
    /,
) -> int: ...

# compiled copies of named accessors of `cells`, for compiled code outside the kernels
def coin_cell(s: Cells, square: int, /) -> int: ...
def pawn_cell(s: Cells, square: int, /) -> int: ...
def pawn_square(s: Cells, suit: int, /) -> int: ...
def value_coins_left(s: Cells, suit: int, /) -> int: ...
def budget_left(s: Cells, suit: int, /) -> int: ...
def __getattr__(name: str) -> Any: ...

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

def legal_actions(s: Cells, params: KernelArg, goals: KernelArg, /) -> Int64Array: ...
def apply_action(s: Cells, params: KernelArg, goals: KernelArg, action: int, /) -> Cells: ...
def player_to_move(s: Cells, /) -> int: ...
def expand(
    s: Cells, params: KernelArg, goals: KernelArg, /
) -> tuple[Int64Array, Cells, Int64Array]: ...
def random_playout_inplace(
    s: Cells,
    params: KernelArg,
    goals: KernelArg,
    totals: Int64Array,
    curve: Int64Array,
    max_plies: int,
    /,
) -> int: ...
def random_rollout(
    start: Cells, params: KernelArg, goals: KernelArg, max_plies: int, seed: int, /
) -> Cells: ...
def random_playouts(
    start: Cells, params: KernelArg, goals: KernelArg, count: int, seed: int, /
) -> Int64Array: ...
def random_playout_records(
    start: Cells, params: KernelArg, goals: KernelArg, count: int, seed: int, /
) -> tuple[Int64Array, Int64Array]: ...
def is_jump(action: int, /) -> bool: ...
def illegal_reason(
    s: Cells,
    params: KernelArg,
    goals: KernelArg,
    origin: int,
    destination: int,
    jump: bool,
    /,
) -> int: ...
def observation(
    s: Cells, params: KernelArg, goals: KernelArg, player: int, out: Float32Array, /
) -> None: ...
def action_mask(s: Cells, params: KernelArg, goals: KernelArg, out: BoolArray, /) -> None: ...
def vector_reset(
    batch: Cells,
    params: KernelArg,
    goals: KernelArg,
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
    goals: KernelArg,
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

# named accessors of the position array (views share the array's memory)
def layer(s: Cells, side: int, /) -> Cells: ...
def piece_squares(s: Cells, side: int, /) -> Cells: ...
def piece_square(s: Cells, side: int, piece: int, /) -> int: ...
def put_piece(s: Cells, side: int, piece: int, square: int, /) -> None: ...
def scoring_moves_of(s: Cells, side: int, /) -> int: ...
def set_scoring_moves(s: Cells, side: int, count: int, /) -> None: ...
def __getattr__(name: str) -> Any: ...

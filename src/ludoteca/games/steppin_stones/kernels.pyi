"""Typed signatures of the kernel contract, checked by mypy (see docs/kernels.md).

The compiled module is the implementation; the conformance tests check that these
signatures match its functions. Other names are typed as ``Any``.
"""

from typing import Any

from ludoteca.core.kernels import Cells, Int64Array, KernelArg

def legal_actions(s: Cells, geo: KernelArg, params: KernelArg, /) -> Int64Array: ...
def apply_action(s: Cells, geo: KernelArg, params: KernelArg, action: int, /) -> Cells: ...
def player_to_move(s: Cells, /) -> int: ...
def expand(
    s: Cells, geo: KernelArg, params: KernelArg, /
) -> tuple[Int64Array, Cells, Int64Array]: ...
def random_playout_inplace(
    s: Cells,
    geo: KernelArg,
    params: KernelArg,
    totals: Int64Array,
    curve: Int64Array,
    max_plies: int,
    /,
) -> int: ...
def random_rollout(
    start: Cells, geo: KernelArg, params: KernelArg, max_plies: int, seed: int, /
) -> Cells: ...
def random_playouts(
    start: Cells, geo: KernelArg, params: KernelArg, count: int, seed: int, /
) -> Int64Array: ...
def random_playout_records(
    start: Cells, geo: KernelArg, params: KernelArg, count: int, seed: int, /
) -> tuple[Int64Array, Int64Array]: ...
def illegal_reason(
    s: Cells,
    geo: KernelArg,
    params: KernelArg,
    piece: int,
    origin: int,
    destination: int,
    /,
) -> int: ...
def __getattr__(name: str) -> Any: ...

"""Typed signatures of the rules' own kernels that typed code calls (accessors and the like).

``python -m ludoteca.core.kernel_template`` copies them into the generated ``__init__.pyi``,
after the contract's kernels; the tests check them against the compiled functions. Other
names are typed as ``Any``.
"""

from typing import Any

from ludoteca.core.kernels import (
    Cells,
    KernelArg,
)

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

# named accessors of the position array (views share the array's memory)
def layer(s: Cells, side: int, /) -> Cells: ...
def piece_squares(s: Cells, side: int, /) -> Cells: ...
def piece_square(s: Cells, side: int, piece: int, /) -> int: ...
def put_piece(s: Cells, side: int, piece: int, square: int, /) -> None: ...
def scoring_moves_of(s: Cells, side: int, /) -> int: ...
def set_scoring_moves(s: Cells, side: int, count: int, /) -> None: ...
def __getattr__(name: str) -> Any: ...

"""Typed signatures of the rules' own kernels that typed code calls (accessors and the like).

``python -m ludoteca.core.kernel_template`` copies them into the generated ``__init__.pyi``,
after the contract's kernels; the tests check them against the compiled functions. Other
names are typed as ``Any``.
"""

from typing import Any

from ludoteca.core.kernels import Cells, KernelArg

def illegal_reason(
    s: Cells,
    params: KernelArg,
    geo: KernelArg,
    piece: int,
    origin: int,
    destination: int,
    /,
) -> int: ...

# compiled copies of named accessors of `layout`, for compiled code outside the kernels
def coin_cell(s: Cells, square: int, /) -> int: ...
def pawn_cell(s: Cells, square: int, /) -> int: ...
def pawn_square(s: Cells, suit: int, /) -> int: ...
def value_coins_left(s: Cells, suit: int, /) -> int: ...
def budget_left(s: Cells, suit: int, /) -> int: ...
def __getattr__(name: str) -> Any: ...

"""Typed signatures of the layout's kernels that typed code calls (accessors and the like).

``python -m ludoteca.core.kernel_template`` copies them into the generated ``__init__.pyi``,
after the contract's kernels; the tests check them against the compiled functions. Other
names are typed as ``Any``.
"""

from typing import Any

from ludoteca.core.kernels import Cells

def is_jump(action: int, /) -> bool: ...
def put_piece(s: Cells, side: int, piece: int, square: int, /) -> None: ...
def __getattr__(name: str) -> Any: ...

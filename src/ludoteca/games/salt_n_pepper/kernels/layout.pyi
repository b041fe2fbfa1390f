"""Typed signatures of the layout's kernels that typed code calls (accessors and the like).

``python -m ludoteca.core.kernel_template`` copies them into the generated ``__init__.pyi``,
after the contract's kernels; the tests check them against the compiled functions. Other
names are typed as ``Any``.
"""

from typing import Any

from ludoteca.core.kernels import Cells

# named accessors of the position array (views share the array's memory)
def piece_squares(s: Cells, side: int, /) -> Cells: ...
def __getattr__(name: str) -> Any: ...

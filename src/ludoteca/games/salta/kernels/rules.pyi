"""Typed signatures of the rules' own kernels that typed code calls (why a move is refused).

``python -m ludoteca.core.kernel_template`` copies them into the generated ``__init__.pyi``,
after the contract's kernels; the tests check them against the compiled functions. Other
names are typed as ``Any``.
"""

from typing import Any

from ludoteca.core.kernels import Cells, KernelArg

def illegal_reason(
    s: Cells,
    params: KernelArg,
    goals: KernelArg,
    origin: int,
    destination: int,
    jump: bool,
    /,
) -> int: ...
def __getattr__(name: str) -> Any: ...

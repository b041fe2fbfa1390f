"""mypy's check of the kernel contract: every game's kernels module is a `GameKernels`.

mypy reads each kernels package through its typed stub (``kernels/__init__.pyi``, written by
`ludoteca.core.kernel_template`); assigning the modules to `GameKernels` variables makes mypy
check that the template's stubs give every kernel of the contract the contract's result type.
Nothing here runs: the imports are for the type checker only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ludoteca.core.kernels import GameKernels
    from ludoteca.games.pente_grammai import kernels as pente_grammai
    from ludoteca.games.salt_n_pepper import kernels as salt_n_pepper
    from ludoteca.games.salta import kernels as salta
    from ludoteca.games.splinter import kernels as splinter
    from ludoteca.games.steppin_stones import kernels as steppin_stones

    CHECKED: tuple[GameKernels, ...] = (
        pente_grammai,
        salt_n_pepper,
        salta,
        splinter,
        steppin_stones,
    )

"""The kernel contract's types: what mypy and the conformance check see of a kernels module.

The contract itself is written once, in `ludoteca.core.kernel_template`: the template that
writes every game's contract kernels (``legal_actions``, ``apply_action``, ``player_to_move``,
``expand``, the random playouts, the action mask and the batch kernels) and their typed stub
from the game's primitives; docs/kernels.md says what each kernel does. Here, `GameKernels`
states the kernels for mypy (``games/kernel_contract.py`` checks every generated stub against
it), and `KERNEL_SIGNATURES`, read from the template, the parameters that
`ludoteca.core.conformance` checks in the compiled functions (numba's ``py_func``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ludoteca.core.kernel_template import KERNELS

Cells = npt.NDArray[np.int32]
Int64Array = npt.NDArray[np.int64]
KernelArg = npt.NDArray[Any]
Float32Array = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
UInt64Array = npt.NDArray[np.uint64]


class GameKernels(Protocol):
    """A game's kernels module, as mypy sees it through the module's typed stub (``.pyi``).

    Each member is the kernel of the same name; the stub gives its exact parameters, so mypy
    checks every call made from typed code, and assigning the module to a `GameKernels`
    variable checks that every kernel is there with the right result type.
    """

    @property
    def legal_actions(self) -> Callable[..., Int64Array]:
        """The legal actions, sorted and unique (empty once the game is over)."""
        ...

    @property
    def apply_action(self) -> Callable[..., Cells]:
        """A new position array with the action applied; the input is unchanged."""
        ...

    @property
    def player_to_move(self) -> Callable[[Cells], int]:
        """The player to move, ``CHANCE_NODE`` or ``GAME_OVER``."""
        ...

    @property
    def expand(self) -> Callable[..., tuple[Int64Array, Cells, Int64Array]]:
        """Every legal action, the position after each, and the player to move there."""
        ...

    @property
    def random_playout_inplace(self) -> Callable[..., int]:
        """Random play on the array itself, adding to the totals."""
        ...

    @property
    def random_rollout(self) -> Callable[..., Cells]:
        """The position after at most ``max_plies`` seeded random plies."""
        ...

    @property
    def random_playouts(self) -> Callable[..., Int64Array]:
        """The totals of ``count`` seeded random games."""
        ...

    @property
    def random_playout_records(self) -> Callable[..., tuple[Int64Array, Int64Array]]:
        """The records and legal-move curve of those same games."""
        ...

    @property
    def observation(self) -> Callable[..., None]:
        """Write the observation tensor of the position from one player's view into ``out``."""
        ...

    @property
    def action_mask(self) -> Callable[..., None]:
        """Write the legal-action mask into ``out`` (all False at a chance node or once over)."""
        ...

    @property
    def vector_reset(self) -> Callable[..., int]:
        """Start every game of a batch, play its chance outcomes, write what a learner sees."""
        ...

    @property
    def vector_step(self) -> Callable[..., int]:
        """Play one action in every game of a batch (chance, auto-reset, observations, masks)."""
        ...


#: Per kernel: the parameters after the position and the game's kernel arguments (``None``: the
#: kernel takes the position alone), as the template writes them.
KERNEL_SIGNATURES: dict[str, tuple[str, ...] | None] = {
    kernel: None if own is None else tuple(name for name, _ in own)
    for kernel, (own, _) in KERNELS.items()
}


def parameter_names(kernel: Any) -> list[str] | None:
    """The parameter names of a kernel: a numba dispatcher (its ``py_func``) or a function.

    ``None`` if it is not callable, or has ``*args``, ``**kwargs`` or keyword-only parameters.
    """
    function = getattr(kernel, "py_func", kernel)
    if not callable(function):
        return None
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind not in positional for p in parameters):
        return None
    return [p.name for p in parameters]


def signature_problems(kernels: ModuleType, num_kernel_args: int) -> list[str]:
    """What in ``kernels`` breaks the contract's signatures (empty when it keeps it).

    Checks that every kernel exists, is compiled with numba (has ``py_func``), takes the position
    first, then ``num_kernel_args`` game arguments with the same names in every kernel, then the
    contract's own arguments by name.
    """
    problems: list[str] = []
    game_args: list[str] | None = None
    name = kernels.__name__
    for kernel, own in KERNEL_SIGNATURES.items():
        function = getattr(kernels, kernel, None)
        if function is None:
            problems.append(f"{name}.{kernel} is missing")
            continue
        if not hasattr(function, "py_func"):
            problems.append(f"{name}.{kernel} is not a numba-compiled function (no py_func)")
        names = parameter_names(function)
        if names is None:
            problems.append(f"{name}.{kernel} must take plain positional parameters")
            continue
        expected = 1 if own is None else 1 + num_kernel_args + len(own)
        if len(names) != expected:
            problems.append(
                f"{name}.{kernel} takes {len(names)} parameters ({', '.join(names)}); the contract"
                f" wants {expected}: {_describe(own, num_kernel_args)}"
            )
            continue
        if own is None:
            continue
        middle = names[1 : 1 + num_kernel_args]
        if game_args is None:
            game_args = middle
        elif middle != game_args:
            problems.append(
                f"{name}.{kernel} takes the game's arguments as ({', '.join(middle)}); the other"
                f" kernels take ({', '.join(game_args)}): one order everywhere"
            )
        tail = tuple(names[1 + num_kernel_args :])
        if tail != own:
            problems.append(
                f"{name}.{kernel} ends with ({', '.join(tail)}); the contract wants"
                f" ({', '.join(own)}) after the game's arguments"
            )
    return problems


def _describe(own: tuple[str, ...] | None, num_kernel_args: int) -> str:
    if own is None:
        return "(cells)"
    return "(cells, " + ", ".join([f"<{num_kernel_args} game arguments>", *own]) + ")"

"""numba's CUDA target, imported once, and what differs between a real GPU and the simulator.

numba-cuda 0.30 registers ``np.row_stack``, which numpy 2.5 removed: the name is put back as
``np.vstack`` (what it always was) before ``numba.cuda`` is imported, where it is missing.

With ``NUMBA_ENABLE_CUDASIM=1`` numba runs kernels in Python threads on the CPU (the tests do,
where no GPU is present). There a kernel's arrays are wrappers that the compiled CPU rules cannot
take, so `device_function` unwraps them before calling the rule; on a GPU numba compiles the
same rule functions for the device.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

if not hasattr(np, "row_stack"):  # numpy >= 2.5
    np.row_stack = np.vstack

import numba.cuda as _numba_cuda
from numba.cuda.core import config

SIMULATED: bool = bool(config.ENABLE_CUDASIM)
"""Whether numba's CUDA simulator stands in for a GPU (``NUMBA_ENABLE_CUDASIM=1``)."""

# Under the simulator numba.cuda.random decorates its generator for the CPU with a keyword that
# numba deprecated: a warning about numba's own code, silenced here.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import numba.cuda.random as _numba_cuda_random

# numba-cuda's functions are untyped: typed as Any here, once.
cuda: Any = _numba_cuda
cuda_random: Any = _numba_cuda_random


def device_ready() -> bool:
    """Whether kernels can run: a CUDA GPU with its driver, or the simulator."""
    try:
        return bool(cuda.is_available())
    except Exception:  # a broken driver install reports itself in many ways
        return False


def no_device_reason() -> str:
    """Why no kernel can run here (for a message), or "" when one can."""
    if device_ready():
        return ""
    try:
        cuda.detect()
    except Exception as error:
        text = " ".join(str(error).split()).rstrip(": ") or type(error).__name__
        return f"no CUDA GPU is present ({text})"
    return "no CUDA GPU is present"


def device_name() -> str:
    """The name of the GPU the kernels run on ("numba's CUDA simulator" under it)."""
    if SIMULATED:
        return "numba's CUDA simulator"
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


def _host(value: Any) -> Any:
    """The numpy array behind a simulator array (anything else as it is)."""
    return getattr(value, "_ary", value)


def device_function(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a compiled rule) as a kernel calls it (its arrays unwrapped, simulated)."""
    if not SIMULATED:
        return function

    def call(*args: Any) -> Any:
        return function(*(_host(arg) for arg in args))

    call.__name__ = getattr(function, "__name__", "rule")
    return call


__all__ = [
    "SIMULATED",
    "cuda",
    "cuda_random",
    "device_function",
    "device_name",
    "device_ready",
    "no_device_reason",
]

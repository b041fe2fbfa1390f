"""Compile a game's device kernels to PTX for an H100 (sm_90), without a GPU: ``python -m``.

Run in a process of its own (numba's CUDA target must not be the simulator there):
``python -m tests.rl.gpu_ptx GAME`` prints one line, ``GAME ptx BYTES``, or fails with numba's
error, which names the rule function that cannot run on the device (one that allocates, say).

NVVM, which writes the PTX, ships with the gpu extra; no driver is needed. numba asks the
current device for its compute capability when it compiles a called function for CUDA, and
there is none: the one question is answered here with the target's (9, 0).
"""

from __future__ import annotations

import os
import sys
import types

import numpy as np

os.environ["NUMBA_ENABLE_CUDASIM"] = "0"

import ludoteca
from ludoteca.rl.gpu._cuda import cuda
from ludoteca.rl.gpu.kernels import build, draw_legal

import numba  # isort: skip
import numba.cuda.dispatcher  # isort: skip
from numba.cuda.random import xoroshiro128p_dtype  # isort: skip

TARGET = (9, 0)  # the H100's compute capability


def _typeof(shape: tuple[int, ...], dtype: type) -> object:
    return numba.typeof(np.zeros(shape, dtype=dtype))


def compile_game(game_id: str) -> int:
    """Compile ``game_id``'s reset, step and draw kernels to PTX; return the PTX's length."""
    numba.cuda.dispatcher.get_current_device = lambda: types.SimpleNamespace(
        compute_capability=TARGET
    )
    game = ludoteca.make(game_id)
    args = [np.ascontiguousarray(arg).copy() for arg in game.kernel_args]
    a1, a2 = numba.typeof(args[0]), numba.typeof(args[-1])
    kernels = build(game.kernels, len(args))
    batch, initial = _typeof((2, 2), np.int32), _typeof((2,), np.int32)
    floats, masks, flags = (
        _typeof((2, 2), np.float32),
        _typeof((2, 2), np.bool_),
        _typeof((2,), np.bool_),
    )
    ints, rng = _typeof((2,), np.int64), _typeof((2,), np.uint64)
    shown = (floats, masks, ints, floats, flags, flags, rng, ints)
    total = 0
    for kernel, signature in (
        (kernels.reset, (batch, a1, a2, initial, *shown)),
        (kernels.step, (batch, a1, a2, initial, ints, *shown)),
        (draw_legal, (masks, _typeof((2,), xoroshiro128p_dtype), ints)),
    ):
        ptx, _ = cuda.compile_ptx(kernel, signature, cc=TARGET)
        assert f".target sm_{TARGET[0]}{TARGET[1]}" in ptx
        total += len(ptx)
    return total


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(name, "ptx", compile_game(name))

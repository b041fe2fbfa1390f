"""The five games batched on a CUDA GPU (docs/rl.md, "On the GPU"): the ``gpu`` extra.

`GpuEnv` is `ludoteca.rl.VectorEnv` with its buffers in device memory: the same observations,
masks, rewards, terminations and auto-reset, the same games for the same seed and actions,
random legal actions drawn on the device, and device arrays that PyTorch and JAX take without a
copy (`as_dlpack`). Its kernels are the games' own compiled rule functions, compiled by numba
for CUDA as well (`ludoteca.rl.gpu.kernels`).

Install with ``pip install 'ludoteca[gpu]'`` (numba-cuda and the CUDA 13 libraries); it needs
an NVIDIA driver for CUDA 13. With ``NUMBA_ENABLE_CUDASIM=1`` numba's simulator runs the
kernels on the CPU (slowly: for tests).
"""

from __future__ import annotations

from ludoteca.rl.gpu._cuda import SIMULATED, device_name, device_ready, no_device_reason
from ludoteca.rl.gpu.env import DeviceStep, GpuEnv, NoDeviceError, as_dlpack, to_numpy

EXTRA_HINT = "pip install 'ludoteca[gpu]'"

__all__ = [
    "EXTRA_HINT",
    "SIMULATED",
    "DeviceStep",
    "GpuEnv",
    "NoDeviceError",
    "as_dlpack",
    "device_name",
    "device_ready",
    "no_device_reason",
    "to_numpy",
]

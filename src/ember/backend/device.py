"""Device detection: which array module (NumPy or CuPy) new columns use.

This module and the rest of ``ember.backend`` are the only places that import CuPy, and they import it
lazily, so ``import ember`` works on a machine with no GPU and no CUDA.
"""

from __future__ import annotations

import functools
from types import ModuleType

import numpy as np

from ember import _config

INSTALL_HINT = (
    "ember found no usable GPU. Install CuPy for your CUDA version "
    '(pip install "ember[cuda12]" or "ember[cuda13]") on a machine with an NVIDIA GPU, '
    'or use the CPU backend: ember.config.set(device="cpu") or EMBER_DEVICE=cpu.'
)


class DeviceUnavailableError(RuntimeError):
    """Raised when the GPU backend is asked for where there is none."""


@functools.cache
def _probe_cupy() -> tuple[ModuleType | None, str]:
    """Import CuPy and check that a device exists; (module or None, reason it is unusable)."""
    try:
        import cupy
    except Exception as exc:  # ImportError, or a broken CUDA install raising at import
        return None, f"CuPy does not import ({type(exc).__name__}: {exc})"
    try:
        n = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        return None, f"CuPy cannot reach the CUDA driver ({type(exc).__name__}: {exc})"
    if n < 1:
        return None, "no CUDA device is visible"
    from ember.backend import memory

    memory.install_pool(cupy)
    return cupy, ""


def gpu_available() -> bool:
    """True when CuPy imports and at least one CUDA device is visible."""
    return _probe_cupy()[0] is not None


def cupy_module() -> ModuleType:
    """The CuPy module; raises DeviceUnavailableError naming the fix when there is none."""
    cp, reason = _probe_cupy()
    if cp is None:
        raise DeviceUnavailableError(f"{reason}. {INSTALL_HINT}")
    return cp


def check_device_available(device: str) -> None:
    if device == "gpu":
        cupy_module()


def current_device() -> str:
    """'gpu' or 'cpu': the device that new columns are placed on now."""
    device = _config.get("device")
    if device == "auto":
        return "gpu" if gpu_available() else "cpu"
    if device == "gpu":
        cupy_module()
    elif device != "cpu":  # only an unchecked EMBER_DEVICE value can get here; config.set validates
        raise ValueError(
            f"ember's device option is {device!r}; use 'auto', 'gpu' or 'cpu' (check EMBER_DEVICE)"
        )
    return device


def xp() -> ModuleType:
    """The array module for new data: CuPy on the GPU backend, NumPy on the CPU backend."""
    return cupy_module() if current_device() == "gpu" else np

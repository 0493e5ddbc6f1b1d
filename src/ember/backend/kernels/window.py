"""Loader and launcher of the short-window moments kernel in ``window.cu``.

The NumPy reference is ``ember.backend.primitives.window_moments`` on host arrays (a loop over window
offsets, in the kernel's summation order).
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ember.backend.device import cupy_module

_THREADS = 256


@functools.cache
def _kernel() -> Any:
    path = os.path.join(os.path.dirname(__file__), "window.cu")
    with open(path, encoding="utf-8") as f:
        return (
            cupy_module()
            .RawModule(code=f.read(), options=("-std=c++14",))
            .get_function("ember_window_moments")
        )


def window_moments(values: Any, start: Any, end: Any) -> tuple[Any, ...]:
    """(nobs, sum, mean, m2, min, max) of the windows ``[start[i], end[i])`` of the float64 device
    array ``values`` (NaN = missing); see window.cu."""
    cp = cupy_module()
    n = int(start.shape[0])
    values = cp.ascontiguousarray(values, dtype=np.float64)
    start = cp.ascontiguousarray(start, dtype=np.int64)
    end = cp.ascontiguousarray(end, dtype=np.int64)
    nobs = cp.empty(n, dtype=np.int64)
    out = [cp.empty(n, dtype=np.float64) for _ in range(5)]
    if n:
        sms = cp.cuda.Device().attributes["MultiProcessorCount"]
        grid = int(max(1, min(sms * 16, (n + _THREADS - 1) // _THREADS)))
        _kernel()((grid,), (_THREADS,), (values, start, end, np.int64(n), nobs, *out))
    return (nobs, *out)

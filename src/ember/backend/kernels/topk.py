"""Loader and launcher of the row-wise top-k kernel in ``topk.cu``.

The NumPy reference is ``ember.backend.primitives.smallest_k`` on host arrays (partition, then ties at
the k-th value to the lowest columns); the kernel gives the same answer reading the matrix once.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ember.backend.device import cupy_module

MAX_K = 16
_THREADS = 128  # 128 threads x 16 entries x 16 bytes = 32 KiB of shared memory at most


@functools.cache
def _module() -> Any:
    path = os.path.join(os.path.dirname(__file__), "topk.cu")
    with open(path, encoding="utf-8") as f:
        return cupy_module().RawModule(code=f.read(), options=("-std=c++14",))


def row_smallest_k(d: Any, k: int) -> tuple[Any, Any]:
    """(values, column indices) of the ``k`` smallest entries of each row of the C-contiguous float32
    or float64 device matrix ``d`` (1 <= k <= MAX_K, k <= columns), ascending, ties by column."""
    cp = cupy_module()
    n_rows, n_cols = d.shape
    values = cp.empty((n_rows, k), dtype=d.dtype)
    index = cp.empty((n_rows, k), dtype=np.int64)
    if n_rows:
        name = "ember_row_topk_f64" if d.dtype == np.float64 else "ember_row_topk_f32"
        grid = int(min(n_rows, 65535))
        shared = _THREADS * k * (d.dtype.itemsize + 8)
        _module().get_function(name)(
            (grid,),
            (_THREADS,),
            (d, np.int64(n_rows), np.int64(n_cols), np.int32(k), values, index),
            shared_mem=shared,
        )
    return values, index

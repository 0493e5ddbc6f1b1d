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
_BLOCKS = 4096  # enough blocks to fill an H200 (132 SMs x 16 resident blocks of 128 threads) twice
_MIN_CHUNK = 4096  # columns per block at least: below that the merge pass costs more than it saves


@functools.cache
def _module() -> Any:
    path = os.path.join(os.path.dirname(__file__), "topk.cu")
    with open(path, encoding="utf-8") as f:
        return cupy_module().RawModule(code=f.read(), options=("-std=c++14",))


def row_smallest_k(d: Any, k: int, col_bias: Any = None) -> tuple[Any, Any]:
    """(values, column indices) of the ``k`` smallest entries of each row of the C-contiguous float32
    or float64 device matrix ``d`` (1 <= k <= MAX_K, k <= columns), ascending, ties by column.

    ``col_bias`` (optional, one value per column, d's dtype) is added to each entry as it is read: the
    answer is that of ``d + col_bias`` without the pass that would write it. Few long rows are split
    into column chunks scanned by separate blocks, whose k-lists a second launch merges."""
    cp = cupy_module()
    n_rows, n_cols = d.shape
    if n_rows == 0:
        return cp.empty((0, k), dtype=d.dtype), cp.empty((0, k), dtype=np.int64)
    chunks = max(1, min(-(-_BLOCKS // n_rows), n_cols // max(k, _MIN_CHUNK)))
    values, index = _launch(d, col_bias, k, chunks)
    if chunks == 1:
        return values, index
    # each row's chunk lists side by side: positions ascend with columns, so ties still go to the lowest
    pos_values, pos = _launch(values.reshape(n_rows, chunks * k), None, k, 1)
    return pos_values, cp.take_along_axis(index.reshape(n_rows, chunks * k), pos, axis=1)


def _launch(d: Any, col_bias: Any, k: int, chunks: int) -> tuple[Any, Any]:
    """One kernel launch: (n_rows * chunks, k) values and column indices, chunk lists row-major."""
    cp = cupy_module()
    n_rows, n_cols = d.shape
    values = cp.empty((n_rows * chunks, k), dtype=d.dtype)
    index = cp.empty((n_rows * chunks, k), dtype=np.int64)
    name = "ember_row_topk_f64" if d.dtype == np.float64 else "ember_row_topk_f32"
    if col_bias is not None:
        col_bias = cp.ascontiguousarray(col_bias, dtype=d.dtype)
    chunk = -(-n_cols // chunks)
    _module().get_function(name)(
        (int(min(n_rows, 65535)), chunks),
        (_THREADS,),
        (d, col_bias, np.int64(n_rows), np.int64(n_cols), np.int64(chunk), np.int32(k), values, index),
        shared_mem=_THREADS * k * (d.dtype.itemsize + 8),
    )
    return values, index


def row_argmin(d: Any, col_bias: Any = None) -> tuple[Any, Any]:
    """(first column of each row's minimum, that minimum) of ``d + col_bias`` for a C-contiguous float32
    or float64 device matrix: NumPy's argmin (NaN wins), without writing ``d + col_bias``."""
    cp = cupy_module()
    n_rows, n_cols = d.shape
    index = cp.zeros(n_rows, dtype=np.int64)
    values = cp.empty(n_rows, dtype=d.dtype)
    if n_rows and n_cols:
        name = "ember_row_argmin_f64" if d.dtype == np.float64 else "ember_row_argmin_f32"
        if col_bias is not None:
            col_bias = cp.ascontiguousarray(col_bias, dtype=d.dtype)
        warps_per_block = 8
        grid = int(min(-(-n_rows // warps_per_block), 1 << 16))
        _module().get_function(name)(
            (grid,), (32 * warps_per_block,), (d, col_bias, np.int64(n_rows), np.int64(n_cols), index, values)
        )
    return index, values

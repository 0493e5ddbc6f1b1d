"""Packing variable-length byte rows on the device: row ``r``'s bytes ``src[starts[r] : starts[r] + len]``
go to ``out[offsets[r] : offsets[r + 1]]`` (string takes, CSV fields, Parquet byte arrays).

One warp copies 32 rows in turn, its lanes striding over each row's bytes: short rows cost a few
lanes, long rows are copied 32 bytes at a time, and nothing per output byte is made besides the byte
itself (the vectorized form built four int64 indices per byte). The NumPy reference is
``backend.primitives.gather_bytes``' host path.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

_THREADS = 256

_SOURCE = r"""
extern "C" __global__ void ember_gather_bytes(const unsigned char* src, const long long* starts,
                                              const long long* offsets, long long m, unsigned char* out) {
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long base = warp * 32; base < m; base += warps * 32) {
        const long long last = base + 32 < m ? base + 32 : m;
        for (long long r = base; r < last; ++r) {
            const long long from = starts[r], to = offsets[r], len = offsets[r + 1] - to;
            for (long long k = lane; k < len; k += 32) out[to + k] = src[from + k];
        }
    }
}
"""


def gather_rows(src: Any, starts: Any, offsets: Any, total: int) -> Any:
    """``total`` packed bytes of the rows (device arrays; ``offsets`` has one more entry than ``starts``
    and starts at 0)."""
    from ember.backend.device import cupy_module

    cp = cupy_module()
    out = cp.empty(total, dtype=np.uint8)
    m = int(starts.shape[0])
    if total and m:
        sms = cp.cuda.Device().attributes["MultiProcessorCount"]
        blocks = int(max(1, min(8 * sms, (m + _THREADS - 1) // _THREADS)))
        args = (
            cp.ascontiguousarray(src),
            cp.ascontiguousarray(starts, dtype=cp.int64),
            cp.ascontiguousarray(offsets, dtype=cp.int64),
            np.int64(m),
            out,
        )
        _kernel()((blocks,), (_THREADS,), args)
    return out


@functools.cache
def _kernel() -> Any:
    from ember.backend.device import cupy_module

    return cupy_module().RawKernel(_SOURCE, "ember_gather_bytes")

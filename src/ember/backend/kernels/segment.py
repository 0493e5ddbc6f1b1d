"""Per-group sums and counts on the device.

``cupy.bincount`` adds with global atomics; with few groups (db-benchmark's K = 100) millions of rows
contend for the same addresses. For few groups each block accumulates into shared memory and adds its
partial result once. For many groups the adds go to global memory, but a warp whose 32 rows share one
group (runs of equal keys: sorted keys, time bins) first sums in registers and adds once, so long runs
do not serialize 32 atomics on one address. The NumPy reference (used on the CPU and in the tests) is
``numpy.bincount``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# Groups that fit one block's shared memory (48 KiB of float64 or int64 slots).
MAX_SHARED_GROUPS = 6 * 1024 - 1

_SOURCE = r"""
extern "C" __global__ void ember_segment_sum_f64(const double* values, const long long* target,
                                                 long long n, int slots, double* out) {
    extern __shared__ double acc[];
    for (int i = threadIdx.x; i < slots; i += blockDim.x) acc[i] = 0.0;
    __syncthreads();
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&acc[target[i]], values[i]);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < slots; i += blockDim.x) {
        if (acc[i] != 0.0) atomicAdd(&out[i], acc[i]);
    }
}

extern "C" __global__ void ember_segment_sum_i64(const long long* values, const long long* target,
                                                 long long n, int slots, unsigned long long* out) {
    // two's complement: unsigned addition gives the int64 sum (wrapping exactly like NumPy's int64)
    extern __shared__ unsigned long long iacc[];
    for (int i = threadIdx.x; i < slots; i += blockDim.x) iacc[i] = 0ULL;
    __syncthreads();
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&iacc[target[i]], (unsigned long long)values[i]);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < slots; i += blockDim.x) {
        if (iacc[i]) atomicAdd(&out[i], iacc[i]);
    }
}

extern "C" __global__ void ember_segment_count(const long long* target, long long n, int slots,
                                               unsigned long long* out) {
    extern __shared__ unsigned long long cnt[];
    for (int i = threadIdx.x; i < slots; i += blockDim.x) cnt[i] = 0ULL;
    __syncthreads();
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&cnt[target[i]], 1ULL);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < slots; i += blockDim.x) {
        if (cnt[i]) atomicAdd(&out[i], cnt[i]);
    }
}

// Few targets: each block keeps its own extremes in shared memory, then merges them once per slot.
extern "C" __global__ void ember_scatter_extreme_i64_shared(long long* out, const long long* idx,
                                                            const long long* values, long long n, int slots,
                                                            int is_min) {
    extern __shared__ long long ext[];
    const long long init = is_min ? 0x7fffffffffffffffLL : (-0x7fffffffffffffffLL - 1);
    for (int i = threadIdx.x; i < slots; i += blockDim.x) ext[i] = init;
    __syncthreads();
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        if (is_min) atomicMin(&ext[idx[i]], values[i]); else atomicMax(&ext[idx[i]], values[i]);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < slots; i += blockDim.x) {
        if (ext[i] != init) { if (is_min) atomicMin(&out[i], ext[i]); else atomicMax(&out[i], ext[i]); }
    }
}

// Many groups: global atomics, one per warp when the warp's rows all fall in one group. Every lane of a
// warp runs the same iterations (rows past n count as target -1), so the full-mask votes are safe.
#define EMBER_FULL_MASK 0xffffffffu
extern "C" __global__ void ember_segment_sum_f64_runs(const double* values, const long long* target,
                                                      long long n, double* out) {
    const int lane = threadIdx.x & 31;
    const long long warp0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) - lane;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long base = warp0; base < n; base += stride) {
        const long long i = base + lane;
        const long long t = i < n ? target[i] : -1;
        double v = i < n ? values[i] : 0.0;
        const long long t0 = __shfl_sync(EMBER_FULL_MASK, t, 0);
        if (__all_sync(EMBER_FULL_MASK, t == t0 || t < 0)) {
            for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(EMBER_FULL_MASK, v, off);
            if (lane == 0 && t0 >= 0) atomicAdd(&out[t0], v);
        } else if (t >= 0) {
            atomicAdd(&out[t], v);
        }
    }
}

extern "C" __global__ void ember_segment_count_runs(const long long* target, long long n,
                                                    unsigned long long* out) {
    const int lane = threadIdx.x & 31;
    const long long warp0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) - lane;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long base = warp0; base < n; base += stride) {
        const long long i = base + lane;
        const long long t = i < n ? target[i] : -1;
        const long long t0 = __shfl_sync(EMBER_FULL_MASK, t, 0);
        const unsigned in_range = __ballot_sync(EMBER_FULL_MASK, t >= 0);
        if (__all_sync(EMBER_FULL_MASK, t == t0 || t < 0)) {
            if (lane == 0 && t0 >= 0) atomicAdd(&out[t0], (unsigned long long)__popc(in_range));
        } else if (t >= 0) {
            atomicAdd(&out[t], 1ULL);
        }
    }
}

extern "C" __global__ void ember_scatter_min_i64(long long* out, const long long* idx, const long long* values,
                                                 long long n) {
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicMin(&out[idx[i]], values[i]);
    }
}

extern "C" __global__ void ember_scatter_max_i64(long long* out, const long long* idx, const long long* values,
                                                 long long n) {
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicMax(&out[idx[i]], values[i]);
    }
}
"""

_module: dict[str, Any] = {}
_THREADS = 256


def _kernels() -> Any:
    if not _module:
        from ember.backend.device import cupy_module

        _module["m"] = cupy_module().RawModule(code=_SOURCE)
    return _module["m"]


def _grid(cp: Any, n: int) -> int:
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    return int(max(1, min(4 * sms, (n + _THREADS - 1) // _THREADS)))


def segment_sum(target: Any, values: Any, slots: int) -> Any:
    """float64 sums of ``values`` per slot (``target`` int64 in [0, slots)), length ``slots``."""
    from ember.backend.arrays import is_device_array

    if not is_device_array(target):
        return np.bincount(target, weights=values, minlength=slots)[:slots].astype(np.float64, copy=False)
    cp = _cp()
    out = cp.zeros(slots, dtype=np.float64)
    n = int(target.shape[0])
    if n:
        vals = cp.ascontiguousarray(values, dtype=np.float64)
        tgt = cp.ascontiguousarray(target, dtype=np.int64)
        if slots > MAX_SHARED_GROUPS:
            fn = _kernels().get_function("ember_segment_sum_f64_runs")
            fn((_grid(cp, n),), (_THREADS,), (vals, tgt, np.int64(n), out))
        else:
            fn = _kernels().get_function("ember_segment_sum_f64")
            fn(
                (_grid(cp, n),),
                (_THREADS,),
                (vals, tgt, np.int64(n), np.int32(slots), out),
                shared_mem=slots * 8,
            )
    return out


def segment_sum_int(target: Any, values: Any, slots: int) -> Any | None:
    """Exact int64 (or uint64, same bits) sums per slot on the device for few slots; None when the
    caller should use its general scatter-add path (host arrays, many slots)."""
    from ember.backend.arrays import is_device_array

    if not is_device_array(target) or slots > MAX_SHARED_GROUPS:
        return None
    cp = _cp()
    out = cp.zeros(slots, dtype=np.uint64)
    n = int(target.shape[0])
    if n:
        fn = _kernels().get_function("ember_segment_sum_i64")
        bits = (
            cp.ascontiguousarray(values).view(np.int64)
            if values.dtype.itemsize == 8
            else values.astype(np.int64)
        )
        fn(
            (_grid(cp, n),),
            (_THREADS,),
            (
                cp.ascontiguousarray(bits),
                cp.ascontiguousarray(target, dtype=np.int64),
                np.int64(n),
                np.int32(slots),
                out,
            ),
            shared_mem=slots * 8,
        )
    return out.view(values.dtype if values.dtype.itemsize == 8 else np.int64)


def segment_count(target: Any, slots: int) -> Any:
    """int64 row counts per slot (``target`` int64 in [0, slots)), length ``slots``."""
    from ember.backend.arrays import is_device_array

    if not is_device_array(target):
        return np.bincount(target, minlength=slots)[:slots].astype(np.int64, copy=False)
    cp = _cp()
    out = cp.zeros(slots, dtype=np.uint64)
    n = int(target.shape[0])
    if n:
        tgt = cp.ascontiguousarray(target, dtype=np.int64)
        if slots > MAX_SHARED_GROUPS:
            fn = _kernels().get_function("ember_segment_count_runs")
            fn((_grid(cp, n),), (_THREADS,), (tgt, np.int64(n), out))
        else:
            fn = _kernels().get_function("ember_segment_count")
            fn((_grid(cp, n),), (_THREADS,), (tgt, np.int64(n), np.int32(slots), out), shared_mem=slots * 8)
    return out.view(np.int64)


def _cp() -> Any:
    from ember.backend.device import cupy_module

    return cupy_module()


def scatter_extreme_i64(out: Any, idx: Any, values: Any, op: str) -> None:
    """out[idx] = min/max(out[idx], values) for int64 on the device, with signed 64-bit atomics
    (cupyx.scatter_min/max take no int64). In place. The reference is numpy.minimum.at / maximum.at."""
    cp = _cp()
    n = int(idx.shape[0])
    if not n:
        return
    idx = cp.ascontiguousarray(idx, dtype=np.int64)
    values = cp.ascontiguousarray(values, dtype=np.int64)
    slots = int(out.shape[0])
    if slots <= MAX_SHARED_GROUPS:  # few targets: global atomics on them would serialize
        fn = _kernels().get_function("ember_scatter_extreme_i64_shared")
        args = (out, idx, values, np.int64(n), np.int32(slots), np.int32(op == "min"))
        fn((_grid(cp, n),), (_THREADS,), args, shared_mem=slots * 8)
        return
    fn = _kernels().get_function("ember_scatter_min_i64" if op == "min" else "ember_scatter_max_i64")
    fn((_grid(cp, n),), (_THREADS,), (out, idx, values, np.int64(n)))

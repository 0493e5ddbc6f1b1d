"""Primitives whose NumPy and CuPy spellings differ; each branches on the array module."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

# --- sorting and scatter reductions (used by ops.sort / ops.factorize / ops.groupby) -------------------


def stable_argsort(a: Any, bound: int | None = None) -> Any:
    """Stable ascending argsort as int64 (NumPy needs kind='stable'; CuPy's radix sort is stable).

    ``bound``: the caller knows every value lies in [0, bound) (group codes): the keys are narrowed to
    the smallest unsigned type that holds them, since a radix sort makes one pass per key byte (codes
    of 10,000 groups: 2 passes instead of 8)."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(a)
    if a.dtype.kind == "b":
        a = a.view(xp.uint8)
    elif bound is not None and a.dtype.kind in "iu" and a.dtype.itemsize > 1:
        narrow = narrow_unsigned(bound)
        if narrow.itemsize < a.dtype.itemsize:
            a = a.astype(narrow)
    if is_device_array(a):
        return xp.argsort(a).astype(xp.int64, copy=False)
    if a.dtype.kind in "iu" and a.dtype.itemsize > 2 and a.shape[0] > 4096:
        low, high = int(a.min()), int(a.max())
        if high - low < 1 << 16:  # NumPy's stable sort is a radix sort for 16-bit keys: O(n)
            a = (a - a.dtype.type(low)).astype(xp.uint16)
        elif high - low < 1 << 32:  # two such passes, low half then high half (LSD radix sort)
            rel = (a - a.dtype.type(low)).astype(xp.uint32)
            by_low = xp.argsort((rel & 0xFFFF).astype(xp.uint16), kind="stable")
            by_high = xp.argsort((rel[by_low] >> 16).astype(xp.uint16), kind="stable")
            return by_low[by_high].astype(xp.int64, copy=False)
    return xp.argsort(a, kind="stable").astype(xp.int64, copy=False)


def order_of_distinct(a: Any, bound: int) -> Any:
    """``stable_argsort`` of distinct non-negative ints below ``bound`` (groups' first rows, say). Many
    of them: a mark per value and a running count over [0, bound) give the ranks with no sort."""
    from ember.backend.arrays import array_module

    xp = array_module(a)
    k = int(a.shape[0])
    if k * 8 <= bound:
        return stable_argsort(a, bound)
    mark = xp.zeros(bound, dtype=np.int32 if bound < 1 << 31 else np.int64)
    mark[a] = 1
    rank = xp.cumsum(mark)[a] - 1
    perm = xp.empty(k, dtype=np.int64)
    perm[rank] = xp.arange(k, dtype=np.int64)
    return perm


def narrow_unsigned(bound: int) -> np.dtype:
    """The smallest unsigned integer dtype that holds every value in [0, bound)."""
    return np.dtype(
        next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if bound <= np.iinfo(t).max + 1)
    )


def _scatter_device_view(out: Any, values: Any, op: str) -> tuple[Any, Any, Any]:
    """CuPy's scatter ops take int32/uint32/uint64/float32/float64; int64 goes through uint64 bits
    (addition is the same on the bits; min/max flip the sign bit so unsigned order = signed order)."""

    if out.dtype == np.int64:
        sign = np.uint64(1 << 63)
        if op == "add":
            return out.view(np.uint64), values.astype(np.int64, copy=False).view(np.uint64), None
        return (out.view(np.uint64) ^ sign), values.astype(np.int64, copy=False).view(np.uint64) ^ sign, sign
    return out, values.astype(out.dtype, copy=False), None


def scatter_add(out: Any, idx: Any, values: Any) -> None:
    """out[idx] += values with repeated indices accumulated (np.add.at / cupyx.scatter_add), in place."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(out)
    if not is_device_array(out):
        xp.add.at(out, idx, values.astype(out.dtype, copy=False))
        return
    import cupyx

    target, vals, _ = _scatter_device_view(out, values, "add")
    with warnings.catch_warnings():  # CuPy 14 flags cupyx.scatter_add as deprecated; same operation
        warnings.simplefilter("ignore", DeprecationWarning)
        cupyx.scatter_add(target, idx, vals)


def _scatter_extreme(out: Any, idx: Any, values: Any, op: str) -> None:
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(out)
    if not is_device_array(out):
        ufunc = xp.minimum if op == "min" else xp.maximum
        with xp.errstate(invalid="ignore"):  # NaN propagates, as on the device, without a warning
            ufunc.at(out, idx, values.astype(out.dtype, copy=False))
        return
    import cupyx

    if out.dtype == xp.int64 and out.flags.c_contiguous:
        from ember.backend.kernels.segment import scatter_extreme_i64

        scatter_extreme_i64(out, idx, values, op)  # signed 64-bit atomics: no bit tricks needed
        return
    if out.dtype == xp.float64:  # CuPy's float64 scatter_min/max was seen losing precision (H200, CuPy 14)
        from ember.backend.kernels.segment import scatter_extreme_i64

        target = _float64_order_bits(out, op)
        scatter_extreme_i64(target, idx, _float64_order_bits(values.astype(xp.float64, copy=False), op), op)
        out[...] = _float64_order_bits(target, op, inverse=True)
        return
    fn = cupyx.scatter_min if op == "min" else cupyx.scatter_max
    target, vals, sign = _scatter_device_view(out, values, op)
    with warnings.catch_warnings():  # as scatter_add: CuPy 14's deprecation of the cupyx scatters
        warnings.simplefilter("ignore", DeprecationWarning)
        fn(target, idx, vals)
    if sign is not None:  # target was a flipped copy: write the result back as int64
        out[...] = (target ^ sign).view(out.dtype)


def _float64_order_bits(a: Any, op: str, inverse: bool = False) -> Any:
    """float64 <-> int64 whose signed order is the float order (negatives' magnitude bits flipped).
    NaN maps below everything for min and above for max, so both propagate it as NumPy's ufunc.at does."""

    from ember.backend.arrays import array_module

    xp = array_module(a)
    flip = np.int64(0x7FFFFFFFFFFFFFFF)
    if inverse:
        return xp.where(a < 0, a ^ flip, a).view(xp.float64)
    bits = xp.ascontiguousarray(a).view(xp.int64)
    bits = xp.where(bits < 0, bits ^ flip, bits)
    nan_bits = np.int64(np.iinfo(np.int64).min if op == "min" else np.iinfo(np.int64).max)
    return xp.where(xp.isnan(a), nan_bits, bits)


def scatter_min(out: Any, idx: Any, values: Any) -> None:
    """out[idx] = min(out[idx], values) with repeated indices (np.minimum.at / cupyx.scatter_min)."""
    _scatter_extreme(out, idx, values, "min")


def scatter_max(out: Any, idx: Any, values: Any) -> None:
    """out[idx] = max(out[idx], values) with repeated indices (np.maximum.at / cupyx.scatter_max)."""
    _scatter_extreme(out, idx, values, "max")


# --- expansion (used by ops.join / ops.reshape) ------------------------------------------------------


def repeat_positions(counts: Any, ends: Any, total: int) -> Any:
    """For each of ``total`` output slots, the index of the entry of ``counts`` that owns it:
    ``np.repeat(arange(len(counts)), counts)``. ``ends`` is ``cumsum(counts)`` (callers have it
    already: they read ``total`` from it). CuPy's ``repeat`` takes no array of counts, so the device
    marks where each entry starts and a running count of the marks names each slot's owner (the last
    entry starting at or before it: empty entries share their start with the next one). A binary
    search of ``ends`` per slot was 24 dependent reads each for 1e7 entries."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(counts)
    if not is_device_array(counts):
        return xp.repeat(xp.arange(len(counts), dtype=xp.int64), counts)
    if total == 0:
        return xp.zeros(0, dtype=xp.int64)
    narrow = xp.int32 if len(counts) < np.iinfo(np.int32).max else xp.int64
    marks = xp.zeros(total + 1, dtype=narrow)
    scatter_add(marks, (ends - counts).astype(xp.int64, copy=False), xp.ones(len(counts), dtype=narrow))
    owner = xp.cumsum(marks[:total], dtype=narrow)
    owner -= 1
    return owner.astype(xp.int64, copy=False)


# --- running extremes (used by ops.missing / ops.cumulative / ops.reductions) -----------------------------


def _running(a: Any, axis: int, op: str) -> Any:
    """Running max/min along ``axis``: ufunc.accumulate on NumPy; on CuPy, whose ufuncs may lack
    ``accumulate``, a Hillis-Steele doubling scan (log2(n) elementwise passes, no host sync)."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(a)
    ufunc = xp.maximum if op == "max" else xp.minimum
    if not is_device_array(a):
        return ufunc.accumulate(a, axis=axis)
    try:
        return ufunc.accumulate(a, axis=axis)
    except (AttributeError, NotImplementedError, TypeError):
        pass
    out = xp.moveaxis(a, axis, 0).copy()
    n, step = out.shape[0], 1
    while step < n:
        out[step:] = ufunc(out[step:], out[:-step].copy())
        step *= 2
    return xp.moveaxis(out, 0, axis)


def cummax(a: Any, axis: int = 0) -> Any:
    """Running maximum (np.maximum.accumulate); NaN propagates as in NumPy."""
    return _running(a, axis, "max")


def cummin(a: Any, axis: int = 0) -> Any:
    """Running minimum (np.minimum.accumulate); NaN propagates as in NumPy."""
    return _running(a, axis, "min")


def searchsorted_bounds(sorted_values: Any, needles: Any) -> tuple[Any, Any]:
    """(``searchsorted(sorted_values, needles, 'left')``, ``... 'right'``) as int64.

    On the host, binary searches for needles in random order into a large array are cache-miss bound
    (about 10x slower than for sorted needles at a million rows), so the needles are sorted first and
    the answers scattered back; a small array (it stays in cache) and the device search directly."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(sorted_values, needles)
    if not is_device_array(needles) and len(needles) >= 4096:
        table = _bounds_by_table(sorted_values, needles)
        if table is not None:
            return table
    if is_device_array(needles) or len(needles) < 4096 or len(sorted_values) <= 1 << 16:
        lo = xp.searchsorted(sorted_values, needles, side="left")
        hi = xp.searchsorted(sorted_values, needles, side="right")
        return lo.astype(xp.int64, copy=False), hi.astype(xp.int64, copy=False)
    order = xp.argsort(needles)
    ordered = needles[order]
    lo = xp.empty(len(needles), dtype=xp.int64)
    hi = xp.empty(len(needles), dtype=xp.int64)
    lo[order] = xp.searchsorted(sorted_values, ordered, side="left")
    hi[order] = xp.searchsorted(sorted_values, ordered, side="right")
    return lo, hi


def _bounds_by_table(sorted_values: Any, needles: Any) -> tuple[Any, Any] | None:
    """Host: both searchsorted sides through a table over the value range of a sorted integer array
    whose range is small (join keys: dense ranks, small id ranges), one gather per needle instead of a
    binary search; None when the range is too wide or the dtypes are not integers of one kind."""

    n = len(sorted_values)
    if not n or np.result_type(sorted_values.dtype, needles.dtype).kind != "i":
        return None
    low, high = int(sorted_values[0]), int(sorted_values[-1])
    span = high - low + 1
    if span > max(4 * n, 1 << 16):
        return None
    counts = np.bincount((sorted_values - sorted_values.dtype.type(low)).astype(np.intp), minlength=span)
    table_hi = np.cumsum(counts, dtype=np.int64)  # sorted values <= each slot's value: one counting pass
    table_lo = table_hi - counts
    inside = (needles >= low) & (needles <= high)
    with np.errstate(over="ignore"):
        slot = np.where(inside, needles.astype(np.int64) - low, 0)
    outside = np.where(needles < low, 0, n).astype(np.int64)
    return np.where(inside, table_lo[slot], outside), np.where(inside, table_hi[slot], outside)


# --- variable-length rows (used by column.string) ----------------------------------------------------


def take_strings(offsets: Any, chars: Any, indices: Any) -> tuple[Any, Any]:
    """(offsets, bytes) of the rows ``indices`` of a string layout (int64 offsets, UTF-8 bytes).

    Host: Arrow's take, which copies whole strings. Device: new offsets by a scan of the lengths and
    one vectorized gather of the bytes."""

    from ember.backend.arrays import array_module

    xp = array_module(offsets, indices)
    if xp is np and indices.shape[0] > 1024:
        import pyarrow as pa

        n = offsets.shape[0] - 1
        buffers = (np.ascontiguousarray(offsets, dtype=np.int64), np.ascontiguousarray(chars))
        values = pa.LargeStringArray.from_buffers(n, pa.py_buffer(buffers[0]), pa.py_buffer(buffers[1]))
        taken = values.take(pa.array(indices, type=pa.int64()))
        out_offsets = np.frombuffer(taken.buffers()[1], dtype=np.int64, count=len(taken) + 1)
        data = taken.buffers()[2]
        out_chars = np.frombuffer(data, dtype=np.uint8)[: int(out_offsets[-1])] if data is not None else None
        if out_chars is None:
            out_chars = np.zeros(0, dtype=np.uint8)
        return out_offsets, out_chars
    starts = offsets[:-1][indices]
    new_offsets = xp.zeros(indices.shape[0] + 1, dtype=np.int64)
    xp.cumsum(offsets[1:][indices] - starts, out=new_offsets[1:])
    return new_offsets, gather_bytes(chars, starts, new_offsets)


def gather_bytes(chars: Any, starts: Any, offsets: Any, total: int | None = None) -> Any:
    """Bytes of rows whose sources begin at ``starts`` into the packed layout given by ``offsets``
    (``total``: ``offsets[-1]`` when the caller has read it; else one sync). On the device a warp
    copies each row (``kernels.bytes``); on the host each byte's source is indexed."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(chars, offsets)
    total = int(offsets[-1]) if total is None else total
    if total == 0:
        return xp.zeros(0, dtype=np.uint8)
    if is_device_array(chars):
        from ember.backend.kernels.bytes import gather_rows

        return gather_rows(chars, starts, offsets, total)
    row = repeat_positions(offsets[1:] - offsets[:-1], offsets[1:], total)
    return chars[starts[row] + (xp.arange(total, dtype=np.int64) - offsets[row])]


# --- selection (used by ml.neighbors / ml.cluster) -----------------------------------------------------


def smallest_k(d: Any, k: int, col_bias: Any = None) -> tuple[Any, Any]:
    """(values, indices) of the ``k`` smallest entries of each row of 2-D ``d`` (plus ``col_bias``, one
    value per column, when given), ascending, ties by index.

    NumPy: argpartition then a sort of the k survivors. On the device, float rows and k <= 16 go
    through a top-k kernel (``kernels/topk.cu``, one read of the matrix); otherwise CuPy's argpartition
    sorts whole rows, so for small ``k`` the device takes k argmin passes (no host sync)."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(d)
    n_rows, n_cols = d.shape
    k = min(k, n_cols)
    if k == 0:
        return d[:, :0], xp.zeros((n_rows, 0), dtype=xp.int64)
    if is_device_array(d) and d.dtype in (xp.float32, xp.float64) and d.flags.c_contiguous:
        from ember.backend.kernels.topk import MAX_K, row_smallest_k

        if k <= MAX_K:  # one read of the matrix, the bias added as read (the passes below read it k times)
            return row_smallest_k(d, k, col_bias)
    if col_bias is not None:
        d = d + col_bias[None, :]
    if is_device_array(d) and k <= 16:
        work = d.copy()
        rows = xp.arange(n_rows)
        idx = xp.empty((n_rows, k), dtype=xp.int64)
        for j in range(k):
            idx[:, j] = xp.argmin(work, axis=1)
            work[rows, idx[:, j]] = xp.inf
        return xp.take_along_axis(d, idx, axis=1), idx
    if k < n_cols:
        # ties at the k-th value go to the lowest indices: keep everything below it, then the first
        # (k - #below) entries equal to it, in index order (np.nonzero is row-major)
        kth = xp.partition(d, k - 1, axis=1)[:, k - 1 : k]
        below = d < kth
        equal = d == kth
        need = k - below.sum(axis=1, keepdims=True)
        take = below | (equal & (xp.cumsum(equal, axis=1) <= need))
        part = xp.nonzero(take)[1].reshape(n_rows, k)
    else:
        part = xp.broadcast_to(xp.arange(n_cols), (n_rows, n_cols))
    vals = xp.take_along_axis(d, part, axis=1)
    order = _row_lexsort(vals, part, xp)
    idx = xp.take_along_axis(part, order, axis=1).astype(xp.int64, copy=False)
    return xp.take_along_axis(vals, order, axis=1), idx


def argmin_rows(d: Any, col_bias: Any = None) -> tuple[Any, Any]:
    """(index, value) of the first minimum of each row of 2-D ``d`` (plus ``col_bias``, one value per
    column, when given), as ``argmin(axis=1)``: NaN is the minimum. The device reads ``d`` once, a warp
    per row (``kernels/topk.cu``); NumPy, the reference, adds the bias into a temporary first."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(d)
    if is_device_array(d) and d.dtype in (xp.float32, xp.float64) and d.flags.c_contiguous:
        from ember.backend.kernels.topk import row_argmin

        return row_argmin(d, col_bias)
    if col_bias is not None:
        d = d + col_bias[None, :]
    idx = d.argmin(axis=1)
    return idx.astype(xp.int64, copy=False), xp.take_along_axis(d, idx[:, None], axis=1)[:, 0]


def _row_lexsort(vals: Any, part: Any, xp: Any) -> Any:
    """Per-row order by (value, index): sort indices first, then a stable sort on values."""
    by_index = xp.argsort(part, axis=1)
    v = xp.take_along_axis(vals, by_index, axis=1)
    stable = xp.argsort(v, axis=1, kind="stable") if xp.__name__ == "numpy" else xp.argsort(v, axis=1)
    return xp.take_along_axis(by_index, stable, axis=1)


# --- fused NaN-skipping reductions (ops.reductions: df.x.mean() is one pass per result) ----------------

_NAN_KERNELS: dict[str, Any] = {}


def _nan_kernels() -> tuple[Any, Any]:
    """Two CuPy ReductionKernels: the sum of the non-NaN values, and their count (no temporaries)."""
    if not _NAN_KERNELS:
        import cupy as cp

        _NAN_KERNELS["sum"] = cp.ReductionKernel(
            "T x", "T y", "x == x ? x : (T)0", "a + b", "y = a", "0", "ember_nansum"
        )
        _NAN_KERNELS["count"] = cp.ReductionKernel(
            "T x", "int64 y", "x == x ? 1 : 0", "a + b", "y = a", "0", "ember_notnan_count"
        )
    return _NAN_KERNELS["sum"], _NAN_KERNELS["count"]


def nan_sum_count(x: Any) -> tuple[Any, Any]:
    """(sum of the non-NaN values, their count) of a float array, as 0-d arrays of its module.

    On the device: two fused reduction passes and no temporaries (vs isnan + where + sum)."""
    from ember.backend.arrays import is_device_array

    if not is_device_array(x):
        total = x.sum()
        if total == total:  # no NaN took part (NaN or inf - inf would show): every value counts
            return total, np.int64(x.shape[0])
        return np.nansum(x), np.count_nonzero(x == x)
    nansum, count = _nan_kernels()
    return nansum(x), count(x)


# --- one-hot blocks (ml.cluster: per-cluster row sums as batched GEMMs) --------------------------------

_ONEHOT_KERNEL: dict[str, Any] = {}


def block_onehot(labels: Any, weights: Any, k: int, block_rows: int) -> Any:
    """(n / block_rows, k, block_rows) array H with H[b, c, r] = weights[i] if labels[i] == c else 0, for
    row i = b * block_rows + r (len(labels) a multiple of block_rows): each block's one-hot transposed,
    laid out so ``H @ X.reshape(blocks, block_rows, p)`` is a plain strided batch of GEMMs. The device
    writes it in one pass; NumPy (the reference) compares by broadcasting."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(labels)
    n = labels.shape[0]
    blocks = n // block_rows
    if not is_device_array(labels):
        lab = labels.reshape(blocks, 1, block_rows)
        hot = lab == np.arange(k, dtype=labels.dtype)[None, :, None]
        return np.where(hot, weights.reshape(blocks, 1, block_rows), weights.dtype.type(0))
    if not _ONEHOT_KERNEL:
        _ONEHOT_KERNEL["k"] = xp.ElementwiseKernel(
            "raw I labels, raw T w, int64 k, int64 b",
            "T out",
            "long long r = i % b; long long t = i / b; long long row = (t / k) * b + r;"
            "out = labels[row] == (I)(t % k) ? w[row] : (T)0;",
            "ember_block_onehot",
        )
    out = xp.empty((blocks, k, block_rows), dtype=weights.dtype)
    _ONEHOT_KERNEL["k"](labels, weights, np.int64(k), np.int64(block_rows), out)
    return out


# --- float floor division and modulo with NumPy's semantics (ops.binary) -------------------------------

_DIVMOD_KERNEL: dict[str, Any] = {}

# NumPy's npy_divmod: CuPy's floor_divide/remainder differ for infinities (inf // 2 is inf there, NaN in
# NumPy and pandas), so the device computes the same formula explicitly.
_DIVMOD_SOURCE = """
    double m = fmod(a, b);
    if (b == 0) { out_div = a / b; out_mod = m; }
    else {
        double div = (a - m) / b;
        if (m != 0) { if ((b < 0) != (m < 0)) { m += b; div -= 1.0; } }
        else { m = copysign(0.0, b); }
        double fd;
        if (div != 0) { fd = floor(div); if (div - fd > 0.5) fd += 1.0; }
        else { fd = copysign(0.0, a / b); }
        out_div = fd; out_mod = m;
    }
"""


def float_divmod(a: Any, b: Any) -> tuple[Any, Any]:
    """(a // b, a % b) for floats with NumPy's results (NaN for inf // x, sign rules of Python)."""
    from ember.backend.arrays import array_module

    xp = array_module(a, b)
    if xp.__name__ == "numpy":
        with np.errstate(all="ignore"):
            return np.floor_divide(a, b), np.remainder(a, b)
    if not _DIVMOD_KERNEL:
        _DIVMOD_KERNEL["k"] = xp.ElementwiseKernel(
            "float64 a, float64 b", "float64 out_div, float64 out_mod", _DIVMOD_SOURCE, "ember_float_divmod"
        )
    dtype = xp.result_type(a, b)
    div, mod = _DIVMOD_KERNEL["k"](xp.asarray(a, dtype="float64"), xp.asarray(b, dtype="float64"))
    return div.astype(dtype, copy=False), mod.astype(dtype, copy=False)


# --- short moving windows (used by ops.window) ---------------------------------------------------------

# Longest window read directly, per backend: the device kernel beats the prefix sums' dozen full-column
# passes up to ~1k rows; NumPy's offset loop pays one full pass per offset, so only tiny windows there.
_DIRECT_WINDOW_LIMIT = {"device": 1024, "host": 8}


def direct_window_limit(xp: Any) -> int:
    """The longest window ``window_moments`` should be used for on the backend of module ``xp``."""
    return _DIRECT_WINDOW_LIMIT["host" if xp is np else "device"]


def window_moments(values: Any, start: Any, end: Any, max_len: int) -> tuple[Any, ...]:
    """(nobs, sum, mean, m2, min, max) of each window ``values[start[i]:end[i]]`` (every window at most
    ``max_len`` rows) of a float64 array with NaN for missing values: the valid count (int64), their
    sum, their mean (exactly the value when all valid values are equal), the sum of squared deviations
    from that mean (0 then), min and max (NaN, like the mean, for a window with no valid value).

    Device: one kernel (``kernels/window.cu``). NumPy: a loop over the ``max_len`` offsets, summing in
    the kernel's order."""
    from ember.backend.arrays import array_module, is_device_array

    if is_device_array(values):
        from ember.backend.kernels.window import window_moments as kernel

        return kernel(values, start, end)
    xp = array_module(values)
    n, size = start.shape[0], values.shape[0]
    cnt = xp.zeros(n, dtype=np.int64)
    tot = xp.zeros(n, dtype=np.float64)
    lo, hi = xp.full(n, np.inf), xp.full(n, -np.inf)
    for x, ok in _window_offsets(values, start, end, max_len, size):
        cnt += ok
        tot += xp.where(ok, x, 0.0)
        lo = xp.where(ok, xp.fmin(lo, x), lo)
        hi = xp.where(ok, xp.fmax(hi, x), hi)
    has = cnt > 0
    constant = has & (lo == hi)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = xp.where(constant, lo, xp.where(has, tot / xp.maximum(cnt, 1), np.nan))
    m2 = xp.zeros(n, dtype=np.float64)
    for x, ok in _window_offsets(values, start, end, max_len, size):
        d = xp.where(ok & ~constant, x - mean, 0.0)
        m2 += d * d
    return cnt, tot, mean, m2, xp.where(has, lo, np.nan), xp.where(has, hi, np.nan)


def _window_offsets(values: Any, start: Any, end: Any, max_len: int, size: int) -> Any:
    """For each offset k < max_len: (values[start + k] clipped into range, inside the window and valid)."""
    if size == 0:
        return
    for k in range(max_len):
        pos = start + k
        x = values[np.minimum(pos, size - 1)]
        yield x, (pos < end) & (x == x)


# --- ASCII case mapping (used by ops.strings) ---------------------------------------------------------

_ASCII_CASE_KERNEL: dict[str, Any] = {}


def ascii_case(chars: Any, to_lower: bool, to_upper: bool) -> Any | None:
    """UTF-8 bytes with ASCII letters lower-cased (``to_lower``) and/or upper-cased (``to_upper``; both:
    swapped), or None when a byte is not ASCII (the caller decodes then). On the device: one fused pass
    that also flags non-ASCII bytes, and one sync to read the flag."""
    from ember.backend.arrays import is_device_array

    if not is_device_array(chars):
        if chars.shape[0] and bool((chars >= 0x80).any()):
            return None
        upper, lower = (chars >= 65) & (chars <= 90), (chars >= 97) & (chars <= 122)
        out = np.where(upper & to_lower, chars + np.uint8(32), chars)
        return np.where(lower & to_upper, chars - np.uint8(32), out).astype(np.uint8)
    import cupy as cp

    if "k" not in _ASCII_CASE_KERNEL:
        _ASCII_CASE_KERNEL["k"] = cp.ElementwiseKernel(
            "uint8 c, int32 lo, int32 up",
            "uint8 out, raw int32 bad",  # an output, so that the kernel may write the flag
            """
            if (c >= 128) { if (bad[0] == 0) atomicOr(&bad[0], 1); }
            out = (lo && c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32)
                : (up && c >= 'a' && c <= 'z') ? (unsigned char)(c - 32) : c;
            """,
            "ember_ascii_case",
        )
    bad = cp.zeros(1, dtype=np.int32)
    out = cp.empty_like(chars)
    if chars.shape[0]:
        _ASCII_CASE_KERNEL["k"](chars, np.int32(to_lower), np.int32(to_upper), out, bad)
    return None if int(bad[0]) else out

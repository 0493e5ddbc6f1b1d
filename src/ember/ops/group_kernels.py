"""Per-group reductions of a Grouping's value arrays, with no Python loop over rows or groups.

Rows whose key is dropped (code -1) are sent to an extra "dump" group ``ngroups`` in every scatter, so no
filtering (and no device sync) is needed; the dump slot is sliced off at the end. Sums, means, counts and
variances are scatter-adds (``bincount`` with weights); min/max are scatter-min/max; median, quantile
and nunique sort the values within groups (two stable sorts); prod and the cumulative transforms are
segmented scans over the rows sorted by group (log-depth doubling, one sync for the longest group).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.backend import array_module
from ember.backend.kernels.segment import segment_count, segment_sum, segment_sum_int
from ember.backend.primitives import narrow_unsigned, scatter_add, scatter_max, scatter_min, stable_argsort
from ember.column import Column
from ember.ops.grouping import Grouping
from ember.ops.sort import key_and_nulls


def group_count(g: Grouping, valid: Any) -> Any:
    if valid is None:
        return g.sizes[: g.ngroups]  # cached with the grouping
    return segment_count(g.scatter_target(valid), g.ngroups + 1)[: g.ngroups]


def group_sum(g: Grouping, values: Any, valid: Any) -> Any:
    """Sum per group: exact int64/uint64 scatter-add for integers, float64 bincount otherwise."""
    xp = g.xp
    if values.dtype.kind == "f":
        w = (
            values.astype(np.float64, copy=False)
            if valid is None
            else xp.where(valid, values, 0).astype(np.float64)
        )
        return segment_sum(g.seg, w, g.ngroups + 1)[: g.ngroups]
    acc = np.uint64 if values.dtype.kind == "u" else np.int64
    v = values.astype(acc)
    v = v if valid is None else xp.where(valid, v, acc(0))
    few = segment_sum_int(g.seg, v, g.ngroups + 1)  # few groups on the device: shared-memory sums
    if few is not None:
        return few[: g.ngroups]
    out = xp.zeros(g.ngroups + 1, dtype=acc)
    scatter_add(out, g.seg, v)
    return out[: g.ngroups]


def group_mean(g: Grouping, values: Any, valid: Any, count: Any) -> Any:
    xp = g.xp
    s = group_sum(g, values.astype(np.float64) if values.dtype.kind != "f" else values, valid)
    return s / xp.where(count > 0, count, 1)


def group_var(g: Grouping, values: Any, valid: Any, count: Any, ddof: int) -> Any:
    """Two passes over each group's values shifted by the group's smallest one: a constant group's
    deviations are exactly 0 (its variance 0, as pandas' Welford gives), not rounding noise."""
    xp = g.xp
    v = values.astype(np.float64, copy=False)
    shift = xp.zeros(g.ngroups + 1, dtype=np.float64)
    smallest = group_extreme(g, v, valid, "min")
    shift[: g.ngroups] = xp.where((count > 0) & xp.isfinite(smallest), smallest, 0.0)
    v = v - shift[g.seg]
    mean = xp.zeros(g.ngroups + 1, dtype=np.float64)
    mean[: g.ngroups] = group_mean(g, v, valid, count)
    dev = v - mean[g.seg]
    if valid is not None:
        dev = xp.where(valid, dev, 0.0)
    ss = segment_sum(g.seg, dev * dev, g.ngroups + 1)[: g.ngroups]
    denom = count - ddof
    return xp.where(denom > 0, ss / xp.where(denom > 0, denom, 1), xp.nan)


def group_skew(g: Grouping, values: Any, valid: Any, count: Any) -> Any:
    """pandas' bias-corrected skewness per group from the central moments M2 and M3 (two passes):
    n * sqrt(n - 1) / (n - 2) * M3 / M2 ** 1.5; NaN below 3 values and for constant groups."""
    xp = g.xp
    v = values.astype(np.float64, copy=False)
    mean = xp.zeros(g.ngroups + 1, dtype=np.float64)
    mean[: g.ngroups] = group_mean(g, v, valid, count)
    dev = v - mean[g.seg]
    if valid is not None:
        dev = xp.where(valid, dev, 0.0)
    sq = dev * dev
    m2 = segment_sum(g.seg, sq, g.ngroups + 1)[: g.ngroups]
    m3 = segment_sum(g.seg, sq * dev, g.ngroups + 1)[: g.ngroups]
    m2 = xp.where(xp.abs(m2) < 1e-14, 0.0, m2)  # rounding noise of a constant group, as nanops'
    m3 = xp.where(xp.abs(m3) < 1e-14, 0.0, m3)
    n = count.astype(np.float64)
    ok = (count >= 3) & (m2 > 0)
    safe_n = xp.where(ok, n, 3.0)
    safe_m2 = xp.where(ok, m2, 1.0)
    out = safe_n * xp.sqrt(safe_n - 1) / (safe_n - 2) * m3 / safe_m2**1.5
    return xp.where(ok, out, xp.nan)


def extreme_values(values: Any, op: str) -> tuple[Any, Any]:
    """(values in a dtype the scatter primitives take, the identity of ``op`` in that dtype)."""
    if values.dtype.kind == "f":
        return values, (np.inf if op == "min" else -np.inf)
    acc = np.uint64 if values.dtype.kind == "u" else np.int64
    info = np.iinfo(acc)
    return values.astype(acc), acc(info.max if op == "min" else info.min)


def group_extreme(g: Grouping, key: Any, valid: Any, op: str) -> Any:
    xp = g.xp
    v, ident = extreme_values(key, op)
    out = xp.full(g.ngroups + 1, ident, dtype=v.dtype)
    if valid is not None:
        v = xp.where(valid, v, v.dtype.type(ident))
    (scatter_min if op == "min" else scatter_max)(out, g.seg, v)
    return out[: g.ngroups]


def arg_rows(g: Grouping, hit: Any, last: bool = False) -> Any:
    """First (or last) row position per group among rows where ``hit``; -1 where none."""
    xp = g.xp
    n = g.nrows
    pos = xp.arange(n, dtype=np.int64)
    out = xp.full(g.ngroups + 1, -1 if last else n, dtype=np.int64)
    (scatter_max if last else scatter_min)(out, g.scatter_target(hit), pos)
    out = out[: g.ngroups]
    return out if last else xp.where(out < n, out, -1)


def arg_extreme(g: Grouping, col: Column, op: str) -> Any:
    """Row of the first occurrence of each group's min/max (-1 for groups with no valid value)."""
    key, nulls = key_and_nulls(col)
    if key.dtype.kind == "b":
        key = key.astype(np.int64)
    valid = None if nulls is None else ~nulls
    ext = group_extreme(g, key, valid, op)
    xp = g.xp
    full = xp.concatenate([ext, ext[:1] if g.ngroups else xp.zeros(1, ext.dtype)])
    hit = extreme_values(key, op)[0] == full[g.seg]
    if valid is not None:
        hit &= valid
    return arg_rows(g, hit)


def _within_sorted(g: Grouping, key: Any, valid: Any) -> Any:
    """Row order by (group, missing last, key): a sort by key, then a stable sort by group. The first
    need not be stable (equal keys are interchangeable for quantiles and distinct counts), which lets
    NumPy use its faster quicksort. The group keys are built in the narrowest unsigned type that holds
    2 * groups + 2 (radix passes and temporaries scale with the key's bytes)."""
    xp = g.xp
    k = key if valid is None else xp.where(valid, key, key.dtype.type(0))
    order = xp.argsort(k.view(np.uint8) if k.dtype.kind == "b" else k).astype(np.int64, copy=False)
    del k
    bound = 2 * g.ngroups + 2
    outer = g.seg.astype(narrow_unsigned(bound))
    outer *= outer.dtype.type(2)
    if valid is not None:
        outer += (~valid).astype(outer.dtype)
    return order[stable_argsort(outer[order], bound=bound)]


def temporal_mean_ticks(g: Grouping, ticks: Any, valid: Any, count: Any) -> Any:
    """Each group's mean time as pandas computes it: every int64 tick made a float64, their
    compensated float64 sum over the count, truncated to an int64. Groups of at most ``_KAHAN_ROWS``
    rows repeat pandas' Kahan sum step by step (one sync: the longest group); longer ones sum the
    float64 ticks (integers) exactly in two int64 parts, the high and the low 32 bits of each tick,
    rounded once to float64 when the parts are put together (Kahan's sum is almost always that)."""
    xp = g.xp
    if ticks.shape[0] == 0:
        return xp.zeros(g.ngroups, dtype=np.int64)
    as_float = ticks.astype(np.float64)
    big = float(2**63)
    longest = int(g.sizes[: g.ngroups].max()) if g.ngroups else 0
    if longest <= _KAHAN_ROWS:
        total = _kahan_group_sum(g, as_float, valid, longest)
    else:
        ticks = xp.where(
            as_float >= big, np.iinfo(np.int64).max, as_float.astype(np.int64)
        )  # float64's ticks
        high = ticks >> 32  # arithmetic shift: floor(ticks / 2**32)
        low = ticks - (high << 32)  # in [0, 2**32)
        high_sum = group_sum(g, high, valid).astype(np.float64)
        total = high_sum * float(2**32) + group_sum(g, low, valid).astype(np.float64)
    mean = total / xp.where(count > 0, count, 1)
    return xp.trunc(xp.clip(mean, -big, float(np.iinfo(np.int64).max))).astype(np.int64)


_KAHAN_ROWS = 64


def _kahan_group_sum(g: Grouping, values: Any, valid: Any, longest: int) -> Any:
    """pandas' compensated (Kahan) float64 sum of each group's values in row order, step by step over
    the groups at once: one pass per row of the longest group (short groups only)."""
    xp = g.xp
    order, start, sizes = g.order, g.offsets[: g.ngroups], g.sizes[: g.ngroups]
    total = xp.zeros(g.ngroups, dtype=np.float64)
    comp = xp.zeros(g.ngroups, dtype=np.float64)
    last = max(int(order.shape[0]) - 1, 0)
    for k in range(longest):
        rows = order[xp.minimum(start + k, last)]
        take = k < sizes
        if valid is not None:
            take = take & valid[rows]
        y = values[rows] - comp
        t = total + y
        c = (t - total) - y
        comp = xp.where(take, xp.where(c == c, c, 0.0), comp)
        total = xp.where(take, t, total)
    return total


def group_quantile(g: Grouping, col: Column, q: float, count: Any, temporal: bool, median: bool) -> Any:
    xp = g.xp
    key, nulls = key_and_nulls(col)
    valid = None if nulls is None else ~nulls
    order = _within_sorted(g, key, valid)
    sv = key[order]
    start = g.offsets[: g.ngroups]
    h = (xp.maximum(count, 1) - 1) * q
    lo = xp.floor(h).astype(np.int64)
    hi = xp.minimum(lo + 1, xp.maximum(count - 1, 0))
    frac = h - lo
    last = max(len(sv) - 1, 0)
    if len(sv) == 0:
        return xp.zeros(g.ngroups, dtype=np.float64)
    a = sv[xp.minimum(start + lo, last)]
    b = sv[xp.minimum(start + hi, last)]
    if temporal:  # pandas: the median / quantile of the ticks as float64, cast back (truncated)
        af, bf = a.astype(np.float64), b.astype(np.float64)
        r = xp.where(frac > 0, (af + bf) / 2.0, af) if median else af + (bf - af) * frac
        return r.astype(np.int64)
    a, b = a.astype(np.float64), b.astype(np.float64)
    if median:
        return xp.where(frac > 0, (a + b) / 2.0, a)
    with np.errstate(invalid="ignore"):  # pandas: a quantile on a value is that value (infinities too)
        return xp.where(frac > 0, a + (b - a) * frac, a)


def group_nunique(g: Grouping, col: Column, dropna: bool) -> Any:
    xp = g.xp
    key, nulls = key_and_nulls(col)
    valid = None if nulls is None else ~nulls
    order = _within_sorted(g, key, valid)
    sseg = g.seg[order]
    ks = key[order]
    vs = xp.ones(len(order), dtype=bool) if valid is None else valid[order]
    start = vs.copy()
    if len(order) > 1:
        start[1:] &= (sseg[1:] != sseg[:-1]) | (ks[1:] != ks[:-1]) | ~vs[:-1]
    out = segment_count(xp.where(start, sseg, g.ngroups), g.ngroups + 1)[: g.ngroups]
    if not dropna and valid is not None:
        out = out + (group_count(g, ~valid) > 0)
    return out.astype(np.int64)


def seg_scan(values: Any, sorted_seg: Any, op: Any, max_len: int) -> Any:
    """Inclusive scan with ``op`` (a binary ufunc) within runs of equal ``sorted_seg``: log-depth
    doubling (Hillis-Steele), ceil(log2(max_len)) vectorized steps."""
    xp = array_module(values)
    out = values
    d = 1
    while d < max_len:
        new = out.copy()
        same = sorted_seg[d:] == sorted_seg[:-d]
        new[d:] = xp.where(same, op(out[d:], out[:-d]), out[d:])
        out = new
        d *= 2
    return out


def group_prod(g: Grouping, values: Any, valid: Any) -> Any:
    xp = g.xp
    acc = np.float64 if values.dtype.kind == "f" else (np.uint64 if values.dtype.kind == "u" else np.int64)
    v = values.astype(acc)
    if valid is not None:
        v = xp.where(valid, v, acc(1))
    scanned = seg_scan(v[g.order], g.sorted_seg, xp.multiply, g.max_size)
    ends = g.offsets[1 : g.ngroups + 1] - 1
    sizes = g.sizes[: g.ngroups]
    if len(scanned) == 0:
        return xp.ones(g.ngroups, dtype=acc)
    return xp.where(sizes > 0, scanned[xp.maximum(ends, 0)], acc(1))

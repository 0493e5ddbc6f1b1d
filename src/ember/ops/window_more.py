"""More moving-window kernels over the windows of ``ops.window.Windows`` (rows ``[start, end)``):
first / last valid value, count of distinct values, rank of the window's last value, skewness,
kurtosis and the co-moments behind cov / corr. No Python loop over rows or windows.

* first / last: the first valid row at or after ``start`` / the last valid row before ``end``.
* nunique: row ``j`` is counted in window ``i`` when it is the window's first row holding its value,
  i.e. ``prev[j] < start[i] <= j < end[i]`` (``prev[j]``: the previous row with the same value). With
  non-decreasing ``start`` and ``end`` (every window kind here) those windows are one contiguous range of
  ``i``, so each row adds +1/-1 to a difference array: exact, O(n log n), any window length.
* rank: the windows gathered into a padded matrix (chunks of ~2**24 values, as the quantile), compared
  with the last value of the window.
* skew / kurt / cov: central moments. Windows of a known short length (``max_len``) are read directly,
  one pass for the mean and one for the centred powers; longer windows use prefix sums of powers of the
  values shifted by their global mean, turned into central moments (pandas' online sums have the same
  cancellation). A window whose valid values are all equal has zero moments (pandas 3.1: NaN skew/kurt).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember._compat import PANDAS_31
from ember.backend import array_module
from ember.backend.primitives import cummax, direct_window_limit, stable_argsort
from ember.column import NumericColumn
from ember.ops._common import ffill_index
from ember.ops.window import _CHUNK, MAX_SORT_WINDOW, Windows, _prefix, _wsum

RANK_METHODS = ("average", "min", "max")


def _out(xp: Any, res: Any, enough: Any) -> NumericColumn:
    return NumericColumn(xp.where(enough, res, np.nan).astype(np.float64))


def last_valid(w: Windows) -> Any:
    """Position of the last valid row of each window (``start - 1`` when the window has none)."""
    xp = w.xp
    n = w.values.shape[0]
    if n == 0:
        return w.start - 1
    last = cummax(xp.where(w.valid, xp.arange(n, dtype=np.int64), -1))
    before_end = last[xp.clip(w.end - 1, 0, n - 1)]
    return xp.where((w.end > 0) & (before_end >= w.start), before_end, w.start - 1)


def first_last(w: Windows, which: str, min_periods: int) -> NumericColumn:
    """The first (``which='first'``) or last valid value of every window."""
    xp = w.xp
    n = w.values.shape[0]
    if n == 0:
        return NumericColumn(xp.zeros(w.start.shape[0], dtype=np.float64))
    pos = w.first_valid() if which == "first" else last_valid(w)
    has = (pos >= w.start) & (pos < w.end)
    res = w.values[xp.clip(pos, 0, n - 1)]
    return _out(xp, res, has & (w.nobs >= min_periods))


def _previous_equal(values: Any, valid: Any) -> Any:
    """For every row, the previous row holding the same valid value (-1 where none; 0.0 == -0.0)."""
    xp = array_module(values)
    n = values.shape[0]
    prev = xp.full(n, -1, dtype=np.int64)
    if n < 2:
        return prev
    order = stable_argsort(xp.where(valid, values, np.inf))
    sv, sok = values[order], valid[order]
    same = sok[1:] & sok[:-1] & (sv[1:] == sv[:-1])
    prev[order[1:]] = xp.where(same, order[:-1], -1)
    return prev


def nunique(w: Windows, min_periods: int) -> NumericColumn:
    """Distinct valid values per window (windows with non-decreasing ``start`` and ``end``)."""
    xp = w.xp
    m = w.start.shape[0]
    n = w.values.shape[0]
    rows = xp.arange(n, dtype=np.int64)
    prev = _previous_equal(w.values, w.valid)
    first_window = xp.searchsorted(w.start, prev, side="right")  # start[i] > prev[j]
    past_window = xp.searchsorted(w.start, rows, side="right")  # start[i] > j: row j is before i
    reach = xp.searchsorted(w.end, rows, side="right")  # end[i] > j: row j is inside i
    lo = xp.maximum(first_window, reach)
    ok = w.valid & (lo < past_window)
    diff = xp.bincount(xp.where(ok, lo, m), minlength=m + 1)[: m + 1].astype(np.int64)
    diff = diff - xp.bincount(xp.where(ok, past_window, m), minlength=m + 1)[: m + 1]
    counts = xp.cumsum(diff)[:m].astype(np.float64)
    return _out(xp, counts, w.nobs >= min_periods)


def rank(
    w: Windows, min_periods: int, method: str = "average", ascending: bool = True, pct: bool = False
) -> NumericColumn:
    """Rank of every window's last value among the window's valid values (NaN where that value is
    missing), ties by ``method``; ``pct`` divides by the valid count. Synchronizes once."""
    if method not in RANK_METHODS:
        raise ValueError(f"method must be one of {RANK_METHODS}, got {method!r}")
    xp = w.xp
    m, n = w.start.shape[0], w.values.shape[0]
    out = xp.full(m, np.nan, dtype=np.float64)
    if m == 0 or n == 0:
        return NumericColumn(out)
    width = int((w.end - w.start).max())
    if width <= 0:
        return NumericColumn(out)
    if width > MAX_SORT_WINDOW:
        raise NotImplementedError(
            f"rolling rank: windows longer than {MAX_SORT_WINDOW} rows are not supported (the longest has {width})"
        )
    v = w.values if ascending else -w.values
    cols = xp.arange(width, dtype=np.int64)
    step = max(1, _CHUNK // width)
    below = xp.zeros(m, dtype=np.float64)
    equal = xp.zeros(m, dtype=np.float64)
    for lo in range(0, m, step):  # chunks of windows bound the padded matrix
        hi = min(m, lo + step)
        idx = w.start[lo:hi, None] + cols[None, :]
        mat = xp.where(idx < w.end[lo:hi, None], v[xp.minimum(idx, n - 1)], np.nan)
        x = v[xp.clip(w.end[lo:hi] - 1, 0, n - 1)][:, None]
        below[lo:hi] = (mat < x).sum(axis=1)
        equal[lo:hi] = (mat == x).sum(axis=1)
    if method == "min":
        res = below + 1
    elif method == "max":
        res = below + equal
    else:
        res = below + (equal + 1) / 2
    res = xp.where(w.valid[xp.clip(w.end - 1, 0, n - 1)], res, np.nan)
    res = _as_pandas_carries(xp, w.start, w.end, res)
    nobs = w.nobs
    if pct:
        with np.errstate(divide="ignore", invalid="ignore"):
            res = res / nobs
    return _out(xp, res, nobs >= min_periods)


def _as_pandas_carries(xp: Any, start: Any, end: Any, fresh_rank: Any) -> Any:
    """pandas' online rank is set when a row enters the window (the rank of the last row added, NaN
    for a missing one); a window that adds no row (a centred window's tail, an empty window) keeps the
    previous window's rank, 0 before any."""
    m = start.shape[0]
    prev_end = xp.concatenate([xp.full(1, -1, dtype=np.int64), end[:-1]])
    reset = start >= prev_end
    fresh = xp.where(reset, end > start, end > prev_end)
    src = ffill_index(xp, fresh)
    carried = fresh_rank[xp.maximum(src, 0)]
    return xp.where(src >= 0, carried, 0.0) if m else fresh_rank


# --- central moments ---------------------------------------------------------------------------------


def _offsets(w: Windows, values: Any, valid: Any) -> Any:
    """For each offset k of a short window: (value at start + k, inside the window and valid)."""
    n = values.shape[0]
    xp = w.xp
    for k in range(w.max_len):
        pos = w.start + k
        at = xp.minimum(pos, n - 1)
        yield values[at], (pos < w.end) & valid[at]


def _window_reference(w: Windows) -> Any:
    """Each window's first valid value: deviations from it are exact for values close together, so
    a window's mean relative to it keeps the digits a plain sum of large values would round away."""
    n = w.values.shape[0]
    ref = w.values[w.xp.minimum(w.first_valid(), n - 1)]
    return w.xp.where(w.xp.isnan(ref), 0.0, ref)


def _direct(w: Windows) -> bool:
    return w.max_len is not None and w.max_len <= direct_window_limit(w.xp) and w.values.shape[0] > 0


def central_moments(w: Windows, order: int) -> tuple[Any, ...]:
    """(nobs, m2, m3[, m4]) of every window: sums of the powers of the deviations of its valid values
    from their mean (zero for a window whose valid values are all equal)."""
    xp = w.xp
    nobs = w.nobs
    nf = nobs.astype(np.float64)
    if _direct(w):
        ref = _window_reference(w)
        total = xp.zeros(nobs.shape[0], dtype=np.float64)
        for x, ok in _offsets(w, w.values, w.valid):
            total += xp.where(ok, x - ref, 0.0)
        mean = total / xp.maximum(nf, 1.0)
        sums = [xp.zeros_like(total) for _ in range(order - 1)]
        for x, ok in _offsets(w, w.values, w.valid):
            d = xp.where(ok, (x - ref) - mean, 0.0)
            p = d * d
            for i in range(order - 1):
                sums[i] += p
                p = p * d
    else:
        d = xp.where(w.valid, w.values - w.center, 0.0)
        raw = [_wsum(_prefix(xp, d**k, np.float64), w.start, w.end) for k in range(1, order + 1)]
        mu = raw[0] / xp.maximum(nf, 1.0)
        s2 = raw[1] - nf * mu * mu
        sums = [xp.maximum(s2, 0.0)]
        if order >= 3:
            sums.append(raw[2] - 3 * mu * raw[1] + 2 * nf * mu**3)
        if order >= 4:
            sums.append(raw[3] - 4 * mu * raw[2] + 6 * mu * mu * raw[1] - 3 * nf * mu**4)
    flat = w.constant()
    return (nobs, *[xp.where(flat, 0.0, s) for s in sums])


def skew(w: Windows, min_periods: int) -> NumericColumn:
    """pandas' bias-corrected skewness: n * sqrt(n - 1) / (n - 2) * m3 / m2 ** 1.5 (NaN below 3 values
    and for windows of equal values)."""
    xp = w.xp
    nobs, m2, m3 = central_moments(w, 3)
    n = nobs.astype(np.float64)
    ok = (nobs >= 3) & (m2 > 0)
    sn, sm2 = xp.where(ok, n, 3.0), xp.where(ok, m2, 1.0)
    res = sn * xp.sqrt(sn - 1.0) / (sn - 2.0) * (m3 / (sm2 * xp.sqrt(sm2)))
    if not PANDAS_31:
        res, ok = _pandas30_degenerate(w, res, ok, nobs, m2, 3, 0.0)
    return _out(xp, res, ok & (nobs >= min_periods))


def _pandas30_degenerate(w: Windows, res: Any, ok: Any, nobs: Any, m2: Any, need: int, flat: float) -> tuple:
    """pandas 3.0's rolling skew / kurt: a window of equal values gives ``flat`` (0, or -3 for kurt),
    one whose variance is within 1e-14 NaN (pandas 3.1 gives NaN for the first, a value for the
    second)."""
    xp = w.xp
    enough = nobs >= need
    equal = enough & w.constant()
    low = m2 / xp.maximum(nobs, 1).astype(np.float64) <= 1e-14
    return xp.where(equal, flat, res), (ok & ~low) | equal


def kurt(w: Windows, min_periods: int) -> NumericColumn:
    """pandas' bias-corrected excess kurtosis: (n - 1) / ((n - 2)(n - 3)) * (n(n + 1) m4 / m2**2 -
    3(n - 1)) (NaN below 4 values and for windows of equal values)."""
    xp = w.xp
    nobs, m2, _, m4 = central_moments(w, 4)
    n = nobs.astype(np.float64)
    ok = (nobs >= 4) & (m2 > 0)
    sn, sm2 = xp.where(ok, n, 4.0), xp.where(ok, m2, 1.0)
    inner = sn * (sn + 1.0) * (m4 / (sm2 * sm2)) - 3.0 * (sn - 1.0)
    res = (sn - 1.0) / ((sn - 2.0) * (sn - 3.0)) * inner
    if not PANDAS_31:
        res, ok = _pandas30_degenerate(w, res, ok, nobs, m2, 4, -3.0)
    return _out(xp, res, ok & (nobs >= min_periods))


def sem(w: Windows, min_periods: int, ddof: int = 1) -> NumericColumn:
    """pandas' ``std(ddof) / sqrt(count)`` (count: the non-missing rows, infinities included)."""
    from ember.ops.window import window_aggregate

    std = window_aggregate(w, "std", min_periods, ddof=ddof).data
    count = window_aggregate(w, "count", min_periods).data
    with np.errstate(divide="ignore", invalid="ignore"):
        return NumericColumn((std / w.xp.sqrt(count)).astype(np.float64))


def comoment(wx: Windows, wy: Windows) -> tuple[Any, Any]:
    """(joint valid count, sum of (x - mean x)(y - mean y)) per window, where ``wx`` and ``wy`` hold the
    same windows over two columns whose missing rows are shared (as pandas aligns them)."""
    xp = wx.xp
    nobs = wx.nobs
    nf = nobs.astype(np.float64)
    if _direct(wx):
        rx, ry = _window_reference(wx), _window_reference(wy)
        sx = xp.zeros(nobs.shape[0], dtype=np.float64)
        sy = xp.zeros_like(sx)
        pairs = zip(_offsets(wx, wx.values, wx.valid), _offsets(wy, wy.values, wy.valid))
        for (x, ok), (y, _) in pairs:
            sx += xp.where(ok, x - rx, 0.0)
            sy += xp.where(ok, y - ry, 0.0)
        mx, my = sx / xp.maximum(nf, 1.0), sy / xp.maximum(nf, 1.0)
        cxy = xp.zeros_like(sx)
        pairs = zip(_offsets(wx, wx.values, wx.valid), _offsets(wy, wy.values, wy.valid))
        for (x, ok), (y, _) in pairs:
            cxy += xp.where(ok, ((x - rx) - mx) * ((y - ry) - my), 0.0)
    else:
        dx = xp.where(wx.valid, wx.values - wx.center, 0.0)
        dy = xp.where(wy.valid, wy.values - wy.center, 0.0)
        sx = _wsum(_prefix(xp, dx, np.float64), wx.start, wx.end)
        sy = _wsum(_prefix(xp, dy, np.float64), wx.start, wx.end)
        sxy = _wsum(_prefix(xp, dx * dy, np.float64), wx.start, wx.end)
        cxy = sxy - sx * sy / xp.maximum(nf, 1.0)
    flat = wx.constant() | wy.constant()
    return nobs, xp.where(flat, 0.0, cxy)


def cov(wx: Windows, wy: Windows, min_periods: int, ddof: int = 1) -> NumericColumn:
    """Rolling covariance of two aligned columns: the co-moment over (n - ddof), NaN below
    ``min_periods`` joint values (and for a single value)."""
    xp = wx.xp
    nobs, cxy = comoment(wx, wy)
    denom = (nobs - ddof).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        res = cxy / denom
    return _out(xp, res, nobs >= max(min_periods, 1))


def corr(wx: Windows, wy: Windows, min_periods: int, ddof: int = 1) -> NumericColumn:
    """Rolling correlation of two aligned columns; NaN where either window's values are all equal."""
    xp = wx.xp
    nobs, cxy = comoment(wx, wy)
    _, sxx = comoment(wx, wx)
    _, syy = comoment(wy, wy)
    ok = (nobs >= max(min_periods, 1)) & (nobs > ddof) & (sxx > 0) & (syy > 0)
    res = cxy / xp.sqrt(xp.where(ok, sxx * syy, 1.0))
    return _out(xp, res, ok)


__all__ = ["RANK_METHODS", "corr", "cov", "first_last", "kurt", "nunique", "rank", "sem", "skew"]

"""Moving-window kernels: rolling / expanding / exponentially weighted, on arrays of any length, with
no Python loop over rows or windows.

Every window is a half-open row range ``[start, end)`` (pandas' window indexers): fixed windows,
time-offset windows (``searchsorted`` of the window bounds on the sorted ticks), expanding windows and
their per-group variants all reduce to the two arrays ``start`` and ``end``; the reductions then work
for any of them:

* sum / mean / count / var / std: prefix sums. Integer and bool inputs sum exactly in int64; floats are
  shifted by their global mean first (so the prefix stays small where the data sit far from zero);
  infinities are missing values, as pandas makes them before its kernels. Variance uses
  the shifted sums of squares, clamped at zero; a window of equal values (no gap) gives exactly 0 (and
  its mean exactly that value), as pandas' online algorithm does. Limit: the prefix-sum
  difference loses ~``eps * |prefix|`` absolute precision, so for data with a huge spread of magnitude
  (values ~1e15 next to ~1) results differ from pandas beyond 1e-7 relative.
* min / max: a sparse table built one level at a time (log2(longest window) elementwise passes, O(n)
  memory): the answer for a window of length L combines two overlapping power-of-two blocks. Expanding
  windows use running extremes instead.
* median / quantile: the windows are gathered into a padded (rows x longest window) matrix, in chunks of
  about 2**24 values, and sorted along the rows (NaN last). Limit: the longest window must be at most
  ``MAX_SORT_WINDOW`` rows (raises NotImplementedError otherwise).
* ewm: the weighted means are first-order linear recurrences ``y[t] = a[t] * y[t-1] + b[t]`` solved by a
  log-depth doubling scan on (a, b) pairs: every coefficient is a decay factor <= 1 or a ratio of
  weights, so nothing overflows however long the series (no rebasing needed, unlike a closed form
  with ``(1 - alpha) ** -t``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.backend import array_module
from ember.backend.primitives import cummax, cummin, direct_window_limit, window_moments
from ember.column import Column, NumericColumn

OPS = ("sum", "mean", "count", "min", "max", "var", "std", "median", "quantile")
CLOSED = ("right", "left", "both", "neither")
INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")
MAX_SORT_WINDOW = 1 << 16
_CHUNK = 1 << 24


# --- window bounds -----------------------------------------------------------------------------------


def _check_closed(closed: str | None, fn: str) -> str:
    closed = "right" if closed is None else closed
    if closed not in CLOSED:
        raise ValueError(f"{fn}: closed must be 'right', 'left', 'both' or 'neither', got {closed!r}")
    return closed


def fixed_bounds(
    pos: Any, size: Any, base: Any, window: int, center: bool = False, closed: str | None = None
) -> tuple[Any, Any]:
    """(start, end) of integer windows (pandas' FixedWindowIndexer): row ``pos`` (0-based position
    within its group of ``size`` rows, whose first row is at ``base``) covers the ``window`` rows ending
    at it (``center``: centered on it), trimmed to the group; ``closed`` adds/removes an end row."""
    xp = array_module(pos)
    closed = _check_closed(closed, "rolling")
    offset = (window - 1) // 2 if (center or window == 0) else 0
    end = pos + 1 + offset
    start = end - window
    if closed in ("left", "both"):
        start = start - 1
    if closed in ("left", "neither"):
        end = end - 1
    end = xp.clip(end, 0, size)
    start = xp.clip(start, 0, size)
    return (start + base).astype(np.int64), (end + base).astype(np.int64)


def rolling_bounds(
    n: int, window: int, center: bool = False, closed: str | None = None, xp: Any = np
) -> tuple[Any, Any]:
    """(start, end) of integer windows over ``n`` rows."""
    pos = xp.arange(n, dtype=np.int64)
    return fixed_bounds(pos, n, 0, window, center, closed)


def expanding_bounds(n: int, xp: Any = np) -> tuple[Any, Any]:
    """(start, end) of expanding windows: every row sees all rows up to it."""
    return xp.zeros(n, dtype=np.int64), xp.arange(1, n + 1, dtype=np.int64)


def _lower(t: Any, window: int, center: bool, left_closed: bool) -> tuple[Any, str]:
    """The window's lower time bound and the searchsorted side that finds its first row (pandas: the
    first row with time > t - window, or > t - window - 1 tick when left-closed; ``t`` is doubled when
    centered, where the bound is t - window/2)."""
    if not center:
        return t - window, ("left" if left_closed else "right")
    return (t - window - 2, "right") if left_closed else (t - window, "right")


def time_bounds(key: Any, window: int, center: bool = False, closed: str | None = None) -> tuple[Any, Any]:
    """(start, end) of time-offset windows (pandas' VariableWindowIndexer) over rows whose ticks ``key``
    (int64) are non-decreasing. Not centered, ends are row based (``i + 1``, or ``i`` when the right
    end is open) as in pandas: a duplicate timestamp later in the index is not in an earlier row's
    window; right-open windows end before the first row at the row's time. Centered windows compare doubled ticks (pandas' bound t + window/2 is a float)."""
    xp = array_module(key)
    closed = _check_closed(closed, "rolling")
    n = key.shape[0]
    left_closed = closed in ("left", "both")
    right_closed = closed in ("right", "both")
    t = key * 2 if center else key
    lower, side = _lower(t, window, center, left_closed)
    start = xp.searchsorted(t, lower, side=side)
    if center:
        end = xp.searchsorted(t, t + window, side="right" if right_closed else "left")
    elif right_closed:
        end = xp.arange(1, n + 1, dtype=np.int64)
    else:  # right-open: rows at the same time as this one are out too
        end = xp.searchsorted(t, t, side="left")
    return start.astype(np.int64), end.astype(np.int64)


def grouped_time_bounds(
    seg: Any, ticks: Any, window: int, center: bool = False, closed: str | None = None
) -> tuple[Any, Any]:
    """Time-offset windows within groups: rows sorted by (``seg``, ``ticks``), ticks non-decreasing in
    each group. Every search runs on the combined key ``seg * (n + 1) + rank``, where ``rank`` is the
    number of times (of all rows) below a time, so one ``searchsorted`` serves every group."""
    xp = array_module(ticks)
    closed = _check_closed(closed, "rolling")
    n = ticks.shape[0]
    if n == 0:
        return xp.zeros(0, dtype=np.int64), xp.zeros(0, dtype=np.int64)
    t = ticks * 2 if center else ticks
    all_t = xp.sort(t)
    m = n + 1

    def key_of(times: Any, side: str) -> Any:
        return seg.astype(np.int64) * m + xp.searchsorted(all_t, times, side=side)

    key = key_of(t, "left")
    left_closed = closed in ("left", "both")
    right_closed = closed in ("right", "both")
    lower, side = _lower(t, window, center, left_closed)
    start = xp.searchsorted(key, key_of(lower, side), side="left")
    if center:
        end = xp.searchsorted(key, key_of(t + window, "right" if right_closed else "left"), side="left")
    elif right_closed:
        end = xp.arange(1, n + 1, dtype=np.int64)
    else:
        end = xp.searchsorted(key, key, side="left")
    return start.astype(np.int64), end.astype(np.int64)


# --- values ------------------------------------------------------------------------------------------


def float_values(col: Column) -> tuple[Any, Any]:
    """(values as float64 with NaN for missing, valid mask). pandas turns +/-inf into NaN before every
    window kernel (only ``count`` still counts them), so infinities are missing here too. Raises
    TypeError for non-numeric columns."""
    if not isinstance(col, NumericColumn):
        raise TypeError(f"Cannot aggregate non-numeric type: {col.dtype}")
    xp = col.xp
    v = col.data.astype(np.float64)
    if col.mask is not None:
        v = xp.where(col.mask, v, np.nan)
    valid = xp.isfinite(v)
    if v.dtype.kind == "f" and col.data.dtype.kind == "f":
        v = xp.where(valid, v, np.nan)
    return v, valid


def missing_as_float(col: Column, op: str) -> NumericColumn | None:
    """A string / object / categorical column as the float64 column pandas' windows see: for ``count``
    NaN where missing (only validity matters), for other ops only when it holds nothing but missing
    values (its float conversion succeeds then: all NaN); None otherwise."""
    from ember.column import CategoricalColumn, StringColumn

    if not isinstance(col, (StringColumn, CategoricalColumn)):
        return None
    missing = col.isna()
    if op != "count" and len(col) and not bool(missing.all()):
        return None
    return NumericColumn(col.xp.where(missing, np.nan, 1.0).astype(np.float64))


def _prefix(xp: Any, x: Any, dtype: Any) -> Any:
    out = xp.zeros(x.shape[0] + 1, dtype=dtype)
    if x.shape[0]:
        xp.cumsum(x, dtype=dtype, out=out[1:])
    return out


def _wsum(p: Any, start: Any, end: Any) -> Any:
    return p[end] - p[start]


class Windows:
    """Windows ``[start, end)`` over one column's values, caching the prefix sums reductions share."""

    def __init__(
        self,
        col: Column,
        start: Any,
        end: Any,
        expanding: bool = False,
        max_len: int | None = None,
        prefix_windows: bool = False,
    ) -> None:
        self.col = col
        self.xp = col.xp
        self.values, self.valid = float_values(col)
        self.start = start
        self.end = end
        self.expanding = expanding
        self.prefix_windows = prefix_windows
        self.exact_int = col.data.dtype.kind in "iub"
        self.max_len = max_len  # an upper bound of every window's length, when the caller knows one
        self._cache: dict[str, Any] = {}

    def moments(self) -> tuple[Any, ...] | None:
        """(nobs, sum, mean, m2, min, max) read directly from short windows of the values as float64
        (see ``primitives.window_moments``; pandas sums integers as float64 too), or None where the
        prefix sums serve better: long or unbounded windows."""
        if self.max_len is None or self.max_len > direct_window_limit(self.xp):
            return None

        def fn() -> Any:
            found = window_moments(self.values, self.start, self.end, self.max_len)
            self._cache.setdefault("nobs", found[0])
            return found

        return self._get("moments", fn)

    def _get(self, name: str, fn: Any) -> Any:
        if name not in self._cache:
            self._cache[name] = fn()
        return self._cache[name]

    @property
    def nobs(self) -> Any:
        """Valid values per window (int64)."""
        return self._get("nobs", lambda: _wsum(_prefix(self.xp, self.valid, np.int64), self.start, self.end))

    @property
    def nrows(self) -> Any:
        return self.end - self.start

    @property
    def nonmissing(self) -> Any:
        """Values per window that are not missing, infinities included (what ``count`` counts)."""

        def fn() -> Any:
            c = self.col
            ok = ~c.isna() if c.has_nulls_possible else self.xp.ones(len(c), dtype=bool)
            return _wsum(_prefix(self.xp, ok, np.int64), self.start, self.end)

        return self._get("nonmissing", fn)

    @property
    def center(self) -> Any:
        """The shift applied to float values before summing: the mean of the finite values."""

        def fn() -> Any:
            xp = self.xp
            fin = xp.isfinite(self.values)
            cnt = xp.maximum(fin.sum(), 1)
            return xp.where(fin, self.values, 0.0).sum() / cnt

        return self._get("center", fn)

    def _shifted(self) -> Any:
        xp = self.xp
        fin = xp.isfinite(self.values)
        return xp.where(fin, self.values - self.center, 0.0)

    def raw_sum(self) -> Any:
        """Sum of the valid values per window (float64)."""
        xp = self.xp
        if self.exact_int:
            # pandas sums the values as float64, so each integer is first rounded to float64 (2**63 - 1
            # reads 2**63); the rounded values are whole numbers, summed exactly here as int64 prefix
            # sums modulo 2**64, and a float64 estimate of each window's sum tells how many times
            # 2**64 it wrapped (a sum past the int64 range is a float beyond it, never a wrapped value)
            ints = _modular_int64(xp, xp.where(self.valid, self.values, 0.0))
            wrapped = _wsum(_prefix(xp, ints, np.int64), self.start, self.end).astype(np.float64)
            estimate = _wsum(
                _prefix(xp, xp.where(self.valid, self.values, 0.0), np.float64), self.start, self.end
            )
            return wrapped + xp.round((estimate - wrapped) / _TWO64) * _TWO64
        if self.prefix_windows:
            return compensated_scan(self.values, self.valid, self.start)
        s = _wsum(_prefix(xp, self._shifted(), np.float64), self.start, self.end)
        return s + self.nobs * self.center

    def first_valid(self) -> Any:
        """Position of the first valid row of each window (``end`` when the window has none)."""

        def fn() -> Any:
            xp = self.xp
            n = self.values.shape[0]
            pos = xp.where(self.valid, xp.arange(n, dtype=np.int64), n)
            following = cummin(pos[::-1])[::-1]  # the first valid row at or after each row
            following = xp.concatenate([following, xp.full(1, n, dtype=np.int64)])
            return xp.minimum(following[xp.minimum(self.start, n)], self.end)

        return self._get("first_valid", fn)

    def constant(self) -> Any:
        """True where the window holds at least one valid value and all its valid values are equal
        (missing rows skipped, as pandas' count of consecutive equal values): there pandas' mean is
        that value and its variance exactly 0, which sums of shifted squares only approach."""

        def fn() -> Any:
            xp = self.xp
            v, valid = self.values, self.valid
            n = v.shape[0]
            if n == 0:
                return xp.zeros(0, dtype=bool)
            last = cummax(xp.where(valid, xp.arange(n, dtype=np.int64), -1))  # last valid at or before
            before = xp.concatenate([xp.full(1, -1, dtype=np.int64), last[:-1]])
            chg = valid & ((before < 0) | ~(v == v[xp.maximum(before, 0)]))
            changes = _wsum(_prefix(xp, chg, np.int32), self.start, self.end)
            first = self.first_valid()
            has = first < self.end
            head = chg[xp.minimum(first, n - 1)] & has  # the first valid row's own change is outside
            return has & ((changes - head.astype(changes.dtype)) == 0)

        return self._get("constant", fn)

    def var(self, ddof: int = 1) -> Any:
        xp = self.xp
        if self.prefix_windows:
            nobs, m2 = welford_scan(self.values, self.valid, self.start)
            n = nobs.astype(np.float64)
            denom = n - ddof
            return xp.where(denom > 0, m2 / xp.where(denom > 0, denom, 1.0), np.nan)
        n = self.nobs.astype(np.float64)
        if self.exact_int:
            d = xp.where(self.valid, self.values - self.center, 0.0)
        else:
            d = self._shifted()
        s1 = _wsum(_prefix(xp, d, np.float64), self.start, self.end)
        s2 = _wsum(_prefix(xp, d * d, np.float64), self.start, self.end)
        nn = xp.maximum(n, 1.0)
        ss = xp.maximum(s2 - s1 * s1 / nn, 0.0)
        denom = n - ddof
        out = xp.where(denom > 0, ss / xp.where(denom > 0, denom, 1.0), np.nan)
        out = xp.where(self.constant() & (denom > 0), 0.0, out)
        return out

    def extreme(self, op: str) -> Any:
        xp = self.xp
        fill = np.inf if op == "min" else -np.inf
        v = xp.where(self.valid, self.values, fill)
        if self.expanding:
            return cummin(v) if op == "min" else cummax(v)
        return sparse_table_query(v, self.start, self.end, op)

    def quantile(self, q: float, interpolation: str = "linear") -> Any:
        return window_quantile(self.values, self.start, self.end, self.nobs, q, interpolation)


_TWO64 = float(2**64)


def _modular_int64(xp: Any, whole: Any) -> Any:
    """Whole float64 values in [-2**63, 2**64] as int64 congruent to them modulo 2**64 (a float at or
    past 2**63 does not convert to int64 directly; subtracting 2**64 from it is exact)."""
    return xp.where(whole >= 2.0**63, whole - _TWO64, whole).astype(np.int64)


def welford_scan(values: Any, valid: Any, start: Any) -> tuple[Any, Any]:
    """(count, sum of squared deviations from the mean) of the valid values of every window
    ``[start[i], i + 1)`` (expanding windows, per group or not), as pandas' online algorithm keeps them:
    Chan's pairwise combination of (count, mean, m2) in a log-depth doubling scan, so no large prefix
    sum cancels (a window of equal values has m2 exactly 0)."""
    xp = array_module(values)
    n = values.shape[0]
    cnt = valid.astype(np.float64)
    mean = xp.where(valid, values, 0.0)
    m2 = xp.zeros(n, dtype=np.float64)
    pos = xp.arange(n, dtype=np.int64)
    d = 1
    while d < n:
        take = xp.zeros(n, dtype=bool)
        take[d:] = pos[d:] - d >= start[d:]
        ca, ma, qa = cnt[:-d], mean[:-d], m2[:-d]
        cb, mb, qb = cnt[d:], mean[d:], m2[d:]
        tot = ca + cb
        safe = xp.where(tot > 0, tot, 1.0)
        delta = mb - ma
        nm = xp.where(ca == 0, mb, xp.where(cb == 0, ma, ma + delta * (cb / safe)))
        nq = qa + qb + xp.where((ca > 0) & (cb > 0), delta * delta * (ca * cb / safe), 0.0)
        t = take[d:]
        cnt = xp.concatenate([cnt[:d], xp.where(t, tot, cb)])
        mean = xp.concatenate([mean[:d], xp.where(t, nm, mb)])
        m2 = xp.concatenate([m2[:d], xp.where(t, nq, qb)])
        d *= 2
    return cnt.astype(np.int64), m2


def compensated_scan(values: Any, valid: Any, start: Any) -> Any:
    """Sum of the valid values of every window ``[start[i], i + 1)`` (expanding windows, per group
    or not), as pandas' compensated (Kahan) running sum keeps it: each partial sum is carried as an
    unevaluated pair (high + low part) through a log-depth doubling scan of error-free additions, so
    a small value after huge ones keeps its digits."""
    xp = array_module(values)
    n = values.shape[0]
    hi = xp.where(valid, values, 0.0).astype(np.float64)
    lo = xp.zeros(n, dtype=np.float64)
    pos = xp.arange(n, dtype=np.int64)
    d = 1
    while d < n:
        take = pos[d:] - d >= start[d:]
        s, err = _two_sum(xp, hi[:-d], hi[d:])
        err = err + (lo[:-d] + lo[d:])
        total = s + err
        fixed = err - (total - s)
        finite = xp.isfinite(total)
        total = xp.where(finite, total, s)  # an infinity or NaN carries no low part
        fixed = xp.where(finite, fixed, 0.0)
        hi = xp.concatenate([hi[:d], xp.where(take, total, hi[d:])])
        lo = xp.concatenate([lo[:d], xp.where(take, fixed, lo[d:])])
        d *= 2
    return hi + lo


def _two_sum(xp: Any, a: Any, b: Any) -> tuple[Any, Any]:
    """a + b as the rounded sum and its exact rounding error (Knuth's TwoSum)."""
    s = a + b
    bb = s - a
    err = (a - (s - bb)) + (b - bb)
    return s, xp.where(xp.isfinite(s), err, 0.0)


def sparse_table_query(v: Any, start: Any, end: Any, op: str) -> Any:
    """min/max of ``v[start:end]`` for every window; empty windows give the op's identity. One level of
    the table lives at a time: level j holds op over ``[i, i + 2**j)``; windows of length L read level
    floor(log2(L)). Synchronizes once (the longest window)."""
    xp = array_module(v)
    ufunc = xp.minimum if op == "min" else xp.maximum
    ident = np.inf if op == "min" else -np.inf
    n = v.shape[0]
    length = end - start
    out = xp.full(start.shape[0], ident, dtype=np.float64)
    if n == 0 or start.shape[0] == 0:
        return out
    longest = int(length.max())
    if longest <= 0:
        return out
    lg = xp.where(length > 0, xp.floor(xp.log2(xp.maximum(length, 1).astype(np.float64))), -1).astype(
        np.int64
    )
    one = np.int64(1)
    # guard float log2 rounding next to exact powers of two
    lg = xp.where((lg >= 0) & (xp.left_shift(one, lg + 1) <= length), lg + 1, lg)
    lg = xp.where((lg > 0) & (xp.left_shift(one, xp.maximum(lg, 0)) > length), lg - 1, lg)
    table = v
    j = 0
    while True:
        span = 1 << j
        hit = lg == j
        s = xp.minimum(start, n - 1)
        e = xp.clip(end - span, 0, n - 1)
        out = xp.where(hit, ufunc(table[s], table[e]), out)
        if 2 * span > longest:
            break
        nxt = table.copy()
        nxt[: n - span] = ufunc(table[: n - span], table[span:])
        table = nxt
        j += 1
    return out


def window_quantile(v: Any, start: Any, end: Any, nobs: Any, q: float, interpolation: str = "linear") -> Any:
    """The ``q`` quantile of the valid values of every window (pandas' interpolation rules), by sorting
    the windows gathered into a padded matrix. Synchronizes once (the longest window)."""
    xp = array_module(v)
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            f"rolling quantile: interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}"
        )
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"rolling quantile: q must be between 0 and 1, got {q}")
    m = start.shape[0]
    out = xp.full(m, np.nan, dtype=np.float64)
    n = v.shape[0]
    if m == 0 or n == 0:
        return out
    width = int((end - start).max())
    if width <= 0:
        return out
    if width > MAX_SORT_WINDOW:
        raise NotImplementedError(
            f"rolling median/quantile: windows longer than {MAX_SORT_WINDOW} rows are not "
            f"supported (the longest has {width})"
        )
    cols = xp.arange(width, dtype=np.int64)
    step = max(1, _CHUNK // width)
    for lo in range(0, m, step):  # chunks of rows bound the padded matrix; not a loop over windows
        hi = min(m, lo + step)
        idx = start[lo:hi, None] + cols[None, :]
        inwin = idx < end[lo:hi, None]
        mat = xp.where(inwin, v[xp.minimum(idx, n - 1)], np.nan)
        mat = xp.sort(mat, axis=1)
        out[lo:hi] = _pick(xp, mat, nobs[lo:hi], q, interpolation)
    return out


def _pick(xp: Any, mat: Any, cnt: Any, q: float, interpolation: str) -> Any:
    h = (xp.maximum(cnt, 1) - 1).astype(np.float64) * q
    lo = xp.floor(h).astype(np.int64)
    hi = xp.minimum(lo + 1, xp.maximum(cnt - 1, 0))
    frac = h - lo
    a = xp.take_along_axis(mat, lo[:, None], axis=1)[:, 0]
    b = xp.take_along_axis(mat, hi[:, None], axis=1)[:, 0]
    if interpolation == "linear":
        r = xp.where(frac > 0, a + (b - a) * frac, a)
    elif interpolation == "lower":
        r = a
    elif interpolation == "higher":
        r = xp.where(frac > 0, b, a)
    elif interpolation == "midpoint":
        r = xp.where(frac > 0, (a + b) / 2.0, a)
    else:  # nearest: round half to even on the position, as numpy/pandas
        r = xp.where((frac > 0.5) | ((frac == 0.5) & (lo % 2 == 1)), b, a)
    return xp.where(cnt > 0, r, np.nan)


# --- the reductions ----------------------------------------------------------------------------------


def window_aggregate(
    w: Windows, op: str, min_periods: int, *, ddof: int = 1, q: float = 0.5, interpolation: str = "linear"
) -> NumericColumn:
    """``op`` over every window, float64, NaN where the window has fewer than ``min_periods`` valid
    values (count: fewer than ``min_periods`` rows)."""
    xp = w.xp
    if op not in OPS:
        raise NotImplementedError(f"rolling: op {op!r} is not supported; supported: {OPS}")
    if op == "count":
        res = w.nonmissing.astype(np.float64)
        return NumericColumn(xp.where(w.nrows >= min_periods, res, np.nan))
    moments = w.moments() if op in _MOMENT_OPS else None  # fills w.nobs too
    nobs = w.nobs
    enough = nobs >= max(min_periods, 1)
    if moments is not None:
        res = _from_moments(moments, op, ddof)
        if op == "sum":
            enough = nobs >= min_periods
    elif op == "sum":
        res = w.raw_sum()
        enough = nobs >= min_periods
    elif op == "mean":
        res = w.raw_sum() / xp.maximum(nobs, 1)
        if not w.exact_int and w.values.shape[0]:
            rep = w.values[xp.minimum(w.first_valid(), w.values.shape[0] - 1)]
            res = xp.where(w.constant(), rep, res)
    elif op in ("var", "std"):
        res = w.var(ddof)
        if op == "std":
            res = xp.sqrt(res)
    elif op in ("min", "max"):
        res = w.extreme(op)
    else:
        # pandas' rolling median is the mean of the two middle values, (a + b) / 2
        res = w.quantile(0.5 if op == "median" else q, "midpoint" if op == "median" else interpolation)
    return NumericColumn(xp.where(enough, res, np.nan).astype(np.float64))


_MOMENT_OPS = ("sum", "mean", "var", "std", "min", "max")


def _from_moments(moments: tuple[Any, ...], op: str, ddof: int) -> Any:
    nobs, total, mean, m2, lo, hi = moments
    if op == "sum":
        return total
    if op == "mean":
        return mean
    if op == "min":
        return lo
    if op == "max":
        return hi
    xp = array_module(m2)
    denom = nobs - ddof
    var = xp.where(denom > 0, m2 / xp.where(denom > 0, denom, 1), np.nan)
    return xp.sqrt(var) if op == "std" else var


_NUMPY_REDUCTIONS = {
    "sum": ("sum", False),
    "nansum": ("sum", True),
    "mean": ("mean", False),
    "nanmean": ("mean", True),
    "min": ("min", False),
    "amin": ("min", False),
    "nanmin": ("min", True),
    "max": ("max", False),
    "amax": ("max", False),
    "nanmax": ("max", True),
    "median": ("median", False),
    "nanmedian": ("median", True),
    "std": ("std", False),
    "nanstd": ("std", True),
    "var": ("var", False),
    "nanvar": ("var", True),
}


def apply_reduction(w: Windows, func: Any, min_periods: int) -> NumericColumn:
    """``Rolling.apply(func, raw=True)`` for the NumPy reductions (np.sum, np.mean, np.min, np.max,
    np.median, np.std, np.var and their nan- forms, and Python's ``sum``/``min``/``max``): the plain
    forms give NaN for a window holding a NaN, as NumPy would; std/var use ddof=0 as NumPy does."""
    name = getattr(func, "__name__", None)
    if func in (sum, min, max):
        name = func.__name__
    if name not in _NUMPY_REDUCTIONS or (
        getattr(func, "__module__", "numpy") not in ("numpy", "builtins", None)
        and func not in (sum, min, max)
    ):
        raise NotImplementedError(
            f"rolling apply: func {func!r} is not supported; supported: the NumPy reductions "
            f"{sorted(_NUMPY_REDUCTIONS)} (np.<name>)"
        )
    op, nan_ok = _NUMPY_REDUCTIONS[name]
    xp = w.xp
    ddof = 0
    if op in ("std", "var"):
        res = window_aggregate(w, op, 1, ddof=ddof).data
    else:
        res = window_aggregate(w, op, 1).data
    has_nan = w.nobs < w.nrows
    if not nan_ok:
        res = xp.where(has_nan, np.nan, res)
    enough = (w.nobs >= max(min_periods, 1)) if min_periods > 0 else (w.nrows > 0)
    return NumericColumn(xp.where(enough, res, np.nan))


# --- exponentially weighted windows ------------------------------------------------------------------


def linear_scan(a: Any, b: Any) -> Any:
    """y[t] = a[t] * y[t-1] + b[t], y[-1] = 0, by log-depth doubling on the pairs (a, b)."""
    n = a.shape[0]
    A, B = a.copy(), b.copy()
    d = 1
    while d < n:
        nb = B.copy()
        nb[d:] = A[d:] * B[:-d] + B[d:]
        na = A.copy()
        na[d:] = A[d:] * A[:-d]
        A, B = na, nb
        d *= 2
    return B


def ewm_alpha(com: Any = None, span: Any = None, halflife: Any = None, alpha: Any = None) -> float:
    """pandas' decay parameter from exactly one of com / span / halflife / alpha."""
    given = [x is not None for x in (com, span, halflife, alpha)]
    if sum(given) > 1:
        raise ValueError("comass, span, halflife, and alpha are mutually exclusive")
    if com is not None:
        if com < 0:
            raise ValueError("comass must satisfy: comass >= 0")
        return 1.0 / (1.0 + com)
    if span is not None:
        if span < 1:
            raise ValueError("span must satisfy: span >= 1")
        return 2.0 / (span + 1.0)
    if halflife is not None:
        if not isinstance(halflife, (int, float, np.integer, np.floating)):
            raise NotImplementedError(
                "ewm: halflife as a time delta (with times=) is not supported; pass a number"
            )
        if halflife <= 0:
            raise ValueError("halflife must satisfy: halflife > 0")
        return 1.0 - float(np.exp(np.log(0.5) / halflife))
    if alpha is not None:
        if not 0 < alpha <= 1:
            raise ValueError("alpha must satisfy: 0 < alpha <= 1")
        return float(alpha)
    raise ValueError("Must pass one of comass, span, halflife, or alpha")


def _ewm_coefficients(
    valid: Any, alpha: float, adjust: bool, ignore_na: bool, deltas: Any = None
) -> tuple[Any, Any, Any]:
    """(c, d, decay) with mean[t] = c[t] * mean[t-1] + d[t] * x[t] (pandas' online update), and the
    per-step decay of the accumulated weights (1 - alpha, or 1 across missing rows with ignore_na).
    ``deltas`` (``times=``): the steps between rows in half-lives, each decaying by (1 - alpha) to
    that power instead of once."""
    xp = array_module(valid)
    n = valid.shape[0]
    f = 1.0 - alpha
    vf = valid.astype(np.float64)
    from ember.ops._common import ffill_index

    seen = ffill_index(xp, valid)  # last valid position at or before t
    prev_seen = xp.concatenate([xp.full(1, -1, dtype=np.int64), seen[:-1]]) if n else seen
    started = prev_seen >= 0
    step = xp.ones(n, dtype=np.float64)
    if deltas is not None and n:
        step = xp.concatenate([xp.zeros(1, dtype=np.float64), deltas.astype(np.float64)])
    applied = (valid & started) if ignore_na else started
    decay = xp.where(applied, f**step, 1.0)
    new_wt = 1.0 if adjust else alpha
    if adjust:
        # total weight D[t] = decay[t] * D[t-1] + valid[t]; old weight before adding x[t]
        total = linear_scan(decay, vf)
        old = total - vf
    else:
        # the weight of the history is reset to 1 at every observation, then decays to the next one
        elapsed = xp.cumsum(step)  # in steps (or half-lives) since the first row
        since = elapsed - elapsed[xp.maximum(prev_seen, 0)]
        exponent = xp.where(valid, step, 0.0) if ignore_na else since
        old = xp.where(started, f**exponent, 0.0)
        if deltas is not None:
            new_wt = 1.0 - old  # pandas: with times, the new value takes the weight the history lost
    denom = old + new_wt
    c = xp.where(valid, old / denom, 1.0)
    d = xp.where(valid, new_wt / denom, 0.0)
    return c, d, decay


def ewm_moments(
    values: Any, valid: Any, alpha: float, adjust: bool, ignore_na: bool, deltas: Any = None
) -> tuple[Any, Any, Any]:
    """(weighted mean, weighted variance (biased), bias factor) at every row."""
    xp = array_module(values)
    c, d, decay = _ewm_coefficients(valid, alpha, adjust, ignore_na, deltas)
    shift = xp.where(valid, values, 0.0).sum() / xp.maximum(valid.sum(), 1)  # stays on the device
    x = xp.where(valid, values - shift, 0.0)
    mean = linear_scan(c, d * x)
    m2 = linear_scan(c, d * x * x)
    var = xp.maximum(m2 - mean * mean, 0.0)
    vf = valid.astype(np.float64)
    if adjust:
        sw = linear_scan(decay, vf)
        sw2 = linear_scan(decay * decay, vf)
    else:
        sw = xp.ones_like(c)
        # normalized weights (pandas resets the history's weight to 1 at each observation); the
        # decay between observations scales both sums alike and leaves the bias factor unchanged
        sw2 = linear_scan(c * c, d * d)
    num = sw * sw
    den = num - sw2
    factor = xp.where(den > 0, num / xp.where(den > 0, den, 1.0), np.nan)
    return mean + shift, var, factor


def ewm_aggregate(
    col: Column,
    op: str,
    alpha: float,
    adjust: bool = True,
    ignore_na: bool = False,
    min_periods: int = 0,
    bias: bool = False,
    deltas: Any = None,
) -> NumericColumn:
    """``ExponentialMovingWindow.<op>`` (mean, sum, var, std) as pandas computes it (float64);
    ``deltas`` (the times between rows in half-lives) for ``times=``, which pandas takes for the
    mean only."""
    if op not in ("mean", "sum", "var", "std"):
        raise NotImplementedError(f"ewm: op {op!r} is not supported; supported: mean, sum, var, std")
    if deltas is not None and op != "mean":
        raise NotImplementedError(f"{op} is not implemented with times")
    values, valid = float_values(col)
    xp = col.xp
    n = values.shape[0]
    if n == 0:
        return NumericColumn(xp.zeros(0, dtype=np.float64))
    nobs = xp.cumsum(valid.astype(np.int64))
    if op == "sum":
        if not adjust:
            raise NotImplementedError("sum is not implemented with adjust=False")
        res = _ewm_sum(xp, values, valid, alpha, ignore_na)
    else:
        mean, var, factor = ewm_moments(values, valid, alpha, adjust, ignore_na, deltas)
        if op == "mean":
            res = mean
        else:
            v = var if bias else var * factor
            res = xp.sqrt(v) if op == "std" else v
            if not bias:
                res = xp.where(nobs >= 2, res, np.nan)
    res = xp.where((nobs >= max(min_periods, 1)), res, np.nan)
    return NumericColumn(res.astype(np.float64))


def _ewm_sum(xp: Any, values: Any, valid: Any, alpha: float, ignore_na: bool) -> Any:
    """pandas' ewm sum (adjust plays no part there): s[t] = (1 - alpha) * s[t-1] + x[t], decaying over
    missing rows unless ignore_na, the first observation starting the sum."""
    from ember.ops._common import ffill_index

    seen = ffill_index(xp, valid)
    prev_seen = xp.concatenate([xp.full(1, -1, dtype=np.int64), seen[:-1]])
    started = prev_seen >= 0
    f = 1.0 - alpha
    decay = xp.where(started & (valid | (not ignore_na)), f, 1.0)
    return linear_scan(decay, xp.where(valid, values, 0.0))


__all__ = [
    "CLOSED",
    "OPS",
    "Windows",
    "apply_reduction",
    "ewm_aggregate",
    "ewm_alpha",
    "expanding_bounds",
    "fixed_bounds",
    "grouped_time_bounds",
    "linear_scan",
    "rolling_bounds",
    "sparse_table_query",
    "time_bounds",
    "window_aggregate",
    "window_quantile",
]

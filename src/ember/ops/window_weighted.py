"""Weighted (``win_type``) rolling windows: sum, mean and var as pandas' ``roll_weighted_*`` compute
them, vectorised as ``len(weights)`` shifted multiply-adds over the whole column (no loop over rows).

pandas pads the values with ``offset`` trailing NaNs for a centred window and drops the first
``offset`` results; the callers here get the padded result trimmed the same way.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _padded(xp: Any, values: Any, valid: Any, offset: int) -> tuple[Any, Any]:
    if not offset:
        return values, valid
    pad = xp.full(offset, np.nan, dtype=np.float64)
    return xp.concatenate([values, pad]), xp.concatenate([valid, xp.zeros(offset, dtype=bool)])


def _shift_add(out: Any, contrib: Any, shift: int) -> None:
    """``out[i] += contrib[i - shift]`` for every i >= shift."""
    n = out.shape[0]
    if shift < n:
        out[shift:] += contrib[: n - shift]


def weighted_sum_mean(
    xp: Any, values: Any, valid: Any, weights: np.ndarray, min_periods: int, avg: bool, offset: int
) -> Any:
    """pandas' ``roll_weighted_sum`` / ``roll_weighted_mean``: the window ending at row i adds
    ``weights[k] * values[i - w + 1 + k]`` for k = 0 .. w - 1 in that order (the same float
    rounding), skipping missing values and NaN weights; NaN where fewer than ``max(min_periods, 1)``
    values were added (mean: also where their weights sum to 0)."""
    v, ok = _padded(xp, values, valid, offset)
    n, w = v.shape[0], len(weights)
    out = xp.zeros(n, dtype=np.float64)
    counts = xp.zeros(n, dtype=np.float64)
    total = xp.zeros(n, dtype=np.float64) if avg else None
    okf = ok.astype(np.float64)
    for k, wk in enumerate(weights.tolist()):
        if wk != wk:
            continue
        shift = w - 1 - k
        _shift_add(out, xp.where(ok, v * wk, 0.0), shift)
        _shift_add(counts, okf, shift)
        if avg:
            _shift_add(total, okf * wk, shift)
    res = out
    if avg:
        with np.errstate(all="ignore"):
            res = xp.where(total == 0, np.nan, out / xp.where(total == 0, 1.0, total))
    res = xp.where(counts < max(min_periods, 1), np.nan, res)
    return res[offset:]


def weighted_var(
    xp: Any, values: Any, valid: Any, weights: np.ndarray, min_periods: int, ddof: int, offset: int
) -> Any:
    """pandas' ``roll_weighted_var`` (West's weighted variance) in two passes. pandas gives row j the
    weight ``weights[j % w]`` (not the weight of its place in the window) and divides by
    ``(w - ddof) * sum_w / w``; NaN unless the window holds more than ``ddof`` and at least
    ``min_periods`` valid values, 0 for a single one. Weights must be positive: pandas' online
    update divides by the running weight sum."""
    v, ok = _padded(xp, values, valid, offset)
    n, w = v.shape[0], len(weights)
    row_w = xp.asarray(np.resize(weights, n) if n else np.zeros(0), dtype=np.float64)
    row_w = xp.where(ok, row_w, 0.0)
    x = xp.where(ok, v, 0.0)
    nobs, sum_w, sum_wx = (xp.zeros(n, dtype=np.float64) for _ in range(3))
    for shift in range(min(w, n)):
        _shift_add(nobs, ok.astype(np.float64), shift)
        _shift_add(sum_w, row_w, shift)
        _shift_add(sum_wx, row_w * x, shift)
    with np.errstate(all="ignore"):
        mean = sum_wx / xp.where(sum_w == 0, 1.0, sum_w)
        t = xp.zeros(n, dtype=np.float64)
        for shift in range(min(w, n)):
            dev = x[: n - shift] - mean[shift:]
            t[shift:] += row_w[: n - shift] * dev * dev
        var = xp.maximum(t * w / ((w - ddof) * sum_w), 0.0)
    var = xp.where(nobs == 1, 0.0, var)
    enough = (nobs >= min_periods) & (nobs > ddof)
    return xp.where(enough, var, np.nan)[offset:]

"""Pairwise statistics of numeric columns: ``DataFrame.cov`` / ``corr`` (pearson, spearman),
``Series.cov`` / ``corr``, with pairwise-complete observations as pandas."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.backend import to_host
from ember.column import (
    Column,
    NumericColumn,
)
from ember.ops.reductions import pandas_view
from ember.ops.row_reductions import valid_or_true


def _matrix(cols: list[Column]) -> tuple[Any, Any, Any]:
    """(n, k) float64 values (0 where missing), validity as float64 (None when complete), module."""
    xp = cols[0].xp
    vals, valids = [], []
    for c in cols:
        if not isinstance(c, NumericColumn):
            raise TypeError(f"corr/cov need numeric columns, got {c.dtype}")
        c = pandas_view(c)
        vals.append(c.data.astype(np.float64))
        valids.append(valid_or_true(c))
    x = xp.stack(vals, axis=1)
    v = xp.stack(valids, axis=1)
    complete = bool(v.all())  # one sync: picks the dense (BLAS) path
    if complete:
        return x, None, xp
    return xp.where(v, x, 0.0), v.astype(np.float64), xp


def _pairwise(x: Any, v: Any, xp: Any) -> tuple[Any, Any, Any, Any]:
    """Pairwise-complete count, co-moment and the two per-pair second moments (centered sums)."""
    if v is None:
        n = x.shape[0]
        xc = x - x.mean(axis=0) if n else x
        cross = xc.T @ xc
        nn = xp.full(cross.shape, n, dtype=np.float64)
        ssd = xp.diag(cross)
        return (
            nn,
            cross,
            xp.broadcast_to(ssd[:, None], cross.shape),
            xp.broadcast_to(ssd[None, :], cross.shape),
        )
    # center by each column's own mean first: smaller numbers, less cancellation below
    cnt = xp.maximum(v.sum(axis=0), 1)
    x = (x - (x.sum(axis=0) / cnt)) * v
    nn = v.T @ v
    s_ij = x.T @ v  # sum of column i over rows where j is valid
    p = x.T @ x
    q_ij = (x * x).T @ v
    with np.errstate(all="ignore"):
        cross = p - s_ij * s_ij.T / nn
        ssi = q_ij - s_ij * s_ij / nn
    return nn, cross, ssi, ssi.T


def cov_matrix(cols: list[Column], ddof: int = 1, min_periods: int | None = None) -> np.ndarray:
    """Pairwise covariance like ``DataFrame.cov`` (pairwise-complete rows when values are missing)."""
    if not cols:
        return np.zeros((0, 0))
    x, v, xp = _matrix(cols)
    if v is not None:
        ddof = 1  # pandas applies ddof only when nothing is missing (its pairwise kernel uses n - 1)
    nn, cross, _, _ = _pairwise(x, v, xp)
    with np.errstate(all="ignore"):
        out = cross / (nn - ddof)
    bad = (nn - ddof) <= 0
    if min_periods is not None:
        bad = bad | (nn < min_periods)
    return to_host(xp.where(bad, np.nan, out))


def corr_matrix(cols: list[Column], method: str = "pearson", min_periods: int = 1) -> np.ndarray:
    """Pearson (on the device) or Spearman (ranks, complete data only) correlation matrix."""
    if not cols:
        return np.zeros((0, 0))
    if method == "spearman":
        x, v, xp = _matrix(cols)
        if v is not None:
            raise NotImplementedError(
                "corr: method='spearman' with missing values is not supported; "
                "drop them first (dropna) or use method='pearson'"
            )
        x, v = _average_ranks(xp, x), None
    elif method == "pearson":
        x, v, xp = _matrix(cols)
    else:
        raise NotImplementedError(f"corr: method={method!r} is not supported; use 'pearson' or 'spearman'")
    nn, cross, ssi, ssj = _pairwise(x, v, xp)
    with np.errstate(all="ignore"):
        r = cross / xp.sqrt(ssi * ssj)
    r = xp.clip(r, -1.0, 1.0)
    bad = (nn < max(min_periods, 2)) | (ssi <= 0) | (ssj <= 0)
    return to_host(xp.where(bad, np.nan, r))


def _average_ranks(xp: Any, x: Any) -> Any:
    """Column-wise average ranks (ties share the mean of their positions), 1-based, as float64."""
    n, k = x.shape
    if n == 0:
        return x
    order = xp.argsort(x, axis=0)
    s = xp.take_along_axis(x, order, axis=0)
    new = xp.ones((n, k), dtype=bool)
    new[1:] = s[1:] != s[:-1]
    pos = xp.arange(n, dtype=np.float64)[:, None]
    start = _cummax_axis0(xp, xp.where(new, pos, 0.0))
    end = _flip_min(xp, _ends(xp, new), pos)
    avg = (start + end) / 2 + 1
    ranks = xp.empty_like(avg)
    xp.put_along_axis(ranks, order, avg, axis=0)
    return ranks


def _ends(xp: Any, new: Any) -> Any:
    end = xp.ones_like(new)
    end[:-1] = new[1:]
    return end


def _flip_min(xp: Any, ends: Any, pos: Any) -> Any:
    """Position of the last row of each tie group: a reverse running minimum of end positions."""
    big = float(ends.shape[0])
    vals = xp.where(ends, pos, big)[::-1]
    return -_cummax_axis0(xp, -vals)[::-1]


def _cummax_axis0(xp: Any, a: Any) -> Any:
    from ember.backend.primitives import cummax

    return cummax(a, axis=0)

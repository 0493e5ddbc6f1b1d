"""The Resampler's reindexing methods: ffill / bfill / nearest / asfreq (pandas reindexes the rows,
sorted by time, to the bins' edges), interpolate (over the union of the rows' times and the edges) and
quantile (an aggregation per bin).

pandas' target labels are the bins' edges on the ``closed`` side (``binner[1:]`` for closed='right',
``binner[:-1]`` for closed='left'), whatever ``label`` says: the bins' labels computed with
``label=closed``. Up- and downsampling take the same path: a reindex of the rows to those labels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import DatetimeColumn, NumericColumn, StringColumn
from ember.frame._fallback import unsupported
from ember.frame.index import Index

_UPSAMPLE_ON = (
    "Upsampling from level= or on= selection is not supported, use .set_index(...) "
    "to explicitly set index to datetime-like"
)
#: pandas' interpolation methods (pandas.core.missing NP_METHODS + SP_METHODS)
_ON_INDEX = ("time", "index", "values")
_SCIPY_METHODS = (
    "nearest",
    "zero",
    "slinear",
    "quadratic",
    "cubic",
    "barycentric",
    "krogh",
    "spline",
    "polynomial",
    "from_derivatives",
    "piecewise_polynomial",
    "pchip",
    "akima",
    "cubicspline",
)


# --- the rows sorted by time, the target labels ---------------------------------------------------------


def _validate_limit(limit: Any) -> int | None:
    """pandas' ``validate_limit``."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)):
        raise ValueError("Limit must be an integer")
    if limit < 1:
        raise ValueError("Limit must be greater than 0")
    return int(limit)


def _sorted_rows(r: Any, fn: str) -> tuple[Any, Any]:
    """(times sorted, the row of each): pandas sorts the rows by time (stably) before resampling.
    Raises pandas' error for duplicate times (reindexing needs unique labels). One sync."""
    from ember.backend import to_host
    from ember.backend.primitives import stable_argsort

    col: DatetimeColumn = r._tcol
    xp = col.xp
    t = col.data.astype(np.int64)
    order = stable_argsort(t)
    ts = t[order]
    nat = xp.zeros((), dtype=bool) if col.mask is None else ~col.mask.all()
    dup = (ts[1:] == ts[:-1]).any() if len(t) > 1 else xp.zeros((), dtype=bool)
    flags = to_host(xp.stack([xp.asarray(nat, dtype=bool), xp.asarray(dup, dtype=bool)]))
    if flags[0]:
        raise unsupported(f"Resampler.{fn}", "an index holding NaT")
    if flags[1]:
        raise ValueError("cannot reindex on an axis with duplicate labels")
    return ts, order


def _check_rule(r: Any, fn: str) -> None:
    """pandas bins a tz-aware index by calendar days (normalized ends, one day added either side)
    where ``ops.resample`` bins by 24-hour ticks: the same bins only for 'D' closed='left'."""
    import pandas as pd

    off = pd.tseries.frequencies.to_offset(r._rule)
    if r._tcol.tz is not None and type(off).__name__ == "Day" and (off.n != 1 or r._closed == "right"):
        raise unsupported(f"Resampler.{fn}", "a tz-aware index with a 'D' rule other than 'D' closed='left'")


def _target(r: Any) -> Any:
    """The bins' edges on the ``closed`` side, as int64 ticks of the index's unit."""
    from ember.frame.resample_more import make_bins

    if r._label == r._closed:
        return r._g.uniques[0].data.astype(np.int64)
    g = make_bins(r._tcol, r._rule, r._closed, r._closed, r._origin, r._offset)
    return g.uniques[0].data.astype(np.int64)


def _target_index(r: Any, labels: Any) -> Index:
    col = r._tcol
    return Index._from_column(DatetimeColumn(labels, col.unit, col.tz), r.obj.index.name)


# --- reindex positions (pandas' libalgos pad / backfill and Index._get_nearest_indexer) ----------------


def _exact(xp: Any, ts: Any, labels: Any) -> tuple[Any, Any]:
    n = ts.shape[0]
    p = xp.searchsorted(ts, labels, side="left")
    hit = (p < n) & (ts[xp.minimum(p, n - 1)] == labels)
    return p, hit


def _pad(xp: Any, ts: Any, labels: Any, limit: int | None) -> Any:
    """The last row at or before each label; with ``limit``, only the first ``limit`` labels after a
    row (an exact match does not count) take it."""
    pos = xp.searchsorted(ts, labels, side="right") - 1
    if limit is not None:
        _, hit = _exact(xp, ts, labels)
        j = xp.arange(labels.shape[0], dtype=np.int64)
        first_after = xp.searchsorted(labels, ts[xp.maximum(pos, 0)], side="right")
        pos = xp.where(hit | (j - first_after + 1 <= limit), pos, -1)
    return pos


def _backfill(xp: Any, ts: Any, labels: Any, limit: int | None) -> Any:
    n = ts.shape[0]
    pos = xp.searchsorted(ts, labels, side="left")
    pos = xp.where(pos < n, pos, -1)
    if limit is not None:
        _, hit = _exact(xp, ts, labels)
        j = xp.arange(labels.shape[0], dtype=np.int64)
        last_before = xp.searchsorted(labels, ts[xp.maximum(pos, 0)], side="left")
        pos = xp.where(hit | (last_before - j <= limit), pos, -1)
    return pos


def _nearest(xp: Any, ts: Any, labels: Any, limit: int | None) -> Any:
    """The nearer of pad and backfill, backfill on a tie (pandas measures a -1 against the last row,
    as NumPy's indexing does)."""
    left, right = _pad(xp, ts, labels, limit), _backfill(xp, ts, labels, limit)
    last = ts.shape[0] - 1
    ld = xp.abs(labels - ts[xp.where(left < 0, last, left)])
    rd = xp.abs(labels - ts[xp.where(right < 0, last, right)])
    return xp.where((ld < rd) | (right < 0), left, right)


def _positions(xp: Any, ts: Any, labels: Any, method: str | None, limit: int | None) -> Any:
    if method == "ffill":
        pos = _pad(xp, ts, labels, limit)
    elif method == "bfill":
        pos = _backfill(xp, ts, labels, limit)
    elif method == "nearest":
        pos = _nearest(xp, ts, labels, limit)
    else:
        p, hit = _exact(xp, ts, labels)
        pos = xp.where(hit, p, -1)
    return pos.astype(np.int64)


def _take_rows(col: Any, rows: Any, any_missing: bool, fill_value: Any = None) -> Any:
    """A reindex's rows (-1: a label without a row); a column keeps its dtype when every label has a
    row, as pandas'."""
    from ember.frame.timeseries import _take_fill

    if not any_missing:
        return col.take(rows)
    return _take_fill(col, rows, fill_value)


# --- the methods --------------------------------------------------------------------------------------


def _empty(r: Any, fn: str) -> Any:
    """pandas answers a resample of no rows with the rows themselves (the dtypes kept)."""
    from ember.frame.timeseries import _items, _rewrap

    if r.on is not None:
        raise unsupported(f"Resampler.{fn}", "no rows with on=")
    return _rewrap(r.obj, dict(_items(r.obj)), r.obj.index)


def upsample(r: Any, method: str | None, limit: Any = None, fill_value: Any = None) -> Any:
    """``obj.reindex(edges, method=, limit=, fill_value=)`` on the rows sorted by time."""
    from ember.backend import to_host
    from ember.frame.timeseries import _rewrap

    if r.on is not None:
        raise ValueError(_UPSAMPLE_ON)
    limit = _validate_limit(limit)
    if len(r._tcol) == 0:
        return _empty(r, method or "asfreq")
    _check_rule(r, method or "asfreq")
    ts, order = _sorted_rows(r, method or "asfreq")
    xp = r._tcol.xp
    labels = _target(r)
    pos = _positions(xp, ts, labels, method, limit)
    any_missing = bool(to_host((pos < 0).any())) if pos.shape[0] else False
    rows = xp.where(pos < 0, -1, order[xp.maximum(pos, 0)]) if pos.shape[0] else pos
    cols = {k: _take_rows(c, rows, any_missing, fill_value) for k, c in r._values()}
    return _rewrap(r.obj, cols, _target_index(r, labels))


def quantile(r: Any, q: Any = 0.5, **kwargs: Any) -> Any:
    if not np.isscalar(q):
        raise unsupported("Resampler.quantile", "a list of quantiles (q scalar only)")
    if isinstance(q, str):
        raise ValueError(f"could not convert string to float: '{q}'")
    if not 0 <= q <= 1:
        raise ValueError(f"Each 'q' must be between 0 and 1. Got '{q}' instead")
    interpolation = kwargs.pop("interpolation", "linear")
    if interpolation != "linear" or kwargs:
        raise unsupported("Resampler.quantile", "interpolation other than 'linear' / other arguments")
    if len(r._tcol) == 0:
        return _empty(r, "quantile")
    _check_rule(r, "quantile")
    for _, c in r._values():
        if isinstance(c, NumericColumn) and c.is_bool and not c.nullable and c.mask is None:
            raise TypeError("Cannot use quantile with bool dtype")
        if isinstance(c, StringColumn):
            raise TypeError(f"dtype '{c.dtype}' does not support operation 'quantile'")
    return r._agg("quantile", q=float(q))


# --- interpolate --------------------------------------------------------------------------------------


def _check_interpolate(method: str, axis: Any, limit_direction: str, limit_area: Any, kwargs: dict) -> None:
    if method in _SCIPY_METHODS:
        raise unsupported("Resampler.interpolate", f"method={method!r} (linear, time, index, values)")
    if method not in ("linear",) + _ON_INDEX:
        raise ValueError(f"Can not interpolate with method={method}.")
    if axis not in (0, "index", "rows") or kwargs:
        raise unsupported("Resampler.interpolate", "axis=1 / extra arguments")
    if limit_direction not in ("forward", "backward", "both"):
        raise ValueError(
            "Invalid limit_direction: expecting one of ['forward', 'backward', 'both'], "
            f"got '{limit_direction}'."
        )
    if limit_area is not None and limit_area not in ("inside", "outside"):
        raise ValueError(f"Invalid limit_area: expecting one of ['inside', 'outside'], got {limit_area}.")


def _np_interp(xp: Any, x: Any, valid: Any, y: Any) -> Any:
    """NumPy's ``interp(x[~valid], x[valid], y[valid])`` at every row, by its formula (slope * (x - x0)
    + y0, then from the right end where that is NaN; the ends extend flat), on either backend."""
    from ember.ops.missing import _last_valid, _next_valid

    prev, nxt = _last_valid(valid), _next_valid(valid)
    has_p, has_n = prev >= 0, nxt >= 0
    x0, x1 = x[xp.maximum(prev, 0)], x[xp.maximum(nxt, 0)]
    y0, y1 = y[xp.maximum(prev, 0)], y[xp.maximum(nxt, 0)]
    with np.errstate(all="ignore"):
        slope = (y1 - y0) / (x1 - x0)
        out = slope * (x - x0) + y0
        back = slope * (x - x1) + y1
    out = xp.where(xp.isnan(out), back, out)
    out = xp.where(xp.isnan(out) & (y0 == y1), y0, out)
    out = xp.where(has_p & has_n, out, xp.where(has_p, y0, y1))
    return xp.where(valid, y, out), prev, nxt


def _preserved(xp: Any, prev: Any, nxt: Any, limit: int | None, direction: str, area: Any) -> Any:
    """Rows pandas leaves missing (``_interpolate_1d``'s preserve_nans): past ``limit`` from the valid
    row in ``direction``, the leading (forward) / trailing (backward) ones, and outside / inside
    ``limit_area``."""
    i = xp.arange(prev.shape[0], dtype=np.int64)
    lead, trail = prev < 0, nxt < 0
    far_f = lead if limit is None else lead | (i - prev > limit)
    far_b = trail if limit is None else trail | (nxt - i > limit)
    if direction == "forward":
        keep = far_f
    elif direction == "backward":
        keep = far_b
    else:
        keep = xp.zeros_like(lead) if limit is None else far_f & far_b
    if area == "inside":
        keep = keep | lead | trail
    elif area == "outside":
        keep = keep | (~lead & ~trail)
    return keep


def _interp_column(col: Any, x: Any, limit: int | None, direction: str, area: Any) -> Any:
    from ember.ops.missing import _pandas_view

    if not isinstance(col, NumericColumn) or col.nullable or col.is_bool:
        raise unsupported("Resampler.interpolate", f"{col.dtype} columns (NumPy int / float only)")
    col = _pandas_view(col)
    if not col.has_nulls_possible:
        return col  # an int column with every label present: pandas keeps it
    xp = col.xp
    valid = ~col.isna()
    y = col.data.astype(np.float64)
    out, prev, nxt = _np_interp(xp, x, valid, y)
    keep = _preserved(xp, prev, nxt, limit, direction, area) & ~valid
    return NumericColumn(xp.where(keep, np.nan, out).astype(col.data.dtype))


def interpolate(
    r: Any,
    method: str = "linear",
    axis: Any = 0,
    limit: Any = None,
    limit_direction: str = "forward",
    limit_area: Any = None,
    **kwargs: Any,
) -> Any:
    """The rows reindexed to the union of their times and the edges, interpolated there (``linear``:
    over positions; ``time`` / ``index`` / ``values``: over the times), then taken at the edges."""
    from ember.backend import to_host
    from ember.frame.timeseries import _rewrap

    if r.on is not None:
        raise ValueError(_UPSAMPLE_ON)
    if len(r._tcol) == 0:
        _check_interpolate(method, axis, limit_direction, limit_area, kwargs)
        return _empty(r, "interpolate")
    ts, order = _sorted_rows(r, "interpolate")
    _check_rule(r, "interpolate")
    _check_interpolate(method, axis, limit_direction, limit_area, kwargs)
    limit = _validate_limit(limit)
    xp = r._tcol.xp
    labels = _target(r)
    union = xp.unique(xp.concatenate([ts, labels]))
    p, hit = _exact(xp, ts, union)
    any_missing = bool(to_host((~hit).any()))
    rows = xp.where(hit, order[xp.minimum(p, ts.shape[0] - 1)], -1).astype(np.int64)
    x = xp.arange(union.shape[0], dtype=np.float64) if method == "linear" else union.astype(np.float64)
    at = xp.searchsorted(union, labels).astype(np.int64)
    cols = {}
    for k, c in r._values():
        filled = _interp_column(_take_rows(c, rows, any_missing), x, limit, limit_direction, limit_area)
        cols[k] = filled.take(at)
    return _rewrap(r.obj, cols, _target_index(r, labels))


__all__ = ["interpolate", "quantile", "upsample"]

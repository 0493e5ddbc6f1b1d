"""Resample bins per group: each group of rows (a groupby's groups, or all rows as one group) binned from
its own first to its last time, as pandas resamples every group on its own. Fixed frequencies take
pandas' ``origin`` ('epoch', 'start', 'start_day', 'end', 'end_day', a time in ticks) and ``offset``
(``_adjust_dates_anchored``); calendar rules (ME, MS, QE, QS, YE, YS, W) bin by calendar periods.

The edges are computed on the host from each group's first and last time (one sync for all groups);
the rows' bin codes and the bins' labels on the rows' device.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.backend import array_module, asarray_on, to_host
from ember.backend.primitives import scatter_max, scatter_min
from ember.column import DatetimeColumn
from ember.ops._common import UNIT_NS
from ember.ops.datetimes import per_day
from ember.ops.grouping import Grouping
from ember.ops.resample import _period_bounds, _period_of_days, parse_rule


def _group_spans(gcodes: Any, ngroups: int, t: Any, valid: Any) -> tuple[np.ndarray, np.ndarray]:
    """(first, last) time of every group on the host; a group without a valid time: first > last."""
    big = np.iinfo(np.int64)
    xp = array_module(t)
    keep = gcodes >= 0 if valid is None else (gcodes >= 0) & valid
    g = xp.where(keep, gcodes, ngroups)
    lo = xp.full(ngroups + 1, big.max, dtype=np.int64)
    hi = xp.full(ngroups + 1, big.min, dtype=np.int64)
    scatter_min(lo, g, t)
    scatter_max(hi, g, t)
    host = to_host(xp.stack([lo[:ngroups], hi[:ngroups]]))
    return host[0].astype(np.int64), host[1].astype(np.int64)


def _tick_edges(
    f: np.ndarray, last: np.ndarray, step: int, closed: str, origin: Any, offset: int, day: int
) -> np.ndarray:
    """pandas' ``_adjust_dates_anchored``: the first edge of every group (host int64 ticks)."""
    if origin == "epoch":
        o = np.zeros_like(f)
    elif origin == "start_day":
        o = (f // day) * day
    elif origin == "start":
        o = f.copy()
    elif origin in ("end", "end_day"):
        ol = last if origin == "end" else -((-last) // day) * day
        sub = (ol - f) // step + (1 if closed == "left" else 0)
        f = ol - sub * step
        o = f.copy()
    else:  # a time, in ticks of the index's unit
        o = np.full_like(f, int(origin))
    o = o + offset
    foff = (f - o) % step
    if closed == "right":
        return np.where(foff > 0, f - foff, f - step)
    return f - foff


def _tick_counts(fres: np.ndarray, last: np.ndarray, step: int, closed: str) -> np.ndarray:
    loff = (last - fres) % step
    if closed == "right":
        lres = np.where(loff > 0, last + (step - loff), last)
    else:
        lres = np.where(loff > 0, last + (step - loff), last + step)
    return (lres - fres) // step


def grouped_bins(
    col: DatetimeColumn,
    rule: Any,
    closed: str,
    label: str,
    origin: Any = "start_day",
    offset: int = 0,
    gcodes: Any = None,
    ngroups: int = 1,
) -> tuple[Grouping, Any]:
    """A Grouping of the rows into (group, bin) pairs, bins of each group from its first to its last
    time (NaT rows and rows of no group dropped), its key the bins' labels; and the group of every
    (group, bin) pair (int64 on the rows' device). ``origin`` is a name or a time in ticks of the
    column's unit, ``offset`` ticks. Synchronizes twice (the spans, the number of bins)."""
    xp = col.xp
    t = col.data.astype(np.int64)
    if gcodes is None:
        gcodes = xp.zeros(t.shape[0], dtype=np.int64)
    first, last = _group_spans(gcodes, ngroups, t, col.mask)
    present = first <= last
    kind, anchor, _ = parse_rule(rule)
    day, step = per_day(col.unit), 0
    if kind == "tick":
        step = max(anchor // UNIT_NS[col.unit], 1)
        fres = np.where(present, _tick_edges(first, last, step, closed, origin, offset, day), 0)
        if (fres > first)[present].any():  # an 'end' origin moved by an offset past the first time
            raise ValueError("Values falls before first bin")
        counts = np.where(present, _tick_counts(fres, last, step, closed), 0)
    else:
        fres = np.where(present, _period_of_days(np, first // day, kind, anchor), 0)
        counts = np.where(present, _period_of_days(np, last // day, kind, anchor) - fres + 1, 0)
    starts = np.zeros(ngroups + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    total = int(starts[-1])
    d_fres, d_starts = asarray_on(fres.astype(np.int64), xp), asarray_on(starts, xp)
    g = xp.maximum(gcodes, 0)
    if kind == "tick":
        shift = 1 if closed == "right" else 0
        # pandas' first bin also takes a time on its left edge when closed='right'
        local = xp.maximum((t - d_fres[g] - shift) // step, 0)
    else:
        local = _period_of_days(xp, xp.floor_divide(t, day), kind, anchor) - d_fres[g]
    keep = gcodes >= 0 if col.mask is None else (gcodes >= 0) & col.mask
    codes = xp.where(keep, d_starts[g] + local, -1).astype(np.int64)
    owner = xp.repeat(xp.arange(ngroups, dtype=np.int64), asarray_on(counts.astype(np.int64), xp))
    k = xp.arange(total, dtype=np.int64) - d_starts[owner]
    base = d_fres[owner] if kind == "tick" else d_fres[owner] + k
    labels = _labels(xp, base, k, kind, anchor, label, day, step)
    dropped = int(to_host((codes < 0).sum())) if t.shape[0] else 0
    lab = DatetimeColumn(labels.astype(np.int64), col.unit, col.tz)
    return Grouping(codes, total, [lab], dropped), owner


def _labels(xp: Any, base: Any, k: Any, kind: str, anchor: Any, label: str, day: int, step: int) -> Any:
    if kind == "tick":
        return base + (k + (1 if label == "right" else 0)) * step
    start, end = _period_bounds(xp, base, kind, anchor)
    if kind == "week" or anchor is True:  # end-anchored: right = the period's last day
        return (end if label == "right" else start - 1) * day
    return (start if label == "left" else end + 1) * day


def origin_ticks(origin: Any, unit: str, tz: Any) -> Any:
    """pandas' ``origin`` as a name or a time in ticks of ``unit`` (pandas' errors for a bad one)."""
    import pandas as pd

    if isinstance(origin, str) and origin in ("epoch", "start", "start_day", "end", "end_day"):
        return origin
    try:
        ts = pd.Timestamp(origin)
    except (ValueError, TypeError) as err:
        raise ValueError(
            "'origin' should be equal to 'epoch', 'start', 'start_day', 'end', 'end_day' or "
            f"should be a Timestamp convertible type. Got '{origin}' instead."
        ) from err
    if (ts.tz is None) != (tz is None):
        raise ValueError("The origin must have the same timezone as the index.")
    return int(ts.as_unit(unit)._value)


def offset_ticks(offset: Any, unit: str) -> int:
    import pandas as pd

    if offset is None:
        return 0
    try:
        td = pd.Timedelta(offset)
    except (ValueError, TypeError) as err:
        raise ValueError(f"'offset' should be a Timedelta convertible type. Got '{offset}' instead.") from err
    return int(td.as_unit(unit)._value)


__all__ = ["grouped_bins", "offset_ticks", "origin_ticks"]

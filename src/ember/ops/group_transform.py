"""Group-wise transforms on a Grouping: the aggregations broadcast back to the rows, running scans
(cumsum / cumprod / cummin / cummax), rank, shift, diff and fillna, all in rows' own order."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.backend.primitives import scatter_max
from ember.column import (
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
)
from ember.column.base import Unsupported
from ember.column.list import ListColumn
from ember.ops.group_kernels import extreme_values, seg_scan
from ember.ops.groupby import (
    AGGREGATIONS,
    SCANS,
    _downcast_if_fits,
    _same_kind,
    _sum_dtype,
    _valid,
    aggregate,
    check_object_bools,
    check_pandas_refuses,
)
from ember.ops.grouping import Grouping, cumcount, rows_back
from ember.ops.sort import key_and_nulls, ranks_from_order


def _scan_transform(g: Grouping, col: Column, op: str) -> Column:
    xp = g.xp
    if not isinstance(col, NumericColumn) and not (
        isinstance(col, (DatetimeColumn, TimedeltaColumn))
        and op in ("cummin", "cummax")
        or (isinstance(col, TimedeltaColumn) and op == "cumsum")
    ):
        check_pandas_refuses(col, op)
        raise TypeError(f"groupby {op}: not supported for {col.dtype} values")
    valid = _valid(col)
    values = col.data
    if op in ("cumsum", "cumprod"):
        acc = _scan_accumulator(g, col)
        v = values.astype(acc)
        ident = acc(0 if op == "cumsum" else 1)
        ufunc = xp.add if op == "cumsum" else xp.multiply
        out_dtype = (
            np.dtype(np.float64) if acc is np.float64 and values.dtype.kind != "f" else _sum_dtype(col)
        )
    else:
        v, ident = extreme_values(values.astype(np.int64) if values.dtype.kind == "b" else values, op[3:])
        ufunc = xp.minimum if op == "cummin" else xp.maximum
        out_dtype = values.dtype
    if valid is not None:
        v = xp.where(valid, v, v.dtype.type(ident))
    scanned = rows_back(g, seg_scan(v[g.order], g.sorted_seg, ufunc, g.max_size))
    missing = None if valid is None else ~valid
    if g.dropped:
        dropped = g.codes < 0
        missing = dropped if missing is None else missing | dropped
    if op == "cumsum" and values.dtype.kind == "f":
        after = _after_an_infinity(g, values, valid)
        if isinstance(col, NumericColumn) and col.nullable:
            missing = after if missing is None else missing | after
        else:
            scanned = xp.where(after, np.nan, scanned)
    if op in ("cumsum", "cumprod"):  # 64-bit running values, narrowed only when they all fit
        scanned = _downcast_if_fits(scanned, out_dtype, missing)
        out_dtype = scanned.dtype
    return _same_kind(scanned, missing, col, out_dtype)


def _scan_accumulator(g: Grouping, col: Column) -> Any:
    """The dtype cumsum / cumprod run in: 64 bits of the values' kind, except that pandas turns
    plain integers and bools into float64 before the scan when some row's key is dropped (a result
    holding NaN), so their running values round (and do not wrap) as float64 ones."""
    kind = col.data.dtype.kind
    if kind == "f" or (g.dropped and not (isinstance(col, NumericColumn) and col.nullable)):
        return np.float64
    return np.uint64 if kind == "u" else np.int64


def _after_an_infinity(g: Grouping, values: Any, valid: Any) -> Any:
    """Valid rows that follow an infinity of their group: pandas' compensated (Kahan) running sum
    turns its compensation into NaN there (inf - inf), and every later sum of the group with it."""
    xp = g.xp
    inf = xp.isinf(values)
    if valid is not None:
        inf = inf & valid
    seen = rows_back(g, seg_scan(inf.astype(np.int64)[g.order], g.sorted_seg, xp.add, g.max_size))
    after = (seen - inf.astype(np.int64)) > 0  # an infinity on an earlier row of the group
    return after if valid is None else after & valid


def _shift_rows(g: Grouping, periods: int) -> Any:
    """For each row, the row ``periods`` earlier in its group (-1 where none or the row is dropped)."""
    xp = g.xp
    n = g.nrows
    pos = xp.arange(n, dtype=np.int64)
    src = pos - periods
    inside = (src >= 0) & (src < n)
    srcc = xp.clip(src, 0, max(n - 1, 0))
    sseg = g.sorted_seg
    ok = inside & (sseg[srcc] == sseg) & (sseg < g.ngroups) if n else inside
    rows = xp.where(ok, g.order[srcc] if n else srcc, -1)
    return rows_back(g, rows)


def _fill_rows(g: Grouping, col: Column, forward: bool) -> Any:
    """For each row, the nearest row at or before (ffill) / after (bfill) it in its group with a value."""
    xp = g.xp
    n = g.nrows
    valid = _valid(col)
    pos = xp.arange(n, dtype=np.int64)
    sseg = g.sorted_seg
    vs = xp.ones(n, dtype=bool) if valid is None else valid[g.order]
    if forward:
        cand = xp.where(vs, pos, -1)
        src = seg_scan(cand, sseg, xp.maximum, g.max_size)
    else:
        cand = xp.where(vs, pos, n)[::-1]
        src = seg_scan(cand, sseg[::-1], xp.minimum, g.max_size)[::-1]
    ok = (src >= 0) & (src < n) & (sseg < g.ngroups)
    rows = xp.where(ok, g.order[xp.clip(src, 0, max(n - 1, 0))] if n else src, -1)
    return rows_back(g, rows)


def _rank_transform(
    g: Grouping,
    col: Column,
    method: str = "average",
    ascending: bool = True,
    na_option: str = "keep",
    pct: bool = False,
) -> Column:
    from ember.ops.sort import _check_rank_args, argsort_keys, ranks_column

    _check_rank_args(method, na_option)
    xp = g.xp
    key, nulls = key_and_nulls(col)
    na_pos = "first" if na_option == "top" else "last"
    order = argsort_keys([(g.seg, None), (key, nulls)], [True, ascending], na_pos)
    sseg = g.seg[order]
    r = ranks_from_order(order, key, nulls, method, seg=sseg, seg_offsets=g.offsets)
    if pct:
        if method == "dense":
            top = xp.full(g.ngroups + 1, 1.0)
            rr = r if (na_option != "keep" or nulls is None) else xp.where(nulls, 0.0, r)
            scatter_max(top, g.seg, rr)
            denom = top[g.seg]
        elif na_option == "keep" and nulls is not None:
            cnt = xp.bincount(g.scatter_target(~nulls), minlength=g.ngroups + 1)
            denom = cnt[g.seg].astype(np.float64)
        else:
            denom = g.sizes[g.seg].astype(np.float64)
        r = r / denom
    missing = None
    if na_option == "keep" and nulls is not None:
        missing = nulls
    if g.dropped:
        missing = (g.codes < 0) if missing is None else missing | (g.codes < 0)
    return ranks_column(r, missing, isinstance(col, NumericColumn) and col.nullable)


def _diff(g: Grouping, col: Column, periods: int) -> Column:
    xp = g.xp
    rows = _shift_rows(g, periods)
    if isinstance(col, DatetimeColumn):
        from ember.ops.datetimes import add_checked

        prev = col.take_nullable(rows)
        missing = col.isna() | prev.isna()
        delta = add_checked(xp, col.data, prev.data, ~missing, sub=True)  # pandas' OverflowError
        return TimedeltaColumn(xp.where(missing, 0, delta), col.unit, ~missing)
    if not isinstance(col, NumericColumn) or col.data.dtype.kind == "b":
        check_pandas_refuses(col, "diff")
        raise TypeError(f"groupby diff: not supported for {col.dtype} values")
    has_prev = rows >= 0
    prev_vals = col.data[xp.where(has_prev, rows, 0)] if g.nrows else col.data
    missing = ~has_prev | col.isna()
    if col.mask is not None:
        missing = missing | ~col.mask[xp.where(has_prev, rows, 0)]
    if col.nullable:
        return NumericColumn(col.data - prev_vals, ~missing, True)
    small = col.data.dtype.kind in "iu" and col.data.dtype.itemsize <= 2 and col.data.dtype.kind == "i"
    dtype = np.float32 if small or col.data.dtype == np.float32 else np.float64
    d = col.data.astype(dtype) - prev_vals.astype(dtype)
    return NumericColumn(xp.where(missing, xp.nan, d).astype(dtype))


def _check_nat_beside_dropped_keys(g: Grouping, col: Column, op: str) -> None:
    """pandas reads a NaT inside a group as the smallest int64 when some row's key is missing and
    dropped (its cummax skips it, cummin keeps it, cumsum overflows): refused, not copied."""
    if not isinstance(col, (DatetimeColumn, TimedeltaColumn)) or not g.dropped or col.mask is None:
        return
    if bool((~col.mask & (g.codes >= 0)).any()):  # one sync
        raise _unsupported(
            f"GroupBy.{op}",
            "datetimes or timedeltas with NaT beside rows whose key is missing "
            "(pandas reads NaT as the smallest integer there)",
        )


def _unsupported(method: str, detail: str) -> Unsupported:
    """GroupBy's NotImplementedError (no pandas fallback: the groupby would need rebuilding there)."""
    return Unsupported(
        f"{method}: {detail} is not supported by ember. Convert with .to_pandas() to run it in pandas."
    )


def scan_refused_dtype(col: Column, op: str) -> str | None:
    """pandas' name of ``col``'s dtype where it refuses the running ``op`` (object data, and the
    cummin / cummax of strings): a frame's column raises NotImplementedError, a Series TypeError."""
    if op not in ("cumsum", "cumprod", "cummin", "cummax"):
        return None
    if col.dtype == np.dtype(object):
        return "object"
    if isinstance(col, StringColumn) and op in ("cummin", "cummax"):
        return str(col.pd_dtype)
    return None


def _missing_as_nan(res: Column, op: str, strings_inferred: bool) -> Column:
    """A list or object result spread over rows whose key is dropped: pandas fills those with NaN (a
    group without a list, or an object group without a value in first / last, holds None: both at
    once are refused, a column keeps one missing-value marker; ``strings_inferred``: the caller makes
    object strings holding one ``str``, whose missing values are all NaN)."""
    if not isinstance(res, ListColumn):
        mixed = getattr(res, "na", np.nan) is None and res.mask is not None and not bool(res.mask.all())
        if mixed and strings_inferred and isinstance(res, StringColumn) and bool(res.mask.any()):
            return res  # (two syncs, only for object columns with a group without a value)
        if mixed:
            raise _unsupported(  # (one sync above)
                f"GroupBy.transform('{op}')",
                "object data with a group without a value (None) beside rows whose key is missing (NaN)",
            )
        return res
    if res.mask is not None and not bool(res.mask.all()):  # sync
        raise NotImplementedError(
            "groupby transform: lists with a group missing its result beside rows whose key is "
            "missing are not supported"
        )
    return ListColumn(res.data, res.values, None, np.nan, res.as_arrays)


def transform(g: Grouping, col: Column, op: str, strings_inferred: bool = False, **kw: Any) -> Column:
    """A per-row result: an aggregation broadcast back to the rows of its group (missing on dropped
    rows), or a within-group scan: cumsum cumprod cummin cummax cumcount(ascending) rank(method,
    ascending, na_option, pct) shift(periods) diff(periods) ffill bfill. Rows keep their order.
    ``strings_inferred``: the caller turns object strings holding one into ``str`` (pandas' Series
    built anew from the rows' values)."""
    xp = g.xp
    col = col.to(xp)
    if op in AGGREGATIONS:
        res = aggregate(g, col, op, **kw)
        if g.dropped == 0:
            return res.take(g.codes)
        return _missing_as_nan(res, op, strings_inferred).take_nullable(g.codes)
    if op not in SCANS:
        raise NotImplementedError(
            f"groupby transform: op {op!r} is not supported; supported: {AGGREGATIONS + SCANS}"
        )
    if scan_refused_dtype(col, op) is not None:  # pandas: this for a frame's column
        raise NotImplementedError(f"function is not implemented for this dtype: [how->{op},dtype->object]")
    if op == "diff":
        check_object_bools(col, op)
    if op in ("cumsum", "cummin", "cummax"):
        _check_nat_beside_dropped_keys(g, col, op)
    if op == "cumcount":
        cc = cumcount(g, kw.get("ascending", True))
        if g.dropped:
            return NumericColumn(xp.where(g.codes < 0, xp.nan, cc.astype(np.float64)))
        return NumericColumn(cc)
    if op == "rank":
        return _rank_transform(g, col, **kw)
    if op == "shift":
        periods = int(kw.get("periods", 1))
        if periods == 0:
            return col
        return col.take_nullable(_shift_rows(g, periods))
    if op == "diff":
        return _diff(g, col, int(kw.get("periods", 1)))
    if op in ("ffill", "bfill"):
        if kw.get("limit") is not None:
            raise NotImplementedError(f"groupby {op}: limit is not supported; use limit=None")
        return col.take_nullable(_fill_rows(g, col, forward=op == "ffill"))
    return _scan_transform(g, col, op)

"""Row-wise reductions (``df.<op>(axis=1)``) of numeric columns, with pandas' result dtypes."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ember.column import Column, NumericColumn
from ember.ops.reductions import _acc_dtype, _fill, pandas_view

ROW_OPS = ("sum", "mean", "min", "max", "std", "var", "count", "prod", "median", "any", "all")
# also answered by reduce_rows, but their results over no rows are not those of axis=0 (see callers)
MORE_ROW_OPS = ("sem", "nunique")


def reduce_rows(
    cols: list[Column], op: str, *, skipna: bool = True, ddof: int = 1, min_count: int = 0
) -> Column:
    """``op`` across the columns of each row (numeric columns), as ``df.<op>(axis=1)``."""
    if op not in ROW_OPS + MORE_ROW_OPS:
        raise NotImplementedError(
            f"reduce_rows: op {op!r} is not supported; supported: {', '.join(ROW_OPS + MORE_ROW_OPS)}"
        )
    if not cols:
        raise ValueError("reduce_rows: no columns")
    xp = cols[0].xp
    if op == "count":  # the non-missing values of each row, of any dtype
        return NumericColumn(xp.stack([~c.isna() for c in cols], axis=1).sum(axis=1).astype(np.int64))
    if op == "sem":  # pandas' nansem: the deviation over the square root of the row's count
        std = reduce_rows(cols, "std", skipna=skipna, ddof=ddof)
        count = reduce_rows(cols, "count").data
        with np.errstate(all="ignore"):
            sem = (std.data / xp.sqrt(count)).astype(std.data.dtype, copy=False)
        return type(std)(sem, std.mask, std.nullable)
    if op == "nunique":
        return _row_nunique(cols, dropna=skipna)
    for c in cols:
        if not isinstance(c, NumericColumn):
            raise NotImplementedError(
                f"DataFrame.{op}(axis=1) over a column of dtype {c.dtype} is not supported (pandas "
                "reduces such rows as objects); select the numeric columns (numeric_only=True)"
            )
    if op not in ("any", "all") and any(c.dtype == object for c in cols):
        raise NotImplementedError(
            f"DataFrame.{op}(axis=1) beside an object column (bools with missing values) is not "
            "supported: pandas reduces such rows as objects and gives an object result"
        )
    cols = [pandas_view(c) for c in cols]
    nullable = any(c.nullable for c in cols)
    if op != "count" and len({c.is_bool for c in cols}) == 2 and (nullable or op in ("std", "var", "median")):
        raise NotImplementedError(
            f"reduce_rows: {op} across bool and non-bool numeric columns"
            + (" (one of them nullable)" if nullable else "")
            + " is not supported: pandas reduces such rows as an object array (an object result, or a "
            "TypeError); select columns of one kind, or cast the bool columns"
        )
    common = np.result_type(*(c.data.dtype for c in cols))
    has_missing = any(c.is_float or c.mask is not None for c in cols)
    valid = xp.stack([valid_or_true(c) for c in cols], axis=1) if has_missing else None
    if valid is None and op in ("sum", "prod") and min_count > len(cols):  # no row has enough values
        valid = xp.ones((len(cols[0]), len(cols)), dtype=bool)
    m = xp.stack([c.data for c in cols], axis=1)
    res, out_valid = _row_reduce(xp, m, valid, op, common, skipna, ddof, min_count, nullable)
    if nullable and op in ("sum", "prod") and common.kind in "iu":
        res = _masked_int_rows_dtype(xp, m, valid, res, op, common, skipna, min_count)
    if common.kind == "f" and res.dtype.kind == "f":  # pandas: float32 rows give float32 results
        res = res.astype(common, copy=False)
    if nullable:
        if res.dtype.kind == "f":  # pandas: a masked row result that comes out NaN (inf - inf) is NA
            out_valid = ~xp.isnan(res) if out_valid is None else out_valid & ~xp.isnan(res)
        return NumericColumn(res, out_valid, nullable=True)
    if out_valid is None:
        return NumericColumn(res)
    return NumericColumn(res).set_missing(out_valid)


def _row_nunique(cols: list[Column], dropna: bool) -> Column:
    """The distinct values of each row (``df.nunique(axis=1)``), for columns of NumPy numbers: each
    row sorted with its missing values as the dtype's largest one, the distinct values counted among
    the row's first ``count`` (a real value equal to the stand-in is counted once all the same)."""
    kinds = {c.is_bool for c in cols if isinstance(c, NumericColumn)}
    if (
        not all(isinstance(c, NumericColumn) and not c.nullable and c.dtype != object for c in cols)
        or len(kinds) > 1
    ):
        raise NotImplementedError(
            "DataFrame.nunique(axis=1) over columns other than NumPy numbers of one kind (bools or "
            "numbers) is not supported: pandas counts such rows as objects"
        )
    xp = cols[0].xp
    common = np.result_type(*(c.data.dtype for c in cols))
    missing = xp.stack([c.isna() for c in cols], axis=1)
    m = xp.stack([c.data.astype(common, copy=False) for c in cols], axis=1)
    m = xp.sort(xp.where(missing, _fill(common, True), m), axis=1)
    count = (~missing).sum(axis=1)
    k = m.shape[1]
    new_value = xp.concatenate([xp.ones((m.shape[0], 1), dtype=bool), m[:, 1:] != m[:, :-1]], axis=1)
    within = xp.arange(k)[None, :] < count[:, None]
    res = (new_value & within).sum(axis=1)
    if not dropna:
        res = res + (count < k)
    return NumericColumn(res.astype(np.int64 if len(res) else np.float64))  # pandas: no rows, float64


def _masked_int_rows_dtype(
    xp: Any, m: Any, valid: Any, res: Any, op: str, common: np.dtype, skipna: bool, min_count: int
) -> Any:
    """pandas sums / multiplies the rows of masked integers in 64 bits and gives the columns' common
    dtype back where every row's value fits it (Int32 rows: Int32, Int64 once a value leaves int32).
    A row with fewer than ``min_count`` values counts as 0; with skipna=False a row holding a missing
    value counts as the values before its first missing one."""
    check = res
    if valid is not None:
        cnt = valid.sum(axis=1)
        if not skipna:
            before = xp.cumprod(valid, axis=1).astype(bool)
            neutral = 0 if op == "sum" else 1
            partial = (xp.sum if op == "sum" else xp.prod)(
                xp.where(before, m, neutral).astype(res.dtype), axis=1
            )
            check = xp.where(cnt < m.shape[1], partial, res)
        check = xp.where(cnt < min_count, 0, check)
    info = np.iinfo(common)
    if check.shape[0] and not bool(((check >= info.min) & (check <= info.max)).all()):  # one sync
        return res
    return res.astype(common)


def valid_or_true(c: NumericColumn) -> Any:
    xp = c.xp
    v = ~xp.isnan(c.data) if c.is_float else xp.ones(len(c), dtype=bool)
    return v if c.mask is None else v & c.mask


def _row_reduce(
    xp: Any,
    m: Any,
    valid: Any,
    op: str,
    common: np.dtype,
    skipna: bool,
    ddof: int,
    min_count: int,
    nullable: bool = False,
) -> tuple[Any, Any]:
    k = m.shape[1]
    cnt = valid.sum(axis=1) if valid is not None else None
    any_missing = None if valid is None else cnt < k
    if op in ("any", "all"):
        truth = m != 0
        if valid is None:
            return (truth.any(axis=1) if op == "any" else truth.all(axis=1)), None
        known = xp.where(valid, truth, op == "all")
        res = known.any(axis=1) if op == "any" else known.all(axis=1)
        if skipna or not nullable:
            return (res if skipna else truth.any(axis=1) if op == "any" else truth.all(axis=1)), None
        decided = res if op == "any" else ~res  # Kleene: a known True (any) / False (all) decides
        return res, decided | ~any_missing
    if op in ("sum", "prod"):
        acc = _acc_dtype(common) if common.kind != "b" else np.dtype(np.int64)
        filled = m if valid is None else xp.where(valid, m, 0 if op == "sum" else 1)
        res = (xp.sum if op == "sum" else xp.prod)(filled.astype(acc), axis=1)
        out_valid = _row_valid(cnt, any_missing, skipna, max(min_count, 0))
        return res, out_valid
    if op in ("min", "max"):
        filled = m if valid is None else xp.where(valid, m, _fill(common, op == "min"))
        res = filled.min(axis=1) if op == "min" else filled.max(axis=1)
        return res.astype(common, copy=False), _row_valid(cnt, any_missing, skipna, 1)
    mf = m.astype(np.float64)
    c = cnt if cnt is not None else xp.full(m.shape[0], k)
    filled = mf if valid is None else xp.where(valid, mf, 0.0)
    with np.errstate(all="ignore"):
        mean = filled.sum(axis=1) / c
        if op == "mean":
            return mean, _row_valid(cnt, any_missing, skipna, 1)
        if op in ("var", "std"):
            d = filled - mean[:, None] if valid is None else xp.where(valid, mf - mean[:, None], 0.0)
            var = (d * d).sum(axis=1) / (c - ddof)
            res = var if op == "var" else xp.sqrt(var)
            return res, _row_valid(cnt if cnt is not None else c, any_missing, skipna, ddof + 1)
    if op == "median":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            src = mf if valid is None else xp.where(valid, mf, np.nan)
            res = xp.nanmedian(src, axis=1) if m.shape[0] else xp.zeros(0)
        return res, _row_valid(cnt, any_missing, skipna, 1)
    raise NotImplementedError(f"reduce_rows: op {op!r} is not supported")  # pragma: no cover


def _row_valid(cnt: Any, any_missing: Any, skipna: bool, need: int) -> Any:
    if cnt is None:
        return None
    ok = cnt >= need
    return ok & ~any_missing if not skipna and any_missing is not None else ok

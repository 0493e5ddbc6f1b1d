"""Object columns holding only missing values (None, NaN, pd.NaT or pd.NA: ``.astype(object)`` of an
all-NaT column, ``.iloc[row]`` of a mixed frame, a reindex).

pandas keeps them as Python objects and computes on the markers with Python's rules: ``-pd.NaT`` is
NaT, ``abs(None)`` raises; its reductions go through nanops, which skip every marker; its group-by
statistics convert the objects with ``float()`` (NaT / pd.NA raise) or, for NaT, infer datetimes. ember
holds such a column as an object ``StringColumn`` whose mask is all False and whose ``na`` is the one
marker (``column.convert``), so every row holds the same object: one Python operation on the marker
tells pandas' answer for all of them. Each function returns None for any other column, so callers
hook it in front of their own path. Each syncs the device once (the mask), only for object columns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ember.column import CategoricalColumn, Column, DatetimeColumn, NumericColumn, StringColumn


def is_missing_objects(col: Any) -> bool:
    """Whether ``col`` is an object column of missing values only (no rows counts). One sync."""
    if not isinstance(col, StringColumn) or col.pd_dtype != np.dtype(object):
        return False
    if len(col) == 0:
        return True
    return col.mask is not None and not bool(col.mask.any())


def _like(col: StringColumn, marker: Any) -> StringColumn:
    """An object column of ``col``'s length holding ``marker`` in every row."""
    xp, n = col.xp, len(col)
    mask = None if n == 0 else xp.zeros(n, dtype=bool)
    offsets, chars = xp.zeros(n + 1, dtype=np.int64), xp.zeros(0, dtype=np.uint8)
    return StringColumn(offsets, chars, mask, np.dtype(object), marker)


def _is_marker(v: Any) -> bool:
    return v is None or v is pd.NA or v is pd.NaT or (isinstance(v, float) and v != v)


# --- elementwise -------------------------------------------------------------------------------------

_UNARY: dict[str, tuple[Callable[[Any], Any], str]] = {
    "neg": (lambda v: -v, "unary -"),
    "pos": (lambda v: +v, "unary +"),
    "invert": (lambda v: ~v, "unary ~"),
    "abs": (abs, "abs()"),
}


def unary(col: Column, op: str) -> Column | None:
    """``-col`` / ``+col`` / ``~col`` / ``abs(col)``: Python's operator on the marker (``-NaT`` is NaT,
    ``abs(nan)`` nan, ``~NA`` NA; ``-None`` raises Python's TypeError, as pandas)."""
    if not is_missing_objects(col):
        return None
    fn, what = _UNARY[op]
    if len(col) == 0:
        return _like(col, col.na)
    try:
        out = fn(col.na)
    except TypeError:
        raise TypeError(f"bad operand type for {what}: '{type(col.na).__name__}'") from None
    return _like(col, out if _is_marker(out) else np.nan)


def positive(col: Column) -> Column:
    """``+col`` as pandas: numbers, bools, masked numbers, timedeltas and decimals (within 28 digits)
    unchanged; datetimes, categoricals and strings raise its TypeError; an object column applies
    Python's ``+`` to each object (``+None`` raises, ``+NaT`` is NaT; ``+True`` is the int 1, an
    object column of ints ember does not hold: refused). Syncs once for an object column."""
    from ember.column.decimal import DecimalColumn
    from ember.column.list import ListColumn

    if isinstance(col, (DatetimeColumn, CategoricalColumn)):
        what = "DatetimeArray" if isinstance(col, DatetimeColumn) else "Categorical"
        raise TypeError(f"bad operand type for unary +: '{what}'")
    if isinstance(col, StringColumn) and col.pd_dtype != np.dtype(object):
        raise TypeError(f"bad operand type for unary +: '{col.pd_dtype}'")
    if col.dtype != np.dtype(object) or not len(col):
        return col
    if isinstance(col, StringColumn):
        if not is_missing_objects(col):
            raise TypeError("bad operand type for unary +: 'str'")
        return unary(col, "pos")
    holds_none = isinstance(col, (NumericColumn, DecimalColumn)) and col.na is None and col.mask is not None
    if holds_none and not bool(col.mask.all()):
        raise TypeError("bad operand type for unary +: 'NoneType'")
    if isinstance(col, DecimalColumn):
        return col
    from ember.frame._fallback import unsupported

    what = "lists" if isinstance(col, ListColumn) else "True / False (pandas gives the ints 1 / 0)"
    raise unsupported("unary +", f"an object column of {what}")


def positive_labels(col: Column) -> Column:
    """``+index``: as ``positive``, but pandas applies NumPy's ufunc to bools (its TypeError) and
    infers NaT objects anew (datetime64[s])."""
    if isinstance(col, NumericColumn) and col.dtype == np.dtype(bool):
        raise TypeError("ufunc 'positive' did not contain a loop with signature matching types")
    out = positive(col)
    if isinstance(out, StringColumn) and out.na is pd.NaT and len(out):
        n, xp = len(out), out.xp
        return DatetimeColumn(xp.zeros(n, dtype=np.int64), "s", None, xp.zeros(n, dtype=bool))
    return out


def check_round(col: Column, decimals: int) -> None:
    """``Series.round`` of an object column: Python's ``round`` of each object (NaN stays; a string,
    None, NaT or pd.NA raise its TypeError). A frame skips object columns (not checked here)."""
    if not isinstance(col, StringColumn) or col.pd_dtype != np.dtype(object) or not len(col):
        return
    value = col.na if is_missing_objects(col) else ""
    try:
        round(value, decimals)
    except TypeError:
        raise TypeError(f"type {type(value).__name__} doesn't define __round__ method") from None


# --- concat ----------------------------------------------------------------------------------------


def _marker_name(marker: Any) -> str:
    return "NaN" if isinstance(marker, float) and marker != marker else repr(marker)


def _part_marker(col: StringColumn) -> Any:
    """What a string part's missing rows hold in pandas: an object column its marker, ``str`` NaN,
    ``string`` pd.NA."""
    return col.na if col.pd_dtype == np.dtype(object) else getattr(col.pd_dtype, "na_value", np.nan)


def concat_marker(parts: list, out: Column) -> Column:
    """The object column ``out`` concatenated from string ``parts`` with the missing marker pandas
    keeps: each part's own objects (None, NaN, NaT, pd.NA). ember holds one marker per column, so
    parts whose missing rows hold different markers are refused. ``out`` unchanged unless it is an
    object string column with missing rows. One sync."""
    if not isinstance(out, StringColumn) or out.pd_dtype != np.dtype(object) or out.mask is None:
        return out
    xp = out.xp
    holding = [p.to(xp) for p in parts if isinstance(p, StringColumn) and p.mask is not None and len(p)]
    if not holding:
        return out
    from ember.backend import to_host

    missing = to_host(xp.stack([(~p.mask).any() for p in holding]))
    markers = {_marker_name(_part_marker(p)): _part_marker(p) for p, m in zip(holding, missing) if m}
    if len(markers) > 1:
        from ember.frame._fallback import unsupported

        raise unsupported(
            "concat",
            f"of object / string columns whose missing values differ ({', '.join(sorted(markers))}): "
            "pandas keeps each row's own, ember holds one missing value per object column",
        )
    marker = next(iter(markers.values()), out.na)
    return StringColumn(out.data, out.chars, out.mask, out.pd_dtype, marker)


def index_inferred(col: Column) -> Column:
    """The labels of an appended index: pandas infers an object result anew (``Index._with_infer``):
    strings beside None / NaN / pd.NA are ``str``; NaN alone float64, NaT alone datetime64[s]; None
    or pd.NA alone, and strings beside NaT, stay objects. One sync for an object column."""
    if not isinstance(col, StringColumn) or col.pd_dtype != np.dtype(object) or not len(col):
        return col
    from ember.backend import to_host

    xp, n = col.xp, len(col)
    if col.mask is None or bool(to_host(col.mask.any())):
        return (
            col if col.na is pd.NaT and col.mask is not None else StringColumn(col.data, col.chars, col.mask)
        )
    if isinstance(col.na, float):
        return NumericColumn(xp.full(n, np.nan, dtype=np.float64))
    if col.na is pd.NaT:
        return DatetimeColumn(xp.zeros(n, dtype=np.int64), "s", None, xp.zeros(n, dtype=bool))
    return col


# --- reductions --------------------------------------------------------------------------------------

#: nanops' answers over no value, by op: (the type of a column of rows, the type of no rows)
_NAN_TYPES = {
    "mean": (float, float),
    "median": (np.float64, float),
    "std": (np.float64, float),
    "var": (np.float64, float),
    "sem": (np.float64, np.float64),
}


def reduction(col: Column, op: str, skipna: bool, min_count: int = 0) -> Callable[[list], Any] | None:
    """A finisher of ``op`` over an object column of missing values (nanops skips every marker: NaN,
    the product of nothing is 1); None for other columns and ops (the caller's path answers)."""
    if op not in _NAN_TYPES and op != "prod":
        return None
    if not is_missing_objects(col):
        return None
    n = len(col)
    from ember._compat import PANDAS_31

    if not PANDAS_31 and n and (not skipna or op == "sem"):
        from ember.frame._fallback import unsupported

        # pandas 3.0 meets the markers themselves here (a TypeError for most, NaN for others)
        raise unsupported(op, "object data of missing values with pandas < 3.1 (skipna=False, sem)")
    if not skipna and n:
        if op == "prod":
            from ember.frame._fallback import unsupported

            raise unsupported("prod", "skipna=False over object data of missing values")
        return lambda h: np.float64(np.nan)
    if op == "prod":
        return lambda h: np.nan if min_count > 0 else 1
    kind = _NAN_TYPES[op][0 if n else 1]
    return lambda h: kind(np.nan)


def as_floats(col: Column, op: str) -> Column:
    """``col`` as pandas reads an object column of missing values in quantile / skew / kurt: float64
    NaN (nanops skips every marker). pandas 3.0's skew / kurt meet NaT / pd.NA themselves (its
    TypeError). Other columns unchanged; one sync for an object column."""
    if not is_missing_objects(col):
        return col
    from ember._compat import PANDAS_31

    if not PANDAS_31 and op in ("skew", "kurt") and len(col) and (col.na is pd.NaT or col.na is pd.NA):
        raise TypeError(f"unsupported operand type(s) for +: '{type(col.na).__name__}' and 'float'")
    return NumericColumn(col.xp.full(len(col), np.nan, dtype=np.float64))


def objects_of_nan(n: int, xp: Any) -> StringColumn:
    """An object column of ``n`` NaN (pandas' object result of a row-wise statistic over objects)."""
    mask = None if n == 0 else xp.zeros(n, dtype=bool)
    return StringColumn(xp.zeros(n + 1, dtype=np.int64), xp.zeros(0, dtype=np.uint8), mask, np.dtype(object))


def categories(col: Column) -> Column | None:
    """The (empty) categories of ``astype('category')`` of an object column of NaT: pandas infers
    the objects as datetime64[s]. None for other columns (None, NaN and pd.NA stay object)."""
    if not isinstance(col, StringColumn) or col.na is not pd.NaT or not len(col):
        return None
    if not is_missing_objects(col):
        return None
    return DatetimeColumn(col.xp.zeros(0, dtype=np.int64), "s")


# --- group-by ----------------------------------------------------------------------------------------

_AS_FLOATS = ("std", "sem", "skew")
_AS_TIMES = ("mean", "median", "min", "max")


def group_aggregate(col: Column, op: str) -> None:
    """pandas' group-by std / sem / skew of an object column convert the whole column with
    ``float()``: NaT and pd.NA raise, even with no group (None and NaN give NaN: the usual path)."""
    if op not in _AS_FLOATS or not len(col) or not is_missing_objects(col):
        return
    marker = col.na
    if marker is pd.NaT or marker is pd.NA:
        raise TypeError(f"float() argument must be a string or a real number, not '{type(marker).__name__}'")


def series_group_inferred(result: Column, source: Column, op: str) -> Column:
    """A SeriesGroupBy's Python path (min / max / mean / median / var / prod) builds a Series of the
    whole ``source`` column first, which infers NaT objects to datetime64[s]: mean / median / min /
    max of its groups are NaT (objects), var / prod raise. ``result`` unchanged for the others."""
    if not len(result) or not isinstance(source, StringColumn) or source.na is not pd.NaT:
        return result
    if not is_missing_objects(source):
        return result
    if op in _AS_TIMES:
        return _like(result, pd.NaT)
    raise TypeError(f"agg function failed [how->{op},dtype->datetime64[s]]")


# --- diff ----------------------------------------------------------------------------------------------


def diff(col: Column, periods: int, frame: bool) -> Column | None:
    """``diff`` of an object column of NaT / pd.NA (NaT - NaT is NaT, NA - NA is NA; the rows without
    a pair are NaN): a Series re-infers NaT and NaN to datetime64[s]; a frame keeps the objects, which
    mixes the marker with NaN (refused) unless every row has a pair. None for the others."""
    if not isinstance(col, StringColumn) or not (col.na is pd.NaT or col.na is pd.NA):
        return None
    n = len(col)
    if not n or abs(periods) >= n or not is_missing_objects(col):
        return None  # no pair: NaN objects (the object path)
    xp = col.xp
    if col.na is pd.NaT and not frame:
        return DatetimeColumn(xp.zeros(n, dtype=np.int64), "s", None, xp.zeros(n, dtype=bool))
    if periods == 0:
        return _like(col, col.na)
    from ember.frame._fallback import unsupported

    what = "Series" if not frame else "DataFrame"
    raise unsupported(f"{what}.diff", f"object data of {col.na!r} (pandas mixes NaN with {col.na!r})")


# --- accumulations -------------------------------------------------------------------------------------


def cumulative(col: Column, op: str, skipna: bool) -> Column | None:
    """cumsum / cumprod / cummin / cummax of missing objects with skipna: pandas skips them all (NaN
    objects). None for the others (and skipna=False, where the callers decide)."""
    if not skipna or not is_missing_objects(col):
        return None
    return _like(col, np.nan)


# --- flex arithmetic ---------------------------------------------------------------------------------


def check_fill(col: Column, value: Any) -> None:
    """``fill_value`` of a flex method into an object column of missing values: pandas mixes the value
    with the markers as Python objects (an object column of numbers, or Python's TypeError of the
    marker), which ember does not hold: refused."""
    if isinstance(value, str) or not is_missing_objects(col) or not len(col):
        return
    from ember.frame._fallback import unsupported

    raise unsupported("fill_value", f"a {type(value).__name__} into an object column of missing values")


def empty_comparison(col: Column, other: Any, op: str) -> NumericColumn | None:
    """An ordering comparison of an object column with no rows: pandas compares no object (an empty
    bool column); None for the others."""
    if len(col) or not isinstance(col, StringColumn) or col.pd_dtype != np.dtype(object):
        return None
    if op not in ("lt", "le", "gt", "ge") or isinstance(other, Column):
        return None
    return NumericColumn(col.xp.zeros(0, dtype=bool))

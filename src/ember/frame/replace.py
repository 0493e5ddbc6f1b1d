"""``Series.replace`` / ``DataFrame.replace`` for values of the column's own kind.

pandas replaces every pair at once (``{1: 2, 2: 3}`` maps 1 to 2 and 2 to 3, not 1 to 3), so each
pair's rows are found in the original column and the replacements applied with ``mask``. A value of
another kind (a string into numbers, a number into strings or booleans) would make pandas' object
column, which ember cannot hold: refused. An int column takes a non-integral float (or NaN) as
pandas does, by becoming float64 when such a pair matches a row (one sync).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import pandas as pd

from ember.column import CategoricalColumn, DatetimeColumn, NumericColumn, StringColumn
from ember.column.scalars import SKIP, scalar_for
from ember.frame._fallback import unsupported

NO_VALUE = object()  # ``value`` not given


def replace_series(series: Any, to_replace: Any, value: Any, regex: bool) -> Any:
    from ember.frame.replace_regex import has_pattern, replace_regex_series

    if regex is not False or has_pattern(to_replace):
        return replace_regex_series(series, to_replace, value, regex)
    return _replaced(series, _pairs(to_replace, value, "Series.replace"))


def replace_frame(frame: Any, to_replace: Any, value: Any, regex: bool) -> Any:
    """Each column replaced with the pairs; a dict of dicts (``{column: {old: new}}``) or a dict with
    a scalar ``value`` (``{column: old}``) names the columns, as pandas."""
    from ember.frame.replace_regex import has_pattern, replace_regex_frame

    if regex is not False or has_pattern(to_replace):
        return replace_regex_frame(frame, to_replace, value, regex)
    per_column: dict = {}
    if isinstance(to_replace, dict) and to_replace and all(k in frame._columns for k in to_replace):
        if value is NO_VALUE and all(isinstance(v, dict) for v in to_replace.values()):
            per_column = {k: _pairs(v, NO_VALUE, "DataFrame.replace") for k, v in to_replace.items()}
        elif value is not NO_VALUE and not isinstance(value, (dict, list, tuple)):
            per_column = {k: _pairs(v, value, "DataFrame.replace") for k, v in to_replace.items()}
    if not per_column:
        pairs = _pairs(to_replace, value, "DataFrame.replace")
        per_column = {k: pairs for k in frame._names}
    out = frame.copy(deep=False)
    for name, pairs in per_column.items():
        out[name] = _replaced(frame[name], pairs)
    return out


def _pairs(to_replace: Any, value: Any, method: str) -> list[tuple[Any, Any]]:
    """(old, new) pairs from pandas' spellings: a dict, lists of equal length, a list and one value,
    two scalars."""
    if isinstance(to_replace, dict):
        if value is not NO_VALUE:
            raise unsupported(method, "a dict to_replace together with value= (nested per-column forms)")
        return list(to_replace.items())
    if value is NO_VALUE:
        raise unsupported(method, "to_replace without value= (pandas' pad fill is gone in pandas 3)")
    if isinstance(value, dict):
        raise unsupported(method, "a dict value=")
    if isinstance(to_replace, (list, tuple, np.ndarray, pd.Index)):
        olds = list(to_replace)
        if isinstance(value, (list, tuple, np.ndarray)):
            if len(olds) != len(value):
                raise ValueError(
                    f"Replacement lists must match in length. Expecting {len(olds)} got {len(value)} "
                )
            return list(zip(olds, value))
        return [(old, value) for old in olds]
    if isinstance(value, (list, tuple, np.ndarray)):
        raise unsupported(method, "a scalar to_replace with a list value")
    return [(to_replace, value)]


def _kind(col: Any) -> str | None:
    if isinstance(col, CategoricalColumn):
        return None
    if isinstance(col, StringColumn):
        return "str"
    if isinstance(col, DatetimeColumn):
        return None if getattr(col, "tz", None) else "datetime"
    if isinstance(col, NumericColumn) and not col.nullable:
        return "bool" if col.is_bool else ("float" if col.data.dtype.kind == "f" else "int")
    return None


def _missing(v: Any) -> bool:
    return v is None or v is pd.NaT or v is pd.NA or (isinstance(v, float) and np.isnan(v))


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _is_time(v: Any) -> bool:
    return isinstance(v, (pd.Timestamp, dt.datetime, np.datetime64)) and getattr(v, "tzinfo", None) is None


_MATCHES = {  # which old values can equal a value of each kind (others never match: skipped)
    "int": _is_number,
    "float": _is_number,
    "bool": lambda v: isinstance(v, (bool, np.bool_)),
    "str": lambda v: isinstance(v, str),
    "datetime": _is_time,
}


def _replaced(series: Any, pairs: list[tuple[Any, Any]]) -> Any:
    kind = _kind(series._column)
    if kind is None:
        raise unsupported("replace", f"a {series.dtype} column")
    holds_missing = kind in ("float", "str", "datetime")
    steps = []  # (rows to replace, new value or NO_VALUE for missing)
    for old, new in pairs:
        old, new = scalar_for(series._column, old, "match"), scalar_for(series._column, new, "value")
        if old is SKIP:
            continue
        if kind == "datetime" and isinstance(old, str):
            try:  # pandas compares datetimes with the time a string spells
                old = pd.Timestamp(old)
            except ValueError:
                raise unsupported("replace", f"{old!r} in a datetime column (not a time)") from None
        if _missing(old):
            if not holds_missing:
                continue
            rows = series.isna()
        elif _MATCHES[kind](old):
            rows = (series == old).fillna(False)  # a missing 'string' compares as NA: not replaced
        else:
            continue  # pandas: a value of another kind matches nothing
        # None stays None in pandas (an object column) except among datetimes (NaT)
        if _missing(new) and kind != "bool" and (new is not None or kind == "datetime"):
            steps.append((rows, NO_VALUE))
        elif _MATCHES[kind](new):
            whole = kind == "int" and float(new) == int(new)
            steps.append((rows, int(new) if whole else new))  # 9.0 stays in an int column, as pandas
        elif bool(rows.any()):  # pandas makes an object column only when the pair matches a row
            raise unsupported(
                "replace",
                f"{new!r} into a {series.dtype} column (pandas makes an object column mixing kinds)",
            )
    if kind == "int" and any(new is NO_VALUE or float(new) != int(new) for _, new in steps):
        # pandas keeps int64 unless a pair that needs a float (NaN, 9.5) matches a row
        needs_float = [rows for rows, new in steps if new is NO_VALUE or float(new) != int(new)]
        if any(bool(rows.any()) for rows in needs_float):
            series = series.astype("float64")
    out = series
    for rows, new in steps:
        out = out.mask(rows) if new is NO_VALUE else out.mask(rows, new)
    return out

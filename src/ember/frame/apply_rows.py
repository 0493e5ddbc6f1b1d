"""``DataFrame.apply(func, axis=1)`` of a function written with column arithmetic.

pandas calls ``func`` once per row with that row as a Series of the frame's common dtype (an int and
a float column give float rows). ember calls it once with a :class:`RowProxy` whose ``r.a`` /
``r["a"]`` is the whole column cast to that row dtype, so ``r.a + r.b * 2`` runs column-wise on the
device. That result is kept only where it equals pandas' own row-by-row apply on a sample of the rows
(``frame/map_elementwise.py`` checks Series.map the same way); a Python branch on a value (``r.a if
r.a > 0 else 0``), a function of the row label (``r.name``) or of the row as a whole is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported

#: rows checked against pandas' own apply: the first and last few, a few spread between them and the
#: first few holding a missing value
_EDGE = 5
_SPREAD = 6
_MISSING = 3
#: row dtypes whose values pandas hands to the function as NumPy scalars
_ROW_KINDS = "iufbmM"


class RowProxy:
    """Stands for every row at once: a column label reads the whole column in the row dtype. Any other
    use of the row (its label, length, values, Series methods) raises, so the call is refused."""

    def __init__(self, frame: Any, row_dtype: np.dtype) -> None:
        self._frame = frame
        self._row_dtype = row_dtype
        self._read: list = []

    def _column(self, label: Any) -> Any:
        from ember.frame.index import RangeIndex
        from ember.frame.series import Series

        column = self._frame[label]
        if column.dtype != self._row_dtype:
            column = column.astype(self._row_dtype)
        self._read.append(label)
        # positional index: arithmetic between columns never aligns; the result is relabelled
        return Series._from_column(column.column, RangeIndex(len(self._frame)), label)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or hasattr(pd.Series, name) or name not in self._frame._names:
            raise AttributeError(f"row attribute {name!r} is not a column read")
        return self._column(name)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, (list, tuple, slice)) or key not in self._frame._names:
            raise KeyError(key)
        return self._column(key)

    def __len__(self) -> int:
        raise TypeError("the length of a row is not a column read")

    def __iter__(self) -> Any:
        raise TypeError("iterating over a row is not a column read")

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a row's values are not a column read")


def row_dtype(frame: Any) -> np.dtype | None:
    """The dtype pandas gives each row (the columns' common type), where its values are NumPy
    scalars; None otherwise (object, masked, string, categorical, tz-aware rows)."""
    from pandas.core.dtypes.cast import find_common_type

    dtypes = list(frame.dtypes)
    common = find_common_type(dtypes) if dtypes else None
    if isinstance(common, np.dtype) and common.kind in _ROW_KINDS:
        return common
    return None


def apply_rows(frame: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """The Series of ``func`` of each row, as pandas' ``apply(func, axis=1)``; Unsupported where
    the function is not column arithmetic (see the module docstring)."""
    refusal = _refusal(frame, func)
    if refusal:
        raise unsupported("DataFrame.apply", f"axis=1 {refusal}; use column operations")
    dtype = row_dtype(frame)
    proxy = RowProxy(frame, dtype)
    try:
        result = func(proxy, *args, **kwargs)
    except Exception as exc:  # a branch on a value, the row label, a scalar-only function ...
        result = exc
    vectorized = _as_result(frame, proxy, result)
    if vectorized is not None and _sample_agrees(frame, vectorized, func, args, kwargs):
        return vectorized
    detail = f" ({type(result).__name__}: {result})" if isinstance(result, Exception) else ""
    raise unsupported(
        "DataFrame.apply",
        f"axis=1 with the function {getattr(func, '__name__', func)!r}, which is not column "
        f"arithmetic{detail}; write it with column operations (df.a + df.b, Series.where)",
    )


def _refusal(frame: Any, func: Any) -> str | None:
    """Why the rows cannot take the vectorized call at all (None: they can)."""
    if not callable(func) or isinstance(func, str):
        return f"with {type(func).__name__} functions"
    if len(frame) == 0 or not frame._names:
        return "on an empty frame (pandas infers the result from a call on an empty row)"
    if getattr(frame.columns, "nlevels", 1) > 1:
        return "with MultiIndex columns"
    if row_dtype(frame) is None:
        dtypes = sorted({str(d) for d in frame.dtypes})
        return f"on rows of columns {dtypes} (pandas passes rows of object or extension dtype)"
    return None


def _as_result(frame: Any, proxy: RowProxy, result: Any) -> Any:
    """The vectorized call's result as pandas' (unnamed, the frame's index), or None where it is not
    one value per row: a Series of another length or index, or a value computed from a column."""
    from ember.frame.index import RangeIndex
    from ember.frame.series import Series

    n = len(frame)
    if isinstance(result, Series):
        if (
            len(result) != n
            or not isinstance(result.index, RangeIndex)
            or not result.index.equals(RangeIndex(n))
        ):
            return None
        return Series._from_column(result.column, frame.index, None)
    if proxy._read or not _plain_scalar(result):
        return None  # a scalar computed from whole columns (r.a.sum(), pd.isna(r.a)) is no row's value
    return _broadcast(frame, result)


def _plain_scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, str, np.number, np.bool_)) and not isinstance(value, type)


def _broadcast(frame: Any, value: Any) -> Any:
    """A Series repeating ``value`` on every row, typed as pandas types the row results."""
    from ember.backend import xp as current_xp
    from ember.column.convert import from_pandas as column_from_pandas
    from ember.frame.series import Series

    xp = current_xp()
    one = column_from_pandas(pd.Series([value]), xp)
    return Series._from_column(one.take(xp.zeros(len(frame), dtype=np.int64)), frame.index, None)


def _sample_rows(frame: Any) -> np.ndarray:
    """Positions of the rows checked: the first and last few, a few spread between, and the first
    few holding a missing value (where scalar and column semantics most often part)."""
    n = len(frame)
    spread = np.linspace(0, n - 1, num=min(n, _SPREAD + 2)).astype(np.int64)
    picks = [np.arange(min(n, _EDGE)), np.arange(max(n - _EDGE, 0), n), spread]
    missing = frame.isna().any(axis=1).to_numpy()
    picks.append(np.flatnonzero(missing)[:_MISSING])
    return np.unique(np.concatenate(picks).astype(np.int64))


def _sample_agrees(frame: Any, vectorized: Any, func: Any, args: tuple, kwargs: dict) -> bool:
    """Whether the vectorized result equals pandas' own row-by-row apply of the sampled rows (values
    and dtype, NaN equal to NaN). pandas' calls run on real rows: an error they raise is pandas'."""
    picks = _sample_rows(frame)
    rows = frame.iloc[picks].to_pandas()
    want = rows.apply(func, axis=1, args=args, **kwargs)
    if not isinstance(want, pd.Series):
        return False
    got = vectorized.iloc[picks].to_pandas()
    try:
        pd.testing.assert_series_equal(got, want, check_names=True, check_index_type=False)
    except AssertionError:
        return False
    return True

"""DataFrame / Series methods of pandas' long tail (mode, dot, to_records, to_dict, flags, asof ...),
mixed into DataFrame and Series.

Results pandas hands out as host objects (dicts, record arrays, tuples, scalars, an ExtensionArray)
are built from the host copy (``to_pandas``); every other result stays in ember columns. Skewness and
kurtosis, time-of-day filters and asof are in ``frame_extras_stats`` / ``frame_extras_time``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.column import NumericColumn
from ember.frame._fallback import unsupported
from ember.frame.series_more import SeriesMore
from ember.frame.text_output import FrameTextOutput, SeriesTextOutput

if TYPE_CHECKING:
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series


class Flags:
    """pandas' ``Flags`` of an ember object: ember holds every object with
    ``allows_duplicate_labels=True`` (the flag is not carried through operations, so disallowing
    duplicates is refused rather than silently forgotten)."""

    _keys = frozenset({"allows_duplicate_labels"})

    @property
    def allows_duplicate_labels(self) -> bool:
        return True

    @allows_duplicate_labels.setter
    def allows_duplicate_labels(self, value: bool) -> None:
        _check_flag(value)

    def __getitem__(self, key: str) -> bool:
        if key not in self._keys:
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in self._keys:
            raise ValueError(f"Unknown flag {key}. Must be one of {sorted(self._keys)}")
        setattr(self, key, value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Flags, pd.Flags)):
            return other.allows_duplicate_labels is True
        return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "<Flags(allows_duplicate_labels=True)>"


def _check_flag(value: Any) -> None:
    if not value:
        raise unsupported(
            "flags.allows_duplicate_labels",
            "False (ember does not carry the flag through operations; every object allows duplicates)",
        )


class _Shared:
    """Methods written once for DataFrame and Series."""

    __slots__ = ()

    @property
    def flags(self) -> Flags:
        """pandas' flags: ``allows_duplicate_labels`` is always True in ember."""
        return Flags()

    def set_flags(self, *, copy: Any = False, allows_duplicate_labels: bool | None = None) -> Any:
        """A new object of the same data (columns are immutable: nothing is copied); only
        ``allows_duplicate_labels=True`` (or None) is supported."""
        if allows_duplicate_labels is not None:
            _check_flag(allows_duplicate_labels)
        return self.copy(deep=False)

    def __matmul__(self, other: Any) -> Any:
        return self.dot(other)

    def __round__(self, decimals: int = 0) -> Any:
        return self.round(decimals)

    def _index_bytes(self, deep: bool) -> int:
        """pandas' ``Index.memory_usage`` of the row labels (a fresh index: no lookup engine)."""
        from ember.frame.index import MultiIndex, RangeIndex

        if isinstance(self._index, RangeIndex):
            return int(self._index.to_pandas().memory_usage(deep=deep))  # no data behind it
        if isinstance(self._index, MultiIndex):
            raise unsupported("memory_usage", "a MultiIndex (pass index=False)")
        return column_bytes(self._index.column, "memory_usage")

    # --- rows by label ----------------------------------------------------------------------------
    def asof(self, where: Any, subset: Any = None) -> Any:
        """The last row (value) without a missing value at or before each label of ``where``."""
        from ember.frame.frame_extras_time import asof

        return asof(self, where, subset)

    def between_time(self, start_time: Any, end_time: Any, inclusive: str = "both", axis: Any = None) -> Any:
        """Rows whose DatetimeIndex label's wall-clock time lies between two times (across midnight
        where ``start_time`` is later than ``end_time``)."""
        from ember.frame.frame_extras_time import between_time

        method = f"{type(self).__name__}.between_time"
        return between_time(self, start_time, end_time, inclusive, axis, method)

    def at_time(self, time: Any, asof: bool = False, axis: Any = None) -> Any:
        """Rows whose DatetimeIndex label's wall-clock time is ``time``."""
        from ember.frame.frame_extras_time import at_time

        return at_time(self, time, asof, axis, f"{type(self).__name__}.at_time")


class FrameExtras(_Shared, FrameTextOutput):
    """DataFrame methods (mixed into DataFrame)."""

    __slots__ = ()

    # --- host conversions (pandas returns host objects) -------------------------------------------
    def to_dict(self, orient: str = "dict", *, into: Any = dict, index: bool = True) -> Any:
        """pandas' ``to_dict`` (a host mapping or list, built from the host copy)."""
        return self.to_pandas().to_dict(orient=orient, into=into, index=index)

    def to_records(self, index: bool = True, column_dtypes: Any = None, index_dtypes: Any = None) -> Any:
        """pandas' NumPy record array (host), built from the host copy."""
        return self.to_pandas().to_records(
            index=index, column_dtypes=column_dtypes, index_dtypes=index_dtypes
        )

    def itertuples(self, index: bool = True, name: str | None = "Pandas") -> Iterator:
        """pandas' named tuples of host values, one a row (the frame is copied to the host once)."""
        return self.to_pandas().itertuples(index=index, name=name)

    def iterrows(self) -> Iterator[tuple[Any, Series]]:
        """(label, row as an ember Series labelled by column) for each row; the frame is copied to
        the host once. A row across columns of different kinds must be one ember dtype (else
        NotImplementedError, as for any object Series ember cannot hold)."""
        from ember.frame.series import Series

        for label, row in self.to_pandas().iterrows():
            yield label, Series(row)

    # --- linear algebra ---------------------------------------------------------------------------
    def dot(self, other: Any) -> Any:
        """Matrix product with a DataFrame, Series (aligned by label) or array, on the device."""
        from ember.frame.frame_extras_math import frame_dot

        return frame_dot(self, other)

    # --- statistics -------------------------------------------------------------------------------
    def mode(self, axis: Any = 0, numeric_only: bool = False, dropna: bool = True) -> DataFrame:
        """Each column's modes (``Series.mode``) on a RangeIndex, shorter columns padded with missing
        values (ints become float64), as pandas; ``axis=1``: each row's, through the transpose."""
        from ember.frame.generic import check_axis
        from ember.frame.index import RangeIndex

        if check_axis("DataFrame.mode", axis) == 1:
            return self._numeric_part(numeric_only).T.mode(dropna=dropna).T
        data = self._numeric_part(numeric_only)
        modes = {k: _column_mode(data, k, dropna) for k in data._names}
        n = max((len(m) for m in modes.values()), default=0)
        xp = _xp_of(data)
        cols = {}
        for k, m in modes.items():
            pad = xp.arange(n, dtype=np.int64)
            cols[k] = m if len(m) == n else m.take_nullable(xp.where(pad < len(m), pad, -1))
        return data._with_rows(cols, RangeIndex(n))

    def skew(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, **kwargs: Any) -> Any:
        """Bias-corrected skewness of each column (``axis=1``: row, ``axis=None``: all values)."""
        return self._moment("skew", axis, skipna, numeric_only)

    def kurt(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, **kwargs: Any) -> Any:
        """Bias-corrected excess kurtosis (Fisher's); see ``skew``."""
        return self._moment("kurt", axis, skipna, numeric_only)

    kurtosis = kurt

    def _moment(self, op: str, axis: Any, skipna: bool, numeric_only: bool) -> Any:
        from ember.frame.frame_extras_math import moment_stats

        return moment_stats(self, op, axis, skipna, numeric_only)

    def corrwith(
        self,
        other: Any,
        axis: Any = 0,
        drop: bool = False,
        method: str = "pearson",
        numeric_only: bool = False,
        min_periods: int | None = None,
    ) -> Series:
        """Correlation of each column with a Series or with the same-labelled column of a frame
        (``axis=1``: of each row, through the transposes), rows aligned by label."""
        from ember.frame.frame_extras_math import corrwith

        return corrwith(self, other, axis, drop, method, numeric_only, min_periods)

    def memory_usage(self, index: bool = True, deep: bool = False) -> Series:
        """pandas' figures (bytes) for each column as pandas would hold it (and the index, labelled
        'Index'), computed from the dtypes and lengths; numeric, bool, masked and datetime /
        timedelta columns (strings, categoricals and objects are refused: their size depends on
        pandas' own layout)."""
        from ember.frame.series import Series

        values = [column_bytes(c, "DataFrame.memory_usage") for c in self._columns.values()]
        result = pd.Series(values, index=self.columns, dtype=np.intp)
        if index:
            labels = pd.Series(self._index_bytes(deep), index=["Index"])
            result = pd.concat([labels, result]) if len(result) else labels.astype(np.intp)
        return Series(result)

    @property
    def axes(self) -> list:
        """[row labels, column labels]."""
        return [self.index, self.columns]

    def isetitem(self, loc: Any, value: Any) -> None:
        """Set the column(s) at position(s) ``loc`` to ``value`` (a new column, as pandas: the old
        one is never written into); a frame's columns go one to each position."""
        from ember.frame.dataframe import DataFrame

        if isinstance(value, DataFrame):
            locs = [loc] if pd.api.types.is_integer(loc) else list(loc)
            if len(locs) != len(value.columns):
                raise ValueError(f"Got {len(locs)} positions but value has {len(value.columns)} columns.")
            for i, idx in enumerate(locs):
                self[self._names[idx]] = value.iloc[:, i]
            return
        if not pd.api.types.is_integer(loc):
            raise unsupported("DataFrame.isetitem", "several positions with one value (pass a DataFrame)")
        self[self._names[loc]] = value

    def _numeric_part(self, numeric_only: bool) -> DataFrame:
        if not numeric_only:
            return self
        from ember.column import is_numeric_column

        return self[[k for k, c in self._columns.items() if is_numeric_column(c)]]


def _select(self: Any, /, *args: Any, **kwargs: Any) -> Any:
    """pandas 3.1's ``select``: existing columns by label and computed ones (``pd.col`` expressions,
    keyword arguments as in ``assign``), in the order given; later items see earlier computed
    columns. A label asked for twice (duplicate columns) is refused."""
    from pandas.core.col import Expression
    from pandas.core.common import apply_if_callable
    from pandas.core.methods.select import _parse_select_args

    items = _parse_select_args(args)  # pandas' own parsing and errors
    nlevels = self.columns.nlevels
    data = self.copy(deep=False)
    positions: list[int] = []
    labels: list = []  # resolved in batches, as pandas (its KeyError names the missing ones)
    for item in items:
        switch = nlevels > 1 and labels and isinstance(item, tuple) != isinstance(labels[-1], tuple)
        if isinstance(item, Expression) or switch:
            positions.extend(_label_positions(data, labels))
            labels = []
        if isinstance(item, Expression):
            for name, value in _evaluated(item, data, nlevels):
                positions.append(_set_column(data, name, value))
        else:
            labels.append(item)
    positions.extend(_label_positions(data, labels))
    for key, value in kwargs.items():
        if nlevels > 1:
            raise TypeError(
                f"cannot create column {key!r} from a keyword argument: the DataFrame's columns have "
                f"{nlevels} levels, so new column names must be tuples of length {nlevels}; pass a "
                "positional expression with .rename(...) instead"
            )
        positions.append(_set_column(data, key, apply_if_callable(value, data)))
    if len(set(positions)) < len(positions):
        raise unsupported("DataFrame.select", "a column selected more than once (duplicate labels)")
    return data.iloc[:, positions]


def _label_positions(data: Any, labels: list) -> list[int]:
    """Positions of existing labels (every column under a MultiIndex's first-level key), found in
    the host column labels; pandas' KeyError for missing ones."""
    if not labels:
        return []
    return [int(i) for i in data.columns._get_indexer_strict(labels, "columns")[1]]


def _evaluated(item: Any, data: Any, nlevels: int) -> list[tuple[Any, Any]]:
    """(name, Series) of each column an expression gives, checked as pandas' select."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    result = item._eval_expression(data)
    if isinstance(result, Series):
        if result.name is None:
            raise TypeError(
                f"expression {item!r} evaluated to an unnamed Series; use .rename(...) to name it or "
                "pass it as a keyword argument"
            )
        if nlevels > 1 and (not isinstance(result.name, tuple) or len(result.name) != nlevels):
            raise TypeError(
                f"expression {item!r} evaluated to a Series named {result.name!r}, but the DataFrame's "
                f"columns have {nlevels} levels; use .rename(...) with a tuple of length {nlevels}"
            )
        return [(result.name, result)]
    if isinstance(result, DataFrame):
        if result.columns.nlevels != nlevels:
            raise TypeError(
                f"expression {item!r} evaluated to a DataFrame whose columns have "
                f"{result.columns.nlevels} levels, but the DataFrame's columns have {nlevels} levels"
            )
        return [(name, result.iloc[:, i]) for i, name in enumerate(result.columns)]
    raise TypeError(
        f"expression {item!r} evaluated to an object of type {type(result).__name__}, expected a "
        "Series or DataFrame; pass it as a keyword argument instead"
    )


def _set_column(data: Any, name: Any, value: Any) -> int:
    """``data[name] = value`` (as ``assign``); the column's position."""
    if name in data._columns and data._names.count(name) > 1:
        raise unsupported("DataFrame.select", "a computed column named as duplicated labels")
    data[name] = value
    return data._names.index(name)


if PANDAS_31:
    FrameExtras.select = _select  # type: ignore[attr-defined]


def _column_mode(frame: Any, label: Any, dropna: bool) -> Any:
    from ember.frame.series import Series

    return Series._from_column(frame._columns[label], frame._index, label).mode(dropna=dropna).column


def _xp_of(obj: Any) -> Any:
    from ember.backend import xp as current_xp

    cols = list(getattr(obj, "_columns", {}).values())
    return cols[0].xp if cols else current_xp()


class SeriesExtras(_Shared, SeriesTextOutput, SeriesMore):
    """Series methods (mixed into Series)."""

    __slots__ = ()

    # --- host conversions (pandas returns host objects) -------------------------------------------
    def to_dict(self, *, into: Any = dict) -> Any:
        """{label: value} of host values (pandas' ``to_dict``), built from the host copy."""
        return self.to_pandas().to_dict(into=into)

    def items(self) -> Iterator[tuple[Any, Any]]:
        """(label, host value) pairs; the Series is copied to the host once."""
        return self.to_pandas().items()

    def keys(self) -> Any:
        """The index (pandas' alias)."""
        return self.index

    @property
    def array(self) -> Any:
        """pandas' ExtensionArray of the values, built from a host copy (pandas' own type:
        NumpyExtensionArray, IntegerArray, ArrowStringArray ...); it shares no memory with the
        Series, which stays on the device."""
        return self.to_pandas().array

    # --- ordering ---------------------------------------------------------------------------------
    def argsort(
        self, axis: Any = 0, kind: str = "quicksort", order: Any = None, stable: Any = None
    ) -> Series:
        """Positions that sort the values, missing values' positions last in their order (pandas 3);
        int64 on the same index. pandas' default quicksort orders tied values in no defined way:
        ember's sort is stable, so ties are refused unless ``kind`` is 'stable' or 'mergesort'."""
        from ember.ops.sort import argsort

        if axis not in (0, "index", -1):
            raise ValueError(f"No axis named {axis} for object type Series")
        if kind not in ("stable", "mergesort") and self.nunique() != self.count():
            raise unsupported(
                "Series.argsort",
                f"kind={kind!r} with tied values (its order of ties is not defined); pass kind='stable'",
            )
        order_ = argsort([self._column], ascending=True, na_position="last")
        return self._wrap(NumericColumn(order_.astype(np.int64, copy=False)))

    # --- linear algebra / statistics --------------------------------------------------------------
    def dot(self, other: Any) -> Any:
        """Dot product with a Series (a scalar), a DataFrame (a Series by column) or an array
        (pandas' host ndarray), aligned by label, computed on the device."""
        from ember.frame.frame_extras_math import series_dot

        return series_dot(self, other)

    def autocorr(self, lag: int = 1) -> float:
        """Pearson correlation of the Series with itself shifted by ``lag``."""
        return self.corr(self.shift(lag))

    def skew(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kwargs: Any) -> Any:
        """Bias-corrected skewness (pandas' type: the float dtype of the values, pd.NA for a masked
        Series' missing result)."""
        return self._moment("skew", axis, skipna, numeric_only)

    def kurt(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kwargs: Any) -> Any:
        """Bias-corrected excess kurtosis (Fisher's); see ``skew``."""
        return self._moment("kurt", axis, skipna, numeric_only)

    kurtosis = kurt

    def _moment(self, op: str, axis: Any, skipna: bool, numeric_only: bool) -> Any:
        from ember.frame.frame_extras_math import column_moment, moment_scalar
        from ember.frame.generic import check_axis

        if check_axis(f"Series.{op}", axis) != 0:
            raise ValueError(f"No axis named {axis} for object type Series")
        if numeric_only and not isinstance(self._column, NumericColumn):
            raise TypeError(f"Series.{op} does not allow numeric_only=True with non-numeric dtypes.")
        from ember.ops.object_missing import as_floats

        col = as_floats(self._column, op)  # object missing values: pandas' float64 NaN
        value = moment_scalar(col, to_host_scalar(column_moment(col, op, skipna, op)))
        if not PANDAS_31 and not col.nullable and value != value:
            # pandas 3.0 returns Python's nan where too few values count (3 for skew, 4 for kurt)
            if (self.count() if skipna else len(self)) < (3 if op == "skew" else 4):
                return float("nan")
        return value

    # --- small pandas attributes ------------------------------------------------------------------
    @property
    def T(self) -> Series:  # noqa: N802 - pandas' name
        """The Series itself (pandas' transpose of one dimension)."""
        return self

    @property
    def is_unique(self) -> bool:
        """Whether no value repeats (missing values count as one value, as pandas)."""
        return self.nunique(dropna=False) == len(self)

    @property
    def is_monotonic_increasing(self) -> bool:
        """As pandas: the values as an Index (a missing value makes it False)."""
        return self._as_index().is_monotonic_increasing

    @property
    def is_monotonic_decreasing(self) -> bool:
        return self._as_index().is_monotonic_decreasing

    def _as_index(self) -> Any:
        from ember.frame.index import Index

        return Index._from_column(self._column)

    def pop(self, item: Any) -> Any:
        """The value(s) at label ``item``, dropped from the Series in place."""
        out = self[item]
        self._replace_with(self.drop(item))
        return out

    def repeat(self, repeats: Any, axis: Any = None) -> Series:
        """Each value (and its label) repeated ``repeats`` times (an int, or one count a value)."""
        if axis not in (None, 0, "index"):
            raise ValueError(f"No axis named {axis} for object type Series")
        n = len(self)
        counts = np.asarray(repeats)
        np.repeat(np.zeros(n, dtype=np.int8), counts)  # NumPy's checks and errors, on the counts only
        xp = self._column.xp
        reps = int(counts) if counts.ndim == 0 else counts.astype(np.int64).tolist()
        return self._take_rows(xp.repeat(xp.arange(n, dtype=np.int64), reps))

    def divmod(self, other: Any, level: Any = None, fill_value: Any = None, axis: Any = 0) -> tuple:
        """(floordiv, mod) of the two, aligned as each of them."""
        self._check_divmod(other, "divmod")
        kw = {"level": level, "fill_value": fill_value, "axis": axis}
        return self.floordiv(other, **kw), self.mod(other, **kw)

    def rdivmod(self, other: Any, level: Any = None, fill_value: Any = None, axis: Any = 0) -> tuple:
        self._check_divmod(other, "rdivmod")
        kw = {"level": level, "fill_value": fill_value, "axis": axis}
        return self.rfloordiv(other, **kw), self.rmod(other, **kw)

    def __divmod__(self, other: Any) -> tuple:
        return self.divmod(other)

    def __rdivmod__(self, other: Any) -> tuple:
        return self.rdivmod(other)

    def _check_divmod(self, other: Any, method: str) -> None:
        """pandas' divmod of masked (Int64 ...) values differs in dtype from its floordiv: refused."""
        from ember.frame.series import Series

        masked = getattr(self._column, "nullable", False) or other is pd.NA
        if isinstance(other, Series):
            masked = masked or getattr(other._column, "nullable", False)
        elif isinstance(getattr(other, "dtype", None), pd.api.extensions.ExtensionDtype):
            masked = True
        if masked:
            raise unsupported(f"Series.{method}", "masked (Int64, Float64, boolean) values or pd.NA")

    def memory_usage(self, index: bool = True, deep: bool = False) -> int:
        """pandas' figure (bytes) of the values as pandas would hold them, plus the index's; see
        ``DataFrame.memory_usage``."""
        size = column_bytes(self._column, "Series.memory_usage")
        return size + self._index_bytes(deep) if index else size


def to_host_scalar(value: Any) -> float:
    from ember.backend import to_host

    return float(to_host(value.reshape(1))[0])


def column_bytes(col: Any, method: str) -> int:
    """The bytes pandas' array of this column takes: n x itemsize (+ n for a masked dtype's mask)."""
    from ember.column import DatetimeColumn, TimedeltaColumn

    n = len(col)
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        return 8 * n
    if isinstance(col, NumericColumn) and col.dtype != object:
        if col.nullable:
            return n * col.data.dtype.itemsize + n
        return n * np.dtype(col.dtype).itemsize
    raise unsupported(method, f"a column of dtype {col.dtype} (its size depends on pandas' layout)")

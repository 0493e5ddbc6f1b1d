"""DataFrame reductions (sum, mean, ... describe, corr, cov): a mixin of DataFrame, over ops.reductions.

Per-column results come back from the device in one transfer (``reduce_many``) and are wrapped into a
Series labelled by column.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ember.backend import xp as current_xp
from ember.column import (
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
    from_pandas,
    is_numeric_column,
)
from ember.frame._fallback import unsupported, with_fallback
from ember.frame.generic import REDUCTIONS, check_axis
from ember.frame.index import Index
from ember.frame.series import Series

if TYPE_CHECKING:
    from ember.frame.dataframe import DataFrame


class FrameReductions:
    """Reductions over a DataFrame's columns (``axis=0``) or rows (``axis=1``)."""

    def _reduce(
        self,
        op: str,
        axis: Any = 0,
        skipna: bool = True,
        numeric_only: bool = False,
        names: list | None = None,
        **kw: Any,
    ) -> Series:
        from ember.ops.reductions import reduce_many
        from ember.ops.row_reductions import ROW_OPS, reduce_rows

        if names is None:
            names = [k for k, c in self._columns.items() if not numeric_only or is_numeric_column(c)]
        cols = [self._columns[k] for k in names]
        if axis is None:
            if op in ("count", "nunique"):
                raise ValueError("No axis named None for object type DataFrame")
            return _reduce_flat(cols, op, skipna, **kw)
        if check_axis(op, axis) == 1:
            if not cols:  # pandas: the reduction of an empty row, on every row
                value = getattr(pd.DataFrame(index=[0] if len(self._index) else []), op)(axis=1).to_numpy()
                if not len(value):  # no rows either (nunique: float64, its 0 of a row int64)
                    return Series(pd.Series([], index=self._index.to_pandas(), dtype=value.dtype))
                col = NumericColumn(current_xp().full(len(self._index), value[0], dtype=value.dtype))
                return Series._from_column(col, self._index)
            if not len(self._index) and op in ROW_OPS:  # pandas: no rows reduce as axis=0, for the dtype
                dtype = self._reduce(op, 0, skipna, numeric_only, names=names, **kw).dtype
                return Series(pd.Series([], index=self._index.to_pandas(), dtype=dtype))
            if not len(self._index) and op == "nunique":  # pandas: float64, whatever the columns
                return Series(pd.Series([], index=self._index.to_pandas(), dtype=np.float64))
            out = reduce_rows(cols, op, skipna=skipna, **kw)
            if not len(self._index) and op == "sem":  # pandas' nansem of no rows: float64 ...
                mixed = out.nullable and not all(getattr(c, "nullable", False) for c in cols)
                if not out.nullable or mixed:  # ... masked Float64 where NumPy and masked columns mix
                    out = NumericColumn(out.data.astype(np.float64), out.mask, out.nullable)
            return Series._from_column(out, self._index)
        if op not in ("count", "nunique", "min", "max", "any", "all") and not numeric_only:
            bad = [k for k, c in zip(names, cols) if not _reducible(c, op)]
            answered = [k for k in bad if not _pandas_refuses(self._columns[k], op)]
            if answered:
                raise unsupported(
                    f"DataFrame.{op}",
                    f"column(s) {answered} of dtype {[str(self._columns[b].dtype) for b in answered]} "
                    "(pass numeric_only=True to reduce the numeric columns only)",
                )
            if bad:
                raise TypeError(
                    f"Could not {op} column(s) {bad} of dtype "
                    f"{[str(self._columns[b].dtype) for b in bad]}; pass numeric_only=True"
                )
        if op in ("sum", "prod") and _strings_beside_numbers(cols):
            raise unsupported(
                f"DataFrame.{op}",
                "string or object columns beside numeric ones (the result would be an object Series, "
                "each column keeping its own type); pass numeric_only=True",
            )
        values = reduce_many(cols, op, skipna=skipna, **kw)
        values = [_nan_of_column(v, c, skipna, op) for v, c in zip(values, cols)]
        # bool columns beside other numbers keep their own type in pandas' min / max (object Series)
        # (no rows: a bool column's NaN beside a masked column's NA, also an object Series)
        if op in ("min", "max") and (
            len({(type(c), getattr(c, "is_bool", False)) for c in cols}) > 1
            or (
                not len(self._index)
                and any(getattr(c, "is_bool", False) and not c.nullable for c in cols)
                and any(getattr(c, "nullable", False) for c in cols)
            )
        ):
            raise unsupported(
                f"DataFrame.{op}",
                "columns of different kinds (the result would be an object "
                "Series, each column keeping its own type); select columns of one kind (numeric_only=True "
                "drops the non-numeric ones)",
            )
        dtype = _common(values, op)
        if op not in ("count", "nunique", "any", "all") and any(c.dtype == object for c in cols):
            dtype = object  # pandas' row across an object column (bools beside missing values) is object
        if dtype is None and _numbers_beside_times(cols):
            raise unsupported(
                f"DataFrame.{op}",
                "datetime / timedelta columns beside numeric ones (the result would be an object Series, "
                "each column keeping its own type and missing marker); pass numeric_only=True",
            )
        masked = any(getattr(c, "nullable", False) for c in cols)
        if dtype is None and masked:
            dtype = _masked_result_dtype(values, cols, op)
        elif op in ("any", "all") and masked:  # pandas: a masked boolean (pd.NA when undecided)
            dtype = "boolean"
        elif dtype is None and cols and not any(isinstance(c, NumericColumn) for c in cols):
            # pandas: results of one dtype keep it (NaT of datetime64[us], NaN of str); of several, object
            kinds = {str(c.dtype) for c in cols}
            dtype = cols[0].dtype if len(kinds) == 1 else object
            if len(kinds) > 1 and (
                all(isinstance(c, StringColumn) for c in cols)  # 'string' beside str is 'string'
                or all(isinstance(c, DatetimeColumn) for c in cols)  # times of several units: the finest
                or all(isinstance(c, TimedeltaColumn) for c in cols)
            ):
                dtype = _common_dtype([c.dtype for c in cols])
        if dtype == object and len({_missing_kind(v) for v in values} - {None}) > 1:
            raise unsupported(
                f"DataFrame.{op}",
                "columns whose results are different missing values (NaN beside pd.NA or None in "
                "one object Series, which ember holds with one missing value)",
            )
        return _reduction_series(values, names, dtype, self.columns[:0])

    def any(self, axis: Any = 0, bool_only: bool = False, skipna: bool = True) -> Any:
        """Whether any value is true in each column (``axis=0``), row (``axis=1``) or in the whole
        frame (``axis=None``, one scalar); ``bool_only`` keeps the boolean columns only."""
        return self._reduce("any", axis, skipna, names=self._bool_names(bool_only))

    def all(self, axis: Any = 0, bool_only: bool = False, skipna: bool = True) -> Any:
        """Whether all values are true; see ``any``."""
        return self._reduce("all", axis, skipna, names=self._bool_names(bool_only))

    def _bool_names(self, bool_only: bool) -> list:
        """pandas' ``bool_only``: the columns of NumPy bool dtype (a masked boolean is left out)."""
        if not bool_only:
            return list(self._names)
        return [
            k
            for k, c in self._columns.items()
            if isinstance(c, NumericColumn) and not c.nullable and c.data.dtype == np.bool_
        ]

    def count(self, axis: Any = 0, numeric_only: bool = False) -> Series:
        return self._reduce("count", axis, numeric_only=numeric_only)

    def nunique(self, axis: Any = 0, dropna: bool = True) -> Series:
        return self._reduce("nunique", axis, skipna=dropna)

    def quantile(
        self,
        q: Any = 0.5,
        axis: Any = 0,
        numeric_only: bool = False,
        interpolation: str = "linear",
        method: str = "single",
    ) -> Any:
        """pandas' quantile over each column (``method="single"``) or of whole rows (``"table"``:
        the rows in lexicographic order, ``frame/frame_quantile_more2.py``)."""
        from ember.frame.frame_quantile_more2 import checked_quantiles, table_quantile
        from ember.ops.quantiles import quantile_many

        checked_quantiles(q)
        if check_axis("DataFrame.quantile", axis) == 1:
            raise unsupported("DataFrame.quantile", "axis=1")
        names = [k for k, c in self._columns.items() if is_numeric_column(c) or not numeric_only]
        if names and method != "single":
            return table_quantile(self[names], q, interpolation, method)
        qs = [float(q)] if np.isscalar(q) else [float(v) for v in q]
        table = {k: quantile_many(self._columns[k], qs, interpolation=interpolation) for k in names}
        labels = axis_labels(self, names)
        if np.isscalar(q):  # no column: pandas' float64; a masked column: a masked float result
            values = [v[0] for v in table.values()]
            cols = [self._columns[k] for k in names]
            dtype = None if values else np.float64
            masked = [c for c in cols if getattr(c, "nullable", False) and c.data.dtype.kind != "b"]
            if masked:  # pandas concatenates the columns' masked results: their common dtype
                kinds = [
                    _masked_quantile_dtype(c) if c in masked else np.asarray(v).dtype
                    for c, v in zip(cols, values)
                ]
                dtype = _common_dtype(kinds)
            return Series(pd.Series(values, index=labels, name=q, dtype=dtype))
        table = {k: _quantiles_array(v, self._columns[k]) for k, v in table.items()}
        return type(self)(pd.DataFrame(table, index=qs, columns=labels))

    def idxmin(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False) -> Series:
        if axis is None:
            raise ValueError("No axis named None for object type DataFrame")
        if check_axis("DataFrame.idxmin", axis) == 1:
            from ember.frame.frame_axis1 import arg_labels_of_rows

            return arg_labels_of_rows(self, "idxmin", skipna, numeric_only)
        return self._arg_labels("idxmin", skipna, numeric_only)

    def idxmax(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False) -> Series:
        if axis is None:
            raise ValueError("No axis named None for object type DataFrame")
        if check_axis("DataFrame.idxmax", axis) == 1:
            from ember.frame.frame_axis1 import arg_labels_of_rows

            return arg_labels_of_rows(self, "idxmax", skipna, numeric_only)
        return self._arg_labels("idxmax", skipna, numeric_only)

    def _arg_labels(self, op: str, skipna: bool, numeric_only: bool = False) -> Series:
        """The index label of each column's min/max: positions in one transfer, labels by one take."""
        from ember.frame.index import MultiIndex
        from ember.ops.grouping import strings_if_held
        from ember.ops.reductions import reduce_many

        if isinstance(self._index, MultiIndex):
            raise unsupported(f"DataFrame.{op}", "a MultiIndex (the labels would be tuples)")
        if not self._names and len(self._index):  # pandas: an empty Series of the row labels' dtype
            return Series(pd.Series(dtype=self._index.dtype))
        names = [k for k in self._names if not numeric_only or is_numeric_column(self._columns[k])]
        positions = reduce_many([self._columns[k] for k in names], op, skipna=skipna)
        xp = current_xp()
        labels = self._index.take(xp.asarray(np.asarray(positions, dtype=np.int64)))
        if not names:
            return Series(pd.Series([], index=self.columns[:0], dtype=labels.dtype))
        # pandas builds the result from the labels anew: object strings infer 'str'
        values = strings_if_held(labels.column)
        axis = with_axis_names(_labels(tuple(names), xp, _kind_key(self.columns[:0])), self.columns[:0])
        return Series._from_column(values, axis)

    @with_fallback
    def describe(self, percentiles: Any = None, include: Any = None, exclude: Any = None) -> DataFrame:
        from ember.frame.describe import describe_frame

        return describe_frame(self, percentiles, include, exclude)

    def corr(self, method: str = "pearson", min_periods: int = 1, numeric_only: bool = False) -> DataFrame:
        from ember.ops.correlation import corr_matrix

        names = self._numeric_names(numeric_only, "corr", temporal=True)
        cols = [_temporal_as_float(self._columns[k]) for k in names]
        mat = corr_matrix(cols, method=method, min_periods=min_periods)
        labels = axis_labels(self, names)
        return type(self)(pd.DataFrame(mat, index=labels, columns=labels))

    def cov(self, min_periods: int | None = None, ddof: int = 1, numeric_only: bool = False) -> DataFrame:
        from ember.ops.correlation import cov_matrix

        if any(_is_temporal(c) for c in self._columns.values()):  # pandas: numeric_only or not
            raise TypeError(
                "DataFrame contains columns with dtype datetime64 or timedelta64, which are not supported for cov."
            )
        names = self._numeric_names(numeric_only, "cov")
        mat = cov_matrix([self._columns[k] for k in names], ddof=ddof, min_periods=min_periods)
        labels = axis_labels(self, names)
        return type(self)(pd.DataFrame(mat, index=labels, columns=labels))

    def _numeric_names(self, numeric_only: bool, op: str, temporal: bool = False) -> list:
        """The columns ``op`` works on; ``temporal``: without numeric_only, datetimes and timedeltas
        count too (pandas' DataFrame.corr takes their int64 ticks as floats)."""
        from ember.column.temporal import DatetimeColumn, TimedeltaColumn

        keep = (DatetimeColumn, TimedeltaColumn) if temporal and not numeric_only else ()
        names = [k for k, c in self._columns.items() if is_numeric_column(c) or isinstance(c, keep)]
        if not numeric_only and len(names) != len(self._names):
            bad = [k for k in self._names if k not in names]
            raise ValueError(f"could not convert column(s) {bad} to float for {op}; pass numeric_only=True")
        return names


def _is_temporal(col: Any) -> bool:
    from ember.column.temporal import DatetimeColumn, TimedeltaColumn

    return isinstance(col, (DatetimeColumn, TimedeltaColumn))


def _temporal_as_float(col: Any) -> Any:
    """A datetime / timedelta column as float64 ticks, NaT as NaN (pandas' ``to_numpy(float)`` in
    DataFrame.corr); other columns as they are."""
    from ember.backend import array_module
    from ember.column.temporal import NAT

    if not _is_temporal(col):
        return col
    xp = array_module(col.data)
    missing = col.data == NAT if col.mask is None else (~col.mask) | (col.data == NAT)
    return NumericColumn(xp.where(missing, xp.nan, col.data.astype(xp.float64)))


def _reduction_series(values: list, names: list, dtype: Any, no_labels: pd.Index | None = None) -> Series:
    """The Series of per-column results, labelled by column (``no_labels``: the frame's empty column
    Index, pandas' labels when no column is left). Plain numbers take a short path (a reduction like
    df.mean() is dominated by this wrapping, not by the arithmetic)."""
    xp = current_xp()
    kind = _kind_key(no_labels)
    if dtype is None and values and all(isinstance(v, (np.floating, np.integer, np.bool_)) for v in values):
        arr = np.asarray(values)
        if arr.dtype.kind in "iufb":
            labels = with_axis_names(_labels(tuple(names), xp, kind), no_labels)
            return Series._from_column(NumericColumn(xp.asarray(arr)), labels)
    labels = labels_index(names, _kind_of(kind)) if names or no_labels is None else no_labels
    labels = with_axis_names(labels, no_labels)

    if not values and dtype is None:  # pandas: a reduction over no columns is float64
        dtype = np.float64
    return Series(pd.Series(values, index=labels, dtype=dtype))


def with_axis_names(labels: Any, axis: pd.Index | None) -> Any:
    """``labels`` (a pandas or ember Index) named as the column ``axis`` is: pandas labels every
    reduction's result by the frame's columns, their name(s) included."""
    if axis is None or all(n is None for n in axis.names) or len(axis.names) != labels.nlevels:
        return labels
    if isinstance(labels, pd.Index):
        return labels.set_names(list(axis.names))
    return labels.rename(list(axis.names) if axis.nlevels > 1 else axis.names[0])


def axis_labels(frame: Any, names: list) -> pd.Index:
    """The frame's column axis cut to ``names`` (as pandas' result index of a per-column method):
    their kind (dtype, range) and the axis' name(s)."""
    return with_axis_names(labels_index(names, frame._kind_for(names)), frame.columns[:0])


def labels_column(names: list, xp: Any) -> Column:
    return _labels(tuple(names), xp).column


@functools.lru_cache(maxsize=64)
def _labels(names: tuple, xp: Any, kind: tuple | None = None) -> Index:
    """An Index of column labels of the column axis' ``kind`` (``_kind_key``), cached: reductions
    over the same columns reuse it (immutable)."""
    from ember.column.base import Unsupported
    from ember.frame.index import index_from_pandas

    try:
        labels = labels_index(list(names), _kind_of(kind))
        if isinstance(labels, pd.MultiIndex):
            return index_from_pandas(labels)
        return Index._from_column(from_pandas(labels, xp))
    except Unsupported as exc:  # pandas' result index: an object Index of numbers
        raise unsupported(
            "DataFrame reductions",
            "column labels held as objects that are numbers (pandas labels the result so)",
        ) from exc


def _kind_key(axis: pd.Index | None) -> tuple | None:
    """A hashable stand-in for the column axis' type (an empty Index of its class and dtype)."""
    if axis is None:
        return None
    if isinstance(axis, pd.MultiIndex):
        return ("multi", tuple(str(level.dtype) for level in axis.levels))
    return ("range", None) if isinstance(axis, pd.RangeIndex) else ("index", str(axis.dtype))


def _kind_of(key: tuple | None) -> pd.Index | None:
    if key is None:
        return None
    if key[0] == "multi":
        levels = [pd.Index([], dtype=pd.api.types.pandas_dtype(d)) for d in key[1]]
        return pd.MultiIndex(levels=levels, codes=[[] for _ in levels])
    return pd.RangeIndex(0) if key[0] == "range" else pd.Index([], dtype=pd.api.types.pandas_dtype(key[1]))


def _numbers_beside_times(cols: list) -> bool:
    """Whether numeric columns stand beside datetime / timedelta ones (pandas: an object Series)."""
    from ember.column import DatetimeColumn, TimedeltaColumn

    times = any(isinstance(c, (DatetimeColumn, TimedeltaColumn)) for c in cols)
    return times and any(isinstance(c, NumericColumn) for c in cols)


def _masked_result_dtype(values: list, cols: list, op: str) -> Any:
    """pandas: reducing a frame with a nullable column gives a nullable Series (Float64, Int64 ...);
    a missing result counts with the dtype its column's reduction has (Int32 sum: Int64)."""
    from ember.column.dtypes import masked_extension_for

    kinds = []
    for v, c in zip(values, cols):
        if v is pd.NA and isinstance(c, NumericColumn):
            kinds.append(_op_result_dtype(c.data.dtype, op))
        elif v is not pd.NA and np.asarray(v).dtype.kind in "iufb":
            kinds.append(np.asarray(v).dtype)
        else:
            return None
    return masked_extension_for(np.result_type(*kinds)) if kinds else None


def _op_result_dtype(d: np.dtype, op: str) -> np.dtype:
    """The NumPy dtype pandas' masked reduction ``op`` gives for values of dtype ``d``."""
    if op in ("mean", "median", "std", "var", "sem", "skew", "kurt"):
        return d if d.kind == "f" else np.dtype(np.float64)
    if op in ("sum", "prod") and d.kind in "biu":
        return np.dtype(np.uint64 if d.kind == "u" else np.int64)
    return d


def _quantiles_array(values: Any, c: Column) -> Any:
    """A masked column's quantiles as pandas types them: a masked float (Float32 stays), or the
    column's own integer dtype where every value is missing (pandas' masked ``_quantile``)."""

    if not getattr(c, "nullable", False) or c.data.dtype.kind == "b":
        return values
    return pd.array(list(values), dtype=_masked_quantile_dtype(c))


def _masked_quantile_dtype(c: NumericColumn) -> Any:
    """pandas' masked ``_quantile``: the column's dtype where every value is missing, Float32 for
    float32 values some of which are missing, else Float64."""
    from ember.column.dtypes import masked_extension_for

    missing = c.null_count()
    if len(c) and missing == len(c):
        return c.dtype
    # NumPy's quantile of all the values (none missing, or no row) is float64; of the present
    # ones (some missing) it keeps float32
    own = _op_result_dtype(c.data.dtype, "median")
    return masked_extension_for(own if missing else np.dtype("f8"))


def _nan_of_column(v: Any, c: Column, skipna: bool, op: str = "") -> Any:
    """A too-few-values NaN (a Python float from the reduction) as pandas types it in a frame's result:
    the column's float dtype (float32 stays float32) when the column has rows (or is summed with a
    min_count); an object column's
    own missing marker where skipna=False met one, else None (too few values for min_count)."""
    from ember.column import StringColumn

    missing = (isinstance(v, float) and v != v) or v is pd.NA
    if missing and c.dtype == object and op in ("min", "max") and len(c):
        return None  # pandas nulls out an object block's result with None
    if missing and c.dtype == object and op in ("sum", "prod") and isinstance(c, NumericColumn):
        return c.na  # object bools: the missing value skipna=False met
    if (
        type(v) is float
        and isinstance(c, NumericColumn)
        and not c.nullable
        and (len(c) or op in ("sum", "prod"))
    ):
        return c.data.dtype.type(v) if c.data.dtype.kind == "f" else np.float64(v)
    if type(v) is float and v != v and isinstance(c, StringColumn) and c.pd_dtype == object:
        # the missing value skipna=False met, or None where a sum has fewer values than min_count
        if not skipna and c.mask is not None:
            return c.na
        return None if op == "sum" else v
    return v


def _pandas_refuses(c: Column, op: str) -> bool:
    """Whether pandas raises TypeError for ``op`` over a column of this kind, whatever its values
    (else it answers, or its answer depends on the values: object columns)."""
    from ember.column import CategoricalColumn, DatetimeColumn, StringColumn, TimedeltaColumn

    if isinstance(c, CategoricalColumn):
        return True
    if isinstance(c, DatetimeColumn):
        return op != "std"
    if isinstance(c, TimedeltaColumn):
        return op in ("prod", "var", "sem", "skew", "kurt")
    if isinstance(c, StringColumn):
        return c.pd_dtype != object and op != "sum"
    return False


def labels_index(names: list, kind: pd.Index | None = None) -> pd.Index:
    """Column labels as a pandas Index of the column axis' ``kind`` (an empty Index of its class and
    dtype, see ``frame_labels.axis_kind``): a RangeIndex while the labels are a range of integers,
    else an Index of ``kind``'s dtype. Without a kind, as pandas infers labels (``str`` for strings in
    pandas 3), and no label at all is pandas 3's axis of a frame built without columns: a RangeIndex."""
    if kind is None:
        return pd.Index(names) if names else pd.RangeIndex(0)
    if not names:
        return kind
    if isinstance(kind, pd.RangeIndex):
        return _range_of(names)
    if isinstance(kind, pd.MultiIndex):
        return _levels_of(names, kind)
    if _holds(kind.dtype, names):
        try:
            return pd.Index(names, dtype=kind.dtype)
        except (TypeError, ValueError):
            pass
    return labels_index(names)  # labels the kind cannot hold as they are: as pandas infers them


def _levels_of(names: list, kind: pd.MultiIndex) -> pd.Index:
    """Tuple labels as a MultiIndex whose levels keep ``kind``'s level dtypes where they hold them;
    other labels as pandas infers them."""
    if not all(isinstance(k, tuple) and len(k) == kind.nlevels for k in names):
        return labels_index(names)
    arrays = [labels_index(list(values), level) for values, level in zip(zip(*names), kind.levels)]
    return pd.MultiIndex.from_arrays(arrays)


def _holds(dtype: Any, names: list) -> bool:
    """Whether an Index of ``dtype`` holds ``names`` as they are (a ``str`` Index would make 0 '0')."""
    if isinstance(dtype, pd.StringDtype):
        return pd.api.types.infer_dtype(names, skipna=True) == "string"
    if isinstance(dtype, np.dtype) and dtype.kind in "iub":
        inferred = pd.api.types.infer_dtype(names, skipna=False)
        return inferred == ("boolean" if dtype.kind == "b" else "integer")
    if isinstance(dtype, np.dtype) and dtype.kind == "f":
        return pd.api.types.infer_dtype(names, skipna=True) in ("floating", "integer", "mixed-integer-float")
    return True


def _range_of(names: list) -> pd.Index:
    """pandas' RangeIndex of integer labels evenly spaced (as a RangeIndex's take or insert keeps
    them), else the labels as pandas infers them."""
    if all(type(k) is int or (isinstance(k, np.integer) and k.dtype.kind == "i") for k in names):
        vals = [int(k) for k in names]
        step = vals[1] - vals[0] if len(vals) > 1 else 1
        if step != 0 and all(b - a == step for a, b in zip(vals, vals[1:])):
            return pd.RangeIndex(vals[0], vals[-1] + step, step)
    return labels_index(names)


def _strings_beside_numbers(cols: list) -> bool:
    """Whether object or string columns sit beside numeric ones (pandas' result is an object Series)."""
    objects = any(isinstance(c, StringColumn) or c.dtype == object for c in cols)
    numbers = any(isinstance(c, NumericColumn) and c.dtype != object for c in cols)
    return objects and numbers


def _missing_kind(v: Any) -> Any:
    """Which missing value ``v`` is ("nan", "none", "na", "nat"), None for a value."""
    if v is None:
        return "none"
    if v is pd.NA:
        return "na"
    if v is pd.NaT:
        return "nat"
    if isinstance(v, float) and v != v:
        return "nan"
    return None


def _common_dtype(dtypes: list) -> Any:
    """pandas' common dtype of ``dtypes`` (what a row across such columns holds)."""
    return pd.concat([pd.Series([], dtype=d) for d in dtypes]).dtype


def _reducible(c: Column, op: str) -> bool:
    from ember.column import DatetimeColumn, StringColumn, TimedeltaColumn

    if isinstance(c, NumericColumn):
        return True
    if isinstance(c, (DatetimeColumn, TimedeltaColumn)):
        return op in ("mean", "median", "min", "max") or (
            isinstance(c, TimedeltaColumn) and op in ("sum", "std")
        )
    return op == "sum" and isinstance(c, StringColumn)  # pandas joins the strings


def _common(values: list, op: str) -> Any:
    if op == "count" or (op == "nunique" and values):  # nunique of no column: pandas' float64
        return "int64"
    if op in ("any", "all"):
        return bool
    return None


def _reduce_flat(cols: list, op: str, skipna: bool, **kw: Any) -> Any:
    """pandas' ``axis=None``: one scalar over all the values, as if the columns were one array of
    their common dtype (any / all combine the columns' answers, with Kleene logic for pd.NA)."""
    from pandas.api.types import is_extension_array_dtype
    from pandas.core.dtypes.cast import find_common_type

    from ember.column import StringColumn
    from ember.column.convert import concat_columns
    from ember.ops.reductions import reduce, reduce_many

    if op in ("any", "all"):
        values = reduce_many(cols, op, skipna=skipna) if cols else []
        decided = [bool(v) for v in values if v is not pd.NA]
        if (op == "all" and not all(decided)) or (op == "any" and any(decided)):
            return np.bool_(op == "any")
        return pd.NA if len(decided) < len(values) else np.bool_(op == "all")
    if not cols:
        raise ValueError("no types given")
    dtype = find_common_type([c.dtype for c in cols])
    kind = getattr(getattr(dtype, "numpy_dtype", dtype), "kind", "O")
    numeric = all(isinstance(c, NumericColumn) for c in cols) and kind in ("i", "u", "f", "b")
    strings = all(isinstance(c, StringColumn) for c in cols) and isinstance(dtype, pd.StringDtype)
    if not (numeric or strings):
        raise unsupported(
            f"DataFrame.{op}",
            f"axis=None over columns of dtype {sorted({str(c.dtype) for c in cols})} (the common dtype "
            f"{dtype} is not numeric); reduce the columns one by one",
        )
    if numeric and not is_extension_array_dtype(dtype) and any(c.nullable for c in cols):
        raise unsupported(f"DataFrame.{op}", "axis=None over masked and plain columns of these dtypes")
    col = concat_columns(cols)
    out = reduce(col, op, skipna=skipna, **kw)
    if type(out) is float:  # a NaN where too few values: NumPy's float scalar, as pandas' nanops
        return (col.data.dtype if col.data.dtype.kind == "f" else np.dtype(np.float64)).type(out)
    return out


def _make_frame_reduction(op: str) -> Any:
    def method(
        self: DataFrame, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, **kw: Any
    ) -> Series:
        return self._reduce(op, axis, skipna=skipna, numeric_only=numeric_only, **kw)

    method.__name__ = op
    return method


for _op in REDUCTIONS:
    if _op not in ("count", "nunique", "any", "all"):
        setattr(FrameReductions, _op, _make_frame_reduction(_op))
FrameReductions.product = FrameReductions.prod  # type: ignore[attr-defined]

"""Building columns from pandas, NumPy, CuPy, pyarrow, Python sequences and scalars, and concatenating.

Conversions copy the data to the target device once; nothing is held twice beyond that copy. A column
never shares memory with an array its caller still owns when built with ``copy=True`` (``from_any``,
the entry for what users pass, does so by default, as pandas 3 copies on construction): on the host
that is one copy, on the GPU the host->device transfer is that copy already. ``from_pandas`` and
``from_numpy`` default to ``copy=False``, for the temporaries ember converts itself.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.backend import array_module, asarray_on, is_device_array, to_host
from ember.column.base import Column, Unsupported, unsupported_hint
from ember.column.categorical import CategoricalColumn
from ember.column.decimal import DecimalColumn, from_decimal_objects
from ember.column.dtypes import default_string_dtype, is_masked_extension
from ember.column.numeric import NumericColumn
from ember.column.string import StringColumn
from ember.column.temporal import NAT, DatetimeColumn, TimedeltaColumn


def _on(a: Any, xp: ModuleType) -> Any:
    return None if a is None else asarray_on(a, xp)


def _owned(a: Any, xp: ModuleType, copy: bool) -> Any:
    """``a`` on ``xp``; with ``copy``, in memory of its own: a copy when ``a`` already lives on ``xp``
    (a move between host and device is the copy)."""
    if copy and array_module(a) is xp:
        return a.copy()
    return asarray_on(a, xp)


def from_pandas(
    s: pd.Series | pd.Index | Any, xp: ModuleType, name: Any = None, copy: bool = False
) -> Column:
    """A column holding the values of a pandas Series, Index or extension array; with ``copy``, in
    memory of its own (the pandas object may be changed afterwards), else it may share the host arrays
    of a temporary."""
    if isinstance(s, (pd.Index, pd.api.extensions.ExtensionArray, np.ndarray)):
        s = pd.Series(s, copy=False)
    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        codes = s.cat.codes.to_numpy()
        shared = codes.dtype == np.int32
        codes = np.asarray(codes, dtype=np.int32)
        cats = from_pandas(pd.Series(s.cat.categories, copy=False), xp, copy=copy)
        return CategoricalColumn(_owned(codes, xp, copy and shared), cats, bool(dtype.ordered))
    if isinstance(dtype, pd.DatetimeTZDtype):
        ticks = np.asarray(s.array.asi8)
        return _temporal(ticks, xp, DatetimeColumn, copy=copy, unit=dtype.unit, tz=dtype.tz)
    if is_masked_extension(dtype):
        arr = s.array
        data, missing = np.asarray(arr._data), np.asarray(arr._mask)
        mask = ~missing if missing.any() else None
        return NumericColumn(_owned(data, xp, copy), _on(mask, xp), nullable=True)
    if isinstance(dtype, pd.StringDtype):
        return StringColumn.from_arrow(pa.array(s.array, type=pa.large_string(), from_pandas=True), xp, dtype)
    if isinstance(dtype, pd.ArrowDtype):  # ember holds no pyarrow-typed columns: refuse, never retype
        raise Unsupported(
            f"column {name or s.name!r}: pandas dtype {dtype} (pd.ArrowDtype) is not supported by ember;"
            " convert it first, e.g. .astype('Int64' / 'Float64' / 'boolean' / 'string')."
        )
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        raise Unsupported(
            f"column {name or s.name!r}: pandas dtype {dtype} is not supported by ember." + unsupported_hint()
        )
    name = name if name is not None else s.name
    if dtype == np.dtype(object):  # strings in an object Series stay object, as pandas keeps them
        return _from_objects(s.to_numpy(), xp, name, keep_object=True)
    return from_numpy(s.to_numpy(), xp, name=name, copy=copy)


def _temporal(ticks: np.ndarray, xp: ModuleType, cls: type, copy: bool = False, **meta: Any) -> Column:
    nat = ticks == NAT
    mask = ~nat if nat.any() else None
    return cls(_owned(ticks, xp, copy), mask=_on(mask, xp), **meta)


def from_numpy(a: Any, xp: ModuleType, name: Any = None, copy: bool = False) -> Column:
    """A column from a 1-D NumPy or CuPy array (object arrays are inferred as pandas would); with
    ``copy``, never sharing memory with ``a``."""
    if is_device_array(a):
        if a.ndim != 1:
            raise ValueError(f"column {name!r}: expected a 1-D array, got {a.ndim} dimensions")
        return NumericColumn(_owned(a, xp, copy))
    a = np.asarray(a)
    if a.ndim != 1:
        raise ValueError(f"column {name!r}: expected a 1-D array, got shape {a.shape}")
    kind = a.dtype.kind
    if kind in "iufb":
        if kind == "f" and a.dtype.itemsize < 4:
            a, copy = a.astype(np.float32), False  # the cast made the copy
        return NumericColumn(_owned(a, xp, copy))
    if kind in "Mm":
        unit, _ = np.datetime_data(a.dtype)
        cls = DatetimeColumn if kind == "M" else TimedeltaColumn
        if unit in ("s", "ms", "us", "ns") and a.dtype.isnative:  # viewed as ticks: copy=False shares it
            return _temporal(a.view(np.int64), xp, cls, copy=copy, unit=unit)
        unit = "ns" if unit in ("ps", "fs", "as") else "s"  # pandas' nearest supported unit
        ticks = a.astype(np.dtype(f"{kind}8[{unit}]")).view(np.int64)
        return _temporal(ticks, xp, cls, unit=unit)
    if kind in "US":
        return StringColumn.from_arrow(pa.array(a.astype(str), type=pa.large_string()), xp)
    if kind == "O":
        return _from_objects(a, xp, name)
    raise TypeError(f"column {name!r}: numpy dtype {a.dtype} is not supported")


def _from_objects(a: np.ndarray, xp: ModuleType, name: Any, keep_object: bool = False) -> Column:
    """A column from an object array, of the dtype pandas gives it: ``pd.Series(a)`` infers strings
    (pandas' default string dtype), datetimes and timedeltas and keeps everything else object; with
    ``keep_object`` (the array came from an object Series) everything stays object.

    ember holds an object column when it is made of strings (a string column of dtype object), only
    missing values, True / False with missing values (a bool column with a mask) or lists of strings;
    the missing value it gives back (None, NaN or pd.NA) is the one the data held. Any other object
    column (numbers, dates, mixed kinds) raises ``Unsupported``: pandas' object column of Python
    objects has no ember equivalent, and a typed column would be another dtype."""
    if not keep_object and a.size:
        inferred = pd.Series(a, copy=False)
        if inferred.dtype != object:  # pandas' own inference: strings, datetimes, timedeltas
            return from_pandas(inferred, xp, name)
    kind = pd.api.types.infer_dtype(a, skipna=True)
    missing = pd.isna(a)
    na = _missing_marker(a, missing)
    if a.size and missing.all():
        kind = "empty"  # only missing values (NaT too): an object column of them, whatever they are
    elif kind == "mixed" and na is pd.NaT and pd.api.types.infer_dtype(a[~missing]) == "string":
        kind = "string"  # strings beside NaT (pandas' object column): NaT is its missing value
    if kind in ("string", "empty"):
        arr = pa.array(a, type=pa.large_string(), from_pandas=True)
        as_object = keep_object or kind == "empty" or default_string_dtype() == np.dtype(object)
        if not as_object:
            return StringColumn.from_arrow(arr, xp)
        return StringColumn.from_arrow(arr, xp, np.dtype(object), na)
    if kind == "decimal":
        return from_decimal_objects(a, missing, na, xp, name)
    if kind == "boolean":
        # pandas' object column of True / False (and missing values): a bool column whose mask is
        # always present reports dtype object and converts back to exactly that
        data = np.where(missing, False, a).astype(bool)
        return NumericColumn(asarray_on(data, xp), asarray_on(~missing, xp), na=na)
    lists = _lists_of_strings(a, xp)
    if lists is not None:
        return lists
    what = {
        "mixed-integer": "of mixed types",
        "mixed": "of mixed types",
        "decimal": "decimal.Decimal values",
    }.get(kind, f"of {kind} values")
    raise Unsupported(
        f"column {name!r}: an object column {what} (pandas keeps them as Python objects) is not "
        "supported by ember: ember columns hold one type. Convert it first, e.g. with .astype(str), "
        "pd.to_numeric or pd.to_datetime." + unsupported_hint()
    )


def _missing_marker(a: np.ndarray, missing: np.ndarray) -> Any:
    """The missing value an object column holds (None, NaN or pd.NA); NaN when there is none or they
    differ (one marker per column)."""
    if not missing.any():
        return np.nan
    held = a[missing]
    first = held[0]
    if first is None or first is pd.NA or first is pd.NaT:
        return first if all(v is first for v in held) else np.nan
    return np.nan


def infer_objects(col: Column, nan_float: bool = False) -> Column:
    """An object column as pandas 3 types it when it builds a column anew from the values (``pd.Series``
    of the object array: what ``astype('category')`` gives its categories and ``reset_index`` its
    levels): strings, with missing values or not, infer to ``str``; True / False without missing
    values to bool. Only missing values stay object, or float64 NaN with ``nan_float`` where the
    column held NaN (``lib.maybe_convert_objects``, reset_index's flat index). Synchronizes once for
    an object column with a mask."""
    n = len(col)
    if n == 0 or col.dtype != np.dtype(object):
        return col
    xp = col.xp
    if isinstance(col, StringColumn):
        if col.mask is None or bool(to_host(col.mask.any())):
            return StringColumn(col.data, col.chars, col.mask)  # the default: pandas' str
        if nan_float and isinstance(col.na, float):
            return NumericColumn(xp.full(n, np.nan, dtype=np.float64))
        return col
    if isinstance(col, NumericColumn) and col.data.dtype.kind == "b":
        if col.mask is None or bool(to_host(col.mask.all())):  # no missing value: pandas' bool
            return NumericColumn(col.data)
    return col


def _lists_of_strings(a: np.ndarray, xp: ModuleType) -> Column | None:
    """A list column when every value is a list of strings or missing (what str.split gives), else None."""
    from ember.column.list import ListColumn

    missing = pd.isna(a) if a.ndim == 1 else None
    if missing is None or not all(isinstance(v, list) for v, m in zip(a, missing) if not m):
        return None
    try:
        arr = pa.array([None if m else v for v, m in zip(a, missing)], type=pa.large_list(pa.large_string()))
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
        return None
    na = next((v for v, m in zip(a, missing) if m), np.nan)
    return ListColumn.from_arrow(arr, xp, na)


#: whether Arrow dates convert to datetime64[ms] (pyarrow's ``to_pandas(date_as_object=False)``, which
#: readers take as pandas' ``to_pandas_kwargs``); by default pandas gives datetime.date objects, which
#: ember columns do not hold, so a date column is refused
_DATES_AS_DATETIME: contextvars.ContextVar[bool] = contextvars.ContextVar("dates_as_datetime", default=False)


@contextlib.contextmanager
def arrow_dates_as_datetime64(enabled: bool = True) -> Iterator[None]:
    """Within the block, ``from_arrow`` reads Arrow dates as datetime64[ms] (as pandas does with
    ``date_as_object=False``)."""
    token = _DATES_AS_DATETIME.set(enabled)
    try:
        yield
    finally:
        _DATES_AS_DATETIME.reset(token)


def from_arrow(arr: pa.Array | pa.ChunkedArray, xp: ModuleType) -> Column:
    """A column from a pyarrow array; nulls become the validity mask."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    t = arr.type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return StringColumn.from_arrow(arr, xp)
    if (pa.types.is_list(t) or pa.types.is_large_list(t)) and (
        pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)
    ):
        from ember.column.list import ListColumn

        return ListColumn.from_arrow(arr, xp, None, as_arrays=True)  # as pyarrow's to_pandas gives them
    if pa.types.is_dictionary(t):
        codes = (
            arr.indices.to_numpy(zero_copy_only=False)
            if arr.null_count == 0
            else arr.indices.fill_null(-1).to_numpy()
        )
        return CategoricalColumn(
            asarray_on(codes.astype(np.int32), xp), from_arrow(arr.dictionary, xp), t.ordered
        )
    mask = None
    if arr.null_count:
        mask = asarray_on(np.asarray(arr.is_valid().to_numpy(zero_copy_only=False), dtype=bool), xp)
    if pa.types.is_timestamp(t):
        ticks = arr.cast(pa.int64()).fill_null(0).to_numpy()
        return DatetimeColumn(asarray_on(ticks, xp), t.unit, t.tz, mask)
    if pa.types.is_duration(t):
        ticks = arr.cast(pa.int64()).fill_null(0).to_numpy()
        return TimedeltaColumn(asarray_on(ticks, xp), t.unit, mask)
    if pa.types.is_date(t):
        if not _DATES_AS_DATETIME.get():
            raise Unsupported(
                f"arrow type {t}: pandas reads Arrow dates as datetime.date objects (an object column), "
                "which ember columns do not hold. Read them as datetime64[ms], as pandas does with "
                "to_pandas_kwargs={'date_as_object': False} (read_parquet), or cast them "
                "to a timestamp type first." + unsupported_hint()
            )
        return from_arrow(arr.cast(pa.timestamp("ms")), xp)
    if pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_floating(t):
        if pa.types.is_floating(t) and arr.null_count:
            values = arr.to_numpy(zero_copy_only=False)  # nulls -> NaN, as pandas reads them
            return NumericColumn(asarray_on(values, xp))
        filled = arr.fill_null(False if pa.types.is_boolean(t) else 0) if arr.null_count else arr
        values = filled.to_numpy(zero_copy_only=False)
        if values.dtype.kind == "f" and values.dtype.itemsize < 4:
            values = values.astype(np.float32)
        return NumericColumn(asarray_on(values, xp), mask)
    if pa.types.is_decimal(t):  # Decimal objects in pandas: a decimal column (precision <= 18)
        return DecimalColumn.from_arrow(arr, xp)
    if pa.types.is_null(t):  # all missing: object, as pyarrow's to_pandas and pandas' constructor give
        return StringColumn.from_arrow(arr.cast(pa.large_string()), xp, np.dtype(object))
    raise Unsupported(f"arrow type {t} is not supported by ember columns." + unsupported_hint())


def from_scalar(value: Any, n: int, xp: ModuleType, name: Any = None) -> Column:
    """A column of ``n`` copies of ``value``."""
    if isinstance(value, str):
        encoded = np.frombuffer(value.encode(), dtype=np.uint8)
        offsets = np.arange(n + 1, dtype=np.int64) * len(encoded)
        return StringColumn(asarray_on(offsets, xp), asarray_on(np.tile(encoded, n), xp))
    if isinstance(value, (bool, int, float, np.generic)) and not isinstance(
        value, (np.datetime64, np.timedelta64)
    ):
        arr = np.asarray(value)
        if arr.dtype.kind == "i" and not isinstance(value, np.generic):
            arr = arr.astype(np.int64)
        return NumericColumn(xp.full(n, arr.item(), dtype=arr.dtype))
    if value is None:  # a frame's None column: None in an object column (pandas' Series: NaN)
        return from_pandas(pd.Series([None] * n, dtype=object), xp, name)
    # everything else as pandas broadcasts it (its unit for Timestamp / NaT, object for pd.NA)
    return from_pandas(pd.Series(value, index=pd.RangeIndex(n)), xp, name)


def empty_object(xp: ModuleType, n: int = 0) -> StringColumn:
    """``n`` missing values (NaN) in an object column: pandas' ``pd.Series([])``, ``pd.Index([])``, and
    what it fills for a label named in ``columns`` without data."""
    mask = None if n == 0 else xp.zeros(n, dtype=bool)
    return StringColumn(xp.zeros(n + 1, dtype=np.int64), xp.zeros(0, dtype=np.uint8), mask, np.dtype(object))


def from_any(values: Any, xp: ModuleType, name: Any = None, copy: bool = True) -> Column:
    """A column from whatever a user passes for one: Column, pandas, arrays, arrow, lists. With
    ``copy`` (the default, as pandas 3's constructors) it shares no memory with arrays or pandas
    objects the caller holds; ember columns are immutable and are shared as they are."""
    if isinstance(values, Column):
        return values.to(xp)
    if hasattr(values, "_ember_column"):  # ember's array types (Categorical) hold one Column
        return values._ember_column().to(xp)
    if isinstance(values, (pd.Series, pd.Index, pd.api.extensions.ExtensionArray)):
        return from_pandas(values, xp, name, copy=copy)
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return from_arrow(values, xp)
    if isinstance(values, np.ndarray) or is_device_array(values):
        return from_numpy(values, xp, name, copy=copy)
    if hasattr(values, "__cuda_array_interface__") or hasattr(values, "__dlpack__"):
        from ember.backend.device import cupy_module

        return from_numpy(cupy_module().asarray(values), xp, name)
    if isinstance(values, (range, list, tuple)) or hasattr(values, "__iter__"):
        values = list(values)
        if not values:
            return empty_object(xp)  # pandas: pd.Series([]) and pd.Index([]) are object
        if all(isinstance(v, str) or v is None for v in values):
            return _from_objects(np.asarray(values, dtype=object), xp, name)
        try:
            s = pd.Series(values)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"column {name!r}: cannot build a column from {type(values).__name__}: {exc}"
            ) from exc
        if s.dtype == object:  # pandas' answer is an object column
            return _from_objects(s.to_numpy(), xp, name, keep_object=True)
        return from_pandas(s, xp, name)
    raise TypeError(f"column {name!r}: cannot build a column from {type(values).__name__}")


def concat_columns(cols: list[Column]) -> Column:
    """Rows of several columns of one dtype family, in order."""
    if not cols:
        raise ValueError("nothing to concatenate")
    first = cols[0]
    xp = array_module(*(c.data for c in cols))
    cols = [c.to(xp) for c in cols]
    if all(isinstance(c, StringColumn) for c in cols):
        sizes = [int(c.chars.shape[0]) for c in cols]
        shifts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        offsets = xp.concatenate([cols[0].data[:1]] + [c.data[1:] + int(s) for c, s in zip(cols, shifts)])
        chars = xp.concatenate([c.chars for c in cols])
        return StringColumn(offsets, chars, _concat_masks(cols, xp), first.pd_dtype)
    if all(isinstance(c, CategoricalColumn) for c in cols) and all(_same_categories(c, first) for c in cols):
        return CategoricalColumn(xp.concatenate([c.data for c in cols]), first.categories, first.ordered)
    if all(
        isinstance(c, CategoricalColumn)
        and isinstance(c.categories, StringColumn)
        and c.categories.pd_dtype == first.categories.pd_dtype
        for c in cols
    ):
        # different string categories: pandas gives the categories' string dtype, so decode on the
        # device (Dask's groupby combine concatenates partials with per-file categories this way)
        return concat_columns([c.decode() for c in cols])
    if any(isinstance(c, DecimalColumn) for c in cols):
        return _concat_decimals(cols, xp)
    kinds = {type(c) for c in cols}
    if len(kinds) > 1 or isinstance(first, CategoricalColumn):
        # mixed families: let pandas decide the common dtype (host round trip, documented in concat)
        merged = pd.concat([c.to_pandas() for c in cols], ignore_index=True)
        return from_pandas(merged, xp)
    if isinstance(first, NumericColumn):
        dtype = np.result_type(*(c.data.dtype for c in cols))
        data = xp.concatenate([c.data.astype(dtype, copy=False) for c in cols])
        nullable = any(c.nullable for c in cols)
        return NumericColumn(data, _concat_masks(cols, xp), nullable)
    if isinstance(first, (DatetimeColumn, TimedeltaColumn)):
        cols = _one_time_unit(cols)
        first = cols[0]
    data = xp.concatenate([c.data for c in cols])
    return first._rebuild(data, _concat_masks(cols, xp))


def _concat_decimals(cols: list[Column], xp: ModuleType) -> DecimalColumn:
    """Decimal columns of one scale, rows in order; the missing marker where the parts agree (pandas
    keeps each part's objects: None beside NaN is refused, as is a mix of scales or kinds)."""
    first = cols[0]
    if not all(isinstance(c, DecimalColumn) and c.scale == first.scale for c in cols):
        kinds = sorted(
            {f"decimal(scale {c.scale})" if isinstance(c, DecimalColumn) else str(c.dtype) for c in cols}
        )
        raise Unsupported(
            f"concatenating decimal columns with other columns or scales ({', '.join(kinds)}) is not "
            "supported by ember (pandas keeps each part's objects)." + unsupported_hint()
        )
    holding = [c for c in cols if c.mask is not None and not bool(to_host(c.mask.all()))]
    markers = {"nan" if isinstance(c.na, float) else repr(c.na) for c in holding}
    if len(markers) > 1:
        raise Unsupported(
            "concatenating decimal columns whose missing values differ (None beside NaN) is not "
            "supported by ember (one missing marker per column)." + unsupported_hint()
        )
    na = holding[0].na if holding else first.na
    data = xp.concatenate([c.data for c in cols])
    precision = max(c.precision for c in cols)
    return DecimalColumn(data, _concat_masks(cols, xp), first.scale, precision, na)


_TICK_NS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}


def _one_time_unit(cols: list) -> list:
    """Datetime / timedelta columns in pandas' common unit, the finest (pandas' OutOfBounds error where
    a value does not fit in it); datetimes of different time zones, or tz-naive with tz-aware, are
    refused (pandas keeps them in an object column)."""
    if len({str(getattr(c, "tz", None)) for c in cols}) > 1:
        raise Unsupported(
            "concat: datetimes of different time zones (or tz-naive with tz-aware): pandas keeps them "
            "in an object column, which ember does not have; convert them to one zone first."
            + unsupported_hint()
        )
    unit = min((c.unit for c in cols), key=_TICK_NS.__getitem__)
    out = []
    for c in cols:
        factor = _TICK_NS[c.unit] // _TICK_NS[unit]
        if factor > 1:
            lim = int(np.iinfo(np.int64).max) // factor
            bad = (c.data > lim) | (c.data < -lim)
            bad = bad if c.mask is None else bad & c.mask
            if bool(bad.any()):  # one sync, only where units differ
                value = int(to_host(c.data[bad][:1])[0])
                if isinstance(c, DatetimeColumn):
                    raise pd.errors.OutOfBoundsDatetime(
                        f"Out of bounds {_UNIT_WORD[unit]} timestamp: {pd.Timestamp(value, unit=c.unit)}"
                    )
                raise pd.errors.OutOfBoundsTimedelta(
                    f"Cannot convert {value} {_UNIT_WORD[c.unit]}s to timedelta64[{unit}] without overflow"
                )
            c = (
                DatetimeColumn(c.data * factor, unit, c.tz, c.mask)
                if isinstance(c, DatetimeColumn)
                else TimedeltaColumn(c.data * factor, unit, c.mask)
            )
        out.append(c)
    return out


_UNIT_WORD = {"s": "second", "ms": "millisecond", "us": "microsecond", "ns": "nanosecond"}


def _same_categories(col: CategoricalColumn, first: CategoricalColumn) -> bool:
    """pandas keeps a categorical through concat when all categories are equal, in order."""
    a, b = col.categories, first.categories
    if a is b:
        return True
    if col.ordered != first.ordered or len(a) != len(b) or type(a) is not type(b):
        return False
    if isinstance(a, StringColumn):
        xp = col.xp
        return bool(xp.array_equal(a.data, b.data)) and bool(xp.array_equal(a.chars, b.chars))
    return bool(a.to_pandas().equals(b.to_pandas()))


def _concat_masks(cols: list[Column], xp: ModuleType) -> Any:
    if all(c.mask is None for c in cols):
        return None
    return xp.concatenate([xp.ones(len(c), dtype=bool) if c.mask is None else c.mask for c in cols])


def to_host_column(col: Column) -> Column:
    return col.to(np)


__all__ = [
    "concat_columns",
    "empty_object",
    "from_any",
    "from_arrow",
    "from_numpy",
    "from_pandas",
    "from_scalar",
    "to_host",
]

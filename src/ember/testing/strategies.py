"""Hypothesis strategies that draw pandas Series and DataFrames of every dtype family ember stores.

Tests draw the pandas input, compute the expected result with pandas, convert the input to ember and
compare. Missing values are drawn as pandas stores them for the dtype: NaN in numpy floats, NaT in
datetimes, ``pd.NA`` in nullable extension dtypes, NaN in ``str`` / ``object``, code -1 in categoricals.
numpy int and bool dtypes cannot hold missing values, so their Series never have any.

This module imports hypothesis; ``ember.testing`` loads it only on demand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from hypothesis import strategies as st

INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
FLOAT_DTYPES = ("float32", "float64")
NULLABLE_INT_DTYPES = ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64")
STRING_DTYPES = ("str", "string", "object")
DATETIME_DTYPES = ("datetime64[s]", "datetime64[ms]", "datetime64[us]", "datetime64[ns]")
TIMEDELTA_DTYPES = ("timedelta64[s]", "timedelta64[ms]", "timedelta64[us]", "timedelta64[ns]")
#: one representative per family, for tests parametrized over "every dtype"
ALL_DTYPES = (
    *INT_DTYPES,
    *FLOAT_DTYPES,
    "bool",
    "Int64",
    "UInt8",
    "Int8",
    "boolean",
    "Float64",
    "Float32",
    "str",
    "string",
    "object",
    "datetime64[ns]",
    "datetime64[us]",
    "datetime64[s]",
    "datetime64[ms]",
    "datetime64[ns, UTC]",
    "datetime64[us, Europe/Berlin]",
    "timedelta64[ns]",
    "timedelta64[ms]",
    "category",
)

# ticks per second; datetimes are drawn between 1900 and 2200, inside the range of every unit
_PER_SECOND = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}
_SECONDS_1900 = -2208988800
_SECONDS_2200 = 7258118400
_DEFAULT_CATEGORIES = ("a", "b", "ç", "日本", "")

# any Unicode scalar value except surrogates (which UTF-8 cannot encode)
TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=8)


def _unit(dtype: str) -> tuple[str, str | None]:
    """('ns', 'UTC') from 'datetime64[ns, UTC]'."""
    inner = dtype[dtype.index("[") + 1 : -1]
    unit, _, tz = inner.partition(",")
    return unit.strip(), (tz.strip() or None)


def elements_for(dtype: str, allow_infinity: bool = False) -> st.SearchStrategy:
    """Strategy for one non-missing value of ``dtype`` (a Python/NumPy scalar ready for pd.Series)."""
    if dtype in INT_DTYPES or dtype in NULLABLE_INT_DTYPES:
        info = np.iinfo(dtype.lower())
        return st.integers(int(info.min), int(info.max))
    if dtype in FLOAT_DTYPES or dtype in ("Float32", "Float64"):
        width = 32 if dtype.lower() == "float32" else 64
        return st.floats(allow_nan=False, allow_infinity=allow_infinity, width=width)
    if dtype in ("bool", "boolean"):
        return st.booleans()
    if dtype in STRING_DTYPES:
        return TEXT
    if dtype.startswith(("datetime64", "timedelta64")):
        unit, _ = _unit(dtype)
        per = _PER_SECOND[unit]
        if dtype.startswith("datetime64"):
            return st.integers(_SECONDS_1900 * per, _SECONDS_2200 * per)
        return st.integers(-(10**6) * per, 10**6 * per)
    if dtype == "category":
        return st.sampled_from(_DEFAULT_CATEGORIES)
    raise ValueError(f"series_strategy: unknown dtype {dtype!r}; known: {ALL_DTYPES}")


def can_hold_missing(dtype: str) -> bool:
    """False for numpy int and bool dtypes, which pandas cannot give a missing value without upcasting."""
    return dtype not in INT_DTYPES and dtype != "bool"


def _build(values: list[Any], dtype: str, name: Any, categories: Sequence[Any] | None) -> pd.Series:
    """The pandas Series of ``dtype`` holding ``values`` (None = missing)."""
    if dtype in INT_DTYPES or dtype in FLOAT_DTYPES or dtype == "bool":
        filled = [np.nan if v is None else v for v in values]
        return pd.Series(np.array(filled, dtype=dtype), name=name)
    if dtype.startswith(("datetime64", "timedelta64")):
        unit, tz = _unit(dtype)
        kind = "datetime64" if dtype.startswith("datetime64") else "timedelta64"
        nat = np.iinfo(np.int64).min
        ticks = np.array([nat if v is None else v for v in values], dtype=np.int64)
        s = pd.Series(ticks.view(f"{kind}[{unit}]"), name=name)
        return s.dt.tz_localize("UTC").dt.tz_convert(tz) if tz else s
    if dtype == "category":
        cats = list(_DEFAULT_CATEGORIES if categories is None else categories)
        return pd.Series(pd.Categorical(values, categories=cats), name=name)
    if dtype == "object":
        return pd.Series([np.nan if v is None else v for v in values], dtype=object, name=name)
    return pd.Series(pd.array(values, dtype=dtype), name=name)


def series_strategy(
    dtype: str,
    *,
    min_size: int = 0,
    max_size: int = 20,
    size: int | None = None,
    nulls: bool = True,
    elements: st.SearchStrategy | None = None,
    allow_infinity: bool = False,
    categories: Sequence[Any] | None = None,
    name: Any = None,
) -> st.SearchStrategy[pd.Series]:
    """pandas Series of ``dtype`` with ``min_size``..``max_size`` rows (or exactly ``size``).

    dtype: a numpy name ('int8' .. 'uint64', 'float32', 'float64', 'bool'), a pandas nullable name
    ('Int8' .. 'UInt64', 'boolean', 'Float32', 'Float64'), 'str' (pandas' default string dtype),
    'string', 'object' (strings in an object column), 'datetime64[unit]' or 'datetime64[unit, tz]'
    (unit s/ms/us/ns), 'timedelta64[unit]', or 'category' (string categories, some unused, unless
    ``categories`` is given). Strings include non-ASCII UTF-8. ``nulls`` draws missing values where
    the dtype can hold them; ``elements`` replaces the value strategy (e.g. small ints for sums).
    """
    values_of = elements if elements is not None else elements_for(dtype, allow_infinity)
    if dtype == "category" and categories is not None and elements is None:
        values_of = st.sampled_from(list(categories))
    item = st.one_of(st.none(), values_of) if nulls and can_hold_missing(dtype) else values_of
    lo, hi = (size, size) if size is not None else (min_size, max_size)
    return st.lists(item, min_size=lo, max_size=hi).map(lambda v: _build(v, dtype, name, categories))


def frame_strategy(
    columns: Mapping[Any, str] | Sequence[str],
    *,
    min_size: int = 0,
    max_size: int = 20,
    nulls: bool = True,
    elements: Mapping[Any, st.SearchStrategy] | None = None,
) -> st.SearchStrategy[pd.DataFrame]:
    """pandas DataFrames whose columns have the given dtypes, all of one drawn length.

    columns: {name: dtype}, or a list of dtypes (named 'c0', 'c1', ...). ``elements`` maps column
    names to value strategies that replace the default ones.
    """
    if not isinstance(columns, Mapping):
        columns = {f"c{i}": d for i, d in enumerate(columns)}
    elements = elements or {}

    def of_length(n: int) -> st.SearchStrategy[pd.DataFrame]:
        parts = {
            name: series_strategy(dtype, size=n, nulls=nulls, elements=elements.get(name), name=name)
            for name, dtype in columns.items()
        }
        return st.fixed_dictionaries(parts).map(
            lambda d: pd.DataFrame(d, columns=list(columns)) if d else pd.DataFrame(index=pd.RangeIndex(n))
        )

    return st.integers(min_size, max_size).flatmap(of_length)


def build_series(
    values: Sequence[Any], dtype: str, name: Any = None, categories: Sequence[Any] | None = None
) -> pd.Series:
    """The pandas Series of ``dtype`` holding ``values`` (None = missing), drawn values as the strategies
    above store them (ticks since the epoch for datetimes and timedeltas, category values for 'category')."""
    return _build(list(values), dtype, name, categories)


#: dtypes the differential fuzzer draws: every family, several widths and units, tz-aware datetimes
MIXED_DTYPES = (
    "int64",
    "int32",
    "int8",
    "uint8",
    "uint64",
    "float64",
    "float32",
    "bool",
    "Int64",
    "Int32",
    "UInt8",
    "boolean",
    "Float64",
    "str",
    "string",
    "object",
    "datetime64[ns]",
    "datetime64[us]",
    "datetime64[s]",
    "datetime64[ms, UTC]",
    "datetime64[ns, Europe/Berlin]",
    "timedelta64[ns]",
    "timedelta64[s]",
    "category",
)

_STRING_POOL = ("a", "b", "B", "ab", "abc", "", "ç", "日本", " x ", "a_b", "AB", "10")
_SECONDS_2020 = 1577836800


def value_pool(dtype: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(common, rare) values of ``dtype`` for tests that need collisions: few distinct values, so that
    group keys, join keys and duplicates repeat, plus rare edge values (integer limits, infinities,
    dates far from 2020). Values are in the form ``build_series`` takes."""
    if dtype in INT_DTYPES or dtype in NULLABLE_INT_DTYPES:
        info = np.iinfo(dtype.lower())
        common = tuple(v for v in (0, 1, -1, 2, 3, 5, -7, 10, 42, 100) if info.min <= v <= info.max)
        return common, (int(info.min), int(info.max))
    if dtype in FLOAT_DTYPES or dtype in ("Float32", "Float64"):
        common = (0.0, 1.0, -1.0, 0.5, 2.5, -3.25, 3.0, 7.0, 100.0, 1e-3)
        rare = (-0.0, 1e10, 1e-7) if dtype.startswith("F") else (np.inf, -np.inf, -0.0, 1e10, 1e-7)
        return common, rare
    if dtype in ("bool", "boolean"):
        return (True, False), ()
    if dtype in STRING_DTYPES:
        return _STRING_POOL, ("Z" * 12, "a\nb")
    if dtype == "category":
        return _DEFAULT_CATEGORIES, ()
    if dtype.startswith(("datetime64", "timedelta64")):
        unit, _ = _unit(dtype)
        per = _PER_SECOND[unit]
        steps = (0, 1, 60, 3600, 86400, 31 * 86400, 365 * 86400, -86400, 7)
        if dtype.startswith("datetime64"):
            common = tuple((_SECONDS_2020 + s) * per for s in steps)
            rare = (_SECONDS_1900 * per, _SECONDS_2200 * per)
        else:
            common = tuple(s * per for s in steps)
            rare = (10**6 * per, -(10**6) * per)
        if per > 1:
            common += (_SECONDS_2020 * per + per // 2,) if dtype.startswith("datetime64") else (per // 2,)
        return common, rare
    raise ValueError(f"value_pool: unknown dtype {dtype!r}")


INDEX_KINDS = ("range", "range_offset", "int_unsorted", "int_dup", "str", "str_dup", "datetime", "float")


def build_index(kind: str, positions: Sequence[int], name: Any = None) -> pd.Index:
    """An index of ``len(positions)`` labels of ``kind`` (one of ``INDEX_KINDS``): ``positions`` are
    drawn integers that pick the labels, so repeated positions repeat labels where the kind allows it."""
    n = len(positions)
    pos = [int(p) for p in positions]
    if kind == "range":
        return pd.RangeIndex(n, name=name)
    if kind == "range_offset":
        return pd.RangeIndex(10, 10 + 3 * n, 3, name=name)
    if kind == "int_unsorted":
        order = sorted(range(n), key=lambda i: (pos[i], i))
        labels = [0] * n
        for rank, i in enumerate(order):
            labels[i] = rank * 2 - 3
        return pd.Index(labels, dtype="int64", name=name)
    if kind == "int_dup":
        return pd.Index([p % max(n // 2, 1) for p in pos], dtype="int64", name=name)
    if kind == "str":
        return pd.Index(
            [f"r{i}" for i in sorted(range(n), key=lambda i: (pos[i], i))], dtype="str", name=name
        )
    if kind == "str_dup":
        return pd.Index([_STRING_POOL[p % 4] for p in pos], dtype="str", name=name)
    if kind == "datetime":
        start = np.datetime64("2024-01-01", "ns")
        return pd.DatetimeIndex(sorted(start + np.timedelta64(p, "h") for p in pos), name=name)
    if kind == "float":
        return pd.Index([p / 2 for p in pos], dtype="float64", name=name)
    raise ValueError(f"build_index: unknown kind {kind!r}; known: {INDEX_KINDS}")


def index_strategy(size: int, kinds: Sequence[str] = INDEX_KINDS) -> st.SearchStrategy[pd.Index]:
    """Row indexes of ``size`` labels: RangeIndex (from 0 or offset), unsorted or duplicate integers,
    unique or duplicate strings, datetimes, floats; sometimes named."""
    return st.builds(
        build_index,
        st.sampled_from(list(kinds)),
        st.lists(st.integers(0, 2 * size + 1), min_size=size, max_size=size),
        st.sampled_from([None, "idx"]),
    )


def mixed_frame_strategy(
    dtypes: Sequence[str] = MIXED_DTYPES,
    *,
    min_size: int = 0,
    max_size: int = 20,
    max_columns: int = 4,
    nulls: bool = True,
) -> st.SearchStrategy[pd.DataFrame]:
    """DataFrames of a drawn schema: 1..``max_columns`` columns named 'a', 'b', ... of dtypes drawn from
    ``dtypes``, values from ``value_pool`` (so keys repeat), missing values where the dtype holds them,
    and a drawn row index (``index_strategy``)."""

    @st.composite
    def frames(draw: Any) -> pd.DataFrame:
        n = draw(st.integers(min_size, max_size))
        k = draw(st.integers(1, max_columns))
        cols = {}
        for name in "abcdefgh"[:k]:
            dtype = draw(st.sampled_from(list(dtypes)))
            common, rare = value_pool(dtype)
            item = st.sampled_from(list(common + rare))
            if nulls and can_hold_missing(dtype):
                item = st.one_of(st.none(), item)
            cols[name] = build_series(draw(st.lists(item, min_size=n, max_size=n)), dtype, name)
        index = draw(index_strategy(n))
        return pd.DataFrame({c: s.set_axis(index) for c, s in cols.items()}, index=index)

    return frames()


__all__ = [
    "ALL_DTYPES",
    "DATETIME_DTYPES",
    "FLOAT_DTYPES",
    "INDEX_KINDS",
    "INT_DTYPES",
    "MIXED_DTYPES",
    "NULLABLE_INT_DTYPES",
    "STRING_DTYPES",
    "TEXT",
    "TIMEDELTA_DTYPES",
    "build_index",
    "build_series",
    "can_hold_missing",
    "elements_for",
    "frame_strategy",
    "index_strategy",
    "mixed_frame_strategy",
    "series_strategy",
    "value_pool",
]

"""``Series.map`` / ``apply`` of a Python function, one call per value as pandas makes them.

pandas calls the function with each value as a Python object (ints, floats, bools, str, Timestamp,
Timedelta; NaN / NaT for a missing one unless ``na_action='ignore'``) and types the results as its
``map_infer`` does (``maybe_convert_objects``, then the Series constructor). ember does the same on
the host: this is the explicit slow path for functions that are not vectorizable, and the check of
the fast path (calling the function once on the whole Series) on a sample of the values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import CategoricalColumn, DatetimeColumn, NumericColumn, StringColumn, TimedeltaColumn
from ember.frame._fallback import unsupported

#: up to this many values a function runs value by value (pandas' semantics exactly, side effects
#: included); longer Series try the vectorized call first, checked on a sample
ELEMENTWISE_UP_TO = 10_000
_SAMPLE = 5


def elementwise_supported(col: Any) -> bool:
    """Whether pandas' map of this column's dtype types its results as ``map_infer`` (NumPy numbers
    and bools, datetimes, timedeltas, 'str' / object strings); masked, categorical and Arrow-backed
    dtypes cast the results back to their own kind."""
    if isinstance(col, CategoricalColumn) or getattr(col, "nullable", False):
        return False
    if isinstance(col, StringColumn):
        dtype = col.pd_dtype
        return dtype == np.dtype(object) or (
            isinstance(dtype, pd.StringDtype) and dtype.na_value is not pd.NA
        )
    return isinstance(col, (NumericColumn, DatetimeColumn, TimedeltaColumn)) and col.dtype != object


def map_host_values(host: pd.Series, func: Any, na_action: Any, args: tuple, kwargs: dict) -> pd.Series:
    """pandas' map of a host Series' values through ``func`` (its map_infer typing)."""
    from pandas._libs import lib

    values = host.astype(object).to_numpy()
    skip = pd.isna(values) if na_action == "ignore" else np.zeros(len(values), dtype=bool)
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value if skip[i] else func(value, *args, **kwargs)
    return pd.Series(lib.maybe_convert_objects(out), index=host.index, name=host.name)


def map_elementwise(series: Any, func: Any, na_action: Any, args: tuple, kwargs: dict) -> Any:
    """The Series of ``func`` of each value, as pandas' map (the values go to the host once; the
    results come back as a column)."""
    from ember.backend import xp as current_xp
    from ember.column import from_pandas
    from ember.frame.series import Series

    if not elementwise_supported(series.column):
        raise unsupported(
            "Series.apply/map",
            f"a Python function of each value of a {series.dtype} column (pandas casts the results "
            "back to that dtype); use Series operators, or astype first",
        )
    mapped = map_host_values(series.to_pandas(), func, na_action, args, kwargs)
    col = from_pandas(mapped.reset_index(drop=True), current_xp(), series.name)
    return Series._from_column(col, series.index, series.name)


def sample_agrees(series: Any, vectorized: Any, func: Any, na_action: Any, args: tuple, kwargs: dict) -> bool:
    """Whether the vectorized result equals pandas' own value-by-value map of a sample of the values
    (the first and last few; pandas checks, ember computed): a function pandas' calls would raise in
    raises here."""
    n = len(series)
    picks = np.unique(np.r_[np.arange(min(n, _SAMPLE)), np.arange(max(n - _SAMPLE, 0), n)])
    host = series.iloc[picks].to_pandas()
    want = host.map(lambda v: func(v, *args, **kwargs), na_action=na_action)  # pandas, on the sample only
    got = vectorized.iloc[picks].to_pandas()
    try:
        pd.testing.assert_series_equal(
            got.reset_index(drop=True), want.reset_index(drop=True), check_names=False
        )
    except AssertionError:
        return False
    return True

"""cumulative (cumsum/cumprod/cummin/cummax) against pandas, incl. skipna=False and strings."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.column import from_pandas
from ember.ops.cumulative import cumulative

SERIES = [
    pd.Series([3, 1, 2, 5], dtype="int8"), pd.Series([3, 1, 2], dtype="uint8"), pd.Series([True, False, True]),
    pd.Series([True, None, False], dtype="boolean"), pd.Series([1.5, np.nan, -2, 3], dtype="float32"),
    pd.Series([np.nan, 2, np.nan, 3.0]), pd.Series([1, None, 3, 0], dtype="Int64"),
    pd.Series(pd.to_timedelta([1, None, 3], unit="s")),
    pd.Series(pd.to_datetime(["2020-01-02", None, "2020-01-01", "2021-01-01"])),
    pd.Series(["b", "a", None, "c", "a"]), pd.Series(["b", "a", "c", "a"]), pd.Series([], dtype="float64"),
    pd.Series([7]),
]  # fmt: skip


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - compared with pandas' exception
            return None, exc


def check(s, op, skipna, xp):
    expected, perr = _outcome(lambda: getattr(s, op)(skipna=skipna))
    got, eerr = _outcome(lambda: cumulative(from_pandas(s, xp), op, skipna))
    if perr is not None:
        assert isinstance(eerr, type(perr)), (perr, eerr)
        return
    assert eerr is None, eerr
    pd.testing.assert_series_equal(got.to_pandas(), expected, check_names=False)


@pytest.mark.parametrize("skipna", [True, False])
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax"])
@pytest.mark.parametrize("i", range(len(SERIES)))
def test_cumulative(i, op, skipna, xp):
    check(SERIES[i], op, skipna, xp)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.integers(-5, 5)), max_size=25),
    st.sampled_from(["cumsum", "cumprod", "cummin", "cummax"]),
    st.booleans(),
    st.booleans(),
)
def test_property(values, op, skipna, as_float):
    s = pd.Series(values, dtype="Int64")
    check(s.astype("float64") if as_float else s, op, skipna, np)


def test_unknown_op(xp):
    with pytest.raises(NotImplementedError):
        cumulative(from_pandas(pd.Series([1]), xp), "cumcount")

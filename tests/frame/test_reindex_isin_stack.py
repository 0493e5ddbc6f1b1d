"""reindex with a fill method, isin against a DataFrame / Series, stack of any column level:
ember against pandas."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def both(call, pobj):
    """ember's and pandas' result of ``call``, or both raise the same error type."""
    eobj = em.from_pandas(pobj)
    try:
        expected = call(pobj)
    except Exception as exc:  # pandas raises: ember raises the same type
        with pytest.raises(type(exc)):
            call(eobj)
        return
    assert_eq(call(eobj), expected)


SERIES = {
    "int": pd.Series([1, 2, 3, 4], index=[10, 20, 30, 40]),
    "float_nan": pd.Series([1.5, np.nan, 3.0, 4.0], index=[1.0, 2.0, 3.0, 4.0]),
    "Int64": pd.Series([1, None, 3, 4], index=[10, 20, 30, 40], dtype="Int64"),
    "str": pd.Series(["a", None, "c", "d"], index=[10, 20, 30, 40]),
    "bool": pd.Series([True, False, True, False], index=[10, 20, 30, 40]),
    "desc": pd.Series([1, 2, 3, 4], index=[40, 30, 20, 10]),
    "cat": pd.Series(pd.Categorical(["x", "y", "x", "z"]), index=[10, 20, 30, 40]),
    "boolean": pd.Series([True, None, False, True], index=[10, 20, 30, 40], dtype="boolean"),
}


@pytest.mark.parametrize("name", list(SERIES))
@pytest.mark.parametrize("method", ["ffill", "pad", "bfill", "backfill", "nearest"])
@pytest.mark.parametrize("limit", [None, 1])
def test_series_reindex_method(name, method, limit):
    s = SERIES[name]
    labels = [5, 10, 15, 20, 25, 27, 33, 40, 45, 50]
    if name == "float_nan":
        labels = [0.5, 1.0, 1.2, 2.5, 3.9, 4.0, 7.0]
    both(lambda o: o.reindex(labels, method=method, limit=limit), s)


@pytest.mark.parametrize("method", ["ffill", "bfill", "nearest"])
@pytest.mark.parametrize("tolerance", [None, 3, [1, 2, 3, 4, 5]])
def test_reindex_tolerance(method, tolerance):
    s = SERIES["int"]
    both(lambda o: o.reindex([8, 12, 19, 33, 47], method=method, tolerance=tolerance), s)


def test_reindex_method_datetime_index():
    idx = pd.date_range("2024-01-01", periods=4, freq="2D")
    df = pd.DataFrame({"a": [1, 2, 3, 4], "b": ["w", "x", None, "z"]}, index=idx)
    new = pd.DatetimeIndex(list(pd.date_range("2023-12-31", periods=10, freq="D")))  # no freq
    for method in ["ffill", "bfill", "nearest"]:
        both(lambda o, method=method: o.reindex(new, method=method), df)
        both(lambda o, method=method: o[["a"]].reindex(index=new, method=method, limit=1, fill_value=0), df)
    both(lambda o: o.reindex(new, method="ffill", tolerance=pd.Timedelta("1D")), df)


def test_reindex_method_string_index():
    df = pd.DataFrame({"a": [1.0, 2.0, np.nan]}, index=["b", "d", "f"])
    for method in ["ffill", "bfill"]:
        both(lambda o, method=method: o.reindex(["a", "c", "d", "g"], method=method), df)
    both(lambda o: o.reindex(["a", "c"], method="nearest"), df)


def test_reindex_method_errors():
    unsorted = pd.Series([1, 2, 3], index=[30, 10, 20])
    both(lambda o: o.reindex([1, 2], method="ffill"), unsorted)
    both(lambda o: o.reindex([30, 10, 20], method="ffill"), unsorted)  # same labels: no lookup
    both(lambda o: o.reindex([1, 2], limit=1), SERIES["int"])
    both(lambda o: o.reindex([1, 2], tolerance=1), SERIES["int"])
    both(lambda o: o.reindex([1, 2], method="spline"), SERIES["int"])
    both(lambda o: o.reindex([1, 2], method="ffill"), pd.Series([1, 2, 3], index=[10, 10, 20]))


def test_reindex_method_frame_fill_value_and_empty():
    df = pd.DataFrame({"a": [1, 2], "b": [0.5, None]}, index=[1, 3])
    both(lambda o: o.reindex([0, 1, 2, 4], method="bfill", fill_value=-1), df)
    both(lambda o: o.reindex([], method="ffill"), df)
    both(lambda o: o.reindex([0, 1], method="ffill"), df.iloc[:0])
    with pytest.raises(NotImplementedError):
        em.from_pandas(df).reindex(columns=["a", "c"], method="ffill")


def test_reindex_method_multiindex():
    mi = pd.MultiIndex.from_tuples([(1, "a"), (1, "c"), (2, "b")])
    s = pd.Series([1, 2, 3], index=mi)
    new = pd.MultiIndex.from_tuples([(1, "b"), (1, "d"), (0, "z"), (3, "a")])
    both(lambda o: o.reindex(new, method="ffill"), s)
    both(lambda o: o.reindex(new, method="bfill"), s)


# --- DataFrame.isin of a DataFrame / Series -------------------------------------------------------

FRAME = pd.DataFrame(
    {
        "A": [1, 2, 3, 4],
        "B": ["a", None, "f", "b"],
        "C": pd.array([1, None, 3, 4], dtype="Int64"),
        "D": [1.5, np.nan, 2.0, 0.0],
        "E": [True, False, True, False],
        "F": pd.to_datetime(["2024-01-01", None, "2024-01-03", "2024-01-04"]),
    },
    index=[0, 1, 2, 3],
)


@pytest.mark.parametrize(
    "other",
    [
        pd.DataFrame(
            {
                "A": [1, 3, 3, 2],
                "B": ["e", "f", "f", None],
                "C": [1, 2, 3, 4],
                "D": [1.5, np.nan, 2.0, 1.0],
                "F": pd.to_datetime(["2024-01-01", None, "2024-01-03", "2024-01-05"]),
                "Z": [1, 2, 3, 4],
            },
            index=[0, 1, 2, 7],
        ),
        pd.DataFrame({"A": [4, 3, 2, 1], "E": [False, True, True, False]}, index=[3, 2, 1, 0]),
        pd.DataFrame({"A": pd.array([1, None], dtype="Int64")}, index=[0, 1]),
        pd.DataFrame(),
        pd.DataFrame({"A": [1, 1]}, index=[0, 0]),  # duplicate index: ValueError
        pd.DataFrame([[1, 2]], columns=["A", "A"]),  # duplicate columns: ValueError
    ],
)
def test_isin_frame(other):
    eframe = em.from_pandas(FRAME)
    try:
        expected = FRAME.isin(other)
    except ValueError:
        with pytest.raises(ValueError, match="duplicate axis"):
            eframe.isin(other)
        return
    assert_eq(eframe.isin(em.from_pandas(other)), expected)
    assert_eq(eframe.isin(other), expected)  # a pandas frame of values


@pytest.mark.parametrize(
    "other",
    [
        pd.Series([1, 2, 9], index=[0, 1, 7]),
        pd.Series([1.5, np.nan, 3.0, 0.0], index=[0, 1, 2, 3]),
        pd.Series(["a", "x"], index=[0, 1]),
        pd.Series([], dtype="int64"),
        pd.Series([1, 1], index=[0, 0]),
    ],
)
def test_isin_series(other):
    frame = FRAME[["A", "C", "D"]]
    eframe = em.from_pandas(frame)
    try:
        expected = frame.isin(other)
    except ValueError:
        with pytest.raises(ValueError, match="duplicate axis"):
            eframe.isin(em.from_pandas(other))
        return
    assert_eq(eframe.isin(em.from_pandas(other)), expected)


def test_isin_frame_duplicate_self_labels_and_empty():
    frame = pd.DataFrame({"a": [1, 2, 3]}, index=[5, 5, 6])
    other = pd.DataFrame({"a": [1, 3]}, index=[5, 6])
    assert_eq(em.from_pandas(frame).isin(em.from_pandas(other)), frame.isin(other))
    empty = frame.iloc[:0]
    assert_eq(em.from_pandas(empty).isin(em.from_pandas(other)), empty.isin(other))

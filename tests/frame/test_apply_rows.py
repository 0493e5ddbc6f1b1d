"""DataFrame.apply(func, axis=1) of column arithmetic, against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

FRAMES = {
    "float": lambda: pd.DataFrame({"a": [1.0, -2.5, np.nan, 4.0, 0.0], "b": [1.5, 2.0, 3.0, 0.0, -1.0]}),
    "int": lambda: pd.DataFrame({"a": [1, -2, 3, 4, 0], "b": [5, 2, 3, 1, -1]}),
    "mixed": lambda: pd.DataFrame({"a": [1, -2, 3, 4, 0], "b": [1.5, 2.0, np.nan, 0.5, -1.0]}),
    "labelled": lambda: pd.DataFrame({"a": [1, 2, 3], "b": [4.0, 5.0, 6.0]}, index=["x", "y", "x"]),
}

FUNCS = {
    "sum": lambda r: r.a + r.b * 2,
    "item": lambda r: r["a"] - r["b"],
    "ratio": lambda r: r.a / r.b,
    "compare": lambda r: r.a > r.b,
    "ufunc": lambda r: np.abs(r.a) + np.sqrt(np.abs(r.b)),
    "constant": lambda r: 3,
    "one_column": lambda r: r.a * 1,
}


def _both(frame: pd.DataFrame, func, **kwargs):
    return em.from_pandas(frame).apply(func, axis=1, **kwargs), frame.apply(func, axis=1, **kwargs)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("frame", FRAMES)
@pytest.mark.parametrize("func", FUNCS)
def test_column_arithmetic(frame, func):
    got, want = _both(FRAMES[frame](), FUNCS[func])
    assert_eq(got, want)


def test_int_and_float_columns_give_float_rows():
    frame = pd.DataFrame({"a": [1, 2, 3], "b": [0.5, 1.0, 1.5]})
    got, want = _both(frame, lambda r: r.a + 1)
    assert want.dtype == np.float64
    assert_eq(got, want)


def test_int_rows_stay_int():
    got, want = _both(pd.DataFrame({"a": [1, 2, 3], "b": [4, 5, 6]}), lambda r: r.a * r.b)
    assert want.dtype == np.int64
    assert_eq(got, want)


def test_bool_columns():
    frame = pd.DataFrame({"a": [True, False, True], "b": [False, False, True]})
    got, want = _both(frame, lambda r: r.a & r.b)
    assert_eq(got, want)


def test_datetime_columns():
    frame = pd.DataFrame(
        {"a": pd.to_datetime(["2020-01-03", None, "2021-06-01"]), "b": pd.to_datetime(["2020-01-01"] * 3)}
    )
    got, want = _both(frame, lambda r: r.a - r.b)
    assert_eq(got, want)


def test_string_result_constant():
    got, want = _both(pd.DataFrame({"a": [1, 2]}), lambda r: "x")
    assert_eq(got, want)


def test_args_and_keywords_reach_the_function():
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    got, want = _both(frame, lambda r, k, m=1: r.a * k + m, args=(2,), m=5)
    assert_eq(got, want)


def test_many_rows():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=5000), "b": rng.integers(-5, 5, size=5000)})
    frame.loc[rng.integers(0, 5000, 50), "a"] = np.nan
    got, want = _both(frame, lambda r: r.a * r.b - 1)
    assert_eq(got, want)


@pytest.mark.parametrize(
    "func",
    [
        lambda r: r["a"] if r["a"] > 0 else 0,
        lambda r: r.name,
        lambda r: r.a + r.name,
        lambda r: len(r),
        lambda r: r.sum(),
        lambda r: r[["a", "b"]],
        lambda r: pd.isna(r.a),
        lambda r: r.a - r.a.mean(),
        lambda r: max(r.a, r.b),
        lambda r: r.a or r.b,
        lambda r: str(r.a),
    ],
    ids=["branch", "name", "name_sum", "len", "row_sum", "subrow", "isna", "mean", "max", "or", "str"],
)
def test_not_column_arithmetic_is_refused(func):
    frame = pd.DataFrame({"a": [1.0, -2.0, np.nan, 4.0], "b": [1.0, 2.0, 3.0, 5.0]})
    with pytest.raises(NotImplementedError):
        em.from_pandas(frame).apply(func, axis=1)


@pytest.mark.parametrize(
    "frame",
    [
        pd.DataFrame({"a": pd.array([1, None, 3], dtype="Int64"), "b": pd.array([1, 2, 3], dtype="Int64")}),
        pd.DataFrame({"a": [1, 2], "s": ["x", "y"]}),
        pd.DataFrame({"a": [1, 2], "b": [True, False]}),
        pd.DataFrame({"a": pd.Categorical(["x", "y"])}),
        pd.DataFrame({"a": pd.to_datetime(["2020-01-01", "2020-01-02"]).tz_localize("UTC")}),
        pd.DataFrame({"a": pd.Series([], dtype="float64")}),
        pd.DataFrame(index=[0, 1]),
    ],
    ids=["Int64_NA", "str", "int_bool", "categorical", "tz", "empty", "no_columns"],
)
def test_rows_of_other_dtypes_are_refused(frame):
    with pytest.raises(NotImplementedError):
        em.from_pandas(frame).apply(lambda r: r.iloc[0], axis=1)


def test_duplicate_column_labels_are_refused():
    with pytest.raises(NotImplementedError):
        em.from_pandas(pd.DataFrame([[1, 2]], columns=["a", "a"])).apply(lambda r: r.a, axis=1)


@pytest.mark.parametrize("option", [{"raw": True}, {"result_type": "expand"}, {"engine": "numba"}])
def test_other_options_are_refused(option):
    frame = em.from_pandas(pd.DataFrame({"a": [1.0, 2.0]}))
    with pytest.raises(NotImplementedError):
        frame.apply(lambda r: r.a, axis=1, **option)


def test_error_of_pandas_row_call_is_raised():
    # column arithmetic that pandas' scalar rows cannot do: pandas' own error
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    with pytest.raises(AttributeError):
        frame.apply(lambda r: r.a.shift(), axis=1)
    with pytest.raises(AttributeError):
        em.from_pandas(frame).apply(lambda r: r.a.shift(), axis=1)


def test_numpy_reductions_keep_the_row_reduction():
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, np.nan]})
    got, want = _both(frame, np.sum)
    assert_eq(got, want)


def test_label_named_like_a_series_attribute():
    frame = pd.DataFrame({"sum": [1.0, 2.0], "b": [3.0, 4.0]})
    got, want = _both(frame, lambda r: r["sum"] + r.b)
    assert_eq(got, want)
    with pytest.raises(NotImplementedError):  # r.sum is the row's method in pandas
        em.from_pandas(frame).apply(lambda r: r.sum + r.b, axis=1)

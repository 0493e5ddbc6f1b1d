"""DataFrame.describe(include= / exclude=) and Series.describe of categoricals against pandas; the
summaries pandas holds in object columns of mixed values are refused."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _frame():
    return pd.DataFrame(
        {
            "c": pd.Series([1, 2, 2, None, 3], dtype="category"),
            "x": [1.0, 2.0, np.nan, 4.0, 5.0],
            "i": pd.array([1, None, 3, 4, 4], dtype="Int64"),
            "f": pd.Series([1.5, 2.5, 2.5, 1.5, 1.5], dtype="category"),
            "n": [3, 1, 2, 5, 4],
        }
    )


@pytest.mark.parametrize(
    ("include", "exclude"),
    [
        ("all", None),
        (["category"], None),
        ("category", None),
        (None, ["category"]),
        (["number", "category"], None),
        ([np.number], ["int64"]),
        (None, [np.number]),
        (["int64", "float64"], None),
    ],
)
def test_describe_include_exclude(include, exclude):
    df = _frame()
    assert_eq(
        em.from_pandas(df).describe(include=include, exclude=exclude),
        df.describe(include=include, exclude=exclude),
    )


def test_describe_percentiles_and_order():
    df = _frame()
    got = em.from_pandas(df).describe(include="all", percentiles=[0.1, 0.9])
    assert_eq(got, df.describe(include="all", percentiles=[0.1, 0.9]))
    cats = df[["c", "f"]]
    assert_eq(em.from_pandas(cats).describe(), cats.describe())
    ints = df[["c"]]
    assert_eq(em.from_pandas(ints).describe(), ints.describe())


@pytest.mark.parametrize(
    "ser",
    [
        pd.Series([1, 2, 2, None], dtype="category", name="a"),
        pd.Series([3, 1, 1, 3, None, 2], dtype=pd.CategoricalDtype([3, 2, 1, 7])),
        pd.Series([1.5, 2.5, 2.5], dtype="category"),
        pd.Series([2, 1], dtype=pd.CategoricalDtype([1, 2], ordered=True)),
    ],
)
def test_series_describe_categorical(ser):
    assert_eq(em.from_pandas(ser).describe(), ser.describe())


@pytest.mark.parametrize(
    "ser",
    [
        pd.Series(["a", "b", "a"]),
        pd.Series(["a", "b", None], dtype=object),
        pd.Series([True, False, True]),
        pd.Series(["x", "y"], dtype="category"),
        pd.Series([None, None], dtype="category"),
        pd.Series([], dtype="category"),
        pd.Series(pd.to_datetime(["2020-01-01", None])),
    ],
)
def test_series_describe_mixed_refused(ser):
    # pandas' summary is an object Series mixing counts and values
    assert ser.describe().dtype == object
    with pytest.raises(NotImplementedError):
        em.from_pandas(ser).describe()


def test_frame_describe_mixed_refused():
    df = _frame().assign(s=["a", "b", "c", "d", "e"], d=pd.to_datetime(["2020"] * 5), b=[True] * 5)
    edf = em.from_pandas(df)
    for include in ("all", ["object", "str"], [np.datetime64], ["bool"]):
        with pytest.raises(NotImplementedError):
            edf.describe(include=include)
    with pytest.raises(NotImplementedError):
        edf.describe()  # the datetime column is described by default
    with pytest.raises(ValueError, match="exclude must be None"):
        edf.describe(include="all", exclude=["int64"])
    num = df[["x", "n"]].assign(s=["a"] * 5)
    assert_eq(em.from_pandas(num).describe(), num.describe())
    assert_eq(
        em.from_pandas(num).describe(exclude=["object", "str"]), num.describe(exclude=["object", "str"])
    )


def test_describe_no_columns():
    for df, kw in [
        (pd.DataFrame(), {}),
        (pd.DataFrame({"a": [1]}), {"include": ["category"]}),
        (pd.DataFrame({"a": [1]}), {"include": []}),
    ]:
        with pytest.raises(ValueError) as exc:
            df.describe(**kw)
        with pytest.raises(ValueError, match=str(exc.value)):
            em.from_pandas(df).describe(**kw)

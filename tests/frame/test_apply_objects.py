"""GroupBy.apply with functions returning pandas / ember objects, and DataFrame.corr over datetimes."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

PDF = pd.DataFrame(
    {
        "k": [1, 1, 2, 2, 2, 3],
        "j": ["a", "b", "a", "a", "b", "b"],
        "v1": [1.0, 2, 3, 4, 6, 1],
        "v2": [2.0, 1, 5, 3, 1, 7],
        "i": [1, 2, 3, 4, 5, 6],
    }
)

FUNCS = {
    "q9": lambda g: pd.Series({"r2": g[["v1", "v2"]].corr()["v1"]["v2"] ** 2}),
    "two_labels": lambda g: pd.Series({"a": g["v1"].sum(), "b": g["i"].max()}),
    "ints_named": lambda g: pd.Series([g["i"].max(), 2], index=["x", "y"], name="nm"),
    "bool_and_int": lambda g: pd.Series([True], index=["x"]) if len(g) == 2 else pd.Series([3], index=["x"]),
    "pandas_frame": lambda g: pd.DataFrame({"s": [g["v1"].sum()]}),
    "scalar": lambda g: g["v1"].sum(),
    "different_labels": lambda g: pd.Series(range(len(g))),
    "head": lambda g: g.head(1),
}


@pytest.mark.parametrize("name", list(FUNCS))
def test_apply_results_one_key(name):
    func = FUNCS[name]
    assert_eq(em.from_pandas(PDF).groupby("k").apply(func), PDF.groupby("k").apply(func))


@pytest.mark.parametrize("name", ["q9", "two_labels", "ints_named", "bool_and_int", "scalar"])
def test_apply_results_two_keys(name):
    func = FUNCS[name]
    assert_eq(em.from_pandas(PDF).groupby(["k", "j"]).apply(func), PDF.groupby(["k", "j"]).apply(func))


def test_apply_ember_series_result():
    def func(g):
        return em.Series({"r2": g[["v1", "v2"]].corr()["v1"]["v2"] ** 2})

    expected = PDF.groupby("k").apply(FUNCS["q9"])
    assert_eq(em.from_pandas(PDF).groupby("k").apply(func), expected)


@pytest.mark.parametrize(
    "kw", [{"group_keys": False}, {"as_index": False}, {"sort": False}, {"dropna": False}]
)
def test_apply_options(kw):
    pdf = PDF.assign(k=[2.0, 2, 1, np.nan, 1, 3])
    for name in ["pandas_frame", "two_labels", "head"]:
        func = FUNCS[name]
        assert_eq(em.from_pandas(pdf).groupby("k", **kw).apply(func), pdf.groupby("k", **kw).apply(func))


def test_apply_include_groups_true_raises():
    with pytest.raises(ValueError, match="include_groups=True"):
        em.from_pandas(PDF).groupby("k").apply(FUNCS["scalar"], include_groups=True)


@pytest.mark.parametrize(
    "func",
    [
        lambda g: pd.Series({"a": 1, "b": "x"}),  # an object Series: pandas infers per column
        lambda g: pd.Series({"a": "x"}),
        lambda g: None,
    ],
)
def test_apply_refused(func):
    with pytest.raises(NotImplementedError):
        em.from_pandas(PDF).groupby("k").apply(func)


def test_apply_scalars_as_index_false_refused():
    with pytest.raises(NotImplementedError):
        em.from_pandas(PDF).groupby("k", as_index=False).apply(FUNCS["scalar"])


TEMPORAL = pd.DataFrame(
    {
        "a": [1.0, 2, 3, 5, 1],
        "t": pd.to_datetime(["2020-01-01", "2021-01-01", None, "2023-01-01", "2020-05-01"]),
        "d": pd.to_timedelta([1, 2, 3, 9, None], unit="D"),
        "tz": pd.to_datetime(["2020", "2021", "2022", "2029", "2021"]).tz_localize("UTC"),
        "s": pd.to_datetime(["2020", "2021", "2022", "2029", "2021"]).astype("datetime64[s]"),
    }
)


@pytest.mark.parametrize("numeric_only", [False, True])
def test_corr_with_datetimes(numeric_only):
    expected = TEMPORAL.corr(numeric_only=numeric_only)
    assert_eq(em.from_pandas(TEMPORAL).corr(numeric_only=numeric_only), expected)


def test_corr_spearman_with_datetimes():
    pdf = TEMPORAL.drop(columns=["t", "d"])
    assert_eq(em.from_pandas(pdf).corr(method="spearman"), pdf.corr(method="spearman"))


def test_cov_with_datetimes_raises_as_pandas():
    with pytest.raises(TypeError, match="datetime64 or timedelta64"):
        TEMPORAL.cov()
    with pytest.raises(TypeError, match="datetime64 or timedelta64"):
        em.from_pandas(TEMPORAL).cov()
    with pytest.raises(TypeError, match="datetime64 or timedelta64"):  # pandas: even numeric_only
        em.from_pandas(TEMPORAL).cov(numeric_only=True)

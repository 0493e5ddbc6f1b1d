"""Strings held as object: pandas 3 infers its ``str`` dtype for the keys a groupby, a pivot table, a
crosstab or a melt's id columns give back (and keeps object where it keeps the column as is)."""

from __future__ import annotations

import pandas as pd
import pytest

import ember as em


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": pd.Series(["x", "y", "x", None], dtype=object),
            "b": pd.Series(["p", "q", "q", "p"], dtype=object),
            "v": [1, 2, 3, 4],
        }
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda d: d.groupby("a").v.sum(),
        lambda d: d.groupby(["a", "b"]).v.sum(),
        lambda d: d.groupby("a", as_index=False).v.sum(),
        lambda d: d.groupby("a", dropna=False, sort=False).size(),
        lambda d: d.pivot_table(index="a", columns="b", values="v", aggfunc="sum"),
        lambda d: d.melt(id_vars="a", value_vars=["v"]),
        lambda d: d.groupby("a").head(1),  # rows, not keys: object
    ],
)
def test_object_string_keys_as_pandas(call) -> None:
    df = _frame()
    got, want = call(em.from_pandas(df)).to_pandas(), call(df)
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got, want)
    else:
        pd.testing.assert_frame_equal(got, want)


def test_crosstab_of_object_strings() -> None:
    df = _frame()
    e = em.from_pandas(df)
    pd.testing.assert_frame_equal(em.crosstab(e.a, e.b).to_pandas(), pd.crosstab(df.a, df.b))


_OBJECT_VALUES = [
    ["b", "ç", "a\nb"],
    ["a", None, "b"],
    ["a", float("nan")],
    [None, None],
    [float("nan"), None],
    [True, False],
    [True, None],
]


@pytest.mark.parametrize("values", _OBJECT_VALUES)
def test_astype_category_of_object_column(values) -> None:
    # a Series' categories are typed as new values (str, bool); an Index's stay object
    s = pd.Series(values, dtype=object, name="s")
    pd.testing.assert_series_equal(em.from_pandas(s).astype("category").to_pandas(), s.astype("category"))
    df = s.to_frame()
    got = em.from_pandas(df).astype({"s": "category"}).to_pandas()
    pd.testing.assert_frame_equal(got, df.astype({"s": "category"}))
    idx = pd.Index(s)
    pd.testing.assert_index_equal(em.from_pandas(idx).astype("category").to_pandas(), idx.astype("category"))


@pytest.mark.parametrize("values", _OBJECT_VALUES)
@pytest.mark.parametrize("keys", ["i", ["y", "i"], ["i", "y"]])
def test_reset_index_of_object_level(values, keys) -> None:
    # reset_index builds the levels' columns anew: strings infer to str, a flat index of NaN to float64
    df = pd.DataFrame({"y": range(len(values)), "i": pd.Series(values, dtype=object), "v": 1.5})
    got = em.from_pandas(df).set_index(keys).reset_index().to_pandas()
    pd.testing.assert_frame_equal(got, df.set_index(keys).reset_index())

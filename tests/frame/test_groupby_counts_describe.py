"""GroupBy.cumcount(ascending=False), SeriesGroupBy.value_counts and GroupBy.describe against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em


def _frame(seed: int, n: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "a": rng.choice(["x", "y", "z"], n),
            "k": rng.integers(0, 3, n),
            "b": rng.integers(0, 4, n).astype(float),
            "w": rng.integers(-5, 5, n),
            "m": pd.array(rng.integers(0, 9, n), dtype="Int64"),
        }
    )
    df.loc[rng.random(n) < 0.15, "b"] = np.nan
    df.loc[rng.random(n) < 0.1, "a"] = None
    df.loc[rng.random(n) < 0.2, "m"] = pd.NA
    return df


@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_cumcount_both_ways(ascending, dropna) -> None:
    df = _frame(1)
    got = em.from_pandas(df).groupby("a", dropna=dropna).cumcount(ascending=ascending).to_pandas()
    pd.testing.assert_series_equal(got, df.groupby("a", dropna=dropna).cumcount(ascending=ascending))


@pytest.mark.parametrize("keys", [["a"], ["a", "k"]], ids="+".join)
@pytest.mark.parametrize("group_sort", [True, False])
@pytest.mark.parametrize("group_dropna", [True, False])
@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"normalize": True},
        {"ascending": True},
        {"sort": False},
        {"dropna": False},
        {"normalize": True, "sort": True, "ascending": True, "dropna": False},
    ],
    ids=str,
)
def test_series_groupby_value_counts(keys, group_sort, group_dropna, kw) -> None:
    """Pairs by count within each group (across groups with groupby(sort=False)), ties in order of
    first appearance; proportions keep the counts' order."""
    df = _frame(2)
    want = df.groupby(keys, sort=group_sort, dropna=group_dropna)["b"].value_counts(**kw)
    got = em.from_pandas(df).groupby(keys, sort=group_sort, dropna=group_dropna)["b"].value_counts(**kw)
    pd.testing.assert_series_equal(got.to_pandas(), want, check_index_type=False)


def test_value_counts_refuses_bins() -> None:
    with pytest.raises(NotImplementedError, match="bins"):
        em.from_pandas(_frame(3)).groupby("a")["b"].value_counts(bins=3)


@pytest.mark.parametrize("dropna", [True, False])
def test_describe(dropna) -> None:
    """Numeric columns only (not keys, strings or bools); float64, a masked column Float64."""
    df = _frame(4).assign(s="t", flag=lambda d: d.w > 0)
    e = em.from_pandas(df)
    got = e.groupby("a", dropna=dropna).describe().to_pandas()
    pd.testing.assert_frame_equal(got, df.groupby("a", dropna=dropna).describe())
    got = e.groupby(["a", "k"]).m.describe().to_pandas()
    pd.testing.assert_frame_equal(got, df.groupby(["a", "k"]).m.describe())


@pytest.mark.parametrize(
    "call",
    [
        lambda d: d.groupby("a")[["b", "w"]].quantile([0.25, 0.75]),
        lambda d: d.groupby("a").b.quantile([0.5]),
        lambda d: d.groupby(["a", "k"]).w.quantile([0.1, 0.9]),
        lambda d: d.groupby("a", dropna=False)[["b"]].quantile(np.array([0.2, 0.4])),
    ],
)
def test_quantile_of_a_list(call) -> None:
    """A list of quantiles: an innermost unnamed index level, each group's rows together."""
    df = _frame(5)
    got, want = call(em.from_pandas(df)).to_pandas(), call(df)
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got, want)
    else:
        pd.testing.assert_frame_equal(got, want)

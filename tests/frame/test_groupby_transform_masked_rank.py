"""Ranks of masked columns: pandas' Series.rank and GroupBy.rank give a masked Float64 (<NA> where the
value or, in a groupby, the key is missing); DataFrame.rank gives float64 either way."""

from __future__ import annotations

import pandas as pd
import pytest

import ember as em


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "k": pd.array([1, 1, None, 2, 2, 1], dtype="Int64"),
            "w": pd.array([3, None, 1, 2, 2, 5], dtype="Int64"),
            "f": pd.array([0.5, 1.5, None, 1.5, None, 0.5], dtype="Float64"),
            "b": pd.array([True, None, False, True, False, True], dtype="boolean"),
            "v": [1.0, float("nan"), 2.0, 3.0, 3.0, 0.0],
        }
    )


@pytest.mark.parametrize("col", ["w", "f", "b", "v"])
@pytest.mark.parametrize(
    "kw", [{}, {"method": "dense", "pct": True}, {"na_option": "top"}, {"method": "min"}]
)
def test_series_rank_of_masked_columns(col, kw) -> None:
    pdf = _frame()
    got = em.from_pandas(pdf)[col].rank(**kw).to_pandas()
    pd.testing.assert_series_equal(got, pdf[col].rank(**kw))


@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("kw", [{}, {"method": "first"}, {"pct": True}])
def test_groupby_rank_of_masked_columns(dropna, kw) -> None:
    pdf = _frame()
    got = em.from_pandas(pdf).groupby("k", dropna=dropna)[["w", "f", "v"]].rank(**kw).to_pandas()
    pd.testing.assert_frame_equal(got, pdf.groupby("k", dropna=dropna)[["w", "f", "v"]].rank(**kw))


def test_frame_rank_of_masked_columns_is_float64() -> None:
    pdf = _frame()[["w", "f", "v"]]
    pd.testing.assert_frame_equal(em.from_pandas(pdf).rank().to_pandas(), pdf.rank())

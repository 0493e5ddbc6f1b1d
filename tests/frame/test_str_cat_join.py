"""Series.str.cat with a Series on other labels: every join of pandas."""

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

LEFT = [pd.Series(["a", "b", None, "d"], name="s"), pd.Series(["a", "b"], index=[1, 1])]
OTHERS = [
    pd.Series(["d", "a", "e", "c"], index=[3, 0, 4, 2], name="t"),
    pd.Series(["x", "y"], index=[1, 1]),
    pd.Series(["x", "y", "z"], index=[9, 8, 7]),
]


@pytest.mark.parametrize("left", LEFT, ids=["unique", "repeated"])
@pytest.mark.parametrize("other", OTHERS, ids=["shuffled", "repeated", "disjoint"])
@pytest.mark.parametrize("join", ["left", "right", "outer", "inner"])
@pytest.mark.parametrize("kwargs", [{}, {"na_rep": "-"}, {"sep": ","}])
def test_cat_joins_as_pandas(left, other, join, kwargs):
    want = left.str.cat(other, join=join, **kwargs)
    assert_eq(em.from_pandas(left).str.cat(em.from_pandas(other), join=join, **kwargs), want)
    assert_eq(em.from_pandas(left).str.cat(other, join=join, **kwargs), want)

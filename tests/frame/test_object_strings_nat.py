"""An object column of strings beside NaT (``pd.Series(["2010-01-01", pd.NaT])``): NaT is its
missing value, as pandas keeps it."""

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

VALUES = ["2010-01-01", pd.NaT, "2011-02-03"]


@pytest.mark.parametrize(
    "op",
    [
        lambda s, m: s,
        lambda s, m: s.isna(),
        lambda s, m: s.str.upper(),
        lambda s, m: s.fillna("z"),
        lambda s, m: s.astype("str"),
        lambda s, m: m.to_datetime(s),
        lambda s, m: m.to_datetime(s).dt.isocalendar(),
        lambda s, m: s.dropna(),
    ],
)
def test_strings_beside_nat_as_pandas(op):
    want = op(pd.Series(VALUES), pd)
    assert_eq(op(em.Series(VALUES), em), want)
    assert_eq(op(em.from_pandas(pd.Series(VALUES)), em), want)


def test_two_missing_markers_refused():
    with pytest.raises(NotImplementedError):
        em.Series(["a", pd.NaT, None])

"""cut / qcut against pandas: bin numbers and label categoricals, pandas' edges for int bins, the
errors pandas raises, and the interval labels ember refuses."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.testing import assert_eq

r = np.random.default_rng(1)
FLOATS = pd.Series(np.r_[r.random(30) * 10, np.nan, 0.0, 10.0], name="v", index=np.arange(33) * 2)
INTS = pd.Series(r.integers(0, 10, 20))

CASES = {
    "int bins": (FLOATS, lambda m, s: m.cut(s, 4, labels=False)),
    "edges": (FLOATS, lambda m, s: m.cut(s, [0, 2.5, 5, 10], labels=False)),
    "edges left-closed": (FLOATS, lambda m, s: m.cut(s, [0, 2.5, 5, 10], labels=False, right=False)),
    "include_lowest": (FLOATS, lambda m, s: m.cut(s, [0, 2.5, 5, 10], labels=False, include_lowest=True)),
    "labels": (FLOATS, lambda m, s: m.cut(s, [0, 2.5, 5, 10], labels=["lo", "mid", "hi"])),
    "labels unordered": (FLOATS, lambda m, s: m.cut(s, 3, labels=["a", "b", "c"], ordered=False)),
    "ints": (INTS, lambda m, s: m.cut(s, 3, labels=False)),
    "ints left-closed": (INTS, lambda m, s: m.cut(s, 3, labels=False, right=False)),
    "duplicate edges dropped": (INTS, lambda m, s: m.cut(s, [0, 0, 5, 10], labels=False, duplicates="drop")),
    "one value": (pd.Series([5.0] * 4), lambda m, s: m.cut(s, 2, labels=False)),
    "qcut": (FLOATS, lambda m, s: m.qcut(s, 4, labels=False)),
    "qcut quantiles and labels": (FLOATS, lambda m, s: m.qcut(s, [0, 0.1, 0.5, 1], labels=["a", "b", "c"])),
    "qcut ints": (INTS, lambda m, s: m.qcut(s, 3, labels=False)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_cut_qcut_match_pandas(case):
    ps, call = CASES[case]
    assert_eq(call(em, em.from_pandas(ps)), call(pd, ps))


def test_retbins_and_array_input():
    got, got_edges = em.cut(em.from_pandas(FLOATS), 4, labels=False, retbins=True)
    want, want_edges = pd.cut(FLOATS, 4, labels=False, retbins=True)
    assert_eq(got, want)
    np.testing.assert_array_equal(got_edges, want_edges)
    values = np.array([1.0, 5.0, 9.0, 20.0])
    np.testing.assert_array_equal(
        to_host(em.cut(values, [0, 4, 10], labels=False)), pd.cut(values, [0, 4, 10], labels=False)
    )
    got_q, _ = em.qcut(values, 2, labels=False, retbins=True)
    np.testing.assert_array_equal(to_host(got_q), pd.qcut(values, 2, labels=False))


@pytest.mark.parametrize(
    "call",
    [
        lambda m, s: m.cut(s, [0, 5, 2], labels=False),  # not increasing
        lambda m, s: m.cut(s, [0, 5, 5, 10], labels=False),  # duplicate edges
        lambda m, s: m.cut(s, [0, 5, 10], labels=["a"]),  # one label too few
        lambda m, s: m.cut(s, [0, 5, 10], labels=["a", "a"]),  # duplicates, ordered
        lambda m, s: m.cut(s, 0, labels=False),
        lambda m, s: m.cut(s.iloc[:0], 3, labels=False),  # empty
        lambda m, s: m.cut(s, [0, 5, 10], labels=False, duplicates="keep"),
        lambda m, s: m.cut(s, [0, 5, 10], labels="abc"),
    ],
)
def test_bad_arguments_raise_as_pandas(call):
    with pytest.raises(ValueError):
        call(pd, FLOATS)
    with pytest.raises(ValueError):
        call(em, em.from_pandas(FLOATS))


def test_interval_labels_and_non_numbers_are_refused():
    s = em.from_pandas(FLOATS)
    with pytest.raises(NotImplementedError, match="labels=False"):
        em.cut(s, 3)
    with pytest.raises(NotImplementedError, match="labels=False"):
        em.qcut(s, 3)
    with pytest.raises(NotImplementedError):
        em.cut(em.from_pandas(pd.Series(["a", "b"])), 2, labels=False)
    with pytest.raises(ValueError, match="infinity"):
        em.cut(em.from_pandas(pd.Series([1.0, np.inf])), 2, labels=False)

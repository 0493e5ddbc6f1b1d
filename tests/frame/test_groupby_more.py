"""GroupBy methods of groupby_more (and ffill / bfill limits, transform specs, get_group of a
1-tuple) against pandas."""

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq


def frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "k": ["b", "a", "b", "a", "c", "a", "a", None],
            "j": [1, 1, 2, 1, 2, 2, 1, 1],
            "x": [np.nan, 2, 3, np.nan, 5, 1, 7, 8],
            "y": [5, 4, 3, 2, 1, 0, 9, 3],
            "m": pd.array([1, None, 3, 3, 2, 1, None, 4], dtype="Int64"),
        }
    )


GROUPINGS = [
    dict(by="k"),
    dict(by="k", sort=False),
    dict(by="k", dropna=False),
    dict(by=["k", "j"]),
    dict(by="k", as_index=False),
    dict(by="k", group_keys=False),
]

CALLS = {
    "take": lambda g: g.take([0, -1]) if g.ngroups and min(g.size().to_numpy().ravel()[-3:]) else g.take([0]),
    "take_first": lambda g: g.take([0]),
    "nth_list": lambda g: g.nth([0, -1]),
    "nth_slice": lambda g: g.nth(slice(1, None)),
    "nth_slice_neg": lambda g: g.nth(slice(-3, None, 2)),
    "nth_tuple": lambda g: g.nth((0, slice(-1, None))),
    "nth_any": lambda g: g.nth(0, dropna="any"),
    "nth_all": lambda g: g.nth(-1, dropna="all"),
    "ffill": lambda g: g.ffill(limit=1),
    "bfill": lambda g: g.bfill(limit=2),
    "kurt": lambda g: g[["x", "y", "m"]].kurt(),
    "ohlc": lambda g: g[["x", "y"]].ohlc(),
    "corr": lambda g: g[["x", "y"]].corr(),
    "cov": lambda g: g[["x", "y"]].cov(),
    "value_counts": lambda g: g.value_counts(subset=["y"]),
    "value_counts_all": lambda g: g[["y", "m"]].value_counts(normalize=True, dropna=False),
    "value_counts_up": lambda g: g.value_counts(subset=["j"], ascending=True, sort=True),
    "transform_list": lambda g: g[["x", "y"]].transform(["sum", "min"]),
    "transform_dict": lambda g: g.transform({"y": "max", "x": "sum"}),
    "s_nlargest": lambda g: g["x"].nlargest(2),
    "s_nsmallest": lambda g: g["y"].nsmallest(2),
    "s_take": lambda g: g["y"].take([0]),
    "s_nth": lambda g: g["m"].nth(1, dropna="any"),
    "s_inc": lambda g: g["y"].is_monotonic_increasing,
    "s_dec": lambda g: g["x"].is_monotonic_decreasing,
    "s_kurt": lambda g: g["y"].kurt(),
    "s_ohlc": lambda g: g["x"].ohlc(),
    "s_ffill": lambda g: g["m"].ffill(limit=1),
}


def _both(call, pdf, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = call(pdf.groupby(**kwargs))
        except Exception as exc:  # pandas' error is the expected one
            want = exc
        edf = em.from_pandas(pdf)
        if isinstance(want, Exception):
            with pytest.raises((type(want), NotImplementedError)):
                call(edf.groupby(**kwargs))
            return None, None
        try:
            got = call(edf.groupby(**kwargs))
        except NotImplementedError:
            return None, None
    return got, want


@pytest.mark.parametrize("kwargs", GROUPINGS, ids=str)
@pytest.mark.parametrize("name", list(CALLS))
def test_against_pandas(name, kwargs):
    got, want = _both(CALLS[name], frame(), kwargs)
    if got is not None:
        assert_eq(got, want)


@pytest.mark.parametrize("name", ["take_first", "nth_list", "ffill", "value_counts", "s_nlargest", "s_inc"])
def test_empty(name):
    got, want = _both(CALLS[name], frame().iloc[:0], dict(by="k"))
    if got is not None:
        assert_eq(got, want)


def test_categorical_key_observed_false():
    pdf = frame().assign(k=lambda d: pd.Categorical(d["k"], categories=["a", "b", "c", "d"]))
    for name in ("nth_list", "s_nlargest", "kurt", "ohlc", "value_counts"):
        got, want = _both(CALLS[name], pdf, dict(by="k", observed=True))
        if got is not None:
            assert_eq(got, want)


def test_indices():
    pdf = frame()
    for kwargs in (dict(by="k"), dict(by="k", sort=False), dict(by=["k", "j"]), dict(by="k", dropna=False)):
        want = pdf.groupby(**kwargs).indices
        got = em.from_pandas(pdf).groupby(**kwargs).indices
        assert list(got) == list(want)  # pandas 3.0 keys hold np.int64, 3.1 Python ints: equal either way
        for a, b in zip(got.values(), want.values()):
            np.testing.assert_array_equal(a, b)
            assert a.dtype == b.dtype


def test_get_group_of_one_key_list():
    pdf = frame()
    assert_eq(em.from_pandas(pdf).groupby(["k"]).get_group(("a",)), pdf.groupby(["k"]).get_group(("a",)))
    with pytest.raises(KeyError):
        em.from_pandas(pdf).groupby(["k"]).get_group("a")


def test_bad_arguments():
    g = em.from_pandas(frame()).groupby("k")
    with pytest.raises(IndexError):
        g.take([5])
    with pytest.raises(ValueError):
        g.nth([0], dropna="any")
    with pytest.raises(ValueError):
        g.nth(0, dropna="some")
    with pytest.raises(ValueError):
        g.nth(slice(0, None, -1))
    with pytest.raises(NotImplementedError):
        g["y"].unique()
    with pytest.raises(NotImplementedError if PANDAS_31 else TypeError):  # pandas 3.0: not callable
        g.transform({"x": ["sum", "min"]})

"""rolling(win_type=...) (pandas' Window): sum / mean / var / std against pandas."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

pytest.importorskip("scipy")


def _values():
    rng = np.random.default_rng(0)
    vals = rng.normal(size=30) * 10
    vals[[3, 7, 8, 20]] = np.nan
    vals[15] = np.inf
    return vals


WINDOWS = [
    ("triang", {}),
    ("boxcar", {}),
    ("hamming", {}),
    ("gaussian", {"std": 2.0}),
    ("exponential", {"tau": 3.0}),
    ("kaiser", {"beta": 2.0}),
]


@pytest.mark.parametrize(("win_type", "kwargs"), WINDOWS)
@pytest.mark.parametrize("op", ["sum", "mean", "var", "std"])
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("min_periods", [None, 0, 2])
def test_series_weighted(win_type, kwargs, op, center, min_periods):
    s = pd.Series(_values())
    for window in (1, 4, 5):
        if min_periods is not None and min_periods > window:
            continue
        exp = getattr(s.rolling(window, win_type=win_type, center=center, min_periods=min_periods), op)(
            **kwargs
        )
        got = getattr(
            em.from_pandas(s).rolling(window, win_type=win_type, center=center, min_periods=min_periods), op
        )(**kwargs)
        assert_eq(got, exp)


@pytest.mark.parametrize("win_type", ["blackman", "hann", "bartlett"])
def test_zero_end_weights(win_type):
    s = pd.Series(_values())
    for op in ("sum", "mean"):
        assert_eq(
            getattr(em.from_pandas(s).rolling(5, win_type=win_type), op)(),
            getattr(s.rolling(5, win_type=win_type), op)(),
        )
    # pandas' online variance divides by a running weight sum of 0 there
    with pytest.raises(NotImplementedError):
        em.from_pandas(s).rolling(5, win_type=win_type).var()


def test_step_ddof_and_frame():
    df = pd.DataFrame({"a": _values(), "b": np.arange(30), "c": pd.array([1, None] * 15, dtype="Int64")})
    edf = em.from_pandas(df)
    assert_eq(edf.rolling(3, win_type="triang", step=2).sum(), df.rolling(3, win_type="triang", step=2).sum())
    assert_eq(edf.rolling(4, win_type="triang").var(ddof=0), df.rolling(4, win_type="triang").var(ddof=0))
    assert_eq(edf.rolling(4, win_type="triang").std(ddof=3), df.rolling(4, win_type="triang").std(ddof=3))
    assert_eq(edf.rolling(2, win_type="boxcar").agg("mean"), df.rolling(2, win_type="boxcar").agg("mean"))
    assert_eq(edf.rolling(3, win_type="gaussian").sum(std=3), df.rolling(3, win_type="gaussian").sum(std=3))
    s = df["b"]
    assert_eq(
        em.from_pandas(s).rolling(2, win_type="gaussian").var(std=3),
        s.rolling(2, win_type="gaussian").var(std=3),
    )


def test_empty_and_zero_window():
    s = pd.Series([], dtype=float)
    assert_eq(em.from_pandas(s).rolling(3, win_type="triang").sum(), s.rolling(3, win_type="triang").sum())
    s = pd.Series([1.0, 2.0, 3.0])
    assert_eq(em.from_pandas(s).rolling(0, win_type="triang").mean(), s.rolling(0, win_type="triang").mean())
    assert_eq(
        em.from_pandas(s).rolling(3, win_type="triang").var(ddof=5),
        s.rolling(3, win_type="triang").var(ddof=5),
    )


def test_errors():
    s = pd.Series([1.0, 2.0, 3.0])
    es = em.from_pandas(s)
    cases = [
        lambda o: o.rolling(3, win_type="foo"),
        lambda o: o.rolling(3, win_type=5),
        lambda o: o.rolling(3.0, win_type="triang"),
        lambda o: o.rolling(2, win_type="triang", min_periods=3),
        lambda o: o.rolling(3, win_type="triang", step=0).sum(),
        lambda o: o.rolling(3, win_type="gaussian").sum(),
        lambda o: o.rolling(3, win_type="triang").sum(foo=1),
        lambda o: o.rolling(3, win_type="triang").var(ddof=-1),
        lambda o: o.rolling(3, win_type="triang").min(),
    ]
    for case in cases:
        with pytest.raises(Exception) as pexc:
            case(s)
        with pytest.raises(pexc.type):
            case(es)
    df = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]})
    with pytest.raises(pd.errors.DataError):
        em.from_pandas(df).rolling(2, win_type="triang").sum()
    with pytest.raises(NotImplementedError):
        em.from_pandas(df).rolling(2, win_type="triang", on="a").sum()


# --- rolling / expanding / ewm of object, string and categorical columns of missing values ------------


@pytest.mark.parametrize("dtype", [object, "str", "category"])
@pytest.mark.parametrize("data", [[], [None, None, None], [np.nan, np.nan, np.nan]])
@pytest.mark.parametrize("op", ["sum", "mean", "count", "min", "max", "std", "var", "median"])
def test_all_missing_object_windows(dtype, data, op):
    s = pd.Series(data, dtype=dtype)
    es = em.from_pandas(s)
    assert_eq(getattr(es.rolling(2), op)(), getattr(s.rolling(2), op)())
    assert_eq(getattr(es.expanding(), op)(), getattr(s.expanding(), op)())
    if op in ("sum", "mean", "std", "var"):
        assert_eq(getattr(es.ewm(com=2), op)(), getattr(s.ewm(com=2), op)())
    if data:
        assert_eq(
            getattr(es.groupby([1, 1, 2]).rolling(2), op)(), getattr(s.groupby([1, 1, 2]).rolling(2), op)()
        )


@pytest.mark.parametrize("dtype", [object, "str", "category"])
def test_object_values_windows(dtype):
    s = pd.Series(["a", None, "b", None], dtype=dtype)
    es = em.from_pandas(s)
    assert_eq(es.rolling(2).count(), s.rolling(2).count())
    assert_eq(es.expanding().count(), s.expanding().count())
    with pytest.raises(pd.errors.DataError):
        es.rolling(2).sum()
    df = pd.DataFrame({"a": pd.Series([None, None], dtype=object), "b": [1, 2]})
    assert_eq(em.from_pandas(df).rolling(2).sum(), df.rolling(2).sum())
    assert_eq(
        em.from_pandas(df).rolling(2, win_type="triang").mean(), df.rolling(2, win_type="triang").mean()
    )

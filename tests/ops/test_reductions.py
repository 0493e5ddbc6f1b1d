"""reduce / reduce_many / reduce_rows / corr / cov / quantile_many against pandas."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.column import from_pandas
from ember.ops.correlation import corr_matrix, cov_matrix
from ember.ops.quantiles import quantile_many
from ember.ops.reductions import reduce, reduce_many
from ember.ops.row_reductions import reduce_rows

SERIES = {
    "i8": pd.Series([1, 2, 3], dtype="int8"),
    "u8": pd.Series([1, 2, 3], dtype="uint8"),
    "i64": pd.Series([5, -2, 7, 7], dtype="int64"),
    "f32": pd.Series([1, 2, np.nan], dtype="float32"),
    "f64": pd.Series([1.5, np.nan, -2.0, 7.25]),
    "bool": pd.Series([True, False, True]),
    "Int64": pd.Series([1, None, 3], dtype="Int64"),
    "boolean": pd.Series([True, None, False], dtype="boolean"),
    "Float64": pd.Series([1.5, None], dtype="Float64"),
    "dt": pd.Series(pd.to_datetime(["2020-01-01", None, "2021-01-01"])),
    "dtz": pd.Series(pd.to_datetime(["2020-01-01", None, "2021-01-01"])).dt.tz_localize("US/Eastern"),
    "td": pd.Series(pd.to_timedelta([1, None, 3], unit="s")),
    "Int64_allna": pd.Series([None, None], dtype="Int64"),
    "empty_i": pd.Series([], dtype="int64"),
    "empty_f32": pd.Series([], dtype="float32"),
    "one": pd.Series([4.0]),
    "all_nan": pd.Series([np.nan, np.nan]),
    "str": pd.Series(["b", None, "a", "b"]),
    "cat_ordered": pd.Series(pd.Categorical(["b", "a", None, "b"], ordered=True)),
}
OPS = ["sum", "prod", "mean", "min", "max", "std", "var", "sem", "count", "median", "nunique", "any", "all",
       "idxmin", "idxmax"]  # fmt: skip


PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)
_PY_SCALARS_IN_30 = {("f32", "median"): np.float32}


def _same(r, e) -> bool:
    if e is pd.NA or e is pd.NaT:
        return r is e
    if isinstance(e, float) and np.isnan(e):
        return isinstance(r, float) and np.isnan(r)
    if isinstance(e, (np.floating, float)):
        return type(r) is type(e) and (np.isclose(r, e, rtol=1e-6) or (np.isnan(r) and np.isnan(e)))
    return type(r) is type(e) and r == e


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - compared with pandas' exception
            return None, exc


@pytest.mark.parametrize("skipna", [True, False])
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("name", list(SERIES))
def test_reduce_like_pandas(name, op, skipna, xp):
    s = SERIES[name]
    kw = {} if op in ("count", "nunique") else {"skipna": skipna}
    if op in ("count", "nunique") and not skipna:
        pytest.skip("no skipna argument")
    expected, perr = _outcome(lambda: getattr(s, op)(**kw))
    got, eerr = _outcome(lambda: reduce(from_pandas(s, xp), op, **kw))
    if perr is not None:
        assert eerr is not None and isinstance(eerr, type(perr)), (perr, eerr)
        return
    if not PANDAS_31 and isinstance(expected, (bool, float)) and (name, op) in _PY_SCALARS_IN_30:
        expected = _PY_SCALARS_IN_30[name, op](expected)  # 3.0 gives Python scalars; 3.1 and ember NumPy's
    assert eerr is None, eerr
    assert _same(got, expected), (got, expected)


@pytest.mark.parametrize("min_count", [0, 1, 3])
@pytest.mark.parametrize("name", ["f64", "Int64", "Int64_allna", "empty_i", "i64"])
def test_sum_min_count(name, min_count, xp):
    s = SERIES[name]
    assert _same(reduce(from_pandas(s, xp), "sum", min_count=min_count), s.sum(min_count=min_count))


@pytest.mark.parametrize("q", [0.0, 0.3, 0.5, 1.0])
@pytest.mark.parametrize("name", ["i8", "f64", "Int64", "f32", "dt", "one"])
def test_quantile(name, q, xp):
    s = SERIES[name]
    assert _same(reduce(from_pandas(s, xp), "quantile", q=q), s.quantile(q))


def test_reduce_many_one_list(xp):
    names = ["i8", "f64", "Int64", "dt", "bool"]
    cols = [from_pandas(SERIES[n], xp) for n in names]
    got = reduce_many(cols, "max")
    for g, n in zip(got, names, strict=True):
        assert _same(g, SERIES[n].max())


def test_ddof(xp):
    s = SERIES["f64"]
    for ddof in (0, 1, 2, 5):
        assert _same(reduce(from_pandas(s, xp), "var", ddof=ddof), s.var(ddof=ddof))
        assert _same(reduce(from_pandas(s, xp), "std", ddof=ddof), s.std(ddof=ddof))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.integers(-1000, 1000)), max_size=30),
    st.sampled_from(["sum", "mean", "min", "max", "std", "var", "count", "median", "nunique", "prod"]),
    st.booleans(),
)
def test_property_nullable_ints(values, op, as_float):
    s = pd.Series(values, dtype="Int64")
    if as_float:
        s = s.astype("float64")
    if op == "prod":
        s = s.clip(-3, 3)
    kw = {} if op in ("count", "nunique") else {"skipna": True}
    expected, perr = _outcome(lambda: getattr(s, op)(**kw))
    got, eerr = _outcome(lambda: reduce(from_pandas(s, np), op, **kw))
    assert (perr is None) == (eerr is None), (perr, eerr)
    if perr is None:
        assert _same(got, expected), (values, op, got, expected)


FRAMES = {
    "mixed": pd.DataFrame(
        {"a": [1, 2, 3, 4], "b": [1.5, np.nan, -2, 0.5], "c": pd.Series([3, 1, 2, 9], dtype="int8")}
    ),
    "nullable": pd.DataFrame(
        {"a": pd.Series([1, None, 3, 4], dtype="Int64"), "b": pd.Series([None, None, 3, 1], dtype="Int64")}
    ),
    "ints": pd.DataFrame({"a": [1, 2, 3, 4], "c": pd.Series([3, 1, 2, 9], dtype="int8")}),
}


@pytest.mark.parametrize("skipna", [True, False])
@pytest.mark.parametrize(
    "op", ["sum", "mean", "min", "max", "std", "var", "count", "prod", "median", "any", "all"]
)
@pytest.mark.parametrize("frame", list(FRAMES))
def test_reduce_rows(frame, op, skipna, xp):
    df = FRAMES[frame]
    cols = [from_pandas(df[c], xp) for c in df]
    kw = {} if op == "count" else {"skipna": skipna}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = getattr(df, op)(axis=1, **kw)
    got = reduce_rows(cols, op, **kw).to_pandas()
    pd.testing.assert_series_equal(got, expected, check_names=False, check_index=False)


def test_reduce_rows_min_count(xp):
    for df in FRAMES.values():
        cols = [from_pandas(df[c], xp) for c in df]
        got = reduce_rows(cols, "sum", min_count=2).to_pandas()
        pd.testing.assert_series_equal(got, df.sum(axis=1, min_count=2), check_names=False, check_index=False)


def _random_frame(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = pd.DataFrame(rng.normal(size=(50, 4)) * [1, 10, 100, 1e3] + [0, 1e6, 5, -3], columns=list("wxyz"))
    x.iloc[rng.integers(0, 50, 12), rng.integers(0, 4, 12)] = np.nan
    return x


@pytest.mark.parametrize("min_periods", [1, 45])
def test_corr_cov_pairwise(min_periods, xp):
    x = _random_frame()
    cols = [from_pandas(x[c], xp) for c in x]
    np.testing.assert_allclose(
        corr_matrix(cols, min_periods=min_periods), x.corr(min_periods=min_periods), rtol=1e-7
    )
    np.testing.assert_allclose(
        cov_matrix(cols, min_periods=min_periods), x.cov(min_periods=min_periods), rtol=1e-7
    )
    np.testing.assert_allclose(cov_matrix(cols, ddof=0), x.cov(ddof=0), rtol=1e-7)


def test_corr_spearman_and_complete(xp):
    y = _random_frame().fillna(0)
    y["t"] = [1, 2, 2, 3, 3, 3, 4] * 7 + [1]
    cols = [from_pandas(y[c], xp) for c in y]
    np.testing.assert_allclose(corr_matrix(cols, "spearman"), y.corr("spearman"), rtol=1e-7)
    np.testing.assert_allclose(corr_matrix(cols), y.corr(), rtol=1e-7)
    with pytest.raises(NotImplementedError):
        corr_matrix(cols, "kendall")


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "nearest", "midpoint"])
def test_quantile_many(interpolation, xp):
    s = pd.Series([1, 5, np.nan, 3, 2.5, 8])
    qs = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]
    got = quantile_many(from_pandas(s, xp), qs, interpolation)
    np.testing.assert_allclose(got, s.quantile(qs, interpolation=interpolation).to_numpy())


def test_quantile_many_datetime(xp):
    d = pd.Series(pd.to_datetime(["2020-01-01", None, "2020-01-03"]))
    assert quantile_many(from_pandas(d, xp), [0.5]) == d.quantile([0.5]).tolist()


def test_unknown_op(xp):
    with pytest.raises(NotImplementedError):
        reduce(from_pandas(pd.Series([1]), xp), "mode")

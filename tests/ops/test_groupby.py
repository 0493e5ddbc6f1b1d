"""Grouping / aggregate / transform / head-tail-nth against pandas' groupby on the same data."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.backend import to_host
from ember.column import from_pandas
from ember.ops.group_transform import transform
from ember.ops.groupby import aggregate
from ember.ops.grouping import head_tail_positions, make_grouping, nth_positions

N = 40
_rng = np.random.default_rng(7)


def _frame() -> pd.DataFrame:
    r = _rng
    ints = r.integers(-5, 6, N)
    fl = r.normal(size=N)
    fl[r.random(N) < 0.2] = np.nan
    nint = pd.array(r.integers(-3, 9, N), dtype="Int64")
    nint[r.random(N) < 0.25] = pd.NA
    strs = pd.Series(r.choice(["a", "bb", "", "ccc", "zz"], N), dtype="str")
    strs[r.random(N) < 0.2] = None
    dt = pd.Series(pd.to_datetime("2024-01-01") + pd.to_timedelta(r.integers(0, 10**6, N), unit="s"))
    dt[r.random(N) < 0.2] = pd.NaT
    kf = r.choice([1.0, 2.5, np.nan, -1.0], N)
    return pd.DataFrame(
        {
            # keys
            "k_int": r.integers(0, 4, N),
            "k_float": kf,
            "k_str": pd.Series(r.choice(["x", "y", "w"], N), dtype="str").where(r.random(N) > 0.15, None),
            "k_bool": r.random(N) > 0.5,
            "k_cat": pd.Categorical(
                r.choice(["lo", "mid", "hi"], N), categories=["mid", "lo", "hi", "unused"]
            ),
            "k_dt": pd.to_datetime("2020-01-01") + pd.to_timedelta(r.integers(0, 3, N), unit="D"),
            "k_wide": r.choice(np.array([10**14, -(10**14), 7], dtype=np.int64), N),
            # values
            "v_int": ints,
            "v_int8": ints.astype(np.int8),
            "v_uint": r.integers(0, 100, N).astype(np.uint32),
            "v_float": fl,
            "v_f32": fl.astype(np.float32),
            "v_bool": r.random(N) > 0.4,
            "v_Int64": nint,
            "v_boolean": pd.array(r.random(N) > 0.5, dtype="boolean"),
            "v_str": strs,
            "v_dt": dt,
        }
    )


DF = _frame()
KEYSETS = [
    ["k_int"],
    ["k_float"],
    ["k_str"],
    ["k_bool"],
    ["k_cat"],
    ["k_dt"],
    ["k_wide"],
    ["k_str", "k_float"],
    ["k_int", "k_cat", "k_bool"],
]
NUM_VALUES = ["v_int", "v_int8", "v_uint", "v_float", "v_f32", "v_bool", "v_Int64", "v_boolean"]
NUM_OPS = [
    "sum",
    "mean",
    "min",
    "max",
    "count",
    "size",
    "std",
    "var",
    "sem",
    "median",
    "first",
    "last",
    "nunique",
    "prod",
    "any",
    "all",
]


def _grouping(df: pd.DataFrame, keys: list[str], xp, sort: bool = True, dropna: bool = True):
    return make_grouping([from_pandas(df[k], xp) for k in keys], sort=sort, dropna=dropna)


def _pd_group(df, keys, val, sort=True, dropna=True):
    return df.groupby(keys, sort=sort, dropna=dropna, observed=True)[val]


def _expected(df, keys, val, op, sort=True, dropna=True, **kw) -> pd.Series:
    g = _pd_group(df, keys, val, sort, dropna)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(g, op)(**kw).reset_index(drop=True)


def _compare(got, exp: pd.Series, exact: bool = False) -> None:
    pd.testing.assert_series_equal(got.to_pandas(), exp, check_names=False, check_exact=exact, rtol=1e-5)


@pytest.mark.parametrize("keys", KEYSETS, ids=lambda k: "+".join(k))
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_grouping_keys(keys, sort, dropna, xp) -> None:
    g = _grouping(DF, keys, xp, sort, dropna)
    pg = DF.groupby(keys, sort=sort, dropna=dropna, observed=True)
    exp_codes = pg.ngroup().to_numpy()
    exp_codes = (
        np.where(np.isnan(exp_codes.astype(float)), -1, exp_codes).astype(np.int64)
        if exp_codes.dtype != np.int64
        else exp_codes
    )
    np.testing.assert_array_equal(to_host(g.codes), exp_codes)
    assert g.ngroups == pg.ngroups
    exp_keys = pg.size().index.to_frame(index=False)
    for u, k in zip(g.uniques, keys, strict=True):
        pd.testing.assert_series_equal(u.to_pandas(), exp_keys[k], check_names=False)


@pytest.mark.parametrize("val", NUM_VALUES)
@pytest.mark.parametrize("op", NUM_OPS)
@pytest.mark.parametrize("keys", [["k_int"], ["k_str", "k_float"], ["k_cat"]], ids=lambda k: "+".join(k))
def test_numeric_aggregations(val, op, keys, xp) -> None:
    g = _grouping(DF, keys, xp)
    got = aggregate(g, from_pandas(DF[val], xp), op)
    _compare(got, _expected(DF, keys, val, op))


@pytest.mark.parametrize(
    "op", ["sum", "mean", "min", "max", "count", "first", "last", "median", "var", "std", "nunique", "prod"]
)
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_sort_dropna_variants(op, sort, dropna, xp) -> None:
    keys = ["k_float", "k_str"]
    g = _grouping(DF, keys, xp, sort, dropna)
    got = aggregate(g, from_pandas(DF["v_float"], xp), op)
    _compare(got, _expected(DF, keys, "v_float", op, sort, dropna))


@pytest.mark.parametrize("op", ["min", "max", "first", "last", "count", "nunique", "size"])
@pytest.mark.parametrize("keys", [["k_int"], ["k_float", "k_bool"]], ids=lambda k: "+".join(k))
def test_string_aggregations(op, keys, xp) -> None:
    g = _grouping(DF, keys, xp)
    got = aggregate(g, from_pandas(DF["v_str"], xp), op)
    _compare(got, _expected(DF, keys, "v_str", op), exact=True)


@pytest.mark.parametrize("op", ["min", "max", "first", "last", "count", "mean", "median", "nunique"])
def test_datetime_aggregations(op, xp) -> None:
    g = _grouping(DF, ["k_int"], xp)
    got = aggregate(g, from_pandas(DF["v_dt"], xp), op)
    exp = _expected(DF, ["k_int"], "v_dt", op)
    if op in ("mean", "median"):
        diff = (got.to_pandas() - exp).abs().max()
        assert got.to_pandas().dtype == exp.dtype and (pd.isna(diff) or diff <= pd.Timedelta(1, "us"))
        pd.testing.assert_series_equal(got.to_pandas().isna(), exp.isna(), check_names=False)
    else:
        _compare(got, exp, exact=True)


@pytest.mark.parametrize("op", ["count", "first", "last", "nunique", "size", "min", "max"])
def test_categorical_values(op, xp) -> None:
    df = pd.DataFrame(
        {
            "k": [1, 1, 2, 2, 3],
            "c": pd.Categorical(["b", None, "a", "b", None], categories=["b", "a"], ordered=True),
        }
    )
    g = _grouping(df, ["k"], xp)
    got = aggregate(g, from_pandas(df["c"], xp), op)
    _compare(got, _expected(df, ["k"], "c", op), exact=True)


@pytest.mark.parametrize("ddof", [0, 1, 2])
@pytest.mark.parametrize("op", ["var", "std", "sem"])
def test_ddof(op, ddof, xp) -> None:
    g = _grouping(DF, ["k_int"], xp)
    got = aggregate(g, from_pandas(DF["v_float"], xp), op, ddof=ddof)
    _compare(got, _expected(DF, ["k_int"], "v_float", op, ddof=ddof))


@pytest.mark.parametrize("q", [0.0, 0.1, 0.5, 0.75, 1.0])
@pytest.mark.parametrize("val", ["v_int", "v_float", "v_Int64"])
def test_quantile(q, val, xp) -> None:
    g = _grouping(DF, ["k_str"], xp)
    got = aggregate(g, from_pandas(DF[val], xp), "quantile", q=q)
    _compare(got, _expected(DF, ["k_str"], val, "quantile", q=q))


@pytest.mark.parametrize("min_count", [1, 3])
@pytest.mark.parametrize("op", ["sum", "prod"])
@pytest.mark.parametrize("val", ["v_int", "v_float", "v_Int64"])
def test_min_count(op, min_count, val, xp) -> None:
    g = _grouping(DF, ["k_str", "k_bool"], xp)
    got = aggregate(g, from_pandas(DF[val], xp), op, min_count=min_count)
    _compare(got, _expected(DF, ["k_str", "k_bool"], val, op, min_count=min_count))


@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "first", "last"])
def test_skipna_false(op, xp) -> None:
    g = _grouping(DF, ["k_int"], xp)
    got = aggregate(g, from_pandas(DF["v_float"], xp), op, skipna=False)
    _compare(got, _expected(DF, ["k_int"], "v_float", op, skipna=False))


@pytest.mark.parametrize("op", ["idxmin", "idxmax"])
@pytest.mark.parametrize("val", ["v_int", "v_float", "v_str", "v_bool"])
def test_idxmin_idxmax(op, val, xp) -> None:
    df = DF.copy()
    df.loc[df.index[:8], val] = df[val].dropna().iloc[0]  # every key group gets a valid value
    keys = ["k_int"]
    g = _grouping(df, keys, xp)
    got = to_host(aggregate(g, from_pandas(df[val], xp), op).data)
    exp = getattr(_pd_group(df.assign(k_int=np.arange(N) % 4), keys, val), op)().to_numpy()
    g2 = _grouping(df.assign(k_int=np.arange(N) % 4), keys, xp)
    got = to_host(aggregate(g2, from_pandas(df[val], xp), op).data)
    np.testing.assert_array_equal(got, exp)


def test_idx_all_null_group_is_missing(xp) -> None:
    df = pd.DataFrame({"k": [1, 1, 2], "v": [np.nan, np.nan, 3.0]})
    got = aggregate(_grouping(df, ["k"], xp), from_pandas(df["v"], xp), "idxmin")
    assert to_host(got.mask).tolist() == [False, True] and int(to_host(got.data)[1]) == 2


@pytest.mark.parametrize("n", [0, 1, 2, -1, -2, 10])
def test_nth_aggregate_and_positions(n, xp) -> None:
    keys = ["k_str"]
    g = _grouping(DF, keys, xp)
    exp = _pd_group(DF, keys, "v_float").nth(n)
    np.testing.assert_array_equal(to_host(nth_positions(g, n)), exp.index.to_numpy())
    got = aggregate(g, from_pandas(DF["v_float"], xp), "nth", n=n).to_pandas()
    codes = to_host(g.codes)
    exp_vals = np.full(g.ngroups, np.nan)
    exp_vals[codes[exp.index.to_numpy()]] = exp.to_numpy()
    np.testing.assert_array_equal(got.to_numpy(), exp_vals)


@pytest.mark.parametrize("n", [0, 1, 3, -1, -3])
@pytest.mark.parametrize("tail", [False, True])
@pytest.mark.parametrize("dropna", [True, False])
def test_head_tail(n, tail, dropna, xp) -> None:
    keys = ["k_float"]
    g = _grouping(DF, keys, xp, dropna=dropna)
    pg = DF.groupby(keys, dropna=dropna)
    exp = (pg.tail(n) if tail else pg.head(n)).index.to_numpy()
    np.testing.assert_array_equal(to_host(head_tail_positions(g, n, tail=tail)), exp)


PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax"])
@pytest.mark.parametrize("val", ["v_int", "v_int8", "v_float", "v_bool", "v_Int64"])
@pytest.mark.parametrize("keys", [["k_int"], ["k_float"]], ids=lambda k: "+".join(k))
def test_cumulative(op, val, keys, xp) -> None:
    if op == "cumprod" and val in ("v_int", "v_int8", "v_Int64"):
        df = DF.assign(**{val: DF[val].clip(-2, 2)})
    else:
        df = DF
    g = _grouping(df, keys, xp)
    got = transform(g, from_pandas(df[val], xp), op)
    exp = getattr(_pd_group(df, keys, val), op)()
    if not PANDAS_31 and val == "v_Int64" and str(exp.dtype) == "Float64":  # pandas 3.0 with rows left out
        exp = exp.astype("Int64")  # of the groups (NaN keys) gives Float64; 3.1, and ember, Int64
    _compare(got, exp.reset_index(drop=True))


@pytest.mark.parametrize("op", ["cummin", "cummax"])
def test_cumulative_datetime(op, xp) -> None:
    g = _grouping(DF, ["k_int"], xp)
    got = transform(g, from_pandas(DF["v_dt"], xp), op)
    _compare(got, getattr(_pd_group(DF, ["k_int"], "v_dt"), op)().reset_index(drop=True), exact=True)


@pytest.mark.parametrize("keys", [["k_int"], ["k_float"]], ids=lambda k: "+".join(k))
@pytest.mark.parametrize("ascending", [True, False])
def test_cumcount(keys, ascending, xp) -> None:
    g = _grouping(DF, keys, xp)
    got = transform(g, from_pandas(DF["v_int"], xp), "cumcount", ascending=ascending)
    exp = DF.groupby(keys).cumcount(ascending=ascending)
    _compare(got, exp.reset_index(drop=True), exact=True)


@pytest.mark.parametrize("method", ["average", "min", "max", "first", "dense"])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_option", ["keep", "top", "bottom"])
@pytest.mark.parametrize("pct", [False, True])
def test_group_rank(method, ascending, na_option, pct, xp) -> None:
    keys = ["k_float"]
    g = _grouping(DF, keys, xp)
    for val in ("v_Int64", "v_str"):
        got = transform(
            g,
            from_pandas(DF[val], xp),
            "rank",
            method=method,
            ascending=ascending,
            na_option=na_option,
            pct=pct,
        )
        exp = _pd_group(DF, keys, val).rank(method=method, ascending=ascending, na_option=na_option, pct=pct)
        _compare(got, exp.reset_index(drop=True))  # a masked column ranks as Float64


@pytest.mark.parametrize("periods", [1, 2, -1, 0])
@pytest.mark.parametrize("val", ["v_int", "v_float", "v_Int64", "v_str", "v_dt"])
def test_shift(periods, val, xp) -> None:
    keys = ["k_float"]
    g = _grouping(DF, keys, xp)
    got = transform(g, from_pandas(DF[val], xp), "shift", periods=periods)
    exp = _pd_group(DF, keys, val).shift(periods)
    _compare(got, exp.reset_index(drop=True), exact=True)


@pytest.mark.parametrize("periods", [1, -2])
@pytest.mark.parametrize("val", ["v_int", "v_int8", "v_float", "v_f32", "v_Int64", "v_dt"])
def test_diff(periods, val, xp) -> None:
    keys = ["k_str"]
    g = _grouping(DF, keys, xp)
    got = transform(g, from_pandas(DF[val], xp), "diff", periods=periods)
    exp = _pd_group(DF, keys, val).diff(periods)
    _compare(got, exp.reset_index(drop=True))


@pytest.mark.parametrize("op", ["ffill", "bfill"])
@pytest.mark.parametrize("val", ["v_float", "v_Int64", "v_str", "v_dt"])
def test_fill(op, val, xp) -> None:
    keys = ["k_float"]
    g = _grouping(DF, keys, xp)
    got = transform(g, from_pandas(DF[val], xp), op)
    exp = getattr(_pd_group(DF, keys, val), op)()
    _compare(got, exp.reset_index(drop=True), exact=True)


@pytest.mark.parametrize("op", ["sum", "mean", "count", "max", "size"])
@pytest.mark.parametrize("val", ["v_int", "v_float", "v_Int64"])
@pytest.mark.parametrize("keys", [["k_int"], ["k_float"]], ids=lambda k: "+".join(k))
def test_transform_broadcast(op, val, keys, xp) -> None:
    g = _grouping(DF, keys, xp)
    got = transform(g, from_pandas(DF[val], xp), op)
    exp = _pd_group(DF, keys, val).transform(op)
    _compare(got, exp.reset_index(drop=True))


# --- edge cases -------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "count", "size", "first", "nunique", "median"])
def test_empty_input(op, xp) -> None:
    df = pd.DataFrame({"k": pd.Series([], dtype="int64"), "v": pd.Series([], dtype="float64")})
    g = _grouping(df, ["k"], xp)
    assert g.ngroups == 0
    got = aggregate(g, from_pandas(df["v"], xp), op)
    exp = _expected(df, ["k"], "v", op)
    _compare(got, exp)


@pytest.mark.parametrize(
    "op", ["sum", "mean", "min", "max", "count", "std", "first", "last", "median", "prod"]
)
def test_single_group_and_one_row(op, xp) -> None:
    for df in (pd.DataFrame({"k": [1, 1, 1], "v": [3.0, np.nan, 1.0]}), pd.DataFrame({"k": [5], "v": [2.5]})):
        g = _grouping(df, ["k"], xp)
        _compare(aggregate(g, from_pandas(df["v"], xp), op), _expected(df, ["k"], "v", op))


@pytest.mark.parametrize(
    "op", ["sum", "mean", "min", "max", "count", "std", "first", "median", "prod", "nunique"]
)
@pytest.mark.parametrize("dtype", ["float64", "Int64"])
def test_all_null_values(op, dtype, xp) -> None:
    df = pd.DataFrame({"k": [1, 2, 1], "v": pd.Series([None, None, None], dtype=dtype)})
    g = _grouping(df, ["k"], xp)
    _compare(aggregate(g, from_pandas(df["v"], xp), op), _expected(df, ["k"], "v", op))


def test_all_null_keys(xp) -> None:
    df = pd.DataFrame({"k": [np.nan, np.nan], "v": [1, 2]})
    g = _grouping(df, ["k"], xp)
    assert g.ngroups == 0
    _compare(aggregate(g, from_pandas(df["v"], xp), "sum"), _expected(df, ["k"], "v", "sum"))
    g = _grouping(df, ["k"], xp, dropna=False)
    _compare(aggregate(g, from_pandas(df["v"], xp), "sum"), _expected(df, ["k"], "v", "sum", dropna=False))


def test_large_int_sum_is_exact(xp) -> None:
    df = pd.DataFrame({"k": [0, 0, 1], "v": np.array([2**62, 2**62 - 1, 5], dtype=np.int64) // 2})
    _compare(
        aggregate(_grouping(df, ["k"], xp), from_pandas(df["v"], xp), "sum"),
        _expected(df, ["k"], "v", "sum"),
        exact=True,
    )


def test_unsupported_op_raises(xp) -> None:
    g = _grouping(DF, ["k_int"], xp)
    with pytest.raises(NotImplementedError, match="ohlc"):
        aggregate(g, from_pandas(DF["v_int"], xp), "ohlc")
    with pytest.raises(TypeError, match="mean"):
        aggregate(g, from_pandas(DF["v_str"], xp), "mean")
    with pytest.raises(NotImplementedError, match="q must be one float"):
        aggregate(g, from_pandas(DF["v_int"], xp), "quantile", q=[0.1, 0.2])


@settings(max_examples=60, deadline=None)
@given(
    data=st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(0, 3)),
            st.one_of(st.none(), st.sampled_from(["a", "b"])),
            st.one_of(st.none(), st.floats(-5, 5, allow_nan=False)),
        ),
        max_size=30,
    ),
    sort=st.booleans(),
    dropna=st.booleans(),
    op=st.sampled_from(["sum", "mean", "min", "max", "count", "first", "last", "median", "nunique", "var"]),
)
def test_groupby_hypothesis(data, sort, dropna, op) -> None:
    df = pd.DataFrame(data, columns=["a", "b", "v"]).astype({"a": "Int64", "b": "str", "v": "float64"})
    keys = ["a", "b"]
    g = _grouping(df, keys, np, sort, dropna)
    got = aggregate(g, from_pandas(df["v"], np), op)
    exp = _expected(df, keys, "v", op, sort, dropna)
    if len(df) == 0:
        assert g.ngroups == 0 and len(got) == 0
        return
    pd.testing.assert_series_equal(got.to_pandas(), exp, check_names=False, rtol=1e-6, atol=1e-9)

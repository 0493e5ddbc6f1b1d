"""More regressions of reductions, groupby, windows, joins, reshaping and selections that the
differential fuzzer found: each case compares ember with pandas' own answer, or checks that ember
raises pandas' exception type (or NotImplementedError where ember refuses what pandas answers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _run(fn, frames, lib):
    try:
        return fn(lib, *frames)
    except Exception as exc:  # noqa: BLE001
        return exc


def same(fn, *frames, **kw):
    """ember answers exactly as pandas does (``fn(lib, *frames)``; lib is pd or em)."""
    p = _run(fn, frames, pd)
    e = _run(fn, [em.from_pandas(f) for f in frames], em)
    assert not isinstance(p, Exception), p
    if isinstance(e, Exception):
        raise e
    assert_eq(e, p, **kw)


def raises_like(fn, *frames):
    """pandas raises, and ember raises the same exception type."""
    p = _run(fn, frames, pd)
    e = _run(fn, [em.from_pandas(f) for f in frames], em)
    assert isinstance(p, Exception), p
    assert isinstance(e, type(p)), (p, e)


def refused(fn, *frames):
    """pandas answers something ember does not give: ember raises NotImplementedError."""
    p = _run(fn, frames, pd)
    assert not isinstance(p, Exception), p
    with pytest.raises(NotImplementedError):
        fn(em, *[em.from_pandas(f) for f in frames])


I64 = np.iinfo(np.int64)


# --- windows -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["sum", "mean", "var", "std"])
@pytest.mark.parametrize(
    "values",
    [
        pd.Series([I64.min, -1]),
        pd.Series([I64.min, -1, 5, I64.max, 7]),
        pd.Series([100, 10, 18446744073709551615], dtype="uint64"),
        pd.Series([-2147483648, 100, 10], dtype="int32"),
    ],
)
def test_rolling_of_integers_near_the_limits(op, values):
    """The window sum of int64 values past the int64 range is pandas' float (was wrapped: wrong sign)."""
    same(lambda lib, s: getattr(s.rolling(2), op)(), values)
    same(lambda lib, s: getattr(s.rolling(3, min_periods=1), op)(), values)


@pytest.mark.parametrize("op", ["sum", "mean", "var", "std"])
def test_expanding_of_integers_near_the_limits(op):
    s = pd.Series([5, 42, 2147483647, -7, 0], dtype="int32")
    same(lambda lib, s: getattr(s.expanding(), op)(), s)
    same(lambda lib, s: getattr(s.expanding(), op)(), pd.Series([I64.min, -1, 5]))


@pytest.mark.parametrize("op", ["var", "std"])
def test_expanding_var_of_floats_far_from_zero(op):
    """Expanding variance as pandas' online algorithm (was a large prefix sum losing the small spread)."""
    rng = np.random.default_rng(0)
    s = pd.Series(rng.normal(1e9, 3.0, 200))
    s[::7] = np.nan
    k = pd.Series(rng.integers(0, 3, 200))
    same(lambda lib, s: getattr(s.expanding(), op)(), s, rtol=1e-6)
    same(lambda lib, s, k: getattr(s.groupby(k).expanding(), op)(), s, k, rtol=1e-6)


def test_window_results_keep_the_column_axis_name():
    df = pd.DataFrame({"k": [1, 1, 2], "v": [1.0, 2.0, 3.0]})
    df.columns.name = "C"
    same(lambda lib, d: d.rolling(2).count(), df)
    same(lambda lib, d: d.expanding().sum(), df)
    same(lambda lib, d: d.groupby("k").rolling(2).sum(), df)


# --- value_counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("ascending", [True, False])
def test_frame_value_counts_of_a_categorical_in_appearance_order(dropna, ascending):
    """DataFrame.value_counts puts the observed categories first, in order of appearance (Series in
    category order)."""
    df = pd.DataFrame({"d": pd.Categorical(["ç", "a", "ç", None], categories=["a", "b", "ç", "日本", ""])})
    same(lambda lib, d: d.value_counts(subset=["d"], sort=False, dropna=dropna), df)
    same(lambda lib, d: d.value_counts(normalize=True, ascending=ascending, dropna=dropna), df)
    same(lambda lib, d: d["d"].value_counts(sort=False, dropna=dropna), df)


def test_frame_value_counts_of_several_columns_with_a_categorical_refused():
    df = pd.DataFrame({"e": pd.Series([3], dtype="Int32"), "b": pd.Categorical(["ç"], categories=["a", "ç"])})
    refused(lambda lib, d: d.value_counts(), df)


# --- CUDA array interface of host data ---------------------------------------------------------------


def test_masked_boolean_mask_and_mode_on_host_data():
    """A boolean Series key with missing values selects as pandas (was TypeError 'lives in host memory':
    hasattr(key, '__cuda_array_interface__') raised)."""
    s = pd.Series([1.0, None, 3.0], dtype="Float64")
    same(lambda lib, s: s[s >= 2.0], s)
    same(lambda lib, s: s.mode(), s)
    assert not hasattr(em.from_pandas(s), "__cuda_array_interface__") or em.config.get("device") != "cpu"


# --- nlargest / nsmallest ------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["nlargest", "nsmallest"])
@pytest.mark.parametrize("keep", ["first", "last", "all"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 6])
@pytest.mark.parametrize(
    "s",
    [
        pd.Series([None, None, None], dtype="datetime64[ns]"),
        pd.Series([1.0, None, 3.0, None, 3.0]),
        pd.Series([2, None, 2, 1], dtype="Int64"),
    ],
)
def test_nlargest_keeps_missing_rows_where_values_run_out(method, keep, n, s):
    """pandas fills the places the valid values leave free with the missing rows (were dropped)."""
    same(lambda lib, s: getattr(s, method)(n, keep=keep), s)


# --- datetime mean / median / quantile -----------------------------------------------------------------


@pytest.mark.parametrize(
    "s",
    [
        pd.Series(["2020-01-01 00:00:00", "2020-12-31 00:00:07"], dtype="datetime64[s]"),
        pd.Series(["2020-01-01 00:00:00", "2019-12-31 23:59:59"], dtype="datetime64[s]"),
        pd.Series(["1969-12-31 23:59:58", "1969-12-31 23:59:59", None], dtype="datetime64[s]"),
        pd.Series(
            ["2019-12-31", "2020-01-01 00:00:01", "2020-12-31", "2020-01-01 00:00:00.5", "2020-01-01 01:00"],
            dtype="datetime64[ms, UTC]",
        ),
    ],
)
def test_datetime_mean_median_quantile_truncate_toward_zero(s):
    """pandas truncates the float mean to whole ticks (was rounded: one second / millisecond off)."""
    for op in ("mean", "median"):
        assert getattr(em.from_pandas(s), op)() == getattr(s, op)()
    same(lambda lib, s: s.quantile([0.5, 0.3, 0.25]), s)
    assert em.from_pandas(s).quantile(0.5) == s.quantile(0.5)
    t = s - pd.Timestamp("2020-01-01", tz=getattr(s.dtype, "tz", None))
    same(lambda lib, t: t.quantile([0.5, 0.3]), t)


@pytest.mark.parametrize(
    "dtype",
    ["int8", "uint64", "float32", "float64", "bool", "Int8", "UInt64", "Float32", "Float64", "boolean"],
)
@pytest.mark.parametrize("data", [[3, 1, 2, 2], [3, None, 1, 2], [None, None], []])
@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "nearest", "midpoint"])
def test_series_quantile_types(dtype, data, interpolation):
    """Series.quantile gives pandas' scalar types and list dtypes: selecting interpolations keep the
    dtype, bools raise for the others, empty / all-missing / float32 with missing values as pandas."""
    if None in data and dtype in ("int8", "uint64", "bool"):
        return
    if "bool" in dtype:
        data = [None if v is None else bool(v % 2) for v in data]
    s = pd.Series(data, dtype=dtype)
    for q in (0.5, 0.3):
        try:
            p = s.quantile(q, interpolation=interpolation)
        except TypeError:
            with pytest.raises(TypeError):
                em.from_pandas(s).quantile(q, interpolation=interpolation)
            continue
        e = em.from_pandas(s).quantile(q, interpolation=interpolation)
        assert type(e) is type(p) and (e == p if p is not pd.NA and p == p else repr(e) == repr(p))
    try:
        s.quantile([0.25, 0.5], interpolation=interpolation)
    except TypeError:
        raises_like(lambda lib, s: s.quantile([0.25, 0.5], interpolation=interpolation), s)
        return
    same(lambda lib, s: s.quantile([0.25, 0.5], interpolation=interpolation), s)


@pytest.mark.parametrize("dtype", ["datetime64[ms, UTC]", "timedelta64[ms]", "datetime64[s]"])
def test_quantile_of_empty_or_missing_datetimes_keeps_dtype(dtype):
    for data in ([], [None, None]):
        s = pd.Series(data, dtype=dtype)
        same(lambda lib, s: s.quantile([0.1, 0.9], interpolation="lower"), s)
        same(lambda lib, s: s.quantile([0.5]), s)


# --- groupby ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ascending", [True, False])
def test_ngroup_numbers_only_observed_categories(ascending):
    df = pd.DataFrame(
        {"a": pd.Categorical(["c", "b", "c", None], categories=["a", "b", "c"]), "k": [1, 2, 1, 2]}
    )
    same(lambda lib, d: d.groupby("a", observed=False).ngroup(ascending), df)
    same(lambda lib, d: d.groupby(["a", "k"], observed=False).ngroup(ascending), df)
    same(lambda lib, d: d.groupby("a", observed=False).ngroup(), df.iloc[1:2])


@pytest.mark.parametrize("op", ["first", "last", "max", "min", "sum", "std", "var", "mean", "median", "prod"])
def test_series_groupby_numeric_only_of_non_numeric_data_raises_type_error(op):
    """pandas' TypeError (was StopIteration leaking out)."""
    df = pd.DataFrame({"k": [1, 1], "e": ["x", "y"], "t": pd.to_datetime(["2020", "2021"])})
    raises_like(lambda lib, d: getattr(d.groupby("k")["e"], op)(numeric_only=True), df)
    raises_like(lambda lib, d: getattr(d.groupby("k")["t"], op)(numeric_only=True), df)


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummax", "cummin"])
def test_groupby_cumulative_numeric_only(op):
    df = pd.DataFrame({"k": [1, 1, 2], "t": pd.to_datetime(["2020", "2021", "2019"]), "v": [1, 2, 3]})
    same(lambda lib, d: getattr(d.groupby("k"), op)(numeric_only=True), df)
    same(lambda lib, d: getattr(d.groupby("k")["v"], op)(numeric_only=True), df)
    if op in ("cummax", "cummin"):  # a Series' numeric_only is ignored
        same(lambda lib, d: getattr(d.groupby("k")["t"], op)(numeric_only=True), df)


def test_groupby_mean_of_datetimes_as_pandas_compensated_float_sum():
    """Each tick made a float64, summed with Kahan's compensation, truncated (was off by hundreds of ns)."""
    rng = np.random.default_rng(1)
    for it in range(40):
        n = int(rng.integers(1, 30))
        t = rng.integers(-(2**62), 2**62, n) if it % 3 == 0 else rng.integers(int(1.5e18), int(2.5e18), n)
        s = pd.Series(t.astype("datetime64[ns]"))
        if it % 2:
            s[rng.random(n) < 0.2] = pd.NaT
        if it % 5 == 0:
            s = s.dt.tz_localize("Europe/Berlin")
        k = pd.Series(rng.integers(0, 3, n))
        same(lambda lib, s, k: s.groupby(k).mean(), s, k)


def test_groupby_mean_of_datetimes_without_groups():
    df = pd.DataFrame({"k": pd.Series([], dtype="int64"), "e": pd.Series([], dtype="datetime64[s]")})
    same(lambda lib, d: d.groupby("k")["e"].mean(), df)
    same(lambda lib, d: d.groupby("k").mean(), df)


# --- selections and merges -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mask",
    [
        pd.Series([True, True], index=["r0", "r1"]),
        pd.Series([True, False, True, True], index=["c", "b", "a", "z"]),
        pd.Series([True, None, True], index=["c", "b", "a"], dtype="boolean"),
        pd.Series([True, False, True], index=["c", "b", "b"]),
        pd.Series([True, False, True, True], index=["a", "b", "b", "c"]),
    ],
)
def test_boolean_series_key_is_aligned_as_pandas(mask):
    """A row whose label the key lacks is pandas' IndexingError (was taken as False)."""
    import warnings

    df = pd.DataFrame({"c": [1.0, 2.0, 3.0]}, index=["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn in (lambda lib, d, m: d[m], lambda lib, d, m: d.loc[m], lambda lib, d, m: d["c"].loc[m]):
            try:
                fn(pd, df, mask)
            except Exception:  # noqa: BLE001
                raises_like(fn, df, mask)
                continue
            same(fn, df, mask)


@pytest.mark.parametrize("how", ["right", "outer"])
def test_merge_without_left_match_keeps_the_right_key_dtype(how):
    a = pd.DataFrame({"k": pd.Series([1.5], dtype="Float64")})
    b = pd.DataFrame({"k": pd.Series([-7, None], dtype="Int64")})
    same(lambda lib, a, b: a.merge(b, how=how, on="k"), a, b)
    c = pd.DataFrame({"k": pd.Series([0.5], dtype="float32")})
    d = pd.DataFrame({"k": pd.Series([3, 4], dtype="int8")})
    same(lambda lib, c, d: c.merge(d, how=how, on="k"), c, d)


def test_frame_nlargest_of_several_columns_with_missing_values_refused():
    df = pd.DataFrame({"a": [1.0, None, 3.0], "b": [1, 2, 3]})
    refused(lambda lib, d: d.nlargest(1, ["a", "b"]), df)
    same(lambda lib, d: d.fillna(0).nlargest(2, ["a", "b"]), df)
    same(lambda lib, d: d.nsmallest(3, "a"), df)

"""Reductions as the differential fuzzer found them: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _same_scalar(got, want):
    if want is pd.NA or want is pd.NaT:
        assert got is want, (got, want)
    elif isinstance(want, float) and np.isnan(want):
        assert isinstance(got, (float, np.floating)) and np.isnan(got), (got, want)
    else:
        assert got == want, (got, want)
        assert type(got) is type(want), (got, want)


def _both(fn, pdobj, emobj):
    try:
        want = fn(pdobj)
    except Exception as exc:  # noqa: BLE001 - ember must raise pandas' exception type
        with pytest.raises(type(exc)):
            fn(emobj)
        return None, None
    return want, fn(emobj)


@pytest.mark.parametrize("vals", [[7, 0], [-7, 0], [2, 1], [-2, -1], [1, 2, 3, 5], [1, None, 2]])
@pytest.mark.parametrize("unit", ["s", "ms", "ns"])
@pytest.mark.parametrize("op", ["mean", "median"])
def test_timedelta_mean_median_truncate_toward_zero(vals, unit, op):
    s = pd.Series(pd.array(vals, dtype="Int64")).astype(f"m8[{unit}]")
    e = em.from_pandas(s)
    assert getattr(e, op)() == getattr(s, op)()
    assert_eq(getattr(e.to_frame(), op)(), getattr(s.to_frame(), op)())


@pytest.mark.parametrize("dtype", ["bool", "float32", "Float32", "UInt8", "int8"])
@pytest.mark.parametrize("op", ["max", "min", "var", "sum", "mean", "median", "prod"])
def test_row_reduction_of_no_rows_takes_the_column_reduction_dtype(dtype, op):
    df = pd.DataFrame({"d": pd.Series([], dtype=dtype), "e": pd.Series([], dtype="float32")})
    for cols in (["d"], ["d", "e"]):
        want = getattr(df[cols], op)(axis=1)
        try:
            got = getattr(em.from_pandas(df)[cols], op)(axis=1)
        except NotImplementedError:  # (bool beside float32: pandas' object-typed column results)
            assert len(cols) == 2
            continue
        assert_eq(got, want)


@pytest.mark.parametrize(
    ("cols", "order"),
    [
        ({"a": ("Int32", [2**30, 1]), "b": ("Int32", [2**30, 2])}, "ab"),
        ({"a": ("Int32", [1, None]), "b": ("Int32", [2, 3])}, "ab"),
        ({"a": ("UInt8", [200, 1]), "b": ("UInt8", [100, None])}, "ab"),
        ({"a": ("Int8", [3, 1]), "b": ("UInt8", [100, None])}, "ab"),
        ({"a": ("Int32", [None]), "b": ("Int32", [2**30]), "c": ("Int32", [2**30])}, "abc"),
        ({"a": ("Int32", [None]), "b": ("Int32", [2**30]), "c": ("Int32", [2**30])}, "bca"),
    ],
)
@pytest.mark.parametrize("kw", [{}, {"skipna": False}, {"min_count": 3}, {"skipna": False, "min_count": 2}])
@pytest.mark.parametrize("op", ["sum", "prod"])
def test_masked_integer_row_sums_keep_the_dtype_where_they_fit(cols, order, kw, op):
    df = pd.DataFrame({k: pd.array(cols[k][1], dtype=cols[k][0]) for k in order})
    assert_eq(getattr(em.from_pandas(df), op)(axis=1, **kw), getattr(df, op)(axis=1, **kw))


def test_min_of_no_rows_bool_beside_boolean_is_not_answered_as_float64():
    df = pd.DataFrame({"a": pd.Series([], dtype="bool"), "b": pd.Series([], dtype="boolean")})
    want = df.min()
    assert want.dtype == object
    try:
        got = em.from_pandas(df).min()
    except NotImplementedError:
        return
    assert_eq(got, want)


@pytest.mark.parametrize(
    "vals",
    [
        [1.0, np.inf, 2.0],
        [np.inf, np.inf],
        [np.inf, -np.inf],
        [1.0, 2.0],
        [1.0],
        [None, 1.0, np.inf],
        [np.inf],
    ],
)
@pytest.mark.parametrize("dtype", ["Float64", "Float32", "float64", "float32"])
@pytest.mark.parametrize("op", ["var", "std", "sem", "mean", "sum", "median"])
@pytest.mark.parametrize("kw", [{}, {"ddof": 2}, {"ddof": 0}, {"skipna": False}])
def test_reductions_with_inf_and_large_ddof(vals, dtype, op, kw):
    if "ddof" in kw and op not in ("var", "std", "sem"):
        pytest.skip("no ddof")
    s = pd.Series(pd.array(vals, dtype=dtype)) if dtype[0].isupper() else pd.Series(vals, dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want, got = _both(lambda x: getattr(x, op)(**kw), s, em.from_pandas(s))
    if isinstance(want, (float, np.floating)) and not np.isnan(want):
        assert got == pytest.approx(want, rel=1e-6)
    elif want is not None:
        if want is pd.NA:
            assert got is pd.NA
        else:
            assert np.isnan(got)


def test_masked_var_beyond_the_count_of_values():
    # (1 / UInt8).var(ddof=2): an inf among the values, pandas' NA
    s = 1 / pd.Series([100, 0, 5], dtype="UInt8")
    _same_scalar(em.from_pandas(pd.Series([100, 0, 5], dtype="UInt8")).rdiv(1).var(ddof=2), s.var(ddof=2))
    s = pd.Series([1, 2], dtype="Int32")
    _same_scalar(em.from_pandas(s).var(ddof=2), s.var(ddof=2))


@pytest.mark.parametrize("q", [0, 0.25, 0.5, 1.0])
@pytest.mark.parametrize("interpolation", ["linear", "midpoint", "lower", "higher", "nearest"])
@pytest.mark.parametrize("dtype", ["Float64", "float64", "float32"])
@pytest.mark.parametrize("vals", [[1.0, np.inf, 2.0], [np.inf, -np.inf], [None, 1.0, np.inf], [np.inf]])
def test_quantile_with_inf(q, interpolation, dtype, vals):
    s = pd.Series(pd.array(vals, dtype=dtype)) if dtype[0].isupper() else pd.Series(vals, dtype=dtype)
    e = em.from_pandas(s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = s.quantile(q, interpolation=interpolation)
        got = e.quantile(q, interpolation=interpolation)
        _same_scalar(
            float(got) if isinstance(got, np.floating) else got,
            float(want) if isinstance(want, np.floating) else want,
        )
        assert_eq(e.quantile([q], interpolation=interpolation), s.quantile([q], interpolation=interpolation))


def test_quantile_of_masked_inf_over_zero_is_na():
    s = pd.Series([None, 1, None, 5], dtype="UInt8")
    _same_scalar(em.from_pandas(s).__truediv__(0).quantile(1.0), (s / 0).quantile(1.0))


@pytest.mark.parametrize("dtype", ["str", "string", "object"])
@pytest.mark.parametrize("vals", [[], ["a"], ["a", None], [None], ["a", "b"]])
@pytest.mark.parametrize("kw", [{}, {"min_count": 1}, {"min_count": 2}, {"skipna": False, "min_count": 1}])
def test_string_sum_min_count(dtype, vals, kw):
    s = pd.Series(vals, dtype=dtype)
    e = em.from_pandas(s)
    try:
        want, got = _both(lambda x: x.sum(**kw), s, e)
    except NotImplementedError:
        return
    if want is not None:
        _same_scalar(got, want)
    try:
        want, got = _both(lambda x: x.to_frame().sum(**kw), s, e)
    except NotImplementedError:
        return
    if want is not None:
        assert_eq(got, want)


@pytest.mark.parametrize("vals", [[None], [True, None], [True, True, None], [True, False]])
def test_boolean_mode_with_missing_keeps_pandas_error(vals):
    s = pd.Series(vals, dtype="boolean")
    want, got = _both(lambda x: x.mode(dropna=False), s, em.from_pandas(s))
    if want is not None:
        assert_eq(got, want)


@pytest.mark.parametrize("vals", [[], ["b", "a", None, "b", "a", None], ["a", None]])
@pytest.mark.parametrize("dropna", [True, False])
def test_categorical_mode_skips_unobserved_categories_and_puts_missing_first(vals, dropna):
    s = pd.Series(pd.Categorical(vals, categories=["b", "a", "c"]), name="c")
    assert_eq(em.from_pandas(s).mode(dropna=dropna), s.mode(dropna=dropna))


@pytest.mark.parametrize(
    "vals", [["a", pd.NA], [pd.NA, "a"], ["a", None], ["b", "a", pd.NA, "c"], [pd.NA], [None]]
)
@pytest.mark.parametrize("op", ["cummax", "cummin", "cumsum"])
@pytest.mark.parametrize("skipna", [True, False])
def test_object_string_accumulations_with_missing_values(vals, op, skipna):
    s = pd.Series(vals, dtype=object)
    e = em.from_pandas(s)
    try:
        want = getattr(s, op)(skipna=skipna)
    except TypeError:
        with pytest.raises((TypeError, NotImplementedError)):
            getattr(e, op)(skipna=skipna)
        return
    try:
        got = getattr(e, op)(skipna=skipna)
    except NotImplementedError:
        return
    assert_eq(got, want)


def test_boolean_unique_is_an_extension_array():
    s = pd.Series([False, True, True], dtype="boolean", name="s")
    got = em.from_pandas(s).unique()
    pd.testing.assert_extension_array_equal(got, s.unique())


@pytest.mark.parametrize("vals", [["ç"], ["b", "a", "ç"], ["b", None, "a"], [None]])
@pytest.mark.parametrize("op", ["idxmax", "idxmin"])
@pytest.mark.parametrize("skipna", [True, False])
def test_idxmax_of_unordered_categorical_goes_by_codes(vals, op, skipna):
    s = pd.Series(pd.Categorical(vals, categories=["a", "b", "ç"]), index=pd.RangeIndex(8, 8 + len(vals)))
    e = em.from_pandas(s)
    want, got = _both(lambda x: getattr(x, op)(skipna=skipna), s, e)
    if want is not None:
        assert got == want
        assert_eq(getattr(e.to_frame(), op)(skipna=skipna), getattr(s.to_frame(), op)(skipna=skipna))


@pytest.mark.parametrize("vals", [[None, 2**63 - 1], [None, 5], [None, -(2**63)]])
@pytest.mark.parametrize("q", [1.0, [1.0], [0.0, 1.0]])
def test_masked_int_quantile_stays_float_outside_the_int_range(vals, q):
    s = pd.Series(vals, dtype="Int64", name="a")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = s.quantile(q)
    got = em.from_pandas(s).quantile(q)
    if isinstance(want, pd.Series):
        assert_eq(got, want)
    else:
        _same_scalar(got, want)


@pytest.mark.parametrize(
    "s",
    [
        pd.Series([None, "2020-12-31 01:00:00+01:00"], dtype="datetime64[ns, Europe/Berlin]"),
        pd.Series(pd.to_timedelta([None, None, "1D", "1D"])),
    ],
)
def test_datetime_mode_puts_missing_first(s):
    for dropna in (True, False):
        assert_eq(em.from_pandas(s).mode(dropna=dropna), s.mode(dropna=dropna))


@pytest.mark.parametrize("other", [None, "float32", "Float32"])
@pytest.mark.parametrize("op", ["sum", "prod"])
def test_empty_float32_sum_with_min_count_keeps_float32(other, op):
    d = {"a": pd.Series([], dtype="float32")}
    if other:
        d["b"] = pd.Series([], dtype=other)
    df = pd.DataFrame(d)
    assert_eq(getattr(em.from_pandas(df), op)(min_count=1), getattr(df, op)(min_count=1))


@pytest.mark.parametrize("n", [0, 2])
@pytest.mark.parametrize("op", ["nunique", "sum", "count", "any", "max"])
def test_row_reduction_of_no_columns(n, op):
    df = pd.DataFrame(index=pd.RangeIndex(n))
    assert_eq(getattr(em.from_pandas(df), op)(axis=1), getattr(df, op)(axis=1))

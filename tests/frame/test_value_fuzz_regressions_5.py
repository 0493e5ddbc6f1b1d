"""Values the differential fuzzer found silently different: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.mark.parametrize(
    ("dtype", "values"),
    [
        ("int32", [2147483647, -7]),
        ("int64", [9223372036854775807, -7]),
        ("int8", [127, -7]),
        ("int16", [32767, -7]),
        ("uint32", [5, 100]),
    ],
)
def test_diff_of_ints_wraps_as_pandas(dtype, values):
    df = pd.DataFrame({"b": pd.Series(values, dtype=dtype), "c": pd.Series([-1, -1], dtype="Int64")})
    df = df.set_axis(pd.RangeIndex(2, 4, 1))
    assert_eq(em.from_pandas(df).diff(1), df.diff(1))
    assert_eq(em.from_pandas(df["b"]).diff(), df["b"].diff())


@pytest.mark.parametrize("op", ["median", "mean", "sum"])
@pytest.mark.parametrize("other", ["boolean", "Int64", "float64"])
@pytest.mark.parametrize("rows", [0, 1])
def test_frame_reduction_of_timedeltas_beside_numbers_is_refused(op, other, rows):
    # pandas: an object Series, each column keeping its own type (NaT beside <NA> / NaN)
    df = pd.DataFrame(
        {"b": pd.Series([1] * rows, dtype="timedelta64[s]"), "c": pd.Series([True] * rows, dtype=other)}
    )
    want = getattr(df, op)()
    assert want.dtype == object
    with pytest.raises(NotImplementedError):
        getattr(em.from_pandas(df), op)()


@pytest.mark.parametrize("marker", [None, pd.NA, float("nan")])
@pytest.mark.parametrize("method", ["ffill", "bfill"])
@pytest.mark.parametrize("limit", [None, 1])
def test_fill_of_object_column_keeps_its_missing_marker(marker, method, limit):
    df = pd.DataFrame({"d": pd.Series([marker, "x", marker, marker], dtype="object")})
    assert_eq(getattr(em.from_pandas(df), method)(limit=limit), getattr(df, method)(limit=limit))
    assert_eq(getattr(em.from_pandas(df["d"]), method)(limit=limit), getattr(df["d"], method)(limit=limit))


def test_ffill_of_string_column_cast_to_object():
    df = pd.DataFrame({"d": pd.Series([None], dtype="string")}).set_axis(pd.RangeIndex(7, 8, 1))
    got = em.from_pandas(df).astype({"d": "object"}).ffill(limit=1)
    assert_eq(got, df.astype({"d": "object"}).ffill(limit=1))


@pytest.mark.parametrize("tz", [None, "Europe/Berlin"])
@pytest.mark.parametrize("how", ["agg", "method"])
def test_groupby_median_of_datetimes_goes_through_float64_as_pandas(tz, how):
    a = pd.to_datetime(
        ["2020-01-01 01:00:00", "2020-01-01 01:00:00.5", "2020-01-03", "2020-01-04 00:00:00.000000001"],
        format="ISO8601",
    )
    a = pd.Series(a.as_unit("ns").tz_localize(tz))
    t = pd.Series([983541432339323199, 2116732163134147874, 402369526390210527, 7], dtype="m8[ns]")
    df = pd.DataFrame({"k": [1, 1, 2, 2], "e": [3.0, 3.0, 1.0, 1.0], "a": a, "t": t})
    fn = (lambda g: g.agg("median")) if how == "agg" else (lambda g: g.median())
    want = fn(df.groupby(["e", "k"], sort=True, observed=True)[["a", "t"]])
    assert_eq(fn(em.from_pandas(df).groupby(["e", "k"], sort=True, observed=True)[["a", "t"]]), want)


def _same_outcome(fn, pdobj, emobj):
    try:
        want = fn(pdobj)
    except Exception as exc:  # noqa: BLE001 - ember must raise pandas' exception type
        with pytest.raises(type(exc)):
            fn(emobj)
        return
    assert_eq(fn(emobj), want)


@pytest.mark.parametrize("marker", [None, float("nan"), pd.NA])
@pytest.mark.parametrize("target", ["float64", "float32", "int64", "uint8", "bool"])
def test_astype_of_object_bools_with_missing_rows(marker, target):
    s = pd.Series([True, marker, False], dtype=object)
    _same_outcome(lambda x: x.astype(target), s, em.from_pandas(s))


def test_astype_float_of_bool_column_a_left_merge_left_missing():
    df = pd.DataFrame({"e": pd.Series([3.0], dtype="Float64"), "k": [5.0]})
    right = pd.DataFrame({"b": pd.Series([], dtype="bool"), "k": pd.Series([], dtype="uint64")})
    want = df.merge(right, how="left", on="k").astype({"b": "float64"})
    got = em.from_pandas(df).merge(em.from_pandas(right), how="left", on="k").astype({"b": "float64"})
    assert_eq(got, want)


@pytest.mark.parametrize("q", [0.1, 0.3, 0.5, 0.75])
@pytest.mark.parametrize("kind", ["m8[ns]", "M8[ns]"])
def test_groupby_quantile_of_datetimes_goes_through_float64_as_pandas(q, kind):
    v = [983541432339323199, 2116732163134147874, 402369526390210527, 7, 5, -999_999_937_000]
    df = pd.DataFrame({"k": [1, 1, 1, 1, 2, 2], "t": pd.Series(v).astype(kind)})
    want = df.groupby("k").t.quantile(q)
    assert_eq(em.from_pandas(df).groupby("k").t.quantile(q), want)


@pytest.mark.parametrize("dtype", ["Int32", "Float64", "boolean"])
@pytest.mark.parametrize("n", [0, 2])
def test_astype_bool_of_a_masked_column_without_missing_rows(dtype, n):
    # where() leaves a mask marking no missing row: the cast is NumPy's bool, not object
    s = pd.Series([1, 0][:n], dtype=dtype)
    e = em.from_pandas(s)
    assert_eq(
        e.where(e.notna(), float("nan")).astype("bool"), s.where(s.notna(), float("nan")).astype("bool")
    )

"""groupby regressions the differential fuzzer found: the column axis of an ``as_index=False``
result without value columns, idxmin / idxmax of unobserved categories without value columns, the
``str`` a SeriesGroupBy's Python path infers from its whole column (min / max and their
transforms), integer sums whose narrowing pandas decides per block of columns, and transforms of
object first / last beside dropped keys. A grid over the value dtypes, keys with missing values,
dropna, observed and as_index compares every answer with pandas' (ember may refuse with
NotImplementedError, never answer otherwise)."""

# ruff: noqa: B023 - each case's closure runs at once, inside its loop
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq


def _run(fn, lib, wrap):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(lib, wrap)
        except Exception as exc:  # noqa: BLE001 - the type is compared
            return exc


def agrees(fn, may_refuse=True) -> bool:
    """ember answers as pandas does, raises pandas' exception type, or (``may_refuse``) raises
    NotImplementedError; returns whether ember answered."""
    p = _run(fn, pd, lambda x: x)
    e = _run(fn, em, em.from_pandas)
    if isinstance(e, NotImplementedError) and may_refuse and not isinstance(p, NotImplementedError):
        return False
    if _pandas30_object_extremes(p):
        return True
    if isinstance(p, Exception):
        assert isinstance(e, type(p)) or isinstance(p, type(e)), (p, e)
        return True
    if isinstance(e, Exception):
        raise e
    assert_eq(e, p, check_index_type=True)
    return True


def _pandas30_object_extremes(p) -> bool:
    """pandas 3.0 raises for a frame's min / max of object strings beside missing values (it compares
    them with None); ember answers as pandas 3.1."""
    text = str(p)
    return (
        not PANDAS_31
        and isinstance(p, TypeError)
        and "dtype->object" in text
        and ("how->min" in text or "how->max" in text)
    )


def refused(fn):
    p = _run(fn, pd, lambda x: x)
    assert not isinstance(p, Exception), p
    assert isinstance(_run(fn, em, em.from_pandas), NotImplementedError)


# --- the shrunk inputs ----------------------------------------------------------------------------


def test_all_as_index_false_without_value_columns_infers_str_axis():
    s = pd.Series([], dtype="datetime64[s]", index=pd.DatetimeIndex([], dtype="datetime64[ns]", name="idx"))

    def fn(lib, w):
        r = w(s).reset_index().set_index(0)
        return r.groupby("idx", sort=False, as_index=False, observed=True).all()

    assert agrees(fn, may_refuse=False)


def test_idxmax_unobserved_categories_without_value_columns():
    df = pd.DataFrame(
        {
            "c": pd.Series(["2020-01-01 00:00:00.500000+00:00"], dtype="datetime64[ms, UTC]"),
            "b": pd.Categorical(["日本"], categories=["a", "b", "ç", "日本", ""]),
        }
    ).set_axis(pd.RangeIndex(4, 5, 1, name="idx"))
    for as_index in (True, False):
        for op in ("idxmax", "idxmin"):
            assert agrees(
                lambda lib, w: getattr(w(df).groupby(["b", "c"], as_index=as_index, observed=False), op)(),
                may_refuse=False,
            )


def test_idxmax_unobserved_categories_with_values_raises():
    df = pd.DataFrame({"k": pd.Categorical(["a"], categories=["a", "b"]), "v": [1.0]})
    for as_index in (True, False):
        agrees(lambda lib, w: w(df).groupby("k", as_index=as_index, observed=False).idxmax(), False)


def test_series_max_of_object_strings_infers_str_from_the_whole_column():
    df = pd.DataFrame(
        {
            "b": pd.Series([0.001, 0.0], dtype="Float64"),
            "a": pd.Series(["ab", None], dtype="object"),
            "c": pd.Series([None, 10], dtype="Int64"),
        }
    )
    fn = lambda lib, w: w(df).groupby(["c", "b"], sort=False, observed=True)["a"].max()  # noqa: E731
    assert agrees(fn, may_refuse=False)


def test_series_transform_min_of_object_strings_infers_str():
    df = pd.DataFrame(
        {
            "c": pd.Series(["ç"], dtype="object"),
            "e": pd.Series(["2020-01-01 00:00:07"], dtype="datetime64[ns]"),
            "b": pd.Series([None], dtype="string"),
        }
    ).set_axis(pd.RangeIndex(15, 16, 1))
    fn = lambda lib, w: w(df).groupby(["e", "b"], sort=False)["c"].transform("min")  # noqa: E731
    assert agrees(fn, may_refuse=False)


def test_sum_of_one_uint8_block_half_fitting_is_refused():
    df = pd.DataFrame(
        {
            "c": pd.Series([None, None], dtype="Int32"),
            "d": pd.Series([2, 10], dtype="uint8"),
            "b": pd.Series([np.nan, np.nan], dtype="float32"),
            "a": pd.Series([255, 2], dtype="uint8"),
        }
    ).set_axis(pd.RangeIndex(12, 16, 2))
    refused(lambda lib, w: w(df).groupby(["b", "c"], dropna=False, observed=False).sum())


def test_transform_first_of_object_none_beside_dropped_keys_is_refused():
    o1 = pd.DataFrame(
        {
            "c": pd.Series([None, -1], dtype="Int64"),
            "e": pd.Series([None, None], dtype="object"),
            "b": pd.Series([None, None], dtype="datetime64[s]"),
            "a": pd.Series([2, 3], dtype="int8"),
        }
    )
    refused(lambda lib, w: w(o1).groupby(["a", "c"], observed=False).transform("first"))


# --- the families ---------------------------------------------------------------------------------


@pytest.mark.parametrize("labels", [["k", "v"], ["k", "v", "w"]])
@pytest.mark.parametrize("axis_dtype", [object, "str"])
@pytest.mark.parametrize("op", ["all", "any", "sum", "max", "first", "count", "mean", "nunique"])
def test_as_index_false_column_axis(op, axis_dtype, labels):
    df = pd.DataFrame({n: [1, 1, 2] for n in labels})
    df.columns = pd.Index(labels, dtype=axis_dtype)
    keys = labels[:-1] if len(labels) > 2 else labels[:1]
    for frame in (df, df[keys]):  # with and without value columns
        assert agrees(lambda lib, w: getattr(w(frame).groupby(keys, as_index=False), op)(), False)
        assert agrees(lambda lib, w: getattr(w(frame.iloc[:0]).groupby(keys, as_index=False), op)(), False)


def test_as_index_false_index_level_key_on_object_axis():
    df = pd.DataFrame({"v": [1, 2, 3]}, index=pd.Index([1, 1, 2], name="i"))
    df.columns = pd.Index(["v"], dtype=object)
    assert agrees(lambda lib, w: w(df).groupby(level="i", as_index=False).sum(), False)
    assert agrees(lambda lib, w: w(df[[]]).groupby(level="i", as_index=False).sum(), False)


_OBJECT_VALUES = [
    ["ab", None, "c", None, None],
    [None, None, None, "x", None],
    ["ab", np.nan, None, None, None],
    [None, None, None, None, None],
]


@pytest.mark.parametrize("values", _OBJECT_VALUES)
@pytest.mark.parametrize("op", ["min", "max", "first", "last", "median", "var", "prod", "count"])
def test_series_object_strings_str_inference(values, op):
    keys = pd.Series([np.nan, 1, 1, 2, np.nan])
    df = pd.DataFrame({"k": keys})
    df["v"] = pd.Series(values, dtype=object)
    for dropna in (True, False):
        for how in ("agg", "transform"):
            for as_index in (True, False):
                if how == "transform" and not as_index:
                    continue

                def fn(lib, w):
                    g = w(df).groupby("k", dropna=dropna, as_index=as_index)["v"]
                    return g.transform(op) if how == "transform" else getattr(g, op)()

                agrees(fn)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32"])
@pytest.mark.parametrize("op", ["sum", "prod", "cumsum", "cumprod", "transform_sum"])
def test_integer_block_narrowing(dtype, op):
    big = np.iinfo(dtype).max
    cases = {"both fit": ([1, 2], [3, 1]), "neither": ([big, 2], [big, 3]), "one": ([1, 2], [big, 2])}
    for name, (d, a) in cases.items():
        for keys in ([1, 1], [np.nan, np.nan]):
            df = pd.DataFrame({"d": pd.Series(d, dtype=dtype), "a": pd.Series(a, dtype=dtype), "k": keys})

            def fn(lib, w):
                g = w(df).groupby("k", dropna=False)
                return g.transform("sum") if op == "transform_sum" else getattr(g, op)()

            answered = agrees(fn)
            assert answered or name == "one", (name, keys)
            # one column at a time pandas narrows each on its own: ember answers
            assert agrees(lambda lib, w: getattr(w(df[["k", "a"]]).groupby("k"), op.split("_")[-1])(), False)


@pytest.mark.parametrize("values", _OBJECT_VALUES)
@pytest.mark.parametrize("op", ["first", "last", "min", "max"])
def test_object_transform_beside_dropped_keys(values, op):
    df = pd.DataFrame({"k": [np.nan, 1, 1, 2, 3]})
    df["v"] = pd.Series(values, dtype=object)
    agrees(lambda lib, w: w(df).groupby("k").transform(op))
    agrees(lambda lib, w: w(df).groupby("k")["v"].transform(op))
    assert agrees(lambda lib, w: w(df).groupby("k", dropna=False).transform(op), False)


def _values(dtype):
    data = {
        "int8": ([1, -2, 3, 4, -5], "int8"),
        "int16": ([1, -2, 3, 4, -5], "int16"),
        "int32": ([1, -2, 3, 4, -5], "int32"),
        "int64": ([1, -2, 3, 4, -5], "int64"),
        "uint8": ([1, 2, 250, 4, 5], "uint8"),
        "uint16": ([1, 2, 3, 4, 5], "uint16"),
        "uint32": ([1, 2, 3, 4, 5], "uint32"),
        "uint64": ([1, 2, 3, 4, 5], "uint64"),
        "float32": ([1.5, np.nan, 3.0, 4.0, -1.0], "float32"),
        "bool": ([True, False, True, True, False], "bool"),
        "Int64": ([1, None, 3, 4, None], "Int64"),
        "Float64": ([1.5, None, 3.0, 4.0, None], "Float64"),
        "boolean": ([True, None, False, True, None], "boolean"),
        "str": (["b", None, "a", "c", None], "str"),
        "object": (["b", None, "a", "c", None], object),
        "datetime": (["2020-01-02", None, "2020-01-01", "2021-01-01", None], "datetime64[ns]"),
        "timedelta": ([1, None, 3, 2, None], "timedelta64[ns]"),
        "category": (["b", None, "a", "b", None], pd.CategoricalDtype(["a", "b", "z"])),
    }
    values, dt = data[dtype]
    if dtype == "timedelta":
        return pd.to_timedelta(pd.Series(values, dtype="float64"), unit="s").astype(dt)
    return pd.Series(values, dtype=dt)


_KEYS = {
    "float": pd.Series([1.0, 1.0, np.nan, 2.0, 2.0]),
    "Int64": pd.Series([1, 1, None, 2, 2], dtype="Int64"),
    "category": pd.Series(pd.Categorical(["a", "a", None, "b", "b"], categories=["a", "b", "z"])),
}
_OPS = ["sum", "min", "max", "all", "any", "first", "mean", "idxmax", "transform_first", "transform_min"]


def _apply(g, op):
    if op.startswith("transform_"):
        return g.transform(op.split("_")[1])
    return getattr(g, op)()


_DTYPES = [
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "bool",
    "Int64", "Float64", "boolean", "str", "object", "datetime", "timedelta", "category",
]  # fmt: skip


@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("op", _OPS)
def test_grid_against_pandas(dtype, op):
    values = _values(dtype)
    answered = 0
    for key_name, key in _KEYS.items():
        df = pd.DataFrame({"k": key})
        df["v"] = values
        for dropna in (True, False):
            for observed in (True, False) if key_name == "category" else (True,):
                for as_index in (True, False):
                    if op.startswith("transform") and not as_index:
                        continue
                    for series in (False, True):

                        def fn(lib, w):
                            g = w(df).groupby("k", dropna=dropna, observed=observed, as_index=as_index)
                            return _apply(g["v"] if series else g, op)

                        answered += agrees(fn)
    assert answered or (op == "sum" and dtype in ("str", "object"))  # string sums: refused

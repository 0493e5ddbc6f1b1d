"""groupby regressions the differential fuzzer found: the groups' keys of object columns (empty, all
missing), size of 'string' data, object columns of True / False with missing values, transform when
every key is missing, and as_index=False's key columns and column axis names. Each case compares ember
with pandas' own answer, or checks that ember raises pandas' exception type (or NotImplementedError
where ember refuses what pandas answers)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _run(fn, lib, wrap):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(lib, wrap)
        except Exception as exc:  # noqa: BLE001 - the type is compared
            return exc


def same(fn):
    """ember answers exactly as pandas does; ``fn(lib, wrap)`` builds its inputs through ``wrap``."""
    p = _run(fn, pd, lambda x: x)
    e = _run(fn, em, em.from_pandas)
    assert not isinstance(p, Exception), p
    if isinstance(e, Exception):
        raise e
    assert_eq(e, p, check_index_type=True)


def raises_like(fn, or_refused=False):
    """pandas raises, and ember raises the same exception type (or its base; or NotImplementedError)."""
    p = _run(fn, pd, lambda x: x)
    e = _run(fn, em, em.from_pandas)
    assert isinstance(p, Exception), p
    related = isinstance(e, type(p)) or isinstance(p, type(e))  # pandas' ArrowIndexError: an IndexError
    assert related or (or_refused and isinstance(e, NotImplementedError)), (p, e)


def refused(fn):
    """pandas answers something ember does not give: ember raises NotImplementedError."""
    p = _run(fn, pd, lambda x: x)
    assert not isinstance(p, Exception), p
    assert isinstance(_run(fn, em, em.from_pandas), NotImplementedError)


# --- the groups' keys of an object column --------------------------------------------------------------

_OBJ_KEYS = {
    "empty": [],
    "strings": ["a", "b", "a"],
    "one-missing": [None],
    "all-missing": [None, np.nan, None],
    "some-missing": ["a", None, "b"],
}


@pytest.mark.parametrize("op", ["sum", "size", "first", "nunique", "all", "idxmax", "mean"])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("values", list(_OBJ_KEYS))
def test_object_key_index_dtype(values, dropna, op):
    keys = _OBJ_KEYS[values]
    df = pd.DataFrame({"k": pd.Series(keys, dtype=object), "x": np.arange(len(keys), dtype=float)})
    same(lambda lib, w: getattr(w(df).groupby("k", dropna=dropna), op)())
    same(lambda lib, w: getattr(w(df).groupby(["k", "x"], dropna=dropna), op)())
    if op != "idxmax":
        same(lambda lib, w: getattr(w(df).groupby("k", dropna=dropna, as_index=False), op)())


def test_object_key_filtered_to_no_rows_stays_object():
    df = pd.DataFrame({"d": pd.Series(["a", "b"], dtype=object), "c": [True, False]})
    same(lambda lib, w: w(df)[w(df)["d"] < "A"].groupby(["d", "c"], as_index=False).agg("prod"))
    same(lambda lib, w: w(df)[w(df)["d"] < ""].groupby(["d"], as_index=False).nunique())


def test_empty_masked_column_as_object_key():
    df = pd.DataFrame({"d": pd.Series([], dtype="UInt8"), "x": pd.Series([], dtype="float64")})
    same(lambda lib, w: w(df).astype({"d": "object"}).groupby(["d"], dropna=False, observed=True).agg("mean"))


def test_series_grouped_by_its_empty_object_self():
    s = pd.Series([], dtype="object", index=pd.RangeIndex(10, 10, 3))
    same(lambda lib, w: w(s).groupby(w(s), sort=True).max())


# --- size of masked data -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["string", "str", "Int64", "boolean", "float64"])
@pytest.mark.parametrize("empty_key", [False, True])
def test_series_size_dtype(dtype, empty_key):
    s = pd.Series(["a", None, "b"] if "str" in dtype else [1, None, 0], dtype=dtype)
    key = pd.Series([], dtype="float64") if empty_key else pd.Series([1, 1, 2])
    same(lambda lib, w: w(s).groupby(w(key)).size())
    same(lambda lib, w: w(s.to_frame("v")).groupby(w(key)).size())


# --- an object column of True / False and missing values ----------------------------------------------

_OBJ_BOOLS = {"mixed": [True, None, False, True], "missing": [None, None, None, None]}


def _object_bools(lib, w, kind):
    s = w(pd.Series([True, False, False, True]))
    return s.mask(w(pd.Series([v is None for v in _OBJ_BOOLS[kind]])))


@pytest.mark.parametrize(
    "op", ["min", "max", "first", "last", "count", "nunique", "any", "all", "std", "sem"]
)
@pytest.mark.parametrize("kind", list(_OBJ_BOOLS))
def test_object_bools_answered(kind, op):
    same(lambda lib, w: getattr(_object_bools(lib, w, kind).groupby([1, 1, 2, 2]), op)())
    same(lambda lib, w: getattr(_object_bools(lib, w, kind).to_frame("v").groupby([1, 1, 2, 2]), op)())


@pytest.mark.parametrize("op", ["sum", "prod", "mean", "median", "var"])
def test_object_bools_python_object_results_refused(op):
    refused(lambda lib, w: getattr(_object_bools(lib, w, "mixed").groupby([1, 1, 2, 2]), op)())


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax", "quantile"])
@pytest.mark.parametrize("frame", [False, True])
def test_object_bools_pandas_refuses(op, frame):
    def fn(lib, w):
        s = _object_bools(lib, w, "mixed")
        return getattr((s.to_frame("v") if frame else s).groupby([1, 1, 2, 2]), op)()

    raises_like(fn, or_refused=op != "quantile")


def test_object_bools_from_masking_then_max_by_dates():
    df = pd.DataFrame(
        {"a": pd.Series([None], dtype="timedelta64[s]"), "b": pd.Series([None], dtype="timedelta64[ns]")}
    ).set_axis(pd.RangeIndex(5, 6, 1))
    o1 = pd.Series(["2020-01-01 00:00:01"], dtype="datetime64[s]", index=pd.RangeIndex(5, 6, 1))

    def fn(lib, w):
        d = w(df)
        r = d["b"] == d["a"]
        return r.mask(r != "a").groupby(w(o1), dropna=True).max()

    same(fn)


def test_object_bools_cumsum_after_outer_merge():
    df = pd.DataFrame({"e": pd.Series([], dtype="bool")})
    o1 = pd.DataFrame({"a": [True], "b": [7.0], "p_e_k": [False]}).set_axis(pd.Index([1]))

    def fn(lib, w):
        r = w(df).add_prefix("p_").merge(w(o1), how="outer", left_on=["p_e"], right_on=["p_e_k"], sort=True)
        return r.groupby(["b", "p_e_k"], sort=True)[["p_e", "a"]].cumsum()

    raises_like(fn)


# --- transform when every key is missing ---------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["object", "float64", "Int64"])
@pytest.mark.parametrize("op", ["first", "sum", "count"])
@pytest.mark.parametrize("extra", [False, True])
def test_frame_transform_with_no_groups(dtype, op, extra):
    d = {"d": pd.Series([None, None], dtype=dtype)}
    if extra:
        d["x"] = [1, 2]
    raises_like(lambda lib, w: w(pd.DataFrame(d)).groupby(["d"]).transform(op))


@pytest.mark.parametrize("op", ["first", "sum", "cumsum"])
def test_frame_transform_with_no_groups_string_key(op):
    df = pd.DataFrame({"d": pd.Series([None], dtype="string"), "x": [1.0]})
    p = _run(lambda lib, w: w(df).groupby(["d"]).transform(op), pd, lambda x: x)
    if isinstance(p, Exception):  # pandas' ArrowIndexError is an IndexError
        raises_like(lambda lib, w: w(df).groupby(["d"]).transform(op))
    else:
        same(lambda lib, w: w(df).groupby(["d"]).transform(op))


def test_series_transform_with_no_groups():
    same(lambda lib, w: w(pd.Series([1, 2])).groupby([np.nan, np.nan]).transform("sum"))


# --- as_index=False: the keys' columns and the column axis' names ----------------------------------------

_DF = pd.DataFrame({"a": [1, 2, 1], "b": [3.0, 4.0, 5.0]}, index=pd.Index([5, 5, 6], name="i"))
_DF.columns.name = "C"
_K = pd.Series([1, 1, 2], index=[5, 5, 6])


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, w: w(_DF).groupby(w(_K), as_index=False).sum(),
        lambda lib, w: w(_DF).groupby(w(_K.rename("a")), as_index=False).sum(),
        lambda lib, w: w(_DF).groupby(w(_K.rename("k")), as_index=False).sum(),
        lambda lib, w: w(_DF).groupby([w(_K), "a"], as_index=False).sum(),
        lambda lib, w: w(_DF).groupby(np.array([1, 1, 2]), as_index=False).sum(),
        lambda lib, w: w(_DF).groupby([1, 1, 2], as_index=False).mean(),
        lambda lib, w: w(_DF).groupby(level=0, as_index=False).sum(),
        lambda lib, w: w(_DF).groupby("i", as_index=False).sum(),
        lambda lib, w: w(_DF).groupby(w(_K), as_index=False).size(),
        lambda lib, w: w(_DF).groupby("a", as_index=False).size(),
        lambda lib, w: w(_DF).groupby(w(_K), as_index=False).agg(["sum"]),
        lambda lib, w: w(_DF).groupby(w(_K.rename("a")), as_index=False).agg(["sum"]),
        lambda lib, w: w(_DF).groupby("a", as_index=False).agg(["sum", "max"]),
        lambda lib, w: w(_DF).groupby("a", as_index=False).agg({"b": "sum"}),
        lambda lib, w: w(_DF).groupby("a", as_index=False).agg({"b": ["sum"]}),
        lambda lib, w: w(_DF).groupby(w(_K), as_index=False).agg(x=("a", "sum")),
        lambda lib, w: w(_DF).groupby(w(_K), as_index=False).quantile(),
        lambda lib, w: w(_DF).groupby(w(_K), as_index=False)["a"].sum(),
        lambda lib, w: w(_DF).groupby("a", as_index=False)["b"].agg(["sum", "max"]),
        lambda lib, w: w(_DF).groupby("a", as_index=False).nunique(),
        lambda lib, w: w(_DF).groupby("a", as_index=False).first(),
        lambda lib, w: w(_DF).groupby("a", as_index=False).idxmax(),
        lambda lib, w: w(_DF).groupby(w(_K), as_index=False).count(),
        lambda lib, w: w(_DF).groupby("a", as_index=False).describe(),
    ],
)
def test_as_index_false_key_columns_and_axis_names(fn):
    same(fn)


def test_series_groupby_as_index_false_raises():
    raises_like(lambda lib, w: w(_DF["a"]).groupby(w(_K), as_index=False).sum())


# --- more: each key's own values set its level's dtype; None from first / last; cumulative of strings


def test_level_dtype_from_each_keys_own_values():
    df = pd.DataFrame(
        {
            "c": pd.Series([None], dtype="boolean"),
            "b": pd.Series([None], dtype="datetime64[s]"),
            "e": pd.Series(["B"], dtype="object"),
        }
    )
    same(lambda lib, w: w(df).groupby(["c", "e"], sort=True, dropna=True, observed=False)["b"].count())


@pytest.mark.parametrize("op", ["first", "last"])
def test_first_last_of_object_group_without_value_is_none(op):
    df = pd.DataFrame(
        {"d": pd.Series([None, "a"], dtype="object"), "e": pd.Series(["x", "y"], dtype="object")}
    )
    same(lambda lib, w: getattr(w(df).groupby("e", sort=False, as_index=False)[["d"]], op)())
    same(lambda lib, w: w(df).groupby("e").agg(op))


@pytest.mark.parametrize("dtype", ["str", "object", "string"])
@pytest.mark.parametrize("op", ["cummax", "cummin", "cumsum", "cumprod"])
def test_cumulative_of_strings_raises_as_pandas(dtype, op):
    df = pd.DataFrame({"k": [1, 1], "e": pd.Series(["a", "b"], dtype=dtype)})
    raises_like(lambda lib, w: getattr(w(df).groupby("k"), op)(), or_refused=True)
    raises_like(lambda lib, w: getattr(w(df).groupby("k")["e"], op)(), or_refused=True)

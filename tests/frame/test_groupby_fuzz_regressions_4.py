"""groupby regressions the differential fuzzer found: mean / median / var / std / sem / skew / prod of
object columns (only missing values, strings, no group at all), a Series' running ops of object and
string data, cumsum / cumprod of integers when keys are dropped, sums of lists, idxmin / idxmax
through transform, and the levels of a result without groups. Each case compares ember with pandas'
own answer, or checks that ember raises pandas' exception type (or NotImplementedError where ember
refuses what pandas answers)."""

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
    """pandas raises, and ember raises the same exception type (or NotImplementedError if allowed)."""
    p = _run(fn, pd, lambda x: x)
    e = _run(fn, em, em.from_pandas)
    assert isinstance(p, Exception), p
    related = isinstance(e, type(p)) or isinstance(p, type(e))
    assert related or (or_refused and isinstance(e, NotImplementedError)), (p, e)


def refused(fn):
    """pandas answers something ember does not give: ember raises NotImplementedError."""
    p = _run(fn, pd, lambda x: x)
    assert not isinstance(p, Exception), p
    assert isinstance(_run(fn, em, em.from_pandas), NotImplementedError)


def _frame(keys, values, dtype=object):
    df = pd.DataFrame({"k": keys})
    df["v"] = pd.Series(values, dtype=dtype)  # (the constructor would infer 'str' from object strings)
    df["w"] = df["v"]
    return df


_STATS = ["mean", "median", "var", "std", "sem", "skew"]
_OBJECT_VALUES = {
    "none": [None, None, None, None],
    "nan": [np.nan, None, np.nan, None],
    "strings": ["a", None, "b", "c"],
    "string-in-dropped-row": [None, None, None, "a"],
}
_KEYS = {
    "groups": [1, 2, 1, np.nan],
    "no-groups": [np.nan] * 4,
}


# --- object columns: pandas' Python fallback -----------------------------------------------------------


@pytest.mark.parametrize("op", _STATS + ["prod"])
@pytest.mark.parametrize("keys", list(_KEYS))
@pytest.mark.parametrize("values", list(_OBJECT_VALUES))
def test_object_stats(values, keys, op):
    df = _frame(_KEYS[keys], _OBJECT_VALUES[values])
    for pick in (lambda g: g["v"], lambda g: g[["v"]], lambda g: g[["v", "w"]]):
        p = _run(lambda lib, w, pick=pick: getattr(pick(w(df).groupby("k")), op)(), pd, lambda x: x)
        if isinstance(p, Exception):
            raises_like(lambda lib, w, pick=pick: getattr(pick(w(df).groupby("k")), op)(), or_refused=True)
        elif op == "prod" and (values in ("none", "nan") or isinstance(p, pd.DataFrame)) and len(p):
            refused(lambda lib, w, pick=pick: getattr(pick(w(df).groupby("k")), op)())  # pandas' 1 / a string
        else:
            same(lambda lib, w, pick=pick: getattr(pick(w(df).groupby("k")), op)())


@pytest.mark.parametrize("op", ["mean", "median", "var", "std"])
def test_object_stats_through_agg(op):
    df = _frame([1, 2, 1, 2], [None, None, np.nan, None])
    same(lambda lib, w: w(df).groupby("k")["v"].agg(op))
    same(lambda lib, w: w(df).groupby("k").agg(op))
    same(lambda lib, w: w(df).groupby("k", as_index=False)[["v"]].agg(op))


@pytest.mark.parametrize("op", _STATS)
def test_object_stats_without_rows(op):
    df = _frame([], [])
    same(lambda lib, w: getattr(w(df).groupby("k")["v"], op)())
    same(lambda lib, w: getattr(w(df).groupby("k"), op)())


def test_object_stats_fuzz_repros():
    df = pd.DataFrame({"c": pd.Series([None], dtype="object"), "e": pd.Series([10], dtype="int8")})
    same(lambda lib, w: w(df).groupby(["e"], dropna=True, observed=True)["c"].mean())
    df = pd.DataFrame(
        {
            "c": pd.Series([0.5], dtype="float32"),
            "e": pd.Series([None], dtype="object"),
            "b": pd.Series(["ç"], dtype="object"),
        }
    )
    same(lambda lib, w: w(df).groupby(["b", "c"], sort=True, dropna=False)[["e"]].median())
    df = pd.DataFrame(
        {
            "e": pd.Series([None], dtype="object"),
            "c": pd.Series([False], dtype="boolean"),
            "a": pd.Series([True], dtype="boolean"),
        }
    )
    same(lambda lib, w: w(df).groupby(["c", "a"], sort=False)["e"].std())
    df = pd.DataFrame(
        {
            "b": pd.Series([-7], dtype="Int32"),
            "e": pd.Series(["AB"], dtype="object"),
            "c": pd.Series([None], dtype="datetime64[us]"),
        }
    )
    same(lambda lib, w: w(df).groupby(["b", "c"], observed=True).mean())
    df = pd.DataFrame(
        {
            "c": pd.Series([None], dtype="datetime64[ms, UTC]"),
            "a": pd.Series([None], dtype="datetime64[s]"),
            "e": pd.Series(["a"], dtype="object"),
            "b": pd.Series([False], dtype="boolean"),
        }
    )
    same(lambda lib, w: w(df).groupby(["a", "b"], sort=True, observed=False)[["c", "e"]].agg("mean"))
    s = pd.Series([None], dtype="object", name="s")
    same(lambda lib, w: w(s).groupby(w(s), sort=False).median())
    s = pd.Series([None], dtype="object", index=pd.RangeIndex(1, 2, 1))
    same(lambda lib, w: w(s).groupby(w(pd.Series([], dtype="str", name="s"))).mean())


@pytest.mark.parametrize("dtype", ["str", "string"])
@pytest.mark.parametrize("op", _STATS + ["prod"])
def test_string_stats_raise(dtype, op):
    df = _frame([1, 2, 1, np.nan], ["a", None, "b", "c"], dtype)
    raises_like(lambda lib, w: getattr(w(df).groupby("k")["v"], op)())
    raises_like(lambda lib, w: getattr(w(df).groupby("k")[["v"]], op)())


# --- a Series' running ops of object and string data ---------------------------------------------------


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax"])
@pytest.mark.parametrize("dtype", [object, "str", "string"])
def test_series_scans_of_strings_raise(dtype, op):
    df = _frame([1, 1, 2, 2], ["a", None, "b", "c"], dtype)
    raises_like(lambda lib, w: getattr(w(df).groupby("k")["v"], op)())
    raises_like(lambda lib, w: w(df).groupby("k")["v"].transform(op))
    raises_like(lambda lib, w: getattr(w(df).groupby("k")[["v"]], op)(), or_refused=True)


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax"])
def test_series_scans_of_object_bools_and_missing_raise(op):
    for values in ([True, None, False, True], [None, None, None, None]):
        df = _frame([1, 1, 2, 2], values)
        raises_like(lambda lib, w, df=df: getattr(w(df).groupby("k")["v"], op)())


# --- cumsum / cumprod when keys are dropped ------------------------------------------------------------


def test_cumsum_int64_min_beside_a_dropped_key():
    s = pd.Series(
        [5, -1, 10, 3, 3, -(2**63), 5, 0, -1, 5, -(2**63), -1, -7, 5, -7, 100],
        dtype="int64",
        index=pd.Index(
            [16.0, 12.0, 15.5, 4.0, 8.0, 5.5, 7.5, 5.0, 6.0, 4.5, 12.0, 6.5, 15.5, 9.0, 16.0, 7.0]
        ),
        name="a",
    )
    key = pd.Series([-0.0], dtype="float64", index=pd.Index([12.0]))
    same(lambda lib, w: w(s).groupby(w(key), sort=False).cumsum())


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ["int64", "uint64", "int8", "bool", "float32", "Int64", "boolean"])
@pytest.mark.parametrize("dropped", [True, False])
def test_scans_of_integers_in_float_when_keys_drop(dtype, op, dropped):
    big = {"int64": 2**62, "uint64": 2**62, "Int64": 2**53 + 1}.get(dtype, 100)
    values = {"boolean": [True, True, None, False, True], "bool": [True, True, True, False, True]}
    s = pd.Series(values.get(dtype, [big, 5, big, 1, big]), dtype=dtype)
    k = pd.Series([1.0, np.nan if dropped else 2.0, 1.0, 1.0, 1.0])
    same(lambda lib, w: getattr(w(s).groupby(w(k)), op)())


def test_cumsum_keeps_precision_of_int64_without_dropped_keys():
    s = pd.Series([2**53 + 1, 1, 1], dtype="int64")
    same(lambda lib, w: w(s).groupby(w(pd.Series([1, 1, 1]))).cumsum())
    same(lambda lib, w: w(s).groupby(w(pd.Series([1.0, np.nan, 1.0]))).cumsum())


# --- sums of lists -------------------------------------------------------------------------------------


def _lists(dtype=object):
    return pd.Series(["a b", None, "c", "d e", "f", "g h i"], dtype=dtype).str.split()


def test_list_sum_fuzz_repro():
    cats = ["a", "b", "ç", "日本", ""]
    idx = pd.Index(["a", "a", "a", "a", "a", "ab", "ab", "b", "b", "B"], dtype="str")
    s = pd.Series(
        pd.Categorical(["", "a", None, "ç", "ç", "ç", "ç", "b", "b", "ç"], categories=cats),
        index=idx,
        name="a",
    )
    k = pd.Series(
        pd.Categorical(["b", "a", "", "ç", "ç", "a", "ç", "b", "", "ç"], categories=cats), index=idx, name="s"
    )
    same(lambda lib, w: w(s).astype("str").str.split("b").groupby(w(k)).sum())


@pytest.mark.parametrize("dtype", [object, "str", "string"])
@pytest.mark.parametrize("op", ["sum", "count", "size", "first", "last"])
def test_list_aggregations(dtype, op):
    k = pd.Series([1, 1, 2, 1, np.nan, 2.0])
    same(lambda lib, w: getattr(w(_lists(dtype)).groupby(w(k)), op)())
    df = pd.DataFrame({"k": k, "v": _lists(dtype)})
    same(lambda lib, w: getattr(w(df).groupby("k"), op)())
    same(lambda lib, w: w(df).groupby("k")["v"].transform(op))


def test_list_sum_min_count_and_empty_groups():
    s = pd.Series(["a b", None, None], dtype="str").str.split()
    k = pd.Series([1, 2, 2])
    same(lambda lib, w: w(s).groupby(w(k)).sum(min_count=1))
    same(lambda lib, w: w(_lists()).groupby(w(pd.Series([1, 1, 2, 1, 3, 2]))).sum(min_count=2))
    refused(lambda lib, w: w(s).groupby(w(k)).sum())  # pandas: the integer 0
    same(lambda lib, w: w(_lists()).groupby(w(pd.Series([np.nan] * 6))).sum())
    refused(lambda lib, w: w(_lists().iloc[:0]).groupby(w(pd.Series([], dtype=float))).sum())


@pytest.mark.parametrize("op", ["mean", "median", "var", "std", "sem", "skew", "prod", "nunique", "quantile"])
def test_list_arithmetic_raises(op):
    raises_like(lambda lib, w: w(_lists()).groupby(w(pd.Series([1, 1, 2, 1, 3, 2]))).agg(op))


@pytest.mark.parametrize("op", ["min", "max", "any", "all", "idxmax"])
def test_list_comparisons_refused(op):
    refused(lambda lib, w: w(_lists()).groupby(w(pd.Series([1, 1, 2, 1, 3, 2]))).agg(op))


# --- idxmin / idxmax ------------------------------------------------------------------------------------

_IDX_VALUES = {
    "float-all-missing-group": pd.Series([1.0, np.nan, 2.0, np.nan]),
    "Int64": pd.Series([1, None, 2, None], dtype="Int64"),
    "float": pd.Series([1.0, 3.0, 2.0, 5.0]),
    "str": pd.Series(["a", None, "b", None], dtype="str"),
    "datetime": pd.Series(pd.to_datetime(["2020-01-01", None, "2020-01-02", None])),
    "bool": pd.Series([True, False, True, True]),
}


@pytest.mark.parametrize("keys", [[1, 2, 1, 2], [1.0, np.nan, 1.0, 2.0], [1, 1, 1, 1]])
@pytest.mark.parametrize("op", ["idxmax", "idxmin"])
@pytest.mark.parametrize("values", list(_IDX_VALUES))
def test_idx_extremes_and_their_transform(values, op, keys):
    df = pd.DataFrame({"k": keys, "v": _IDX_VALUES[values]}, index=pd.Index(list("abcd"), dtype="str"))
    for fn in (
        lambda lib, w: getattr(w(df).groupby("k")["v"], op)(),
        lambda lib, w: w(df).groupby("k")["v"].agg(op),
        lambda lib, w: w(df).groupby("k").agg({"v": op}),
        lambda lib, w: w(df).groupby("k")["v"].transform(op),
        lambda lib, w: w(df).groupby("k").transform(op),
    ):
        if isinstance(_run(fn, pd, lambda x: x), Exception):
            raises_like(fn)
        else:
            same(fn)


# --- the levels of a result without groups -------------------------------------------------------------


@pytest.mark.parametrize("as_index", [True, False])
@pytest.mark.parametrize("keys", [["k", "j"], ["j", "k"]])
def test_object_bool_key_level_without_groups(keys, as_index):
    df = pd.DataFrame({"k": [np.nan, np.nan], "v": [1.0, 2.0]})
    df["j"] = pd.Series([False, None], dtype=object)
    for op in ("min", "size", "count", "sum"):
        same(lambda lib, w, op=op: getattr(w(df).groupby(keys, as_index=as_index), op)())
    df["j"] = pd.Series([None, None], dtype=object)
    same(lambda lib, w: w(df).groupby(keys, as_index=as_index).min())


def test_agg_min_level_fuzz_repro():
    df = pd.DataFrame({"e": [False], "b": [False]}).set_axis(pd.RangeIndex(5, 6, 1))
    o1 = pd.DataFrame(
        {
            "c2": pd.Series([None], dtype="object"),
            "e2": pd.Series(["2020-01-01"], dtype="datetime64[ns]"),
            "d": [False],
        }
    ).set_axis(pd.Index([0.5], name="idx"))
    o2 = pd.DataFrame(
        {
            "b": pd.Series([], dtype="str"),
            "e": pd.Series([], dtype="float32"),
            3: pd.Series([], dtype="datetime64[ns]"),
        }
    )

    def chain(lib, w):
        r = lib.concat([w(df), w(o1)], axis=1, ignore_index=True, sort=False)
        r = r.merge(w(o2), how="left_anti", on=3)
        return r.groupby(["e", 1], sort=True).agg("min")

    same(chain)


@pytest.mark.parametrize("codes", [["x", "x", "x", "x"], ["x", "z", "x", "z"], ["x", "y", "x", "y"]])
def test_idx_extremes_with_unobserved_categories(codes):
    keys = pd.Categorical(codes, categories=["x", "y", "z"])
    df = pd.DataFrame({"v": [1.0, np.nan, 2.0, np.nan], "c": keys}, index=list("abcd"))
    for fn in (
        lambda lib, w: w(df).groupby("c", observed=False)["v"].transform("idxmin"),
        lambda lib, w: w(df).groupby("c", observed=False)[["v"]].transform("idxmax"),
        lambda lib, w: w(df).groupby("c", observed=False)["v"].idxmax(),
        lambda lib, w: w(df).groupby("c", observed=False).idxmin(),
    ):
        if isinstance(_run(fn, pd, lambda x: x), Exception):
            raises_like(fn)
        else:
            same(fn)


# --- any / all of strings, timedeltas and categoricals; cumsum of timedeltas ---------------------------

_TRUTH_VALUES = {
    "str": pd.Series(["a", "", None, "b", None, ""], dtype="str"),
    "string": pd.Series(["a", "", None, "b", None, ""], dtype="string"),
    "object": pd.Series(["a", "", None, "b", None, ""], dtype=object),
    "object-missing": pd.Series([None] * 6, dtype=object),
    "timedelta": pd.Series(pd.to_timedelta([1, 0, None, 5, None, 0], unit="s")),
    "categorical": pd.Series(pd.Categorical(["a", "", None, "b", None, ""])),
    "categorical-ints": pd.Series(pd.Categorical([0, 1, None, 1, None, 0])),
}


@pytest.mark.parametrize("op", ["any", "all"])
@pytest.mark.parametrize("values", list(_TRUTH_VALUES))
def test_any_all_by_truth(values, op):
    df = pd.DataFrame({"k": [1, 1, 1, 2, 2, 3]})
    df["v"] = _TRUTH_VALUES[values]
    same(lambda lib, w: getattr(w(df).groupby("k")["v"], op)())
    same(lambda lib, w: getattr(w(df).groupby("k"), op)())
    same(lambda lib, w: w(df).groupby("k").agg(op))
    same(lambda lib, w: getattr(w(df.iloc[:0]).groupby("k")["v"], op)())
    refused(lambda lib, w: getattr(w(df).groupby("k")["v"], op)(skipna=False))


@pytest.mark.parametrize("unit", ["ns", "s"])
@pytest.mark.parametrize("keys", [[1, 1, 2, 1], [1.0, np.nan, 1.0, 1.0]])
def test_timedelta_cumsum(keys, unit):
    for values in ([2**40 + 1, 5, 1, 1], [1, 7, -3, -4]):
        td = pd.Series(pd.to_timedelta(values, unit="ns")).astype(f"timedelta64[{unit}]")
        df = pd.DataFrame({"k": keys, "v": td})
        same(lambda lib, w, df=df: w(df).groupby("k")["v"].cumsum())
        same(lambda lib, w, df=df: w(df).groupby("k").cumsum())
        same(lambda lib, w, df=df: w(df).groupby("k")["v"].transform("cumsum"))
    td = pd.Series(pd.to_timedelta([1, None, 3, -4], unit="s"))
    same(lambda lib, w: w(td).groupby(w(pd.Series([1, 1, 2, 1]))).cumsum())


# --- as_index=False keeps the column axis' dtype -------------------------------------------------------


@pytest.mark.parametrize("op", ["sum", "min", "first", "count", "last", "size"])
@pytest.mark.parametrize("dtype", ["Float64", "float32"])
def test_as_index_false_keeps_column_axis_dtype(dtype, op):
    df = pd.DataFrame([[0.0, 1.0], [2.0, 3.0]], columns=pd.Index([-3.25, 7.5], dtype=dtype, name="e"))
    same(lambda lib, w: getattr(w(df).groupby([-3.25], as_index=False), op)())
    same(lambda lib, w: getattr(w(df).groupby(w(pd.Series([1, 1], name="k")), as_index=False), op)())


def test_as_index_false_float32_labels_fuzz_repro():
    df = pd.DataFrame(
        {
            "d": pd.Series([None], dtype="Int32"),
            "a": pd.Series([np.inf], dtype="float32"),
            "c": pd.Series([None], dtype="Int64"),
        }
    )
    same(
        lambda lib, w: (
            w(df)
            .pivot_table(values="c", index="d", columns="a", dropna=False)
            .groupby([np.inf], as_index=False, observed=True)
            .last()
        )
    )


# --- first / last of bools with empty groups -----------------------------------------------------------


@pytest.mark.parametrize("kw", [{}, {"skipna": False}, {"min_count": 1}])
@pytest.mark.parametrize("op", ["first", "last"])
@pytest.mark.parametrize("keys", [[], ["a", "a"], ["a", "b"], ["a", "b", None]])
def test_first_last_of_bools_with_unobserved_categories(keys, op, kw):
    df = pd.DataFrame(
        {
            "b": pd.Series([True, False, True][: len(keys)], dtype=bool),
            "c": pd.Categorical(keys, categories=["a", "b", "ç"]),
        }
    )
    same(lambda lib, w: getattr(w(df).groupby("c", observed=False), op)(**kw))
    same(lambda lib, w: getattr(w(df).groupby("c", observed=False)["b"], op)(**kw))


# --- skew / kurt without groups keep the values' dtype; kurt of float32 --------------------------------


@pytest.mark.parametrize("op", ["skew", "kurt"])
@pytest.mark.parametrize("dtype", ["bool", "boolean", "int8", "Int8", "uint16", "float32", "Float32"])
@pytest.mark.parametrize("keys", [[], [np.nan, np.nan], [1.0, 1.0, 2.0, 1.0, 1.0, 2.0]])
def test_moments_dtype(keys, dtype, op):
    values = pd.Series([1, 0, 1, 1, 0, 1][: len(keys)]).astype(dtype)
    df = pd.DataFrame({"k": pd.Series(keys, dtype=float), "v": values})
    same(lambda lib, w: getattr(w(df).groupby("k")["v"], op)())
    same(lambda lib, w: getattr(w(df).groupby("k"), op)())

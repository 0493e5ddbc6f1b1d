"""Index T / ndim / ravel / item, hasnans / inferred_type, argmax / argmin, value_counts, diff,
replace, set_names, get_level_values, sort_values (return_indexer, key), slice_indexer,
get_indexer_for, reindex, RangeIndex.round and MultiIndex min / max / set_names, each compared
with pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq

INDEXES = {
    "int": pd.Index([3, 1, 2, 2, 5], name="a"),
    "int_unique": pd.Index([10, 1, 100, 1000], name="a"),
    "float": pd.Index([1.5, np.nan, 0.0, 2.5], name="f"),
    "float_allnan": pd.Index([np.nan, np.nan]),
    "Int64": pd.Index([2, None, 1, 3], dtype="Int64"),
    "Float64": pd.Index([2.5, None, 1.0], dtype="Float64"),
    "boolean": pd.Index([True, None, False], dtype="boolean"),
    "bool": pd.Index([True, False, True]),
    "str": pd.Index(["b", None, "a", "c"], name="s"),
    "str_unique": pd.Index(["car", "bike", "train", "tractor"]),
    "object": pd.Index(["b", None, "a"], dtype=object),
    "object_str": pd.Index(["b", "a"], dtype=object),
    "dt": pd.DatetimeIndex(["2020-01-03", None, "2020-01-01", "2020-01-02"], name="d"),
    "td": pd.TimedeltaIndex(["1D", "3h", None]),
    "cat": pd.CategoricalIndex(["b", "a", "b", None], name="c"),
    "empty_int": pd.Index([], dtype="int64"),
    "empty_object": pd.Index([], dtype=object),
    "range": pd.RangeIndex(0, 10, 3, name="r"),
    "range_desc": pd.RangeIndex(10, 0, -2),
}


def _pair(name: str) -> tuple:
    p = INDEXES[name]
    return em.from_pandas(p), p


def _same_outcome(call, e, p) -> None:
    """The same value, or the same exception type, from ember and pandas."""
    try:
        want = call(p)
    except Exception as exc:
        with pytest.raises(type(exc)):
            call(e)
        return
    got = call(e)
    if isinstance(want, (pd.Index, pd.Series)):
        assert_eq(got, want)
    elif isinstance(want, np.ndarray):
        np.testing.assert_array_equal(np.asarray(got), want)
    elif isinstance(want, float) and np.isnan(want):
        assert np.isnan(got)
    else:
        assert got == want and type(got) is type(want) or (got == want and np.isscalar(got))


@pytest.mark.parametrize("name", list(INDEXES))
def test_array_protocol(name):
    e, p = _pair(name)
    assert_eq(e.T, p.T)
    assert e.ndim == p.ndim == 1
    assert_eq(e.ravel(), p.ravel())
    _same_outcome(lambda i: i.item(), e, p)


@pytest.mark.parametrize("value", [5, "x", pd.Timestamp("2020-01-01")])
def test_item_of_one_label(value):
    p = pd.Index([value])
    assert em.from_pandas(p).item() == p.item()


@pytest.mark.parametrize("name", list(INDEXES))
def test_hasnans_and_inferred_type(name):
    e, p = _pair(name)
    assert e.hasnans == p.hasnans
    assert e.inferred_type == p.inferred_type


@pytest.mark.parametrize("name", list(INDEXES))
@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("skipna", [True, False])
def test_argmax_argmin(name, op, skipna):
    e, p = _pair(name)
    if name == "cat":
        pytest.skip("unordered categories: pandas' TypeError, checked below")
    if name == "object" and not PANDAS_31:
        pytest.skip("pandas 3.0 compares the object labels' NaN with strings (TypeError); 3.1 skips it")
    _same_outcome(lambda i: getattr(i, op)(skipna=skipna), e, p)


def test_argmax_bad_arguments():
    e, p = _pair("int")
    for call in (lambda i: i.argmax(axis=1), lambda i: i.argmin(out=1)):
        _same_outcome(call, e, p)


@pytest.mark.parametrize("name", [n for n in INDEXES if not n.startswith("range")])
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"normalize": True}, {"dropna": False}, {"ascending": True}, {"sort": False}],
)
def test_value_counts(name, kwargs):
    e, p = _pair(name)
    _same_outcome(lambda i: i.value_counts(**kwargs), e, p)


def test_value_counts_range_and_bins():
    e, p = _pair("range")
    assert_eq(e.value_counts(), p.value_counts())
    with pytest.raises(NotImplementedError):
        e.value_counts(bins=3)


@pytest.mark.parametrize("name", ["int", "float", "Int64", "Float64", "dt", "td", "range"])
@pytest.mark.parametrize("periods", [1, -1, 2])
def test_diff(name, periods):
    e, p = _pair(name)
    assert_eq(e.diff(periods), p.diff(periods))


@pytest.mark.parametrize(
    ("name", "args"),
    [("int", (2, 20)), ("float", (np.nan, 0.5)), ("str", ("a", "z")), ("int", ([1, 3], 0))],
)
@pytest.mark.skipif(not PANDAS_31, reason="Index.replace is new in pandas 3.1")
def test_replace(name, args):
    e, p = _pair(name)
    assert_eq(e.replace(*args), p.replace(*args))


@pytest.mark.parametrize("name", ["int", "range", "str"])
def test_set_names(name):
    e, p = _pair(name)
    assert_eq(e.set_names("q"), p.set_names("q"))
    assert_eq(e.set_names(["q"]), p.set_names(["q"]))
    e2, p2 = e.copy(), p.copy()
    assert e2.set_names("z", inplace=True) is None
    p2.set_names("z", inplace=True)
    assert_eq(e2, p2)
    for call in (
        lambda i: i.set_names("q", level=0),
        lambda i: i.set_names(["a", "b"]),
        lambda i: i.set_names({"a": "b"}),
    ):
        _same_outcome(call, e, p)


def test_multiindex_set_names():
    p = pd.MultiIndex.from_product([["python", "cobra"], [2018, 2019]], names=["kind", "year"])
    e = em.from_pandas(p)
    for call in (
        lambda i: i.set_names({"kind": "snake"}),
        lambda i: i.set_names("species", level=0),
        lambda i: i.set_names(["a", "b"]),
        lambda i: i.set_names(["a"]),
        lambda i: i.set_names({"kind": "snake"}, level=0),
    ):
        _same_outcome(call, e, p)
    e.set_names(["x", "y"], inplace=True)
    assert e.names == ["x", "y"]


def test_get_level_values():
    e, p = _pair("int")
    assert_eq(e.get_level_values(0), p.get_level_values(0))
    assert_eq(e.get_level_values("a"), p.get_level_values("a"))
    for level in (1, "b"):
        _same_outcome(lambda i, level=level: i.get_level_values(level), e, p)


@pytest.mark.parametrize("name", ["int_unique", "float", "str", "dt", "range", "range_desc", "Int64"])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["first", "last"])
def test_sort_values_return_indexer(name, ascending, na_position):
    e, p = _pair(name)
    got, got_pos = e.sort_values(return_indexer=True, ascending=ascending, na_position=na_position)
    want, want_pos = p.sort_values(return_indexer=True, ascending=ascending, na_position=na_position)
    assert_eq(got, want)
    np.testing.assert_array_equal(got_pos, want_pos)
    assert_eq(e.sort_values(ascending=ascending), p.sort_values(ascending=ascending))


def test_sort_values_key_and_repeats():
    e, p = _pair("int_unique")
    assert_eq(e.sort_values(key=lambda i: -i), p.sort_values(key=lambda i: -i))
    e, p = _pair("int")
    assert_eq(e.sort_values(), p.sort_values())
    with pytest.raises(NotImplementedError):
        e.sort_values(return_indexer=True)
    with pytest.raises(ValueError):
        e.sort_values(na_position="middle")


def test_slice_indexer():
    e, p = _pair("str_unique")
    assert e.slice_indexer("bike", "train") == p.slice_indexer("bike", "train")
    p = pd.Index(list("abcd"))
    assert em.from_pandas(p).slice_indexer(start="b", end="c") == p.slice_indexer(start="b", end="c")
    p = pd.MultiIndex.from_arrays([list("abcd"), list("efgh")])
    e = em.from_pandas(p)
    assert e.slice_indexer(start="b", end=("c", "g")) == p.slice_indexer(start="b", end=("c", "g"))


@pytest.mark.parametrize("name", ["int", "float", "str", "int_unique"])
def test_get_indexer_for(name):
    e, p = _pair(name)
    target = list(p[:2]) + [np.nan]
    np.testing.assert_array_equal(e.get_indexer_for(target), p.get_indexer_for(target))


@pytest.mark.parametrize("target", [["car", "bike"], ["car", "plane"], [], None])
def test_reindex(target):
    e, p = _pair("str_unique")
    target = list(p) if target is None else target
    got, got_pos = e.reindex(target)
    want, want_pos = p.reindex(target)
    assert_eq(got, want)
    if want_pos is None:
        assert got_pos is None
    else:
        np.testing.assert_array_equal(got_pos, want_pos)


def test_reindex_duplicates_raises():
    e, p = _pair("int")
    _same_outcome(lambda i: i.reindex([1, 2]), e, p)


@pytest.mark.parametrize(
    "rng", [pd.RangeIndex(10, 30, 10), pd.RangeIndex(10, 15, 1), pd.RangeIndex(0, 100, 25)]
)
@pytest.mark.parametrize("decimals", [0, 1, -1, -2])
def test_range_round(rng, decimals):
    assert_eq(em.from_pandas(rng).round(decimals), rng.round(decimals))


@pytest.mark.parametrize(
    "p",
    [
        pd.MultiIndex.from_product([("a", "b"), (2, 1)]),
        pd.MultiIndex.from_arrays([[2, 1, 2], [0.5, 3.0, 0.1]]),
        pd.MultiIndex.from_arrays([[], []]),
    ],
)
@pytest.mark.parametrize("op", ["min", "max"])
def test_multiindex_min_max(p, op):
    _same_outcome(lambda i: getattr(i, op)(), em.from_pandas(p), p)


def test_multiindex_min_with_missing_refused():
    e = em.from_pandas(pd.MultiIndex.from_arrays([[1.0, np.nan], ["a", "b"]]))
    with pytest.raises(NotImplementedError):
        e.min()


@pytest.mark.parametrize(
    "value", [pd.Index([5, 6, 7]), pd.Index([5.5, 6.0, 7.0]), 9, 2.5, pd.Index([5, 6]), np.nan]
)
@pytest.mark.parametrize("mask", [[True, False, False], [False] * 3, [True, True], np.array([1, 0, 1], bool)])
def test_putmask(value, mask):
    if not PANDAS_31 and len(value if not np.isscalar(value) else [1, 2, 3]) == 2:
        pytest.skip("pandas 3.0 repeats a shorter Index of values (NumPy's putmask); 3.1 and ember raise")
    p = pd.Index([1, 2, 3], name="n")
    e = em.from_pandas(p)
    other = em.from_pandas(value) if isinstance(value, pd.Index) else value
    _compare_or_raise(lambda: p.putmask(mask, value), lambda: e.putmask(mask, other))
    keep = ~np.asarray(mask)
    _compare_or_raise(lambda: p.where(keep, value), lambda: e.where(keep, other))


def _compare_or_raise(pandas_call, ember_call) -> None:
    try:
        want = pandas_call()
    except ValueError:
        with pytest.raises(ValueError):
            ember_call()
        return
    assert_eq(ember_call(), want)


def test_putmask_mixed_kinds_refused():
    e = em.from_pandas(pd.Index([1, 2, 3]))
    with pytest.raises(NotImplementedError):
        e.putmask([True, False, False], em.Index(["a", "b", "c"]))


@pytest.mark.parametrize("cls", [np.uint64, "float32", "int64", np.int8, "float64"])
@pytest.mark.parametrize(
    "p", [pd.Index([-1, 0, 1]), pd.RangeIndex(3), pd.Index([1.5, -0.0, 2.0]), pd.Index([True, False])]
)
def test_view_as_dtype(p, cls):
    from ember.backend import to_host

    try:
        want = p.view(cls)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            em.from_pandas(p).view(cls)
        return
    got = to_host(em.from_pandas(p).view(cls))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "p", [pd.Index(["a", "b"]), pd.Index([1, None], dtype="Int64"), pd.Index([1.0, np.nan])]
)
def test_view_as_dtype_refused(p):
    if p.dtype == "float64":  # NaN under a mask: the memory is not the labels'
        e = em.from_pandas(p)
        if e.column.mask is None:
            pytest.skip("NaN kept in the values")
    with pytest.raises(NotImplementedError):
        em.from_pandas(p).view("int64")


UNION_CASES = [
    ([1, 2, 2, 3], [3, 3, 4]),
    ([3, 3, 4], [1, 2, 2, 3]),
    ([5, 1, 1, 2], [2, 2, 2, 7, 5]),
    ([1, 2, 3], [3, 1, 1, 0]),
    ([2, 2, 1], [1, 3]),
    ([1, 2, 4], [2, 3, 5]),
    ([1.0, np.nan, np.nan, 2.0], [np.nan, 2.0, 2.0]),
    (["b", "a", "a"], ["a", "a", "a", "c"]),
    (["b", None, "a"], [None, None, "z"]),
    ([1, 2, 2], []),
    ([], [4, 4]),
]


@pytest.mark.parametrize(("left", "right"), UNION_CASES)
@pytest.mark.parametrize("sort", [None, False, True])
def test_union_with_repeats(left, right, sort):
    p1, p2 = pd.Index(left, name="x"), pd.Index(right, name="x")
    p1, p2 = p1.astype(p2.dtype) if not left else p1, p2.astype(p1.dtype) if not right else p2
    got = em.from_pandas(p1).union(em.from_pandas(p2), sort=sort)
    assert_eq(got, p1.union(p2, sort=sort))


def test_union_of_other_kinds_refused():
    with pytest.raises(NotImplementedError):
        em.Index(["a", "b"]).union(em.Index([1, 2]))

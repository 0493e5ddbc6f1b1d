"""ember.Categorical against pandas.Categorical: construction, from_codes, attributes, category
edits, selection, setitem, comparisons, reductions, conversions and the constructors taking one."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.testing import assert_eq

VALUES = {
    "str": ["a", "b", "c", "a", "b", "c"],
    "str_missing": ["b", None, "a", "b", None],
    "int": [3, 1, 2, 1],
    "float_nan": [1.5, np.nan, 0.5, 1.5],
    "bool": [True, False, True],
    "empty": [],
    "all_missing": [None, None],
    "all_nan": [np.nan, pd.NA],
    "all_missing_array": np.array([None, None], dtype=object),
    "nat": [pd.NaT],
    "range": range(3),
    "datetime": pd.to_datetime(["2020-01-01", None]),
}


def both(*args, **kwargs):
    return em.Categorical(*args, **kwargs), pd.Categorical(*args, **kwargs)


def same_error(fn_em, fn_pd):
    with pytest.raises(Exception) as expected:
        fn_pd()
    with pytest.raises(type(expected.value)):
        fn_em()


@pytest.mark.parametrize("key", list(VALUES))
def test_construct_inferred(key):
    e, p = both(VALUES[key])
    assert isinstance(e, em.Categorical)
    assert_eq(e, p)
    assert e.dtype == p.dtype
    assert_eq(e.codes, p.codes)
    assert_eq(e.categories, p.categories)
    assert len(e) == len(p)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"categories": ["c", "b", "a"]},
        {"categories": ["c", "b", "a"], "ordered": True},
        {"categories": ["a", "x"]},
        {"ordered": True},
        {"ordered": False},
        {"dtype": "category"},
        {"dtype": pd.CategoricalDtype(["b", "a"], ordered=True)},
        {"categories": []},
        {"categories": ["b", "a"], "dtype": "category"},
        {"ordered": True, "dtype": "category"},
    ],
)
def test_construct_with_dtype(kwargs):
    e, p = both(["a", "b", None, "c", "a"], **kwargs)
    assert_eq(e, p)


def test_construct_from_categoricals_and_series():
    p = pd.Categorical(["a", "b", None], categories=["b", "a"], ordered=True)
    assert_eq(em.Categorical(p), pd.Categorical(p))
    assert_eq(em.Categorical(em.Categorical(p)), pd.Categorical(p))
    assert_eq(em.Categorical(p, categories=["a", "b", "c"]), pd.Categorical(p, categories=["a", "b", "c"]))
    assert_eq(em.Categorical(p, ordered=False), pd.Categorical(p, ordered=False))
    s = pd.Series(["x", "y", "x"])
    assert_eq(em.Categorical(em.from_pandas(s)), pd.Categorical(s))
    assert_eq(em.Categorical(em.Index(["x", None])), pd.Categorical(pd.Index(["x", None])))
    assert_eq(em.Categorical(np.array([2, 1, 2])), pd.Categorical(np.array([2, 1, 2])))


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((["a"],), {"categories": ["a", "a"]}),
        ((["a"],), {"categories": ["a", None]}),
        ((["a"],), {"ordered": True, "dtype": pd.CategoricalDtype(["a"])}),
        ((["a"],), {"dtype": "int64"}),
        (("a",), {}),
        ((None,), {}),
    ],
)
def test_construct_errors(args, kwargs):
    same_error(lambda: em.Categorical(*args, **kwargs), lambda: pd.Categorical(*args, **kwargs))


# --- from_codes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "codes, kwargs",
    [
        ([0, 1, -1, 0], {"categories": ["x", "y"]}),
        ([1, 0], {"categories": ["x", "y"], "ordered": True}),
        (np.array([0, 0], dtype=np.int8), {"dtype": pd.CategoricalDtype([10, 20])}),
        ([], {"categories": ["x"]}),
        (pd.array([0, 1], dtype="Int64"), {"categories": ["x", "y"]}),
        ([0, 1], {"categories": ["x", "y"], "validate": False}),
    ],
)
def test_from_codes(codes, kwargs):
    e = em.Categorical.from_codes(codes, **kwargs)
    assert isinstance(e, em.Categorical)
    assert_eq(e, pd.Categorical.from_codes(codes, **kwargs))


def test_from_codes_of_ember_values():
    codes = em.Series([0, 1, 0])
    assert_eq(em.Categorical.from_codes(codes, ["p", "q"]), pd.Categorical.from_codes([0, 1, 0], ["p", "q"]))


@pytest.mark.parametrize(
    "codes, kwargs",
    [
        ([0, 2], {"categories": ["x", "y"]}),
        ([0, -2], {"categories": ["x", "y"]}),
        ([0.5, 1], {"categories": ["x", "y"]}),
        ([0, None], {"categories": ["x", "y"]}),
        (pd.array([0, None], dtype="Int64"), {"categories": ["x", "y"]}),
        ([0], {}),
        ([0], {"categories": ["x", "x"]}),
    ],
)
def test_from_codes_errors(codes, kwargs):
    same_error(
        lambda: em.Categorical.from_codes(codes, **kwargs), lambda: pd.Categorical.from_codes(codes, **kwargs)
    )


# --- attributes -------------------------------------------------------------------------------------


def test_attributes():
    e, p = both(["a", "b", None], categories=["b", "a"], ordered=True)
    assert e.ordered is p.ordered
    assert e.dtype == p.dtype
    assert e.shape == p.shape and e.ndim == p.ndim and e.size == p.size
    assert isinstance(e.codes, np.ndarray)
    assert_eq(e.codes, p.codes)
    with pytest.raises(ValueError):
        e.codes[0] = 1  # read-only, as pandas'


def test_codes_dtype_widens_with_categories():
    cats = [f"c{i}" for i in range(200)]
    e, p = both(cats[::-1], categories=cats)
    assert_eq(e.codes, p.codes)
    assert e.codes.dtype == np.int16


# --- category edits ---------------------------------------------------------------------------------

EDITS = [
    ("add_categories", (["d", "e"],), {}),
    ("add_categories", ("d",), {}),
    ("remove_categories", (["a"],), {}),
    ("remove_categories", ("c",), {}),
    ("rename_categories", (["x", "y", "z"],), {}),
    ("rename_categories", ({"a": "A", "q": "Q"},), {}),
    ("rename_categories", (str.upper,), {}),
    ("reorder_categories", (["c", "a", "b"],), {}),
    ("reorder_categories", (["c", "a", "b"],), {"ordered": True}),
    ("set_categories", (["b", "d"],), {}),
    ("set_categories", (["x", "y", "z"],), {"rename": True}),
    ("set_categories", (["c", "b", "a"],), {"ordered": True}),
    ("remove_unused_categories", (), {}),
    ("as_ordered", (), {}),
    ("as_unordered", (), {}),
]


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("method, args, kwargs", EDITS)
def test_category_edits(method, args, kwargs, ordered):
    e, p = both(["a", None, "b", "a"], categories=["a", "b", "c"], ordered=ordered)
    out = getattr(e, method)(*args, **kwargs)
    assert isinstance(out, em.Categorical)
    assert_eq(out, getattr(p, method)(*args, **kwargs))
    assert_eq(e, p)  # the original is unchanged


@pytest.mark.parametrize(
    "method, args",
    [
        ("add_categories", (["a"],)),
        ("remove_categories", (["zz"],)),
        ("rename_categories", (["x"],)),
        ("reorder_categories", (["a", "b"],)),
        ("set_categories", (["a", "a"],)),
    ],
)
def test_category_edit_errors(method, args):
    e, p = both(["a", "b"], categories=["a", "b", "c"])
    same_error(lambda: getattr(e, method)(*args), lambda: getattr(p, method)(*args))


# --- selection and setitem --------------------------------------------------------------------------


@pytest.mark.parametrize("key", [0, 1, -1, 3])
def test_getitem_scalar(key):
    e, p = both(["a", None, "b", "a"])
    assert_eq(e[key], p[key])


@pytest.mark.parametrize(
    "key", [slice(1, 3), slice(None, None, -1), [0, 2], np.array([3, 0]), [True, False, True, False], []]
)
def test_getitem_array(key):
    e, p = both(["a", None, "b", "a"], categories=["b", "a", "z"])
    out = e[key]
    assert isinstance(out, em.Categorical)
    assert_eq(out, p[key])


def test_getitem_errors():
    e, p = both(["a", "b"])
    same_error(lambda: e[5], lambda: p[5])
    same_error(lambda: e[[True]], lambda: p[[True]])


@pytest.mark.parametrize(
    "key, value",
    [(0, "b"), (-1, None), (1, np.nan), (slice(0, 2), "c"), ([0, 2], ["c", "a"]), (slice(None), ["a"] * 4)],
)
def test_setitem(key, value):
    e, p = both(["a", None, "b", "a"], categories=["a", "b", "c"])
    s = em.Series(e)
    e[key] = value
    p[key] = value
    assert_eq(e, p)
    assert_eq(s, pd.Series(["a", None, "b", "a"], dtype=pd.CategoricalDtype(["a", "b", "c"])))


def test_setitem_new_category_error():
    e, p = both(["a", "b"])
    same_error(lambda: e.__setitem__(0, "z"), lambda: p.__setitem__(0, "z"))
    same_error(lambda: e.__setitem__(slice(None), ["a", "z"]), lambda: p.__setitem__(slice(None), ["a", "z"]))


# --- conversions --------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(VALUES))
def test_conversions(key):
    e, p = both(VALUES[key])
    assert_eq(e.tolist(), p.tolist())
    assert_eq(list(e), list(p))
    assert_eq(np.asarray(e), np.asarray(p))
    assert_eq(e.to_numpy(), p.to_numpy())
    assert_eq(to_host(e.isna()), p.isna())
    assert_eq(to_host(e.notna()), p.notna())
    assert repr(e) == repr(p)


@pytest.mark.parametrize("n", [10, 11, 80, 1000])
def test_repr_long(n):
    values = (["a", "b", None, "c"] * n)[:n]
    e, p = both(values)
    assert repr(e) == repr(p)


def test_pickle_and_copy():
    e, p = both(["a", None], ordered=True)
    assert_eq(pickle.loads(pickle.dumps(e)), p)
    assert_eq(e.copy(), p.copy())


# --- comparisons ------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
@pytest.mark.parametrize("other", ["b", "zz", np.nan])
def test_compare_scalar_ordered(op, other):
    e, p = both(["a", None, "b", "c"], categories=["c", "b", "a"], ordered=True)
    fn = getattr(type(p), f"__{op}__")
    try:
        expected = fn(p, other)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(type(e), f"__{op}__")(e, other)
        return
    assert_eq(to_host(getattr(type(e), f"__{op}__")(e, other)), expected)


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "ge"])
def test_compare_scalar_unordered(op):
    e, p = both(["a", None, "b"])
    fn = f"__{op}__"
    if op in ("eq", "ne"):
        assert_eq(to_host(getattr(e, fn)("a")), getattr(p, fn)("a"))
        assert_eq(to_host(getattr(e, fn)("zz")), getattr(p, fn)("zz"))
    else:
        same_error(lambda: getattr(e, fn)("a"), lambda: getattr(p, fn)("a"))


def test_compare_categoricals():
    e1, p1 = both(["a", "b", None, "a"], categories=["a", "b"], ordered=True)
    e2, p2 = both(["a", "a", "b", None], categories=["a", "b"], ordered=True)
    for op in ("__eq__", "__ne__", "__lt__", "__ge__"):
        assert_eq(to_host(getattr(e1, op)(e2)), getattr(p1, op)(p2))
    e3, p3 = both(["a", "b", "a", "a"], categories=["b", "a"], ordered=True)
    same_error(lambda: e1 < e3, lambda: p1 < p3)
    same_error(lambda: e1 == e3, lambda: p1 == p3)
    u1, q1 = both(["a", "b"], categories=["a", "b"])
    u2, q2 = both(["b", "b"], categories=["b", "a"])
    assert_eq(to_host(u1 == u2), q1 == q2)


def test_compare_list():
    e, p = both(["a", "b", None])
    assert_eq(to_host(e == ["a", "a", "b"]), p == ["a", "a", "b"])
    same_error(lambda: e == ["a"], lambda: p == ["a"])


# --- reductions and counts ------------------------------------------------------------------------------


@pytest.mark.parametrize("skipna", [True, False])
@pytest.mark.parametrize("values", [["b", None, "a", "c"], ["a", "c"], [None, None], []])
def test_min_max(values, skipna):
    e, p = both(values, categories=["c", "b", "a"], ordered=True)
    assert_eq(e.min(skipna=skipna), p.min(skipna=skipna))
    assert_eq(e.max(skipna=skipna), p.max(skipna=skipna))


def test_min_unordered_error():
    e, p = both(["a", "b"])
    same_error(e.min, p.min)
    same_error(e.max, p.max)


@pytest.mark.parametrize("key", list(VALUES))
def test_unique(key):
    e, p = both(VALUES[key])
    out = e.unique()
    assert isinstance(out, em.Categorical)
    assert_eq(out, p.unique())


@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("ordered", [False, True])
def test_value_counts(dropna, ordered):
    e, p = both(["b", None, "a", "b", None, None], categories=["c", "b", "a"], ordered=ordered)
    assert_eq(e.value_counts(dropna=dropna), p.value_counts(dropna=dropna))


# --- constructors taking a Categorical -----------------------------------------------------------------


def test_series_dataframe_index_constructors():
    e, p = both(["a", None, "b"], categories=["b", "a", "z"], ordered=True)
    assert_eq(em.Series(e, name="s"), pd.Series(p, name="s"))
    assert_eq(em.DataFrame({"c": e, "n": [1, 2, 3]}), pd.DataFrame({"c": p, "n": [1, 2, 3]}))
    idx = em.Index(e, name="i")
    assert isinstance(idx, em.CategoricalIndex)
    assert_eq(idx, pd.Index(p, name="i"))
    assert_eq(em.Series([1, 2, 3], index=e), pd.Series([1, 2, 3], index=p))


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize(
    "value, side",
    [
        ("bread", "left"),
        (["bread"], "right"),
        ("z", "left"),
        ("cheese", "right"),
        (["apple", "milk"], "left"),
        (np.nan, "left"),
        ([], "left"),
    ],
)
def test_searchsorted(value, side, ordered):
    cats = ["apple", "bread", "cheese", "milk", "z"]
    e, p = both(["apple", "bread", "bread", "cheese", "milk"], categories=cats, ordered=ordered)
    assert_eq(to_host(e.searchsorted(value, side=side)), p.searchsorted(value, side=side))


def test_searchsorted_errors():
    e, p = both(["a", "b"], ordered=True)
    same_error(lambda: e.searchsorted("q"), lambda: p.searchsorted("q"))
    same_error(lambda: e.searchsorted("a", side="middle"), lambda: p.searchsorted("a", side="middle"))

"""ember.CategoricalIndex against pandas.CategoricalIndex: construction, attributes, category edits,
equals, map, min / max, and the places that hand one back (from_pandas, set_index, groupby keys,
Series.index, Index(...) of categorical values)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def both(*args, **kwargs):
    return em.CategoricalIndex(*args, **kwargs), pd.CategoricalIndex(*args, **kwargs)


def same_error(fn_em, fn_pd):
    with pytest.raises(Exception) as expected:
        fn_pd()
    with pytest.raises(type(expected.value)):
        fn_em()


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((["a", "b", "c", "a"],), {}),
        ((["a", None, "b"],), {"name": "x"}),
        ((["a", "b"],), {"categories": ["c", "b", "a"], "ordered": True}),
        ((["a", "b"],), {"dtype": pd.CategoricalDtype(["b", "a"], ordered=True)}),
        (([3, 1, None],), {}),
        (([1.5, np.nan],), {"ordered": True}),
        (([],), {}),
        ((pd.Categorical(["x", "y"], ordered=True),), {}),
        ((pd.Index(["p", "q"], name="n"),), {}),
        ((pd.Series(["p", "q"], name="n"),), {"name": "m"}),
    ],
)
def test_construct(args, kwargs):
    e, p = both(*args, **kwargs)
    assert isinstance(e, em.CategoricalIndex)
    assert_eq(e, p)
    assert repr(e) == repr(p)


def test_construct_from_ember_objects():
    p = pd.Categorical(["a", None, "b"], categories=["b", "a"])
    assert_eq(em.CategoricalIndex(em.Categorical(p), name="c"), pd.CategoricalIndex(p, name="c"))
    s = pd.Series(["u", "v"], name="s")
    assert_eq(em.CategoricalIndex(em.from_pandas(s)), pd.CategoricalIndex(s))
    assert_eq(
        em.CategoricalIndex(em.Index(["u", "v"], name="i")),
        pd.CategoricalIndex(pd.Index(["u", "v"], name="i")),
    )


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((None,), {}),
        (("a",), {}),
        ((["a"],), {"categories": ["a", "a"]}),
        ((["a"],), {"categories": ["a", None]}),
        ((["a"],), {"ordered": True, "dtype": pd.CategoricalDtype(["a"])}),
    ],
)
def test_construct_errors(args, kwargs):
    same_error(lambda: em.CategoricalIndex(*args, **kwargs), lambda: pd.CategoricalIndex(*args, **kwargs))


def test_attributes():
    e, p = both(["a", "c", None, "a"], categories=["c", "b", "a"], ordered=True, name="x")
    assert_eq(e.categories, p.categories)
    assert isinstance(e.codes, np.ndarray)
    assert_eq(e.codes, p.codes)
    assert e.ordered is p.ordered
    assert e.dtype == p.dtype
    assert e.name == p.name
    assert isinstance(e.values, em.Categorical)
    assert_eq(e.values, p.values)
    assert_eq(e.tolist(), p.tolist())


EDITS = [
    ("add_categories", (["d"],), {}),
    ("remove_categories", (["a"],), {}),
    ("rename_categories", (["x", "y", "z"],), {}),
    ("rename_categories", ({"a": "A"},), {}),
    ("rename_categories", (str.upper,), {}),
    ("reorder_categories", (["c", "a", "b"],), {"ordered": True}),
    ("set_categories", (["b", "d"],), {}),
    ("set_categories", (["A", "B", "C"],), {"rename": True}),
    ("remove_unused_categories", (), {}),
    ("as_ordered", (), {}),
    ("as_unordered", (), {}),
]


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("method, args, kwargs", EDITS)
def test_category_edits(method, args, kwargs, ordered):
    e, p = both(["a", None, "b", "a"], categories=["a", "b", "c"], ordered=ordered, name="k")
    out = getattr(e, method)(*args, **kwargs)
    assert isinstance(out, em.CategoricalIndex)
    assert_eq(out, getattr(p, method)(*args, **kwargs))


def test_category_edit_errors():
    e, p = both(["a", "b"])
    same_error(lambda: e.add_categories(["a"]), lambda: p.add_categories(["a"]))
    same_error(lambda: e.remove_categories(["z"]), lambda: p.remove_categories(["z"]))
    same_error(lambda: e.reorder_categories(["a"]), lambda: p.reorder_categories(["a"]))


def test_selection_keeps_categories():
    e, p = both(["a", "c", "b", "c", "d"], name="n")
    assert_eq(e[[0, 1, 0, 1, 1]], p[[0, 1, 0, 1, 1]])
    assert_eq(e[1:3], p[1:3])
    assert_eq(e[1], p[1])
    assert_eq(e.take([4, 0]), p.take([4, 0]))
    assert_eq(e.rename("z"), p.rename("z"))
    assert_eq(e.copy(), p.copy())


# --- equals -----------------------------------------------------------------------------------------

BASE = ["a", "b", "c", "a", "b", "c"]
OTHERS = {
    "same": pd.CategoricalIndex(BASE),
    "from_categorical": pd.CategoricalIndex(pd.Categorical(BASE)),
    "other_order_values": pd.CategoricalIndex(["c", "b", "a", "a", "b", "c"]),
    "ordered": pd.CategoricalIndex(BASE, ordered=True),
    "more_categories": pd.CategoricalIndex(BASE, categories=["a", "b", "c", "d"]),
    "permuted_categories": pd.CategoricalIndex(BASE, categories=["b", "c", "a"]),
    "plain_labels": pd.Index(BASE),
    "plain_labels_other": pd.Index(["a", "b", "c", "a", "b", "x"]),
    "plain_with_missing": pd.Index(["a", "b", "c", "a", "b", None]),
    "ints": pd.Index([1, 2, 3, 1, 2, 3]),
    "shorter": pd.CategoricalIndex(BASE[:3]),
    "range": pd.RangeIndex(6),
}


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("key", list(OTHERS))
def test_equals(key, ordered):
    e, p = both(BASE, ordered=ordered)
    other = OTHERS[key]
    assert e.equals(em.from_pandas(other)) is p.equals(other)


def test_equals_missing_and_non_index():
    e, p = both(["a", None, "b"])
    q = pd.CategoricalIndex(["a", None, "b"], categories=["b", "a"])
    assert e.equals(em.from_pandas(q)) is p.equals(q)
    r = pd.Index(["a", None, "b"])
    assert e.equals(em.from_pandas(r)) is p.equals(r)
    assert e.equals(["a", None, "b"]) is p.equals(["a", None, "b"])
    assert e.equals(e) is True
    mi = pd.MultiIndex.from_arrays([["a", "b", "c"], [1, 2, 3]])
    assert e.equals(em.from_pandas(mi)) is p.equals(mi)


# --- map --------------------------------------------------------------------------------------------

MAPPERS = [
    str.upper,
    {"a": "first", "b": "second", "c": "third"},
    {"a": 3, "b": 2, "c": 1},
    {"a": "first", "b": "second", "c": "first"},
    {"a": "first", "b": "second"},
    pd.Series({"a": 10, "b": 20, "c": 30}),
    lambda x: 1,
]


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("mapper", MAPPERS)
@pytest.mark.parametrize("values", [["a", "b", "c"], ["a", None, "b", "a"]])
def test_map(mapper, values, ordered):
    e, p = both(values, categories=["a", "b", "c"], ordered=ordered, name="m")
    try:
        expected = p.map(mapper)
    except TypeError:  # pandas calls the function on NaN for missing labels
        with pytest.raises(TypeError):
            e.map(mapper)
        return
    assert_eq(e.map(mapper), expected)


def test_map_missing_mapped():
    e, p = both(["a", None])
    mapper = {"a": "x", np.nan: "missing"}
    assert_eq(e.map(mapper), p.map(mapper))
    assert_eq(e.map(mapper, na_action="ignore"), p.map(mapper, na_action="ignore"))
    assert_eq(e.map(lambda v: v, na_action="ignore"), p.map(lambda v: v, na_action="ignore"))
    assert_eq(e.map(str, na_action="bad"), p.map(str, na_action="bad"))
    empty, pempty = both([], categories=["a", "b"])
    assert_eq(empty.map(lambda v: 1), pempty.map(lambda v: 1))
    assert_eq(empty.map(str.upper), pempty.map(str.upper))


def test_map_ember_series():
    e, p = both(["a", "b"])
    mapper = pd.Series({"a": "x", "b": "y"})
    assert_eq(e.map(em.from_pandas(mapper)), p.map(mapper))


# --- min / max --------------------------------------------------------------------------------------


@pytest.mark.parametrize("values", [["a", "b", "c", "a"], ["b", None], [None], []])
def test_min_max(values):
    e, p = both(values, categories=["c", "b", "a"], ordered=True)
    assert_eq(e.min(), p.min())
    assert_eq(e.max(), p.max())


def test_min_unordered_error():
    e, p = both(["a", "b"])
    same_error(e.min, p.min)


# --- where ember hands one back ---------------------------------------------------------------------


def test_from_pandas_and_set_index():
    p = pd.CategoricalIndex(["a", None, "b"], categories=["b", "a", "z"], ordered=True, name="c")
    e = em.from_pandas(p)
    assert isinstance(e, em.CategoricalIndex)
    assert_eq(e, p)
    pdf = pd.DataFrame({"k": pd.Categorical(["x", "y", "x"]), "v": [1, 2, 3]})
    edf = em.from_pandas(pdf)
    assert isinstance(edf.set_index("k").index, em.CategoricalIndex)
    assert_eq(edf.set_index("k"), pdf.set_index("k"))
    ps = pd.Series([1, 2, 3], index=p)
    es = em.from_pandas(ps)
    assert isinstance(es.index, em.CategoricalIndex)
    assert_eq(es.index, ps.index)
    assert_eq(edf.groupby("k", observed=False).sum(), pdf.groupby("k", observed=False).sum())


def test_index_of_categorical_values():
    p = pd.Index(pd.Categorical(["a", "b"]), name="i")
    e = em.Index(em.Categorical(["a", "b"]), name="i")
    assert isinstance(e, em.CategoricalIndex)
    assert_eq(e, p)
    e2 = em.Index(["a", "b"], dtype="category")
    assert isinstance(e2, em.CategoricalIndex)
    assert_eq(e2, pd.Index(["a", "b"], dtype="category"))
    assert_eq(em.Index(["b", "a"]).astype("category"), pd.Index(["b", "a"]).astype("category"))
    plain = em.Index(["a", "b"])
    assert not isinstance(plain, em.CategoricalIndex)


def test_append_and_to_frame():
    e, p = both(["a", "b"], name="n")
    assert_eq(e.append(e), p.append(p))
    assert_eq(e.to_frame(), p.to_frame())

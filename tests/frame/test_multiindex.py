"""MultiIndex constructors, levels and partial-key selection, against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pandas.testing as tm
import pytest

import ember as em

TUPLES = [("cobra", "mark i"), ("cobra", "mark ii"), ("sidewinder", "mark i"), ("viper", "mark ii")]
VALUES = [[12, 2], [0, 4], [10, 20], [1, 4]]


def _same(e, p):
    e = e.to_pandas() if hasattr(e, "to_pandas") else e
    if isinstance(p, pd.DataFrame):
        tm.assert_frame_equal(e, p)
    elif isinstance(p, pd.Series):
        tm.assert_series_equal(e, p)
    elif isinstance(p, pd.MultiIndex):
        tm.assert_index_equal(e, p, exact=True)
        for a, b in zip(e.levels, p.levels):
            tm.assert_index_equal(a, b)
    elif isinstance(p, pd.Index):
        tm.assert_index_equal(e, p)
    else:
        assert e == p


@pytest.mark.parametrize(
    "build",
    [
        lambda m: m.MultiIndex.from_arrays([[1, 1, 2, 2], ["red", "blue", "red", "blue"]], names=("n", "c")),
        lambda m: m.MultiIndex.from_arrays([[2, 2], [np.nan, 0]]),
        lambda m: m.MultiIndex.from_arrays([[1, None, 2], [3, 4, 5]]),
        lambda m: m.MultiIndex.from_arrays([m.Series([3, 1], name="a"), m.Index(["x", "y"], name="b")]),
        lambda m: m.MultiIndex.from_tuples(TUPLES, names=["kind", "mark"]),
        lambda m: m.MultiIndex.from_product([[0, 1, 2], ["green", "purple"]], names=["number", "color"]),
        lambda m: m.MultiIndex.from_frame(
            m.DataFrame({"a": ["HI", "HI", "NJ"], "b": ["Temp", "Precip", "Temp"]})
        ),
        lambda m: m.MultiIndex.from_frame(m.DataFrame({"a": [1, 2], "b": [3.5, 4.5]}), names=["x", "y"]),
    ],
)
def test_constructors_levels_codes(build):
    p, e = build(pd), build(em)
    _same(e, p)
    for a, b in zip(e.levels, p.levels):
        _same(a, b)
    for a, b in zip(e.codes, p.codes):
        np.testing.assert_array_equal(a, b)
    tm.assert_series_equal(e.dtypes, p.dtypes)
    assert e.levshape == p.levshape


def test_constructor_errors():
    for mod in (pd, em):
        with pytest.raises(ValueError, match="same length"):
            mod.MultiIndex.from_arrays([mod.Index([1, 2]), mod.Index([1, 2, 3])])
        with pytest.raises(TypeError):
            mod.MultiIndex.from_arrays(5)
        with pytest.raises(TypeError):
            mod.MultiIndex.from_frame([[1, 2]])


def test_level_methods():
    p = pd.MultiIndex.from_tuples(TUPLES, names=["kind", None])
    e = em.MultiIndex.from_tuples(TUPLES, names=["kind", None])
    _same(e.get_level_values("kind"), p.get_level_values("kind"))
    _same(e.get_level_values(-1), p.get_level_values(-1))
    _same(e.droplevel(0), p.droplevel(0))
    _same(e.swaplevel(), p.swaplevel())
    _same(e.reorder_levels([1, 0]), p.reorder_levels([1, 0]))
    _same(e.to_frame(), p.to_frame())  # an unnamed level's column is its number
    _same(e.to_frame(index=False, name=["a", "b"]), p.to_frame(index=False, name=["a", "b"]))
    _same(e.set_names("k", level=0), p.set_names("k", level=0))
    _same(e.rename(["x", "y"]), p.rename(["x", "y"]))
    for mod_index in (p, e):
        with pytest.raises(KeyError):
            mod_index.get_level_values("nope")
        with pytest.raises(IndexError):
            mod_index.get_level_values(5)
        with pytest.raises(ValueError):
            mod_index.droplevel([0, 1])
        with pytest.raises(TypeError):
            mod_index.rename("species")  # one name for two levels: pandas refuses, not letters
    assert e.tolist() == p.tolist()
    assert list(e) == list(p)
    assert e[1] == p[1]


def test_unused_levels_kept_through_selection():
    p = pd.MultiIndex.from_tuples(TUPLES)
    e = em.MultiIndex.from_tuples(TUPLES)
    _same(e[[0, 1]], p[[0, 1]])  # pandas keeps 'sidewinder' and 'viper' as levels
    _same(e[[0, 1]].remove_unused_levels(), p[[0, 1]].remove_unused_levels())
    pdf = pd.DataFrame({"v": [1, 2, 3, 4]}, index=p)
    edf = em.DataFrame({"v": [1, 2, 3, 4]}, index=e)
    _same(edf[edf.v > 2].index, pdf[pdf.v > 2].index)
    _same(e.set_levels([["a", "b", "c", "d"], [1, 2]]), p.set_levels([["a", "b", "c", "d"], [1, 2]]))


@pytest.mark.parametrize("key", ["cobra", "viper", ("cobra", "mark ii"), ("cobra",), ("cobra", "shield")])
def test_loc_partial_keys_drop_levels(key):
    pdf = pd.DataFrame(VALUES, columns=["max_speed", "shield"], index=pd.MultiIndex.from_tuples(TUPLES))
    edf = em.DataFrame(VALUES, columns=["max_speed", "shield"], index=em.MultiIndex.from_tuples(TUPLES))
    _same(edf.loc[key], pdf.loc[key])


def test_loc_partial_keys_series_and_duplicates():
    tuples = TUPLES + [("cobra", "mark i")]
    pser = pd.Series([1, 2, 3, 4, 5], index=pd.MultiIndex.from_tuples(tuples))
    eser = em.Series([1, 2, 3, 4, 5], index=em.MultiIndex.from_tuples(tuples))
    _same(eser.loc["cobra"], pser.loc["cobra"])
    _same(eser["cobra"], pser["cobra"])
    _same(
        eser.loc[("cobra", "mark i")], pser.loc[("cobra", "mark i")]
    )  # a repeated full key keeps both levels
    _same(eser.loc[("cobra", "mark ii")], pser.loc[("cobra", "mark ii")])
    for s in (pser, eser):
        with pytest.raises(KeyError):
            s.loc["python"]


def test_three_levels_and_groupby_result():
    t3 = [(1, "a", "x"), (1, "b", "y"), (2, "a", "x")]
    pdf = pd.DataFrame({"v": [1, 2, 3]}, index=pd.MultiIndex.from_tuples(t3))
    edf = em.DataFrame({"v": [1, 2, 3]}, index=em.MultiIndex.from_tuples(t3))
    _same(edf.loc[1], pdf.loc[1])
    _same(edf.loc[(1, "a")], pdf.loc[(1, "a")])
    raw = pd.DataFrame({"k1": ["a", "a", "b"], "k2": [1, 2, 1], "v": [1.0, 2.0, 3.0]})
    p = raw.groupby(["k1", "k2"]).sum()
    e = em.from_pandas(raw).groupby(["k1", "k2"]).sum()
    _same(e.loc["a"], p.loc["a"])


def test_reset_index_onto_multiindex_columns():
    cols = em.MultiIndex.from_tuples([("speed", "max"), ("species", "type")])
    df = em.DataFrame([(389.0, "fly"), (24.0, "fly")], index=em.Index(["a", "b"], name="c"), columns=cols)
    pdf = pd.DataFrame(
        [(389.0, "fly"), (24.0, "fly")], index=pd.Index(["a", "b"], name="c"), columns=cols.to_pandas()
    )
    _same(df.reset_index(), pdf.reset_index())  # the new label padded into a tuple
    _same(df.reset_index(drop=True), pdf.reset_index(drop=True))

"""MultiIndex methods and level methods of DataFrame / Series against pandas."""

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.testing import assert_eq

MI = pd.MultiIndex.from_arrays([[1, 1, 2, np.nan, 1], ["a", "b", "a", None, "a"]], names=["x", "y"])
MIDX = pd.MultiIndex(
    levels=[["llama", "cow", "falcon"], ["speed", "weight", "length"]],
    codes=[[0, 0, 0, 1, 1, 1, 2, 2, 2], [0, 1, 2, 0, 1, 2, 0, 1, 2]],
    names=["a", "b"],
)
FRAME = pd.DataFrame(
    {"big": [45, 200, 1.5, 30, 250, 1.5, 320, 1, 0.3], "small": [30, 100, 1, 20, 150, 0.8, 250, 0.8, 0.2]},
    index=MIDX,
)
MCOLS = pd.DataFrame(
    [[1, 2, 3], [4, 5, 6]],
    columns=pd.MultiIndex.from_tuples([("a", "x"), ("a", "y"), ("b", "x")], names=["l1", "l2"]),
)
FLAT = pd.DataFrame({"a": [1, 2, 3], "b": [4.0, 5, 6]}, index=["x", "y", "x"])


def _same(fn, pobj):
    """fn on pandas and on ember: equal results, or the same exception type."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = fn(pobj)
        except Exception as exc:
            with pytest.raises(type(exc)):
                fn(em.from_pandas(pobj))
            return
        got = fn(em.from_pandas(pobj))
    if isinstance(expected, np.ndarray):
        np.testing.assert_array_equal(to_host(got), expected)
    elif np.isscalar(expected):
        assert got == expected
    else:
        assert_eq(got, expected)
        if isinstance(expected, pd.MultiIndex):  # pandas keeps unused labels in its levels
            assert [list(lv) for lv in got.to_pandas().levels] == [list(lv) for lv in expected.levels]


def test_constructor_from_levels_and_codes():
    got = em.MultiIndex(levels=[["b", "a"], [1, 2]], codes=[[0, 1, 1], [1, 0, -1]], names=["p", "q"])
    expected = pd.MultiIndex(levels=[["b", "a"], [1, 2]], codes=[[0, 1, 1], [1, 0, -1]], names=["p", "q"])
    assert_eq(got, expected)
    assert [list(lv) for lv in got.levels] == [["b", "a"], [1, 2]]
    with pytest.raises(ValueError):
        em.MultiIndex(levels=[["a"]], codes=[[0, 1]])


@pytest.mark.parametrize(
    "fn",
    [
        lambda i: i.duplicated(),
        lambda i: i.duplicated(keep="last"),
        lambda i: i.duplicated(keep=False),
        lambda i: i.unique(),
        lambda i: i.unique(level="y"),
        lambda i: i.drop_duplicates(keep="last"),
        lambda i: i.dropna(),
        lambda i: i.dropna(how="all"),
        lambda i: i.dropna(how="some"),
        lambda i: i.argsort(),
        lambda i: i.argsort(na_position="first"),
        lambda i: i.is_monotonic_increasing,
        lambda i: i.is_monotonic_decreasing,
        lambda i: i.dropna().is_monotonic_increasing,
        lambda i: i.is_unique,
        lambda i: i.isin([(1, "a"), (2, "a")]),
        lambda i: i.isin([1], level=0),
        lambda i: i.isin(["b"], level="y"),
        lambda i: i.drop([(1, "a")]),
        lambda i: i.drop(1),
        lambda i: i.drop("a", level="y"),
        lambda i: i.drop([(5, "a")]),
        lambda i: i.drop([(5, "a")], errors="ignore"),
        lambda i: i.astype(object),
        lambda i: i.astype("int64"),
        lambda i: i.swaplevel(),
        lambda i: i[:0].is_monotonic_increasing,
        lambda i: i[:0].dropna(),
    ],
)
def test_multiindex_methods(fn):
    _same(fn, MI)


@pytest.mark.parametrize("mi", [pd.MultiIndex.from_arrays([[1, 1, 2, 3], [4, 3, 1, 0]]), MIDX])
def test_multiindex_monotonic(mi):
    for fn in (lambda i: i.is_monotonic_increasing, lambda i: i.is_monotonic_decreasing):
        _same(fn, mi)
        _same(fn, mi[::-1])


LEVEL_CASES = {
    "swaplevel": lambda d: d.swaplevel(),
    "swaplevel01": lambda d: d.swaplevel(0, 1),
    "swaplevel_flat_columns": lambda d: d.swaplevel(axis=1),
    "reorder_levels": lambda d: d.reorder_levels(["b", "a"]),
    "rename_axis_list": lambda d: d.rename_axis(["x", "y"]),
    "rename_axis_dict": lambda d: d.rename_axis(index={"a": "A"}),
    "rename_axis_function": lambda d: d.rename_axis(index=str.upper),
    "rename_axis_columns": lambda d: d.rename_axis("cc", axis=1),
    "rename_axis_columns_fn": lambda d: d.rename_axis(columns="zz").rename_axis(columns=str.upper),
    "rename_axis_scalar_for_levels": lambda d: d.rename_axis("x"),
    "rename_axis_mapper_dict": lambda d: d.rename_axis({"a": "b"}),
    "xs": lambda d: d.xs("cow"),
    "xs_keep_level": lambda d: d.xs("cow", drop_level=False),
    "xs_full_key": lambda d: d.xs(("cow", "speed")),
    "xs_level": lambda d: d.xs("speed", level=1),
    "xs_level_keep": lambda d: d.xs("speed", level="b", drop_level=False),
    "xs_column": lambda d: d.xs("big", axis=1),
    "xs_missing": lambda d: d.xs("zzz"),
    "droplevel": lambda d: d.droplevel("a"),
    "series_drop_level": lambda d: d["big"].drop(labels="weight", level=1),
    "series_drop_tuple": lambda d: d["big"].drop([("cow", "speed")]),
    "series_xs": lambda d: d["big"].xs("cow"),
    "series_xs_full": lambda d: d["big"].xs(("cow", "speed")),
    "series_swaplevel": lambda d: d["big"].swaplevel(),
    "series_rename_axis": lambda d: d["big"].rename_axis(["p", "q"]),
    "series_rename_axis_dict": lambda d: d["big"].rename_axis(index={"b": "B"}),
    "series_reorder_levels": lambda d: d["big"].reorder_levels([1, 0]),
    "reset_index_level": lambda d: d.reset_index(level="b"),
    "reset_index_levels_drop": lambda d: d.reset_index(level=[0, 1], drop=True),
    "reset_index_bad_level": lambda d: d.reset_index(level="zz"),
}


@pytest.mark.parametrize("case", list(LEVEL_CASES))
def test_level_methods(case):
    _same(LEVEL_CASES[case], FRAME)


FLAT_CASES = {
    "swaplevel": lambda d: d.swaplevel(),
    "rename_axis": lambda d: d.rename_axis("n"),
    "series_drop": lambda d: d["a"].drop("x"),
    "series_drop_missing": lambda d: d["a"].drop(["q"]),
    "series_drop_ignore": lambda d: d["a"].drop(["q", "y"], errors="ignore"),
    "series_drop_by_index": lambda d: d["a"].drop(index="y"),
    "series_drop_nothing": lambda d: d["a"].drop(),
    "xs_one": lambda d: d.xs("y"),
    "xs_repeated": lambda d: d.xs("x"),
    "series_rename_axis": lambda d: d["a"].rename_axis("z"),
    "series_reorder_levels": lambda d: d["a"].reorder_levels([0]),
    "reset_index_level": lambda d: d.reset_index(level=0),
}


@pytest.mark.parametrize("case", list(FLAT_CASES))
def test_flat_index(case):
    _same(FLAT_CASES[case], FLAT)


COLUMN_CASES = {
    "swaplevel": lambda d: d.swaplevel(axis=1),
    "reorder_levels": lambda d: d.reorder_levels([1, 0], axis=1),
    "rename_axis": lambda d: d.rename_axis(columns={"l1": "L"}),
    "xs": lambda d: d.xs("a", axis=1),
    "xs_one": lambda d: d.xs("b", axis=1),
    "xs_full": lambda d: d.xs(("a", "x"), axis=1),
    "xs_level": lambda d: d.xs("x", axis=1, level=1),
    "xs_keep": lambda d: d.xs("a", axis=1, drop_level=False),
    "reset_index": lambda d: d.reset_index(),
    "reset_index_col_level": lambda d: d.rename_axis("i").reset_index(col_level=1, col_fill="f"),
    "reset_index_col_fill_none": lambda d: d.rename_axis("i").reset_index(col_fill=None),
}


@pytest.mark.parametrize("case", list(COLUMN_CASES))
def test_multiindex_columns(case):
    _same(COLUMN_CASES[case], MCOLS)


def test_droplevel_of_columns():
    df = pd.DataFrame([[1, 2]], columns=pd.MultiIndex.from_tuples([("a", "x"), ("b", "y")], names=["p", "q"]))
    _same(lambda d: d.droplevel("p", axis=1), df)
    with pytest.raises(NotImplementedError):  # pandas would hold two columns labelled "x"
        em.from_pandas(MCOLS).droplevel("l1", axis=1)


def test_reset_index_under_multiindex_columns():
    index = pd.MultiIndex.from_tuples(
        [("bird", "falcon"), ("bird", "parrot"), ("mammal", "lion")], names=["class", "name"]
    )
    columns = pd.MultiIndex.from_tuples([("speed", "max"), ("species", "type")])
    df = pd.DataFrame([(389.0, "fly"), (24.0, "fly"), (np.nan, "run")], index=index, columns=columns)
    for fn in (
        lambda d: d.reset_index(),
        lambda d: d.reset_index(names=["classes", "names"]),
        lambda d: d.reset_index(level="class", col_level=1),
        lambda d: d.reset_index(level="class", col_level=1, col_fill="genus"),
        lambda d: d.reset_index(col_fill=None),
    ):
        _same(fn, df)


def _drop(d, *args, **kwargs):
    return d.drop(*args, **kwargs)


@pytest.mark.parametrize(
    "fn",
    [
        lambda d: _drop(d, index=("falcon", "weight")),
        lambda d: _drop(d, index="cow", columns="small"),
        lambda d: _drop(d, index="length", level=1),
        lambda d: _drop(d, index="zzz", level=1),
        lambda d: _drop(d, "x", index="y"),
        lambda d: _drop(d),
        lambda d: _drop(d, ["big"], axis=1),
    ],
)
def test_frame_drop_levels(fn):
    _same(fn, FRAME)


@pytest.mark.parametrize(
    "fn", [lambda d: _drop(d, columns="x", level=1), lambda d: _drop(d, columns="a"), lambda d: _drop(d, "x")]
)
def test_frame_drop_column_levels(fn):
    _same(fn, MCOLS)


def test_frame_drop_level_of_flat_index():
    _same(lambda d: _drop(d, "x", level=0), FLAT)
    _same(lambda d: _drop(d, "x"), FLAT)


FILTER = pd.DataFrame(
    {"one": [1, 4, 7], "two": [2, 5, 8], "three": [3, 6, 9]}, index=["mouse", "rabbit", "bbit"]
)
MASK = pd.array([True, None, False], dtype="boolean")


@pytest.mark.parametrize(
    "fn",
    [
        lambda d: d.filter(cond=d["two"] > 2),
        lambda d: d.filter(pd.col("two") > 2),
        lambda d: d.filter(pd.col("two") > 2, axis=1),
        lambda d: d.filter(lambda x: x["two"] > 2),
        lambda d: d.filter(lambda x: 1),
        lambda d: d.filter(cond=d.columns.str.endswith("e"), axis=1),
        lambda d: d.filter(cond=MASK),
        lambda d: d.filter(cond=MASK, na=True),
        lambda d: d.filter(cond=MASK, na="raise"),
        lambda d: d.filter(cond=MASK, na="x"),
        lambda d: d.filter(cond=np.array([True, False, True])),
        lambda d: d.filter(like="bbi", axis=0),
        lambda d: d.filter(regex="^r", axis=0),
        lambda d: d.filter(items=["one", "zz", "three"]),
        lambda d: d.filter(["three", "one"]),
        lambda d: d.filter(items=["rabbit"], axis=0),
        lambda d: d.filter(like="o"),
        lambda d: d.filter(cond=[True, False]),
        lambda d: d.filter(cond=[1, 0, 1]),
        lambda d: d.filter(),
        lambda d: d.filter(items=["a"], like="b"),
        lambda d: d.filter(cond=[True, False, True], axis=1),
        lambda d: d.filter(items=[]),
    ],
)
def test_filter(fn):
    _same(fn, FILTER)


SERIES_MI = pd.Series(
    [1.0, 2, 3], index=pd.MultiIndex.from_tuples([("a", 1), ("b", 2), ("a", 3)], names=["k", "n"])
)


@pytest.mark.parametrize(
    "series",
    [SERIES_MI.rename("v"), SERIES_MI, pd.Series([1, 2, 3], index=pd.Index([5, 6, 7], name="i"))],
    ids=["named", "unnamed", "flat"],
)
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"drop": True},
        {"level": 0},
        {"level": [0]},
        {"level": -1, "drop": True},
        {"level": "k"},
        {"level": ["k", "n"], "drop": True},
        {"name": "z"},
        {"name": None},
        {"level": 5},
        {"level": "zz"},
        {"level": 1, "drop": True},
    ],
)
def test_series_reset_index(series, kwargs):
    try:
        want = series.reset_index(**kwargs)
    except (KeyError, IndexError, ValueError) as err:
        with pytest.raises(type(err)):
            em.from_pandas(series).reset_index(**kwargs)
        return
    assert_eq(em.from_pandas(series).reset_index(**kwargs), want)


def test_series_reset_index_inplace():
    s = SERIES_MI.copy()
    e = em.from_pandas(s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas 3.1 deprecates inplace=
        s.reset_index(level="k", drop=True, inplace=True)
        e.reset_index(level="k", drop=True, inplace=True)
        assert_eq(e, s)
        with pytest.raises(TypeError, match="inplace"):
            e.reset_index(inplace=True)


@pytest.mark.parametrize("name", [None, "q", 0])
def test_to_frame_with_an_explicit_name(name):
    s = SERIES_MI
    assert_eq(em.from_pandas(s).to_frame(name), s.to_frame(name))
    assert_eq(em.from_pandas(s).to_frame(), s.to_frame())
    i = pd.Index([1, 2], name="a")
    assert_eq(em.from_pandas(i).to_frame(name=name), i.to_frame(name=name))

"""DataFrame.dropna(axis=1), fillna with a value per column (a Series) and set_index(append=True)
against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": [1.0, np.nan, 3.0],
            "b": [1, 2, 3],
            "c": [np.nan, np.nan, np.nan],
            "s": ["x", None, "z"],
            "m": pd.array([1, None, 3], dtype="Int64"),
        }
    )


@pytest.mark.parametrize(
    "kw", [{}, {"how": "all"}, {"thresh": 2}, {"thresh": 0}, {"axis": "columns"}], ids=str
)
def test_dropna_columns(kw) -> None:
    df = _frame()
    kw = {"axis": 1, **kw}
    pd.testing.assert_frame_equal(em.from_pandas(df).dropna(**kw).to_pandas(), df.dropna(**kw))


def test_dropna_columns_in_place_and_refusals() -> None:
    e = em.from_pandas(_frame())
    assert e.dropna(axis=1, inplace=True) is None
    assert list(e.columns) == ["b"]
    with pytest.raises(NotImplementedError, match="subset"):
        em.from_pandas(_frame()).dropna(axis=1, subset=[0])
    with pytest.raises(ValueError, match="how"):
        em.from_pandas(_frame()).dropna(axis=1, how="some")


def test_fillna_with_a_value_per_column() -> None:
    df = _frame()[["a", "b", "c", "m"]]
    e = em.from_pandas(df)
    pd.testing.assert_frame_equal(e.fillna(e.mean()).to_pandas(), df.fillna(df.mean()))
    per_column = pd.Series({"a": -1.0, "c": 7.5, "not_a_column": 5.0})
    pd.testing.assert_frame_equal(e.fillna(per_column).to_pandas(), df.fillna(per_column))


@pytest.mark.parametrize(
    "call",
    [
        lambda d: d.set_index("a", append=True),
        lambda d: d.set_index(["a", "b"], append=True),
        lambda d: d.set_index("a").set_index("b", append=True),
        lambda d: d.set_index("a", append=True, drop=False),
        lambda d: d.set_index([d.b * 2], append=True),
        lambda d: d.set_index(d.b),  # a Series key: its namesake column stays
    ],
)
def test_set_index_append_and_series_keys(call) -> None:
    df = pd.DataFrame({"a": ["x", "y", "x"], "b": [1, 2, 3], "c": [1.0, 2.0, 3.0]})
    pd.testing.assert_frame_equal(call(em.from_pandas(df)).to_pandas(), call(df))


def test_fillna_limit_dict_and_in_place() -> None:
    """Only the first ``limit`` missing values; a dict (or pandas Series) of values by index label;
    inplace=True; limit=0 is pandas' ValueError."""
    s = pd.Series([np.nan, 1.0, np.nan, np.nan, 2.0])
    e = em.from_pandas(s)
    pd.testing.assert_series_equal(e.fillna(0, limit=2).to_pandas(), s.fillna(0, limit=2))
    pd.testing.assert_series_equal(e.fillna({0: 5, 3: 7}).to_pandas(), s.fillna({0: 5, 3: 7}))
    by_label = pd.Series({0: 5.0, 3: 7.0})
    pd.testing.assert_series_equal(e.fillna(by_label).to_pandas(), s.fillna(by_label))
    df = pd.DataFrame({"a": s, "b": s[::-1].to_numpy()})
    d = em.from_pandas(df)
    pd.testing.assert_frame_equal(d.fillna(9, limit=1).to_pandas(), df.fillna(9, limit=1))
    pd.testing.assert_frame_equal(d.fillna({"a": 9}, limit=2).to_pandas(), df.fillna({"a": 9}, limit=2))
    assert e.fillna(3, inplace=True) is None
    assert e.to_pandas().tolist() == [3.0, 1.0, 3.0, 3.0, 2.0]
    with pytest.raises(ValueError, match="Limit must be greater than 0"):
        e.fillna(0, limit=0)


def test_rename_index_labels() -> None:
    """A dict (labels it does not name stay; ints renamed to ints stay ints), a function of one label
    (as pandas calls it: a function of a Series raises pandas' error), with columns= at once;
    Series.rename of a mapping."""
    df = pd.DataFrame({"a": [1, 2, 3], "b": [4.0, 5.0, 6.0]}, index=["x", "y", "z"])
    e = em.from_pandas(df)
    for kw in ({"index": {"x": "X", "q": "Q"}}, {"index": {"x": "X"}, "columns": {"a": "A"}}):
        pd.testing.assert_frame_equal(e.rename(**kw).to_pandas(), df.rename(**kw))
    pd.testing.assert_frame_equal(e.rename({"y": "Y"}).to_pandas(), df.rename({"y": "Y"}))
    pd.testing.assert_frame_equal(e.rename(index=str.upper).to_pandas(), df.rename(index=str.upper))
    with pytest.raises(AttributeError):
        df.rename(index=lambda s: s.str.upper())
    with pytest.raises(AttributeError):
        e.rename(index=lambda s: s.str.upper())
    ints = pd.DataFrame({"a": [1, 2, 3]})
    for mapping in ({0: 10, 2: 20}, {0: 1.5}):
        pd.testing.assert_frame_equal(
            em.from_pandas(ints).rename(index=mapping).to_pandas(), ints.rename(index=mapping)
        )
    s = pd.Series([1, 2, 3], index=["x", "y", "z"], name="n")
    pd.testing.assert_series_equal(em.from_pandas(s).rename({"x": "X"}).to_pandas(), s.rename({"x": "X"}))
    mi = pd.DataFrame({"a": [1, 2]}, index=pd.MultiIndex.from_tuples([("a", 1), ("b", 2)], names=["k", "n"]))
    for mapper in (str, {"a": "z"}, lambda v: v * 2):
        pd.testing.assert_frame_equal(
            em.from_pandas(mi).rename(index=mapper).to_pandas(), mi.rename(index=mapper)
        )


def test_concat_columns_of_frames_on_different_indexes() -> None:
    """axis=1: the union of the labels in order of first appearance ('outer'; a frame missing some
    labels turns float), or the common labels in the first frame's order ('inner', dtypes kept)."""
    a = pd.DataFrame({"x": [1, 2, 3]}, index=["c", "a", "b"])
    b = pd.DataFrame({"y": [4.0, 5.0]}, index=["b", "d"])
    c = pd.Series([7, 8], index=["d", "c"], name="z")
    full = pd.DataFrame({"w": [5, 6, 7, 8]}, index=["a", "b", "c", "d"])
    ea, eb, ec, ef = (em.from_pandas(o) for o in (a, b, c, full))
    for objs, mine in (([a, b], [ea, eb]), ([a, b, c], [ea, eb, ec]), ([a, full], [ea, ef])):
        for join in ("outer", "inner"):
            got = em.concat(mine, axis=1, join=join).to_pandas()
            pd.testing.assert_frame_equal(got, pd.concat(objs, axis=1, join=join))
    repeated = em.from_pandas(pd.DataFrame({"w": [1, 2]}, index=["a", "a"]))
    with pytest.raises(pd.errors.InvalidIndexError):
        em.concat([ea, repeated], axis=1)


@pytest.mark.parametrize("cond", [[True, True], [True, False], [False, False]], ids=str)
@pytest.mark.parametrize("other", [-9.0, -9.5, -9, np.nan], ids=str)
def test_where_of_an_int_column_with_a_float_scalar(cond, other) -> None:
    """pandas keeps an int column for a float it holds exactly, or when no row is replaced."""
    s = pd.Series([1, 2])
    e = em.from_pandas(s)
    c = em.from_pandas(pd.Series(cond))
    pd.testing.assert_series_equal(e.where(c, other).to_pandas(), s.where(cond, other))
    pd.testing.assert_series_equal(e.mask(c, other).to_pandas(), s.mask(cond, other))


def test_setitem_with_a_boolean_frame() -> None:
    """df[df < 0] = 0 and df[df.isna()] = value set the cells the frame marks."""
    for value, pick in ((0, lambda d: d < 0), (-9.0, lambda d: d.isna()), (np.nan, lambda d: d < 0)):
        df = pd.DataFrame({"a": [1, -2, 3], "b": [-1.5, 2.0, np.nan]})
        e = em.from_pandas(df)
        e[pick(e)] = value
        df[pick(df)] = value
        pd.testing.assert_frame_equal(e.to_pandas(), df)

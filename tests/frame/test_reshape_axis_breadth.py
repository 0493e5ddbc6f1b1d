"""Reshaping and axis=1 breadth against pandas: index= as a list of level arrays, swaplevel, melt of
MultiIndex columns, axis=1 scans / shifts / reductions / take, transform, describe(include=/exclude=),
stack of other column levels, unstack of a one-level index."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

LEVELS = [
    ["Final exam", "Final exam", "Coursework", "Coursework"],
    ["History", "Geography", "History", "Geography"],
    ["January", "February", "March", "April"],
]


@pytest.mark.parametrize("args", [(), (0,), (0, 1), (-1, -3), (2, 0)])
def test_swaplevel_of_index_built_from_level_lists(args):
    p = pd.DataFrame({"Grade": ["A", "B", "A", "C"]}, index=LEVELS)
    e = em.DataFrame({"Grade": ["A", "B", "A", "C"]}, index=LEVELS)
    assert_eq(e, p)
    assert_eq(e.swaplevel(*args), p.swaplevel(*args))
    ps = pd.Series([1.0, None, 3.0, 4.0], index=LEVELS)
    es = em.Series([1.0, None, 3.0, 4.0], index=LEVELS)
    assert_eq(es.swaplevel(*args), ps.swaplevel(*args))


def test_index_as_level_arrays_of_several_kinds():
    levels = [np.array([1, 2]), pd.Series(["a", "b"])]
    assert_eq(em.Series([1, 2], index=levels), pd.Series([1, 2], index=levels))
    assert_eq(em.Series(5, index=[[1, 2], ["a", "b"]]), pd.Series(5, index=[[1, 2], ["a", "b"]]))
    assert_eq(em.DataFrame(index=[[1, 2], ["a", "b"]]), pd.DataFrame(index=[[1, 2], ["a", "b"]]))
    with pytest.raises(ValueError, match="same length"):
        em.DataFrame({"a": [1, 2]}, index=[[1, 2], [1]])


def _abc_def(names=(None, None)):
    p = pd.DataFrame({"A": ["a", "b", "c"], "B": [1, 3, 5], "C": [2.0, None, 6.0]})
    p.columns = pd.MultiIndex.from_arrays([list("ABC"), list("DEF")], names=list(names))
    return p


MELT_CASES = [
    dict(col_level=0, id_vars=["A"], value_vars=["B"]),
    dict(id_vars=[("A", "D")], value_vars=[("B", "E")]),
    dict(id_vars=[("A", "D")]),
    dict(col_level=1, id_vars="D"),
    dict(col_level=1, value_vars=["F", "E"]),
    dict(id_vars=[("A", "D")], var_name=["x", "y"]),
    dict(id_vars=[("A", "D")], var_name="x"),
    dict(id_vars=[("A", "D")], value_vars=[("C", "F"), ("C", "F"), ("A", "D")]),
    dict(id_vars=[("A", "D")], ignore_index=False),
]


@pytest.mark.parametrize("names", [(None, None), ("up", "low"), ("u", "u")])
@pytest.mark.parametrize("kw", MELT_CASES)
def test_melt_multiindex_columns(kw, names):
    p = _abc_def(names)
    e = em.from_pandas(p)
    assert_eq(e.melt(**kw), p.melt(**kw))
    assert_eq(em.melt(e, **kw), pd.melt(p, **kw))


@pytest.mark.parametrize(
    "kw, exc",
    [
        (dict(id_vars=["A"]), KeyError),  # a part of a label is not a label
        (dict(id_vars=("A", "D")), ValueError),  # a tuple, not a list of tuples
        (dict(id_vars=[("X", "D")]), KeyError),
        (dict(value_name="A"), ValueError),
    ],
)
def test_melt_multiindex_columns_errors(kw, exc):
    p = _abc_def()
    with pytest.raises(exc):
        p.melt(**kw)
    with pytest.raises(exc):
        em.from_pandas(p).melt(**kw)


@pytest.mark.parametrize(
    "kw",
    [
        dict(id_vars=["A"], value_vars=["A", "B"]),  # an id named again is no value column
        dict(value_vars=["B", "B"]),  # each column once
        dict(id_vars=["A"], value_vars=["C", "B"]),
        dict(col_level=0, id_vars="A"),
        dict(id_vars=np.array(["A"])),
    ],
)
def test_melt_flat_columns_as_pandas(kw):
    p = pd.DataFrame({"A": [1, 2], "B": [3, 4], "C": [5.5, None]})
    assert_eq(em.from_pandas(p).melt(**kw), p.melt(**kw))


@pytest.mark.parametrize(
    "kw, exc",
    [
        (dict(id_vars=["A", "A"]), ValueError),
        (dict(id_vars="X"), KeyError),
        (dict(var_name=["x"]), ValueError),
        (dict(id_vars="A", var_name="A"), ValueError),
    ],
)
def test_melt_flat_columns_errors(kw, exc):
    p = pd.DataFrame({"A": [1, 2], "B": [3, 4]})
    with pytest.raises(exc):
        p.melt(**kw)
    with pytest.raises(exc):
        em.from_pandas(p).melt(**kw)


def test_melt_of_mixed_value_columns_refused():
    p = _abc_def()
    with pytest.raises(NotImplementedError):
        em.from_pandas(p).melt()

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

"""MultiIndex column labels against pandas: level dtypes kept, rename and merge suffixes part by part,
partial keys in ``df[key]`` / ``df.loc[:, key]``."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _same(fn, pdf):
    """``fn`` of the ember frame against ``fn`` of pandas: the same value or the same error type."""
    try:
        want = fn(pdf)
    except Exception as exc:  # noqa: BLE001 - the error type is what is compared
        with pytest.raises(type(exc)):
            fn(em.from_pandas(pdf))
        return
    assert_eq(fn(em.from_pandas(pdf)), want)


TYPED = pd.MultiIndex.from_arrays(
    [pd.array(["a", "b", "b", "c"], dtype="string"), pd.Index([1, 2, 3, 4], dtype="int32")], names=["p", None]
)
THREE = pd.MultiIndex.from_arrays(
    [["a", "b", "b", "c"], ["x", "y", "z", ""], [1, 2, 3, 4]], names=["p", "q", "r"]
)
BLANK = pd.MultiIndex.from_arrays([["a", "b", "b", "c"], ["x", "y", "z", ""]])
AXES = {"typed": TYPED, "three": THREE, "blank": BLANK}


@pytest.fixture(params=list(AXES))
def pdf(request):
    return pd.DataFrame(np.arange(12).reshape(3, 4), columns=AXES[request.param])


@pytest.mark.parametrize(
    "op",
    [
        lambda d: d,
        lambda d: d.copy(),
        lambda d: d.head(2),
        lambda d: d.iloc[:, 1:],
        lambda d: d + 1,
        lambda d: d.T,
        lambda d: d.reset_index(),
        lambda d: d.cumsum(),
        lambda d: d.where(d > 2),
        lambda d: d.astype("float32"),
        lambda d: d.droplevel(0, axis=1),
        lambda d: d.swaplevel(0, 1, axis=1),
        lambda d: d.rename(columns={"a": "z", 2: 5, "y": "w"}),
        lambda d: d.rename(columns={"a": "z", 2: 5}, level=1),
        lambda d: d.rename(columns={"b": "z"}, level="p"),
        lambda d: d.rename(columns=str),
    ],
)
def test_level_dtypes_and_labels_as_pandas(pdf, op):
    _same(op, pdf)


@pytest.mark.parametrize("key", ["a", "b", "c", ("b", "y"), ("c", ""), ("b", "q"), "zz"])
@pytest.mark.parametrize(
    "select",
    [lambda d, k: d[k], lambda d, k: d.loc[:, k], lambda d, k: d.loc[1:, k]],
    ids=["getitem", "loc", "loc-rows"],
)
def test_partial_keys_drop_the_named_levels(pdf, key, select):
    _same(lambda d: select(d, key), pdf)


@pytest.mark.parametrize("suffixes", [("_x", "_y"), (None, "_r")])
def test_merge_suffixes_every_part_named_in_level_zero(suffixes):
    left = pd.DataFrame(
        np.arange(9).reshape(3, 3), columns=pd.MultiIndex.from_arrays([["a", "b", "b"], [1, 2, "a"]])
    )
    right = pd.DataFrame(np.arange(6).reshape(3, 2), columns=pd.MultiIndex.from_arrays([["a", "c"], [1, 5]]))
    for lhs, rhs in [(left, left), (left, right), (right, left)]:
        got = em.from_pandas(lhs).merge(
            em.from_pandas(rhs), left_index=True, right_index=True, suffixes=suffixes
        )
        assert_eq(got, lhs.merge(rhs, left_index=True, right_index=True, suffixes=suffixes))


@pytest.mark.parametrize("dtype", ["string", "str", object])
@pytest.mark.parametrize(
    "keys",
    [
        {"index": "a", "columns": "b"},
        {"index": ["a", "b"]},
        {"index": "a", "columns": ["b", "c"]},
        {"index": "a", "columns": "b", "aggfunc": ["sum", "mean"]},
    ],
)
def test_pivot_table_margins_keep_the_column_keys_dtype(dtype, keys):
    pdf = pd.DataFrame(
        {
            "a": pd.array(["x", "y", "x"], dtype="string"),
            "b": pd.array(["p", "q", "p"], dtype=dtype),
            "c": [1, 2, 1],
            "v": [1, 2, 3],
        }
    )
    kwargs = {"aggfunc": "sum", **keys}
    got = em.from_pandas(pdf).pivot_table(values="v", margins=True, **kwargs)
    assert_eq(got, pdf.pivot_table(values="v", margins=True, **kwargs))


def test_axis_set_from_a_list_of_arrays():
    """``df.columns = [list, list]`` / ``df.index = [list, list]``: a MultiIndex, as pandas."""
    pdf = pd.DataFrame({"A": ["a", "b", "c"], "B": [1, 3, 5], "C": [2, 4, 6]})
    got = em.from_pandas(pdf)
    pdf.columns = [list("ABC"), list("DEF")]
    got.columns = [list("ABC"), list("DEF")]
    assert_eq(got, pdf)
    kw = {"col_level": 0, "id_vars": ["A"], "value_vars": ["B"]}
    assert_eq(got.melt(**kw), pdf.melt(**kw))
    pdf.index = [["x", "y", "z"], [1, 2, 3]]
    got.index = [["x", "y", "z"], [1, 2, 3]]
    assert_eq(got, pdf)

"""Reshaping and axis=1 breadth against pandas: index= as a list of level arrays, swaplevel, melt of
MultiIndex columns, axis=1 scans / shifts / reductions / take, transform, describe(include=/exclude=),
stack of other column levels, unstack of a one-level index."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
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
    if not PANDAS_31 and exc is ValueError and kw.get("id_vars") is not None:
        pytest.skip("pandas 3.0: a KeyError for repeated ids, a frame of repeated labels for var_name=id")
    p = pd.DataFrame({"A": [1, 2], "B": [3, 4]})
    with pytest.raises(exc):
        p.melt(**kw)
    with pytest.raises(exc):
        em.from_pandas(p).melt(**kw)


def test_melt_of_mixed_value_columns_refused():
    p = _abc_def()
    with pytest.raises(NotImplementedError):
        em.from_pandas(p).melt()


AXIS1_FRAMES = {
    "floats_nan": lambda: pd.DataFrame(
        {"a": [1, 2, np.nan, 4], "b": [2.0, np.nan, np.nan, 4], "c": [1, 2, 3, 4]}
    ),
    "ints": lambda: pd.DataFrame(
        [[10, 13, 17], [20, 23, 27]], columns=["Col1", "Col2", "Col3"], index=["x", "y"]
    ),
    "bools": lambda: pd.DataFrame({"a": [True, False], "b": [True, True]}),
    "int8_float32": lambda: pd.DataFrame(
        {"a": np.array([1, 2], np.int8), "b": np.array([1.0, 2.5], np.float32)}
    ),
    "uint8": lambda: pd.DataFrame({"a": np.array([1, 2], np.uint8), "b": np.array([7, 3], np.uint8)}),
    "no_rows": lambda: pd.DataFrame({"a": [1.0, 2.0], "b": [3, 4]}).iloc[:0],
    "str_float": lambda: pd.DataFrame({"a": ["x", "y"], "b": [1.5, 2.5]}),
    "infinities": lambda: pd.DataFrame({1: [3.0, np.inf], 2: [np.nan, 5], 3: [-np.inf, np.nan]}),
    "ties": lambda: pd.DataFrame({"a": [3, 1], "b": [3, 5]}, index=["r", "s"]),
    "datetimes": lambda: pd.DataFrame(
        {"a": pd.to_datetime(["2020", "2021"]), "b": pd.to_datetime(["2019", None])}
    ),
}
AXIS1_CALLS = [
    ("cumsum", {}),
    ("cumsum", dict(skipna=False)),
    ("cumprod", {}),
    ("cummin", {}),
    ("cummax", dict(skipna=False)),
    ("shift", {}),
    ("shift", dict(periods=-1)),
    ("shift", dict(periods=2)),
    ("shift", dict(periods=5)),
    ("shift", dict(periods=-7)),
    ("shift", dict(fill_value=0)),
    ("shift", dict(periods=-1, fill_value=0.5)),
    ("diff", {}),
    ("diff", dict(periods=-1)),
    ("diff", dict(periods=0)),
    ("diff", dict(periods=2.0)),
    ("diff", dict(periods=1.5)),
    ("idxmax", {}),
    ("idxmin", {}),
    ("idxmax", dict(skipna=False)),
    ("take", dict(indices=[1, 0])),
    ("take", dict(indices=[-1])),
    ("take", dict(indices=[5])),
    ("sem", {}),
    ("sem", dict(ddof=0)),
    ("nunique", {}),
    ("nunique", dict(dropna=False)),
]


@pytest.mark.parametrize("frame", list(AXIS1_FRAMES))
@pytest.mark.parametrize("name, kw", AXIS1_CALLS)
def test_axis1_as_pandas_or_refused(frame, name, kw):
    """Equal to pandas, pandas' error, or NotImplementedError (never another answer)."""
    p = AXIS1_FRAMES[frame]()
    e = em.from_pandas(p)
    try:
        want = getattr(p, name)(axis=1, **kw)
    except Exception as exc:  # pandas' error, or a refusal
        with pytest.raises((type(exc), NotImplementedError)):
            getattr(e, name)(axis=1, **kw)
        return
    try:
        got = getattr(e, name)(axis=1, **kw)
    except NotImplementedError:
        return
    assert_eq(got, want)


@pytest.mark.parametrize(
    "name, kw",
    [("cumsum", {}), ("shift", {}), ("diff", {}), ("idxmax", {}), ("take", dict(indices=[1])), ("sem", {})],
)
def test_axis1_numbers_are_answered(name, kw):
    p = pd.DataFrame({"a": [1.5, np.nan, 3.0], "b": [4, 5, 6], "c": [0.5, 9.0, np.nan]}, index=list("xyz"))
    assert_eq(getattr(em.from_pandas(p), name)(axis=1, **kw), getattr(p, name)(axis=1, **kw))
    assert_eq(getattr(em.from_pandas(p), name)(axis="columns", **kw), getattr(p, name)(axis="columns", **kw))


def test_axis1_refusals():
    e = em.from_pandas(pd.DataFrame({"a": pd.array([1, None], "Int64"), "b": pd.array([2, 3], "Int64")}))
    for call in (lambda: e.cumsum(axis=1), lambda: e.idxmax(axis=1), lambda: e.nunique(axis=1)):
        with pytest.raises(NotImplementedError):
            call()
    floats = em.from_pandas(pd.DataFrame({"a": [1.0], "b": [2.0]}))
    with pytest.raises(NotImplementedError):  # pandas' filler dtype depends on its block layout
        floats.shift(axis=1, fill_value=0)


def test_idxmax_axis1_all_missing_row_raises():
    p = pd.DataFrame({"a": [1.0, np.nan], "b": [2.0, np.nan]})
    with pytest.raises(ValueError, match="all NA"):
        p.idxmax(axis=1)
    with pytest.raises(ValueError, match="all NA"):
        em.from_pandas(p).idxmax(axis=1)


TRANSFORM_FUNCS = [
    [np.sqrt, np.exp],
    "abs",
    "sqrt",
    "cumsum",
    "shift",
    np.sqrt,
    lambda x: x + 1,
    {"a": np.abs, "b": "cumsum"},
    ["cumsum", lambda x: x * 2],
    ["abs", abs],
]


@pytest.mark.parametrize("func", TRANSFORM_FUNCS)
@pytest.mark.parametrize(
    "series",
    [pd.Series(range(3)), pd.Series([1.0, np.nan, 4.0], index=list("abc"), name="v")],
    ids=["range", "floats"],
)
def test_series_transform(series, func):
    assert_eq(em.from_pandas(series).transform(func), series.transform(func))


@pytest.mark.parametrize(
    "func, exc",
    [
        ("sum", ValueError),  # a reduction does not transform
        ("nonexist", ValueError),
        ([], ValueError),
        ({}, ValueError),
        (["abs", "abs"], pd.errors.SpecificationError),
        ({"a": {"b": "abs"}}, pd.errors.SpecificationError),
    ],
)
def test_series_transform_errors(func, exc):
    if not PANDAS_31 and func == ["abs", "abs"]:
        pytest.skip("pandas 3.0 keeps one 'abs' column; 3.1 and ember raise SpecificationError")
    p = pd.Series([1.0, 2.0])
    with pytest.raises(exc):
        p.transform(func)
    with pytest.raises(exc):
        em.from_pandas(p).transform(func)


def test_series_transform_axis1_is_pandas_error():
    with pytest.raises(ValueError, match="No axis named 1"):
        em.Series([1, 2]).transform("abs", axis=1)


@pytest.mark.parametrize(
    "make",
    [
        lambda: pd.DataFrame({"a": [1, 2], "b": [1.5, None]}, index=pd.Index(["x", "y"], name="r")),
        lambda: pd.DataFrame({"a": [1, 2], "b": [3, 4]}),
        lambda: pd.DataFrame({"a": ["u", "v"], "b": ["w", None]}, index=[3, 1]),
        lambda: pd.DataFrame({1: [1.0], 2: [2.0]}, index=pd.to_datetime(["2020-01-01"])),
        lambda: pd.DataFrame({"a": pd.array([1, None], "Int64"), "b": pd.array([3, 4], "Int64")}),
    ],
)
def test_unstack_of_one_level_index_is_a_series(make):
    p = make()
    p.columns.name = "c"
    assert_eq(em.from_pandas(p).unstack(), p.unstack())


def test_unstack_of_one_level_index_refusals_and_errors():
    mixed = pd.DataFrame({"a": pd.array([1, None], "Int64"), "b": [1.5, np.nan]})  # pandas: objects
    with pytest.raises(NotImplementedError):
        em.from_pandas(mixed).unstack()
    with pytest.raises(ValueError, match="must be a MultiIndex"):
        pd.Series([1, 2]).unstack()
    with pytest.raises(ValueError, match="must be a MultiIndex"):
        em.Series([1, 2]).unstack()

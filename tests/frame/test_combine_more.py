"""update, combine, combine_first, compare, align, first / last_valid_index, get, truncate and
squeeze of DataFrame and Series, each compared with pandas."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _both(obj):
    return em.from_pandas(obj), obj


# --- first / last_valid_index ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "obj",
    [
        pd.Series([None, 3, 4]),
        pd.Series([np.nan, np.nan]),
        pd.Series([], dtype=float),
        pd.Series([1, None, 2, None], dtype="Int64", index=list("abcd")),
        pd.Series(["x", None], index=[5, 7]),
        pd.DataFrame({"A": [None, None, 2], "B": [None, 3, 4]}),
        pd.DataFrame({"A": [None, None, None], "B": [None, None, None]}, dtype=float),
        pd.DataFrame(),
    ],
)
def test_first_last_valid_index(obj):
    e = em.from_pandas(obj)
    assert e.first_valid_index() == obj.first_valid_index()
    assert e.last_valid_index() == obj.last_valid_index()


# --- get ------------------------------------------------------------------------------------------
def test_get():
    pdf = pd.DataFrame({"a": [1, 2], "b": [3.0, 4.0]}, index=["x", "y"])
    df = em.from_pandas(pdf)
    assert_eq(df.get("a"), pdf.get("a"))
    assert_eq(df.get(["a", "b"]), pdf.get(["a", "b"]))
    assert df.get("z") is None
    assert df.get(["a", "z"], default="d") == "d"
    s, ps = _both(pd.Series([1, 2, 3], index=[10, 20, 30]))
    assert s.get(20) == ps.get(20)
    assert s.get(5, "none") == "none"
    assert_eq(s.get([10, 30]), ps.get([10, 30]))


# --- squeeze --------------------------------------------------------------------------------------
def test_squeeze():
    pdf = pd.DataFrame([[1, 2], [3, 4]], columns=["a", "b"])
    df = em.from_pandas(pdf)
    assert_eq(df.squeeze(), pdf.squeeze())
    assert_eq(df[["a"]].squeeze("columns"), pdf[["a"]].squeeze("columns"))
    assert_eq(df[["a"]].squeeze(), pdf[["a"]].squeeze())
    assert_eq(df.iloc[:1].squeeze("rows"), pdf.iloc[:1].squeeze("rows"))
    assert_eq(df.iloc[:1].squeeze(), pdf.iloc[:1].squeeze())
    assert df.iloc[:1, :1].squeeze() == pdf.iloc[:1, :1].squeeze()
    assert_eq(df.iloc[:1, :1].squeeze("rows"), pdf.iloc[:1, :1].squeeze("rows"))
    assert_eq(df.iloc[:1, :1].squeeze("columns"), pdf.iloc[:1, :1].squeeze("columns"))
    s, ps = _both(pd.Series([2]))
    assert s.squeeze() == ps.squeeze()
    s, ps = _both(pd.Series([2, 3]))
    assert_eq(s.squeeze(), ps.squeeze())


# --- truncate -------------------------------------------------------------------------------------
def test_truncate():
    pdf = pd.DataFrame({"A": list("abcde"), "B": list("fghij"), "C": list("klmno")}, index=[1, 2, 3, 4, 5])
    df = em.from_pandas(pdf)
    assert_eq(df.truncate(before=2, after=4), pdf.truncate(before=2, after=4))
    assert_eq(df.truncate(before="A", after="B", axis="columns"), pdf.truncate("A", "B", axis="columns"))
    assert_eq(df["A"].truncate(before=2, after=4), pdf["A"].truncate(before=2, after=4))
    assert_eq(df.truncate(after=3), pdf.truncate(after=3))
    rev = pdf.iloc[::-1]
    assert_eq(em.from_pandas(rev).truncate(2, 4), rev.truncate(2, 4))
    with pytest.raises(ValueError, match="must be after"):
        df.truncate(4, 2)
    unsorted = pdf.iloc[[2, 0, 1]]
    with pytest.raises(ValueError, match="sorted index"):
        em.from_pandas(unsorted).truncate(1, 2)
    dates = pd.DataFrame(
        {"A": range(10)}, index=pd.DatetimeIndex(pd.date_range("2016-01-01", periods=10).tolist())
    )
    ed = em.from_pandas(dates)
    assert_eq(ed.truncate("2016-01-05", "2016-01-08"), dates.truncate("2016-01-05", "2016-01-08"))
    ts = pd.Timestamp("2016-01-03")
    assert_eq(ed.truncate(before=ts), dates.truncate(before=ts))


# --- update ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "left, right",
    [
        ({"A": [1, 2, 3], "B": [400, 500, 600]}, {"B": [4, 5, 6], "C": [7, 8, 9]}),
        ({"A": ["a", "b", "c"], "B": ["x", "y", "z"]}, {"B": ["d", "e", "f", "g", "h", "i"]}),
        ({"A": [1, 2, 3], "B": [400, 500, 600]}, {"B": [4, np.nan, 6]}),
        ({"A": [1.5, np.nan, 3], "B": [1, 2, 3]}, {"A": [np.nan, 2.0, np.nan]}),
    ],
)
def test_frame_update(left, right):
    pdf, other = pd.DataFrame(left), pd.DataFrame(right)
    df = em.from_pandas(pdf)
    assert df.update(em.from_pandas(other)) is None
    pdf.update(other)
    assert_eq(df, pdf)


def test_frame_update_options():
    pdf = pd.DataFrame({"A": [1.0, np.nan, 3.0], "B": [4.0, 5.0, np.nan]}, index=[0, 1, 2])
    other = pd.DataFrame({"A": [10.0, 20.0], "B": [np.nan, 50.0]}, index=[1, 2])
    for kwargs in [{}, {"overwrite": False}, {"filter_func": lambda x: x > 2}]:
        p, e = pdf.copy(), em.from_pandas(pdf)
        p.update(other, **kwargs)
        e.update(em.from_pandas(other), **kwargs)
        assert_eq(e, p)
    e = em.from_pandas(pdf)
    with pytest.raises(ValueError, match="Data overlaps"):
        e.update(em.from_pandas(other), errors="raise")
    with pytest.raises(NotImplementedError):
        e.update(em.from_pandas(other), join="outer")
    p, e = pdf.copy(), em.from_pandas(pdf)
    col = pd.Series([7.0, 8.0], name="B", index=[0, 2])
    p.update(col)
    e.update(em.from_pandas(col))
    assert_eq(e, p)


def test_frame_update_lossy_float_into_int_raises():
    pdf = pd.DataFrame({"B": [1, 2]})
    df = em.from_pandas(pdf)
    with pytest.raises(TypeError):
        pdf.update(pd.DataFrame({"B": [1.5, 2.0]}))
    with pytest.raises(TypeError):
        df.update(em.from_pandas(pd.DataFrame({"B": [1.5, 2.0]})))


@pytest.mark.parametrize(
    "values, other",
    [
        ([1, 2, 3], pd.Series([4, 5, 6])),
        (["a", "b", "c"], pd.Series(["d", "e"], index=[0, 2])),
        ([1, 2, 3], pd.Series([4, 5, 6, 7, 8])),
        ([1, 2, 3], pd.Series([4, np.nan, 6])),
        ([1.5, np.nan, 3.0], pd.Series([np.nan, 2.0, np.nan])),
        ([1, None, 3], pd.Series([np.nan, 5, np.nan], dtype="Int64")),
    ],
)
def test_series_update(values, other):
    ps = pd.Series(values, dtype="Int64" if other.dtype == "Int64" else None)
    s = em.from_pandas(ps)
    assert s.update(em.from_pandas(other)) is None
    ps.update(other)
    assert_eq(s, ps)


def test_series_update_list_and_dict():
    ps = pd.Series([1, 2, 3])
    s = em.from_pandas(ps)
    s.update([4, np.nan, 6])
    ps.update([4, np.nan, 6])
    assert_eq(s, ps)
    s.update({1: 9})
    ps.update({1: 9})
    assert_eq(s, ps)


# --- combine / combine_first -----------------------------------------------------------------------
def _take_smaller(a, b):
    return a if a.sum() < b.sum() else b


@pytest.mark.parametrize(
    "left, right",
    [
        ({"A": [0, 0], "B": [4, 4]}, {"A": [1, 1], "B": [3, 3]}),
        ({"A": [5, 0], "B": [2, 4]}, {"A": [1, 1], "B": [3, 3]}),
        ({"A": [0, 0], "B": [None, 4]}, {"A": [1, 1], "B": [3, 3]}),
        ({"A": [0, 0], "B": [4, 4]}, {"B": [3, 3], "C": [-10, 1]}),
        ({"B": [3, 3], "C": [1, 1]}, {"A": [0, 0], "B": [4, 4]}),
    ],
)
@pytest.mark.parametrize("kwargs", [{}, {"fill_value": -5}, {"overwrite": False}])
def test_frame_combine(left, right, kwargs):
    p1, p2 = pd.DataFrame(left), pd.DataFrame(right)
    for func in [_take_smaller, np.minimum, lambda a, b: a + b]:
        expected = p1.combine(p2, func, **kwargs)
        assert_eq(em.from_pandas(p1).combine(em.from_pandas(p2), func, **kwargs), expected)


def test_frame_combine_other_rows():
    p1 = pd.DataFrame({"A": [0, 0], "B": [4, 4]})
    p2 = pd.DataFrame({"B": [3, 3], "C": [1, 1]}, index=[1, 2])
    assert_eq(em.from_pandas(p1).combine(em.from_pandas(p2), _take_smaller), p1.combine(p2, _take_smaller))


def test_frame_combine_scalar_function_refused():
    df = em.from_pandas(pd.DataFrame({"A": [1, 2]}))
    with pytest.raises(NotImplementedError):
        df.combine(df, lambda a, b: a if a < b else b)


@pytest.mark.parametrize(
    "left, right, right_index",
    [
        ({"A": [None, 0], "B": [None, 4]}, {"A": [1, 1], "B": [3, 3]}, None),
        ({"A": [None, 0], "B": [4, None]}, {"B": [3, 3], "C": [1, 1]}, [1, 2]),
        ({"A": [1.5, None], "B": ["x", None]}, {"A": [2.5, 3.5], "B": ["y", "z"]}, None),
        ({"A": [1, 2]}, {"A": [5.5, 6.5]}, None),
    ],
)
def test_frame_combine_first(left, right, right_index):
    p1, p2 = pd.DataFrame(left), pd.DataFrame(right, index=right_index)
    assert_eq(em.from_pandas(p1).combine_first(em.from_pandas(p2)), p1.combine_first(p2))


# --- compare --------------------------------------------------------------------------------------
COMPARE_KWARGS = [
    {},
    {"result_names": ("left", "right")},
    {"align_axis": 0},
    {"keep_equal": True},
    {"keep_shape": True},
    {"keep_shape": True, "keep_equal": True},
]


@pytest.mark.parametrize("kwargs", COMPARE_KWARGS)
def test_frame_compare(kwargs):
    pdf = pd.DataFrame(
        {"col1": ["a", "a", "b", "b", "a"], "col2": [1.0, 2.0, 3.0, np.nan, 5.0], "col3": [1, 2, 3, 4, 5]}
    )
    p2 = pdf.copy()
    p2.loc[0, "col1"] = "c"
    p2.loc[2, "col3"] = 4
    assert_eq(em.from_pandas(pdf).compare(em.from_pandas(p2), **kwargs), pdf.compare(p2, **kwargs))


@pytest.mark.parametrize("kwargs", COMPARE_KWARGS)
def test_series_compare(kwargs):
    s1 = pd.Series(["a", "b", "c", "d", "e"], index=list("vwxyz"))
    s2 = pd.Series(["a", "a", "c", "b", "e"], index=list("vwxyz"))
    assert_eq(em.from_pandas(s1).compare(em.from_pandas(s2), **kwargs), s1.compare(s2, **kwargs))


def test_compare_mislabeled_raises():
    a = em.from_pandas(pd.DataFrame({"a": [1, 2]}))
    b = em.from_pandas(pd.DataFrame({"b": [1, 2]}))
    with pytest.raises(ValueError, match="identically-labeled"):
        a.compare(b)
    with pytest.raises(ValueError, match="identically-labeled"):
        a["a"].compare(em.from_pandas(pd.Series([1, 2], index=[5, 6])))


# --- align ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("join", ["outer", "inner", "left", "right"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_frame_align(join, axis):
    pdf = pd.DataFrame([[1, 2, 3, 4], [6, 7, 8, 9]], columns=["D", "B", "E", "A"], index=[1, 2])
    other = pd.DataFrame(
        [[10, 20, 30, 40], [60, 70, 80, 90], [600, 700, 800, 900]],
        columns=["A", "B", "C", "D"],
        index=[2, 3, 4],
    )
    left, right = em.from_pandas(pdf).align(em.from_pandas(other), join=join, axis=axis)
    eleft, eright = pdf.align(other, join=join, axis=axis)
    assert_eq(left, eleft)
    assert_eq(right, eright)


@pytest.mark.parametrize("join", ["outer", "inner", "left", "right"])
def test_series_align(join):
    s1 = pd.Series([1.0, 2.0, 3.0], index=["a", "b", "c"], name="x")
    s2 = pd.Series([10, 20], index=["c", "d"])
    for kwargs in [{}, {"fill_value": 0}]:
        left, right = em.from_pandas(s1).align(em.from_pandas(s2), join=join, **kwargs)
        eleft, eright = s1.align(s2, join=join, **kwargs)
        assert_eq(left, eleft)
        assert_eq(right, eright)


# --- clip with list-like / Series bounds ----------------------------------------------------------
CLIP_FRAME = pd.DataFrame(
    {"c0": [9, -3, 0, -1, 5], "c1": [-2, -7, 6, 8, -5], "c2": [0.5, np.nan, 2.5, -9.0, 4.0]}
)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (([-2, -1, 0], [4, 5, 1]), {}),
        (([-2, -1, 0],), {"axis": 1}),
        ((pd.Series([2, -4, -1, 6, 3]), pd.Series([6, 0, 3, 10, 7])), {"axis": 0}),
        ((pd.Series([2.0, np.nan, -1, 6, 3]),), {"axis": 0}),
        ((None, pd.Series([2.0, np.nan, -1, 6, 3])), {"axis": "index"}),
        (([1.5, np.nan, 0.0],), {}),
        ((-4, 6), {}),
        ((np.nan, 6), {}),
    ],
)
def test_frame_clip_bounds(args, kwargs):
    df = em.from_pandas(CLIP_FRAME)
    eargs = [em.from_pandas(a) if isinstance(a, pd.Series) else a for a in args]
    assert_eq(df.clip(*eargs, **kwargs), CLIP_FRAME.clip(*args, **kwargs))


def test_series_clip_bounds():
    ps = pd.Series([9, -3, 0, -1, 5])
    s = em.from_pandas(ps)
    assert_eq(s.clip([0, 0, 1, 1, 1], [3, 3, 3, 3, 3]), ps.clip([0, 0, 1, 1, 1], [3, 3, 3, 3, 3]))
    bound = pd.Series([1.0, np.nan, 2.0, 0.0, np.nan])
    assert_eq(s.clip(em.from_pandas(bound)), ps.clip(bound))
    with pytest.raises(ValueError):
        em.from_pandas(CLIP_FRAME).clip([1, 2])


# --- sort keys ------------------------------------------------------------------------------------
def test_sort_index_key():
    pdf = pd.DataFrame({"a": [4, 3, 2, 1]}, index=["A", "b", "C", "d"])
    df = em.from_pandas(pdf)
    for ascending in (True, False):
        key = lambda x: x.str.lower()  # noqa: E731
        assert_eq(df.sort_index(key=key, ascending=ascending), pdf.sort_index(key=key, ascending=ascending))
        assert_eq(
            df["a"].sort_index(key=key, ascending=ascending),
            pdf["a"].sort_index(key=key, ascending=ascending),
        )
    num = pd.Series([1, 2, 3, 4], index=[3, -1, 2, -4])
    assert_eq(em.from_pandas(num).sort_index(key=abs), num.sort_index(key=abs))


def test_frame_sort_values_key():
    pdf = pd.DataFrame({"col4": ["a", "B", "c", "D", "e", "F"], "n": [1, -5, 3, -2, 0, 2]})
    df = em.from_pandas(pdf)
    lower = lambda col: col.str.lower()  # noqa: E731
    assert_eq(df.sort_values(by="col4", key=lower), pdf.sort_values(by="col4", key=lower))
    mixed = lambda col: col.abs() if col.name == "n" else col  # noqa: E731
    assert_eq(df.sort_values(by=["n", "col4"], key=mixed), pdf.sort_values(by=["n", "col4"], key=mixed))
    assert_eq(
        df.sort_values(by="n", key=np.sin, ascending=False),
        pdf.sort_values(by="n", key=np.sin, ascending=False),
    )


SORTABLE = pd.Series([3, -1, None, 2, -5], index=list("abcde"), name="v", dtype="float64")


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"key": abs},
        {"key": lambda x: -x, "ascending": False},
        {"ascending": [False]},
        {"na_position": "first", "key": np.abs},
        {"ignore_index": True, "key": abs},
        {"key": lambda x: x.index.str.len() * 0 + x},  # the key sees the Series' own labels
        {"ascending": "x"},
        {"ascending": [True, False]},
        {"axis": 1},
        {"key": lambda x: x[:2]},
    ],
)
def test_series_sort_values_key(kwargs):
    try:
        want = SORTABLE.sort_values(**kwargs)
    except ValueError as err:
        with pytest.raises(ValueError, match=str(err)[:20]):
            em.from_pandas(SORTABLE).sort_values(**kwargs)
        return
    assert_eq(em.from_pandas(SORTABLE).sort_values(**kwargs), want)


def test_series_sort_values_key_inplace_and_strings():
    s, e = SORTABLE.copy(), em.from_pandas(SORTABLE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas 3.1 deprecates inplace=
        s.sort_values(inplace=True, key=abs)
        e.sort_values(inplace=True, key=abs)
    assert_eq(e, s)
    t = pd.Series(["b", "A", "c"], dtype="str")
    lower = lambda x: x.str.lower()  # noqa: E731
    assert_eq(em.from_pandas(t).sort_values(key=lower), t.sort_values(key=lower))

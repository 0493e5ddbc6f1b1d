"""reindex with a fill method, isin against a DataFrame / Series, stack of any column level:
ember against pandas."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq


def both(call, pobj):
    """ember's and pandas' result of ``call``, or both raise the same error type."""
    eobj = em.from_pandas(pobj)
    try:
        expected = call(pobj)
    except Exception as exc:  # pandas raises: ember raises the same type
        with pytest.raises(type(exc)):
            call(eobj)
        return
    assert_eq(call(eobj), expected)


SERIES = {
    "int": pd.Series([1, 2, 3, 4], index=[10, 20, 30, 40]),
    "float_nan": pd.Series([1.5, np.nan, 3.0, 4.0], index=[1.0, 2.0, 3.0, 4.0]),
    "Int64": pd.Series([1, None, 3, 4], index=[10, 20, 30, 40], dtype="Int64"),
    "str": pd.Series(["a", None, "c", "d"], index=[10, 20, 30, 40]),
    "bool": pd.Series([True, False, True, False], index=[10, 20, 30, 40]),
    "desc": pd.Series([1, 2, 3, 4], index=[40, 30, 20, 10]),
    "cat": pd.Series(pd.Categorical(["x", "y", "x", "z"]), index=[10, 20, 30, 40]),
    "boolean": pd.Series([True, None, False, True], index=[10, 20, 30, 40], dtype="boolean"),
}


@pytest.mark.parametrize("name", list(SERIES))
@pytest.mark.parametrize("method", ["ffill", "pad", "bfill", "backfill", "nearest"])
@pytest.mark.parametrize("limit", [None, 1])
def test_series_reindex_method(name, method, limit):
    s = SERIES[name]
    labels = [5, 10, 15, 20, 25, 27, 33, 40, 45, 50]
    if name == "float_nan":
        labels = [0.5, 1.0, 1.2, 2.5, 3.9, 4.0, 7.0]
    both(lambda o: o.reindex(labels, method=method, limit=limit), s)


@pytest.mark.parametrize("method", ["ffill", "bfill", "nearest"])
@pytest.mark.parametrize("tolerance", [None, 3, [1, 2, 3, 4, 5]])
def test_reindex_tolerance(method, tolerance):
    s = SERIES["int"]
    both(lambda o: o.reindex([8, 12, 19, 33, 47], method=method, tolerance=tolerance), s)


def test_reindex_method_datetime_index():
    idx = pd.date_range("2024-01-01", periods=4, freq="2D")
    df = pd.DataFrame({"a": [1, 2, 3, 4], "b": ["w", "x", None, "z"]}, index=idx)
    new = pd.DatetimeIndex(list(pd.date_range("2023-12-31", periods=10, freq="D")))  # no freq
    for method in ["ffill", "bfill", "nearest"]:
        both(lambda o, method=method: o.reindex(new, method=method), df)
        both(lambda o, method=method: o[["a"]].reindex(index=new, method=method, limit=1, fill_value=0), df)
    both(lambda o: o.reindex(new, method="ffill", tolerance=pd.Timedelta("1D")), df)


def test_reindex_method_string_index():
    df = pd.DataFrame({"a": [1.0, 2.0, np.nan]}, index=["b", "d", "f"])
    for method in ["ffill", "bfill"]:
        both(lambda o, method=method: o.reindex(["a", "c", "d", "g"], method=method), df)
    both(lambda o: o.reindex(["a", "c"], method="nearest"), df)


def test_reindex_method_errors():
    unsorted = pd.Series([1, 2, 3], index=[30, 10, 20])
    both(lambda o: o.reindex([1, 2], method="ffill"), unsorted)
    both(lambda o: o.reindex([30, 10, 20], method="ffill"), unsorted)  # same labels: no lookup
    both(lambda o: o.reindex([1, 2], limit=1), SERIES["int"])
    both(lambda o: o.reindex([1, 2], tolerance=1), SERIES["int"])
    both(lambda o: o.reindex([1, 2], method="spline"), SERIES["int"])
    both(lambda o: o.reindex([1, 2], method="ffill"), pd.Series([1, 2, 3], index=[10, 10, 20]))


def test_reindex_method_frame_fill_value_and_empty():
    df = pd.DataFrame({"a": [1, 2], "b": [0.5, None]}, index=[1, 3])
    both(lambda o: o.reindex([0, 1, 2, 4], method="bfill", fill_value=-1), df)
    both(lambda o: o.reindex([], method="ffill"), df)
    both(lambda o: o.reindex([0, 1], method="ffill"), df.iloc[:0])
    both(lambda o: o.reindex(columns=["a", "c"], method="ffill"), df)


def test_reindex_method_multiindex():
    mi = pd.MultiIndex.from_tuples([(1, "a"), (1, "c"), (2, "b")])
    s = pd.Series([1, 2, 3], index=mi)
    new = pd.MultiIndex.from_tuples([(1, "b"), (1, "d"), (0, "z"), (3, "a")])
    both(lambda o: o.reindex(new, method="ffill"), s)
    both(lambda o: o.reindex(new, method="bfill"), s)


# --- DataFrame.isin of a DataFrame / Series -------------------------------------------------------

FRAME = pd.DataFrame(
    {
        "A": [1, 2, 3, 4],
        "B": ["a", None, "f", "b"],
        "C": pd.array([1, None, 3, 4], dtype="Int64"),
        "D": [1.5, np.nan, 2.0, 0.0],
        "E": [True, False, True, False],
        "F": pd.to_datetime(["2024-01-01", None, "2024-01-03", "2024-01-04"]),
    },
    index=[0, 1, 2, 3],
)


@pytest.mark.parametrize(
    "other",
    [
        pd.DataFrame(
            {
                "A": [1, 3, 3, 2],
                "B": ["e", "f", "f", None],
                "C": [1, 2, 3, 4],
                "D": [1.5, np.nan, 2.0, 1.0],
                "F": pd.to_datetime(["2024-01-01", None, "2024-01-03", "2024-01-05"]),
                "Z": [1, 2, 3, 4],
            },
            index=[0, 1, 2, 7],
        ),
        pd.DataFrame({"A": [4, 3, 2, 1], "E": [False, True, True, False]}, index=[3, 2, 1, 0]),
        pd.DataFrame({"A": pd.array([1, None], dtype="Int64")}, index=[0, 1]),
        pd.DataFrame(),
        pd.DataFrame({"A": [1, 1]}, index=[0, 0]),  # duplicate index: ValueError
        pd.DataFrame([[1, 2]], columns=["A", "A"]),  # duplicate columns: ValueError
    ],
)
def test_isin_frame(other):
    eframe = em.from_pandas(FRAME)
    try:
        expected = FRAME.isin(other)
    except ValueError:
        with pytest.raises(ValueError, match="duplicate axis"):
            eframe.isin(other)
        return
    assert_eq(eframe.isin(em.from_pandas(other)), expected)
    assert_eq(eframe.isin(other), expected)  # a pandas frame of values


@pytest.mark.parametrize(
    "other",
    [
        pd.Series([1, 2, 9], index=[0, 1, 7]),
        pd.Series([1.5, np.nan, 3.0, 0.0], index=[0, 1, 2, 3]),
        pd.Series(["a", "x"], index=[0, 1]),
        pd.Series([], dtype="int64"),
        pd.Series([1, 1], index=[0, 0]),
    ],
)
def test_isin_series(other):
    frame = FRAME[["A", "C", "D"]]
    eframe = em.from_pandas(frame)
    try:
        expected = frame.isin(other)
    except ValueError:
        with pytest.raises(ValueError, match="duplicate axis"):
            eframe.isin(em.from_pandas(other))
        return
    assert_eq(eframe.isin(em.from_pandas(other)), expected)


def test_isin_frame_duplicate_self_labels_and_empty():
    frame = pd.DataFrame({"a": [1, 2, 3]}, index=[5, 5, 6])
    other = pd.DataFrame({"a": [1, 3]}, index=[5, 6])
    assert_eq(em.from_pandas(frame).isin(em.from_pandas(other)), frame.isin(other))
    empty = frame.iloc[:0]
    assert_eq(em.from_pandas(empty).isin(em.from_pandas(other)), empty.isin(other))


# --- DataFrame.stack of any column level ----------------------------------------------------------


def _two_level(names=("up", "low")):
    cols = pd.MultiIndex.from_tuples([("b", "y"), ("a", "x"), ("b", "x"), ("a", "z")], names=names)
    return pd.DataFrame(np.arange(8).reshape(2, 4), columns=cols, index=["r1", "r0"])


def _mixed():
    cols = pd.MultiIndex.from_tuples([("k", 1), ("k", 2), ("m", 1), ("m", 2), ("n", 2)], names=[None, "i"])
    return pd.DataFrame(
        {
            ("k", 1): [1.5, np.nan, 3.0],
            ("k", 2): [0.5, 1.0, np.nan],
            ("m", 1): pd.array([1, None, 3], dtype="Int64"),
            ("m", 2): pd.array([4, 5, None], dtype="Int64"),
            ("n", 2): pd.array([0.5, None, 2.5], dtype="Float64"),
        },
        index=pd.MultiIndex.from_tuples([(0, "a"), (0, "b"), (1, "a")], names=["o", "q"]),
    )[cols]


def _three_level():
    cols = pd.MultiIndex.from_tuples(
        [("a", "x", 1), ("a", "y", 2), ("b", "x", 2), ("b", "y", 1), ("a", "x", 2)], names=["L0", "L1", "L2"]
    )
    return pd.DataFrame(np.arange(15, dtype="int64").reshape(3, 5), columns=cols)


def _typed():
    cols = pd.MultiIndex.from_tuples([("d", "t"), ("d", "u"), ("c", "t"), ("c", "u"), ("f", "t"), ("f", "u")])
    return pd.DataFrame(
        {
            ("d", "t"): pd.to_datetime(["2024-01-01", None]),
            ("d", "u"): pd.to_datetime(["2024-02-01", "2024-03-01"]),
            ("c", "t"): pd.Categorical(["x", "y"]),
            ("c", "u"): pd.Categorical(["x", "y"]),
            ("f", "t"): [False, False],
            ("f", "u"): [True, False],
        }
    )[cols]


FRAMES = {
    "two": _two_level,
    "unnamed": lambda: _two_level((None, None)),
    "mixed": _mixed,
    "three": _three_level,
}


@pytest.mark.parametrize("name", list(FRAMES))
@pytest.mark.parametrize("level", [0, 1, -1, -2, 2, -3, [0], [1], [0, 1], [1, 0], [0, 1, 2], [2, 0, 1]])
def test_stack_level(name, level):
    both(lambda o: o.stack(level=level), FRAMES[name]())


@pytest.mark.parametrize("level", ["up", "low", "zz", ["low"], ["low", "up"]])
def test_stack_level_names(level):
    both(lambda o: o.stack(level=level), _two_level())


def test_stack_typed_and_empty():
    both(lambda o: o.stack(level=1), _typed())
    assert _typed().stack(level=0).dtypes.eq(object).all()  # pandas: objects, refused
    with pytest.raises(NotImplementedError):
        em.from_pandas(_typed()).stack(level=0)
    frame = _two_level()
    both(lambda o: o.iloc[:0].stack(level=0), frame[[("a", "x"), ("a", "z")]])


def test_stack_single_level_columns():
    frame = pd.DataFrame({"a": [1, 2], "b": [3, 4]})
    frame.columns.name = "nm"
    for level in [0, -1, "nm", [0], 1, "zz"]:
        both(lambda o, level=level: o.stack(level=level), frame)
    with pytest.raises(ValueError, match="dropna must be unspecified"):
        em.from_pandas(_two_level()).stack(level=0, dropna=True)


@pytest.mark.parametrize("frame", [_two_level, _three_level])
def test_stack_duplicate_levels(frame):
    # pandas 3.0 fails inside (AssertionError / InvalidIndexError); 3.1 raises this ValueError
    if PANDAS_31:
        with pytest.raises(ValueError, match="duplicate values"):
            frame().stack(level=[0, 0])
    with pytest.raises(ValueError, match="duplicate values"):
        em.from_pandas(frame()).stack(level=[0, 0])


def test_stack_single_level_mixed_dtypes():
    # pandas reshapes frame._values: int with float is float64, a masked or bool mix is objects
    frame = pd.DataFrame({"a": [1, 2], "b": [0.5, np.nan], "c": [3, 4]})
    both(lambda o: o.stack(), frame)
    both(lambda o: o[["a", "c"]].stack(), frame)
    masked = pd.DataFrame({"a": [np.nan, 1.5], "b": pd.array([1, None], dtype="Int64")})
    assert masked.stack().dtype == object
    with pytest.raises(NotImplementedError):
        em.from_pandas(masked).stack()
    same = masked.astype("Float64")
    both(lambda o: o.stack(), same)


def test_stack_strings_missing_combination():
    cols = pd.MultiIndex.from_tuples([("s", "t"), ("s", "u"), ("v", "u")])
    frame = pd.DataFrame([["a", None, "b"], [None, "c", "d"]], columns=cols)
    for level in [0, 1, [0, 1]]:
        both(lambda o, level=level: o.stack(level=level), frame)

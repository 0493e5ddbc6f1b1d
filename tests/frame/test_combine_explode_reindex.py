"""Series.combine with vectorisable functions, and DataFrame.reindex(columns=, method=)."""

import operator

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

SERIES = [
    pd.Series([1, 2, 3], index=[0, 1, 2], name="x"),
    pd.Series([5, 1], index=[0, 3], name="x"),
    pd.Series([1.5, np.nan, 0], index=[2, 1, 0], name="y"),
    pd.Series([2.0, np.nan], index=["b", "a"]),
    pd.Series([2, 7], index=["c", "a"]),
]
FUNCS = [max, min, operator.add, operator.sub, operator.mul, operator.truediv, np.maximum, np.minimum, np.add]


def _combine_both(a, b, func, fill_value):
    try:
        expected = a.combine(b, func, fill_value=fill_value)
    except Exception as exc:  # noqa: BLE001 - labels of different kinds: pandas' own error
        with pytest.raises((type(exc), NotImplementedError)):
            em.from_pandas(a).combine(em.from_pandas(b) if isinstance(b, pd.Series) else b, func, fill_value)
        return
    other = em.from_pandas(b) if isinstance(b, pd.Series) else b
    try:
        result = em.from_pandas(a).combine(other, func, fill_value=fill_value)
    except NotImplementedError:
        return
    assert_eq(result, expected)


@pytest.mark.parametrize("func", FUNCS)
@pytest.mark.parametrize("fill_value", [None, 0, 1.5])
def test_series_combine_series(func, fill_value):
    for a in SERIES:
        for b in SERIES:
            _combine_both(a, b, func, fill_value)


@pytest.mark.parametrize("func", FUNCS)
@pytest.mark.parametrize("scalar", [3, 2.5, -1])
def test_series_combine_scalar(func, scalar):
    for a in SERIES:
        _combine_both(a, scalar, func, None)


def test_series_combine_max_int_with_alignment_stays_int():
    a, b = pd.Series([1, 2], index=[0, 1]), pd.Series([5], index=[0])
    assert_eq(em.from_pandas(a).combine(em.from_pandas(b), max), a.combine(b, max))


@pytest.mark.parametrize(
    "func",
    [lambda a, b: a + b, np.fmax, "max"],
)
def test_series_combine_refuses_other_functions(func):
    with pytest.raises(NotImplementedError):
        em.Series([1.0, 2.0]).combine(em.Series([2.0, 1.0]), func)


@pytest.mark.parametrize(
    "data",
    [[True, False], ["a", "b"], pd.array([1, None], dtype="Int64"), []],
)
def test_series_combine_refuses_other_dtypes_and_empty(data):
    with pytest.raises(NotImplementedError):
        em.from_pandas(pd.Series(data)).combine(3, max)


FRAME = pd.DataFrame({"a": [1, 2], "c": [1.5, 2.5], "e": ["x", "y"]})
FLOAT32 = pd.DataFrame({"a": np.array([1, 2], dtype="float32"), "c": np.array([1.5, 2.5], dtype="float32")})
NUMBERED = pd.DataFrame({1: [1, 2], 3: [1.5, 2.5], 7: [True, False]})


@pytest.mark.parametrize(
    "frame, kwargs",
    [
        (FRAME, {"columns": ["a", "b", "c", "d", "e", "f"], "method": "ffill"}),
        (FRAME, {"columns": ["0", "b", "c", "d", "f"], "method": "bfill"}),
        (FRAME, {"columns": ["0", "b", "d"], "method": "pad"}),
        (FRAME, {"columns": ["0", "b", "c", "d", "f"], "method": "ffill", "fill_value": 0}),
        (FLOAT32, {"columns": ["0", "b", "c", "d"], "method": "ffill"}),
        (NUMBERED, {"columns": list(range(9)), "method": "nearest"}),
        (NUMBERED, {"columns": list(range(9)), "method": "ffill", "limit": 1}),
        (NUMBERED, {"columns": list(range(9)), "method": "nearest", "tolerance": 1}),
        (NUMBERED, {"labels": [0, 2, 8], "axis": 1, "method": "bfill"}),
        (NUMBERED, {"columns": [], "method": "bfill"}),
        (NUMBERED[[7, 1]], {"columns": [2], "method": "ffill"}),
    ],
)
def test_reindex_columns_with_method(frame, kwargs):
    try:
        expected = frame.reindex(**kwargs)
    except ValueError as exc:  # non-monotonic labels: pandas' error
        with pytest.raises(ValueError, match=str(exc)[:20]):
            em.from_pandas(frame).reindex(**kwargs)
        return
    assert_eq(em.from_pandas(frame).reindex(**kwargs), expected)


def test_reindex_columns_method_errors():
    with pytest.raises(ValueError, match="Invalid fill method"):
        em.from_pandas(FRAME).reindex(columns=["a"], method="foo")
    with pytest.raises(NotImplementedError):
        em.from_pandas(FRAME).reindex(index=[0], columns=["a", "b"], method="ffill")

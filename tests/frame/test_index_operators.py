"""Index arithmetic, comparisons and logical operators against pandas: result type (RangeIndex where
pandas keeps one), dtype, name, and the host arrays comparisons give."""

from __future__ import annotations

import operator

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

INDEXES = {
    "range": pd.RangeIndex(5, name="r"),
    "range_step": pd.RangeIndex(2, 20, 3),
    "range_empty": pd.RangeIndex(0),
    "int": pd.Index([3, 1, 2, 2, 5], name="a"),
    "float": pd.Index([1.5, np.nan, 0.0, -2.5, 4.0], name="f"),
    "Int64": pd.Index([1, None, 3, 4, 0], dtype="Int64", name="m"),
}

ARITH = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
]
COMPARE = [operator.lt, operator.le, operator.gt, operator.ge, operator.ne, operator.eq]


def _same_index(result, expected):
    assert type(result).__name__ == type(expected).__name__, (result, expected)
    # floats to a relative 1e-12: the device's pow rounds the last bit apart from NumPy's
    floats = getattr(expected.dtype, "kind", "") == "f"
    assert_eq(result, expected, **({"check_exact": False, "rtol": 1e-12} if floats else {}))


def _same_array(result, expected):
    assert type(result) is type(expected), (type(result), type(expected))
    if isinstance(expected, np.ndarray):
        assert result.dtype == expected.dtype
        np.testing.assert_array_equal(result, expected)
    else:
        pd.testing.assert_extension_array_equal(result, expected)


@pytest.mark.parametrize("key", list(INDEXES))
@pytest.mark.parametrize("op", ARITH)
@pytest.mark.parametrize("scalar", [2, 0, -3, 1.5, 0.5])
def test_arithmetic_with_scalar(key, op, scalar):
    pidx = INDEXES[key]
    idx = em.from_pandas(pidx)
    if op is operator.pow and scalar < 0 and pidx.dtype.kind == "i" and len(pidx):
        with pytest.raises(ValueError):
            op(pidx, scalar)
        with pytest.raises(ValueError):
            op(idx, scalar)
        return
    _same_index(op(idx, scalar), op(pidx, scalar))
    if op is not operator.pow:
        _same_index(op(scalar, idx), op(scalar, pidx))


@pytest.mark.parametrize("key", list(INDEXES))
@pytest.mark.parametrize("op", COMPARE)
@pytest.mark.parametrize("scalar", [1, 2.5, -1])
def test_compare_with_scalar(key, op, scalar):
    pidx = INDEXES[key]
    idx = em.from_pandas(pidx)
    _same_array(op(idx, scalar), op(pidx, scalar))


@pytest.mark.parametrize("op", ARITH[:5] + COMPARE)
def test_index_with_index(op):
    a, b = pd.Index([1, 2, 3, 4], name="x"), pd.Index([4, 3, 2, 2], name="x")
    c = pd.RangeIndex(4, name="y")
    for left, right in [(a, b), (a, c), (c, a)]:
        expected = op(left, right)
        result = op(em.from_pandas(left), em.from_pandas(right))
        if isinstance(expected, pd.Index):
            _same_index(result, expected)
        else:
            _same_array(result, expected)


def test_list_and_array_operands():
    pidx = pd.Index([1, 2, 3], name="a")
    idx = em.from_pandas(pidx)
    _same_index(idx + [1, 2, 3], pidx + [1, 2, 3])
    _same_index(idx * np.array([1, 0, 2]), pidx * np.array([1, 0, 2]))
    _same_array(idx < [2, 2, 2], pidx < [2, 2, 2])


def test_length_mismatch_raises_as_pandas():
    idx = em.Index([1, 2, 3])
    with pytest.raises(ValueError, match="Lengths must match to compare"):
        _ = idx < em.Index([1, 2])
    with pytest.raises(ValueError, match="operands could not be broadcast"):
        idx + em.Index([1, 2])


def test_unary_operators():
    for pidx in [pd.RangeIndex(1, 6, name="r"), pd.RangeIndex(0), pd.Index([-1, 2, 0], name="i")]:
        idx = em.from_pandas(pidx)
        _same_index(-idx, -pidx)
        _same_index(~idx, ~pidx)
        _same_index(+idx, +pidx)
    pidx = pd.Index([-1.5, 2.0, np.nan])
    assert_eq(abs(em.from_pandas(pidx)), abs(pidx))


def test_bool_index_logic():
    a, b = pd.Index([True, False, True, False]), pd.Index([True, True, False, False])
    ea, eb = em.from_pandas(a), em.from_pandas(b)
    _same_index(ea & eb, a & b)
    _same_index(ea | eb, a | b)
    _same_index(ea ^ eb, a ^ b)
    _same_index(~ea, ~a)
    _same_index(ea & True, a & True)


def test_string_index():
    pidx = pd.Index(["a", "b", "a"], name="s")
    idx = em.from_pandas(pidx)
    _same_array(idx == "a", pidx == "a")
    _same_array(idx != "a", pidx != "a")
    _same_array(idx >= "b", pidx >= "b")
    _same_index(idx + "x", pidx + "x")


def test_datetime_index():
    dti = pd.date_range("2020-01-01", periods=4, freq="D", name="t")
    idx = em.from_pandas(dti)
    assert_eq(idx - pd.Timedelta("1D"), dti - pd.Timedelta("1D"))
    assert_eq(idx + pd.Timedelta("3h"), dti + pd.Timedelta("3h"))
    _same_array(idx >= pd.Timestamp("2020-01-02"), dti >= pd.Timestamp("2020-01-02"))
    assert_eq(idx - idx, dti - dti)
    tdi = pd.to_timedelta(["1D", "2D", None])
    assert_eq(em.from_pandas(tdi) * 2, tdi * 2)
    _same_array(em.from_pandas(tdi) > pd.Timedelta("1D"), tdi > pd.Timedelta("1D"))


def test_series_operand_defers_to_series():
    pidx, ps = pd.Index([1, 2, 3]), pd.Series([10, 20, 30], index=[2, 1, 0])
    assert_eq(em.from_pandas(pidx) + em.from_pandas(ps), pidx + ps)


def test_selection_by_index_operators():
    pdf = pd.DataFrame({"a": [1, 2, 3, 4], "b": list("wxyz")})
    df = em.from_pandas(pdf)
    assert_eq(df.loc[df.index < 1], pdf.loc[pdf.index < 1])
    assert_eq(df.loc[df.index < 1, ["a"]], pdf.loc[pdf.index < 1, ["a"]])
    assert_eq(df.iloc[lambda x: x.index % 2 == 0], pdf.iloc[lambda x: x.index % 2 == 0])


def test_multiindex_refused():
    mi = em.from_pandas(pd.MultiIndex.from_arrays([[1, 2], [3, 4]]))
    with pytest.raises(NotImplementedError):
        mi + 1

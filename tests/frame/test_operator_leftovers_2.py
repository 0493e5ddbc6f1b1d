"""Operators and fills: cases where ember gave an answer of its own (or raised) where pandas answers
or raises. Each case runs the same code on pandas and on ember: ember gives pandas' result or raises
pandas' exception type."""

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _check(case):
    """ember's result equals pandas', or both raise the same builtin exception type."""
    try:
        expected, error = case(pd), None
    except Exception as exc:  # noqa: BLE001 - pandas' exception type is the expectation
        expected, error = None, exc
    if error is not None:
        builtin = next(t for t in type(error).__mro__ if t.__module__ == "builtins")
        with pytest.raises(builtin):
            case(em)
        return
    assert_eq(case(em), expected)


def _s(lib, *args, **kwargs):
    return lib.Series(*args, **kwargs) if lib is pd else em.from_pandas(pd.Series(*args, **kwargs))


def _df(lib, *args, **kwargs):
    return lib.DataFrame(*args, **kwargs) if lib is pd else em.from_pandas(pd.DataFrame(*args, **kwargs))


@pytest.mark.parametrize("op", ["floordiv", "mod", "rfloordiv", "rmod"])
@pytest.mark.parametrize("dtype", ["uint8", "int64", "int32"])
def test_series_flex_int_division_by_zero_keeps_numpy_dtype(op, dtype):
    # pandas' Series flex methods apply NumPy's operator to the aligned arrays: x // 0 is 0
    def case(lib):
        a = _s(lib, [1, 42, 0, 3, 100], dtype=dtype)
        b = _s(lib, [100, 2, 0, 0, 7], dtype=dtype)
        return getattr(a, op)(b)

    _check(case)


@pytest.mark.parametrize("op", ["floordiv", "mod"])
def test_series_flex_int_division_misaligned(op):
    def case(lib):
        a = _s(lib, [1, 42, 3], dtype="uint8", index=[0, 1, 2])
        b = _s(lib, [0, 2, 0], dtype="uint8", index=[1, 2, 3])
        return getattr(a, op)(b)

    _check(case)


@pytest.mark.parametrize("op", ["__floordiv__", "__mod__"])
def test_series_int_division_operator_still_fills(op):
    def case(lib):
        a = _s(lib, [1, 42, 3], dtype="uint8")
        b = _s(lib, [100, 2, 0], dtype="uint8")
        return getattr(a, op)(b)

    _check(case)

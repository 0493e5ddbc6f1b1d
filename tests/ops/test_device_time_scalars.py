"""Numbers beside a NumPy datetime / timedelta scalar: CuPy takes no such scalar, so the device path
stands in what NumPy makes of it. Checked here against NumPy itself, so it runs on the CPU too."""

import operator

import numpy as np
import pytest

from ember.ops.binary import _numpy_time_scalar

OPS = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}
ARRAYS = {
    "int64": np.array([1, 2, 3, -5]),
    "uint8": np.array([0, 1, 5], dtype=np.uint8),
    "bool": np.array([True, False]),
    "float64": np.array([1.5, 1.0, np.nan]),
}
SCALARS = {
    "td_D": np.timedelta64(1, "D"),
    "td_ns": np.timedelta64(5, "ns"),
    "td_neg": np.timedelta64(-5, "s"),
}


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("scalar", list(SCALARS))
@pytest.mark.parametrize("kind", list(ARRAYS))
def test_stand_in_gives_numpys_answer(kind, scalar, op):
    arr, s = ARRAYS[kind], SCALARS[scalar]
    try:
        want = OPS[op](arr, s)
    except TypeError:
        want = TypeError
    stand_in = _numpy_time_scalar(s, arr.dtype, op)
    if want is TypeError:
        assert stand_in is s  # left to fail as NumPy fails
        return
    np.testing.assert_array_equal(OPS[op](arr, stand_in), want)


def test_nat_and_arithmetic_are_left_alone():
    nat = np.timedelta64("NaT", "ns")
    assert _numpy_time_scalar(nat, np.dtype(np.int64), "eq") is nat
    s = np.timedelta64(1, "D")
    assert _numpy_time_scalar(s, np.dtype(np.int64), "add") is s

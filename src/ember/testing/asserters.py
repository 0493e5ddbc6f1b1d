"""``assert_eq``: compare an ember result with the pandas result computed independently.

Ember objects (anything with ``.to_pandas()``: DataFrame, Series, Index, Column) are converted to pandas
and compared with pandas' own asserters, so a test states the pandas semantics it expects and nothing
else. Scalars compare with NaN == NaN and a float tolerance.
"""

from __future__ import annotations

import cmath
import datetime as dt
import math
import numbers
from typing import Any

import numpy as np
import pandas as pd
import pandas.testing as tm

from ember.backend import is_device_array, to_host

# pandas' defaults for assert_*_equal(check_exact=False)
_RTOL = 1e-5
_ATOL = 1e-8
_SCALAR_KWARGS = ("check_dtype", "check_exact", "rtol", "atol")


def _to_pandas(obj: Any) -> Any:
    """pandas (or NumPy) form of ``obj``; pandas and scalar inputs are returned unchanged."""
    if isinstance(obj, (pd.DataFrame, pd.Series, pd.Index, pd.api.extensions.ExtensionArray)):
        return obj
    if is_device_array(obj):
        return to_host(obj)
    if hasattr(obj, "to_pandas") and not isinstance(obj, type):
        return obj.to_pandas()
    return obj


def assert_eq(left: Any, right: Any, **kwargs: Any) -> None:
    """Assert that ``left`` (an ember object or a scalar) equals ``right`` (a pandas object or a scalar).

    DataFrames, Series and Indexes go through ``pd.testing.assert_frame_equal`` /
    ``assert_series_equal`` / ``assert_index_equal`` with ``kwargs`` passed on (``check_dtype``,
    ``check_exact``, ``rtol``, ``check_names`` ...). Arrays go through ``np.testing``; scalars compare
    with missing == missing (NaN, None, NA, NaT) and ``rtol``/``atol`` for floats. With
    ``check_dtype=True`` (the default) a scalar's kind must match too: bool vs number vs string, and
    NaN vs NA vs NaT.
    """
    left, right = _to_pandas(left), _to_pandas(right)
    if isinstance(right, pd.DataFrame) or isinstance(left, pd.DataFrame):
        _same_type(left, right, pd.DataFrame)
        tm.assert_frame_equal(left, right, **kwargs)
    elif isinstance(right, pd.Series) or isinstance(left, pd.Series):
        _same_type(left, right, pd.Series)
        tm.assert_series_equal(left, right, **kwargs)
    elif isinstance(right, pd.Index) or isinstance(left, pd.Index):
        _same_type(left, right, pd.Index)
        tm.assert_index_equal(left, right, **kwargs)
    elif isinstance(right, pd.api.extensions.ExtensionArray):
        tm.assert_extension_array_equal(left, right, **kwargs)
    elif isinstance(left, np.ndarray) or isinstance(right, np.ndarray):
        _assert_arrays(left, right, **kwargs)
    elif isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
        assert len(left) == len(right), f"lengths differ: {len(left)} != {len(right)}\n{left!r}\n{right!r}"
        for i, (a, b) in enumerate(zip(left, right, strict=True)):
            try:
                assert_eq(a, b, **kwargs)
            except AssertionError as exc:
                raise AssertionError(f"item {i} differs: {exc}") from None
    else:
        _assert_scalars(left, right, **{k: v for k, v in kwargs.items() if k in _SCALAR_KWARGS})


def _same_type(left: Any, right: Any, cls: type) -> None:
    if not (isinstance(left, cls) and isinstance(right, cls)):
        raise AssertionError(
            f"expected two {cls.__name__}s, got {type(left).__name__} and {type(right).__name__}"
        )


def _assert_arrays(
    left: Any,
    right: Any,
    check_dtype: bool = True,
    check_exact: bool = False,
    rtol: float = _RTOL,
    atol: float = _ATOL,
    **_: Any,
) -> None:
    left, right = np.asarray(left), np.asarray(right)
    if check_dtype:
        assert left.dtype == right.dtype, f"dtypes differ: {left.dtype} != {right.dtype}"
    if left.dtype == object or right.dtype == object:
        assert left.shape == right.shape, f"shapes differ: {left.shape} != {right.shape}"
        lmiss, rmiss = pd.isna(left), pd.isna(right)
        np.testing.assert_array_equal(lmiss, rmiss, err_msg="missing values differ")
        np.testing.assert_array_equal(left[~lmiss], right[~rmiss])
    elif not check_exact and left.dtype.kind in "fc" and right.dtype.kind in "fciu":
        np.testing.assert_allclose(left, right, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(left, right)


def _missing_kind(x: Any) -> str | None:
    """'NA', 'NaT', 'NaN' or 'None' for a missing scalar, None for a value."""
    if x is None:
        return "None"
    if x is pd.NA:
        return "NA"
    if x is pd.NaT or (isinstance(x, (np.datetime64, np.timedelta64)) and np.isnat(x)):
        return "NaT"
    if isinstance(x, (float, np.floating)) and math.isnan(x):
        return "NaN"
    return None


def _kind(x: Any) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, numbers.Number):
        return "number"
    if isinstance(x, (str, bytes)):
        return "string"
    if isinstance(x, (dt.datetime, np.datetime64)):
        return "datetime"
    if isinstance(x, (dt.timedelta, np.timedelta64)):
        return "timedelta"
    return type(x).__name__


def _assert_scalars(
    left: Any,
    right: Any,
    check_dtype: bool = True,
    check_exact: bool = False,
    rtol: float = _RTOL,
    atol: float = _ATOL,
) -> None:
    lmiss, rmiss = _missing_kind(left), _missing_kind(right)
    if lmiss or rmiss:
        if not (lmiss and rmiss) or (check_dtype and lmiss != rmiss):
            raise AssertionError(f"{left!r} != {right!r}")
        return
    if check_dtype and _kind(left) != _kind(right):
        raise AssertionError(f"{left!r} ({type(left).__name__}) != {right!r} ({type(right).__name__})")
    if _kind(left) == "number" and _kind(right) == "number" and not check_exact:
        if isinstance(left, numbers.Integral) and isinstance(right, numbers.Integral):
            ok = int(left) == int(right)  # exact: floats would round int64 values near the limits
        else:
            ok = cmath.isclose(complex(left), complex(right), rel_tol=rtol, abs_tol=atol)
        if not ok:
            raise AssertionError(f"{left!r} != {right!r} (rtol={rtol}, atol={atol})")
        return
    if not bool(left == right):
        raise AssertionError(f"{left!r} != {right!r}")

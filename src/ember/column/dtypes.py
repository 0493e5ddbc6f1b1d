"""ember dtypes <-> numpy / pandas / pyarrow.

A column reports the dtype pandas would show for the same data (``np.dtype('int64')``,
``pd.Int64Dtype()``, ``pd.CategoricalDtype(...)``, pandas' default string dtype ...), so ``df.dtypes``
compares equal to pandas'. This module resolves what users pass to ``astype`` / constructors.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd

NUMERIC_KINDS = "iufb"
TEMPORAL_UNITS = ("s", "ms", "us", "ns")


@functools.cache
def default_string_dtype() -> Any:
    """The dtype pandas gives a Series of str by default: ``str`` in pandas 3, ``object`` in pandas 2."""
    return pd.Series(["a"]).dtype


def is_string_dtype(dtype: Any) -> bool:
    if isinstance(dtype, pd.StringDtype):
        return True
    if isinstance(dtype, str) and dtype in ("str", "string", "unicode"):
        return True
    return dtype is str


def is_masked_extension(dtype: Any) -> bool:
    """pandas' nullable numeric/boolean dtypes (Int64, Float64, boolean ...)."""
    return isinstance(dtype, pd.api.extensions.ExtensionDtype) and isinstance(
        dtype, pd.core.dtypes.dtypes.BaseMaskedDtype
    )


def resolve(dtype: Any) -> Any:
    """A user's dtype spec as a numpy dtype or a pandas extension dtype.

    Accepts numpy dtypes and their names ('int32', 'f8', np.float64), pandas names ('Int64', 'boolean',
    'string', 'str', 'category', 'datetime64[ns]', 'datetime64[ns, UTC]') and python types.
    """
    if dtype is str or (isinstance(dtype, str) and dtype in ("str", "unicode")):
        return default_string_dtype() if default_string_dtype() != object else pd.StringDtype()
    if isinstance(dtype, str) and dtype == "string":
        return pd.StringDtype()
    if dtype is object or (isinstance(dtype, str) and dtype == "object"):
        return np.dtype(object)
    if isinstance(dtype, np.dtype):
        return dtype
    try:
        return pd.api.types.pandas_dtype(dtype)
    except TypeError as exc:
        raise TypeError(f"data type {dtype!r} not understood") from exc


def masked_numpy_dtype(dtype: Any) -> np.dtype:
    """The numpy dtype behind a pandas masked dtype (Int64 -> int64, boolean -> bool)."""
    return np.dtype(dtype.numpy_dtype)


def masked_extension_for(np_dtype: np.dtype) -> Any:
    """The pandas masked dtype for a numpy dtype (int64 -> Int64, bool -> boolean)."""
    if np_dtype.kind == "b":
        return pd.BooleanDtype()
    return pd.api.types.pandas_dtype(np_dtype.name.capitalize().replace("Uint", "UInt"))


def result_float(np_dtype: np.dtype) -> np.dtype:
    """The float dtype pandas uses for means and NaN-holding results of ``np_dtype``."""
    return np_dtype if np_dtype.kind == "f" else np.dtype("float64")

"""pandas' top-level namespace beside ember's data structures: scalars, dtypes, offsets, options and the
small functions (``isna``, ``unique``, ``array`` ...) that pandas users reach for as ``pd.<name>``.

Where pandas' object is exactly what ember needs (a scalar type, a dtype, an offset, ``NamedAgg``) it is
re-exported as it is: ``ember.Timestamp is pandas.Timestamp``. Functions that take data dispatch on it:
ember objects get ember's own answer (on the device), anything else pandas' answer.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pandas as pd

from ember import _config

# --- scalars, missing-value sentinels, dtypes and offsets: pandas' own objects ---------------------------
Timestamp = pd.Timestamp
Timedelta = pd.Timedelta
NaT = pd.NaT
NA = pd.NA
NamedAgg = pd.NamedAgg
DateOffset = pd.DateOffset
offsets = pd.offsets
CategoricalDtype = pd.CategoricalDtype
DatetimeTZDtype = pd.DatetimeTZDtype
StringDtype = pd.StringDtype
ArrowDtype = pd.ArrowDtype
BooleanDtype = pd.BooleanDtype
Int8Dtype = pd.Int8Dtype
Int16Dtype = pd.Int16Dtype
Int32Dtype = pd.Int32Dtype
Int64Dtype = pd.Int64Dtype
UInt8Dtype = pd.UInt8Dtype
UInt16Dtype = pd.UInt16Dtype
UInt32Dtype = pd.UInt32Dtype
UInt64Dtype = pd.UInt64Dtype
Float32Dtype = pd.Float32Dtype
Float64Dtype = pd.Float64Dtype

SCALARS_AND_DTYPES = (
    "Timestamp",
    "Timedelta",
    "NaT",
    "NA",
    "NamedAgg",
    "DateOffset",
    "offsets",
    "CategoricalDtype",
    "DatetimeTZDtype",
    "StringDtype",
    "ArrowDtype",
    "BooleanDtype",
    "Int8Dtype",
    "Int16Dtype",
    "Int32Dtype",
    "Int64Dtype",
    "UInt8Dtype",
    "UInt16Dtype",
    "UInt32Dtype",
    "UInt64Dtype",
    "Float32Dtype",
    "Float64Dtype",
)


def _is_ember(obj: Any) -> bool:
    return type(obj).__module__.startswith("ember.") and hasattr(obj, "to_pandas")


# --- options ------------------------------------------------------------------------------------------

# pandas' display options that ember's own repr reads from ember.config (it formats the rows it shows
# with pandas, so every other display option, precision, width, float_format ..., applies as set here)
_MIRRORED = ("display.max_rows", "display.min_rows", "display.max_columns")

options = pd.options
get_option = pd.get_option
describe_option = pd.describe_option


def _displayed() -> dict[str, Any]:
    return {k: pd.get_option(k) for k in _MIRRORED}


def _mirror(before: dict[str, Any]) -> None:
    """Hands the mirrored display options pandas changed to ember.config (None, no limit in pandas,
    is a very large limit for ember)."""
    changed = {k: v for k, v in _displayed().items() if v != before[k]}
    if changed:
        _config.set(**{k.replace(".", "__"): 2**62 if not v else v for k, v in changed.items()})


def set_option(*args: Any, **kwargs: Any) -> None:
    """pandas.set_option. ``display.max_rows``, ``display.min_rows`` and ``display.max_columns`` are
    also given to ember's repr (ember.config); the other display options act on ember's repr through
    the pandas formatter it uses."""
    before = _displayed()
    pd.set_option(*args, **kwargs)
    _mirror(before)


def reset_option(*args: Any, **kwargs: Any) -> None:
    """pandas.reset_option, mirrored to ember's repr as ``set_option``."""
    before = _displayed()
    pd.reset_option(*args, **kwargs)
    _mirror(before)


@contextlib.contextmanager
def option_context(*args: Any) -> Iterator[None]:
    """pandas.option_context; inside it ember's repr follows ``display.max_rows`` / ``min_rows`` /
    ``max_columns`` as set, and both are restored on exit."""
    saved = {k: _config.get(k) for k in _MIRRORED}
    before = _displayed()
    try:
        with pd.option_context(*args):
            _mirror(before)
            yield
    finally:
        _config.set(**{k.replace(".", "__"): v for k, v in saved.items()})


# --- missing values -------------------------------------------------------------------------------------


def isna(obj: Any) -> Any:
    """pandas.isna: an ember DataFrame / Series gives ember's ``obj.isna()``; an ember Index a boolean
    array (NumPy on the CPU, CuPy on the GPU: pandas gives a NumPy array); scalars, lists and arrays
    pandas' answer."""
    from ember.frame.index import Index, MultiIndex

    if isinstance(obj, MultiIndex):
        raise NotImplementedError("isna is not defined for MultiIndex")
    if isinstance(obj, Index):
        return obj.column.isna()
    if _is_ember(obj) and hasattr(obj, "isna"):
        return obj.isna()
    return pd.isna(obj)


def notna(obj: Any) -> Any:
    """pandas.notna: the negation of ``isna``, dispatched as it is."""
    from ember.frame.index import Index, MultiIndex

    if isinstance(obj, MultiIndex):
        raise NotImplementedError("notna is not defined for MultiIndex")
    if isinstance(obj, Index):
        return ~obj.column.isna()
    if _is_ember(obj) and hasattr(obj, "notna"):
        return obj.notna()
    return pd.notna(obj)


isnull = isna
notnull = notna


# --- unique, array -----------------------------------------------------------------------------------


def unique(values: Any) -> Any:
    """pandas.unique: values in order of appearance. An ember Series gives the array pandas.unique
    gives: NumPy (CuPy on the GPU) for NumPy data (datetimes and timedeltas too), pandas' extension
    array for nullable, string, categorical and tz-aware data; an ember Index an ember Index of its distinct values (a RangeIndex
    itself); anything else pandas' answer."""
    from ember.frame.index import Index, MultiIndex, RangeIndex
    from ember.frame.series import Series

    if isinstance(values, Series):
        out = values.unique()
        # pandas.unique hands NumPy data back as a NumPy array where Series.unique gives an extension
        # array (naive datetimes and timedeltas, objects)
        if isinstance(out, pd.arrays.NumpyExtensionArray) or (
            isinstance(out, (pd.arrays.DatetimeArray, pd.arrays.TimedeltaArray))
            and getattr(out.dtype, "tz", None) is None
        ):
            return out.to_numpy()
        return out
    if isinstance(values, RangeIndex):
        return values
    if isinstance(values, MultiIndex):
        from ember.frame._fallback import unsupported

        raise unsupported("unique", "a MultiIndex")
    if isinstance(values, Index):
        from ember.ops.factorize import unique as unique_column

        return Index._from_column(unique_column(values.column), values.name)
    if _is_ember(values):  # a DataFrame: pandas' own error
        raise TypeError(
            "unique requires a Series, Index, ExtensionArray, np.ndarray or NumpyExtensionArray "
            f"got {type(values).__name__}."
        )
    return pd.unique(values)


def array(data: Any, dtype: Any = None, copy: bool = True) -> Any:
    """pandas.array: a pandas ExtensionArray (on the host). An ember Series / Index is copied to the
    host first."""
    if _is_ember(data):
        data = data.to_pandas()
    return pd.array(data, dtype=dtype, copy=copy)


__all__ = [
    *SCALARS_AND_DTYPES,
    "array",
    "describe_option",
    "get_option",
    "isna",
    "isnull",
    "notna",
    "notnull",
    "option_context",
    "options",
    "reset_option",
    "set_option",
    "unique",
]

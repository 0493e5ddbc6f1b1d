"""Top-level functions pandas keeps in ``pandas.core.algorithms``: ``factorize``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def factorize(values: Any, sort: bool = False, use_na_sentinel: bool = True, size_hint: Any = None) -> tuple:
    """(codes, uniques) as pandas.factorize: codes a NumPy int64 array (-1 for a missing value with
    ``use_na_sentinel``, else the missing value is a unique); an ember Series gives an Index of the
    uniques (first-seen order, or sorted), as an Index does, a NumPy array an array of its dtype. ``size_hint`` is a hint only. Lists and other objects raise pandas' TypeError."""
    from ember.backend import to_host
    from ember.frame._fallback import unsupported
    from ember.frame.convert import from_pandas
    from ember.frame.index import Index, MultiIndex, RangeIndex
    from ember.frame.series import Series

    if isinstance(values, MultiIndex):
        raise unsupported("factorize", "a MultiIndex (pandas gives a MultiIndex of the uniques)")
    if isinstance(values, RangeIndex):
        raise unsupported("factorize", "a RangeIndex (pandas gives a RangeIndex of the uniques)")
    if isinstance(values, Index):  # pandas leaves the uniques unnamed
        codes, uniques = Series._from_column(values.column).factorize(sort, use_na_sentinel)
        return to_host(codes), Index._from_column(uniques.column)
    if isinstance(values, Series):
        codes, uniques = values.factorize(sort=sort, use_na_sentinel=use_na_sentinel)
        return to_host(codes), uniques
    if isinstance(values, (pd.Series, pd.Index)):
        return factorize(from_pandas(values), sort, use_na_sentinel)
    if not isinstance(values, np.ndarray) and not hasattr(values, "__cuda_array_interface__"):
        raise TypeError(
            f"factorize requires a Series, Index, ExtensionArray, np.ndarray or NumpyExtensionArray got "
            f"{type(values).__name__}."
        )
    if getattr(values, "ndim", 1) != 1:
        raise unsupported("factorize", "an array of more than one dimension")
    codes, uniques = Series(values).factorize(sort=sort, use_na_sentinel=use_na_sentinel)
    out = uniques.values
    if values.dtype.kind == "U":  # pandas gives fixed-width strings back in their dtype
        out = np.asarray(out).astype(values.dtype)
    return to_host(codes), out


_DOWNCASTS = {
    "integer": ("int8", "int16", "int32", "int64"),
    "signed": ("int8", "int16", "int32", "int64"),
    "unsigned": ("uint8", "uint16", "uint32", "uint64"),
    "float": ("float32", "float64"),
}


def to_numeric(arg: Any, errors: str = "raise", downcast: Any = None, dtype_backend: Any = None) -> Any:
    """pandas.to_numeric: an ember Series of numbers as it is; of strings parsed as pandas parses
    them (ints stay int64, anything else float64; ``errors="coerce"`` makes unparsable ones NaN),
    on the host through pandas' own parser (the strings come back as numbers). ``downcast`` picks the
    smallest dtype of the kind that holds the values as pandas' maybe_downcast_numeric does;
    ``dtype_backend="numpy_nullable"`` gives masked dtypes. An ember Index gives an Index of the same
    name, as pandas. Scalars, lists and arrays go to pandas directly."""
    from ember.column import NumericColumn, StringColumn
    from ember.frame._fallback import unsupported
    from ember.frame.convert import from_pandas
    from ember.frame.index import Index, MultiIndex
    from ember.frame.series import Series

    if errors not in ("raise", "coerce"):
        raise ValueError("invalid error value specified")
    if downcast not in (None, *_DOWNCASTS):
        raise ValueError("invalid downcasting method provided")
    if dtype_backend not in (None, "numpy_nullable", "pyarrow"):
        raise ValueError(
            f"dtype_backend {dtype_backend} is invalid, only 'numpy_nullable' and 'pyarrow' are allowed."
        )
    if isinstance(arg, MultiIndex):
        raise TypeError("Invalid object type at position 0")
    if isinstance(arg, Index):
        out = to_numeric(Series._from_column(arg.column), errors, downcast, dtype_backend)
        return Index._from_column(out._column, arg.name)
    backend = {} if dtype_backend is None else {"dtype_backend": dtype_backend}
    if not isinstance(arg, Series):
        return pd.to_numeric(arg, errors=errors, downcast=downcast, **backend)
    if dtype_backend == "pyarrow":
        raise unsupported("to_numeric", "dtype_backend='pyarrow' (ember holds no pyarrow-backed numbers)")
    if isinstance(arg._column, StringColumn):
        parsed = pd.to_numeric(arg.to_pandas(), errors=errors, downcast=downcast, **backend)
        return from_pandas(parsed.set_axis(pd.RangeIndex(len(parsed)))).set_axis(arg.index)
    col = arg._column
    if not isinstance(col, NumericColumn) or (col.mask is not None and not col.nullable):
        raise unsupported("to_numeric", f"{arg.dtype} values")
    if downcast is not None:
        col = _downcast(col, downcast)
    if dtype_backend is not None and not col.nullable:
        col = _as_masked(col)
    return arg._wrap(col) if col is not arg._column else arg.copy()


def _downcast(col: Any, how: str) -> Any:
    """pandas' downcast of a numeric column: its (valid) values tried in each dtype of the kind, the
    smallest that holds them kept; a masked column keeps its mask. Synchronizes a few times."""
    from ember.column import NumericColumn

    xp = col.xp
    data = col.data
    values = data[col.mask] if col.mask is not None else data
    if data.dtype.kind not in "iuf":  # booleans: pandas keeps them
        return col
    if how == "unsigned" and len(values) and not bool(values.min() >= 0):  # NaN is not >= 0
        return col
    for name in _DOWNCASTS[how]:
        target = np.dtype(name)
        if target.itemsize > data.dtype.itemsize:
            continue
        if target.kind == data.dtype.kind and data.dtype.itemsize <= target.itemsize and len(values):
            return col
        if _holds(xp, values, target):
            filled = data if col.mask is None else xp.where(col.mask, data, 0)
            out = filled if target.kind == "f" else _truncated(xp, filled, target)
            return NumericColumn(out.astype(target), col.mask, col.nullable, col.na)
    return col


def _truncated(xp: Any, data: Any, target: np.dtype) -> Any:
    """Values cast toward zero as NumPy's astype does (the masked slots' garbage clipped first)."""
    info = np.iinfo(target)
    return xp.trunc(xp.clip(data, info.min, info.max)) if data.dtype.kind == "f" else data


def _holds(xp: Any, values: Any, target: np.dtype) -> bool:
    """Whether ``target`` holds ``values`` as pandas' maybe_downcast_numeric judges it: integers
    exactly (floats within 1e-8 of their truncation, none missing or beyond the range), floats
    within 5e-4 (float32) / 5e-8 (float64) of the values (np.allclose: NaN matching NaN, equal
    infinities close)."""
    if not len(values):
        return True
    if target.kind in "iu":
        if values.dtype.kind == "f":
            if not bool(xp.isfinite(values).all()):
                return False
            lo, hi = float(values.min()), float(values.max())
            info = np.iinfo(target)
            if lo < info.min or hi >= float(info.max) + 1:
                return False
            return bool((xp.abs(xp.trunc(values) - values) <= 1e-8).all())
        info = np.iinfo(target)
        return int(values.min()) >= info.min and int(values.max()) <= info.max
    atol = 5e-4 if target.itemsize == 4 else 5e-8
    with np.errstate(over="ignore", invalid="ignore"):
        cast, wide = values.astype(target).astype(np.float64), values.astype(np.float64)
        close = (cast == wide) | (xp.abs(cast - wide) <= atol)  # equal infinities are close
    return bool((close | (xp.isnan(cast) & xp.isnan(wide))).all())


def _as_masked(col: Any) -> Any:
    """``dtype_backend='numpy_nullable'``: the masked dtype of the values (pandas keeps a float NaN
    as a value there, which ember's masked floats do not hold: refused)."""
    from ember.column import NumericColumn
    from ember.frame._fallback import unsupported

    if col.data.dtype.kind == "f" and bool(col.xp.isnan(col.data).any()):
        raise unsupported("to_numeric", "dtype_backend='numpy_nullable' of floats holding NaN")
    return NumericColumn(col.data, None, nullable=True)

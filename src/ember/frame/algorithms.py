"""Top-level functions pandas keeps in ``pandas.core.algorithms``: ``factorize``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def factorize(values: Any, sort: bool = False, use_na_sentinel: bool = True, size_hint: Any = None) -> tuple:
    """(codes, uniques) as pandas.factorize: an ember Series or Index gives its codes array and an
    Index of the uniques (first-seen order, or sorted); an array gives the uniques as an array."""
    from ember.frame.convert import from_pandas
    from ember.frame.index import Index
    from ember.frame.series import Series

    if isinstance(values, Series):
        return values.factorize(sort=sort, use_na_sentinel=use_na_sentinel)
    if isinstance(values, Index):
        return Series(values).factorize(sort=sort, use_na_sentinel=use_na_sentinel)
    if isinstance(values, (pd.Series, pd.Index)):
        return factorize(from_pandas(values), sort, use_na_sentinel)
    if not isinstance(values, np.ndarray) and not hasattr(values, "__cuda_array_interface__"):
        raise TypeError(
            f"factorize requires a Series, Index, ExtensionArray, np.ndarray or NumpyExtensionArray got "
            f"{type(values).__name__}."
        )
    codes, uniques = Series(values).factorize(sort=sort, use_na_sentinel=use_na_sentinel)
    return codes, uniques.values


def to_numeric(arg: Any, errors: str = "raise", downcast: Any = None, dtype_backend: Any = None) -> Any:
    """pandas.to_numeric: an ember Series of numbers as it is; of strings parsed as pandas parses
    them (ints stay int64, anything else float64; ``errors="coerce"`` makes unparsable ones NaN),
    on the host through pandas' own parser (the strings come back as numbers). An ember Index gives
    an Index of the same name, as pandas. Scalars, lists and arrays go to pandas directly."""
    from ember.column import NumericColumn, StringColumn
    from ember.frame._fallback import unsupported
    from ember.frame.convert import from_pandas
    from ember.frame.index import Index, MultiIndex
    from ember.frame.series import Series

    if errors not in ("raise", "coerce"):
        raise ValueError("invalid error value specified")
    if isinstance(arg, MultiIndex):
        raise TypeError("Invalid object type at position 0")
    if isinstance(arg, Index):
        out = to_numeric(Series._from_column(arg.column), errors, downcast, dtype_backend)
        return Index._from_column(out._column, arg.name)
    if not isinstance(arg, Series):
        return pd.to_numeric(arg, errors=errors, downcast=downcast)
    if downcast is not None or dtype_backend is not None:
        raise unsupported("to_numeric", "downcast= / dtype_backend=")
    if isinstance(arg._column, NumericColumn):
        return arg.copy()
    if not isinstance(arg._column, StringColumn):
        raise unsupported("to_numeric", f"{arg.dtype} values")
    parsed = pd.to_numeric(arg.to_pandas(), errors=errors)
    return from_pandas(parsed.set_axis(pd.RangeIndex(len(parsed)))).set_axis(arg.index)

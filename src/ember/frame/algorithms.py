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

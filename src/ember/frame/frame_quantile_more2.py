"""``DataFrame.quantile(method="table")``: whole rows at the quantile positions of the rows sorted
lexicographically by every column, as pandas (nulls last, ties in row order)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported

TABLE_INTERPOLATIONS = {"nearest", "lower", "higher"}


def table_quantile(data: Any, q: Any, interpolation: str, method: str) -> Any:
    """``data`` (the columns taking part, at least one): a DataFrame indexed by ``q``, or for a
    scalar ``q`` one row as a Series named ``q`` (pandas transposes it: the columns' common dtype)."""
    qs = checked_quantiles(q)
    if method != "table":
        raise ValueError(f"Invalid method: {method}. Method must be in {{'single', 'table'}}.")
    if interpolation not in TABLE_INTERPOLATIONS:
        raise ValueError(
            f"Invalid interpolation: {interpolation}. Interpolation must be in {TABLE_INTERPOLATIONS}"
        )
    if len(data) == 0:
        raise unsupported("DataFrame.quantile", "method='table' of an empty frame")
    positions = np.quantile(np.arange(len(data)), qs, method=interpolation).astype(np.int64)
    ordered = data.sort_values(by=list(data.columns), kind="stable", na_position="last")
    rows = ordered.iloc[positions.tolist()].set_axis(pd.Index(qs, dtype=np.float64), axis=0)
    if np.ndim(q) == 0:
        return rows.iloc[0]
    return rows


def checked_quantiles(q: Any) -> list[float]:
    """``q`` as a list of floats; pandas' ValueError for one outside [0, 1]."""
    qs = [q] if np.ndim(q) == 0 else list(q)
    values = np.asarray(qs, dtype=np.float64)
    if not ((values >= 0) & (values <= 1)).all():
        raise ValueError("percentiles should all be in the interval [0, 1]")
    return values.tolist()

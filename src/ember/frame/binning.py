"""``cut`` and ``qcut``: numbers into bins, as pandas numbers them.

The bin edges are a handful of numbers, made on the host as pandas makes them (``linspace`` over the
values' range widened by 0.1%, or the values' quantiles); each value's bin is one ``searchsorted`` on
the device. Results are the bins' numbers (``labels=False``) or a categorical of the given labels.
pandas' default labels are intervals, which ember cannot hold: ``labels=None`` is refused with the
two spellings that work.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported


def cut(
    x: Any,
    bins: Any,
    right: bool = True,
    labels: Any = None,
    retbins: bool = False,
    precision: int = 3,
    include_lowest: bool = False,
    duplicates: str = "raise",
    ordered: bool = True,
) -> Any:
    """pandas.cut for numbers: ``bins`` an int (equal-width bins over the values' range) or
    increasing edges; ``labels=False`` (bin numbers) or a list of labels (a categorical)."""
    series, array_input = _as_series(x, "cut"), not _is_series(x)
    _check_labels(labels, ordered, "cut")
    if np.ndim(bins) == 0:
        edges = _equal_width_edges(series, int(bins), right) if _is_int(bins) else None
        if edges is None:
            raise unsupported("cut", f"bins={bins!r} (an int or a sequence of edges)")
    else:
        if isinstance(bins, pd.IntervalIndex):
            raise unsupported("cut", "an IntervalIndex of bins")
        edges = np.asarray(bins, dtype=np.float64)
        if (np.diff(edges) < 0).any():
            raise ValueError("bins must increase monotonically.")
    out = _binned(series, edges, right, labels, retbins, include_lowest, duplicates, ordered)
    if retbins and np.ndim(bins) != 0:  # pandas returns the edges given, in their dtype (int64 stays)
        given = pd.Index(bins)
        out = (out[0], (given.unique() if len(out[1]) < len(given) else given)._values)
    return _as_array(out, labels, retbins) if array_input else out


def qcut(
    x: Any, q: Any, labels: Any = None, retbins: bool = False, precision: int = 3, duplicates: str = "raise"
) -> Any:
    """pandas.qcut for numbers: bins at the values' quantiles (``q`` bins of equal counts, or the
    quantiles listed), the lowest edge included."""
    series, array_input = _as_series(x, "qcut"), not _is_series(x)
    _check_labels(labels, True, "qcut")
    quantiles = np.linspace(0, 1, int(q) + 1) if _is_int(q) else np.asarray(q, dtype=np.float64)
    edges = np.asarray(series.dropna().quantile(list(quantiles)).to_pandas(), dtype=np.float64)
    out = _binned(series, edges, True, labels, retbins, True, duplicates, True)
    return _as_array(out, labels, retbins) if array_input else out


def _is_series(x: Any) -> bool:
    from ember.frame.series import Series

    return isinstance(x, Series)


def _as_array(out: Any, labels: Any, retbins: bool) -> Any:
    """pandas gives an array for an array's bin numbers: the numbers' device (or host) array; and a
    pandas Categorical for labels (ember has no Categorical array: the codes and the labels come to
    the host, as pandas' own object)."""
    result = out[0] if retbins else out
    if labels is False:
        result = result._column.data
    else:
        result = result.to_pandas().array
    return (result, out[1]) if retbins else result


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _as_series(x: Any, method: str) -> Any:
    from ember.column import NumericColumn
    from ember.frame.convert import from_pandas
    from ember.frame.series import Series

    if not isinstance(x, Series):
        if np.ndim(x) != 1:
            raise ValueError("Input array must be 1 dimensional")
        x = from_pandas(pd.Series(np.asarray(x)))
    column = x._column
    if not isinstance(column, NumericColumn) or column.is_bool:
        raise unsupported(method, f"{x.dtype} values (numbers are binned)")
    return x


def _check_labels(labels: Any, ordered: bool, method: str) -> None:
    if labels is None:
        raise unsupported(
            method,
            "labels=None (pandas' interval categories); pass labels=False for the bin numbers or a "
            "list of labels",
        )
    if labels is not False and not pd.api.types.is_list_like(labels):
        raise ValueError("Bin labels must either be False, None or passed in as a list-like argument")
    if labels is not False and len(set(labels)) != len(labels):
        if ordered:
            raise ValueError("labels must be unique if ordered=True; pass ordered=False for duplicate labels")
        raise unsupported(method, "duplicate labels")


def _equal_width_edges(series: Any, nbins: int, right: bool) -> np.ndarray:
    """pandas' edges for ``bins=nbins``: ``nbins`` equal widths over the values' range, the first
    (right=True) or last edge moved out by 0.1% of the range; a range of one value widened by
    0.1% each way."""
    if nbins < 1:
        raise ValueError("`bins` should be a positive integer.")
    if len(series) == 0:
        raise ValueError("Cannot cut empty array")
    mn, mx = (float(v) for v in (series.min(), series.max()))  # two syncs: the edges live on the host
    if np.isinf(mn) or np.isinf(mx):
        raise ValueError("cannot specify integer `bins` when input data contains infinity")
    if mn == mx:
        mn -= 0.001 * abs(mn) if mn != 0 else 0.001
        mx += 0.001 * abs(mx) if mx != 0 else 0.001
        return np.linspace(mn, mx, nbins + 1, endpoint=True)
    edges = np.linspace(mn, mx, nbins + 1, endpoint=True)
    adj = (mx - mn) * 0.001
    if right:
        edges[0] -= adj
    else:
        edges[-1] += adj
    return edges


def _binned(
    series: Any,
    edges: np.ndarray,
    right: bool,
    labels: Any,
    retbins: bool,
    include_lowest: bool,
    duplicates: str,
    ordered: bool,
) -> Any:
    """pandas' ``_bins_to_cuts``: each value's bin by ``searchsorted`` against the edges; values
    outside them, or missing, have none."""
    from ember.backend import asarray_on
    from ember.column import CategoricalColumn, NumericColumn
    from ember.column.convert import from_pandas as column_from_pandas
    from ember.frame.series import Series

    if duplicates not in ("raise", "drop"):
        raise ValueError("invalid value for 'duplicates' parameter, valid options are: raise, drop")
    unique = pd.unique(edges)
    if len(unique) < len(edges) and len(edges) != 2:
        if duplicates == "raise":
            raise ValueError(
                f"Bin edges must be unique: {pd.Index(edges)!r}.\n"
                "You can drop duplicate edges by setting the 'duplicates' kwarg"
            )
        edges = unique
    column = series._column
    xp = column.xp
    values = column.data.astype(np.float64)
    ids = xp.searchsorted(asarray_on(edges, xp), values, side="left" if right else "right")
    if include_lowest and len(edges):
        ids = xp.where(values == edges[0], 1, ids)
    outside = (ids == len(edges)) | (ids == 0) | xp.isnan(values) | column.isna()
    if labels is False:
        numbers = ids.astype(np.int64) - 1
        if bool(outside.any()):  # one sync: pandas gives floats with NaN only when a value has no bin
            numbers = xp.where(outside, np.nan, numbers.astype(np.float64))
        out = Series._from_column(NumericColumn(numbers), series.index, series.name)
    else:
        labels = list(labels)
        if len(labels) != len(edges) - 1:
            raise ValueError("Bin labels must be one fewer than the number of bin edges")
        categories = column_from_pandas(pd.Index(labels), xp)
        codes = xp.where(outside, -1, ids - 1).astype(np.int32)
        out = Series._from_column(CategoricalColumn(codes, categories, ordered), series.index, series.name)
    return (out, edges) if retbins else out

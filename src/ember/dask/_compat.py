"""Keyword shims between the arguments Dask passes to partition methods and ember's frame API.

Dask calls pandas methods on partitions with keywords ember's frame methods do not take yet (e.g.
``groupby(..., group_keys=True)``). Until frame/ accepts them (listed in docs/dask.md, "frame API
gaps"), each shim below wraps one method: a keyword is dropped only when its value is the one ember
implements anyway, and any other value raises NotImplementedError naming the method and argument.
Installed once, on ``import ember.dask``; idempotent.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ember.frame import DataFrame, Index, MultiIndex, RangeIndex, Series
from ember.frame.groupby import DataFrameGroupBy

_SENTINEL = object()

# (class, method, {keyword: accepted values (a tuple) or None for "any value, ignored"})
SHIMS: list[tuple[type, str, dict[str, Any]]] = [
    (DataFrame, "groupby", {"group_keys": None}),
    (Series, "groupby", {"group_keys": None}),
]


def _wrap(cls: type, name: str, accepted: dict[str, Any]) -> None:
    method = getattr(cls, name)
    if getattr(method, "_ember_dask_shim", False):
        return

    @functools.wraps(method)
    def shim(self: Any, *args: Any, **kwargs: Any) -> Any:
        for key, values in accepted.items():
            value = kwargs.pop(key, _SENTINEL)
            if value is _SENTINEL or values is None or value in values:
                continue
            raise NotImplementedError(
                f"{cls.__name__}.{name}: {key}={value!r} is not supported by ember (supported: {values})")
        return method(self, *args, **kwargs)

    shim._ember_dask_shim = True  # type: ignore[attr-defined]
    setattr(cls, name, shim)


def _groupby_getitem(original: Callable) -> Callable:
    """``gb[df.columns]``: Dask selects with a pandas Index; ember takes lists."""

    @functools.wraps(original)
    def getitem(self: Any, key: Any) -> Any:
        if isinstance(key, (pd.Index, np.ndarray)):
            key = list(key)
        return original(self, key)

    return getitem


def _series_quantile(original: Callable) -> Callable:
    """``interpolation="nearest"`` (Dask's partition quantiles for sort_values/set_index)."""

    @functools.wraps(original)
    def quantile(self: Any, q: Any = 0.5, interpolation: str = "linear", **kw: Any) -> Any:
        if interpolation != "nearest":
            return original(self, q, interpolation=interpolation, **kw)
        values = self.dropna().sort_values(ignore_index=True)
        qs = [float(q)] if np.isscalar(q) else [float(v) for v in q]
        n = len(values)
        if n == 0:
            out = Series([np.nan] * len(qs), index=qs, name=self.name)
        else:
            pos = np.round(np.asarray(qs) * (n - 1)).astype(np.int64)  # numpy's "nearest" (half to even)
            out = values.iloc[pos]
            out.index = Index(qs)
        return out.iloc[0] if np.isscalar(q) else out

    return quantile


def _index_to_frame(self: Any, index: bool = True, name: Any = _SENTINEL) -> DataFrame:
    if isinstance(self, MultiIndex):
        names = list(self.names) if name is _SENTINEL else list(name)
        cols = dict(zip(names, self.levels_columns, strict=True))
    else:
        label = (0 if self.name is None else self.name) if name is _SENTINEL else name
        cols = {label: self.column}
    return DataFrame._from_columns(cols, self if index else RangeIndex(len(self)))


def _index_astype(self: Any, dtype: Any, copy: bool = True) -> Index:
    from ember.ops.unary import astype

    if isinstance(self, MultiIndex):
        raise NotImplementedError("MultiIndex.astype is not supported by ember")
    return Index._from_column(astype(self.column, dtype), self.name)


def _index_reduction(op: str) -> Callable:
    def reduce(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(Series._from_column(self.column), op)(*args, **kwargs)

    reduce.__name__ = op
    return reduce


def _merge(original: Callable) -> Callable:
    """``left_on == right_on`` naming the same columns is ``on=`` in pandas (one key column in the
    result); Dask's merges pass it that way."""

    @functools.wraps(original)
    def merge(self: Any, right: Any, *args: Any, **kwargs: Any) -> Any:
        lo, ro = kwargs.get("left_on"), kwargs.get("right_on")
        if lo is not None and kwargs.get("on") is None and _as_list(lo) == _as_list(ro):
            kwargs["on"] = kwargs.pop("left_on")
            kwargs.pop("right_on")
        return original(self, right, *args, **kwargs)

    return merge


def _as_list(x: Any) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _series_searchsorted(self: Any, value: Any, side: str = "left", sorter: Any = None) -> Any:
    """Insertion points of ``value`` (an ember Series or array-like) into this sorted Series, as an
    int64 array of the column's module (Dask's set_index partition assignment)."""
    from ember.column import from_any
    from ember.ops.sort import searchsorted

    if sorter is not None:
        raise NotImplementedError("Series.searchsorted: sorter= is not supported by ember")
    col = self.column
    needles = value.column if isinstance(value, Series) else from_any(
        value if np.ndim(value) else [value], col.xp)
    out = searchsorted(col, needles, side=side)
    return out if np.ndim(value) else out[0]


def _constant(value: Any) -> property:
    return property(lambda self: value)


ADDED: list[tuple[type, str, Any]] = [
    (DataFrame, "_constructor", _constant(DataFrame)),
    (DataFrame, "_constructor_sliced", _constant(Series)),
    (Series, "_constructor", _constant(Series)),
    (Series, "_constructor_expanddim", _constant(DataFrame)),
    (Series, "searchsorted", _series_searchsorted),
    (Index, "to_frame", _index_to_frame),
    (Index, "astype", _index_astype),
    (Index, "min", _index_reduction("min")),
    (Index, "max", _index_reduction("max")),
]
WRAPPED: list[tuple[type, str, Callable]] = [
    (DataFrameGroupBy, "__getitem__", _groupby_getitem),
    (Series, "quantile", _series_quantile),
    (DataFrame, "merge", _merge),
]


def install() -> None:
    """Install the shims (once)."""
    for cls, name, accepted in SHIMS:
        _wrap(cls, name, accepted)
    for cls, name, fn in ADDED:
        if name not in cls.__dict__:
            setattr(cls, name, fn)
    for cls, name, make in WRAPPED:
        current = cls.__dict__[name]
        if not getattr(current, "_ember_dask_shim", False):
            shim = make(current)
            shim._ember_dask_shim = True
            setattr(cls, name, shim)

"""Resampler.aggregate / agg / apply with a callable, a list, a dict or named aggregations, and
Resampler.transform, as pandas' ResamplerWindowApply: names run the Resampler's own methods (empty
bins handled there), a callable runs once per bin on that bin's rows (``groupby_udf``)."""

from __future__ import annotations

import copy
from typing import Any

import pandas as pd

from ember.column import Column
from ember.frame._fallback import unsupported
from ember.frame.groupby_udf import aggregate_udf


def _is_frame(obj: Any) -> bool:
    return getattr(obj, "_ember_kind", "") == "frame"


def _fname(f: Any) -> str:
    if isinstance(f, str):
        return f
    name = getattr(f, "__name__", None)
    if name is None:
        raise unsupported("Resampler.aggregate", f"a callable without a __name__ ({f!r}) in a list")
    return name


def _names(funcs: list, mangle: bool) -> list[str]:
    """Output labels of a list of functions; pandas numbers the lambdas of a list of several
    (``<lambda_0>``, ...) where it mangles them (a frame's lists and a dict's lists)."""
    names, i = [], 0
    for f in funcs:
        name = _fname(f)
        if mangle and len(funcs) > 1 and name == "<lambda>":
            name, i = f"<lambda_{i}>", i + 1
        names.append(name)
    if len(set(names)) != len(names):
        raise unsupported("Resampler.aggregate", f"repeated function names {names} (duplicate columns)")
    return names


def _check_callable_ok(r: Any) -> None:
    from ember.frame.resample_more import GroupByResampler

    if isinstance(r, GroupByResampler):
        raise unsupported("groupby().resample().aggregate", "a callable, list or dict")
    if r.on is not None:
        raise unsupported("Resampler.aggregate", "a callable, list or dict with on=")


def _one_column(r: Any, label: Any, col: Column) -> Any:
    """The Resampler over one column (a Series named ``label`` on the resampled object's index)."""
    from ember.frame.series import Series

    sub = copy.copy(r)
    sub.obj = Series._from_column(col, r.obj.index, label)
    return sub


def _series_agg(r: Any, f: Any) -> Column:
    """One aggregation (a method name or a callable) of a one-column Resampler, as a column."""
    if isinstance(f, str):
        from ember.frame.timeseries import RESAMPLE_OPS

        if f not in RESAMPLE_OPS:
            raise unsupported("Resampler.aggregate", f"func={f!r} in a list or dict")
        return getattr(r, f)().column
    if not callable(f):
        raise TypeError(f"'{type(f).__name__}' object is not callable")
    return aggregate_udf(r._g, r.obj, f, (), {}, resample=True)


def _column(r: Any, label: Any) -> Any:
    cols = dict(r._values())
    if label not in cols:
        raise KeyError(f"Column(s) ['{label}'] do not exist")
    return _one_column(r, label, cols[label])


def _agg_list(r: Any, funcs: list) -> Any:
    from ember.frame.dataframe import DataFrame

    names = _names(funcs, mangle=_is_frame(r.obj))
    if not _is_frame(r.obj):
        parts = {n: _series_agg(r, f) for n, f in zip(names, funcs)}
    else:
        parts = {
            (k, n): _series_agg(_one_column(r, k, c), f) for k, c in r._values() for n, f in zip(names, funcs)
        }
    return DataFrame._from_columns(parts, r._index)


def _agg_dict(r: Any, spec: dict) -> Any:
    from ember.frame.dataframe import DataFrame

    lists = [isinstance(f, (list, tuple)) for f in spec.values()]
    if any(lists) and not _is_frame(r.obj):
        raise pd.errors.SpecificationError("nested renamer is not supported")
    if any(lists) and not all(lists):
        raise unsupported("Resampler.aggregate", "a dict mixing lists and single functions")
    parts = {}
    for key, how in spec.items():
        sub = _column(r, key) if _is_frame(r.obj) else r
        if not any(lists):
            parts[key] = _series_agg(sub, how)
            continue
        for n, f in zip(_names(list(how), mangle=True), how):
            parts[(key, n)] = _series_agg(sub, f)
    return DataFrame._from_columns(parts, r._index)


def _agg_named(r: Any, named: dict) -> Any:
    """``agg(out=func)`` of a Series' Resampler, ``agg(out=(column, func))`` of a frame's."""
    from ember.frame.dataframe import DataFrame

    if not named:
        raise TypeError("Must provide 'func' or tuples of '(column, aggfunc).")
    parts = {}
    for out, spec in named.items():
        if _is_frame(r.obj):
            if not (isinstance(spec, tuple) and len(spec) == 2) and not hasattr(spec, "aggfunc"):
                raise TypeError("Must provide 'func' or tuples of '(column, aggfunc).")
            column, how = (spec.column, spec.aggfunc) if hasattr(spec, "aggfunc") else spec
            parts[out] = _series_agg(_column(r, column), how)
        else:
            parts[out] = _series_agg(r, spec)
    return DataFrame._from_columns(parts, r._index)


def _agg_callable(r: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    from ember.frame.series import Series
    from ember.frame.timeseries import _rewrap

    cols = {
        k: aggregate_udf(r._g, Series._from_column(c, r.obj.index, k), func, args, kwargs, resample=True)
        for k, c in r._values()
    }
    return _rewrap(r.obj, cols, r._index)


def aggregate(r: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """Resampler.aggregate: a method name, a callable (run per bin), a list, a dict or named
    aggregations (``func=None`` with keywords)."""
    from ember.frame.timeseries import RESAMPLE_OPS

    if isinstance(func, str):
        if func not in RESAMPLE_OPS + ("ohlc",):
            raise unsupported("Resampler.aggregate", f"func={func!r}")
        return getattr(r, func)(*args, **kwargs)
    _check_callable_ok(r)
    if _is_frame(r.obj) and list(r.obj.columns.names) != [None]:
        raise unsupported("Resampler.aggregate", "a frame whose column axis is named")
    if func is None:
        if args:
            raise unsupported("Resampler.aggregate", "positional arguments with named aggregations")
        return _agg_named(r, kwargs)
    if isinstance(func, dict):
        if args or kwargs:
            raise unsupported("Resampler.aggregate", "arguments beside a dict")
        return _agg_dict(r, func)
    if isinstance(func, (list, tuple)):
        if args or kwargs:
            raise unsupported("Resampler.aggregate", "arguments beside a list")
        return _agg_list(r, list(func))
    if callable(func):
        return _agg_callable(r, func, args, kwargs)
    raise TypeError(f"'{type(func).__name__}' object is not callable")


def transform(r: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """Resampler.transform: a method name's result per bin on each of the bin's rows, or ``func``
    on each bin's rows (pandas groups the rows by the bins and transforms)."""
    from types import SimpleNamespace

    from ember.frame.groupby_udf import transform_frame_udf, transform_series_udf
    from ember.frame.index import Index
    from ember.frame.timeseries import _rewrap

    _check_callable_ok(r)
    g = r._g
    if g.dropped:
        raise unsupported("Resampler.transform", "an index holding NaT")
    if isinstance(func, str):
        if func not in _transformable():
            raise unsupported("Resampler.transform", f"func={func!r}")
        out = getattr(r, func)(*args, **kwargs)
        items = [(out.name, out.column)] if not _is_frame(out) else [(k, out._columns[k]) for k in out._names]
        return _rewrap(r.obj, {k: c.take(g.codes) for k, c in items}, r.obj.index)
    if not callable(func):
        raise TypeError(f"'{type(func).__name__}' object is not callable")
    adapter = SimpleNamespace(
        obj=r.obj,
        _grouping=g,
        ngroups=g.ngroups,
        _key_names=[],
        _key_labels=[],
        _selected_obj=lambda: r.obj,
        _result_index=lambda: Index._from_column(g.uniques[0], None),
    )
    udf = transform_frame_udf if _is_frame(r.obj) else transform_series_udf
    return udf(adapter, func, args, kwargs)


# --- the bins as groups (groups, indices, get_group) ----------------------------------------------


def _transformable() -> tuple:
    """The Resampler methods transform takes by name: the bin reductions but sem, nunique, size."""
    from ember.frame.timeseries import RESAMPLE_OPS

    return tuple(op for op in RESAMPLE_OPS if op not in ("sem", "nunique", "size"))


def _bin_positions(r: Any, fn: str) -> tuple[Any, list]:
    """The bins' labels (pandas) and each bin's row positions; the rows must be in time order (pandas
    numbers the rows of the sorted object) with no NaT."""
    from ember.frame.groupby_udf import group_positions

    _check_callable_ok(r)
    if r._g.dropped:
        raise unsupported(f"Resampler.{fn}", "an index holding NaT")
    if not r.obj.index.is_monotonic_increasing:
        raise unsupported(f"Resampler.{fn}", "rows out of time order (pandas numbers the sorted rows)")
    return r._index.to_pandas(), group_positions(r._g)


def groups(r: Any) -> dict:
    """{bin label: the row position where the bin ends}, as pandas' BinGrouper."""
    import numpy as np

    labels, positions = _bin_positions(r, "groups")
    ends = np.cumsum([len(p) for p in positions], dtype=np.int64)
    return {label: end for label, end in zip(labels, ends)}


def indices(r: Any) -> dict:
    """{bin label: [row positions]} of the bins holding rows, as pandas (a defaultdict of lists)."""
    from collections import defaultdict

    from ember.backend import to_host

    labels, positions = _bin_positions(r, "indices")
    out: defaultdict = defaultdict(list)
    for label, pos in zip(labels, positions):
        if len(pos):
            out[label] = [int(i) for i in to_host(pos)]
    return out


def get_group(r: Any, name: Any) -> Any:
    """The rows of the bin labelled ``name`` (a string is read as a time, as pandas)."""
    labels, positions = _bin_positions(r, "get_group")
    key = pd.Timestamp(name) if isinstance(name, str) else name
    tz = getattr(labels, "tz", None)
    if isinstance(key, pd.Timestamp) and tz is not None and key.tz is None:
        raise unsupported("Resampler.get_group", "a naive time on a tz-aware index")
    for label, pos in zip(labels, positions):
        if label == key and len(pos):
            return r.obj._take_rows(pos)
    raise KeyError(name)

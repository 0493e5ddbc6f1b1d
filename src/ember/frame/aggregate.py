"""``Series.agg`` / ``DataFrame.agg`` with reduction names: one name reduces as the method of that
name does; a list (or a frame's dict of column -> name or names) gives one row per name.

Each reduction runs on the device as its method does; the few result scalars are laid out by
pandas itself (its Series and concat on the host), so the result's shape and dtypes are pandas' own.
Functions (callables) and transforming names (``cumsum``) are refused: run them through the methods.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ember.frame._fallback import unsupported
from ember.frame.generic import REDUCTIONS


def _name(func: Any, method: str) -> str:
    if isinstance(func, str) and func in REDUCTIONS:
        return func
    if callable(func):
        raise unsupported(method, "a function (pass a reduction's name: 'sum', 'mean', ...)")
    raise unsupported(method, f"{func!r} (the reductions {', '.join(REDUCTIONS)} are taken)")


def _scalar(series: Any, func: str) -> Any:
    return getattr(series, func)()


def _host_series(series: Any, funcs: list, method: str) -> pd.Series:
    """pandas' ``Series.agg(list)``: the reductions' scalars indexed by their names."""
    names = [_name(f, method) for f in funcs]
    return pd.Series([_scalar(series, f) for f in names], index=names, name=series.name)


def series_agg(series: Any, func: Any, axis: Any) -> Any:
    from ember.frame.convert import from_pandas

    if axis not in (0, "index", None):
        raise ValueError(f"No axis named {axis} for object type Series")
    if isinstance(func, (list, tuple)):
        return from_pandas(_host_series(series, list(func), "Series.agg"))
    if isinstance(func, dict):
        raise unsupported("Series.agg", "a dict of names")
    return _scalar(series, _name(func, "Series.agg"))


def frame_agg(frame: Any, func: Any, axis: Any) -> Any:
    from ember.frame.convert import from_pandas

    if axis not in (0, "index", None):
        raise unsupported("DataFrame.agg", "axis=1")
    if isinstance(func, str) or callable(func):
        return getattr(frame, _name(func, "DataFrame.agg"))()
    if isinstance(func, (list, tuple)):
        per_column = {k: list(func) for k in frame._names}
    elif isinstance(func, dict):
        missing = [k for k in func if k not in frame._columns]
        if missing:
            raise KeyError(f"Column(s) {missing} do not exist")
        if func and all(isinstance(f, str) for f in func.values()):  # one name each: a Series of scalars
            names = {k: _name(f, "DataFrame.agg") for k, f in func.items()}
            return from_pandas(pd.Series({k: _scalar(frame[k], f) for k, f in names.items()}))
        per_column = {k: list(f) if isinstance(f, (list, tuple)) else [f] for k, f in func.items()}
    else:
        raise unsupported("DataFrame.agg", f"func={func!r}")
    if not per_column:  # no columns: pandas' empty frame, a row label per function
        labels = [_name(f, "DataFrame.agg") for f in func] if isinstance(func, (list, tuple)) else []
        index = pd.Index(labels, dtype=None if labels else object)
        return from_pandas(pd.DataFrame(index=index, columns=pd.Index(frame.columns)[:0]))
    parts = [_host_series(frame[k], funcs, "DataFrame.agg") for k, funcs in per_column.items()]
    return from_pandas(pd.concat(parts, axis=1, keys=list(per_column), sort=False))

"""describe(): count, mean, std, min, percentiles, max — composed from ops reductions."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ember.column import NumericColumn


def _labels(percentiles: Any) -> tuple[list[float], list[str]]:
    qs = [0.25, 0.5, 0.75] if percentiles is None else sorted(set([*percentiles, 0.5]))
    return qs, [f"{q * 100:g}%" for q in qs]


def _numeric_stats(col: Any, qs: list[float]) -> list[Any]:
    from ember.ops.reductions import quantile_many, reduce_many

    count, mean, std, lo, hi = [reduce_many([col], op)[0] for op in ("count", "mean", "std", "min", "max")]
    return [count, mean, std, lo, *quantile_many(col, qs), hi]


def describe_series(series: Any, percentiles: Any = None) -> Any:
    from ember.frame.series import Series

    col = series.column
    if not isinstance(col, NumericColumn) or col.is_bool:
        return Series(series.to_pandas().describe())  # object/bool summary: small, computed on the host
    qs, labels = _labels(percentiles)
    values = [float(v) for v in _numeric_stats(col, qs)]
    index = ["count", "mean", "std", "min", *labels, "max"]
    return Series(pd.Series(values, index=index, name=series.name, dtype="float64"))


def describe_frame(frame: Any, percentiles: Any = None, include: Any = None) -> Any:
    from ember.frame.dataframe import DataFrame

    if include is not None:
        return DataFrame(frame.to_pandas().describe(percentiles=percentiles, include=include))
    names = [k for k, c in frame._columns.items() if isinstance(c, NumericColumn) and not c.is_bool]
    if not names:
        return DataFrame(frame.to_pandas().describe(percentiles=percentiles))
    qs, labels = _labels(percentiles)
    index = ["count", "mean", "std", "min", *labels, "max"]
    table = {k: [float(v) for v in _numeric_stats(frame._columns[k], qs)] for k in names}
    return DataFrame(pd.DataFrame(table, index=index, dtype="float64"))

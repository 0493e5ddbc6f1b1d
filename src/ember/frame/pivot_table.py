"""``pivot_table``: group by the index and columns keys, aggregate each value (``ops.groupby``), and
spread the columns keys across the result's columns as ``pivot`` does; with or without margins."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import array_module, asarray_on, to_host
from ember.column import Column, NumericColumn, StringColumn, from_scalar
from ember.frame._fallback import unsupported
from ember.frame.dataframe import DataFrame
from ember.frame.index import Index, MultiIndex
from ember.frame.reshape import (
    _as_list,
    _column,
    _fill,
    _gather,
    _host_labels,
    _keep_valid_any,
    _label_tuples,
    _make_index,
    _pivot_grid,
)


def _agg_specs(
    aggfunc: Any, value_names: list, values_shown: bool, sort: bool = True
) -> list[tuple[tuple, Any, str]]:
    """[(label prefix, value name, op)] in pandas' column order: a list of functions concatenates one
    table per function (prefix (func, value)); a dict labels (value[, func]) and sorts by them; one
    function sorts by value (``sort=False``: the order given). ``values_shown`` False drops the value
    from the prefix (one value passed)."""
    order = _sorted_specs if sort else list

    def vpart(v: Any) -> tuple:
        return (v,) if values_shown else ()

    if isinstance(aggfunc, dict):
        show_func = any(isinstance(f, (list, tuple)) for f in aggfunc.values())
        specs = [
            (vpart(v) + ((_op_name(f),) if show_func else ()), v, _op_name(f))
            for v, fs in aggfunc.items()
            for f in _as_list(fs)
        ]
        return order(specs)
    if isinstance(aggfunc, (list, tuple)):
        out = []
        for f in aggfunc:
            out.extend(order([((_op_name(f),) + vpart(v), v, _op_name(f)) for v in value_names]))
        return out
    op = _op_name(aggfunc)
    return order([(vpart(v), v, op) for v in value_names])


def _sorted_specs(specs: list) -> list:
    """pandas' ``sort_index(axis=1)`` over the label prefixes (left as given when they do not compare)."""
    try:
        return sorted(specs, key=lambda spec: spec[0])
    except TypeError:
        return specs


def _op_name(func: Any) -> str:
    from ember.frame.groupby import AGGREGATIONS

    if func is len:
        return "size"
    name = func if isinstance(func, str) else getattr(func, "__name__", None)
    if name in ("amin", "amax", "nanmean", "nansum"):
        name = {"amin": "min", "amax": "max", "nanmean": "mean", "nansum": "sum"}[name]
    if name not in AGGREGATIONS or name in ("idxmin", "idxmax", "quantile"):
        raise unsupported(
            "pivot_table",
            f"aggfunc={func!r} (supported: names of groupby aggregations "
            "such as 'mean', 'sum', 'count', 'min', 'max', 'median', or len)",
        )
    return name


def pivot_table(
    frame: DataFrame,
    values: Any = None,
    index: Any = None,
    columns: Any = None,
    aggfunc: Any = "mean",
    fill_value: Any = None,
    margins: bool = False,
    margins_name: str = "All",
    dropna: bool = True,
    observed: bool = True,
    sort: bool = True,
) -> DataFrame:
    """``DataFrame.pivot_table``: group by ``index`` + ``columns`` keys, aggregate each value, spread
    the ``columns`` keys across the result's columns. aggfunc: a groupby aggregation name (or len, or
    numpy's sum/mean/min/max), a list of them, or a dict {value: name(s)}."""
    if not observed:
        raise unsupported("pivot_table", "observed=False (only observed=True, pandas 3's default)")
    if values is not None:  # pandas selects keys + values when that drops a column: a key that is
        keys, vals = _as_list(index) + _as_list(columns), _as_list(values)  # also a value is 2-D there
        shared = [k for k in keys if k in vals]
        if shared and len([k for k in keys + vals if k in frame._columns]) < len(frame._names):
            raise ValueError(f"Grouper for '{shared[0]}' not 1-dimensional")
    if margins and (len(frame) == 0 or _names_size(aggfunc)):
        raise unsupported("pivot_table", "margins=True of no rows or with aggfunc='size'")
    if isinstance(values, (list, tuple)) and _names_size(aggfunc):
        raise unsupported("pivot_table", "aggfunc='size' of a list of values (pandas counts the rows once)")
    if margins:
        return _pivot_with_margins(
            frame, values, index, columns, aggfunc, fill_value, margins_name, dropna, sort
        )
    row_names, col_names = _as_list(index), _as_list(columns)
    if not row_names:
        raise unsupported("pivot_table", "an empty index= (pass the row keys)")
    keys = row_names + col_names
    if values is None:
        value_names = [k for k in frame._names if k not in keys]
        if isinstance(aggfunc, dict):
            value_names = [k for k in value_names if k in aggfunc]
        values_multi, values_passed = True, False
    else:
        value_names = _as_list(values)
        values_multi, values_passed = isinstance(values, (list, tuple)), True
    if not dropna and (len(row_names) > 1 or len(col_names) > 1):
        raise unsupported("pivot_table", "dropna=False with several index or columns keys")
    nr = len(row_names)
    specs = _agg_specs(aggfunc, value_names, values_multi or not values_passed or not col_names, sort)
    aggregated, uniques = _group_aggregate(frame, keys, specs, dropna, sort)
    if not col_names:
        out = {_table_label(p, ()): _fill(c, fill_value) for (p, _, _), c in zip(specs, aggregated)}
        result = DataFrame._from_columns(out, _make_index(uniques[:nr], row_names))
    else:
        # groups come in key order (sort) or first appearance: the rows and columns follow them
        table, runiq, cuniq, holes = _pivot_grid(uniques[:nr], uniques[nr:], sort, sort_rows=sort)
        labels = _label_tuples(cuniq)
        if not sort:
            rows = _unsorted_order(frame, row_names, runiq, dropna)
            # several column keys unstack as one combined level: the grid's order already
            cols = (
                _unsorted_order(frame, col_names, cuniq, dropna)
                if len(col_names) == 1
                else np.arange(len(labels))
            )
            xp = array_module(table)
            table = table[xp.asarray(rows)][:, xp.asarray(cols)]
            runiq = [c.take(asarray_on(rows, c.xp)) for c in runiq]
            labels = [labels[i] for i in cols]
        out = {}
        for (p, _, _), col in zip(specs, aggregated):
            for j, lab in enumerate(labels):
                out[_table_label(p, lab)] = _gather(col, table[:, j], holes, fill_value)
        result = DataFrame._from_columns(
            out, _make_index(runiq, row_names), _axis_names(specs, col_names), _columns_kind(out, cuniq)
        )
    if dropna and result._names:
        keep = _keep_valid_any(list(result._columns.values()))
        if not keep.all():
            result = result._with_columns(
                {k: c for k, c, ok in zip(result._names, result._columns.values(), keep) if ok}
            )
    return result


_MISSING = object()


def _names_size(aggfunc: Any) -> bool:
    """Whether ``aggfunc`` names 'size' (alone, in a list, or in a dict)."""
    if isinstance(aggfunc, dict):
        return any(_names_size(v) for v in aggfunc.values())
    if isinstance(aggfunc, (list, tuple)):
        return any(_names_size(v) for v in aggfunc)
    return isinstance(aggfunc, str) and aggfunc == "size"


def _unsorted_order(frame: DataFrame, names: list, uniques: list[Column], dropna: bool) -> np.ndarray:
    """The order pandas gives pivot_table(sort=False)'s rows (or columns), as a permutation of the
    grid's, which follows the groups left after dropna. pandas unstacks its groupby result (sorting
    by level codes) after ``remove_unused_levels``: a key's level keeps the order of first appearance
    in the whole frame while every value there survives in a group, and takes the order of first
    appearance among the surviving groups once one does not. Rows of several keys then sort by those
    level orders, key by key."""
    from ember.ops.factorize import factorize_keys

    def key(label: Any) -> Any:  # missing labels (NaN, None, NaT) compare equal here
        return _MISSING if pd.api.types.is_scalar(label) and pd.isna(label) else label

    ranks = []
    for name, col in zip(names, uniques):
        grid = [key(label) for label in _host_labels(col)]
        _, seen, _ = factorize_keys([_column(frame, name)], sort=False, dropna=dropna)
        everywhere = [key(label) for label in _host_labels(seen[0])]
        order = everywhere if len(set(grid)) == len(everywhere) else list(dict.fromkeys(grid))
        place = {label: i for i, label in enumerate(order)}
        ranks.append(np.array([place[label] for label in grid], dtype=np.int64))
    return np.lexsort(ranks[::-1]) if ranks else np.zeros(0, dtype=np.int64)


def _pivot_with_margins(
    frame: DataFrame,
    values: Any,
    index: Any,
    columns: Any,
    aggfunc: Any,
    fill_value: Any,
    margins_name: str,
    dropna: bool,
    sort: bool,
) -> DataFrame:
    """pivot_table(margins=True), as pandas: after each (function, value) block of columns an ``All``
    column aggregated by the row keys only, and at the bottom an ``All`` row aggregated by the column
    keys only (its ``All`` cell over every row). Margins are computed from the data (the complete rows
    when ``dropna``), never from the table's cells."""
    from ember.frame.convert import concat

    row_names, col_names = _as_list(index), _as_list(columns)
    if not sort and (len(row_names) > 1 or len(col_names) > 1):
        raise unsupported("pivot_table", "margins=True with sort=False and several index or columns keys")
    if isinstance(aggfunc, dict):
        raise unsupported("pivot_table", "margins=True with a dict aggfunc (pass a name or a list of names)")
    if not row_names:
        raise unsupported("pivot_table", "margins=True without index= keys")
    if not all(isinstance(frame._columns[k], StringColumn) for k in row_names):
        raise unsupported(
            "pivot_table", "margins=True with non-string index keys (the 'All' label would mix types)"
        )
    keys = row_names + col_names
    values_passed = values is not None
    value_names = _as_list(values) if values_passed else [k for k in frame._names if k not in keys]
    values_multi = not values_passed or isinstance(values, (list, tuple))
    table = pivot_table(
        frame, values=values, index=index, columns=columns, aggfunc=aggfunc, fill_value=fill_value,
        dropna=dropna, sort=sort,
    )  # fmt: skip
    if len(table) == 0:
        raise unsupported("pivot_table", "margins=True where no group is left (pandas' margins then)")
    data = frame[keys + value_names]
    if dropna:  # pandas computes the margins from the complete rows only
        data = data.dropna()
    specs = _agg_specs(aggfunc, value_names, values_multi or not col_names)
    blank = ("",) * (len(col_names) - 1)
    if col_names:
        table = _with_margin_columns(table, data, specs, row_names, margins_name, blank)
    row = _margin_row(table, data, specs, col_names, margins_name, blank)
    xp = _frame_xp(data)
    labels = [margins_name] + [""] * (len(row_names) - 1)
    level_cols = [from_scalar(label, 1, xp) for label in labels]
    row_index = (
        Index._from_column(level_cols[0], row_names[0])
        if len(row_names) == 1
        else MultiIndex(level_cols, row_names)
    )
    full = concat([table, DataFrame._from_columns(row, row_index)])
    # the column axis keeps the pivot's label type ('string' keys stay 'string' beside 'All')
    return DataFrame._from_columns(full._columns, full.index, _axis_names(specs, col_names), table._kind)


def _columns_kind(out: dict, cuniq: list) -> pd.Index | None:
    """The column axis' type: the ``columns`` keys' dtypes on their levels (a 'string' key stays
    'string'), the (function, value) prefix levels as pandas infers them."""
    from ember.frame.frame_labels import axis_kind

    key_levels = [pd.Index(c.slice(0, 0).to_pandas()) for c in cuniq]
    if not any(isinstance(k, tuple) for k in out):  # one flat level: its dtype
        return key_levels[0][:0] if len(key_levels) == 1 else None
    depth = len(next(iter(out)))
    prefix = [pd.Index([k[i] for k in out])[:0] for i in range(depth - len(key_levels))]
    return axis_kind(pd.MultiIndex.from_arrays(prefix + key_levels))


def _axis_names(specs: list, col_names: list) -> tuple | None:
    """A pivot table's column axis names: none for the (function, value) prefix levels, then the
    ``columns`` keys' names (pandas names its columns after them); None without ``columns`` keys."""
    if not col_names:
        return None
    return (None,) * len(specs[0][0] if specs else ()) + tuple(col_names)


def _spec_columns(table: DataFrame, prefix: tuple) -> list:
    """The table's column labels of one (function, value) block, in order."""
    n = len(prefix)
    return [c for c in table._names if (c[:n] if isinstance(c, tuple) else (c,)[:n]) == prefix]


def _with_margin_columns(
    table: DataFrame, data: DataFrame, specs: list, row_names: list, margins_name: str, blank: tuple
) -> DataFrame:
    """Each block's ``All`` column (aggregated by the row keys) placed after the block."""
    order, margins = [], {}
    for prefix, value, op in specs:
        label = _table_label(prefix, (margins_name,) + blank)
        order.extend(_spec_columns(table, prefix))
        order.append(label)
        margins[label] = getattr(data.groupby(row_names)[value], op)()
    out = table[[c for c in order if c not in margins]] if margins else table
    for label, series in margins.items():
        out[label] = series
    return out[order]


def _margin_row(
    table: DataFrame, data: DataFrame, specs: list, col_names: list, margins_name: str, blank: tuple
) -> dict:
    """One-row columns of the ``All`` row: by the column keys inside each block, over all rows in the
    block's ``All`` column (or in the block's only column when there are no column keys)."""
    row = {}
    for prefix, value, op in specs:
        total = getattr(data[value], op)()
        if not col_names:
            row[_table_label(prefix, ())] = _one(total, data)
            continue
        by_col = getattr(data.groupby(col_names)[value], op)().to_pandas()
        for label in _spec_columns(table, prefix):
            key = label[len(prefix) :] if isinstance(label, tuple) else (label,)
            if key == (margins_name,) + blank:
                row[label] = _one(total, data)
                continue
            key = key[0] if len(key) == 1 else key
            if key not in by_col.index:
                raise unsupported("pivot_table", "margins=True where dropna removed whole columns")
            row[label] = _one(by_col[key], data)
    return row


def _one(value: Any, data: DataFrame) -> Column:
    """A one-row column holding a scalar aggregate (its NumPy type kept: int sums stay int)."""
    return from_scalar(value, 1, _frame_xp(data))


def _frame_xp(frame: DataFrame) -> Any:
    return next(iter(frame._columns.values())).xp


def _table_label(prefix: tuple, col_label: tuple) -> Any:
    parts = tuple(prefix) + tuple(col_label)
    return parts[0] if len(parts) == 1 else parts


def _group_aggregate(
    frame: DataFrame, keys: list, specs: list, dropna: bool, sort: bool = True
) -> tuple[list[Column], list[Column]]:
    """One aggregated column per spec over the groups of ``keys`` (groups with every aggregate
    missing dropped when ``dropna``, as pandas' pivot_table), and the groups' key values."""
    from ember.ops.groupby import aggregate
    from ember.ops.grouping import make_grouping

    g = make_grouping([_column(frame, k) for k in keys], sort=sort, dropna=dropna)
    cols = []
    for _, v, op in specs:
        try:
            col = aggregate(g, _column(frame, v), op)
            if op == "size" and isinstance(col, NumericColumn) and col.nullable:
                col = NumericColumn(col.data.astype(np.int64))  # pandas: the groups' sizes, int64
            cols.append(col)
        except TypeError as exc:
            raise TypeError(f"pivot_table: aggfunc {op!r} failed on column {v!r}: {exc}") from None
    uniques = list(g.uniques)
    if dropna and cols and g.ngroups:
        xp = cols[0].xp
        any_valid = ~cols[0].isna()
        for c in cols[1:]:
            any_valid = any_valid | ~c.isna()
        if not bool(to_host(any_valid.all())):
            rows = xp.flatnonzero(any_valid)
            cols = [c.take(rows) for c in cols]
            uniques = [u.take(rows) for u in uniques]
    return cols, uniques

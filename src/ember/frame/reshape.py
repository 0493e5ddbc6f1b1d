"""Reshaping: pivot, melt, stack, unstack, get_dummies (pivot_table: ``frame/pivot_table.py``, crosstab:
``frame/crosstab.py``).

Every reshape here is "compute which source row feeds each output cell, then gather each column once":
keys are factorized (``ops.factorize``), the cell -> row map comes from ``ops.reshape`` and the columns
move with ``take`` / ``take_nullable``. Column labels are host-side and small, so building them loops
over the result's columns; no loop touches rows or groups.

What pandas shows as MultiIndex columns, ember holds as tuple labels (``to_pandas`` rebuilds the
MultiIndex); the column axis is named after the ``columns`` keys (or the unstacked level), as pandas.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import array_module, to_host
from ember.column import (
    CategoricalColumn,
    Column,
    NumericColumn,
    StringColumn,
    concat_columns,
    from_any,
    from_scalar,
)
from ember.frame._fallback import unsupported
from ember.frame.dataframe import DataFrame
from ember.frame.index import Index, MultiIndex, RangeIndex
from ember.frame.series import Series, _index_columns
from ember.ops import reshape as rs
from ember.ops.grouping import inferred_strings, strings_if_held

_NO_DEFAULT = object()


# --- small helpers -----------------------------------------------------------------------------------


def _as_list(keys: Any) -> list:
    if keys is None:
        return []
    return list(keys) if isinstance(keys, (list, tuple, pd.Index)) else [keys]


def _column(frame: DataFrame, key: Any) -> Column:
    if key not in frame._columns:
        raise KeyError(key)
    return frame._columns[key]


def _make_index(cols: list[Column], names: list) -> Index:
    if len(cols) == 1:
        return Index._from_column(cols[0], names[0])
    return MultiIndex(cols, names)


def _host_labels(col: Column) -> list:
    """The (few) distinct key values of a result axis as Python objects, for column labels."""
    return col.to_pandas().tolist()


def _label_tuples(cols: list[Column]) -> list[tuple]:
    return list(zip(*(_host_labels(c) for c in cols))) if cols else []


def _gather(col: Column, rows: Any, any_missing: bool, fill_value: Any = None) -> Column:
    """Rows of ``col`` (-1 = missing, or ``fill_value``). ``take`` when no cell of the whole result is
    missing, so int columns stay int, as pandas' unstack upcasts only when the result has holes; a
    fill value fills the holes without the upcast (then the column's own missing values)."""
    if not any_missing:
        return _fill(col.take(rows), fill_value)
    if fill_value is None:
        return col.take_nullable(rows)
    from ember.ops.missing import where

    if len(col) == 0:
        return _fill(col.take_nullable(rows), fill_value)
    taken = col.take(col.xp.where(rows >= 0, rows, 0))
    return _fill(where(taken, rows >= 0, fill_value), fill_value)


def _fill(col: Column, fill_value: Any) -> Column:
    if fill_value is None:
        return col
    from ember.ops.missing import fillna

    return fillna(col, fill_value)


def _keep_valid_any(cols: list[Column]) -> Any:
    """Host bool per column: True when it holds at least one valid value (one sync for all)."""
    if not cols:
        return np.zeros(0, dtype=bool)
    xp = cols[0].xp
    return to_host(xp.stack([(~c.isna()).any() for c in cols]))


def _check_unique_labels(labels: list, where: str) -> None:
    if len(set(labels)) != len(labels):
        raise NotImplementedError(
            f"{where}: the result would have duplicate column labels, which ember does not support"
        )


# --- pivot -------------------------------------------------------------------------------------------


def _pivot_grid(
    row_keys: list[Column],
    col_keys: list[Column],
    sort_columns: bool = True,
    dropna: bool = False,
    sort_rows: bool = True,
) -> tuple[Any, list[Column], list[Column], bool]:
    """(cell -> source row table, row uniques, column uniques, any cell missing) for a pivot.

    Raises pandas' "Index contains duplicate entries" when two rows share a cell. Syncs a few times
    (the factorizations and the hole check), never per row or group."""
    from ember.ops.factorize import factorize_keys

    rcodes, runiq, nr = factorize_keys(row_keys, sort=sort_rows, dropna=dropna)
    ccodes, cuniq, nc = factorize_keys(col_keys, sort=sort_columns, dropna=dropna)
    xp = array_module(rcodes)
    if dropna:
        keep = (rcodes >= 0) & (ccodes >= 0)
        rows = xp.flatnonzero(keep)
        rcodes, ccodes = rcodes[rows], ccodes[rows]
    else:
        rows = None
    table = rs.pivot_take(rcodes, ccodes, nr, nc)
    if rows is not None and table.size:
        table = xp.where(table >= 0, rows[xp.maximum(table, 0)], -1)
    any_missing = bool(to_host((table < 0).any())) if table.size else False
    return table, runiq, cuniq, any_missing


def pivot(frame: DataFrame, *, columns: Any, index: Any = None, values: Any = None) -> DataFrame:
    """``DataFrame.pivot``: reshape by ``index`` / ``columns`` keys without aggregation (pandas'
    ValueError on duplicate (index, columns) pairs). ``values=None`` takes every other column and
    gives (value, column key ...) tuple labels; a list of values does too; one value gives flat labels."""
    if columns is None:
        raise TypeError("pivot() missing 1 required keyword-only argument: 'columns'")
    col_names = _as_list(columns)
    col_keys = [_column(frame, k) for k in col_names]
    if index is None:
        row_keys, row_names = _index_columns(frame.index), list(frame.index.names)
    else:
        row_names = _as_list(index)
        row_keys = [_column(frame, k) for k in row_names]
    used = set(col_names) | (set() if index is None else set(row_names))
    if values is None:
        value_names, multi = [k for k in frame._names if k not in used], True
    else:
        value_names, multi = _as_list(values), isinstance(values, (list, tuple))
    value_cols = [_column(frame, k) for k in value_names]
    if values is not None and multi:
        value_cols = _as_one_dtype(value_cols)
    # pandas unstacks several column keys as one combined level, in order of first appearance
    table, runiq, cuniq, holes = _pivot_grid(row_keys, col_keys, sort_columns=len(col_keys) == 1)
    labels = _label_tuples(cuniq)
    out: dict[Any, Column] = {}
    for vname, vcol in zip(value_names, value_cols):
        for j, lab in enumerate(labels):
            key = (vname, *lab) if multi else (lab if len(lab) > 1 else lab[0])
            out[key] = _gather(vcol, table[:, j], holes)
    axis_names = ((None,) if multi else ()) + tuple(col_names)
    return DataFrame._from_columns(out, _make_index(runiq, row_names), axis_names)


def _as_one_dtype(cols: list[Column]) -> list[Column]:
    """pandas pivots a list of values as one 2-D array (``frame[values].values``): NumPy numbers take
    their common type (int and float -> float64); one shared NumPy or string type stays; any other
    mix (booleans and numbers, masked columns) is an object array there, refused here."""
    from ember.ops.unary import astype

    if len(cols) == 1 and isinstance(cols[0], NumericColumn) and cols[0].nullable:
        # one masked column's array: its NumPy type, or float64 with NaN where values are missing
        col = cols[0]
        missing = col.null_count() > 0
        if col.dtype.kind == "b" and missing:
            raise NotImplementedError(
                "pivot() of a masked boolean with missing values: pandas makes it object"
            )
        return [astype(col, np.dtype(np.float64) if missing else col.dtype.numpy_dtype)]
    dtypes = [c.dtype for c in cols]
    plain = all(isinstance(t, np.dtype) for t in dtypes)
    if plain and all(t.kind in "iuf" for t in dtypes):
        common = np.result_type(*dtypes)
        return [c if c.dtype == common else astype(c, common) for c in cols]
    if all(t == dtypes[0] for t in dtypes) and (plain or isinstance(dtypes[0], pd.StringDtype)):
        return cols
    raise NotImplementedError(
        f"pivot() of values with dtypes {[str(t) for t in dtypes]}: pandas pivots them as one object "
        "array; pivot them one at a time or cast them to one type first"
    )


# --- melt --------------------------------------------------------------------------------------------


def melt(
    frame: DataFrame,
    id_vars: Any = None,
    value_vars: Any = None,
    var_name: Any = None,
    value_name: Any = "value",
    col_level: Any = None,
    ignore_index: bool = True,
) -> DataFrame:
    """``DataFrame.melt``: the value columns stacked one after another (all rows of the first value
    column first), the id columns repeated alongside, and a ``variable`` column naming the source
    (one per level of MultiIndex columns, or the labels of ``col_level`` alone)."""
    columns = frame.columns
    if value_name in columns:
        raise ValueError(f"value_name ({value_name}) cannot match an element in the DataFrame columns.")
    ids = _melt_vars(id_vars, "id_vars", columns)
    vals = _melt_vars(value_vars, "value_vars", columns)
    axis, positions = _melt_axis(columns, ids, vals, value_vars is not None, col_level)
    kept = {axis[p]: frame._columns[frame._names[p]] for p in positions}
    value_positions = [p for p in positions if axis[p] not in ids]
    var_names = _melt_var_names(axis[positions], var_name)
    output = (*ids, *var_names, value_name)
    dups = list({x for x in output if output.count(x) > 1})
    if dups:
        raise ValueError(f"melt output columns cannot contain duplicate names: {dups}")
    n, k = len(frame), len(value_positions)
    if not k:
        raise unsupported("melt", "no value columns (every column is an id column)")
    xp = next(iter(frame._columns.values())).xp
    src_row, src_col = rs.melt_indices(n, k, xp)
    # pandas 3 infers an id column of strings held as object to its str dtype
    out: dict[Any, Column] = {name: strings_if_held(kept[name].take(src_row)) for name in ids}
    value_axis = axis[value_positions]
    for i, name in enumerate(var_names):
        out[name] = from_any(_variable_labels(value_axis, i), xp).take(src_col)
    values = _stacked_values([kept[axis[p]] for p in value_positions])
    if values.dtype == object and isinstance(values, StringColumn) and len(values):
        if not bool(values.isna().all()):  # pandas 3 infers strings held as object to str
            values = inferred_strings(values)
    out[value_name] = values
    index = RangeIndex(n * k) if ignore_index else frame.index.take(src_row)
    return DataFrame._from_columns(out, index)


def _melt_vars(names: Any, argument: str, columns: pd.Index) -> list:
    """``id_vars`` / ``value_vars`` as a list, as pandas' ``ensure_list_vars``."""
    if names is None:
        return []
    if not pd.api.types.is_list_like(names):
        return [names]
    if isinstance(columns, pd.MultiIndex) and not isinstance(names, list):
        raise ValueError(f"{argument} must be a list of tuples when columns are a MultiIndex")
    return list(names)


def _melt_axis(columns: pd.Index, ids: list, vals: list, vals_given: bool, col_level: Any) -> tuple:
    """The column labels melt reads (those of ``col_level`` where given) and the positions of the
    columns it keeps (those named, each once in order of mention, where ``value_vars`` is given)."""
    if len(columns.get_indexer_for(ids)) > len(ids):
        raise ValueError("id_vars cannot contain duplicate columns.")
    axis = columns if col_level is None else columns.get_level_values(col_level)
    positions = list(range(len(columns)))
    if ids or vals:
        found = axis.get_indexer_for(ids + vals)
        missing = [k for k, i in zip(ids + vals, found, strict=True) if i == -1]
        if missing:
            raise KeyError(f"The following id_vars or value_vars are not present in the DataFrame: {missing}")
        if vals_given:
            positions = list(dict.fromkeys(int(i) for i in found))
    if not axis[positions].is_unique:
        raise unsupported(
            "melt", f"col_level={col_level!r} whose labels repeat (pandas melts a frame of them)"
        )
    return axis, positions


def _melt_var_names(axis: pd.Index, var_name: Any) -> list:
    """The variable columns' names: one per level of MultiIndex columns (the levels' names where they
    differ), the axis' name or ``variable`` otherwise, as pandas."""
    multi = isinstance(axis, pd.MultiIndex)
    if var_name is None:
        if not multi:
            return ["variable" if axis.name is None else axis.name]
        names = list(axis.names)
        return names if len(set(names)) == len(names) else [f"variable_{i}" for i in range(len(names))]
    if pd.api.types.is_list_like(var_name):
        if not multi:
            raise ValueError(f"{var_name=} must be a scalar.")
        var_name = list(var_name)
        if len(var_name) > len(axis):
            raise ValueError(
                f"{var_name=} has {len(var_name)} items, but the dataframe columns only have "
                f"{len(axis)} levels."
            )
        if len(var_name) > axis.nlevels:
            raise unsupported("melt", "more var_name entries than column levels")
        return var_name
    return [var_name]


def _variable_labels(value_axis: pd.Index, i: int) -> pd.Index:
    """Level ``i`` of the value columns' labels (their labels themselves for flat columns), in the
    column axis' dtype: pandas repeats that array, labels held as object stay object."""
    return value_axis.get_level_values(i)


def _stacked_zoned_times(cols: list[Column]) -> Column:
    """Several time-zone-aware value columns: pandas stacks them as Python objects and infers the
    result again, so no rows give an object column, only NaT a naive datetime64[s] one, times of
    several zones objects (refused); otherwise the zone's dtype in the finest unit."""
    from pandas.core.dtypes.cast import find_common_type

    from ember.ops.unary import astype

    common = find_common_type([c.dtype for c in cols])
    if common == object:
        zones = ", ".join(sorted({str(c.dtype) for c in cols}))
        raise unsupported("melt", f"value columns of dtypes {zones} (pandas stacks them as Python objects)")
    stacked = concat_columns([astype(c, common) for c in cols])
    if not len(stacked):
        return concat_columns([_object_strings(c) for c in cols])
    if bool(stacked.isna().all()):  # one sync
        return astype(from_scalar(np.datetime64("NaT"), len(stacked), stacked.xp), np.dtype("<M8[s]"))
    return stacked


def _stacked_values(cols: list[Column]) -> Column:
    """Columns one after another in pandas' common dtype of them (melt's value column): a masked
    common dtype makes NaN of numpy floats missing; an object one holds strings (or no rows), and is
    refused otherwise (ember holds no object column of mixed values)."""
    from pandas.core.dtypes.cast import find_common_type

    from ember.ops.unary import astype

    dtypes = [c.dtype for c in cols]
    if len(cols) > 1 and all(isinstance(d, pd.DatetimeTZDtype) for d in dtypes):
        return _stacked_zoned_times(cols)
    if all(d == dtypes[0] for d in dtypes):
        from ember.ops.object_missing import concat_marker

        return concat_marker(cols, concat_columns(cols))  # object columns keep their None / NaT
    common = find_common_type(dtypes)
    if common == object:
        if sum(len(c) for c in cols) == 0:
            return concat_columns([_object_strings(c) for c in cols])
        if all(isinstance(c, StringColumn) for c in cols):
            if any(len(c) and bool(c.isna().all()) for c in cols):  # a sync a column
                # pandas keeps an all-missing part's own NaN / pd.NA beside the others: refused
                raise unsupported("melt", "an object value column beside one holding only missing values")
            return concat_columns([_object_strings(c) for c in cols])
        kinds = ", ".join(sorted({str(d) for d in dtypes}))
        raise unsupported("melt", f"value columns of dtypes {kinds} (pandas stacks them as Python objects)")
    if isinstance(common, pd.api.extensions.ExtensionDtype) and not isinstance(common, pd.CategoricalDtype):
        cols = [c if c.dtype == common else astype(c, common) for c in cols]
    return concat_columns(cols)


def _object_strings(col: Column) -> Column:
    """Strings (or no rows) as pandas' object column."""

    if isinstance(col, StringColumn):
        return StringColumn(col.data, col.chars, col.mask, np.dtype(object), col.na)
    xp = col.xp
    return StringColumn(xp.zeros(1, dtype=np.int64), xp.zeros(0, dtype=np.uint8), None, np.dtype(object))


# --- stack / unstack ---------------------------------------------------------------------------------


def stack(frame: DataFrame, level: Any = -1, dropna: Any = _NO_DEFAULT) -> Any:
    """``DataFrame.stack`` (pandas 3's implementation): every cell becomes a row, row-major, with the
    column labels as a new innermost index level; missing values are kept. Frames with tuple labels
    (MultiIndex columns) stack one level (any, by position or name) into the index and keep a frame
    of the other levels, or all levels at once into a Series."""
    if dropna is not _NO_DEFAULT:
        raise ValueError(
            "dropna must be unspecified as the new implementation does not introduce rows of "
            "NA values. This argument will be removed in a future version of pandas."
        )
    levels = _stack_level_numbers(frame, level)
    if _tuple_labels(frame):
        if len(set(levels)) != len(levels):
            raise ValueError(f"level should not contain duplicate values, got level numbers {levels}")
        # pandas orders the new index levels by argsort(level) over the levels in column order
        ordered = [sorted(levels)[i] for i in np.argsort(levels)]
        if len(levels) == len(frame._names[0]):
            return _stack_all_levels(frame, ordered)
        return _stack_tuples(frame, ordered)
    n, k = len(frame), len(frame._names)
    if k == 0:
        raise unsupported("stack", "a frame with no columns")
    cols = _as_one_block(list(frame._columns.values()))
    xp = cols[0].xp
    src_row, src_col = rs.stack_indices(n, k, xp)
    values = concat_columns(cols).take(src_col * n + src_row)
    labels = from_any(pd.Index(frame._names), xp).take(src_col)
    levels = [c.take(src_row) for c in _index_columns(frame.index)]
    index = MultiIndex(levels + [labels], list(frame.index.names) + [_column_level_name(frame, -1)])
    return Series._from_column(values, index)


def _as_one_block(cols: list) -> list:
    """The columns in the dtype of pandas' ``frame._values`` (the dtype they share, else NumPy's
    interleaved one, found on empty skeletons on the host); a mix pandas keeps as objects is refused."""
    dtypes = [c.dtype for c in cols]
    if all(d == dtypes[0] for d in dtypes):
        return cols
    from ember.ops.unary import astype

    skeleton = pd.DataFrame({i: pd.Series([], dtype=d) for i, d in enumerate(dtypes)})
    target = skeleton._values.dtype
    if target == np.dtype(object):
        raise unsupported(
            "stack",
            f"columns of {', '.join(sorted({str(d) for d in dtypes}))}: pandas stacks them into an "
            "object column, which ember does not have",
        )
    return [c if c.dtype == target else astype(c, target) for c in cols]


def _stack_level_numbers(frame: DataFrame, level: Any) -> list[int]:
    """The column levels ``level`` names (positions or names; one or a list), with pandas' errors;
    read from the column labels on the host."""
    columns = frame.columns
    if _tuple_labels(frame) and len({len(k) for k in frame._names}) != 1:
        raise unsupported("stack", "tuple column labels of different lengths")
    wanted = level if isinstance(level, (list, tuple)) else [level]
    return [columns._get_level_number(lev) for lev in wanted]


def _column_level_name(frame: DataFrame, level: int) -> Any:
    """The name of one level of the frame's column axis (None when it has none)."""
    names = frame._axis_names
    return names[level] if names is not None else None


def _tuple_labels(frame: DataFrame) -> bool:
    return bool(frame._names) and all(isinstance(k, tuple) for k in frame._names)


def _stack_all_levels(frame: DataFrame, levels: list[int]) -> Series:
    """Every column level into the index (in ``levels``' order): a Series of every cell, row-major
    in column order, as pandas 3."""
    n, k = len(frame), len(frame._names)
    from ember.frame.convert import _concat_like_pandas

    cols = list(frame._columns.values())
    xp = cols[0].xp
    src_row, src_col = rs.stack_indices(n, k, xp)
    values = _concat_like_pandas(cols).take(src_col * n + src_row)
    parts = [from_any(pd.Index([key[lev] for key in frame._names]), xp).take(src_col) for lev in levels]
    rows = [c.take(src_row) for c in _index_columns(frame.index)]
    names = list(frame.index.names) + [_column_level_name(frame, lev) for lev in levels]
    return Series._from_column(values, MultiIndex(rows + parts, names))


def _stack_tuples(frame: DataFrame, levels: list[int]) -> DataFrame:
    """Stack some levels of tuple column labels: output columns are the distinct labels of the other
    levels, the new index levels the distinct labels of ``levels`` (both in order of appearance, as
    pandas 3); a combination the frame lacks gives missing values."""
    names = frame._names
    kept = [i for i in range(len(names[0])) if i not in levels]
    cell = {(tuple(k[i] for i in kept), tuple(k[i] for i in levels)): k for k in names}
    rests = list(dict.fromkeys(rest for rest, _ in cell))
    inner = list(dict.fromkeys(part for _, part in cell))
    n, m = len(frame), len(inner)
    xp = next(iter(frame._columns.values())).xp
    src_row, src_part = rs.stack_indices(n, m, xp)
    out: dict[Any, Column] = {}
    for rest in rests:
        key = rest[0] if len(rest) == 1 else rest
        block = _stacked_block([frame._columns.get(cell.get((rest, part))) for part in inner], key, n)
        out[key] = block.take(src_part * n + src_row)
    parts = [from_any(pd.Index([p[j] for p in inner]), xp).take(src_part) for j in range(len(levels))]
    row_levels = [c.take(src_row) for c in _index_columns(frame.index)]
    new_names = [_column_level_name(frame, lev) for lev in levels]
    index = MultiIndex(row_levels + parts, list(frame.index.names) + new_names)
    above = [frame._axis_names[i] for i in kept] if frame._axis_names is not None else None
    return DataFrame._from_columns(
        out, index, tuple(above) if above and any(a is not None for a in above) else None
    )


def _stacked_block(parts: list, name: Any, n: int) -> Column:
    """One output column of a MultiIndex stack: the parts (None where the frame lacks the
    combination) one after another, in the dtype of pandas' concat of DataFrames (missing parts
    filled with NA: ints turn float64)."""
    from ember.frame.convert import _all_missing, _common_dtype, _concat_like_pandas

    present = [p for p in parts if p is not None]
    missing = len(present) < len(parts)
    target = _common_dtype([p.dtype for p in present], frames=True, missing=missing)
    if missing:
        filler = _all_missing(present, target, name, n)
        parts = [filler if p is None else p for p in parts]
    return _concat_like_pandas(parts, name, frames=True, target=target)


def _level_number(index: MultiIndex, level: Any) -> int:
    if isinstance(level, (list, tuple)):
        if len(level) != 1:
            raise unsupported("unstack", f"level={level!r} (one level at a time)")
        level = level[0]
    names = index.names
    if level in names:
        if names.count(level) > 1:
            raise ValueError(f"The name {level} occurs multiple times, use a level number")
        return names.index(level)
    if isinstance(level, (int, np.integer)):
        lev = int(level) + (index.nlevels if level < 0 else 0)
        if not 0 <= lev < index.nlevels:
            raise IndexError(f"Too many levels: Index has only {index.nlevels} levels, not {level + 1}")
        return lev
    raise KeyError(f"Level {level} not found")


def unstack(obj: Any, level: Any = -1, fill_value: Any = None, sort: bool = True) -> Any:
    """``Series.unstack`` / ``DataFrame.unstack`` for a MultiIndex: one index level becomes the
    columns (sorted; ``sort=False``: in order of first appearance), the other levels stay as the
    index (likewise). A frame's columns become (column, level value) tuples. Duplicate (index,
    level) pairs raise pandas' ValueError."""
    index = obj.index
    if not isinstance(index, MultiIndex):
        if isinstance(obj, Series):
            raise ValueError(f"index must be a MultiIndex to unstack, {type(index.to_pandas())} was passed")
        return _unstack_flat(obj)
    lev = _level_number(index, level)
    levels = index.levels_columns
    keep = [i for i in range(index.nlevels) if i != lev]
    table, runiq, cuniq, holes = _pivot_grid(
        [levels[i] for i in keep], [levels[lev]], sort_columns=sort, dropna=False, sort_rows=sort
    )
    row_index = _make_index(runiq, [index.names[i] for i in keep])
    labels = _host_labels(cuniq[0])
    if isinstance(obj, Series):
        out = {lab: _gather(obj.column, table[:, j], holes, fill_value) for j, lab in enumerate(labels)}
        return DataFrame._from_columns(out, row_index, (index.names[lev],))
    out = {}
    for name, col in obj._columns.items():
        for j, lab in enumerate(labels):
            key = (*name, lab) if isinstance(name, tuple) else (name, lab)
            out[key] = _gather(col, table[:, j], holes, fill_value)
    depth = len(obj._names[0]) if obj._names and isinstance(obj._names[0], tuple) else 1
    above = obj._axis_names if obj._axis_names and len(obj._axis_names) == depth else (None,) * depth
    return DataFrame._from_columns(out, row_index, (*above, index.names[lev]))


def _unstack_flat(frame: DataFrame) -> Series:
    """``DataFrame.unstack`` of a one-level index: pandas' ``frame.T.stack()``, a Series of every
    column's values one after another (in the columns' common dtype) on (column, row) labels."""
    columns = frame.columns
    if isinstance(columns, pd.MultiIndex) or not frame._names or not len(frame):
        raise unsupported("unstack", "a one-level index beside MultiIndex columns, no columns or no rows")
    n, k = len(frame), len(frame._names)
    cols = [frame._columns[name] for name in frame._names]
    dtypes = {c.dtype for c in cols}
    if len(dtypes) > 1 and not all(isinstance(d, np.dtype) for d in dtypes):
        # pandas' transpose of mixed dtypes, one of them an extension dtype: object values
        raise unsupported(
            "unstack", "a one-level index over columns of mixed extension dtypes (pandas gives objects)"
        )
    values = _stacked_values(cols)
    src_row, src_col = rs.melt_indices(n, k, values.xp)
    outer = from_any(columns, values.xp).take(src_col)
    inner = _index_columns(frame.index)[0].take(src_row)
    return Series._from_column(values, MultiIndex([outer, inner], [columns.name, frame.index.name]))


# --- get_dummies -------------------------------------------------------------------------------------


def _dummy_columns(
    col: Column, prefix: Any, prefix_sep: str, dummy_na: bool, drop_first: bool, dtype: Any
) -> dict[Any, Column]:
    """One indicator column per distinct value (categories in category order, else sorted values),
    plus a NaN indicator with ``dummy_na``."""
    from ember.ops.factorize import factorize_keys

    xp = col.xp
    if isinstance(col, CategoricalColumn):
        codes = col.codes.astype(np.int64)
        labels = _host_labels(col.categories)
    else:
        codes, uniq, _ = factorize_keys([col], sort=True, dropna=True)
        labels = _host_labels(uniq[0])
    k = len(labels)
    if dummy_na:  # pandas appends NaN to the levels with numpy: int and bool labels turn float
        codes = xp.where(codes >= 0, codes, k)
        labels = np.append(np.asarray(labels, dtype=object if not labels else None), np.nan).tolist()
        k += 1
    mat = rs.one_hot(codes, k, dtype)
    names = [lab if prefix is None else f"{prefix}{prefix_sep}{lab}" for lab in labels]
    start = 1 if drop_first else 0
    return {names[j]: NumericColumn(xp.ascontiguousarray(mat[:, j])) for j in range(start, k)}


def _dummy_dtype(dtype: Any) -> np.dtype:
    if dtype is None:
        return np.dtype(bool)
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise unsupported("get_dummies", f"dtype={dtype!r} (numpy bool/int/float dtypes only)") from None
    if dt.kind not in "biuf":
        raise ValueError("dtype=object is not a valid dtype for get_dummies")
    return dt


def _encodable(col: Column) -> bool:
    return isinstance(col, (StringColumn, CategoricalColumn))


def get_dummies(
    data: Any,
    prefix: Any = None,
    prefix_sep: str = "_",
    dummy_na: bool = False,
    columns: Any = None,
    drop_first: bool = False,
    dtype: Any = None,
) -> DataFrame:
    """``pd.get_dummies``: one-hot indicator columns (bool by default). A DataFrame encodes its string
    and categorical columns (or ``columns``), keeps the others first, and prefixes labels with the
    column name (or ``prefix``: a string, list or dict)."""
    dt = _dummy_dtype(dtype)
    if not isinstance(prefix_sep, str):
        raise unsupported("get_dummies", "a non-string prefix_sep")
    if isinstance(data, Series):
        cols = _dummy_columns(data.column, prefix, prefix_sep, dummy_na, drop_first, dt)
        return DataFrame._from_columns(cols, data.index) if cols else DataFrame._from_columns({}, data.index)
    if not isinstance(data, DataFrame):
        raise unsupported(
            "get_dummies", f"data of type {type(data).__name__} (pass an ember Series or DataFrame)"
        )
    encode = (
        [k for k in data._names if _encodable(data._columns[k])] if columns is None else _as_list(columns)
    )
    for k in encode:
        _column(data, k)
    prefixes = _prefixes(prefix, encode)
    from ember.frame.frame_labels import labelled

    pairs = [(k, c) for k, c in data._columns.items() if k not in encode]
    for k, p in zip(encode, prefixes):
        pairs.extend(_dummy_columns(data._columns[k], p, prefix_sep, dummy_na, drop_first, dt).items())
    out = labelled([k for k, _ in pairs], [c for _, c in pairs], "get_dummies")  # a repeat is refused
    return DataFrame._from_columns(out, data.index)


def _prefixes(prefix: Any, encode: list) -> list:
    if prefix is None:
        return list(encode)
    if isinstance(prefix, str):
        return [prefix] * len(encode)
    if isinstance(prefix, dict):
        return [prefix.get(k, k) for k in encode]
    prefix = list(prefix)
    if len(prefix) != len(encode):
        raise ValueError(
            f"Length of 'prefix' ({len(prefix)}) did not match the length of the columns being "
            f"encoded ({len(encode)})."
        )
    return prefix

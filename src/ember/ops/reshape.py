"""Index arithmetic behind the frame's reshaping methods: melt, stack, unstack, pivot, get_dummies,
crosstab.

Reshapes move whole columns, so the work at this layer is computing *which source row* (and which
source column) feeds each output cell; the frame layer then gathers every column once with
``take`` / ``take_nullable``. Labels arrive here already factorized (int64 codes, e.g. from
``ops.factorize``), so every function works on plain integer arrays, the same on NumPy and CuPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.backend import array_module, to_host

DUPLICATE_ENTRIES = "Index contains duplicate entries, cannot reshape"


def repeat_indices(n: int, reps: int, xp: Any = np) -> Any:
    """``[0]*reps + [1]*reps + ...``: each of ``n`` positions ``reps`` times (``np.repeat`` of arange)."""
    return xp.arange(n * reps, dtype=np.int64) // max(reps, 1)


def tile_indices(n: int, reps: int, xp: Any = np) -> Any:
    """``[0..n-1]`` repeated ``reps`` times (``np.tile`` of arange)."""
    return xp.arange(n * reps, dtype=np.int64) % max(n, 1)


def melt_indices(n_rows: int, n_value_cols: int, xp: Any = np) -> tuple[Any, Any]:
    """(source row, source value column) of each row of ``DataFrame.melt``: pandas stacks the value
    columns one after another, all rows of the first value column first."""
    return tile_indices(n_rows, n_value_cols, xp), repeat_indices(n_value_cols, n_rows, xp)


def stack_indices(n_rows: int, n_cols: int, xp: Any = np) -> tuple[Any, Any]:
    """(source row, source column) of each row of ``DataFrame.stack``: row-major, every column of the
    first row first (pandas 3 keeps missing values, so every cell gives a row)."""
    return repeat_indices(n_rows, n_cols, xp), tile_indices(n_cols, n_rows, xp)


def _check_codes(index_codes: Any, column_codes: Any) -> Any:
    xp = array_module(index_codes, column_codes)
    if index_codes.shape != column_codes.shape:
        raise ValueError(
            f"pivot: index and column codes differ in length ({len(index_codes)} vs {len(column_codes)})"
        )
    return xp


def pivot_positions(index_codes: Any, column_codes: Any, n_index: int, n_columns: int) -> Any:
    """Flat positions ``index_code * n_columns + column_code`` (int64) of every source row in the
    row-major ``(n_index, n_columns)`` result of ``pivot`` / ``unstack``.

    Codes must lie in ``[0, n_index)`` / ``[0, n_columns)`` (factorize missing labels as a label of
    their own, as pandas keeps NaN labels). Raises pandas' ValueError ("Index contains duplicate
    entries, cannot reshape") when two rows land on one cell. Synchronizes once."""
    xp = _check_codes(index_codes, column_codes)
    pos = index_codes.astype(np.int64) * n_columns + column_codes.astype(np.int64)
    size = n_index * n_columns
    if len(pos) == 0:
        return pos
    bad_code = (
        (index_codes < 0) | (index_codes >= n_index) | (column_codes < 0) | (column_codes >= n_columns)
    ).any()
    safe = xp.where((pos >= 0) & (pos < size), pos, size)
    dup = (xp.bincount(safe, minlength=size + 1)[:size] > 1).any()
    flags = to_host(xp.stack([bad_code, dup]))
    if flags[0]:
        raise ValueError(f"pivot: codes out of range for a {n_index} x {n_columns} result")
    if flags[1]:
        raise ValueError(DUPLICATE_ENTRIES)
    return pos


def pivot_take(index_codes: Any, column_codes: Any, n_index: int, n_columns: int) -> Any:
    """The source row (int64) of every cell of the ``(n_index, n_columns)`` result of ``pivot`` /
    ``unstack``, -1 for cells no row fills: output column ``j`` is ``values.take_nullable(out[:, j])``.
    Raises like ``pivot_positions``. Synchronizes once."""
    xp = array_module(index_codes, column_codes)
    pos = pivot_positions(index_codes, column_codes, n_index, n_columns)
    out = xp.full(n_index * n_columns, -1, dtype=np.int64)
    out[pos] = xp.arange(len(pos), dtype=np.int64)
    return out.reshape(n_index, n_columns)


def one_hot(codes: Any, n_categories: int, dtype: Any = bool) -> Any:
    """``(len(codes), n_categories)`` indicator matrix for ``get_dummies``: row ``i`` has a one in
    column ``codes[i]``; missing codes (-1) give an all-zero row, as pandas' ``dummy_na=False``."""
    xp = array_module(codes)
    cats = xp.arange(n_categories, dtype=np.int64)
    return (codes.astype(np.int64)[:, None] == cats[None, :]).astype(dtype, copy=False)


def pair_counts(index_codes: Any, column_codes: Any, n_index: int, n_columns: int) -> Any:
    """``(n_index, n_columns)`` int64 counts of each (index code, column code) pair, for ``crosstab``;
    rows with a missing code (-1) are not counted, as pandas drops them."""
    xp = _check_codes(index_codes, column_codes)
    size = n_index * n_columns
    valid = (index_codes >= 0) & (column_codes >= 0)
    pos = xp.where(valid, index_codes.astype(np.int64) * n_columns + column_codes, size)
    counts = xp.bincount(pos, minlength=size + 1)[:size]
    return counts.astype(np.int64, copy=False).reshape(n_index, n_columns)

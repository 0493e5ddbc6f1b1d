"""Row hashes of ember frames for Dask's hash partitioning (shuffle, merge, groupby split).

Every partition must send equal keys to the same output, so a row's hash depends only on its values
and the column's dtype family: floats are hashed as float64 (float32 and float64 partitions agree,
-0.0 == 0.0, every NaN alike), integers and booleans as int64, strings by their UTF-8 bytes,
categoricals by their category values (partitions with different category sets agree) and nulls as one
constant. All of it is array code on ``col.xp``: no host round trip except the one inside the string
hash (its total byte count).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import Column
from ember.column.categorical import CategoricalColumn
from ember.column.numeric import NumericColumn
from ember.column.string import StringColumn
from ember.ops._strings import hash64

_NULL_HASH = np.uint64(0x9E3779B97F4A7C15)
_COMBINE = np.uint64(0x100000001B3)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def _mix(xp: Any, h: Any) -> Any:
    """splitmix64 finalizer: spreads low-entropy keys (small integers) over all 64 bits."""
    h = h ^ (h >> np.uint64(30))
    h = h * _MIX1
    h = h ^ (h >> np.uint64(27))
    h = h * _MIX2
    return h ^ (h >> np.uint64(31))


def _numeric_bits(col: NumericColumn) -> Any:
    xp = col.xp
    data = col.data
    if data.dtype.kind == "f":
        f = data.astype(np.float64) + 0.0  # -0.0 + 0.0 == +0.0
        f = xp.where(xp.isnan(f), np.float64(np.nan), f)
        return f.view(np.uint64)
    return data.astype(np.int64).view(np.uint64)


def _string_bits(col: StringColumn) -> Any:
    xp = col.xp
    offsets = col.data
    starts = offsets[:-1]
    lengths = offsets[1:] - starts
    return hash64(xp, (starts, lengths, col.chars))


def column_hash(col: Column) -> Any:
    """uint64 hash per row of one column (nulls hash to one constant)."""
    xp = col.xp
    if isinstance(col, CategoricalColumn):
        cats = column_hash(col.categories)
        codes = col.data
        h = cats[xp.maximum(codes, 0)] if len(col.categories) else xp.zeros(len(codes), dtype=np.uint64)
        return xp.where(codes < 0, _NULL_HASH, h)
    if isinstance(col, StringColumn):
        h = _string_bits(col)
    elif isinstance(col, NumericColumn):
        h = _mix(xp, _numeric_bits(col))
    else:  # datetime / timedelta: int64 ticks
        h = _mix(xp, col.data.astype(np.int64).view(np.uint64))
    if col.mask is not None:
        h = xp.where(col.mask, h, _NULL_HASH)
    elif isinstance(col, NumericColumn) and col.data.dtype.kind == "f":
        h = xp.where(xp.isnan(col.data), _NULL_HASH, h)
    return h


def hash_columns(cols: list[Column], n: int, xp: Any) -> Any:
    """One uint64 per row combining the hashes of ``cols`` in order (pandas' combine order)."""
    out = xp.zeros(n, dtype=np.uint64)
    for col in cols:  # a loop over columns, not rows
        out = _mix(xp, out * _COMBINE + column_hash(col))
    return out

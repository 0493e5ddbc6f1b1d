"""List columns of strings (``str.split(expand=False)``, ``str.findall``) and the operations pandas
offers on them (``.str.get / len / join``, ``Series.explode``), in array code on either device."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ember.backend import asarray_on
from ember.column import Column, NumericColumn, StringColumn
from ember.ops.strings import _check, _host_splitter, split


def split_lists(
    col: StringColumn, pat: str | None = None, n: int = -1, reverse: bool = False, regex: bool | None = None
) -> Column:
    """``str.split(expand=False)``: a list column of each row's pieces (a missing row stays missing)."""
    from ember.column.list import ListColumn, list_na
    from ember.ops.regex import lists_from_unique

    _check(col, "rsplit" if reverse else "split")
    n = -1 if n in (None, 0) else n
    fn = _host_splitter(pat, n, reverse, regex)
    if fn is not None:
        return lists_from_unique(col, fn)
    pieces = split(col, pat, n, reverse, regex)
    xp, rows = col.xp, len(col)
    present = [~p.isna() for p in pieces]
    counts = sum((m.astype(np.int64) for m in present), xp.zeros(rows, dtype=np.int64))
    offsets = xp.zeros(rows + 1, dtype=np.int64)
    xp.cumsum(counts, out=offsets[1:])
    total = int(offsets[-1])
    if not pieces or total == 0:
        values = col.empty_like(0)
    else:
        from ember.backend.primitives import repeat_positions
        from ember.column import concat_columns

        owner = repeat_positions(counts, offsets[1:], total)
        k = xp.arange(total, dtype=np.int64) - offsets[:-1][owner]
        values = concat_columns(pieces).take(k * rows + owner)  # pieces are stacked piece-major
        values = values.with_mask(None)
    return ListColumn(offsets, values, col.mask, list_na(col.pd_dtype, col.na))


def findall(col: StringColumn, pat: str, flags: int = 0) -> Column:
    """``str.findall``: the list of every match of ``pat`` per row (Python's ``re`` once per distinct
    value, as extract)."""
    from ember.ops.regex import lists_from_unique

    _check(col, "findall")
    rx = re.compile(pat, flags)
    return lists_from_unique(col, rx.findall)


def list_get(col: Any, i: int) -> StringColumn:
    """Item ``i`` of each list (negative: from the end); missing where the list is shorter or missing.
    pandas gives an object Series."""
    xp = col.xp
    counts = col.lengths()
    pos = xp.where(counts > 0, i if i >= 0 else counts + i, -1)
    ok = (pos >= 0) & (pos < counts)
    if col.mask is not None:
        ok &= col.mask
    item = xp.where(ok, col.offsets[:-1] + pos, -1)
    out = col.values.take_nullable(item) if len(col.values) else col.values.empty_like(len(col))
    return StringColumn(out.offsets, out.chars, ok, np.dtype(object))


def list_len(col: Any) -> NumericColumn:
    """Items per list: int64, or float64 with NaN for missing lists (as pandas)."""
    counts = col.lengths()
    if col.mask is None:
        return NumericColumn(counts)
    return NumericColumn(col.xp.where(col.mask, counts.astype(np.float64), np.nan))


def list_join(col: Any, sep: str) -> StringColumn:
    """Each list's items joined with ``sep`` (an object column, missing lists stay missing). The items
    and separators are laid out as segments (item, separator) of one gather of bytes."""
    from ember.backend.primitives import gather_bytes

    xp = col.xp
    vals = col.values
    sep_b = asarray_on(np.frombuffer(sep.encode("utf-8"), dtype=np.uint8), xp)
    chars = xp.concatenate([vals.chars, sep_b])
    m = len(vals)
    last = xp.zeros(m, dtype=bool)
    ends = col.offsets[1:][col.lengths() > 0] - 1
    last[ends] = True
    seg_start = xp.stack([vals.offsets[:-1], xp.full(m, vals.chars.shape[0], dtype=np.int64)], axis=1).ravel()
    seg_len = xp.stack([vals.lengths(), xp.where(last, 0, sep_b.shape[0])], axis=1).ravel()
    seg_offs = xp.zeros(2 * m + 1, dtype=np.int64)
    if m:
        xp.cumsum(seg_len, out=seg_offs[1:])
    out_chars = gather_bytes(chars, seg_start, seg_offs)
    return StringColumn(seg_offs[2 * col.offsets], out_chars, col.mask, np.dtype(object))


def list_explode(col: Any) -> tuple[StringColumn, Any]:
    """One row per item (an empty or missing list: one missing row), and the source row of each."""
    from ember.backend.primitives import repeat_positions

    xp = col.xp
    counts = col.lengths()
    if col.mask is not None:
        counts = xp.where(col.mask, counts, 0)
    emit = xp.maximum(counts, 1)
    ends = xp.cumsum(emit)
    total = int(ends[-1]) if len(col) else 0
    owner = repeat_positions(emit, ends, total)
    k = xp.arange(total, dtype=np.int64) - (ends - emit)[owner]
    has = k < counts[owner]
    item = xp.where(has, col.offsets[:-1][owner] + k, -1)
    out = col.values.take_nullable(item) if len(col.values) else col.values.empty_like(total)
    return StringColumn(out.offsets, out.chars, has, None), owner

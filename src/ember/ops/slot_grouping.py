"""Groups of a small integer key range found by slots, with no per-row group codes.

A key whose values span a small range (categorical codes, small ints, bools, and several such keys
combined in mixed radix) maps each row to the slot ``key - lo``. One pass over the key counts each
slot's rows and finds its first row (``backend.kernels.slots.slot_rows``); the occupied slots are the
groups, in slot order (= sorted key order, missing keys last) or by first row (``sort=False``). Sums,
means and counts then read the key and the values once per column (``slot_sums``) and gather the
groups' slots: no per-row codes, no sort. Per-row codes are made only when another aggregation asks
for them (``SlotMap.codes``). One device sync learns the number of groups and of dropped rows (plus
one for the key range of a key that is not categorical).

A key whose range is too wide for a slot per value (high-cardinality keys combined, sparse ints or
timestamps) is first given a slot per distinct value by a hash table (``kernels.slots.hash_slots``):
the row's slot is then the key of the same slot kernels, and the groups are ordered by their key
(``sort``) or first row. A key of a range small enough for a direct map is left to ``ops.factorize``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ember.backend import array_module, asarray_on, to_host
from ember.backend.kernels.slots import (
    combine_keys,
    hash_capacity,
    hash_slots,
    number_groups,
    place_groups,
    slot_lookup,
    slot_rows,
    split_keys,
)
from ember.backend.primitives import order_of_distinct, stable_argsort
from ember.column import CategoricalColumn, Column
from ember.ops.factorize import direct_key, direct_map_fits, int_like, key_ranges

_MAX_SLOTS = (1 << 31) - 1  # the kernels index slots with 32-bit ints
_ROWS_PER_SLOT = 8
_HOST_TABLE_SLOTS = 1 << 12  # slot tables up to this size go to the host to be finished
_MIN_SLOTS = 1 << 16
_MAX_HASHED_SPAN = 1 << 62  # a hashed key (relative to its minimum, or keys combined) is an int64


class SlotMap(NamedTuple):
    """Rows' slots (``key - lo``, the last slot for a missing key) and the groups' slots."""

    key: Any  # per-row integer key: the raw values, categorical codes, or several keys combined
    key_valid: Any  # validity of ``key`` (None: every value in range is valid)
    lo: int
    nslots: int  # the key range + 1: the last slot holds the rows with a missing key
    slot_of_group: Any  # int64, ngroups
    group_of_slot: Any  # int64, nslots; -1 for a slot that is no group (empty, or dropped missing keys)
    owned: bool = False  # ``key`` was made for this grouping (several keys combined), not a column's

    def codes(self) -> Any:
        """Per-row group codes (-1 for a dropped row)."""
        return slot_lookup(self.key, self.lo, self.nslots, self.group_of_slot, self.key_valid)

    def keyed_by(self, codes: Any, ngroups: int) -> SlotMap:
        """The same groups with the per-row codes as the key (slot = group, the dropped rows' -1 in the
        last slot): a made key can then be let go once codes exist (one int64 array, not two)."""
        xp = array_module(codes)
        groups = xp.arange(ngroups, dtype=np.int64)
        return SlotMap(
            codes, None, 0, ngroups + 1, groups, xp.concatenate([groups, xp.full(1, -1, dtype=np.int64)])
        )


class _SlotKey(NamedTuple):
    key: Any
    key_valid: Any
    lo: int
    span: int  # slots of key values; slot ``span`` is the missing key's
    # group slots -> the groups' key values, one column per key (None when hashed: not needed)
    decode: Callable[[Any], list[Column]] | None
    hashed: bool = False  # too wide for a slot per value: slots come from a hash table of the key


def slot_grouping(
    key_cols: list[Column], sort: bool, dropna: bool
) -> tuple[SlotMap, list[Column], int, int, Any] | None:
    """(slot map, key values of the groups, ngroups, dropped rows, rows per group with the dropped count
    last), or None when the keys are not integer-like or their range is too wide for slots."""
    n = len(key_cols[0])
    if n == 0 or not all(int_like(c) for c in key_cols):
        return None
    found = _single_key(key_cols[0]) if len(key_cols) == 1 else _combined_key(key_cols, dropna)
    if found is None:
        return None
    if found.hashed:
        return _hashed_grouping(found, key_cols, sort, dropna)
    xp = key_cols[0].xp
    nslots = found.span + 1
    counts, first = slot_rows(found.key, found.lo, nslots, found.key_valid)
    # a small table is finished on the host: one transfer instead of some thirty tiny launches (a
    # large one stays: sorting its first rows on the host would cost more)
    tx = np if nslots <= _HOST_TABLE_SLOTS else xp
    if tx is np:
        counts, first = to_host(xp.stack([counts, first]))
    slots, group_of_slot, sizes, ngroups, dropped = _occupied(counts, first, found.span, sort, dropna, tx, n)
    if tx is not xp:  # one upload for the three small tables, then views of it
        packed = asarray_on(np.concatenate([slots, group_of_slot, sizes]), xp)
        cut = np.cumsum([len(slots), len(group_of_slot)])
        slots, group_of_slot, sizes = packed[: cut[0]], packed[cut[0] : cut[1]], packed[cut[1] :]
    owned = len(key_cols) > 1
    slot_map = SlotMap(found.key, found.key_valid, found.lo, nslots, slots, group_of_slot, owned)
    return slot_map, found.decode(slots), ngroups, dropped, sizes


def _hashed_grouping(
    found: _SlotKey, key_cols: list[Column], sort: bool, dropna: bool
) -> tuple[SlotMap, list[Column], int, int, Any]:
    """``slot_grouping`` of a key given slots by a hash table: the groups are numbered from the rows
    (a group's first row ranks it), not from the table, which holds ~1.5 slots per row; with ``sort``
    they are then ordered by key. The groups' keys are the key columns at their first rows (in
    first-appearance order those rows ascend: a near-sequential gather, where splitting the combined
    key took two 64-bit divisions per key). One sync."""
    row_slot, slot_keys, counts, first = hash_slots(found.key, found.span, found.key_valid)
    xp = array_module(row_slot)
    nslots = int(slot_keys.shape[0])
    heads, rank = number_groups(row_slot, first, drop_null=dropna)
    dropped_d = counts[nslots - 1].astype(np.int64) if dropna else xp.zeros((), dtype=np.int64)
    ngroups, dropped = (int(v) for v in to_host(xp.stack([rank[-1], dropped_d])))
    slots, group_of_slot = place_groups(heads, rank, row_slot, ngroups, nslots)
    del heads, rank
    if sort and ngroups:
        slots = slots[stable_argsort(slot_keys[slots])]
        group_of_slot[slots] = xp.arange(ngroups, dtype=np.int64)
    sizes = xp.empty(ngroups + 1, dtype=np.int64)
    sizes[:ngroups] = counts[slots]
    sizes[ngroups] = dropped
    slot_map = SlotMap(row_slot, None, 0, nslots, slots, group_of_slot, owned=True)
    rows = first[slots].astype(np.int64)
    return slot_map, [col.take(rows) for col in key_cols], ngroups, dropped, sizes


def _occupied(
    counts: Any, first: Any, span: int, sort: bool, dropna: bool, xp: Any, nrows: int
) -> tuple[Any, Any, Any, int, int]:
    """(the groups' slots in group order, each slot's group or -1, rows per group with the dropped
    count last, ngroups, dropped rows) from the slot table. One sync (none on the host)."""
    nslots = span + 1
    present = counts > 0
    if dropna:
        present[span] = False
    label = xp.cumsum(present)
    dropped_d = counts[span] if dropna else xp.zeros((), dtype=np.int64)
    ngroups, dropped = (int(v) for v in to_host(xp.stack([label[-1], dropped_d.astype(label.dtype)])))
    # the occupied slots in order: each writes its rank; the unoccupied all write the spare last entry
    slots = xp.empty(ngroups + 1, dtype=np.int64)
    slots[xp.where(present, label - 1, ngroups)] = xp.arange(nslots, dtype=np.int64)
    slots = slots[:ngroups]
    if not sort and ngroups:
        slots = slots[order_of_distinct(first[slots], nrows)]
    group_of_slot = xp.full(nslots, -1, dtype=np.int64)
    group_of_slot[slots] = xp.arange(ngroups, dtype=np.int64)
    sizes = xp.empty(ngroups + 1, dtype=np.int64)
    sizes[:ngroups] = counts[slots]
    sizes[ngroups] = dropped
    return slots, group_of_slot, sizes, ngroups, dropped


def _hashable(span: int, n: int) -> bool:
    """A key too wide for slots is hashed when a direct map cannot take it either (that one gives
    sorted codes with no table of keys to order) and its table fits int32 slots."""
    return span <= _MAX_HASHED_SPAN and not direct_map_fits(span, n) and hash_capacity(n, span) is not None


def _fits(span: int, n: int, hi: int) -> bool:
    """Slots pay per slot (tables of ~7 int64 per slot): at most one per 8 rows, or 65,536. Wider
    ranges are left to the direct map or the sort of ``ops.factorize``."""
    limit = max(n // _ROWS_PER_SLOT, _MIN_SLOTS)
    return span <= limit and span < _MAX_SLOTS and hi <= np.iinfo(np.int64).max


def _single_key(col: Column) -> _SlotKey | None:
    if isinstance(col, CategoricalColumn):
        lo, hi = 0, len(col.categories) - 1
    else:
        lo, hi = key_ranges([col])[0]
    if lo > hi:  # no value at all: only the missing key's slot
        lo, hi = 0, -1
    span = hi - lo + 1
    key_valid = None if isinstance(col, CategoricalColumn) else col.mask
    if _fits(span, len(col), hi):
        return _SlotKey(
            direct_key(col), key_valid, lo, span, lambda slots: [_values_of_slots(col, slots, lo, span)]
        )
    if hi > np.iinfo(np.int64).max or not _hashable(span, len(col)):
        return None
    rel = direct_key(col).astype(np.int64) - lo  # a new array: the hashed key, in [0, span) where valid
    return _SlotKey(rel, key_valid, 0, span, None, hashed=True)  # keys taken at the groups' first rows


def _values_of_slots(col: Column, slots: Any, lo: int, span: int) -> Column:
    """The key values of slots (``span``: the missing key)."""
    xp = col.xp
    if isinstance(col, CategoricalColumn):
        return col._with_codes(xp.where(slots < span, slots + lo, -1).astype(col.data.dtype))
    data = (slots + lo if lo else slots).astype(col.data.dtype, copy=False)
    return col._rebuild(data, None if col.mask is None else slots < span)


def _combined_key(cols: list[Column], dropna: bool) -> _SlotKey | None:
    """Several keys as one: each key's slot (its missing key one past its values) in mixed radix, which
    keeps the keys' lexicographic order. With ``dropna`` a row missing any key gets a combined key past
    every slot, which the slot kernels count in the missing-key slot. One sync for the ranges of the
    keys that are not categorical; the combined key is one pass over the keys (``combine_keys``)."""
    n = len(cols[0])
    ranges = [(0, len(c.categories) - 1) if isinstance(c, CategoricalColumn) else None for c in cols]
    known = [hi - lo + 2 for lo, hi in (r for r in ranges if r is not None)]
    if int(np.prod(known, dtype=object)) > _MAX_HASHED_SPAN:  # too wide already: no sync for the rest
        return None
    plain = [c for c, r in zip(cols, ranges) if r is None]
    if plain:
        found = iter(key_ranges(plain))
        ranges = [r if r is not None else next(found) for r in ranges]
    ranges = [(0, -1) if lo > hi else (lo, hi) for lo, hi in ranges]
    if any(hi > np.iinfo(np.int64).max for _, hi in ranges):
        return None
    # (radix, the digit of a missing key or None, lo) per key: a key that may miss one takes one more digit
    digits = [
        (hi - lo + 1 + c.has_nulls_possible, hi - lo + 1 if c.has_nulls_possible else None, lo)
        for c, (lo, hi) in zip(cols, ranges)
    ]
    total = int(np.prod([max(r, 1) for r, _, _ in digits], dtype=object))
    hashed = not _fits(total, n, total - 1)
    if hashed and not _hashable(total, n):
        return None
    combined = combine_keys(
        [direct_key(c) for c in cols],
        [None if isinstance(c, CategoricalColumn) else c.mask for c in cols],
        [lo for _, _, lo in digits],
        [radix for radix, _, _ in digits],
        [null_digit for _, null_digit, _ in digits],
        total if dropna else None,  # past every key: the missing-key slot (hashed: the null slot)
    )

    def decode(slots: Any) -> list[Column]:
        parts = split_keys(slots, [radix for radix, _, _ in digits])
        return [
            _values_of_slots(col, digit, lo, radix if null_digit is None else null_digit)
            for col, digit, (radix, null_digit, lo) in zip(cols, parts, digits)
        ]

    return _SlotKey(combined, None, 0, total, decode, hashed)

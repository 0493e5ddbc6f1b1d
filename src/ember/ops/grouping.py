"""The Grouping of rows by key columns (codes + lazily cached segment structure) and row positions in
group order (head / tail / nth, cumcount).

Integer-like keys (categorical codes, ints, bools, datetimes, several such keys combined) group by
slots (``ops.slot_grouping``): a slot per key value when the range is small, else a slot per distinct
value from a device hash table; no per-row codes until an aggregation other than sum, mean, count or
size needs them. A range a direct map takes, and keys of other types (strings, floats), are factorized
(``ops.factorize``: a direct map, else a sort). Rows whose key is dropped have code -1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import array_module
from ember.backend.kernels.segment import segment_count
from ember.backend.primitives import stable_argsort
from ember.column import CategoricalColumn, Column, NumericColumn, StringColumn
from ember.ops.factorize import factorize_keys, factorize_with_info
from ember.ops.slot_grouping import SlotMap, slot_grouping


class Grouping:
    """Group codes of the rows (-1 = dropped), the groups' key values, and, computed on first use and
    shared by every aggregation over this grouping, the rows' stable order by group and group offsets."""

    def __init__(
        self,
        codes: Any,
        ngroups: int,
        uniques: list[Column],
        dropped: int,
        may_have_empty: bool = False,
        slots: SlotMap | None = None,
        sizes: Any = None,
    ) -> None:
        self._codes = codes
        self.ngroups = ngroups
        self.uniques = uniques
        self.dropped = dropped
        self.may_have_empty = may_have_empty  # groups without rows (observed=False categories)
        self.slots = slots  # a small key range's slot map: sums and counts need no per-row codes
        self._cache: dict[str, Any] = {} if sizes is None else {"sizes": sizes}
        rows = codes if codes is not None else slots.key
        self.xp = array_module(rows)
        self.nrows = int(rows.shape[0])

    @property
    def codes(self) -> Any:
        """Group of each row (int64, -1 = dropped); made from the slot map on first use."""
        if self._codes is None:
            self._codes = self.slots.codes()
            if self.slots.owned:  # several keys combined for this grouping: the codes replace them
                self.slots = self.slots.keyed_by(self._codes, self.ngroups)
        return self._codes

    @property
    def seg(self) -> Any:
        """Codes with dropped rows sent to the dump group ``ngroups``."""
        if "seg" not in self._cache:
            c = self.codes
            self._cache["seg"] = c if self.dropped == 0 else self.xp.where(c >= 0, c, self.ngroups)
        return self._cache["seg"]

    @property
    def sizes(self) -> Any:
        """Rows per group, dump group last (ngroups + 1)."""
        if "sizes" not in self._cache:
            self._cache["sizes"] = segment_count(self.seg, self.ngroups + 1)
        return self._cache["sizes"]

    @property
    def order(self) -> Any:
        """Stable order of the rows by group (dropped rows last)."""
        if "order" not in self._cache:
            self._cache["order"] = stable_argsort(self.seg, bound=self.ngroups + 1)
        return self._cache["order"]

    @property
    def offsets(self) -> Any:
        """First sorted position of each group (ngroups + 2 entries: dump group, then the end)."""
        if "offsets" not in self._cache:
            xp = self.xp
            off = xp.zeros(self.ngroups + 2, dtype=np.int64)
            xp.cumsum(self.sizes, out=off[1:])
            self._cache["offsets"] = off
        return self._cache["offsets"]

    @property
    def sorted_seg(self) -> Any:
        if "sorted_seg" not in self._cache:
            self._cache["sorted_seg"] = self.seg[self.order]
        return self._cache["sorted_seg"]

    @property
    def max_size(self) -> int:
        """Rows in the largest real group. Synchronizes (once per grouping)."""
        if "max_size" not in self._cache:
            self._cache["max_size"] = int(self.sizes[: self.ngroups].max()) if self.ngroups else 0
        return self._cache["max_size"]

    def scatter_target(self, valid: Any) -> Any:
        """Group of each row, with rows that are not ``valid`` sent to the dump group."""
        return self.seg if valid is None else self.xp.where(valid, self.seg, self.ngroups)


def categorical_grouping(keys: list[Column]) -> Grouping:
    """``groupby(keys, observed=False)`` with a categorical among the keys: the groups are the product
    of every key's levels, empty combinations included, in sorted order (pandas' Cartesian product):
    a categorical key's levels are all its categories, another key's its distinct values. Rows with a
    missing key are dropped. One sync per non-categorical key (its factorization) and one for the
    dropped-row count."""
    xp = keys[0].xp
    level_codes, levels = [], []
    for col in keys:
        if isinstance(col, CategoricalColumn):
            ncat = len(col.categories)
            level_codes.append(col.codes.astype(np.int64))
            levels.append(CategoricalColumn(xp.arange(ncat, dtype=np.int32), col.categories, col.ordered))
        else:
            codes, uniques, _ = factorize_keys([col], sort=True, dropna=True)
            level_codes.append(codes)
            levels.append(key_uniques(uniques[0], col))
    sizes = [len(level) for level in levels]
    total = int(np.prod(sizes, dtype=object))
    codes = xp.zeros(len(keys[0]), dtype=np.int64)
    missing = xp.zeros(len(keys[0]), dtype=bool)
    for c, size in zip(level_codes, sizes):
        codes = codes * size + c
        missing |= c < 0
    codes = xp.where(missing, -1, codes)
    dropped = int(missing.sum())
    group = xp.arange(total, dtype=np.int64)
    uniques, stride = [], total
    for level, size in zip(levels, sizes):  # group g's position in key i's levels: mixed-radix digit i
        stride //= max(size, 1)
        # (no group at all when a level is empty: every key's uniques are empty then)
        uniques.append(level.take((group // max(stride, 1)) % max(size, 1)) if total else level.take(group))
    return Grouping(codes, total, uniques, dropped, may_have_empty=True)


def _check_sortable_object_bools(key_cols: list[Column]) -> None:
    """pandas sorts an object key of True / False beside a missing value by Python's comparisons
    with NaN (no order: its result follows the data) or None (TypeError, another fallback): refused.
    One sync a such key."""
    for col in key_cols:
        if isinstance(col, NumericColumn) and col.dtype == object and col.mask is not None:
            some, every = (bool(v) for v in col.xp.stack([col.mask.any(), col.mask.all()]).tolist())
            if some and not every:  # True / False beside a missing value
                from ember.column.base import Unsupported, unsupported_hint

                raise Unsupported(
                    "groupby(sort=True, dropna=False) of an object key of True / False with missing "
                    "values is not supported by ember (pandas orders it by Python comparisons with "
                    "NaN); use sort=False or cast the key first." + unsupported_hint()
                )


def make_grouping(key_cols: list[Column], sort: bool = True, dropna: bool = True) -> Grouping:
    """Factorize the key columns into a Grouping: by slots for a small integer key range (see
    ``ops.slot_grouping``), else by ``factorize_keys`` (one device sync, plus one for the range of an
    integer key)."""
    if sort and not dropna:
        _check_sortable_object_bools(key_cols)
    by_slots = slot_grouping(key_cols, sort, dropna)
    if by_slots is not None:
        slot_map, uniques, ngroups, dropped, sizes = by_slots
        uniques = [key_uniques(u, k) for u, k in zip(uniques, key_cols)]
        return Grouping(None, ngroups, uniques, dropped, slots=slot_map, sizes=sizes)
    codes, uniques, ngroups, dropped, _ = factorize_with_info(
        key_cols, sort=sort, dropna=dropna, need_first=False
    )
    return Grouping(codes, ngroups, [key_uniques(u, k) for u, k in zip(uniques, key_cols)], dropped)


def key_uniques(uniques: Column, key: Column) -> Column:
    """The groups' keys of a key column as pandas infers them from the key's own values (each key
    alone, also among several): an object key holding a string gives ``str`` keys, one holding none
    stays ``object`` without groups, and gives float64 NaN for its missing key (``dropna=False``).
    One device sync, for an object key with missing values. An object key of True / False (a bool
    column with a mask) gives ``bool`` keys when none of them is missing, float64 NaN when all are
    (a sync each)."""
    if isinstance(uniques, NumericColumn) and not uniques.nullable and uniques.data.dtype.kind == "b":
        mask = uniques.mask
        if mask is None or not len(uniques):
            return uniques
        if bool(mask.all()):  # sync: pandas infers bool keys
            return NumericColumn(uniques.data)
        if not bool(mask.any()):  # only the missing key: pandas infers float64 NaN
            return NumericColumn(uniques.xp.full(len(uniques), np.nan))
        return NumericColumn(uniques.data, mask, False, np.nan)  # (pandas' missing key is NaN)
    if not (isinstance(uniques, StringColumn) and uniques.pd_dtype == np.dtype(object)):
        return uniques
    if len(key) and (key.mask is None or bool(key.mask.any())):  # sync: some key is a string
        return inferred_strings(uniques)
    if len(uniques) == 0:
        return uniques
    return NumericColumn(uniques.xp.full(len(uniques), np.nan))


def strings_if_held(col: Column) -> Column:
    """An object column holding a string as pandas 3's ``str`` dtype (what pandas infers when it builds
    the column anew); without any string (no rows, or only missing values) it stays object. One
    sync, for an object column with missing values."""
    if not (isinstance(col, StringColumn) and col.pd_dtype == np.dtype(object)) or not len(col):
        return col
    if col.mask is not None and not bool(col.mask.any()):
        return col
    return inferred_strings(col)


def inferred_strings(col: Column) -> Column:
    """An object column of strings as pandas 3's ``str`` dtype: the groups' keys of such a column
    (pandas infers the result index's dtype from the values)."""
    if isinstance(col, StringColumn) and col.pd_dtype == np.dtype(object):
        if _nat_missing(col):  # pandas infers 'mixed' from strings beside NaT: object stays
            return col
        return StringColumn(col.data, col.chars, col.mask)  # the default: pandas' str
    return col


def _nat_missing(col: StringColumn) -> bool:
    """Whether the column's missing values are NaT objects and one is present (a sync)."""
    nat = col.na is pd.NaT or (isinstance(col.na, (np.datetime64, np.timedelta64)) and np.isnat(col.na))
    return nat and col.mask is not None and not bool(col.mask.all())


# --- rows in group order (also for the transforms: ops.group_transform) --------------------------------


def nth_rows(g: Grouping, n: int) -> Any:
    """Row of the n-th member of each group (negative: from the end), -1 when the group is shorter."""
    xp = g.xp
    sizes = g.sizes[: g.ngroups]
    start = g.offsets[: g.ngroups]
    p = start + (n if n >= 0 else sizes + n)
    ok = (n < sizes) if n >= 0 else (-n <= sizes)
    if g.nrows == 0:
        return xp.full(g.ngroups, -1, dtype=np.int64)
    return xp.where(ok, g.order[xp.clip(p, 0, g.nrows - 1)], -1)


def rows_back(g: Grouping, per_sorted: Any) -> Any:
    """Values computed in sorted-by-group order, put back in row order."""
    out = g.xp.empty_like(per_sorted)
    out[g.order] = per_sorted
    return out


def cumcount(g: Grouping, ascending: bool = True) -> Any:
    xp = g.xp
    sseg = g.sorted_seg
    local = xp.arange(g.nrows, dtype=np.int64)
    local -= g.offsets[sseg]
    if not ascending:
        local = g.sizes[sseg] - 1 - local
    return rows_back(g, local)


# --- row selections ----------------------------------------------------------------------------------


def head_tail_positions(g: Grouping, n: int, tail: bool = False) -> Any:
    """Row positions (int64, in row order) of ``GroupBy.head(n)`` / ``tail(n)``; negative ``n`` keeps
    all but the last / first ``-n`` rows of each group; dropped rows are never selected. Synchronizes.

    Works in group order (each row's place in its group), keeps the selected rows' positions and sorts
    only those: no per-row array goes back to row order."""
    xp = g.xp
    order = g.order
    # each row's place in its group, in group order, built in one array (memory: q8 keeps its frame)
    sseg = g.seg[order]
    place = g.offsets[sseg]
    xp.subtract(xp.arange(g.nrows, dtype=np.int64), place, out=place)
    if tail:  # counted from the group's end
        place = g.sizes[sseg] - 1 - place
    if n < 0:
        place -= g.sizes[sseg]  # keep place < size + n
    keep = place < n
    del place
    if g.dropped:
        keep &= sseg < g.ngroups  # the dump group holds the dropped rows
    return xp.sort(order[keep]).astype(np.int64, copy=False)


def nth_positions(g: Grouping, n: int) -> Any:
    """Row positions (int64, in row order) of ``GroupBy.nth(n)``: the n-th row of each group (negative
    n counts from the end; groups too short give none). Synchronizes."""
    xp = g.xp
    if n >= 0:
        keep = cumcount(g) == n
    else:
        keep = cumcount(g, ascending=False) == (-n - 1)
    if g.dropped:
        keep &= g.codes >= 0
    return xp.flatnonzero(keep).astype(np.int64)


__all__ = [
    "Grouping",
    "categorical_grouping",
    "head_tail_positions",
    "inferred_strings",
    "make_grouping",
    "nth_positions",
]

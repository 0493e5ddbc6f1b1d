"""Factorizing key columns into dense group codes, and the uniqueness operations built on it.

Two strategies, one result: a single integer-like key (ints, bools, datetimes, categorical codes) whose
value range is small is direct-mapped (a presence table and its running count give sorted codes with no
sort at all); everything else is sorted (stable, multi-key) and the runs of equal keys are numbered. Group
order is the sorted key order (missing keys last), or first appearance when ``sort=False``, as pandas.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ember.backend import array_module, is_device_array, to_host
from ember.backend.kernels.slots import keys_min_max
from ember.backend.primitives import order_of_distinct, scatter_max, scatter_min, stable_argsort
from ember.column import CategoricalColumn, Column, DatetimeColumn, NumericColumn, TimedeltaColumn
from ember.ops.sort import argsort_keys, key_and_nulls, tie_starts

# direct-mapped codes when the key range is at most this many times the row count (or this small)
_DIRECT_RANGE_FACTOR = 2
_DIRECT_RANGE_MIN = 1 << 16


def int_like(col: Column) -> bool:
    """Whether a key is integers underneath: ints, bools, datetimes, timedeltas, categorical codes."""
    if isinstance(col, (DatetimeColumn, TimedeltaColumn, CategoricalColumn)):
        return True
    return isinstance(col, NumericColumn) and col.data.dtype.kind in "iub"


def direct_key(col: Column) -> Any:
    """The integer array a key is direct-mapped on (bools viewed as uint8)."""
    return col.data.view(np.uint8) if col.data.dtype.kind == "b" else col.data


def key_ranges(cols: list[Column]) -> list[tuple[int, int]]:
    """(min, max) of each key's non-missing values; one device sync for all of them (categoricals need
    none: their codes lie in [0, categories)). A key with no value gets (0, -1)."""
    plain = [i for i, c in enumerate(cols) if not isinstance(c, CategoricalColumn)]
    out = [(0, len(c.categories) - 1) if isinstance(c, CategoricalColumn) else None for c in cols]
    if not plain:
        return out
    keys = [direct_key(cols[i]) for i in plain]
    valids = [_validity(cols[i]) for i in plain]
    if is_device_array(keys[0]):
        pairs = to_host(keys_min_max(keys, valids))  # one pass per key, one sync for all
    else:
        pairs = np.array([_host_min_max(key, valid) for key, valid in zip(keys, valids)], dtype=np.int64)
    for i, key, (lo, hi) in zip(plain, keys, pairs):
        if key.dtype.kind == "u":  # the pair holds uint64 bits
            lo, hi = np.int64(lo).view(np.uint64), np.int64(hi).view(np.uint64)
        out[i] = (int(lo), int(hi)) if lo <= hi else (0, -1)
    return out


def _validity(col: Column) -> Any:
    """The rows whose key is not missing (None: all of them)."""
    if not col.has_nulls_possible:
        return None
    if type(col) is NumericColumn and col.mask is not None:  # the mask is the whole story
        return col.mask
    return ~col.isna()


def _host_min_max(key: Any, valid: Any) -> tuple[int, int]:
    """The reference of ``keys_min_max`` for one key: (min, max) of the valid values, int64 (uint64
    bits for an unsigned key), or (greatest, least) of the type when none is valid."""
    values = key if valid is None else key[valid]
    unsigned = key.dtype.kind == "u"
    if len(values) == 0:
        pair = (np.iinfo(np.uint64).max, 0) if unsigned else (np.iinfo(np.int64).max, np.iinfo(np.int64).min)
    else:
        pair = (values.min(), values.max())
    if unsigned:
        return tuple(int(v) for v in np.array(pair, dtype=np.uint64).view(np.int64))
    return int(pair[0]), int(pair[1])


def direct_map_fits(span: int, n: int) -> bool:
    """Whether a key of ``span`` possible values over ``n`` rows is direct-mapped (a table per value)."""
    return span <= max(_DIRECT_RANGE_FACTOR * n, _DIRECT_RANGE_MIN)


def _direct_codes(
    col: Column, dropna: bool, key_range: tuple[int, int] | None = None, want_first: bool = False
) -> tuple[Any, Any, Any, Any] | None:
    """Sorted codes by direct mapping for a single integer-like key, or None when its range is too wide.
    ``key_range``: the (min, max) when the caller knows it (no sync then). ``want_first``: the table of
    key slots records each slot's first row (a scatter-min instead of a plain presence scatter), so that
    the groups' first rows come with the codes.

    Returns (codes, ngroups on the device, dropped-row count on the device, heads: see _sorted_codes
    when ``want_first``, else the table of occupied key slots (a ``_Slots``))."""
    xp = col.xp
    n = len(col)
    key = direct_key(col)
    nulls = col.isna() if col.has_nulls_possible else None
    lo, hi = key_range if key_range is not None else key_ranges([col])[0]
    span = hi - lo + 1
    if not direct_map_fits(span, n) or hi > np.iinfo(np.int64).max:
        return None
    span = max(span, 0)
    rel = key.astype(np.int64, copy=False) - lo
    if nulls is not None:
        rel = xp.where(nulls, span, rel)  # slot ``span``: the missing-key group, sorted last
    if want_first:
        first = xp.full(span + 1, n, dtype=np.int64)
        scatter_min(first, rel, xp.arange(n, dtype=np.int64))
        present = first < n
    else:
        present = xp.zeros(span + 1, dtype=bool)
        present[rel] = True
    if dropna:
        present[span] = False
    heads = (first, present) if want_first else _Slots(present, lo)
    label = xp.cumsum(present) - 1
    codes = label[rel]
    ngroups = label[-1] + 1
    dropped = xp.zeros((), dtype=np.int64)
    if dropna and nulls is not None:
        codes = xp.where(nulls, -1, codes)
        dropped = nulls.sum()
    return codes.astype(np.int64, copy=False), ngroups, dropped, heads


class _Slots(NamedTuple):
    """A direct map's occupied key slots: slot ``k`` holds key value ``lo + k``; the last slot is the
    missing key's."""

    present: Any
    lo: int


def _slot_values(col: Column, slots: _Slots, ngroups: int) -> Column:
    """The sorted distinct keys of a direct-mapped column read off its slot table (no pass over the
    rows): the k-th occupied slot is the k-th group."""
    xp = col.xp
    nslots = slots.present.shape[0]
    slot = xp.searchsorted(xp.cumsum(slots.present), xp.arange(1, ngroups + 1), side="left")
    data = (slot + slots.lo).astype(col.data.dtype)
    mask = None if col.mask is None else slot < nslots - 1  # the last slot: the missing-key group
    return col._rebuild(data, mask)


_COMPOSITE_LIMIT = 1 << 62


def _composite_codes(
    cols: list[Column], dropna: bool, want_first: bool = False
) -> tuple[Any, Any, Any, Any] | None:
    """Sorted codes for several integer-like keys from one combined int64 key.

    The keys' values relative to their minimum (missing values in one slot past the maximum, so sorted
    last) are combined in mixed radix, which keeps lexicographic order, and the combined key is
    factorized as a single key: a direct map or one sort instead of a lexicographic sort over every
    key. One sync learns every key's range. When the ranges multiply past 62 bits, each key is first
    compacted to its dense codes (radix = cardinality: one more pass per key and one more sync); None
    when even those do not fit."""
    ranges = key_ranges(cols)
    if any(hi > np.iinfo(np.int64).max for _, hi in ranges):
        return None
    spans = [max(hi - lo + 1, 0) for lo, hi in ranges]
    if _radix_product([span + c.has_nulls_possible for c, span in zip(cols, spans)]) > _COMPOSITE_LIMIT:
        parts = _compacted(cols, ranges)  # (a key's span alone may pass int64: no relative key made)
        if parts is None:
            return None
        return _combine(parts, len(cols[0]), cols[0].xp, dropna, want_first)
    parts = []
    for col, (lo, _), span in zip(cols, ranges, spans):
        nulls = col.isna() if col.has_nulls_possible else None
        rel = direct_key(col).astype(np.int64, copy=False) - lo
        if nulls is not None:
            rel = col.xp.where(nulls, span, rel)
        parts.append((rel, span + (nulls is not None), nulls))
    return _combine(parts, len(cols[0]), cols[0].xp, dropna, want_first)


def _radix_product(radices: list[int]) -> int:
    return int(np.prod([max(r, 1) for r in radices], dtype=object))


def _compacted(cols: list[Column], ranges: list[tuple[int, int]]) -> list[tuple[Any, int, Any]] | None:
    """Each key as its dense sorted codes (missing last) with its cardinality as radix, or None."""
    xp = cols[0].xp
    found = []
    for col, key_range in zip(cols, ranges):
        codes = _direct_codes(col, dropna=False, key_range=key_range)
        if codes is None:
            return None
        found.append(codes)
    sizes = [int(v) for v in to_host(xp.stack([xp.asarray(f[1], dtype=np.int64) for f in found]))]
    if _radix_product(sizes) > _COMPOSITE_LIMIT:
        return None
    return [
        (f[0], size, c.isna() if c.has_nulls_possible else None) for f, size, c in zip(found, sizes, cols)
    ]


def _combine(
    parts: list[tuple[Any, int, Any]], n: int, xp: Any, dropna: bool, want_first: bool
) -> tuple[Any, Any, Any, Any]:
    combined = xp.zeros(n, dtype=np.int64)
    anynull = None
    for codes, radix, nulls in parts:
        combined = combined * max(radix, 1) + codes
        if nulls is not None:
            anynull = nulls if anynull is None else anynull | nulls
    key = NumericColumn(combined, None if anynull is None or not dropna else ~anynull)
    bound = (0, _radix_product([radix for _, radix, _ in parts]) - 1)  # the combined key's range, no sync
    return _direct_codes(key, dropna, bound, want_first) or _sorted_codes([key], dropna)


def _sorted_codes(cols: list[Column], dropna: bool) -> tuple[Any, Any, Any, Any]:
    """Sorted codes by a stable lexicographic sort and numbering the runs of equal keys.

    Returns (codes, ngroups and dropped-row count on the device, (order, heads)): ``order[heads]`` is
    each group's first row, as the stable sort keeps a group's rows in row order."""
    pairs = [key_and_nulls(c) for c in cols]
    xp = array_module(pairs[0][0])
    n = len(cols[0])
    order = argsort_keys(pairs, [True] * len(cols), "last")
    start = xp.zeros(n, dtype=bool)
    anynull = None
    for key, nulls in pairs:
        ns = None if nulls is None else nulls[order]
        start |= tie_starts(key[order], ns)
        if ns is not None:
            anynull = ns if anynull is None else anynull | ns
    dropped = xp.zeros((), dtype=np.int64)
    if dropna and anynull is not None:
        gid = xp.cumsum(start & ~anynull) - 1
        gid = xp.where(anynull, -1, gid)
        dropped = anynull.sum()
    else:
        gid = xp.cumsum(start) - 1
    ngroups = gid.max() + 1 if n else xp.zeros((), dtype=np.int64)
    codes = xp.empty(n, dtype=np.int64)
    codes[order] = gid
    heads = start & ~anynull if dropna and anynull is not None else start
    return codes, ngroups, dropped, (order, heads)


def first_rows(codes: Any, ngroups: int) -> Any:
    """Position of the first row of each group (int64, ngroups); rows with code -1 are ignored."""
    xp = array_module(codes)
    n = len(codes)
    rep = xp.full(ngroups + 1, n, dtype=np.int64)
    scatter_min(rep, xp.where(codes >= 0, codes, ngroups), xp.arange(n, dtype=np.int64))
    return rep[:ngroups]


def last_rows(codes: Any, ngroups: int) -> Any:
    """Position of the last row of each group (int64, ngroups); rows with code -1 are ignored."""
    xp = array_module(codes)
    n = len(codes)
    rep = xp.full(ngroups + 1, -1, dtype=np.int64)
    scatter_max(rep, xp.where(codes >= 0, codes, ngroups), xp.arange(n, dtype=np.int64))
    return rep[:ngroups]


def _relabel_by_appearance(codes: Any, rep: Any, ngroups: int) -> tuple[Any, Any]:
    """Codes renumbered so groups count in order of first appearance; the reordered first rows."""
    xp = array_module(codes)
    n = len(codes)
    perm = order_of_distinct(rep, n)
    newlabel = xp.empty(ngroups, dtype=np.int64)
    newlabel[perm] = xp.arange(ngroups, dtype=np.int64)
    safe = xp.where(codes >= 0, codes, 0)
    codes = xp.where(codes >= 0, newlabel[safe] if ngroups else safe, -1)
    return codes, rep[perm]


def factorize_with_info(
    cols: list[Column], sort: bool = True, dropna: bool = True, need_first: bool = True
) -> tuple[Any, list[Column], int, int, Any]:
    """``factorize_keys`` plus the number of rows dropped for a missing key and each group's first row
    (with ``need_first=False``, a sorted direct-mapped key returns None there: its keys come off the
    slot table, no row is looked up).

    Synchronizes once (ngroups and the dropped count come back together); a single integer key whose
    range must be checked for direct mapping costs one more sync for its min and max."""
    if not cols:
        raise ValueError("factorize_keys: need at least one key column")
    n = len(cols[0])
    if any(len(c) != n for c in cols):
        raise ValueError("factorize_keys: key columns have different lengths")
    xp = cols[0].xp
    cols = [c.to(xp) for c in cols]
    found = None
    # one plain key in sorted order, first rows not asked for: a direct map's slots give the keys
    keys_from_slots = (
        len(cols) == 1 and not isinstance(cols[0], CategoricalColumn) and sort and not need_first
    )
    if n and all(int_like(c) for c in cols):
        if len(cols) == 1:
            found = _direct_codes(cols[0], dropna, want_first=not keys_from_slots)
        else:
            found = _composite_codes(cols, dropna, want_first=True)
    codes, ngroups_d, dropped_d, heads = found if found is not None else _sorted_codes(cols, dropna)
    sizes = to_host(xp.stack([xp.asarray(ngroups_d, dtype=np.int64), xp.asarray(dropped_d, dtype=np.int64)]))
    ngroups, dropped = int(sizes[0]), int(sizes[1])
    if isinstance(heads, _Slots):  # the keys come off the slot table: no row is looked up
        return codes, [_slot_values(cols[0], heads, ngroups)], ngroups, dropped, None
    if heads is not None and ngroups:
        source, is_head = heads
        rep = source[xp.flatnonzero(is_head)]  # the sort or the direct map found the first rows
    else:
        rep = first_rows(codes, ngroups)
    if not sort and ngroups:
        codes, rep = _relabel_by_appearance(codes, rep, ngroups)
    uniques = [c.take(rep) for c in cols]
    return codes, uniques, ngroups, dropped, rep


def factorize_keys(
    cols: list[Column], sort: bool = True, dropna: bool = True
) -> tuple[Any, list[Column], int]:
    """Dense group codes for the rows of one or more key columns.

    Returns ``(codes, uniques, ngroups)``: ``codes`` int64 per row in [0, ngroups), -1 for rows with a
    missing value in any key when ``dropna``; ``uniques`` one Column per key with the group's key values,
    in sorted key order (``sort=True``; missing keys last in each key) or first-appearance order; with
    ``dropna=False`` missing keys form their own groups. One device sync for ngroups (plus one for the
    key range of a single integer key)."""
    codes, uniques, ngroups, _, _ = factorize_with_info(cols, sort, dropna)
    return codes, uniques, ngroups


def unique(col: Column) -> Column:
    """``Series.unique``: distinct values in order of first appearance (one missing value kept)."""
    _, uniques, _ = factorize_keys([col], sort=False, dropna=False)
    return uniques[0]


def duplicated(cols: list[Column], keep: str | bool = "first") -> Any:
    """``DataFrame.duplicated``: bool array, True for rows whose key repeats an earlier ('first'), later
    ('last') or any other (False) row's key. Missing values equal each other, as pandas."""
    if keep not in ("first", "last", False):
        raise ValueError(f"duplicated: keep must be 'first', 'last' or False, got {keep!r}")
    codes, _, ngroups, _, rep = factorize_with_info(cols, sort=True, dropna=False)
    xp = array_module(codes)
    n = len(codes)
    if n == 0:
        return xp.zeros(0, dtype=bool)
    pos = xp.arange(n, dtype=np.int64)
    if keep == "first":
        return pos != rep[codes]
    if keep == "last":
        return pos != last_rows(codes, ngroups)[codes]
    return xp.bincount(codes, minlength=ngroups)[codes] > 1


def value_counts(
    cols: list[Column],
    sort: bool = True,
    ascending: bool = False,
    dropna: bool = True,
    normalize: bool = False,
    frame: bool = False,
) -> tuple[list[Column], Any]:
    """``Series/DataFrame.value_counts``: (uniques, counts) in pandas 3's order: first appearance, then
    (``sort``) a stable sort by count. A single categorical key counts every category (zeros included),
    in category order before the sort (``frame``: DataFrame.value_counts, whose groupby puts the observed
    values first, in order of appearance, then the unobserved categories). ``counts`` is int64, or
    float64 proportions with ``normalize``."""
    xp = cols[0].xp
    if frame and len(cols) > 1 and any(isinstance(c, CategoricalColumn) for c in cols):
        from ember.frame._fallback import unsupported

        raise unsupported(
            "DataFrame.value_counts",
            "of several columns one of which is categorical (pandas adds the unobserved combinations)",
        )
    if len(cols) == 1 and isinstance(cols[0], CategoricalColumn):
        col = cols[0]
        ncat = len(col.categories)
        codes = col.codes.astype(np.int64)
        counts = xp.bincount(xp.where(codes >= 0, codes, ncat), minlength=ncat + 1)
        idx = xp.arange(ncat, dtype=np.int64)
        if not dropna:
            idx = xp.arange(ncat + 1, dtype=np.int64)
            if int(counts[ncat]) == 0:
                idx = idx[:ncat]
        else:
            counts = counts[:ncat]
        counts = counts[: len(idx)]
        if frame:
            first = xp.full(ncat + 1, codes.shape[0], dtype=np.int64)
            scatter_min(first, xp.where(codes >= 0, codes, ncat), xp.arange(codes.shape[0], dtype=np.int64))
            first = first[: len(idx)]
            # observed values by first appearance, then the unobserved categories in category order
            order = stable_argsort(xp.where(counts > 0, first, codes.shape[0]))
            idx, counts = idx[order], counts[order]
        uniques = [
            CategoricalColumn(xp.where(idx < ncat, idx, -1).astype(np.int32), col.categories, col.ordered)
        ]
    else:
        codes, uniques, ngroups = factorize_keys(cols, sort=False, dropna=dropna)
        counts = xp.bincount(xp.where(codes >= 0, codes, ngroups), minlength=ngroups + 1)[:ngroups]
        masked = len(cols) == 1 and isinstance(cols[0], NumericColumn) and cols[0].nullable
        if masked and not dropna and not frame:  # (DataFrame.value_counts groups: NA where it appears)
            last = stable_argsort(uniques[0].isna())  # pandas' masked arrays count NA after the values
            counts, uniques = counts[last], [uniques[0].take(last)]
    if sort:
        key = counts if ascending else -counts
        order = stable_argsort(key)
        counts = counts[order]
        uniques = [u.take(order) for u in uniques]
    counts = counts.astype(np.int64)
    if normalize:  # pandas: 0 / 0 (no rows) gives NaN
        with np.errstate(invalid="ignore", divide="ignore"):
            counts = counts / counts.sum()
    return uniques, counts


def nunique(col: Column, dropna: bool = True) -> int:
    """``Series.nunique``: number of distinct values (a missing value counts once unless ``dropna``)."""
    if len(col) == 0:
        return 0
    _, _, ngroups = factorize_keys([col], sort=True, dropna=dropna)
    return ngroups

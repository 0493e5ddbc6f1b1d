"""Group-by on columns: a Grouping (codes + lazily cached segment structure) and the aggregations,
transforms and row selections pandas' GroupBy offers, with no Python loop over rows or groups.

Integer-like keys (categorical codes, ints, bools, datetimes, several such keys combined) group by
slots (``ops.slot_grouping``): a slot per key value when the range is small, else a slot per distinct
value from a device hash table; no per-row codes until an aggregation other than sum, mean, count or
size needs them, and those four read the slot and the values once per column. A range a direct map
takes, and keys of other types (strings, floats), are factorized (``ops.factorize``: a direct map,
else a sort).

Rows whose key is dropped (code -1) are sent to an extra "dump" group ``ngroups`` in every scatter, so no
filtering (and no device sync) is needed; the dump slot is sliced off at the end. Sums, means, counts and
variances are scatter-adds (``bincount`` with weights); min/max/first/last are scatter-min/max; median,
quantile and nunique sort the values within groups (two stable sorts); prod and the cumulative transforms
are segmented scans over the rows sorted by group (log-depth doubling, one sync for the longest group).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import array_module
from ember.backend.kernels.segment import segment_count, segment_sum, segment_sum_int
from ember.backend.kernels.slots import slot_sums
from ember.backend.primitives import narrow_unsigned, scatter_add, scatter_max, scatter_min, stable_argsort
from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
)
from ember.ops.factorize import factorize_keys, factorize_with_info
from ember.ops.slot_grouping import SlotMap, slot_grouping
from ember.ops.sort import key_and_nulls

AGGREGATIONS = (
    "sum",
    "mean",
    "min",
    "max",
    "count",
    "size",
    "std",
    "var",
    "sem",
    "skew",
    "median",
    "quantile",
    "first",
    "last",
    "nth",
    "nunique",
    "prod",
    "any",
    "all",
    "idxmin",
    "idxmax",
)
SCANS = ("cumsum", "cumprod", "cummin", "cummax", "cumcount", "rank", "shift", "diff", "ffill", "bfill")
_STRING_OPS = ("min", "max", "first", "last", "count", "nunique", "size", "nth", "idxmin", "idxmax")
_TEMPORAL_OPS = (
    "min",
    "max",
    "first",
    "last",
    "count",
    "mean",
    "median",
    "size",
    "nth",
    "nunique",
    "idxmin",
    "idxmax",
    "quantile",
)
_CATEGORICAL_OPS = ("first", "last", "count", "size", "nth", "nunique", "min", "max", "idxmin", "idxmax")


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
        uniques.append(level.take((group // max(stride, 1)) % max(size, 1)) if total else level)
    return Grouping(codes, total, uniques, dropped, may_have_empty=True)


def make_grouping(key_cols: list[Column], sort: bool = True, dropna: bool = True) -> Grouping:
    """Factorize the key columns into a Grouping: by slots for a small integer key range (see
    ``ops.slot_grouping``), else by ``factorize_keys`` (one device sync, plus one for the range of an
    integer key)."""
    by_slots = slot_grouping(key_cols, sort, dropna)
    if by_slots is not None:
        slot_map, uniques, ngroups, dropped, sizes = by_slots
        return Grouping(None, ngroups, uniques, dropped, slots=slot_map, sizes=sizes)
    codes, uniques, ngroups, dropped, _ = factorize_with_info(
        key_cols, sort=sort, dropna=dropna, need_first=False
    )
    return Grouping(codes, ngroups, [key_uniques(u, k) for u, k in zip(uniques, key_cols)], dropped)


def key_uniques(uniques: Column, key: Column) -> Column:
    """The groups' keys of a key column as pandas infers them from the key's own values (each key
    alone, also among several): an object key holding a string gives ``str`` keys, one holding none
    stays ``object`` without groups, and gives float64 NaN for its missing key (``dropna=False``).
    One device sync, for an object key with missing values."""
    if not (isinstance(uniques, StringColumn) and uniques.pd_dtype == np.dtype(object)):
        return uniques
    if len(key) and (key.mask is None or bool(key.mask.any())):  # sync: some key is a string
        return inferred_strings(uniques)
    if len(uniques) == 0:
        return uniques
    return NumericColumn(uniques.xp.full(len(uniques), np.nan))


def inferred_strings(col: Column) -> Column:
    """An object column of strings as pandas 3's ``str`` dtype: the groups' keys of such a column
    (pandas infers the result index's dtype from the values)."""
    if isinstance(col, StringColumn) and col.pd_dtype == np.dtype(object):
        return StringColumn(col.data, col.chars, col.mask)  # the default: pandas' str
    return col


# --- value access and results ------------------------------------------------------------------------


def _valid(col: Column) -> Any:
    return None if not col.has_nulls_possible else ~col.isna()


def _count(g: Grouping, valid: Any) -> Any:
    if valid is None:
        return g.sizes[: g.ngroups]  # cached with the grouping
    return segment_count(g.scatter_target(valid), g.ngroups + 1)[: g.ngroups]


def _numeric(values: Any, missing: Any, like: Column, dtype: Any) -> Column:
    """A result column of numpy ``dtype``: NaN for missing floats, a mask for nullable/int/bool ones."""
    xp = array_module(values)
    values = values.astype(dtype, copy=False)
    nullable = isinstance(like, NumericColumn) and like.nullable
    if missing is None:
        return NumericColumn(values, None, nullable)
    if nullable:
        return NumericColumn(values, ~missing, True)
    if values.dtype.kind == "f":
        return NumericColumn(xp.where(missing, xp.nan, values))
    if not bool(missing.any()):  # sync: pandas keeps ints/bools when no group came out missing
        return NumericColumn(values)
    return NumericColumn(xp.where(missing, xp.nan, values.astype(np.float64)))


def _downcast_if_fits(values: Any, dtype: Any) -> Any:
    """pandas computes integer sums/products in 64 bits and gives back the input's dtype only when
    every result fits it. Synchronizes for integer dtypes narrower than 64 bits."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu" or dtype.itemsize == 8 or values.shape[0] == 0:
        return values.astype(dtype)
    info = np.iinfo(dtype)
    fits = bool(((values >= info.min) & (values <= info.max)).all())
    return values.astype(dtype) if fits else values


def _temporal(values: Any, missing: Any, like: Column) -> Column:
    if isinstance(like, DatetimeColumn):
        return DatetimeColumn(
            values.astype(np.int64), like.unit, like.tz, None if missing is None else ~missing
        )
    return TimedeltaColumn(values.astype(np.int64), like.unit, None if missing is None else ~missing)


def _same_kind(values: Any, missing: Any, like: Column, dtype: Any = None) -> Column:
    if isinstance(like, (DatetimeColumn, TimedeltaColumn)):
        return _temporal(values, missing, like)
    return _numeric(values, missing, like, like.data.dtype if dtype is None else dtype)


def _float_dtype(col: Column, op: str) -> Any:
    """pandas' result dtype for mean-like ops: float64, except float32 stays float32 for
    median/var/std/sem (and for mean/quantile too when nullable)."""
    dt = col.data.dtype
    if dt != np.float32:
        return np.dtype(np.float64)
    if op not in ("mean", "quantile") or (isinstance(col, NumericColumn) and col.nullable):
        return np.dtype(np.float32)
    if op == "mean" and (len(col) == 0 or bool(col.isna().any())):
        # sync: pandas 3.1 keeps float32 means only then (and without rows)
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def _sum_dtype(col: Column) -> Any:
    dt = col.data.dtype
    return np.dtype(np.int64) if dt.kind == "b" else dt


# --- the kernels -------------------------------------------------------------------------------------


def _group_sum(g: Grouping, values: Any, valid: Any) -> Any:
    """Sum per group: exact int64/uint64 scatter-add for integers, float64 bincount otherwise."""
    xp = g.xp
    if values.dtype.kind == "f":
        w = (
            values.astype(np.float64, copy=False)
            if valid is None
            else xp.where(valid, values, 0).astype(np.float64)
        )
        return segment_sum(g.seg, w, g.ngroups + 1)[: g.ngroups]
    acc = np.uint64 if values.dtype.kind == "u" else np.int64
    v = values.astype(acc)
    v = v if valid is None else xp.where(valid, v, acc(0))
    few = segment_sum_int(g.seg, v, g.ngroups + 1)  # few groups on the device: shared-memory sums
    if few is not None:
        return few[: g.ngroups]
    out = xp.zeros(g.ngroups + 1, dtype=acc)
    scatter_add(out, g.seg, v)
    return out[: g.ngroups]


def _group_mean(g: Grouping, values: Any, valid: Any, count: Any) -> Any:
    xp = g.xp
    s = _group_sum(g, values.astype(np.float64) if values.dtype.kind != "f" else values, valid)
    return s / xp.where(count > 0, count, 1)


def _group_var(g: Grouping, values: Any, valid: Any, count: Any, ddof: int) -> Any:
    xp = g.xp
    v = values.astype(np.float64, copy=False)
    mean = xp.zeros(g.ngroups + 1, dtype=np.float64)
    mean[: g.ngroups] = _group_mean(g, v, valid, count)
    dev = v - mean[g.seg]
    if valid is not None:
        dev = xp.where(valid, dev, 0.0)
    ss = segment_sum(g.seg, dev * dev, g.ngroups + 1)[: g.ngroups]
    denom = count - ddof
    return xp.where(denom > 0, ss / xp.where(denom > 0, denom, 1), xp.nan)


def _group_skew(g: Grouping, values: Any, valid: Any, count: Any) -> Any:
    """pandas' bias-corrected skewness per group from the central moments M2 and M3 (two passes):
    n * sqrt(n - 1) / (n - 2) * M3 / M2 ** 1.5; NaN below 3 values and for constant groups."""
    xp = g.xp
    v = values.astype(np.float64, copy=False)
    mean = xp.zeros(g.ngroups + 1, dtype=np.float64)
    mean[: g.ngroups] = _group_mean(g, v, valid, count)
    dev = v - mean[g.seg]
    if valid is not None:
        dev = xp.where(valid, dev, 0.0)
    sq = dev * dev
    m2 = segment_sum(g.seg, sq, g.ngroups + 1)[: g.ngroups]
    m3 = segment_sum(g.seg, sq * dev, g.ngroups + 1)[: g.ngroups]
    m2 = xp.where(xp.abs(m2) < 1e-14, 0.0, m2)  # rounding noise of a constant group, as nanops'
    m3 = xp.where(xp.abs(m3) < 1e-14, 0.0, m3)
    n = count.astype(np.float64)
    ok = (count >= 3) & (m2 > 0)
    safe_n = xp.where(ok, n, 3.0)
    safe_m2 = xp.where(ok, m2, 1.0)
    out = safe_n * xp.sqrt(safe_n - 1) / (safe_n - 2) * m3 / safe_m2**1.5
    return xp.where(ok, out, xp.nan)


def _extreme_values(values: Any, op: str) -> tuple[Any, Any]:
    """(values in a dtype the scatter primitives take, the identity of ``op`` in that dtype)."""
    if values.dtype.kind == "f":
        return values, (np.inf if op == "min" else -np.inf)
    acc = np.uint64 if values.dtype.kind == "u" else np.int64
    info = np.iinfo(acc)
    return values.astype(acc), acc(info.max if op == "min" else info.min)


def _group_extreme(g: Grouping, key: Any, valid: Any, op: str) -> Any:
    xp = g.xp
    v, ident = _extreme_values(key, op)
    out = xp.full(g.ngroups + 1, ident, dtype=v.dtype)
    if valid is not None:
        v = xp.where(valid, v, v.dtype.type(ident))
    (scatter_min if op == "min" else scatter_max)(out, g.seg, v)
    return out[: g.ngroups]


def _arg_rows(g: Grouping, hit: Any, last: bool = False) -> Any:
    """First (or last) row position per group among rows where ``hit``; -1 where none."""
    xp = g.xp
    n = g.nrows
    pos = xp.arange(n, dtype=np.int64)
    out = xp.full(g.ngroups + 1, -1 if last else n, dtype=np.int64)
    (scatter_max if last else scatter_min)(out, g.scatter_target(hit), pos)
    out = out[: g.ngroups]
    return out if last else xp.where(out < n, out, -1)


def _arg_extreme(g: Grouping, col: Column, op: str) -> Any:
    """Row of the first occurrence of each group's min/max (-1 for groups with no valid value)."""
    key, nulls = key_and_nulls(col)
    if key.dtype.kind == "b":
        key = key.astype(np.int64)
    valid = None if nulls is None else ~nulls
    ext = _group_extreme(g, key, valid, op)
    xp = g.xp
    full = xp.concatenate([ext, ext[:1] if g.ngroups else xp.zeros(1, ext.dtype)])
    hit = _extreme_values(key, op)[0] == full[g.seg]
    if valid is not None:
        hit &= valid
    return _arg_rows(g, hit)


def _take_rows(col: Column, rows: Any, may_miss: bool = False) -> Column:
    """Rows at ``rows`` (-1 = missing). Every group has a row, so a column with no missing values gets
    a row for each group from first/last/min/max and keeps its dtype; ``may_miss`` (nth) checks."""
    if col.has_nulls_possible:
        return col.take_nullable(rows)
    if may_miss and g_any_negative(rows):
        return col.take_nullable(rows)
    return col.take(rows)


def g_any_negative(rows: Any) -> bool:
    """Whether any position is -1. Synchronizes."""
    return bool((rows < 0).any()) if rows.shape[0] else False


def _within_sorted(g: Grouping, key: Any, valid: Any) -> Any:
    """Row order by (group, missing last, key): a sort by key, then a stable sort by group. The first
    need not be stable (equal keys are interchangeable for quantiles and distinct counts), which lets
    NumPy use its faster quicksort. The group keys are built in the narrowest unsigned type that holds
    2 * groups + 2 (radix passes and temporaries scale with the key's bytes)."""
    xp = g.xp
    k = key if valid is None else xp.where(valid, key, key.dtype.type(0))
    order = xp.argsort(k.view(np.uint8) if k.dtype.kind == "b" else k).astype(np.int64, copy=False)
    del k
    bound = 2 * g.ngroups + 2
    outer = g.seg.astype(narrow_unsigned(bound))
    outer *= outer.dtype.type(2)
    if valid is not None:
        outer += (~valid).astype(outer.dtype)
    return order[stable_argsort(outer[order], bound=bound)]


def _temporal_mean_ticks(g: Grouping, ticks: Any, valid: Any, count: Any) -> Any:
    """Each group's mean time as pandas computes it: every int64 tick made a float64, their
    compensated float64 sum over the count, truncated to an int64. Groups of at most ``_KAHAN_ROWS``
    rows repeat pandas' Kahan sum step by step (one sync: the longest group); longer ones sum the
    float64 ticks (integers) exactly in two int64 parts, the high and the low 32 bits of each tick,
    rounded once to float64 when the parts are put together (Kahan's sum is almost always that)."""
    xp = g.xp
    if ticks.shape[0] == 0:
        return xp.zeros(g.ngroups, dtype=np.int64)
    as_float = ticks.astype(np.float64)
    big = float(2**63)
    longest = int(g.sizes[: g.ngroups].max()) if g.ngroups else 0
    if longest <= _KAHAN_ROWS:
        total = _kahan_group_sum(g, as_float, valid, longest)
    else:
        ticks = xp.where(
            as_float >= big, np.iinfo(np.int64).max, as_float.astype(np.int64)
        )  # float64's ticks
        high = ticks >> 32  # arithmetic shift: floor(ticks / 2**32)
        low = ticks - (high << 32)  # in [0, 2**32)
        total = _group_sum(g, high, valid).astype(np.float64) * float(2**32) + _group_sum(
            g, low, valid
        ).astype(np.float64)
    mean = total / xp.where(count > 0, count, 1)
    return xp.trunc(xp.clip(mean, -big, float(np.iinfo(np.int64).max))).astype(np.int64)


_KAHAN_ROWS = 64


def _kahan_group_sum(g: Grouping, values: Any, valid: Any, longest: int) -> Any:
    """pandas' compensated (Kahan) float64 sum of each group's values in row order, step by step over
    the groups at once: one pass per row of the longest group (short groups only)."""
    xp = g.xp
    order, start, sizes = g.order, g.offsets[: g.ngroups], g.sizes[: g.ngroups]
    total = xp.zeros(g.ngroups, dtype=np.float64)
    comp = xp.zeros(g.ngroups, dtype=np.float64)
    last = max(int(order.shape[0]) - 1, 0)
    for k in range(longest):
        rows = order[xp.minimum(start + k, last)]
        take = k < sizes
        if valid is not None:
            take = take & valid[rows]
        y = values[rows] - comp
        t = total + y
        c = (t - total) - y
        comp = xp.where(take, xp.where(c == c, c, 0.0), comp)
        total = xp.where(take, t, total)
    return total


def _group_quantile(g: Grouping, col: Column, q: float, count: Any, temporal: bool, median: bool) -> Any:
    xp = g.xp
    key, nulls = key_and_nulls(col)
    valid = None if nulls is None else ~nulls
    order = _within_sorted(g, key, valid)
    sv = key[order]
    start = g.offsets[: g.ngroups]
    h = (xp.maximum(count, 1) - 1) * q
    lo = xp.floor(h).astype(np.int64)
    hi = xp.minimum(lo + 1, xp.maximum(count - 1, 0))
    frac = h - lo
    last = max(len(sv) - 1, 0)
    if len(sv) == 0:
        return xp.zeros(g.ngroups, dtype=np.float64)
    a = sv[xp.minimum(start + lo, last)]
    b = sv[xp.minimum(start + hi, last)]
    if temporal:  # pandas: the median / quantile of the ticks as float64, cast back (truncated)
        af, bf = a.astype(np.float64), b.astype(np.float64)
        r = xp.where(frac > 0, (af + bf) / 2.0, af) if median else af + (bf - af) * frac
        return r.astype(np.int64)
    a, b = a.astype(np.float64), b.astype(np.float64)
    if median:
        return xp.where(frac > 0, (a + b) / 2.0, a)
    return a + (b - a) * frac


def _group_nunique(g: Grouping, col: Column, dropna: bool) -> Any:
    xp = g.xp
    key, nulls = key_and_nulls(col)
    valid = None if nulls is None else ~nulls
    order = _within_sorted(g, key, valid)
    sseg = g.seg[order]
    ks = key[order]
    vs = xp.ones(len(order), dtype=bool) if valid is None else valid[order]
    start = vs.copy()
    if len(order) > 1:
        start[1:] &= (sseg[1:] != sseg[:-1]) | (ks[1:] != ks[:-1]) | ~vs[:-1]
    out = segment_count(xp.where(start, sseg, g.ngroups), g.ngroups + 1)[: g.ngroups]
    if not dropna and valid is not None:
        out = out + (_count(g, ~valid) > 0)
    return out.astype(np.int64)


def seg_scan(values: Any, sorted_seg: Any, op: Any, max_len: int) -> Any:
    """Inclusive scan with ``op`` (a binary ufunc) within runs of equal ``sorted_seg``: log-depth
    doubling (Hillis-Steele), ceil(log2(max_len)) vectorized steps."""
    xp = array_module(values)
    out = values
    d = 1
    while d < max_len:
        new = out.copy()
        same = sorted_seg[d:] == sorted_seg[:-d]
        new[d:] = xp.where(same, op(out[d:], out[:-d]), out[d:])
        out = new
        d *= 2
    return out


def _group_prod(g: Grouping, values: Any, valid: Any) -> Any:
    xp = g.xp
    acc = np.float64 if values.dtype.kind == "f" else (np.uint64 if values.dtype.kind == "u" else np.int64)
    v = values.astype(acc)
    if valid is not None:
        v = xp.where(valid, v, acc(1))
    scanned = seg_scan(v[g.order], g.sorted_seg, xp.multiply, g.max_size)
    ends = g.offsets[1 : g.ngroups + 1] - 1
    sizes = g.sizes[: g.ngroups]
    if len(scanned) == 0:
        return xp.ones(g.ngroups, dtype=acc)
    return xp.where(sizes > 0, scanned[xp.maximum(ends, 0)], acc(1))


# --- aggregate ---------------------------------------------------------------------------------------


def object_bools(col: Column) -> bool:
    """A bool column with missing values: pandas holds it as an object column of True / False."""
    return (
        isinstance(col, NumericColumn)
        and not col.nullable
        and col.mask is not None
        and col.data.dtype.kind == "b"
    )


#: what pandas answers for an object column of True / False and missing values as ember does
_OBJECT_BOOL_OPS = ("min", "max", "first", "last", "count", "size", "nunique", "nth", "any", "all")
_OBJECT_BOOL_OPS += ("idxmin", "idxmax", "std", "sem")


def check_object_bools(col: Column, op: str) -> None:
    """pandas' error, or NotImplementedError where pandas answers with Python objects, for ``op`` of
    an object column of True / False and missing values (a bool column with a mask)."""
    if not object_bools(col) or op in _OBJECT_BOOL_OPS:
        return
    if op == "quantile":
        raise TypeError("dtype 'object' does not support operation 'quantile'")
    if op in SCANS and op.startswith("cum"):  # pandas: TypeError for a Series, this for a frame
        raise NotImplementedError(f"function is not implemented for this dtype: [how->{op},dtype->object]")
    raise NotImplementedError(
        f"groupby {op} of an object column of True / False with missing values is not supported "
        "(pandas computes it on Python objects); convert it first, e.g. .astype('boolean')"
    )


def _check_op(col: Column, op: str) -> None:
    if op not in AGGREGATIONS:
        raise NotImplementedError(f"groupby aggregate: op {op!r} is not supported; supported: {AGGREGATIONS}")
    check_object_bools(col, op)
    allowed = None
    if isinstance(col, StringColumn):
        allowed = _STRING_OPS
    elif isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        allowed = _TEMPORAL_OPS + (("sum",) if isinstance(col, TimedeltaColumn) else ())
    elif isinstance(col, CategoricalColumn):
        allowed = _CATEGORICAL_OPS
        if op in ("min", "max", "idxmin", "idxmax") and not col.ordered:
            raise TypeError(f"groupby {op}: cannot compute {op} of an unordered categorical")
    if allowed is not None and op not in allowed:
        check_pandas_refuses(col, op)
        raise TypeError(f"groupby {op}: not supported for {col.dtype} values; supported: {allowed}")


#: groupby operations pandas answers for values of these kinds (ember's unsupported ones among them
#: raise NotImplementedError, the others pandas' TypeError)
_PANDAS_ANSWERS = {
    "string": {"sum", "min", "max", "count", "size", "first", "last", "nunique", "any", "all", "idxmin"}
    | {"idxmax", "rank", "shift", "nth"},
    "datetime": {"mean", "min", "max", "count", "size", "std", "sem", "median", "quantile", "first", "last"}
    | {"nunique", "idxmin", "idxmax", "cummin", "cummax", "diff", "shift", "rank", "nth"},
    "timedelta": {"sum", "any", "all", "cumsum", "pct_change"},
    "categorical": {"count", "size", "first", "last", "nunique", "any", "all", "shift", "nth"},
    "ordered": {"min", "max", "idxmin", "idxmax", "rank"},
}


def check_pandas_refuses(col: Column, op: str) -> None:
    """NotImplementedError where pandas answers groupby ``op`` for ``col``'s kind of values (ember does
    not): a TypeError, pandas' own answer for the other kinds, is the caller's to raise."""
    if isinstance(col, StringColumn):
        answers = _PANDAS_ANSWERS["string"]
    elif isinstance(col, TimedeltaColumn):
        answers = _PANDAS_ANSWERS["datetime"] | _PANDAS_ANSWERS["timedelta"]
    elif isinstance(col, DatetimeColumn):
        answers = _PANDAS_ANSWERS["datetime"]
    elif isinstance(col, CategoricalColumn):
        answers = _PANDAS_ANSWERS["categorical"] | (_PANDAS_ANSWERS["ordered"] if col.ordered else set())
    else:
        return
    if op in answers:
        raise NotImplementedError(
            f"groupby {op} of {col.dtype} values is not supported (pandas answers it); select or "
            "convert the column"
        )


_EMPTY_OBJECT_OPS = ("mean", "median", "var", "std", "sem", "skew")


def _object_strings(col: Column) -> bool:
    return isinstance(col, StringColumn) and col.pd_dtype == np.dtype(object)


def aggregate(
    g: Grouping,
    col: Column,
    op: str,
    *,
    skipna: bool = True,
    ddof: int = 1,
    q: float = 0.5,
    n: int = 0,
    min_count: int = 0,
) -> Column:
    """One aggregation of ``col`` per group (ngroups rows, pandas' result dtype). Missing values are
    skipped (``skipna=False``: a group with any missing value gives a missing result; for first/last it
    takes the plain first/last row; for nunique it counts the missing value). Groups with no valid value
    give NaN/missing, except count (0), sum (0, or missing below ``min_count``) and prod (1).
    idxmin/idxmax give row positions (int64 column, missing for a group with no valid value); the frame
    maps them to labels (pandas 3 raises there). nth takes the n-th row of each group (negative n counts
    from the end), missing when the group is shorter."""
    if _object_strings(col) and op in _EMPTY_OBJECT_OPS and len(col) == 0:
        # pandas answers these for an object column without rows: an empty object column (std and
        # sem: float64)
        from ember.column.convert import empty_object

        return empty_object(col.xp) if op not in ("std", "sem") else NumericColumn(col.xp.zeros(0))
    if op == "skew" and _object_strings(col):
        raise ValueError("could not convert string to float")  # pandas' error for object strings
    _check_op(col, op)
    if not isinstance(q, (int, float)):
        raise NotImplementedError(
            "groupby quantile: q must be one float; lists of quantiles are not supported"
        )
    xp = g.xp
    col = col.to(xp)
    if len(col) != g.nrows:
        raise ValueError(f"groupby {op}: column has {len(col)} rows, the grouping {g.nrows}")
    if object_bools(col) and op in ("min", "max", "first", "last"):
        # pandas keeps the object column: True / False, and NaN (min / max) or None (first / last)
        # for a group without a value
        res = aggregate(g, NumericColumn(col.data, col.mask, True), op, skipna=skipna, min_count=min_count)
        mask = res.mask if res.mask is not None else xp.ones(len(res), dtype=bool)
        return NumericColumn(res.data, mask, False, None if op in ("first", "last") and skipna else col.na)
    if object_bools(col) and op in ("std", "sem"):  # pandas: float64 of the values as numbers
        res = aggregate(g, NumericColumn(col.data.astype(np.float64), col.mask, True), op, ddof=ddof)
        valid = res.mask if res.mask is not None else xp.ones(len(res), dtype=bool)
        return NumericColumn(xp.where(valid, res.data, xp.nan).astype(np.float64))
    if min_count > 0 and op in ("first", "last", "min", "max"):
        # pandas: missing for a group with fewer than min_count valid values (the dtype changes only
        # where one is: one synchronization)
        out = aggregate(g, col, op, skipna=skipna, ddof=ddof, q=q, n=n)
        valid = _valid(col)
        enough = (_count(g, valid) if valid is not None else g.sizes[: g.ngroups]) >= min_count
        return out if bool(enough.all()) else out.set_missing(enough)
    if op == "size":  # pandas: Int64 for masked data (the nullable numbers, bool and 'string')
        masked = (isinstance(col, NumericColumn) and col.nullable) or (
            isinstance(col.dtype, pd.StringDtype) and col.dtype.na_value is pd.NA
        )
        return NumericColumn(g.sizes[: g.ngroups].copy(), None, masked)
    if g.slots is not None and op in _SLOT_OPS and skipna and _slot_summable(col):
        return _slot_aggregate(g, col, op, min_count)
    valid = _valid(col)
    nullable = isinstance(col, NumericColumn) and col.nullable
    if op == "count":
        return NumericColumn(_count(g, valid), None, nullable)
    if op in ("first", "last"):
        rows = _arg_rows(g, valid if skipna else None, last=op == "last")
        out = _take_rows(col, rows, may_miss=g.may_have_empty)
        if skipna and isinstance(out, StringColumn) and out.pd_dtype == np.dtype(object):
            out.na = None  # pandas: None for an object group without a value
        return out
    if op == "nth":
        return _take_rows(col, _nth_rows(g, n), may_miss=True)
    if op == "nunique":
        return NumericColumn(_group_nunique(g, col, dropna=skipna))
    if op in ("idxmin", "idxmax"):
        rows = _arg_extreme(g, col, op[3:])
        return NumericColumn(rows, rows >= 0)
    if isinstance(col, (StringColumn, CategoricalColumn)):  # min / max by rank: take the arg row
        return _take_rows(col, _arg_extreme(g, col, op), may_miss=g.may_have_empty)
    bad = None if (skipna or valid is None) else (_count(g, ~valid) > 0)
    count_of = functools.cache(lambda: _count(g, valid))  # only the ops that need counts pay for them
    result = _numeric_aggregate(g, col, op, valid, count_of, ddof, q, min_count)
    if bad is not None:
        result = (
            result.set_missing(~bad)
            if not isinstance(result, NumericColumn) or result.nullable or result.data.dtype.kind != "f"
            else NumericColumn(xp.where(bad, xp.nan, result.data))
        )
    return result


def _numeric_aggregate(
    g: Grouping,
    col: Column,
    op: str,
    valid: Any,
    count_of: Callable[[], Any],
    ddof: int,
    q: float,
    min_count: int,
) -> Column:
    """``count_of()``: valid rows per group, computed on first call (sum and min/max often need none)."""
    xp = g.xp
    values = col.data
    temporal = isinstance(col, (DatetimeColumn, TimedeltaColumn))
    if op in ("sum", "prod"):
        below = (count_of() < min_count) if min_count > 0 else None
        if op == "prod":
            p = _downcast_if_fits(_group_prod(g, values, valid), _sum_dtype(col))
            return _numeric(p, below, col, p.dtype)
        s = _group_sum(g, values, valid)
        if temporal:
            return _temporal(s, below, col)
        s = _downcast_if_fits(s, _sum_dtype(col))
        return _numeric(s, below, col, s.dtype)
    if op in ("min", "max"):
        key = values.astype(np.int64) if values.dtype.kind == "b" else values
        ext = _group_extreme(g, key, valid, op)
        return _same_kind(ext, (count_of() == 0) if valid is not None or g.may_have_empty else None, col)
    count = count_of() if op not in ("any", "all") else None
    empty = None if count is None else count == 0
    if op in ("any", "all"):
        truthy = values != 0
        if op == "any":
            hit = truthy if valid is None else truthy & valid
            out = _count(g, hit) > 0
        else:
            hit = ~truthy if valid is None else ~truthy & valid
            out = _count(g, hit) == 0
        return NumericColumn(out, None, isinstance(col, NumericColumn) and col.nullable)
    if op == "mean":
        if temporal:
            return _temporal(_temporal_mean_ticks(g, values, valid, count), empty, col)
        return _numeric(_group_mean(g, values, valid, count), empty, col, _float_dtype(col, op))
    if op in ("var", "std", "sem"):
        v = _group_var(g, values, valid, count, ddof)
        if op != "var":
            v = xp.sqrt(v)
        if op == "sem":
            v = v / xp.sqrt(xp.where(count > 0, count, 1))
        return _numeric(v, empty | xp.isnan(v) if _nullable(col) else empty, col, _float_dtype(col, op))
    if op == "skew":
        v = _group_skew(g, values, valid, count)
        return _numeric(v, empty | xp.isnan(v) if _nullable(col) else empty, col, _float_dtype(col, op))
    # median / quantile
    qq = 0.5 if op == "median" else float(q)
    if not 0.0 <= qq <= 1.0:
        raise ValueError(f"groupby quantile: q must be between 0 and 1, got {q}")
    r = _group_quantile(g, col, qq, count, temporal, median=op == "median")
    if temporal:
        return _temporal(r, empty, col)
    return _numeric(r, empty, col, _float_dtype(col, op))


_SLOT_OPS = ("sum", "mean", "count")


def _slot_summable(col: Column) -> bool:
    return type(col) is NumericColumn and col.data.dtype.kind in "biuf"


def _slot_aggregate(g: Grouping, col: Column, op: str, min_count: int) -> Column:
    """sum / mean / count of a numeric column over a slot grouping: one pass over the key and the
    values (``slot_sums``), then the groups' slots gathered. Same results as the general path."""
    values = col.data
    kind = values.dtype.kind
    if kind == "b" or (kind in "iu" and values.dtype.itemsize < 8):
        values = values.astype(np.uint64 if kind == "u" else np.int64)
    elif kind == "f" and values.dtype != np.float64:
        values = values.astype(np.float64)
    maybe_missing = col.mask is not None or (kind == "f" and not col.nullable)
    if op == "count" and not maybe_missing:
        return NumericColumn(g.sizes[: g.ngroups].copy(), None, col.nullable)
    m = g.slots
    s, count = slot_sums(
        m.key,
        m.lo,
        m.nslots,
        values,
        key_valid=m.key_valid,
        valid=col.mask,
        nan_missing=not col.nullable,
        want_sums=op != "count",
        want_counts=op != "sum" or min_count > 0,
        exact_int=op == "sum",
        at=m.slot_of_group,
    )
    if op == "count":
        return NumericColumn(count, None, col.nullable)
    if op == "mean":
        with np.errstate(invalid="ignore"):
            mean = s / count  # a group with no value: 0 / 0 = NaN, the missing float
        return _numeric(mean, (count == 0) if col.nullable else None, col, _float_dtype(col, op))
    below = (count < min_count) if min_count > 0 else None
    s = _downcast_if_fits(s, _sum_dtype(col))
    return _numeric(s, below, col, s.dtype)


def _nullable(col: Column) -> bool:
    return isinstance(col, NumericColumn) and col.nullable


def _nth_rows(g: Grouping, n: int) -> Any:
    """Row of the n-th member of each group (negative: from the end), -1 when the group is shorter."""
    xp = g.xp
    sizes = g.sizes[: g.ngroups]
    start = g.offsets[: g.ngroups]
    p = start + (n if n >= 0 else sizes + n)
    ok = (n < sizes) if n >= 0 else (-n <= sizes)
    if g.nrows == 0:
        return xp.full(g.ngroups, -1, dtype=np.int64)
    return xp.where(ok, g.order[xp.clip(p, 0, g.nrows - 1)], -1)


# --- rows in group order (transforms: ops.group_transform) --------------------------------------------------------------------------------------


def _rows_back(g: Grouping, per_sorted: Any) -> Any:
    """Values computed in sorted-by-group order, put back in row order."""
    out = g.xp.empty_like(per_sorted)
    out[g.order] = per_sorted
    return out


def _cumcount(g: Grouping, ascending: bool = True) -> Any:
    xp = g.xp
    sseg = g.sorted_seg
    local = xp.arange(g.nrows, dtype=np.int64)
    local -= g.offsets[sseg]
    if not ascending:
        local = g.sizes[sseg] - 1 - local
    return _rows_back(g, local)


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
        keep = _cumcount(g) == n
    else:
        keep = _cumcount(g, ascending=False) == (-n - 1)
    if g.dropped:
        keep &= g.codes >= 0
    return xp.flatnonzero(keep).astype(np.int64)


__all__ = [
    "Grouping",
    "aggregate",
    "head_tail_positions",
    "make_grouping",
    "nth_positions",
    "seg_scan",
]

"""Sorting on columns: order-preserving numeric keys, multi-key stable argsort, rank, n-largest, search.

Every column kind is reduced to one numeric key array whose order is the column's order (strings become
their dense rank among the distinct values, computed with vectorized sorts over 8-byte words), plus the
column's missing-value flags. Multi-key sorts are least-significant-key-first passes of a stable sort,
which gives pandas' ``sort_values(kind='stable')`` results, descending keys included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import array_module
from ember.backend.primitives import scatter_max, scatter_min, stable_argsort
from ember.column import CategoricalColumn, Column, NumericColumn, StringColumn
from ember.column.list import ListColumn

_NA_POSITIONS = ("first", "last")


# --- keys --------------------------------------------------------------------------------------------


def _string_words(col: StringColumn, k: int, lengths: Any) -> Any:
    """Bytes ``8k .. 8k+7`` of every value as one big-endian uint64 (zero past the end)."""
    xp = col.xp
    n = len(col)
    j = xp.arange(8, dtype=np.int64)
    rel = 8 * k + j[None, :]
    inside = rel < lengths[:, None]
    if int(col.chars.shape[0]) == 0:
        return xp.zeros(n, dtype=np.uint64)
    idx = xp.where(inside, col.offsets[:-1, None] + rel, 0)
    b = xp.where(inside, col.chars[idx], np.uint8(0)).astype(np.uint8, copy=False)
    # first byte most significant: reverse the 8 bytes and read them as one little-endian word
    return xp.ascontiguousarray(b[:, ::-1]).view(np.uint64).reshape(n)


def _dense_refine(rank: Any, key: Any) -> Any:
    """Dense rank of the pairs (rank, key): ties of ``rank`` broken by ``key``."""
    xp = array_module(rank)
    order = stable_argsort(key)
    order = order[stable_argsort(rank[order])]
    r, k = rank[order], key[order]
    step = xp.empty(len(order), dtype=np.int64)
    if len(order):
        step[0] = 0
        step[1:] = (r[1:] != r[:-1]) | (k[1:] != k[:-1])
    out = xp.empty_like(step)
    out[order] = xp.cumsum(step)
    return out


def string_ranks(col: StringColumn) -> Any:
    """Dense rank (int64) of each value among the column's distinct strings, in UTF-8 byte order
    (= code point order, as Python and pandas compare). Missing rows get rank 0 (use ``isna``).

    Synchronizes once (the longest value sizes the number of word passes)."""
    xp = col.xp
    n = len(col)
    if xp is np and n > 4096:
        return _host_string_ranks(col)
    lengths = col.lengths()
    if col.mask is not None:
        lengths = xp.where(col.mask, lengths, 0)
    rank = xp.zeros(n, dtype=np.int64)
    if n == 0:
        return rank
    maxlen = int(lengths.max())
    for k in range((maxlen + 7) // 8):
        rank = _dense_refine(rank, _string_words(col, k, lengths))
    return _dense_refine(rank, lengths)


def _host_string_ranks(col: StringColumn) -> np.ndarray:
    """``string_ranks`` on the host through Arrow: hash the strings to a dictionary, sort only the
    dictionary (Arrow compares UTF-8 bytes), and read each row's rank through its dictionary index."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(col)
    validity = None if col.mask is None else pa.py_buffer(np.packbits(col.mask, bitorder="little"))
    offsets, chars = np.ascontiguousarray(col.data, dtype=np.int64), np.ascontiguousarray(col.chars)
    arr = pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(chars), validity)
    encoded = pc.dictionary_encode(arr)
    order = pc.array_sort_indices(encoded.dictionary).to_numpy()
    rank_of_entry = np.empty(len(order), dtype=np.int64)
    rank_of_entry[order] = np.arange(len(order), dtype=np.int64)
    index = encoded.indices.fill_null(0).to_numpy().astype(np.int64)
    ranks = rank_of_entry[index] if len(order) else np.zeros(n, dtype=np.int64)
    return ranks if col.mask is None else np.where(col.mask, ranks, 0)


def sort_keys(col: Column) -> Any:
    """An order-preserving numeric key array for any column (values at missing rows are arbitrary).

    ints/uints/bools/floats: the values; datetimes/timedeltas: int64 ticks; categoricals: the codes
    (= category order, which is pandas' sort order for ordered and unordered categoricals alike);
    strings: dense ranks among the distinct values."""
    if isinstance(col, StringColumn):
        return string_ranks(col)
    if isinstance(col, CategoricalColumn):
        return col.codes
    if isinstance(col, ListColumn):
        from ember.column.base import Unsupported, unsupported_hint

        raise Unsupported(
            "comparing, sorting or grouping rows that hold lists (duplicated, unique, sort_values, "
            "groupby ...) is not supported by ember." + unsupported_hint()
        )
    return col.data


def _reverse(key: Any) -> Any:
    """A key whose ascending order is ``key``'s descending order (exact: no overflow, no ties made)."""
    if key.dtype.kind == "f":
        return -key
    return ~key  # bitwise not: reverses ints and uints exactly, and negates bools


def key_and_nulls(col: Column) -> tuple[Any, Any]:
    """(order-preserving key with missing rows zeroed, missing flags or None when there are none)."""
    key = sort_keys(col)
    nulls = col.isna() if col.has_nulls_possible else None
    if nulls is not None:
        key = col.xp.where(nulls, key.dtype.type(0), key)
    return key, nulls


def _check_na_position(na_position: str, fn: str) -> None:
    if na_position not in _NA_POSITIONS:
        raise ValueError(f"{fn}: invalid na_position: {na_position!r}; expected 'first' or 'last'")


def _as_list(ascending: bool | list[bool], k: int, fn: str) -> list[bool]:
    if isinstance(ascending, (list, tuple)):
        if len(ascending) != k:
            raise ValueError(f"{fn}: length of ascending ({len(ascending)}) != number of keys ({k})")
        return [bool(a) for a in ascending]
    return [bool(ascending)] * k


def argsort(
    cols: list[Column],
    ascending: bool | list[bool] = True,
    na_position: str = "last",
    stable: bool = True,
) -> Any:
    """Row order (int64) that sorts ``cols`` lexicographically, as ``DataFrame.sort_values(by,
    ascending, na_position, kind='stable')``: ties keep their original order in both directions;
    missing values (null, NaN, NaT) go first or last in every key. Always stable (``stable`` is
    accepted for pandas' ``kind`` argument). No device sync except for string keys."""
    _check_na_position(na_position, "argsort")
    if not cols:
        raise ValueError("argsort: need at least one key column")
    asc = _as_list(ascending, len(cols), "argsort")
    return argsort_keys([key_and_nulls(c) for c in cols], asc, na_position)


def argsort_keys(keys: list[tuple[Any, Any]], ascending: list[bool], na_position: str = "last") -> Any:
    """``argsort`` on precomputed ``key_and_nulls`` pairs (lets callers reuse string ranks)."""
    xp = array_module(keys[0][0])
    order = xp.arange(len(keys[0][0]), dtype=np.int64)
    for (key, nulls), up in zip(reversed(keys), reversed(ascending), strict=True):
        if not up:
            key = _reverse(key)
        order = order[stable_argsort(key[order])]
        if nulls is not None:
            flag = nulls[order] if na_position == "last" else ~nulls[order]
            order = order[stable_argsort(flag)]
    return order


# --- rank --------------------------------------------------------------------------------------------

_RANK_METHODS = ("average", "min", "max", "first", "dense")
_NA_OPTIONS = ("keep", "top", "bottom")


def tie_starts(sorted_key: Any, sorted_nulls: Any, seg: Any = None) -> Any:
    """True where a sorted row starts a new run of equal values (missing values equal each other, and
    so do NaN values; a change of ``seg``, the group of each sorted row, also starts a run)."""
    xp = array_module(sorted_key)
    n = len(sorted_key)
    start = xp.ones(n, dtype=bool)
    if n > 1:
        diff = sorted_key[1:] != sorted_key[:-1]
        if sorted_key.dtype.kind == "f":  # a NaN value (of a masked float column) equals NaN
            diff &= ~(xp.isnan(sorted_key[1:]) & xp.isnan(sorted_key[:-1]))
        if sorted_nulls is not None:
            diff = (sorted_nulls[1:] != sorted_nulls[:-1]) | (~sorted_nulls[1:] & diff)
        if seg is not None:
            diff = diff | (seg[1:] != seg[:-1])
        start[1:] = diff
    return start


def ranks_from_order(
    order: Any,
    key: Any,
    nulls: Any,
    method: str,
    seg: Any = None,
    seg_count: Any = None,
    seg_offsets: Any = None,
) -> Any:
    """float64 ranks (1-based) of rows given their sort order; within groups ``seg`` (sorted-row group
    ids, with ``seg_offsets`` the first sorted position of each group) when given."""
    xp = array_module(order)
    n = len(order)
    ks = key[order]
    ns = None if nulls is None else nulls[order]
    start = tie_starts(ks, ns, seg)
    pos = xp.arange(n, dtype=np.int64)
    if seg is not None:
        base = seg_offsets[seg]
        local = pos - base
    else:
        local = pos
    if method == "first":
        r = (local + 1).astype(np.float64)
    elif method == "dense":
        run = xp.cumsum(start) - 1
        if seg is not None:
            first_run = xp.full(int(seg_offsets.shape[0]), n, dtype=np.int64)
            scatter_min(first_run, seg, run)
            run = run - first_run[seg]
        r = (run + 1).astype(np.float64)
    else:
        run = xp.cumsum(start) - 1
        lo = xp.full(n, n, dtype=np.int64)
        hi = xp.full(n, -1, dtype=np.int64)
        scatter_min(lo, run, local)
        scatter_max(hi, run, local)
        lo, hi = lo[run] + 1, hi[run] + 1
        r = {"min": lo.astype(np.float64), "max": hi.astype(np.float64)}.get(method)
        if r is None:
            r = (lo + hi) / 2.0
    out = xp.empty(n, dtype=np.float64)
    out[order] = r
    return out


def _check_rank_args(method: str, na_option: str) -> None:
    if method not in _RANK_METHODS:
        raise ValueError(f"rank: method must be one of {_RANK_METHODS}, got {method!r}")
    if na_option not in _NA_OPTIONS:
        raise ValueError(f"rank: na_option must be one of {_NA_OPTIONS}, got {na_option!r}")


def _values_for_rank(col: CategoricalColumn) -> Column:
    """pandas' Categorical._values_for_rank of an unordered categorical: numeric categories rank by
    the values (as float64 where one is missing: large integers may then tie, as in pandas), others
    by the categories' order of value."""
    if isinstance(col.categories, NumericColumn) and not col.categories.is_bool:
        from ember.backend import to_host

        if bool(to_host((col.data < 0).any())):
            from ember.ops.unary import astype

            return astype(col.decode(), np.dtype(np.float64))
        return col.categories.take(col.data.astype(np.int64))
    return _codes_by_value(col)


def _holds_missing(col: NumericColumn) -> bool:
    from ember.backend import to_host

    return col.mask is not None and not bool(to_host(col.mask.all()))


def _codes_by_value(col: CategoricalColumn) -> NumericColumn:
    """The codes renumbered in the order of the categories' values, missing where a value is."""
    xp = col.xp
    n_cats = len(col.categories)
    position = xp.empty(n_cats, dtype=np.int64)
    position[argsort([col.categories], True)] = xp.arange(n_cats, dtype=np.int64)
    codes = col.data.astype(np.int64)
    missing = codes < 0
    ranked = position[xp.where(missing, 0, codes)] if n_cats else xp.zeros_like(codes)
    return NumericColumn(ranked).set_missing(~missing)


def rank(
    col: Column,
    method: str = "average",
    ascending: bool = True,
    na_option: str = "keep",
    pct: bool = False,
    masked: bool | None = None,
    by_values: bool = False,
) -> NumericColumn:
    """``Series.rank``: float64 ranks; missing values get NaN ('keep') or rank first/last ('top'/'bottom').
    ``masked``: the ranks as a masked Float64 (missing: <NA>; UInt64 for the whole-number methods
    without ``pct``); by default when ``col`` is masked, as pandas' Series.rank (its DataFrame.rank
    gives float64 either way). An unordered categorical ranks by its values, an ordered one by its
    codes unless ``by_values`` (pandas' DataFrame.rank ranks both by value)."""
    _check_rank_args(method, na_option)
    xp = col.xp
    masked = _is_masked(col) or _is_na_string(col) if masked is None else masked
    whole = _is_masked(col)  # pandas: whole-number ranks of a masked numeric column are UInt64
    if by_values and _is_masked(col) and col.data.dtype.kind in "iu" and _holds_missing(col):
        from ember.ops.unary import astype

        col = astype(col, np.dtype(np.float64))  # pandas' DataFrame.rank: float64 (large values may tie)
    if isinstance(col, CategoricalColumn) and (by_values or not col.ordered):
        col = _values_for_rank(col)  # pandas ranks an unordered categorical by its values
    key, nulls = key_and_nulls(col)
    na_pos = "first" if na_option == "top" else "last"
    order = argsort([col], ascending, na_position=na_pos)
    r = ranks_from_order(order, key, nulls, method)
    n = len(col)
    if pct:
        if method == "dense":
            denom = r.max() if n else 1.0
            if na_option == "keep" and nulls is not None:
                denom = xp.where(nulls, -xp.inf, r).max() if n else 1.0
        else:
            denom = float(n) if (na_option != "keep" or nulls is None) else (n - nulls.sum())
        r = r / xp.where(xp.asarray(denom) > 0, denom, 1)  # denom 0 only when every rank is NaN anyway
    missing = nulls if na_option == "keep" else None
    if masked and whole and method != "average" and not pct:
        r = (r if missing is None else xp.where(missing, 0, r)).astype(np.uint64)
    return ranks_column(r, missing, masked)


def ranks_column(ranks: Any, missing: Any, masked: bool) -> NumericColumn:
    """Ranks with ``missing`` rows (or None) as NaN, or as <NA> of a masked column."""
    if masked:
        return NumericColumn(ranks, None if missing is None else ~missing, nullable=True)
    return NumericColumn(ranks if missing is None else array_module(ranks).where(missing, np.nan, ranks))


def _is_masked(col: Column) -> bool:
    return isinstance(col, NumericColumn) and col.nullable


def _is_na_string(col: Column) -> bool:
    """pandas' 'string' dtype (missing value NA): its ranks are Float64."""
    return isinstance(col, StringColumn) and getattr(col.dtype, "na_value", None) is pd.NA


# --- selection and search ----------------------------------------------------------------------------


def _select_n(col: Column, n: int, keep: str, largest: bool) -> Any:
    from ember.column.decimal import DecimalColumn

    if isinstance(col, DecimalColumn):  # pandas: an object column
        raise TypeError(f"Cannot use method '{'nlargest' if largest else 'nsmallest'}' with dtype object")
    if keep not in ("first", "last", "all"):
        raise ValueError(
            f"{'nlargest' if largest else 'nsmallest'}: keep must be 'first', 'last' or 'all', got {keep!r}"
        )
    xp = col.xp
    size = len(col)
    if n <= 0 or size == 0:
        return xp.zeros(0, dtype=np.int64)
    if n >= size:  # pandas then returns the whole stable sort, missing values last, whatever ``keep``
        return argsort([col], ascending=not largest, na_position="last")
    if keep == "last":
        flipped = col.take(xp.arange(size - 1, -1, -1, dtype=np.int64))
        order = (size - 1) - argsort([flipped], ascending=not largest, na_position="last")
    else:
        order = argsort([col], ascending=not largest, na_position="last")
    key, nulls = key_and_nulls(col)
    nvalid = size if nulls is None else size - nulls.sum()
    # pandas selects among the valid values, then appends the missing rows (in row order) and cuts
    # the result at n: missing rows fill the places the valid values leave free
    missing = xp.zeros(0, dtype=np.int64) if nulls is None else xp.nonzero(nulls)[0].astype(np.int64)
    if keep != "all":
        m = min(n, int(nvalid))
        return xp.concatenate([order[:m], missing])[:n]
    ks = key[order]
    # include every row tied with the n-th value
    last = xp.minimum(n, nvalid) - 1
    pos = xp.arange(size)
    tied = (ks == ks[xp.maximum(last, 0)]) & (pos < nvalid)
    count = int(xp.where(tied | (pos <= last), pos + 1, 0).max()) if size else 0
    if count < n <= count + missing.shape[0]:  # keep='all' then takes every missing row
        return xp.concatenate([order[:count], missing])
    return order[:count]


def nlargest_positions(col: Column, n: int, keep: str = "first") -> Any:
    """Row positions of ``Series.nlargest(n, keep)``, in the result's order (missing values last)."""
    return _select_n(col, n, keep, largest=True)


def nsmallest_positions(col: Column, n: int, keep: str = "first") -> Any:
    """Row positions of ``Series.nsmallest(n, keep)``, in the result's order (missing values last)."""
    return _select_n(col, n, keep, largest=False)


def searchsorted(col: Column, values: Column, side: str = "left") -> Any:
    """Insertion points (int64) of ``values`` into the ascending ``col``, as ``Series.searchsorted``.

    Missing values sort last (NaN/NaT/null at the end of ``col``, as pandas stores sorted data)."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    xp = col.xp
    values = values.to(xp)
    if isinstance(col, StringColumn) or isinstance(values, StringColumn):
        if not (isinstance(col, StringColumn) and isinstance(values, StringColumn)):
            raise TypeError("searchsorted: strings can only be searched among strings")
        from ember.column import concat_columns

        both = concat_columns([col, values])
        r = string_ranks(both)
        hay, needles = r[: len(col)], r[len(col) :]
        hay_null, needle_null = col.isna(), values.isna()
    else:
        if isinstance(col, CategoricalColumn) or isinstance(values, CategoricalColumn):
            raise NotImplementedError("searchsorted: categorical columns are not supported; search the codes")
        hay, needles = col.data, values.data
        hay_null, needle_null = col.isna(), values.isna()
    # missing values sit at the end of a sorted column: give them the largest key so the haystack
    # stays sorted, cap the answers at the end of the non-missing part, send missing needles there
    nvalid = len(col) - hay_null.sum()
    top = xp.inf if hay.dtype.kind == "f" else (True if hay.dtype.kind == "b" else np.iinfo(hay.dtype).max)
    hay = xp.where(hay_null, hay.dtype.type(top), hay)
    pos = xp.searchsorted(hay, needles, side=side)
    pos = xp.minimum(pos, nvalid)
    end = nvalid if side == "left" else len(col)
    return xp.where(needle_null, end, pos).astype(np.int64)

"""Join indices: which left and right rows make up each output row of a merge, in pandas' order.

The frame layer (``DataFrame.merge`` / ``join``) builds the output columns from these indices with
``take`` / ``take_nullable``; -1 marks the side of an output row that has no match.

Algorithm (sort-based, vectorized, the same code on NumPy and CuPy):

* every key pair is reduced to one sortable array per side (numbers, datetime ticks, categorical codes,
  string ranks; several key columns become one dense rank of the key tuple) plus per-row null flags.
  Null keys match each other, as in pandas;
* ``sort=False`` inner/left/right: the *build* side is stably argsorted, every *probe* row finds its
  run of equal keys with two ``searchsorted`` calls, and the runs are expanded with one cumsum and a
  repeat. The output follows the probe side's row order; matches follow the build side's row order;
* ``sort=True`` and ``how='outer'`` (pandas always sorts outer joins): one stable sort of both sides'
  keys together; every sorted row knows its group's left and right counts, so emitting rows in sorted
  order gives pandas' key order with left-major products inside a key (right-major for how='right').

The only device->host sync is the output length (one ``int`` per call), plus the int/float key
check of pandas' warning when such keys meet.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import array_module, asarray_on, is_device_array, to_host
from ember.backend.primitives import repeat_positions, searchsorted_bounds, stable_argsort
from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
    concat_columns,
)

HOWS = ("inner", "left", "right", "outer")
VALIDATE_OPTIONS = ("one_to_one", "1:1", "one_to_many", "1:m", "many_to_one", "m:1", "many_to_many", "m:m")
_UNIT_NS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


MergeError = pd.errors.MergeError  # pandas' own class, so ``except pd.errors.MergeError`` works


# --- key encoding ------------------------------------------------------------------------------------


def _incompatible(lcol: Column, rcol: Column, name: Any) -> ValueError:
    return ValueError(
        f"You are trying to merge on {lcol.dtype} and {rcol.dtype} columns for key '{name}'. "
        "If you wish to proceed you should use pd.concat"
    )


def _categories_equal(lcol: CategoricalColumn, rcol: CategoricalColumn) -> bool:
    """pandas' ``CategoricalDtype`` equality (categories compared on the host: they are small)."""
    if lcol.categories is rcol.categories and lcol.ordered == rcol.ordered:
        return True
    return bool(lcol.dtype == rcol.dtype)


def _categorical_codes(lcol: CategoricalColumn, rcol: CategoricalColumn) -> tuple[Any, Any]:
    """int64 codes of both sides in the left column's categories (pandas sorts such keys by code,
    with the missing code -1 first and matching itself)."""
    xp = lcol.xp
    lcodes = lcol.codes.astype(np.int64)
    rcodes = rcol.codes.astype(np.int64)
    if lcol.categories is rcol.categories:
        return lcodes, rcodes
    lcats = pd.Index(lcol.categories.to_pandas())
    recode = lcats.get_indexer(pd.Index(rcol.categories.to_pandas())).astype(np.int64)
    if np.array_equal(recode, np.arange(len(recode))):
        return lcodes, rcodes
    recode = asarray_on(np.append(recode, -1), xp)  # the last slot maps the missing code to itself
    return lcodes, recode[xp.where(rcodes < 0, len(recode) - 1, rcodes)]


def _categorical_pair(
    lcol: CategoricalColumn, rcol: CategoricalColumn, name: Any
) -> tuple[Any, Any, Any, Any]:
    """Categoricals with different categories compare by value: the pair's keys are computed once per
    category (the dictionaries are small) and gathered by code, never decoding the rows. Missing codes
    are the nulls."""
    lk, rk, _, _ = encode_pair(lcol.categories, rcol.categories, name)
    return _by_code(lcol.codes, lk), _by_code(rcol.codes, rk), lcol.codes < 0, rcol.codes < 0


def _by_code(codes: Any, per_category: Any) -> Any:
    xp = array_module(codes)
    if per_category.shape[0] == 0:  # no categories: every row is missing
        return xp.zeros(codes.shape[0], dtype=per_category.dtype)
    return per_category[xp.maximum(codes, 0).astype(np.int64)]


def _nulls(col: Column) -> Any:
    return col.isna() if col.has_nulls_possible else None


def _numeric_pair(lcol: NumericColumn, rcol: NumericColumn) -> tuple[Any, Any]:
    """Both sides' values in their common dtype (pandas: int vs float compare as float, bool as int)."""
    ldt, rdt = lcol.data.dtype, rcol.data.dtype
    common = np.result_type(ldt, rdt)
    if {ldt.kind, rdt.kind} & {"i", "u", "b"} and "f" in (ldt.kind, rdt.kind):
        _warn_int_float(lcol if ldt.kind == "f" else rcol, rdt if ldt.kind == "f" else ldt)
    if common.kind == "b":
        common = np.dtype(np.uint8)  # searchsorted and sort on uint8 behave the same on both backends
    return lcol.data.astype(common, copy=False), rcol.data.astype(common, copy=False)


def _warn_int_float(fcol: NumericColumn, int_dtype: np.dtype) -> None:
    """pandas' UserWarning when float keys meet int keys and some floats are not whole numbers.
    Synchronizes once."""
    xp = fcol.xp
    f = fcol.data
    if len(f) == 0 or int_dtype.kind == "b":
        return
    with np.errstate(invalid="ignore"):
        whole = (f == xp.trunc(f)) | xp.isnan(f) | ~xp.isfinite(f)
    if fcol.mask is not None:
        whole = whole | ~fcol.mask
    if not bool(whole.all()):
        warnings.warn(
            "You are merging on int and float columns where the float values are not equal to their "
            "int representation.",
            UserWarning,
            stacklevel=4,
        )


def _temporal_pair(lcol: Column, rcol: Column, name: Any) -> tuple[Any, Any, Any, Any]:
    """int64 ticks in the finer unit. pandas compares datetimes (and timedeltas of one unit) as int64
    with NaT as the smallest int64: NaT matches NaT and sorts *first*; timedeltas of different units
    go through object keys, where NaT is a null (sorted last)."""
    if type(lcol) is not type(rcol):
        raise _incompatible(lcol, rcol, name)
    if isinstance(lcol, DatetimeColumn) and (lcol.tz is None) != (rcol.tz is None):
        raise _incompatible(lcol, rcol, name)
    unit = lcol.unit if _UNIT_NS[lcol.unit] <= _UNIT_NS[rcol.unit] else rcol.unit
    lk, rk = _to_unit(lcol, unit), _to_unit(rcol, unit)
    if isinstance(lcol, TimedeltaColumn) and lcol.unit != rcol.unit:
        return lk, rk, _nulls(lcol), _nulls(rcol)
    return _nat_as_min(lcol, lk), _nat_as_min(rcol, rk), None, None


def _nat_as_min(col: Column, ticks: Any) -> Any:
    if col.mask is None:
        return ticks
    return col.xp.where(col.mask, ticks, np.iinfo(np.int64).min)


def _to_unit(col: Column, dst: str) -> Any:
    """The column's ticks in the finer unit ``dst``: datetimes that do not fit raise pandas'
    OutOfBoundsDatetime (pandas casts the keys to the common unit); timedeltas that do not fit are
    refused (pandas compares them as Python objects, where they match nothing)."""
    from ember.column.base import Unsupported, unsupported_hint
    from ember.ops.datetimes import rescale_checked

    if col.unit == dst:
        return col.data
    kind = "M" if isinstance(col, DatetimeColumn) else "m"
    try:
        return rescale_checked(col.xp, col.data, col.unit, dst, kind, col.mask)
    except pd.errors.OutOfBoundsTimedelta as exc:
        raise Unsupported(
            f"merge: timedelta keys in units {col.unit} and {dst} where a value does not fit in {dst} "
            "are not supported by ember." + unsupported_hint()
        ) from exc


def _string_pair(lcol: StringColumn, rcol: StringColumn) -> tuple[Any, Any]:
    """Dense ranks of both sides' strings among their union (UTF-8 byte order = pandas' order)."""
    from ember.ops.sort import string_ranks

    ranks = string_ranks(concat_columns([lcol, rcol]))
    return ranks[: len(lcol)], ranks[len(lcol) :]


def _timedeltas_of_two_units(lcol: Column, rcol: Column) -> bool:
    return isinstance(lcol, TimedeltaColumn) and isinstance(rcol, TimedeltaColumn) and lcol.unit != rcol.unit


def _same_kind(lcol: Column, rcol: Column) -> bool:
    """Whether pandas factorizes the pair in its own type (datetimes, tz-naive or tz-aware both, as
    int64 ticks with NaT first; timedeltas of one dtype; categoricals of equal dtype by code) rather
    than as Python objects, where NaT is a null sorted last and a categorical sorts by value."""
    if isinstance(lcol, CategoricalColumn) or isinstance(rcol, CategoricalColumn):
        both = isinstance(lcol, CategoricalColumn) and isinstance(rcol, CategoricalColumn)
        return both and _categories_equal(lcol, rcol)
    if isinstance(lcol, DatetimeColumn) and isinstance(rcol, DatetimeColumn):
        return (lcol.tz is None) == (rcol.tz is None)
    if isinstance(lcol, TimedeltaColumn) and isinstance(rcol, TimedeltaColumn):
        return lcol.unit == rcol.unit
    return not (_is_temporal(lcol) or _is_temporal(rcol))


def _is_temporal(col: Column) -> bool:
    return isinstance(col, (DatetimeColumn, TimedeltaColumn))


def encode_pair(
    lcol: Column, rcol: Column, name: Any = None, nat_last: bool = False
) -> tuple[Any, Any, Any, Any]:
    """One key column pair as (left key, right key, left nulls, right nulls): sortable arrays of one
    dtype whose equality and order are pandas' merge equality and sort order for the pair; nulls
    are boolean arrays (or None) and null keys match each other.

    Raises ValueError for the pairs pandas refuses (numbers vs strings, datetimes vs anything else)."""
    xp = array_module(lcol.data, rcol.data)
    lcol, rcol = lcol.to(xp), rcol.to(xp)
    both_categorical = isinstance(lcol, CategoricalColumn) and isinstance(rcol, CategoricalColumn)
    if both_categorical and not _categories_equal(lcol, rcol):
        pass  # pandas compares categoricals of other categories by value (missing last), empty or not
    elif _timedeltas_of_two_units(lcol, rcol):
        pass  # object keys even beside an empty side: NaT sorts last
    elif (len(lcol) == 0) != (len(rcol) == 0):  # pandas skips the dtype check when one side is empty
        full = rcol if len(lcol) == 0 else lcol
        as_objects = not _same_kind(lcol, rcol)
        if as_objects and isinstance(full, CategoricalColumn):
            full = full.decode()  # pandas: the values as Python objects, not the categories' order
        empty = full.take(xp.zeros(0, dtype=np.int64))
        lcol, rcol = (empty, full) if len(lcol) == 0 else (full, empty)
        nat_last = nat_last or (as_objects and _is_temporal(full))  # object keys: NaT a null
    if isinstance(lcol, CategoricalColumn) and isinstance(rcol, CategoricalColumn):
        if _categories_equal(lcol, rcol):
            lk, rk = _categorical_codes(lcol, rcol)
            return lk, rk, None, None
        return _objects_if_incompatible(_categorical_pair, lcol, rcol, name)
    if isinstance(lcol, CategoricalColumn) or isinstance(rcol, CategoricalColumn):
        lcol, rcol = (c.decode() if isinstance(c, CategoricalColumn) else c for c in (lcol, rcol))
        return _objects_if_incompatible(encode_pair, lcol, rcol, name)
    if _is_temporal(lcol) or _is_temporal(rcol):
        lk, rk, lnull, rnull = _temporal_pair(lcol, rcol, name)
        if nat_last and lnull is None:
            return lk, rk, _nulls(lcol), _nulls(rcol)
        return lk, rk, lnull, rnull
    lnull, rnull = _nulls(lcol), _nulls(rcol)
    if isinstance(lcol, NumericColumn) and isinstance(rcol, NumericColumn):
        lk, rk = _numeric_pair(lcol, rcol)
    elif isinstance(lcol, StringColumn) and isinstance(rcol, StringColumn):
        lk, rk = _string_pair(lcol, rcol)
    else:
        num = lcol if isinstance(lcol, NumericColumn) else rcol
        if num.is_bool or (len(lcol) == 0 and len(rcol) == 0):
            # pandas: bools, or numbers where both sides are empty (inferred 'empty'), merge as
            # Python objects
            raise NotImplementedError(
                f"join: key {name!r} pairs a {'boolean' if num.is_bool else 'number'} column with a "
                "string column (pandas compares them as Python objects); cast one side first"
            )
        raise _incompatible(lcol, rcol, name)
    return lk, rk, lnull, rnull


def _objects_if_incompatible(encode: Any, lcol: Column, rcol: Column, name: Any) -> Any:
    """A categorical key beside values of another kind: pandas merges them as Python objects (no
    ValueError; labels of different kinds match nothing), which ember refuses."""
    from ember.column.base import Unsupported, unsupported_hint

    try:
        return encode(lcol, rcol, name)
    except ValueError as exc:
        if "You are trying to merge on" not in str(exc):
            raise
        raise Unsupported(
            f"merge: categorical key {name!r} beside values of another kind ({lcol.dtype} and "
            f"{rcol.dtype}: pandas compares them as Python objects) is not supported by ember."
            + unsupported_hint()
        ) from exc


def _dense_refine(rank: Any, key: Any) -> Any:
    """Dense rank of the pairs (rank, key): ties of ``rank`` broken by ``key``."""
    xp = array_module(rank)
    order = stable_argsort(key)
    order = order[stable_argsort(rank[order])]
    r, k = rank[order], key[order]
    step = xp.zeros(len(order), dtype=np.int64)
    if len(order) > 1:
        step[1:] = (r[1:] != r[:-1]) | (k[1:] != k[:-1])
    out = xp.empty_like(step)
    out[order] = xp.cumsum(step)
    return out


def encode_keys(
    left_keys: Sequence[Column],
    right_keys: Sequence[Column],
    names: Sequence[Any] | None = None,
    nat_last: bool = False,
) -> tuple[Any, Any, Any, Any]:
    """All key pairs as one sortable key per side plus null flags (see ``encode_pair``).

    Several key columns become the dense rank of the key tuple among both sides' rows, in
    lexicographic order with nulls last in every column (pandas' sort order for merge keys); a null
    in one key column matches a null in the same column only."""
    if len(left_keys) != len(right_keys):
        raise ValueError("len(right_on) must equal len(left_on)")
    if not left_keys:
        raise ValueError("join: need at least one key column on each side")
    names = list(names) if names is not None else [None] * len(left_keys)
    pairs = [
        encode_pair(lc, rc, nm, nat_last) for lc, rc, nm in zip(left_keys, right_keys, names, strict=True)
    ]
    if len(pairs) == 1:
        return pairs[0]
    nl = len(pairs[0][0])
    xp = array_module(pairs[0][0], pairs[0][1])
    rank = xp.zeros(nl + len(pairs[0][1]), dtype=np.int64)
    for lk, rk, lnull, rnull in pairs:
        key = xp.concatenate([lk, rk])
        if lnull is not None or rnull is not None:
            null = xp.concatenate([_flags(lnull, len(lk), xp), _flags(rnull, len(rk), xp)])
            rank = _dense_refine(rank, null)
            key = xp.where(null, key.dtype.type(0), key)
        rank = _dense_refine(rank, key)
    return rank[:nl], rank[nl:], None, None


def _flags(null: Any, n: int, xp: Any) -> Any:
    return xp.zeros(n, dtype=bool) if null is None else null


def check_key_dtypes(
    left_keys: Sequence[Column], right_keys: Sequence[Column], names: Sequence[Any] | None = None
) -> None:
    """Raise pandas' ValueError for key pairs that cannot be merged (e.g. int64 vs str); warn as
    pandas does for int keys against non-integral float keys."""
    encode_keys(left_keys, right_keys, names)


# --- sorted build side and probes ----------------------------------------------------------------------


def _top(dtype: np.dtype) -> Any:
    """The largest value of ``dtype``: null keys are parked there, after every real key."""
    if dtype.kind == "f":
        return dtype.type(np.inf)
    return np.iinfo(dtype).max


def _sorted_side(key: Any, null: Any) -> tuple[Any, Any, Any]:
    """(stable order with null keys last, the keys in that order, number of non-null keys).

    Null keys are replaced by the dtype's largest value so the sorted array stays sorted; the count
    of non-null keys (a device scalar, no sync) caps searches so that real keys never reach them."""
    xp = array_module(key)
    if null is None:
        order = stable_argsort(key)
        return order, key[order], len(key)
    filled = xp.where(null, _top(key.dtype), key)
    order = stable_argsort(filled)
    snull = null[order]
    n_valid = len(key) - snull.sum()
    pos = xp.where(
        snull, n_valid + xp.cumsum(snull, dtype=np.int64) - 1, xp.cumsum(~snull, dtype=np.int64) - 1
    )
    out = xp.empty_like(order)
    out[pos] = order
    return out, filled[out], n_valid


def _probe(sorted_key: Any, n_valid: Any, n_build: int, key: Any, null: Any) -> tuple[Any, Any]:
    """(first sorted build position, number of equal build keys) for every probe key."""
    xp = array_module(key)
    if null is not None:
        key = xp.where(null, _top(key.dtype), key)
    if not is_device_array(key):  # the host knows n_valid: search the real keys only (no parked nulls)
        n_valid = int(n_valid)
        sorted_key = sorted_key[:n_valid]
    lo, hi = searchsorted_bounds(sorted_key, key)
    if null is not None or not isinstance(n_valid, int):
        lo, hi = xp.minimum(lo, n_valid), xp.minimum(hi, n_valid)
        if null is not None:
            lo = xp.where(null, n_valid, lo)
            hi = xp.where(null, n_build, hi)
    return lo.astype(np.int64, copy=False), (hi - lo).astype(np.int64, copy=False)


def _expand(emit: Any, at_least_one: bool = False) -> tuple[Any, Any]:
    """For every output row: (the unit that emits it, its index among that unit's rows).
    Synchronizes once (the output length). Output-length temporaries are updated in place: a join's
    peak memory is a few arrays of the output's length. ``at_least_one``: every unit emits a row or
    more, so an output as long as the units means one row each (a left join on unique keys)."""
    xp = array_module(emit)
    ends = xp.cumsum(emit)
    total = int(ends[-1]) if len(emit) else 0
    if at_least_one and total == len(emit):
        return xp.arange(total, dtype=np.int64), xp.zeros(total, dtype=np.int64)
    unit = repeat_positions(emit, ends, total)
    k = xp.arange(total, dtype=np.int64)
    k -= (ends - emit)[unit]
    return unit, k


def _gather(perm: Any, pos: Any, valid: Any | None) -> Any:
    """``perm[pos]`` where ``valid`` (None: everywhere), -1 elsewhere (positions outside ``perm`` are
    never read). Overwrites ``pos``."""
    xp = array_module(pos)
    if len(perm) == 0:
        return xp.full(len(pos), -1, dtype=np.int64)
    out = perm[xp.clip(pos, 0, len(perm) - 1, out=pos)]
    if valid is not None:
        xp.copyto(out, -1, where=~valid)
    return out


def _probe_join(pkey: Any, pnull: Any, bkey: Any, bnull: Any, keep_unmatched: bool) -> tuple[Any, Any]:
    """(probe rows, build rows) in probe-row order with matches in build-row order."""
    perm, skey, n_valid = _sorted_side(bkey, bnull)
    lo, cnt = _probe(skey, n_valid, len(bkey), pkey, pnull)
    xp = array_module(pkey)
    emit = xp.maximum(cnt, 1) if keep_unmatched else cnt
    probe_rows, pos = _expand(emit, at_least_one=keep_unmatched)
    pos += lo[probe_rows]
    # without unmatched rows every emitted row has a match
    matched = cnt[probe_rows] > 0 if keep_unmatched else None
    return probe_rows, _gather(perm, pos, matched)


def _group_bounds(skey: Any, snull: Any, n_valid: Any) -> tuple[Any, Any]:
    """(start, end) sorted positions of every sorted row's run of equal keys (nulls: one run)."""
    xp = array_module(skey)
    n = len(skey)
    start = xp.searchsorted(skey, skey, side="left")
    end = xp.searchsorted(skey, skey, side="right")
    if snull is not None:
        start = xp.where(snull, n_valid, start)
        end = xp.where(snull, n, xp.minimum(end, n_valid))
    return start.astype(np.int64, copy=False), end.astype(np.int64, copy=False)


def _sorted_emit(how: str, is_left: Any, lc: Any, rc: Any) -> Any:
    """Rows each sorted row emits: left rows carry their key's right matches (inner/left/outer),
    right rows their left matches (right), and right rows of keys absent on the left one row (outer)."""
    xp = array_module(is_left)
    if how == "inner":
        return xp.where(is_left, rc, 0)
    if how == "left":
        return xp.where(is_left, xp.maximum(rc, 1), 0)
    if how == "right":
        return xp.where(is_left, 0, xp.maximum(lc, 1))
    return xp.where(is_left, xp.maximum(rc, 1), (lc == 0).astype(np.int64))


def _sorted_join(lk: Any, rk: Any, lnull: Any, rnull: Any, how: str) -> tuple[Any, Any]:
    """Rows in key order (nulls last): left-major products inside a key, right-major for 'right'."""
    xp = array_module(lk, rk)
    nl = len(lk)
    key = xp.concatenate([lk, rk])
    null = None
    if lnull is not None or rnull is not None:
        null = xp.concatenate([_flags(lnull, nl, xp), _flags(rnull, len(rk), xp)])
    perm, skey, n_valid = _sorted_side(key, null)
    start, end = _group_bounds(skey, None if null is None else null[perm], n_valid)
    is_left = perm < nl
    left_before = xp.zeros(len(perm) + 1, dtype=np.int64)
    left_before[1:] = xp.cumsum(is_left, dtype=np.int64)
    lc = left_before[end] - left_before[start]
    rc = (end - start) - lc
    emit = _sorted_emit(how, is_left, lc, rc)
    unit, k = _expand(emit)
    row, from_left = perm[unit], is_left[unit]
    u_start, u_lc = start[unit], lc[unit]
    right_match = _gather(perm, u_start + u_lc + k, rc[unit] > 0) - nl
    left_match = _gather(perm, u_start + k, u_lc > 0)
    left_idx = xp.where(from_left, row, left_match)
    right_idx = xp.where(from_left, xp.where(right_match >= 0, right_match, -1), row - nl)
    return left_idx, right_idx


# --- public entry points ---------------------------------------------------------------------------------


def _check_how(how: str) -> None:
    if how not in HOWS:
        raise ValueError(
            f"join_indices: how must be one of {HOWS} (cross joins: cross_indices; semi/anti joins: "
            f"semi_anti_indices), got {how!r}"
        )


def join_indices(
    left_keys: Sequence[Column],
    right_keys: Sequence[Column],
    how: str,
    sort: bool = False,
    names: Sequence[Any] | None = None,
    nat_last: bool = False,
) -> tuple[Any, Any]:
    """(left rows, right rows): int64 arrays of equal length giving the output rows of
    ``pd.merge(left, right, how=how, sort=sort)`` on these keys, in pandas' order; -1 where the
    output row has no row of that side (left/right/outer joins).

    pandas' order: inner/left keep the left rows' order with each row's matches in right-row order;
    right keeps the right rows' order with matches in left-row order; outer (always sorted by
    pandas) and ``sort=True`` go by key (nulls last; categorical keys by category code, missing
    first), left-major inside a key (right-major for how='right'). ``names`` name the key pairs in
    dtype errors. ``nat_last``: NaT keys are nulls, sorted last (pandas' MultiIndex joins go by
    level codes). Synchronizes once (the output length)."""
    _check_how(how)
    if sort or how == "outer":
        _check_categorical_beside_empty(left_keys, right_keys)
    lk, rk, lnull, rnull = encode_keys(left_keys, right_keys, names, nat_last)
    if sort or how == "outer":
        return _sorted_join(lk, rk, lnull, rnull, how)
    if how == "right":
        ridx, lidx = _probe_join(rk, rnull, lk, lnull, keep_unmatched=True)
        return lidx, ridx
    return _probe_join(lk, lnull, rk, rnull, keep_unmatched=how == "left")


def _check_categorical_beside_empty(left_keys: Sequence[Column], right_keys: Sequence[Column]) -> None:
    """A sorted join on one categorical key beside an empty key of another dtype: pandas sorts by
    value (as ember) unless the categorical's codes are monotonic increasing, where its Index.join
    keeps them in code order; that case is refused. Synchronizes once for such a key."""
    from ember.column.base import Unsupported, unsupported_hint

    if len(left_keys) != 1:
        return  # several keys: pandas factorizes each by value
    lcol, rcol = left_keys[0], right_keys[0]
    if (len(lcol) == 0) == (len(rcol) == 0) or _same_kind(lcol, rcol):
        return
    full = lcol if len(lcol) else rcol
    if isinstance(full, CategoricalColumn) and len(full) > 1:
        codes = full.codes
        if bool((codes[1:] >= codes[:-1]).all()):
            raise Unsupported(
                "merge: a sorted (or outer) join of a categorical key in category order beside an "
                "empty key of another dtype is not supported by ember." + unsupported_hint()
            )


def semi_anti_indices(
    left_keys: Sequence[Column],
    right_keys: Sequence[Column],
    anti: bool,
    names: Sequence[Any] | None = None,
) -> Any:
    """Left row positions (int64, in left order) whose key has a match on the right (semi join) or
    has none (anti join, pandas' ``how='left_anti'``); each left row at most once. Null keys match
    null keys. Synchronizes once (the output length)."""
    lk, rk, lnull, rnull = encode_keys(left_keys, right_keys, names)
    xp = array_module(lk, rk)
    _, skey, n_valid = _sorted_side(rk, rnull)
    _, cnt = _probe(skey, n_valid, len(rk), lk, lnull)
    keep = cnt == 0 if anti else cnt > 0
    return xp.flatnonzero(keep).astype(np.int64, copy=False)


def cross_indices(n_left: int, n_right: int, xp: Any = np) -> tuple[Any, Any]:
    """(left rows, right rows) of a cross join: every left row with every right row, left-major."""
    total = n_left * n_right
    pos = xp.arange(total, dtype=np.int64)
    if total == 0:
        return pos, pos.copy()
    return pos // n_right, pos % n_right


# --- validate ----------------------------------------------------------------------------------------------


def _has_duplicates(key: Any, null: Any) -> Any:
    """Device bool: two rows share a key (null keys count as equal, as Index.is_unique does)."""
    xp = array_module(key)
    _, skey, n_valid = _sorted_side(key, null)
    n = len(key)
    if n < 2:
        return xp.zeros((), dtype=bool)
    same = skey[1:] == skey[:-1]
    if null is None:
        return same.any()
    idx = xp.arange(1, n)
    return (same & (idx < n_valid)).any() | ((n - n_valid) > 1)


def _duplicates_text(keys: Sequence[Column], names: Any, side: str) -> str:
    """pandas' listing of the first duplicated keys (built on the host: error path only)."""
    idx = pd.MultiIndex.from_arrays([c.to_pandas() for c in keys])
    name = list(names) if names is not None else None
    dups = idx[idx.duplicated()][:5]
    text = (dups.to_frame(name=name) if name is not None else dups.to_frame()).to_string(index=False)
    return f"\nDuplicates in {side}:\n {text} ..."


def check_validate(
    left_keys: Sequence[Column],
    right_keys: Sequence[Column],
    validate: str | None,
    left_names: Sequence[Any] | None = None,
    right_names: Sequence[Any] | None = None,
) -> None:
    """pandas' ``merge(validate=...)``: raise ``MergeError`` with pandas' message when the keys are
    not unique on a side that must be unique. ``left_names`` / ``right_names`` are the key names
    shown in the listing of duplicates. Synchronizes once."""
    if validate is None:
        return
    if validate not in VALIDATE_OPTIONS:
        raise ValueError(
            f'"{validate}" is not a valid argument. Valid arguments are:\n- "1:1"\n- "1:m"\n- "m:1"\n'
            '- "m:m"\n- "one_to_one"\n- "one_to_many"\n- "many_to_one"\n- "many_to_many"'
        )
    if validate in ("many_to_many", "m:m"):
        return
    lk, rk, lnull, rnull = encode_keys(left_keys, right_keys, None)
    xp = array_module(lk, rk)
    flags = to_host(xp.stack([_has_duplicates(lk, lnull), _has_duplicates(rk, rnull)]))
    left_unique, right_unique = not flags[0], not flags[1]

    def left_msg() -> str:
        return _duplicates_text(left_keys, left_names, "left")

    def right_msg() -> str:
        return _duplicates_text(right_keys, right_names, "right")

    if validate in ("one_to_one", "1:1"):
        if not left_unique and not right_unique:
            raise MergeError(
                "Merge keys are not unique in either left or right dataset; not a one-to-one merge."
                f"{left_msg()}{right_msg()}"
            )
        if not left_unique:
            raise MergeError(f"Merge keys are not unique in left dataset; not a one-to-one merge{left_msg()}")
        if not right_unique:
            raise MergeError(
                f"Merge keys are not unique in right dataset; not a one-to-one merge{right_msg()}"
            )
    elif validate in ("one_to_many", "1:m"):
        if not left_unique:
            raise MergeError(
                f"Merge keys are not unique in left dataset; not a one-to-many merge{left_msg()}"
            )
    elif not right_unique:
        raise MergeError(
            f"Merge keys are not unique in right dataset; not a many-to-one merge\n{right_msg()}"
        )

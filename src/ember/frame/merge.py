"""merge / join: key resolution, suffixes and indicator here; the row matching is ops.join."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn
from ember.frame.frame_labels import unique_labels
from ember.frame.index import Index, MultiIndex, RangeIndex
from ember.frame.merge_index import index_join

HOWS = ("inner", "left", "right", "outer", "cross", "left_anti", "right_anti", "leftsemi", "leftanti")


def _as_list(x: Any) -> list:
    return [] if x is None else (list(x) if isinstance(x, (list, tuple)) else [x])


def _is_na_label(label: Any) -> bool:
    return pd.api.types.is_scalar(label) and bool(pd.isna(label))


def _check_na_keys(left: Any, right: Any, keys: list, how: str) -> None:
    """NaN-like ``on`` keys ember merges as pandas does: a label of one side only (pandas suffixes a
    label of both and inserts the key beside them), and where rows lacking a match are filled,
    only the left's own label (pandas writes the key to whichever column the given NA finds)."""
    from ember.frame._fallback import unsupported

    for key in filter(_is_na_label, keys):
        lname, rname = _column_label(left, key), _column_label(right, key)
        if lname in right._columns or rname in left._columns:
            raise unsupported("merge", f"key {key!r} labelling a column of both sides")
        if how != "inner" and type(lname) is not type(key):
            raise unsupported("merge", f"key {key!r} naming the left column {lname!r}")


def _column_label(frame: Any, label: Any) -> Any:
    """The frame's column label ``label`` names: a NaN-like label finds a NaN-like column label as
    pandas' ``columns.get_loc`` does (which NA-likes match depends on the labels' dtype)."""
    if label in frame._columns or not _is_na_label(label):
        return label
    try:
        position = frame.columns.get_loc(label)
    except (KeyError, TypeError):
        return label
    return frame._names[position] if isinstance(position, (int, np.integer)) else label


def _key_columns(frame: Any, names: list, use_index: bool, side: str) -> list[Column]:
    return _no_decimal_keys(_keys_of(frame, names, use_index))


def _no_decimal_keys(cols: list[Column]) -> list[Column]:
    from ember.column.decimal import DecimalColumn
    from ember.frame._fallback import unsupported

    if any(isinstance(c, DecimalColumn) for c in cols):  # equal values may differ in scale
        raise unsupported("merge", "decimal.Decimal keys (pandas matches them as Python objects)")
    return cols


def _keys_of(frame: Any, names: list, use_index: bool) -> list[Column]:
    if use_index:
        idx = frame.index
        return list(idx.levels_columns) if isinstance(idx, MultiIndex) else [idx.column]
    missing = [k for k in names if k not in frame._columns]
    if missing:
        raise KeyError(missing[0])
    levels = [n for n in frame.index.names if n is not None]
    for k in names:
        if k in levels:
            raise ValueError(f"'{k}' is both an index level and a column label, which is ambiguous.")
    return [frame._columns[k] for k in names]


def merge(
    left: Any,
    right: Any,
    how: str = "inner",
    on: Any = None,
    left_on: Any = None,
    right_on: Any = None,
    left_index: bool = False,
    right_index: bool = False,
    sort: bool = False,
    suffixes: tuple = ("_x", "_y"),
    indicator: bool = False,
    validate: Any = None,
) -> Any:
    """Database-style join of two DataFrames, rows in pandas' order for every ``how``.

    ``how='left_anti'`` / ``'right_anti'`` (pandas 3): the rows of pandas' left / right join whose
    other side has no match, with that join's columns, dtypes and row labels.
    ``how='leftsemi'`` / ``'leftanti'`` are ember extensions: the left rows that have / have no match.
    """
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series
    from ember.ops.join import check_validate, cross_indices, join_indices, semi_anti_indices

    if isinstance(right, Series):
        if right.name is None:
            raise ValueError("Cannot merge a Series without a name")
        right = right.to_frame()
    if not isinstance(right, DataFrame):
        raise TypeError(f"Can only merge Series or DataFrame objects, a {type(right).__name__} was passed")
    if how not in HOWS:
        raise ValueError(f"how must be one of {HOWS}, got {how!r}")
    anti = how if how in ("left_anti", "right_anti") else None
    if anti is not None:
        how = anti.split("_")[0]
    if how == "cross":
        if on is not None or left_on is not None or right_on is not None or left_index or right_index:
            raise ValueError("Can not pass on, right_on, left_on or set right_index=True or left_index=True")
        lpos, rpos = cross_indices(len(left), len(right))
        return _assemble(left, right, lpos, rpos, [], [], suffixes, indicator=indicator, index=None)
    if (
        on is None
        and left_on is not None
        and not left_index
        and not right_index
        and _as_list(left_on) == _as_list(right_on)
    ):
        on, left_on, right_on = left_on, None, None  # pandas: the same names on both sides act as on=
    if on is not None and (left_on is not None or right_on is not None):
        raise ValueError(
            'Can only pass argument "on" OR "left_on" and "right_on", not a combination of both.'
        )
    if on is None and left_on is None and right_on is None and not left_index and not right_index:
        on = [k for k in left._names if k in right._columns]
        if not on:
            raise pd.errors.MergeError(
                "No common columns to perform merge on. Merge options: left_on=None, right_on=None, "
                "left_index=False, right_index=False"
            )
    if on is not None and any(_is_na_label(k) for k in _as_list(on)):
        _check_na_keys(left, right, _as_list(on), how)
        on, left_on, right_on = None, on, on  # pandas: a NaN-like key never equals itself (both kept)
    lnames = _as_list(on if on is not None else left_on)
    rnames = _as_list(on if on is not None else right_on)
    if not left_index:
        lnames = [_column_label(left, k) for k in lnames]
    if not right_index:
        rnames = [_column_label(right, k) for k in rnames]
    lkeys = _key_columns(left, lnames, left_index, "left")
    rkeys = _key_columns(right, rnames, right_index, "right")
    right_keys_as_given = list(rkeys)  # pandas fills keys of rows without a left match from these
    if not (left_index and right_index):  # pandas names the keys after the column side's labels
        names = rnames if left_index else lnames
        left, right, lkeys, rkeys = _coerce_keys(left, right, names, list(lkeys), list(rkeys))
    multi = isinstance(left.index, MultiIndex) or isinstance(right.index, MultiIndex)
    if left_index and right_index and multi:
        _check_multi_join(left.index, right.index)
    if len(lkeys) != len(rkeys):
        raise ValueError("len(right_on) must equal len(left_on)")
    if validate is not None:
        check_validate(lkeys, rkeys, validate)
    if how in ("leftsemi", "leftanti"):
        pos = semi_anti_indices(lkeys, rkeys, anti=how == "leftanti")
        return left._take_rows(pos)
    if left_index and right_index and not multi:  # pandas: Index.join of the two indexes
        lpos, rpos, index = index_join(left.index, right.index, how, sort)
    else:
        lpos, rpos = join_indices(
            lkeys,
            rkeys,
            how=how,
            sort=sort,
            names=_key_names(lnames, rnames, len(lkeys)),
            nat_last=left_index and right_index,  # MultiIndexes: by level codes, NaT last
        )
        index = _result_index(left, right, lpos, rpos, how, left_index, right_index)
    if anti is not None:  # pandas: the left / right join's rows without a match, before the columns
        from ember.backend import array_module

        keep = array_module(lpos, rpos).flatnonzero((rpos if anti == "left_anti" else lpos) < 0)
        n_rows = len(lpos)
        lpos, rpos = lpos[keep], rpos[keep]
        full = index if index is not None else RangeIndex(n_rows)  # pandas filters the join's labels
        index = full.take(keep)
    shared = [k for k in lnames if on is not None]
    out = _assemble(
        left,
        right,
        lpos,
        rpos,
        shared,
        lkeys if on is not None else [],
        suffixes,
        indicator,
        index,
        rkeys=right_keys_as_given if on is not None else [],
        how=how,
    )
    if left_index != right_index:  # a column key against an index key
        _check_empty_time_keys(lkeys, rkeys, len(lpos))
        _fill_keys(out, left, right, lnames if right_index else rnames, lkeys, rkeys, lpos, rpos)
    elif on is None and not left_index and bool((lpos < 0).any()):
        _fill_unnamed_keys(out, lnames, rnames, lkeys, right_keys_as_given, lpos, rpos)
    return out


def _check_multi_join(li: Index, ri: Index) -> None:
    """pandas joins a MultiIndex level by level where both sides name their levels alike; otherwise
    on the levels both name (refused here), and raises where they share no name."""
    from ember.frame._fallback import unsupported

    if list(li.names) == list(ri.names) and li.nlevels == ri.nlevels:
        return
    if not {n for n in li.names if n is not None} & {n for n in ri.names if n is not None}:
        raise ValueError("cannot join with no overlapping index names")
    raise unsupported("join", "MultiIndexes with other level names (pandas joins on the shared levels)")


def _key_names(lnames: list, rnames: list, n: int) -> list | None:
    """The names pandas' key dtype errors give each key pair: the left key's, or the right one's
    where the left side joins on its index."""
    if not lnames and not rnames:
        return None
    lnames, rnames = lnames or [None] * n, rnames or [None] * n
    return [ln if ln is not None else rn for ln, rn in zip(lnames, rnames)]


def _fill_keys(
    out: Any, left: Any, right: Any, names: list, lkeys: list, rkeys: list, lpos: Any, rpos: Any
) -> None:
    """pandas' key columns of a merge of a column key with an index key (``_maybe_add_join_keys``):
    a key name the result lacks (a suffix renamed it) gets the key values of both sides at the front;
    a result column of that name (the key column itself, or the other side's column of that name
    when a suffix renamed the key) is left as it is unless a side has rows without a match: those
    rows take the other side's key."""
    from ember.backend import array_module
    from ember.frame.alignment import coalesce_take

    for i, name in enumerate(names):
        lkey, rkey = _comparable_keys(lkeys[i], rkeys[i])
        if name not in out._columns:
            out.insert(i, name, _both_keys(lkeys[i], lpos, rkeys[i], rpos, lkey, rkey))
            continue
        side, other_key, other_pos, pos, other_raw = (
            (left, rkey, rpos, lpos, rkeys[i])
            if name in left._columns
            else (right, lkey, lpos, rpos, lkeys[i])
        )
        xp = array_module(pos)
        absent_some, absent_all = (bool(v) for v in xp.stack([(pos < 0).any(), (pos < 0).all()]).tolist())
        if not absent_some:
            continue
        if absent_all:  # pandas takes the other side's keys as they are (their dtype too)
            out._columns[name] = other_raw.take(other_pos)
            continue
        current = out._columns[name]
        if current.dtype == side._columns[name].dtype:
            present = xp.where(pos < 0, -1, xp.arange(len(pos), dtype=np.int64))
        else:  # pandas takes the side's own column then
            current, present = side._columns[name], pos
        out._columns[name] = coalesce_take(current, present, other_key, other_pos)


def _check_empty_time_keys(lkeys: list, rkeys: list, n_rows: int) -> None:
    """A column key against an index key of datetimes of another dtype, and no row: pandas' key
    column takes one side's dtype or the other's by unit and zone (``_maybe_add_join_keys`` on an
    empty indexer); refused."""
    from ember.column import DatetimeColumn
    from ember.frame._fallback import unsupported

    if n_rows:
        return
    for lk, rk in zip(lkeys, rkeys):
        both = isinstance(lk, DatetimeColumn) and isinstance(rk, DatetimeColumn)
        if both and str(lk.dtype) != str(rk.dtype):
            raise unsupported("merge", f"no row joined on keys of {lk.dtype} and {rk.dtype}")


def _both_keys(lraw: Column, lpos: Any, rraw: Column, rpos: Any, lkey: Column, rkey: Column) -> Column:
    """The key values of both sides on the result's rows: one side's own where it has every row
    (its dtype kept, as pandas' ``Index.where`` with nothing to replace), else both in their common
    type. One sync."""
    from ember.backend import array_module
    from ember.frame.alignment import coalesce_take

    xp = array_module(lpos)
    left_absent, right_absent = (bool(v) for v in xp.stack([(lpos < 0).any(), (rpos < 0).any()]).tolist())
    if not left_absent:
        return lraw.take(lpos)
    if not right_absent and bool((lpos < 0).all()):
        return rraw.take(rpos)
    return coalesce_take(lkey, lpos, rkey, rpos)


def _fill_unnamed_keys(
    out: Any, lnames: list, rnames: list, lkeys: list, rkeys: list, lpos: Any, rpos: Any
) -> None:
    """pandas' ``_should_fill``: left_on / right_on keys of which one is no string name (0, 2.5 ...)
    fill the left key column's rows without a left match from the right key."""
    from ember.frame._fallback import unsupported
    from ember.frame.alignment import coalesce_take

    no_left_row = bool((lpos < 0).all())
    for i, (ln, rn) in enumerate(zip(lnames, rnames)):
        if (isinstance(ln, str) and isinstance(rn, str)) or ln == rn:
            continue
        if ln not in out._columns:
            raise unsupported("merge", f"left_on key {ln!r} whose label a suffix changed (pandas adds one)")
        if no_left_row:  # pandas takes the right key as it is, its dtype too
            out._columns[ln] = rkeys[i].take(rpos)
            continue
        lkey, rkey = _comparable_keys(lkeys[i], rkeys[i])
        out._columns[ln] = coalesce_take(lkey, lpos, rkey, rpos)


def _result_index(
    left: Any, right: Any, lpos: Any, rpos: Any, how: str, left_index: bool, right_index: bool
) -> Index | None:
    """pandas keeps an index only when joining on indexes; else the result has a fresh RangeIndex."""
    if left_index and right_index:
        if how == "right":
            return right.index.take(rpos)
        if how == "outer":
            return (
                left.index.take(lpos) if not bool((lpos < 0).any()) else _coalesced(left, right, lpos, rpos)
            )
        return left.index.take(lpos)
    # the other side's labels, missing where it has no row; pandas takes the index side's own labels
    # when the other side has no row at all (a left / right join keeps the other side's)
    if right_index and not left_index:
        if len(left) == 0 and how != "left":
            return right.index.take(rpos)
        return _take_index(left.index, lpos)
    if left_index and not right_index:
        if len(right) == 0 and how != "right":
            return left.index.take(lpos)
        return _take_index(right.index, rpos)
    return None


def _take_index(index: Index, positions: Any) -> Index:
    if not bool((positions < 0).any()):
        return index.take(positions)
    if isinstance(index, MultiIndex) and index._levels is None:
        # pandas' take keeps the levels: those of labels no row holds any more (all of them where
        # every row is missing) keep their dtype. Host-side level metadata.
        levels = list(index.to_pandas().levels)
        cols = [c.take_nullable(positions) for c in index.levels_columns]
        return MultiIndex(cols, index.names, levels)
    return index.take_nullable(positions)


def _coalesced(left: Any, right: Any, lpos: Any, rpos: Any) -> Index:
    from ember.frame.alignment import coalesce_take

    if isinstance(left.index, MultiIndex):
        pairs = zip(left.index.levels_columns, right.index.levels_columns)
        return MultiIndex([coalesce_take(lc, lpos, rc, rpos) for lc, rc in pairs], left.index.names)
    return Index._from_column(
        coalesce_take(left.index.column, lpos, right.index.column, rpos), left.index.name
    )


def _assemble(
    left: Any,
    right: Any,
    lpos: Any,
    rpos: Any,
    shared: list,
    lkeys: list,
    suffixes: tuple,
    indicator: bool,
    index: Index | None,
    rkeys: list | None = None,
    how: str = "",
) -> Any:
    from ember.frame.alignment import coalesce_take
    from ember.frame.dataframe import DataFrame

    facts = _position_facts(lpos, rpos, len(left), len(right))
    lmissing_possible, rmissing_possible, left_as_is, no_left_row, no_right_row, right_as_is = facts
    take_l = (lambda c: _take_nullable(c, lpos)) if lmissing_possible else (lambda c: c.take(lpos))
    if left_as_is:
        take_l = lambda c: c  # noqa: E731 - every left row once, in order (a left join on unique right keys): columns shared
    take_r = (lambda c: _take_nullable(c, rpos)) if rmissing_possible else (lambda c: c.take(rpos))
    overlap = (set(left._names) & set(right._names)) - set(shared)
    rnames = [k for k in right._names if k not in shared]
    llabels, rlabels = _result_labels(left._names, rnames, overlap, suffixes)
    indicator_name = _indicator_name(indicator, left, right)
    labels = llabels + rlabels + ([indicator_name] if indicator_name is not None else [])
    unique_labels(labels, "merge")  # what pandas' checks let through (e.g. equal suffixes) is refused
    cols: dict = {}
    for k, label in zip(left._names, llabels):
        if k in shared:
            lcol, rcol = left._columns[k], right._columns[k]
            empty_times = len(lpos) == 0 and _times_differ(lcol, rcol)
            if no_left_row or (empty_times and not (how == "outer" and len(left) == len(right) == 0)):
                # pandas: then the right key as given, its dtype kept
                cols[k] = take_r(rkeys[shared.index(k)] if rkeys else rcol)
            elif (
                len(lpos)
                and not no_right_row
                and not (left_as_is and right_as_is)
                and _finer_times(lcol, rcol)
            ):
                # pandas: not where both sides' rows come out as they are (no indexer to fill with)
                lkey, rkey = _finer_times(lcol, rcol)
                cols[k] = coalesce_take(lkey, lpos, rkey, rpos)
            elif lmissing_possible:  # right/outer rows without a left match take the right key value
                # (pandas: the right key as given, before _maybe_coerce_merge_keys)
                rraw = rkeys[shared.index(k)] if rkeys else rcol
                lkey, rkey = _common_strings(*_comparable_keys(lcol, rraw))
                _check_one_missing_value(lkey, rkey)
                _check_one_kind(k, lkey, rkey)
                _check_zones_fill(k, lkey, rkey)
                cols[k] = coalesce_take(lkey, lpos, rkey, rpos)
            elif _is_categorical(lcol) and _key_as_values(lcol, rcol):  # decode the rows taken, not the side
                cols[k] = take_l(lcol).decode()
            else:
                cols[k] = take_l(lcol)
        else:
            cols[label] = take_l(left._columns[k])
    for k, label in zip(rnames, rlabels):
        cols[label] = take_r(right._columns[k])
    if indicator_name is not None:
        cols[indicator_name] = _indicator(lpos, rpos)
    n = len(lpos)
    return DataFrame._from_columns(cols, index if index is not None else RangeIndex(n))


def _common_strings(lkey: Column, rkey: Column) -> tuple[Column, Column]:
    """String keys of two dtypes filled from each other: pandas' common dtype ('string' beside str)."""
    from pandas.core.dtypes.cast import find_common_type

    from ember.column import StringColumn
    from ember.ops.unary import astype

    if not (isinstance(lkey, StringColumn) and isinstance(rkey, StringColumn)) or lkey.dtype == rkey.dtype:
        return lkey, rkey
    common = find_common_type([lkey.dtype, rkey.dtype])
    return astype(lkey, common), astype(rkey, common)


def _times_differ(lcol: Column, rcol: Column) -> bool:
    from ember.column import DatetimeColumn

    both = isinstance(lcol, DatetimeColumn) and isinstance(rcol, DatetimeColumn)
    return both and str(lcol.dtype) != str(rcol.dtype)


def _finer_times(lcol: Column, rcol: Column) -> tuple[Column, Column] | None:
    """A shared key of datetimes in two units, of one time zone or none: pandas gives the finer
    unit's values (its common dtype)."""
    from ember.column import DatetimeColumn
    from ember.ops.unary import astype

    if not (isinstance(lcol, DatetimeColumn) and isinstance(rcol, DatetimeColumn)):
        return None
    if str(lcol.tz) != str(rcol.tz) or lcol.unit == rcol.unit:
        return None
    common = np.result_type(lcol.numpy_dtype, rcol.numpy_dtype)
    if lcol.tz is not None:
        common = pd.DatetimeTZDtype(unit=np.datetime_data(common)[0], tz=lcol.tz)
    return astype(lcol, common), astype(rcol, common)


def _check_zones_fill(name: Any, lcol: Column, rcol: Column) -> None:
    """Keys of two time zones where the right's finer unit fills rows of the left's coarser one:
    pandas' ``Index.where`` keeps the left dtype where the values fit it and gives objects where
    they do not (value by value); refused."""
    from ember.column import DatetimeColumn
    from ember.frame._fallback import unsupported

    if not (isinstance(lcol, DatetimeColumn) and isinstance(rcol, DatetimeColumn)):
        return
    if lcol.tz is None or rcol.tz is None or str(lcol.tz) == str(rcol.tz):
        return
    if np.datetime_data(np.result_type(lcol.numpy_dtype, rcol.numpy_dtype))[0] != lcol.unit:
        raise unsupported(
            "merge",
            f"key {name!r} of {lcol.dtype} filled from {rcol.dtype} (pandas gives objects where the "
            "finer values do not fit the left unit)",
        )


def _check_one_missing_value(lkey: Column, rkey: Column) -> None:
    """Object string keys whose missing values differ (None beside NA or NaN) filled from each other:
    pandas keeps both, ember's column holds one; refused."""
    from ember.column import StringColumn
    from ember.frame._fallback import unsupported

    def marker(col: Column) -> Any:  # None, pd.NA or NaN (one object for every NaN)
        return np.nan if isinstance(col.na, float) and np.isnan(col.na) else col.na

    both = all(isinstance(c, StringColumn) and c.dtype == object and c.mask is not None for c in (lkey, rkey))
    if both and marker(lkey) is not marker(rkey):
        raise unsupported(
            "merge", f"object keys missing as {lkey.na!r} on one side and {rkey.na!r} on the other"
        )


def _check_one_kind(name: Any, lkey: Column, rkey: Column) -> None:
    """Keys of two kinds (bools beside strings, as pandas coerces a categorical of each) filled from
    each other: pandas' result is an object column holding both, which ember's columns cannot."""
    from ember.column import StringColumn
    from ember.frame._fallback import unsupported

    if isinstance(lkey, StringColumn) != isinstance(rkey, StringColumn):
        raise unsupported(
            "merge",
            f"key {name!r} of dtypes {lkey.dtype} and {rkey.dtype} filled from each other (pandas' "
            "result holds both kinds as Python objects)",
        )


def _take_nullable(col: Column, pos: Any) -> Column:
    """Rows at ``pos``, missing at -1; an object column of strings holding None or NA of its own
    among the rows taken is refused (pandas keeps them beside the NaN it brings in; ember's column
    has one missing value). Synchronizes once for such a column."""
    from ember.column import StringColumn
    from ember.frame._fallback import unsupported

    own_na = isinstance(col, StringColumn) and col.dtype == object and col.mask is not None and len(col)
    if own_na and not (isinstance(col.na, float) and np.isnan(col.na)):
        if bool((~col.mask[col.xp.maximum(pos, 0)] & (pos >= 0)).any()):
            raise unsupported("merge", f"an object column holding {col.na!r} beside rows without a match")
    return col.take_nullable(pos)


def _result_labels(lnames: list, rnames: list, overlap: set, suffixes: Any) -> tuple[list, list]:
    """The result's labels of the left columns and of the right ones (shared keys left out), the
    overlapping ones suffixed; pandas' MergeError where a suffix makes a label twice."""
    from collections import Counter

    from pandas.errors import MergeError

    if isinstance(suffixes, (set, dict)) or not pd.api.types.is_list_like(suffixes):
        raise TypeError(
            f"Passing 'suffixes' as a {type(suffixes)}, is not supported. Provide 'suffixes' as a tuple instead."
        )
    lsuf, rsuf = suffixes
    if overlap and not lsuf and not rsuf:
        raise ValueError(f"columns overlap but no suffix specified: {sorted(overlap, key=str)}")

    def renamed(names: list, suffix: Any) -> list:
        if suffix is None:
            return list(names)
        if overlap and all(isinstance(k, tuple) for k in overlap):
            # MultiIndex columns: pandas maps every part of every label, suffixing a part that is
            # the first part of an overlapping label (``part in MultiIndex`` looks in level 0)
            firsts = {k[0] for k in overlap}
            return [tuple(f"{x}{suffix}" if x in firsts else x for x in k) for k in names]
        return [f"{k}{suffix}" if k in overlap else k for k in names]

    llabels, rlabels = renamed(lnames, lsuf), renamed(rnames, rsuf)
    dups = [k for labels in (llabels, rlabels) for k, n in Counter(labels).items() if n > 1]
    dups += [k for k in llabels if k in set(rnames) - overlap]  # onto a right column kept as it is
    dups += [k for k in rlabels if k in set(lnames) - overlap]
    if dups:
        raise MergeError(f"Passing 'suffixes' which cause duplicate columns {set(dups)} is not allowed.")
    return llabels, rlabels


def _indicator_name(indicator: Any, left: Any, right: Any) -> Any:
    """The indicator column's label (None: no indicator), as pandas checks it."""
    if isinstance(indicator, str):
        name = indicator
    elif isinstance(indicator, bool):
        name = "_merge" if indicator else None
    else:
        raise ValueError("indicator option can only accept boolean or string arguments")
    if name is not None and (name in left._columns or name in right._columns):
        raise ValueError("Cannot use name of an existing column for indicator column")
    return name


def _comparable_keys(left: Column, right: Column) -> tuple[Column, Column]:
    """A shared key's two columns as the result holds them (see ``_key_as_values``)."""
    if not _key_as_values(left, right):
        return left, right
    return (_decoded(left) if _is_categorical(left) else left), (
        _decoded(right) if _is_categorical(right) else right
    )


def _decoded(col: Any) -> Column:
    """A categorical's values as pandas takes them: NumPy integers or bools keep their dtype where
    no value is missing (``decode`` gives float64 / object)."""
    try:
        return _categorical_as_values(col)
    except NotImplementedError:
        return col.decode()


def _key_as_values(left: Column, right: Column) -> bool:
    """Whether a shared key with a categorical side comes out as the values' own dtype, as pandas:
    when the categories differ or one side is not categorical, unless exactly one side is empty
    (pandas keeps that merge categorical); categoricals of one dtype stay categorical."""
    lcat, rcat = _is_categorical(left), _is_categorical(right)
    if not (lcat or rcat) or (lcat and rcat and hash(left.dtype) == hash(right.dtype)):
        return False
    return (len(left) == 0) == (len(right) == 0)


def _is_categorical(col: Column) -> bool:
    from ember.column import CategoricalColumn

    return isinstance(col, CategoricalColumn)


def _position_facts(lpos: Any, rpos: Any, n_left: int, n_right: int = -1) -> tuple[bool, ...]:
    """(a left position is missing, a right one is, the left positions are 0, 1, ..., n_left - 1,
    every left position is missing, every right one is, the right positions are 0, ..., n_right - 1),
    read from the device together: one sync."""
    from ember.backend import array_module, to_host

    xp = array_module(lpos)
    false = xp.zeros((), dtype=bool)
    facts = [
        (lpos < 0).any() if len(lpos) else false,
        (rpos < 0).any() if len(rpos) else false,
        (lpos == xp.arange(n_left, dtype=lpos.dtype)).all() if len(lpos) == n_left > 0 else false,
        (lpos < 0).all() if len(lpos) else false,
        (rpos < 0).all() if len(rpos) else false,
        (rpos == xp.arange(n_right, dtype=rpos.dtype)).all() if len(rpos) == n_right > 0 else false,
    ]
    return tuple(bool(v) for v in to_host(xp.stack(facts)))


def _indicator(lpos: Any, rpos: Any) -> Column:
    import pandas as pd

    from ember.column import CategoricalColumn, from_pandas

    xp = NumericColumn(lpos).xp
    codes = xp.where(lpos < 0, 1, xp.where(rpos < 0, 0, 2)).astype(np.int32)
    cats = from_pandas(pd.Series(["left_only", "right_only", "both"]), xp)
    return CategoricalColumn(codes, cats, False)


# --- key columns pandas makes object ------------------------------------------------------------------


def _coerce_keys(left: Any, right: Any, names: list, lkeys: list, rkeys: list) -> tuple:
    """pandas' ``_maybe_coerce_merge_keys``: key pairs of dtypes that merge only as Python objects
    (bool beside numbers, 'string' beside str, a categorical beside other values or categories,
    timedeltas of two units ...) turn the column of each side named like the key (``names``) into
    object (a categorical into its categories' dtype) before matching (the keys match as before);
    ember holds such columns for strings and bools only."""
    for i, (lk, rk) in enumerate(zip(lkeys, rkeys)):
        name = names[i] if i < len(names) else None
        if not _pandas_coerces(lk, rk):
            continue
        if name in left._columns:  # pandas: each side's column of the key's name, key or not
            left = left._with_columns(
                {**left._columns, name: _as_object_key(left._columns[name], lk, lk, rk)}
            )
        if name in right._columns:
            right = right._with_columns(
                {**right._columns, name: _as_object_key(right._columns[name], rk, lk, rk)}
            )
    return left, right, lkeys, rkeys


def _pandas_coerces(lk: Column, rk: Column) -> bool:
    """Whether pandas turns this key pair into object keys (pairs pandas refuses are left to the
    key encoding's ValueError)."""
    from ember.column import CategoricalColumn, DatetimeColumn, StringColumn, TimedeltaColumn

    if (len(lk) == 0) != (len(rk) == 0):
        return False
    lcat, rcat = isinstance(lk, CategoricalColumn), isinstance(rk, CategoricalColumn)
    if lcat and rcat:
        # pandas' _categories_match_up_to_permutation: equal dtype hashes ('string' and str, int32
        # and int64 categories of the same values match; 1 and 1.0 do not)
        return hash(lk.dtype) != hash(rk.dtype)
    if lcat or rcat:
        return True
    ldt, rdt = lk.dtype, rk.dtype
    if ldt == rdt:
        return False
    lnum, rnum = isinstance(lk, NumericColumn), isinstance(rk, NumericColumn)
    if lnum and rnum:  # bool beside other numbers: 'boolean' vs 'integer' (pandas' inferred types)
        kinds = {lk.data.dtype.kind, rk.data.dtype.kind}
        if ldt == object and rdt == object:
            return False
        return not (ldt != object and rdt != object and (len(kinds) == 1 or kinds <= {"i", "u", "f"}))
    lstr, rstr = isinstance(lk, StringColumn), isinstance(rk, StringColumn)
    if (lstr and rnum) or (lnum and rstr):
        return False  # bools beside strings: object (pandas); other numbers: ValueError
    temporal = (DatetimeColumn, TimedeltaColumn)
    if isinstance(lk, temporal) or isinstance(rk, temporal):
        return isinstance(lk, TimedeltaColumn) and isinstance(rk, TimedeltaColumn)
    return not (ldt == object and rdt == object)


def _categorical_as_values(col: Any) -> Column:
    """pandas' ``astype(categories.dtype)`` of a categorical key: NumPy integers or bools stay of
    their dtype (pandas raises where a value is missing: refused here), other values as decoded."""
    from ember.backend import to_host
    from ember.frame._fallback import unsupported

    cats = col.categories
    if not (isinstance(cats, NumericColumn) and not cats.nullable and cats.data.dtype.kind in "iub"):
        return col.decode()
    codes = col.data.astype(np.int64)
    if bool(to_host((codes < 0).any())):
        raise unsupported(
            "merge",
            f"a categorical key of {cats.dtype} values with missing values beside keys of another dtype",
        )
    return cats.take(codes)


def _as_object_key(col: Column, key: Column, lk: Column, rk: Column) -> Column:
    """A side's column named like the key as pandas coerces it: to the categories' dtype where that
    side's key (``key``) is categorical, else to object (a categorical column decoded first):
    strings and bools as object; other values are refused (ember holds no object column of them)."""
    from ember.column import CategoricalColumn, StringColumn
    from ember.frame._fallback import unsupported

    if isinstance(key, CategoricalColumn):
        if col is key or (isinstance(col, CategoricalColumn) and str(col.dtype) == str(key.dtype)):
            return _categorical_as_values(col)
        raise unsupported("merge", f"a column of {col.dtype} named like a categorical key of another side")
    if isinstance(col, CategoricalColumn):
        col = col.decode()
    if isinstance(col, StringColumn):  # 'string' data keeps its NA as object
        na = pd.NA if getattr(col.dtype, "na_value", None) is pd.NA else col.na
        return StringColumn(col.data, col.chars, col.mask, np.dtype(object), na)
    if isinstance(col, NumericColumn) and col.is_bool and not col.nullable:
        xp = col.xp
        mask = col.mask if col.mask is not None else xp.ones(len(col), dtype=bool)
        return NumericColumn(col.data, mask, na=col.na)
    raise unsupported(
        "merge", f"keys of dtypes {lk.dtype} and {rk.dtype} (pandas merges them as Python objects)"
    )

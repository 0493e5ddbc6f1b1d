"""Public constructors: from_pandas, from_arrow, from_dlpack, concat."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import xp as current_xp
from ember.column import concat_columns, from_any, from_scalar
from ember.frame._fallback import unsupported
from ember.frame.construction import from_pandas_any
from ember.frame.dataframe import DataFrame
from ember.frame.index import Index, MultiIndex, RangeIndex
from ember.frame.series import Series

NO_SORT = object()  # concat's sort not given: pandas then sorts DatetimeIndexes it unites


def from_pandas(obj: pd.DataFrame | pd.Series | pd.Index) -> Any:
    """An ember DataFrame / Series / Index with the data of a pandas object (copied to the device)."""
    return from_pandas_any(obj)


def from_arrow(obj: Any) -> Any:
    """A DataFrame from a pyarrow Table / RecordBatch, or a Series from an Array / ChunkedArray."""
    import pyarrow as pa

    from ember.column import from_arrow as column_from_arrow

    if isinstance(obj, (pa.Table, pa.RecordBatch)):
        return DataFrame(obj)
    if isinstance(obj, (pa.Array, pa.ChunkedArray)):
        return Series._from_column(column_from_arrow(obj, current_xp()))
    if hasattr(obj, "__arrow_c_stream__"):
        return DataFrame(pa.table(obj))
    raise TypeError(f"from_arrow expects a pyarrow Table, RecordBatch or Array, got {type(obj).__name__}")


def from_dlpack(obj: Any) -> Series:
    """A Series sharing memory with a DLPack producer (CuPy, PyTorch, JAX ... arrays)."""
    from ember.interop import from_dlpack as column_from_dlpack

    return Series._from_column(column_from_dlpack(obj, current_xp()))


def concat(
    objs: Any,
    axis: Any = 0,
    join: str = "outer",
    ignore_index: bool = False,
    keys: Any = None,
    levels: Any = None,
    names: Any = None,
    verify_integrity: bool = False,
    sort: Any = NO_SORT,
    copy: Any = None,
) -> Any:
    """Concatenate Series or DataFrames along rows (axis=0) or columns (axis=1), as pandas.concat.

    The labels of the other axis are pandas' own: the column labels (their order with ``join`` and
    ``sort``, their axis name, the numbering of unnamed Series and ``ignore_index``) come from
    pandas.concat of the parts' empty skeletons on the host; frames with neither rows nor columns
    are dropped first, as pandas drops them."""
    if join not in ("inner", "outer"):
        raise ValueError("Only can inner (intersect) or outer (union) join the other axis")
    if levels is not None:
        raise unsupported("concat", "levels=")
    sort_given, sort = sort is not NO_SORT, (False if sort is NO_SORT else sort)
    if names is not None or verify_integrity:
        if verify_integrity and axis in (1, "columns") and keys is None and not ignore_index:
            _check_unique_columns(objs)  # before the concat refuses the repeated labels
        out = concat(objs, axis, join, ignore_index, keys, None, None, False, sort if sort_given else NO_SORT)
        return _named_and_verified(out, axis, keys, names, verify_integrity)
    if isinstance(objs, dict):
        keys = list(objs) if keys is None else list(keys)
        objs = [objs[k] for k in keys]
    if isinstance(objs, (Series, DataFrame, pd.Series, pd.DataFrame, str)):
        raise TypeError(
            "first argument must be an iterable of pandas objects, you passed an object of type "
            f'"{type(objs).__name__}"'
        )
    objs = list(objs)
    if keys is not None and len(list(keys)) != len(objs):
        raise ValueError(f"concat: got {len(list(keys))} keys for {len(objs)} objects")
    pairs = [(k, o) for k, o in zip(keys if keys is not None else [None] * len(objs), objs) if o is not None]
    if not pairs:
        raise ValueError("No objects to concatenate")
    for _, o in pairs:
        if not isinstance(o, (Series, DataFrame)):
            raise TypeError(
                f"cannot concatenate object of type '{type(o)}'; only Series and DataFrame objs are valid"
            )
    objs = [o for _, o in pairs]
    if keys is not None:
        return _concat_with_keys(objs, [k for k, _ in pairs], axis, join, sort)
    if join == "outer" and all(isinstance(o, DataFrame) for o in objs):
        non_empty = [o for o in objs if len(o) or len(o._names)]
        objs = non_empty or objs
    if axis in (1, "columns"):
        return _concat_columns(objs, join, ignore_index, sort, sort_given)
    if axis not in (0, "index"):
        raise ValueError(f"No axis named {axis} for object type DataFrame")
    if all(isinstance(o, Series) for o in objs):
        col = _concat_like_pandas([o.column for o in objs])
        index = RangeIndex(len(col)) if ignore_index else _concat_index([o.index for o in objs])
        names = {o.name for o in objs}
        return Series._from_column(col, index, names.pop() if len(names) == 1 else None)
    frames = [o.to_frame() if isinstance(o, Series) else o for o in objs]
    skeletons = [pd.DataFrame(index=range(min(len(f), 1)), columns=f.columns) for f in frames]  # rows kept
    labels = _pandas_labels(skeletons, join=join, sort=sort)
    cols = {}
    for k in labels:
        present = [f._columns[k] for f in frames if k in f._columns]
        if len(present) == len(frames):
            cols[k] = _concat_like_pandas(present, k, frames=True)
            continue
        target = _common_dtype([p.dtype for p in present], frames=True, missing=True)
        parts = [
            f._columns[k] if k in f._columns else _all_missing(present, target, k, len(f)) for f in frames
        ]
        cols[k] = _concat_like_pandas(parts, k, frames=True, target=target)
    n = sum(len(f) for f in frames)
    index = RangeIndex(n) if ignore_index else _concat_index([f.index for f in frames])
    return _with_labels(cols, labels, index, "concat")


def _check_unique_columns(objs: Any) -> None:
    """pandas' ValueError of concat(axis=1, verify_integrity=True) for labels two parts share."""
    seen: set = set()
    for o in objs if not isinstance(objs, dict) else objs.values():
        if o is None:
            continue
        name = getattr(o, "name", None)  # unnamed Series are numbered apart
        labels = list(o._names) if isinstance(o, DataFrame) else ([] if name is None else [name])
        for k in labels:
            if k in seen:
                raise ValueError(f"Indexes have overlapping values: {[k]}")
            seen.add(k)


def _named_and_verified(out: Any, axis: Any, keys: Any, names: Any, verify: bool) -> Any:
    """concat's ``names`` (the levels of the keys' MultiIndex, the parts' own names after them) and
    ``verify_integrity`` (pandas' ValueError where the concatenated axis repeats a label)."""
    columns = axis in (1, "columns")
    if keys is not None and names is not None:
        current = list(out.columns.names if columns else out.index.names)
        given = list(names)
        if len(given) > len(current):
            raise ValueError("Length of names must match number of levels in MultiIndex.")
        new = given + current[len(given) :]
        out = out.rename_axis(new, axis=1) if columns else out.rename_axis(new)
    if verify:
        labels = out.columns if columns and isinstance(out, DataFrame) else out.index
        if not labels.is_unique:
            repeated = labels[labels.duplicated()] if hasattr(labels, "duplicated") else labels
            raise ValueError(f"Indexes have overlapping values: {repeated}")
    return out


def _pandas_labels(skeletons: list, **kw: Any) -> pd.Index:
    """The column labels pandas.concat gives for the parts (their empty skeletons, on the host)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pd.concat(skeletons, **kw).columns


def _with_labels(cols: dict, labels: pd.Index, index: Index, method: str) -> DataFrame:
    """A frame of ``cols`` under pandas' column ``labels`` (their axis names and type kept)."""
    from ember.frame.dataframe import _axis_names_of
    from ember.frame.frame_labels import axis_kind

    return DataFrame._from_columns(cols, index, _axis_names_of(labels), axis_kind(labels))


def _concat_like_pandas(parts: list, name: Any = None, frames: bool = False, target: Any = None) -> Any:
    """The parts' rows in one column of the dtype pandas' concat gives. Parts of different dtypes take
    pandas' common dtype (found on empty pandas Series, on the host): datetimes / timedeltas of several
    units take the finest (OutOfBounds errors where a value does not fit); a mix pandas keeps in an
    object column (tz-naive with tz-aware or two time zones, datetimes with numbers or timedeltas,
    numbers with bools, strings with numbers) is refused. ``frames``: the parts are columns of
    DataFrames, whose common dtype pandas finds a little differently (int64 with bool is int64);
    ``target``: that dtype, found by the caller."""
    from ember.ops.object_missing import concat_marker

    dtypes = [p.dtype for p in parts]
    if len({str(d) for d in dtypes}) > 1:
        from ember.column import StringColumn

        if target is None:
            target = _common_dtype(dtypes, frames)
        if target == np.dtype(object) and not all(isinstance(p, StringColumn) for p in parts):
            where = "" if name is None else f" (column {name!r})"
            raise unsupported(
                "concat",
                f"of {', '.join(sorted({str(d) for d in dtypes}))}{where}: pandas keeps such a mix in an "
                "object column, which ember does not have; convert the parts to one dtype first",
            )
        if getattr(target, "kind", None) in ("M", "m") or _is_number_dtype(target):
            from ember.ops.unary import astype  # NaN becomes NA in a nullable target, as pandas

            parts = [p if str(p.dtype) == str(target) else astype(p, target) for p in parts]
        elif target == np.dtype(object):  # strings of str / object dtypes: pandas' object strings
            out = concat_columns(parts)
            return concat_marker(parts, StringColumn(out.data, out.chars, out.mask, np.dtype(object)))
        elif isinstance(target, pd.StringDtype) and all(isinstance(p, StringColumn) for p in parts):
            out = concat_columns(parts)  # str with string: pandas' string dtype (NA)
            return StringColumn(out.data, out.chars, out.mask, target)
    return concat_marker(parts, concat_columns(parts))  # an object column keeps the parts' None / NaT


def _common_dtype(dtypes: list, frames: bool, missing: bool = False) -> Any:
    """pandas' dtype for the concat of parts of ``dtypes`` (of Series, or of a DataFrame column;
    ``missing``: some frame lacks the column, which pandas fills with NA), from pandas.concat of empty
    skeletons on the host."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        empties = [pd.Series([], dtype=d) for d in dtypes]
        if not frames:
            return pd.concat(empties).dtype
        skeletons = [e.to_frame("x") for e in empties]
        if missing:
            skeletons.append(pd.DataFrame({"y": pd.Series([], dtype=np.float64)}))
        return pd.concat(skeletons).dtypes["x"]


def _is_number_dtype(dtype: Any) -> bool:
    """A numeric or boolean NumPy dtype, or pandas' nullable one (Int64, Float64, boolean)."""
    if isinstance(dtype, np.dtype):
        return dtype.kind in "iufb"
    return (
        isinstance(dtype, pd.api.extensions.ExtensionDtype)
        and getattr(dtype, "_is_numeric", False)
        or (isinstance(dtype, pd.BooleanDtype))
    )


def _all_missing(present: list, target: Any, name: Any, n: int) -> Any:
    """All-missing rows of pandas' ``target`` dtype for a frame that lacks column ``name`` (the other
    parts' common dtype made able to hold NA: ints turn float64; bools object, which is refused)."""
    from ember.column import StringColumn
    from ember.ops.unary import astype

    if target == np.dtype(object) and all(isinstance(p, StringColumn) for p in present):
        return present[0].empty_like(n)  # strings: an object column of strings, NaN where missing
    if target == np.dtype(object):
        raise unsupported(
            "concat",
            f"of {', '.join(sorted({str(p.dtype) for p in present}))} (column {name!r}) with parts that "
            "lack it: pandas fills them in an object column, which ember does not have",
        )
    if isinstance(target, np.dtype) and target.kind == "f":
        return astype(from_scalar(np.nan, n, present[0].xp), target)
    same = [p for p in present if str(p.dtype) == str(target)]
    if same:
        return same[0].empty_like(n)
    return astype(present[0].empty_like(n), target)


def _concat_index(indexes: list[Index]) -> Index:
    if all(isinstance(i, RangeIndex) for i in indexes):
        total, contiguous = 0, True
        for i in indexes:
            if i.start != total or i.step != 1:
                contiguous = False
            total += len(i)
        if contiguous:
            names = {i.name for i in indexes}
            return RangeIndex(total, name=names.pop() if len(names) == 1 else None)
    if any(isinstance(i, MultiIndex) for i in indexes):
        if not all(isinstance(i, MultiIndex) and i.nlevels == indexes[0].nlevels for i in indexes):
            raise unsupported("concat", "a MultiIndex with other indexes (pandas makes an index of tuples)")
        out = indexes[0]
        for i in indexes[1:]:
            out = out.append(i)
        return out
    from ember.ops.object_missing import index_inferred

    col = index_inferred(_concat_like_pandas([i.column for i in indexes]))  # pandas' Index._with_infer
    names = {i.name for i in indexes}
    name = names.pop() if len(names) == 1 else None
    mixed = not all(isinstance(i, RangeIndex) for i in indexes)
    if mixed and isinstance(indexes[0], RangeIndex) and getattr(col.dtype, "kind", "") == "i":
        name = indexes[0].name  # pandas' RangeIndex.append keeps its own name for an int result
    return Index._from_column(col, name)


def _concat_columns(
    objs: list, join: str, ignore_index: bool = False, sort: bool = False, sort_given: bool = True
) -> DataFrame:
    from ember.frame.alignment import indexes_equal

    first = objs[0]
    index, take = first.index, [(lambda c: c)] * len(objs)
    dtypes = {str(o.index.dtype) for o in objs}  # pandas joins indexes of two dtypes unless numbers
    same_dtype = len(dtypes) == 1 or dtypes <= _NUMBER_NAMES
    if same_dtype and not isinstance(index, MultiIndex) and len({o.index.name for o in objs}) > 1:
        index = index.rename(None)  # equal indexes: pandas keeps a name they share
    if join == "outer" and len(dtypes) > 1 and same_dtype and _mixes_ranges(objs):
        index = _as_union_dtype(index, objs)
    if not (same_dtype and all(indexes_equal(o.index, first.index) for o in objs)):
        index, positions, complete = _joined_index([o.index for o in objs], join, _all_series(objs))
        sort = sort or (not sort_given and join == "outer" and _sorts_dates_by_default(objs))
        take = [
            (lambda c, p=p: c.take(p)) if whole else (lambda c, p=p: c.take_nullable(p))
            for p, whole in zip(positions, complete)
        ]
    if sort and len(index) > 1:  # pandas sorts the joined labels, equal indexes too
        if isinstance(index, MultiIndex):
            raise unsupported("concat", "sort=True with axis=1 on a MultiIndex")
        from ember.backend import array_module
        from ember.ops.factorize import factorize_keys
        from ember.ops.sort import argsort

        key = _index_column(index)
        order = argsort([key])
        xp = array_module(order)
        if not bool((order == xp.arange(len(index), dtype=order.dtype)).all()):  # one sync (sort=True)
            if factorize_keys([key], sort=False, dropna=False)[2] < len(index):
                if _all_series(objs):
                    raise ValueError("cannot reindex on an axis with duplicate labels")
                raise pd.errors.InvalidIndexError("Reindexing only valid with uniquely valued Index objects")
        index = index.take(order)
        take = [(lambda c, t=t: t(c).take(order)) for t in take]
    skeletons = [
        pd.Series([], name=o.name, dtype=object) if isinstance(o, Series) else pd.DataFrame(columns=o.columns)
        for o in objs
    ]
    labels = _pandas_labels(skeletons, axis=1, ignore_index=ignore_index)
    parts = []
    for o, rows in zip(objs, take):
        parts.extend([rows(o.column)] if isinstance(o, Series) else [rows(o._columns[k]) for k in o._names])
    from ember.frame.frame_labels import labelled

    return _with_labels(labelled(list(labels), parts, "concat(axis=1)"), labels, index, "concat")


def _mixes_ranges(objs: list) -> bool:
    """Some but not all indexes are RangeIndexes: pandas unites them by ``Index.union`` (their common
    dtype) rather than keeping the first of equal indexes."""
    ranges = [isinstance(o.index, RangeIndex) for o in objs]
    return any(ranges) and not all(ranges)


def _as_union_dtype(index: Index, objs: list) -> Index:
    """``index`` in the dtype pandas' ``Index.union`` of the objects' number indexes gives (found on
    one-label host skeletons); an object union (uint64 beside signed ints) is refused."""
    from functools import reduce

    sizes = [min(len(o.index), 1) for o in objs]  # an empty side: pandas' union returns the other
    skeletons = [
        pd.RangeIndex(n) if isinstance(o.index, RangeIndex) else pd.Index([0] * n, dtype=o.index.dtype)
        for o, n in zip(objs, sizes)
    ]
    dtype = reduce(lambda a, b: a.union(b, sort=False), skeletons).dtype
    if dtype == np.dtype(object):
        dtypes = ", ".join(sorted({str(o.index.dtype) for o in objs}))
        raise unsupported("concat", f"axis=1 on indexes of {dtypes} (pandas unites them in an object index)")
    return index if str(index.dtype) == str(dtype) else index.astype(dtype)


def _sorts_dates_by_default(objs: list) -> bool:
    """pandas unites DatetimeIndexes sorted when concat's ``sort`` is not given (deprecated)."""
    from ember.column import DatetimeColumn

    if not all(
        not isinstance(o.index, MultiIndex) and isinstance(o.index.column, DatetimeColumn) for o in objs
    ):
        return False
    warnings.warn(
        "Sorting by default when concatenating all DatetimeIndex is deprecated.  In the future, pandas "
        "will respect the default of `sort=False`. Specify `sort=True` or `sort=False` to silence this "
        "message. If you see this warnings when not directly calling concat, report a bug to pandas.",
        getattr(pd.errors, "Pandas4Warning", FutureWarning),
        stacklevel=4,
    )
    return True


_NUMBER_NAMES = {str(np.dtype(c)) for c in "bBhHiIlLqQefd"}


def _all_series(objs: list) -> bool:
    return all(isinstance(o, Series) for o in objs)


def _joined_index(indexes: list, join: str, series: bool = False) -> tuple[Index, list, list[bool]]:
    """concat(axis=1) of frames on different indexes, as pandas: the union of their labels in order
    of first appearance ('outer'), or the labels every index has, in the first one's order ('inner');
    for each index the position of each result label in it (-1: absent), and whether it has every
    result label (its columns keep their dtype). The labels are factorized together; one more sync
    checks that no index repeats a label (pandas' InvalidIndexError where such an index lacks some of
    the union's labels and must be reindexed; other repeats are refused)."""
    from ember.backend import array_module, to_host
    from ember.ops.factorize import factorize_keys

    if any(isinstance(i, MultiIndex) for i in indexes):
        raise unsupported("concat", "axis=1 with differing MultiIndexes")
    dtypes = [i.dtype for i in indexes]
    if len({str(d) for d in dtypes}) > 1 and not _joinable_index_dtypes(dtypes):
        raise unsupported(
            "concat",
            f"axis=1 on indexes of {', '.join(sorted({str(d) for d in dtypes}))} (pandas joins them in an "
            "object index)",
        )
    if join == "inner" and len({str(d) for d in dtypes}) > 1 and any(len(i) == 0 for i in indexes):
        raise unsupported("concat", "join='inner' of an empty index with indexes of other dtypes")
    cols = [_index_column(i) for i in indexes]
    codes, uniques, ngroups = factorize_keys([concat_columns(cols)], sort=False, dropna=False)
    xp = array_module(codes)
    positions, at = [], 0
    for col in cols:
        pos = xp.full(ngroups, -1, dtype=np.int64)
        pos[codes[at : at + len(col)]] = xp.arange(len(col), dtype=np.int64)
        positions.append(pos)
        at += len(col)
    found = [int(f) for f in to_host(xp.stack([(p >= 0).sum() for p in positions]))]
    repeats = [f != len(col) for f, col in zip(found, cols)]
    if join == "outer" and any(r and f != ngroups for r, f in zip(repeats, found)):
        # an index repeating a label lacks some of the union's: pandas must reindex it
        if series:
            raise ValueError("cannot reindex on an axis with duplicate labels")
        raise pd.errors.InvalidIndexError("Reindexing only valid with uniquely valued Index objects")
    if any(repeats):
        raise unsupported("concat", "axis=1 of objects on different indexes with repeated labels")
    names = {i.name for i in indexes}
    labels, complete = uniques[0], [f == ngroups for f in found]
    if join == "inner":
        keep = xp.flatnonzero(sum((p >= 0).astype(np.int64) for p in positions) == len(indexes))
        labels, positions, complete = labels.take(keep), [p[keep] for p in positions], [True] * len(cols)
    return Index._from_column(labels, names.pop() if len(names) == 1 else None), positions, complete


def _joinable_index_dtypes(dtypes: list) -> bool:
    """Indexes of these different dtypes join in a typed index: numbers (the common NumPy type; no
    uint64 with signed ints), or datetimes of one zone / timedeltas in several units."""
    kinds = {d.kind if isinstance(d, np.dtype) else getattr(d, "kind", "O") for d in dtypes}
    if kinds <= set("iuf"):
        return not ("u" in kinds and "i" in kinds and any(d == np.uint64 for d in dtypes))
    if kinds == {"M"} or kinds == {"m"}:
        return len({str(getattr(d, "tz", None)) for d in dtypes}) == 1
    return False


def _index_column(index: Index) -> Any:
    from ember.frame.series import _index_columns

    return _index_columns(index)[0]


def _concat_with_keys(objs: list, keys: list, axis: Any, join: str, sort: bool = False) -> Any:
    """Rows of each object labelled by its key: a (key, original label) MultiIndex, as pandas."""
    if axis not in (0, "index"):
        raise unsupported("concat", "keys= with axis=1")
    if len(keys) != len(objs):
        raise ValueError(f"concat: got {len(keys)} keys for {len(objs)} objects")
    if any(isinstance(o.index, MultiIndex) for o in objs):
        raise unsupported("concat", "keys= with MultiIndex inputs")
    out = concat(objs, axis=0, join=join, sort=sort)
    xp = current_xp()
    ends = xp.asarray(np.cumsum([len(o) for o in objs], dtype=np.int64))
    which = xp.searchsorted(ends, xp.arange(len(out), dtype=np.int64), side="right")
    key_col = from_any(keys, xp).take(which)
    index = MultiIndex([key_col, out.index.column], [None, out.index.name])
    if isinstance(out, Series):
        return Series._from_column(out.column, index, out.name)
    return DataFrame._from_columns(out._columns, index)

"""Public constructors: from_pandas, from_arrow, from_dlpack, concat."""

from __future__ import annotations

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
    objs: Any, axis: Any = 0, join: str = "outer", ignore_index: bool = False, keys: Any = None
) -> Any:
    """Concatenate Series or DataFrames along rows (axis=0) or columns (axis=1), as pandas.concat."""
    objs = [o for o in (objs.values() if isinstance(objs, dict) else objs) if o is not None]
    if not objs:
        raise ValueError("No objects to concatenate")
    if keys is not None:
        return _concat_with_keys(objs, list(keys), axis, join)
    if axis in (1, "columns"):
        return _concat_columns(objs, join)
    if all(isinstance(o, Series) for o in objs):
        col = _concat_like_pandas([o.column for o in objs])
        index = RangeIndex(len(col)) if ignore_index else _concat_index([o.index for o in objs])
        names = {o.name for o in objs}
        return Series._from_column(col, index, names.pop() if len(names) == 1 else None)
    frames = [o.to_frame() if isinstance(o, Series) else o for o in objs]
    names: list = []
    for f in frames:
        names.extend(k for k in f._names if k not in names)
    if join == "inner":
        names = [k for k in names if all(k in f._columns for f in frames)]
    elif join != "outer":
        raise ValueError("Only can inner (intersect) or outer (union) join the other axis")
    cols = {}
    for k in names:
        parts = [f._columns[k] if k in f._columns else _all_missing_like(frames, k, len(f)) for f in frames]
        cols[k] = _concat_like_pandas(parts, k, frames=True)
    n = sum(len(f) for f in frames)
    index = RangeIndex(n) if ignore_index else _concat_index([f.index for f in frames])
    return DataFrame._from_columns(cols, index)


def _concat_like_pandas(parts: list, name: Any = None, frames: bool = False) -> Any:
    """The parts' rows in one column of the dtype pandas' concat gives. Parts of different dtypes take
    pandas' common dtype (found on empty pandas Series, on the host): datetimes / timedeltas of several
    units take the finest (OutOfBounds errors where a value does not fit); a mix pandas keeps in an
    object column (tz-naive with tz-aware or two time zones, datetimes with numbers or timedeltas,
    numbers with bools, strings with numbers) is refused. ``frames``: the parts are columns of
    DataFrames, whose common dtype pandas finds a little differently (int64 with bool is int64)."""
    dtypes = [p.dtype for p in parts]
    if len({str(d) for d in dtypes}) > 1:
        import warnings

        from ember.column import StringColumn

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            empties = [pd.Series([], dtype=d) for d in dtypes]
            if frames:
                target = pd.concat([e.to_frame("x") for e in empties]).dtypes["x"]
            else:
                target = pd.concat(empties).dtype
        if target == np.dtype(object) and not all(isinstance(p, StringColumn) for p in parts):
            where = "" if name is None else f" (column {name!r})"
            raise unsupported(
                "concat",
                f"of {', '.join(sorted({str(d) for d in dtypes}))}{where}: pandas keeps such a mix in an "
                "object column, which ember does not have; convert the parts to one dtype first",
            )
        if getattr(target, "kind", None) in ("M", "m"):
            from ember.ops.unary import astype

            parts = [p if str(p.dtype) == str(target) else astype(p, target) for p in parts]
    return concat_columns(parts)


def _all_missing_like(frames: list[DataFrame], name: Any, n: int) -> Any:
    template = next(f._columns[name] for f in frames if name in f._columns)
    if template.dtype.kind in "iub" if isinstance(template.dtype, np.dtype) else False:
        return from_scalar(np.nan, n, template.xp)
    return template.empty_like(n)


def _concat_index(indexes: list[Index]) -> Index:
    if all(isinstance(i, RangeIndex) for i in indexes):
        total, contiguous = 0, True
        for i in indexes:
            if i.start != total or i.step != 1:
                contiguous = False
            total += len(i)
        if contiguous:
            return RangeIndex(total)
    if any(isinstance(i, MultiIndex) for i in indexes):
        out = indexes[0]
        for i in indexes[1:]:
            out = out.append(i)
        return out
    col = _concat_like_pandas([i.column for i in indexes])
    names = {i.name for i in indexes}
    return Index._from_column(col, names.pop() if len(names) == 1 else None)


def _concat_columns(objs: list, join: str) -> DataFrame:
    from ember.frame.alignment import indexes_equal

    first = objs[0]
    index, take = first.index, [(lambda c: c)] * len(objs)
    if not all(indexes_equal(o.index, first.index) for o in objs):
        index, positions, complete = _joined_index([o.index for o in objs], join)
        take = [
            (lambda c, p=p: c.take(p)) if whole else (lambda c, p=p: c.take_nullable(p))
            for p, whole in zip(positions, complete)
        ]
    from ember.frame.frame_labels import labelled

    labels, parts, unnamed = [], [], 0
    for o, rows in zip(objs, take):
        if isinstance(o, Series):  # pandas numbers the unnamed Series 0, 1, ... among themselves
            labels.append(o.name if o.name is not None else unnamed)
            unnamed += o.name is None
            parts.append(rows(o.column))
        else:
            labels.extend(o._names)
            parts.extend(rows(o._columns[k]) for k in o._names)
    return DataFrame._from_columns(labelled(labels, parts, "concat(axis=1)"), index)


def _joined_index(indexes: list, join: str) -> tuple[Index, list, list[bool]]:
    """concat(axis=1) of frames on different indexes, as pandas: the union of their labels in order
    of first appearance ('outer'), or the labels every index has, in the first one's order ('inner');
    for each index the position of each result label in it (-1: absent), and whether it has every
    result label (its columns keep their dtype). The labels are factorized together; one more sync
    checks that no index repeats a label (pandas' InvalidIndexError)."""
    from ember.backend import array_module, to_host
    from ember.ops.factorize import factorize_keys

    if any(isinstance(i, MultiIndex) for i in indexes):
        raise unsupported("concat", "axis=1 with differing MultiIndexes")
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
    if any(f != len(col) for f, col in zip(found, cols)):
        raise pd.errors.InvalidIndexError("Reindexing only valid with uniquely valued Index objects")
    names = {i.name for i in indexes}
    labels, complete = uniques[0], [f == ngroups for f in found]
    if join == "inner":
        keep = xp.flatnonzero(sum((p >= 0).astype(np.int64) for p in positions) == len(indexes))
        labels, positions, complete = labels.take(keep), [p[keep] for p in positions], [True] * len(cols)
    return Index._from_column(labels, names.pop() if len(names) == 1 else None), positions, complete


def _index_column(index: Index) -> Any:
    from ember.frame.series import _index_columns

    return _index_columns(index)[0]


def _concat_with_keys(objs: list, keys: list, axis: Any, join: str) -> Any:
    """Rows of each object labelled by its key: a (key, original label) MultiIndex, as pandas."""
    if axis not in (0, "index"):
        raise unsupported("concat", "keys= with axis=1")
    if len(keys) != len(objs):
        raise ValueError(f"concat: got {len(keys)} keys for {len(objs)} objects")
    if any(isinstance(o.index, MultiIndex) for o in objs):
        raise unsupported("concat", "keys= with MultiIndex inputs")
    out = concat(objs, axis=0, join=join)
    xp = current_xp()
    ends = xp.asarray(np.cumsum([len(o) for o in objs], dtype=np.int64))
    which = xp.searchsorted(ends, xp.arange(len(out), dtype=np.int64), side="right")
    key_col = from_any(keys, xp).take(which)
    index = MultiIndex([key_col, out.index.column], [None, out.index.name])
    if isinstance(out, Series):
        return Series._from_column(out.column, index, out.name)
    return DataFrame._from_columns(out._columns, index)

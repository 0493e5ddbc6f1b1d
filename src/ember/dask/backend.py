"""ember as a Dask DataFrame backend: the dispatch registrations Dask's engine needs and the
``dataframe.backends`` entry point (``dask.config.set({"dataframe.backend": "ember"})``).

Dask's graph logic (groupby trees, hash and broadcast merges, shuffles, sorting by quantiles) stays
Dask's; every partition is an ember DataFrame/Series/Index, and the functions below are the few places
where Dask asks its partition library to do something by name (hash rows, split by partition, concat,
build empty "meta" objects ...). Meta objects are empty and tiny: where Dask wants a non-empty sample we
build it with pandas' rules and convert, a host round trip on two rows. Data partitions never go
through pandas here.
"""

from __future__ import annotations

import contextlib
import pickle
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from dask._dispatch import get_collection_type
from dask.array.dispatch import percentile_lookup
from dask.dataframe import backends as pd_backends
from dask.dataframe.backends import DataFrameBackendEntrypoint, ShuffleGroupResult
from dask.dataframe.dispatch import (
    categorical_dtype_dispatch,
    concat_dispatch,
    from_pyarrow_table_dispatch,
    get_parallel_type,
    group_split_dispatch,
    grouper_dispatch,
    hash_object_dispatch,
    is_categorical_dtype_dispatch,
    make_meta_dispatch,
    make_meta_obj,
    meta_nonempty,
    partd_encode_dispatch,
    pyarrow_schema_dispatch,
    to_pandas_dispatch,
    to_pyarrow_table_dispatch,
    tolist_dispatch,
    union_categoricals_dispatch,
)
from dask.sizeof import sizeof
from dask.tokenize import normalize_token

import ember
from ember.column import from_arrow as column_from_arrow
from ember.dask._hashing import hash_columns
from ember.frame import DataFrame, Index, MultiIndex, RangeIndex, Series
from ember.frame.series import _index_columns
from ember.io.parquet import parquet_empty_frame

EMBER_TYPES = (DataFrame, Series, Index)
_INDEX_META_KEY = b"ember.dask.index"


# --- collection types ------------------------------------------------------------------------
class _FusedCompute:
    """``compute()`` of the optimized collection, blockwise steps fused. Dask's collections compute
    without fusing (its ``compute`` optimizes the expression only to the physical plan; ``persist``
    and ``optimize`` fuse): a read, a column selection and a groupby chunk then run as three tasks
    per partition instead of one, each a scheduler round trip (measured on the GPU host: ~3 ms per
    task, more than ember's own work on a partition)."""

    def compute(self, fuse: bool = True, **kwargs: Any) -> Any:
        from dask.base import DaskMethodsMixin

        if not kwargs.get("optimize_graph", True):  # the graph as it is, as the caller asked
            return DaskMethodsMixin.compute(self, **kwargs)
        return DaskMethodsMixin.compute(self.optimize(fuse=fuse), **kwargs)

    # Shuffles (hash merges, sort_values, set_index, split_out groupbys) of ember partitions default
    # to Dask's task shuffle: P2P moves every partition through host Arrow buffers and disk (a 1e8-row
    # merge of two device tables: 26-35 s against ~0.1 s alone on the H200). An explicit
    # shuffle_method or a "dataframe.shuffle.method" setting wins. Dask picks the method when it
    # lowers the expression: in optimize (compute and persist go through it) and in len().
    def optimize(self, fuse: bool = True) -> Any:
        with _task_shuffle_unless_set():
            return super().optimize(fuse=fuse)

    def __len__(self) -> int:
        with _task_shuffle_unless_set():
            return super().__len__()


@contextlib.contextmanager
def _task_shuffle_unless_set() -> Any:
    import dask

    if dask.config.get("dataframe.shuffle.method", None) is not None:
        yield
        return
    with dask.config.set({"dataframe.shuffle.method": "tasks"}):
        yield


def _collection_classes() -> dict:
    """Dask's DataFrame / Series / Index collection classes with ``_FusedCompute``, made once."""
    from dask.dataframe.dask_expr import _collection as dask_collections

    return {
        name: type(name, (_FusedCompute, getattr(dask_collections, name)), {"__module__": __name__})
        for name in ("DataFrame", "Series", "Index")
    }


_COLLECTIONS = _collection_classes()


@get_parallel_type.register(DataFrame)
@get_collection_type.register(DataFrame)
def _frame_collection(_: Any) -> type:
    return _COLLECTIONS["DataFrame"]


@get_parallel_type.register(Series)
@get_collection_type.register(Series)
def _series_collection(_: Any) -> type:
    return _COLLECTIONS["Series"]


@get_parallel_type.register(Index)
@get_collection_type.register(Index)
def _index_collection(_: Any) -> type:
    return _COLLECTIONS["Index"]


# --- meta ------------------------------------------------------------------------------------
def _from_pandas(obj: Any) -> Any:
    """pandas meta -> ember meta (metas are empty or two rows)."""
    if isinstance(obj, (pd.DataFrame, pd.Series, pd.Index)):
        return ember.from_pandas(obj)
    return obj


@make_meta_dispatch.register((DataFrame, Series))
def make_meta_frame(x: Any, index: Any = None) -> Any:
    return x.iloc[:0]


@make_meta_dispatch.register(Index)
def make_meta_index(x: Any, index: Any = None) -> Any:
    return x.slice(0, 0)


@make_meta_obj.register(EMBER_TYPES)
def make_meta_object(x: Any, index: Any = None) -> Any:
    """Meta from a dict/tuple/dtype description when the parent collection is ember-backed."""
    if hasattr(index, "to_pandas"):
        index = index.to_pandas()
    return _from_pandas(pd_backends.make_meta_object(x, index=index))


@meta_nonempty.register((DataFrame, Series, Index))
def meta_nonempty_ember(x: Any) -> Any:
    return _from_pandas(meta_nonempty(x.to_pandas()))


# --- concat / hash / split -------------------------------------------------------------------
@concat_dispatch.register(EMBER_TYPES)
def concat_ember(
    dfs: list,
    axis: int = 0,
    join: str = "outer",
    uniform: bool = False,
    filter_warning: bool = True,
    ignore_index: bool = False,
    **kwargs: Any,
) -> Any:
    kwargs.pop("ignore_order", None)
    kwargs.pop("sort", None)
    if isinstance(dfs[0], Index):
        out = dfs[0]
        for other in dfs[1:]:
            out = out.append(other)
        return out
    return ember.concat(dfs, axis=axis, join=join, ignore_index=ignore_index, **kwargs)


def _hash_inputs(obj: Any, index: bool) -> tuple[list, int, Any]:
    if isinstance(obj, DataFrame):
        cols = list(obj._columns.values())
    elif isinstance(obj, Series):
        cols = [obj.column]
    else:
        cols = _index_columns(obj)
        index = False
    if index and not isinstance(obj, Index):
        cols = _index_columns(obj.index) + cols
    n = len(obj)
    xp = cols[0].xp if cols else ember.backend.xp()
    return cols, n, xp


@hash_object_dispatch.register(EMBER_TYPES)
def hash_object_ember(
    obj: Any, index: bool = True, encoding: str = "utf8", hash_key: Any = None, categorize: bool = True
) -> Series:
    """A uint64 Series of row hashes (see ember.dask._hashing for the rules)."""
    cols, n, xp = _hash_inputs(obj, index)
    h = hash_columns(cols, n, xp)
    idx = obj if isinstance(obj, Index) else obj.index
    return Series(h, index=idx)


def _as_array(c: Any) -> Any:
    if isinstance(c, Series):
        return c.column.data
    if isinstance(c, Index):
        return c.column.data
    return c


@group_split_dispatch.register(EMBER_TYPES)
def group_split_ember(df: Any, c: Any, k: int, ignore_index: bool = False) -> ShuffleGroupResult:
    """Rows of ``df`` split by the partition number in ``c`` (0..k-1), order kept within each part.

    One stable sort of ``c`` and one device->host copy of the k+1 boundaries."""
    codes = _as_array(c)
    xp = ember.backend.array_module(codes) if not isinstance(codes, np.ndarray) else _frame_xp(df)
    codes = xp.asarray(codes).astype(np.int64)
    order = xp.argsort(codes, kind="stable")
    counts = xp.bincount(codes, minlength=int(k)) if len(codes) else xp.zeros(int(k), dtype=np.int64)
    bounds = np.concatenate([[0], np.cumsum(ember.backend.to_host(counts))]).tolist()
    ordered = df.iloc[order]
    parts = {}
    for i in range(int(k)):  # k partitions (not rows): slices of one gathered frame
        part = ordered.iloc[bounds[i] : bounds[i + 1]]
        parts[i] = part.reset_index(drop=True) if ignore_index else part
    return ShuffleGroupResult(parts)


def _frame_xp(obj: Any) -> Any:
    if isinstance(obj, DataFrame):
        cols = list(obj._columns.values())
        return cols[0].xp if cols else ember.backend.xp()
    if isinstance(obj, Series):
        return obj.column.xp
    return ember.backend.xp()


# --- categoricals / misc ---------------------------------------------------------------------
@categorical_dtype_dispatch.register(EMBER_TYPES)
def categorical_dtype_ember(categories: Any = None, ordered: bool = False) -> pd.CategoricalDtype:
    if hasattr(categories, "to_pandas"):
        categories = categories.to_pandas()
    return pd.CategoricalDtype(categories=categories, ordered=ordered)


@is_categorical_dtype_dispatch.register(EMBER_TYPES)
def is_categorical_dtype_ember(obj: Any) -> bool:
    return isinstance(getattr(obj, "dtype", obj), pd.CategoricalDtype)


@union_categoricals_dispatch.register(EMBER_TYPES)
def union_categoricals_ember(
    to_union: list, sort_categories: bool = False, ignore_order: bool = False
) -> Any:
    return ember.concat(list(to_union), ignore_index=True)


@tolist_dispatch.register(EMBER_TYPES)
def tolist_ember(obj: Any) -> list:
    return obj.tolist()


@grouper_dispatch.register((DataFrame, Series))
def grouper_ember(obj: Any) -> type:
    return pd.Grouper


@percentile_lookup.register((Series, Index))
def percentile_ember(a: Any, q: Any, interpolation: str = "linear") -> tuple[np.ndarray, int]:
    """Quantiles of one partition for Dask's sort/set_index divisions (host values: Dask merges them)."""
    from dask.array.percentile import _percentile

    return _percentile(a.to_pandas(), q, interpolation)


@sizeof.register(DataFrame)
def sizeof_frame(df: DataFrame) -> int:
    return int(sum(c.nbytes for c in df._columns.values()) + _index_nbytes(df.index) + 100)


@sizeof.register(Series)
def sizeof_series(s: Series) -> int:
    return int(s.column.nbytes + _index_nbytes(s.index) + 100)


@sizeof.register(Index)
def sizeof_index(idx: Index) -> int:
    return int(_index_nbytes(idx) + 50)


def _index_nbytes(idx: Index) -> int:
    if isinstance(idx, RangeIndex):
        return 0
    return sum(c.nbytes for c in _index_columns(idx))


@normalize_token.register(EMBER_TYPES)
def tokenize_ember(obj: Any) -> tuple:
    """A deterministic token from the type, labels, dtypes, index and a device-side digest of the
    values (row hashes weighted by position, summed: one scalar read back)."""
    cols, n, xp = _hash_inputs(obj, index=True)
    digest = 0
    if cols and n:
        h = hash_columns(cols, n, xp)
        weights = _mix_positions(xp, n)
        digest = int((h * weights).sum(dtype=np.uint64))
    labels = list(obj._names) if isinstance(obj, DataFrame) else [getattr(obj, "name", None)]
    dtypes = [str(c.dtype) for c in cols]
    return type(obj).__name__, repr(labels), dtypes, n, digest


def _mix_positions(xp: Any, n: int) -> Any:
    from ember.dask._hashing import _mix

    return _mix(xp, xp.arange(n, dtype=np.uint64) + np.uint64(1))


@partd_encode_dispatch.register(DataFrame)
def partd_encode_ember(_: Any) -> type:
    return _EmberPartdBlocks()


class _EmberPartdBlocks:
    """partd's disk shuffle stores ember frames as Arrow IPC (see serialize.py)."""

    def __call__(self, partd: Any = None) -> Any:
        from partd import Encode

        from ember.dask.serialize import frame_from_ipc

        return Encode(_encode_frame, frame_from_ipc, _join_frames, partd)


def _encode_frame(frame: Any) -> bytes:
    from ember.dask.serialize import frame_to_ipc

    return frame_to_ipc(frame).to_pybytes()


def _join_frames(parts: list) -> Any:
    return ember.concat(parts) if len(parts) > 1 else parts[0]


# --- arrow -----------------------------------------------------------------------------------
def frame_to_table(df: Any, preserve_index: bool | None = True) -> pa.Table:
    """Columns (and the index, as ``__index_level_i__`` columns with their names in the schema
    metadata) as a pyarrow Table; the inverse of ``table_to_frame``."""
    if isinstance(df, Series):
        df = DataFrame._from_columns({df.name: df.column}, df.index)
    arrays = [c.to_arrow() for c in df._columns.values()]
    names = [str(n) for n in df._names]
    meta: dict = {
        "labels": {str(n): n for n in df._names},
        "index": None,
        "nrows": len(df),
        "dtypes": {str(n): str(c.dtype) for n, c in df._columns.items()},
    }
    idx = df.index
    if (
        preserve_index is not False
        and not (preserve_index is None and isinstance(idx, RangeIndex))
        and not (isinstance(idx, RangeIndex) and _default_range(idx))
    ):
        labels = idx.names if isinstance(idx, MultiIndex) else [idx.name]
        for i, col in enumerate(_index_columns(idx)):
            arrays.append(col.to_arrow())
            names.append(f"__index_level_{i}__")
        meta["index"] = [_label(n) for n in labels]
    elif isinstance(idx, RangeIndex):
        r = idx.to_pandas()
        meta["range"] = [r.start, r.stop, r.step, _label(r.name)]
    table = pa.Table.from_arrays(arrays, names=names)
    # pickled, not JSON: labels may be tuples (multi-level columns) or any hashable
    return table.replace_schema_metadata({_INDEX_META_KEY: pickle.dumps(meta)})


def _default_range(idx: RangeIndex) -> bool:
    r = idx.to_pandas()
    return r.start == 0 and r.step == 1 and r.name is None


def _label(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


def table_to_frame(table: pa.Table) -> DataFrame:
    """An ember DataFrame from a Table written by ``frame_to_table`` (or any Table: then the index is
    a RangeIndex). Columns are matched by name, so Tables that lost or gained columns (Dask's p2p
    shuffle drops its partition columns) still map back to their labels and dtypes."""
    raw = (table.schema.metadata or {}).get(_INDEX_META_KEY)
    meta = pickle.loads(raw) if raw else {}
    labels, dtypes = meta.get("labels", {}), meta.get("dtypes", {})
    index_names = meta.get("index") or []
    xp = ember.backend.xp()
    cols, levels = {}, []
    for name, arr in zip(table.column_names, table.columns, strict=True):
        if name.startswith("__index_level_") and index_names:
            levels.append(column_from_arrow(arr, xp))
            continue
        cols[labels.get(name, name)] = _restore_dtype(column_from_arrow(arr, xp), dtypes.get(name))
    nrows = meta.get("nrows", table.num_rows) if table.num_columns == 0 else table.num_rows
    index: Any = RangeIndex(nrows)
    if levels:
        index = (
            Index._from_column(levels[0], index_names[0])
            if len(levels) == 1
            else MultiIndex(levels, index_names)
        )
    elif meta.get("range"):
        start, stop, step, name = meta["range"]
        if len(range(start, stop, step)) == nrows:
            index = RangeIndex(start, stop, step, name=name)
    return DataFrame._from_columns(cols, index)


def _restore_dtype(col: Any, dtype: str | None) -> Any:
    """Arrow has one integer type for Int64 and int64-with-nulls: give back the recorded dtype."""
    if dtype is None or str(col.dtype) == dtype or dtype.startswith(("category", "datetime64[", "timedelta")):
        return col
    from ember.ops.unary import astype

    return astype(col, dtype)


@pyarrow_schema_dispatch.register((DataFrame,))
def pyarrow_schema_ember(obj: Any, preserve_index: bool | None = None) -> pa.Schema:
    return frame_to_table(obj.iloc[:0], preserve_index=preserve_index).schema


@to_pyarrow_table_dispatch.register((DataFrame,))
def to_pyarrow_table_ember(obj: Any, preserve_index: bool | None = True, **kwargs: Any) -> pa.Table:
    return frame_to_table(obj, preserve_index=preserve_index)


@from_pyarrow_table_dispatch.register((DataFrame,))
def from_pyarrow_table_ember(meta: Any, table: pa.Table, **kwargs: Any) -> DataFrame:
    return table_to_frame(table)


@to_pandas_dispatch.register(EMBER_TYPES)
def to_pandas_ember(data: Any, **kwargs: Any) -> Any:
    return data.to_pandas()


# --- creation and conversion -----------------------------------------------------------------
def to_ember(data: Any, **kwargs: Any) -> Any:
    """One partition (pandas or ember) as ember."""
    if isinstance(data, EMBER_TYPES):
        return data
    return ember.from_pandas(data)


def _read_parquet_part(path: Any, columns: Any, kwargs: dict) -> DataFrame:
    from ember.io import read_parquet

    return read_parquet(path, columns=columns, **kwargs)


def _read_csv_part(path: Any, kwargs: dict) -> DataFrame:
    from ember.io import read_csv

    return read_csv(path, **kwargs)


def _expand_paths(path: Any, storage_options: dict | None) -> list:
    from fsspec.core import get_fs_token_paths

    fs, _, paths = get_fs_token_paths(path, mode="rb", storage_options=storage_options)
    out = []
    for p in paths:
        if fs.isdir(p):
            out.extend(sorted(f for f in fs.find(p) if f.endswith((".parquet", ".parq", ".pq"))))
        else:
            out.append(p)
    protocol = fs.protocol if isinstance(fs.protocol, str) else fs.protocol[0]
    return [p if protocol == "file" else f"{protocol}://{p}" for p in out]


def _unknown_categories(meta: DataFrame) -> DataFrame:
    """Categorical columns marked as Dask's "unknown categories": each file holds its own category
    set, so the first file's (or sample's) categories would be wrong for the others, and a meta
    carrying a million of them is pickled into every task of the graph."""
    from dask.dataframe.utils import clear_known_categories

    if not any(str(t) == "category" for t in meta.dtypes):
        return meta
    return ember.from_pandas(clear_known_categories(meta.to_pandas()))


class EmberBackendEntrypoint(DataFrameBackendEntrypoint):
    """``dataframe.backend = "ember"``: creation functions produce ember partitions, and
    ``to_backend("ember")`` converts a pandas-backed collection partition by partition."""

    @classmethod
    def to_backend_dispatch(cls) -> Any:
        return to_ember

    @classmethod
    def to_backend(cls, data: Any, **kwargs: Any) -> Any:
        if isinstance(data._meta, EMBER_TYPES):
            return data
        return data.map_partitions(to_ember, meta=to_ember(data._meta), **kwargs)

    @staticmethod
    def from_dict(data: dict, *, npartitions: int, orient: str = "columns", **kwargs: Any) -> Any:
        from dask.dataframe import from_pandas

        pdf = pd.DataFrame.from_dict(data, orient=orient, **kwargs)
        return EmberBackendEntrypoint.to_backend(from_pandas(pdf, npartitions=npartitions))

    @staticmethod
    def read_parquet(
        path: Any, columns: Any = None, storage_options: dict | None = None, **kwargs: Any
    ) -> Any:
        from dask.dataframe import from_map

        paths = _expand_paths(path, storage_options)
        if storage_options:
            kwargs["storage_options"] = storage_options
        meta = _unknown_categories(parquet_empty_frame(paths[0], columns, storage_options))
        return from_map(
            _read_parquet_part,
            paths,
            columns=columns,
            kwargs=kwargs,
            meta=meta,
            label="ember-read-parquet",
            enforce_metadata=False,
        )

    @staticmethod
    def read_csv(urlpath: Any, storage_options: dict | None = None, **kwargs: Any) -> Any:
        from dask.dataframe import from_map

        paths = _expand_paths(urlpath, storage_options)
        if storage_options:
            kwargs["storage_options"] = storage_options
        meta = _unknown_categories(_read_csv_part(paths[0], {**kwargs, "nrows": 100}).iloc[:0])
        return from_map(
            _read_csv_part, paths, kwargs=kwargs, meta=meta, label="ember-read-csv", enforce_metadata=False
        )

    @staticmethod
    def read_json(url_path: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "dask read_json with the ember backend: use dd.read_json(...).to_backend('ember')"
        )

    @staticmethod
    def read_orc(path: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "dask read_orc with the ember backend: use dd.read_orc(...).to_backend('ember')"
        )

    @staticmethod
    def read_hdf(pattern: Any, key: str, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "dask read_hdf with the ember backend: use dd.read_hdf(...).to_backend('ember')"
        )

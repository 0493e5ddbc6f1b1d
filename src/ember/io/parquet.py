"""read_parquet / write_parquet through pyarrow.dataset, with pandas' metadata honoured.

Reading: the files (one, a list, a directory or a glob; hive ``key=value`` directories become
categorical columns, as pandas makes them) form one pyarrow dataset; ``filters`` become a dataset
expression, so row groups whose statistics exclude the filter are never read. On the GPU backend the
record batches stream to the device one at a time (each through the pinned, chunked copies of
``backend.to_device``). Local files without filters or hive directories take ``parquet_device``
instead: row groups decoded by a pool of threads and copied up through one pinned slab into the
final device arrays as they land.

The pandas metadata that pyarrow stores (``b"pandas"`` in the schema) restores the index (RangeIndex or
columns), nullable dtypes (Int64, boolean ...), categoricals and time zones, as ``pandas.read_parquet``
does.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pyarrow as pa

from ember.backend.kernels.parquet import ParquetPageError
from ember.io import _paths

_CODECS = ("snappy", "gzip", "zstd", "lz4", "brotli", None, "none")


class ParquetError(pa.ArrowInvalid):
    """A file that is not valid Parquet (truncated, corrupt, or another format); names the file."""


def read_parquet(
    path: Any,
    columns: list | None = None,
    filters: Any = None,
    *,
    engine: str = "auto",
    storage_options: dict | None = None,
    batch_size: int = 1 << 20,
    to_pandas_kwargs: dict | None = None,
    **kwargs: Any,
) -> Any:
    """Read Parquet into an ember DataFrame, as ``pandas.read_parquet``.

    ``path``: path, URL (s3://, gs://, http(s)://, memory:// with ``storage_options``), list, directory,
    glob or file object. ``filters``: pandas/pyarrow DNF (list of tuples, or list of lists) or a
    ``pyarrow.compute`` expression. ``engine``: "auto" decodes local files without filters on the
    GPU by ember's page kernels (``io/parquet_decode.py``) and everything else by pyarrow;
    "pyarrow" always by pyarrow; "ember" by the page kernels on either backend (local files only).
    Date columns: pandas gives datetime.date objects, which ember refuses; with
    ``to_pandas_kwargs={"date_as_object": False}`` they are datetime64[ms], as pandas then gives."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    if engine not in ("auto", "pyarrow", "ember"):
        raise NotImplementedError(f"read_parquet: engine={engine!r}; supported: 'auto', 'pyarrow', 'ember'")
    if kwargs:
        raise NotImplementedError(
            f"read_parquet: arguments {sorted(kwargs)} are not supported by ember; "
            "supported: columns, filters, storage_options, batch_size, to_pandas_kwargs"
        )
    if to_pandas_kwargs:
        from ember.column.convert import arrow_dates_as_datetime64

        other = sorted(set(to_pandas_kwargs) - {"date_as_object"})
        if other:
            raise NotImplementedError(f"read_parquet: to_pandas_kwargs {other}; supported: date_as_object")
        with arrow_dates_as_datetime64(not to_pandas_kwargs.get("date_as_object", True)):
            return read_parquet(
                path, columns, filters, engine=engine, storage_options=storage_options, batch_size=batch_size
            )
    name = _paths.display_name(path)
    expr = pq.filters_to_expression(filters) if isinstance(filters, (list, tuple)) else filters
    if engine == "ember" and (filters is not None or _paths.is_file_like(path)):
        raise NotImplementedError(
            "read_parquet(engine='ember') reads local files without filters; use engine='auto'"
        )
    try:
        if _paths.is_file_like(path):
            table = pq.read_table(pa.BufferReader(path.read()), columns=columns, filters=expr)
            meta = _pandas_meta(table.schema)
            if columns is not None:
                wanted = _with_index_columns(columns, meta)
                table = pq.read_table(
                    pa.BufferReader(path.seek(0) or path.read()), columns=wanted, filters=expr
                )
            return table_to_frame(table, meta, columns)
        else:
            fs, files = _paths.expand_paths(path, storage_options, suffixes=(".parquet", ".parq", ".pq"))
            if engine == "ember" and not _local_files(fs, files):
                raise NotImplementedError(
                    "read_parquet(engine='ember') reads local files outside hive directories; "
                    "use engine='auto'"
                )
            if engine == "ember" or (expr is None and _on_gpu() and _local_files(fs, files)):
                # the page kernels decode what they cover ("auto" on the GPU, "ember" anywhere);
                # engine="pyarrow" on the GPU: pyarrow's decode, row groups in parallel
                from ember.io.parquet_decode import read_files_decoded
                from ember.io.parquet_device import read_files_to_device

                reader = read_files_to_device if engine == "pyarrow" else read_files_decoded
                frame = _read_to_device(files, columns, reader)
                if frame is not None:
                    return frame
            partitioning = ds.HivePartitioning.discover(infer_dictionary=True)
            base = _base_dir(path, fs, storage_options)
            dataset = ds.dataset(
                files,
                filesystem=_paths.arrow_filesystem(fs),
                format="parquet",
                partitioning=partitioning,
                partition_base_dir=base,
            )
        schema = dataset.schema
        meta = _pandas_meta(schema)
        wanted = _with_index_columns(columns, meta)
        table = _read_table(dataset, wanted, expr, batch_size, meta)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError, ParquetPageError) as exc:
        raise ParquetError(f"{name}: cannot read as Parquet ({type(exc).__name__}: {exc})") from exc
    return table_to_frame(table, meta, columns)


def _on_gpu() -> bool:
    import ember.backend

    return ember.backend.current_device() == "gpu"


def _local_files(fs: Any, files: list[str]) -> bool:
    """Local files with no hive partition directories in their paths."""
    protocol = fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)
    if not set(protocol) & {"file", "local"}:
        return False
    return not any("=" in part for f in files for part in os.path.dirname(f).split(os.sep))


def _read_to_device(files: list[str], columns: list | None, reader: Any) -> Any:
    """``read_parquet`` of local files through ``reader`` (``parquet_device``'s parallel row groups, or
    ``parquet_decode``'s own page decoder), or None when it cannot take them (schemas differ, a
    column is missing)."""
    import pyarrow.parquet as pq

    from ember.backend import xp as current_xp

    meta = _pandas_meta(pq.read_schema(files[0]))
    by_field = _field_specs(meta)
    xp = current_xp()
    found = reader(
        files,
        _with_index_columns(columns, meta),
        lambda name, arr: _column(arr, xp, by_field.get(name), name),
    )
    if found is None:
        return None
    cols, n = found
    cols = {k: _apply_meta(c, by_field.get(k)) for k, c in cols.items()}
    return _assemble(cols, n, meta, by_field)


def parquet_empty_frame(path: Any, columns: list | None = None, storage_options: dict | None = None) -> Any:
    """The empty frame ``read_parquet(path, columns)`` would type its columns as, from the footer's
    schema alone (no data read): Dask's meta for a partition."""
    import pyarrow.dataset as ds

    fs, files = _paths.expand_paths(path, storage_options, suffixes=(".parquet", ".parq", ".pq"))
    try:
        schema = ds.dataset(files[:1], filesystem=_paths.arrow_filesystem(fs), format="parquet").schema
    except (pa.ArrowException, OSError) as exc:
        raise ParquetError(f"{_paths.display_name(path)}: cannot read as Parquet ({exc})") from exc
    meta = _pandas_meta(schema)
    wanted = _with_index_columns(columns, meta)
    empty = schema.empty_table()
    return table_to_frame(empty if wanted is None else empty.select(wanted), meta, columns)


def _base_dir(path: Any, fs: Any, storage_options: dict | None) -> str | None:
    if isinstance(path, (list, tuple)) or _paths.is_file_like(path):
        return None
    _, inner = _paths.get_filesystem(str(path), storage_options)
    return inner if fs.isdir(inner) else None


def _read_table(dataset: Any, columns: list | None, expr: Any, batch_size: int, meta: dict) -> Any:
    """The selected rows and columns; on the GPU, batch by batch onto the device."""
    from ember.backend import current_device

    if current_device() != "gpu":
        return dataset.to_table(columns=columns, filter=expr)
    return _DeviceBatches(
        dataset.to_batches(columns=columns, filter=expr, batch_size=batch_size),
        dataset.schema if columns is None else None,
        columns,
        _field_specs(meta),
    )


class _DeviceBatches:
    """Record batches converted to device columns as they arrive, concatenated at the end."""

    def __init__(self, batches: Any, schema: Any, columns: list | None, specs: dict) -> None:
        from ember.backend import xp as current_xp
        from ember.column import concat_columns

        xp = current_xp()
        parts: dict[str, list] = {}
        dictionaries: dict[str, list] = {}
        self.schema = None
        self.num_rows = 0
        for batch in batches:
            self.schema = batch.schema
            self.num_rows += batch.num_rows
            for i, fname in enumerate(batch.schema.names):
                arr = batch.column(i)
                if pa.types.is_dictionary(arr.type):
                    # row groups may carry different dictionaries: Arrow unifies them (on the host,
                    # codes only) at the end, as pandas' read_parquet gives one categorical
                    dictionaries.setdefault(fname, []).append(arr)
                    parts.setdefault(fname, [])
                    continue
                # each batch typed by the pandas metadata: an Int64 column's nulls stay nulls (not NaN)
                parts.setdefault(fname, []).append(_column(arr, xp, specs.get(fname)))
        for fname, chunks in dictionaries.items():
            parts[fname] = [_column(pa.chunked_array(chunks).combine_chunks(), xp, specs.get(fname))]
        self.column_names = list(parts)
        self.columns = {k: concat_columns(v) if len(v) > 1 else v[0] for k, v in parts.items()}
        if self.schema is None:
            self.empty = (schema.empty_table() if schema is not None else pa.table({})).select(columns or [])
        else:
            self.empty = None


def _pandas_meta(schema: pa.Schema) -> dict:
    try:
        meta = schema.pandas_metadata if schema.metadata and b"pandas" in schema.metadata else None
    except ValueError as exc:  # the footer's pandas JSON is not JSON (or not UTF-8): a corrupt file
        raise ParquetPageError(f"the pandas metadata in the footer is corrupt ({exc})") from None
    return meta or {}


def _with_index_columns(columns: list | None, meta: dict) -> list | None:
    """The requested columns plus the stored index columns (pandas reads the index along)."""
    if columns is None:
        return None
    extra = [c for c in meta.get("index_columns", []) if isinstance(c, str) and c not in columns]
    return list(columns) + extra


def table_to_frame(table: Any, meta: dict, columns: list | None = None) -> Any:
    """An ember DataFrame from an Arrow table (or streamed batches), pandas metadata applied."""
    from ember.backend import xp as current_xp

    xp = current_xp()
    by_field = _field_specs(meta)
    if isinstance(table, _DeviceBatches):
        if table.empty is not None:
            table = table.empty
        else:
            cols = {k: _apply_meta(c, by_field.get(k)) for k, c in table.columns.items()}
            return _assemble(cols, table.num_rows, meta, by_field)
    table = table.unify_dictionaries() if table.num_columns else table
    cols = {
        fname: _apply_meta(_column(table.column(i), xp, by_field.get(fname), fname), by_field.get(fname))
        for i, fname in enumerate(table.column_names)
    }
    return _assemble(cols, table.num_rows, meta, by_field)


def _field_specs(meta: dict) -> dict:
    """pandas metadata per stored field name."""
    return {c["field_name"]: c for c in meta.get("columns", []) if "field_name" in c}


def _assemble(cols: dict, n: int, meta: dict, by_field: dict) -> Any:
    from ember.frame.dataframe import DataFrame
    from ember.frame.index import Index, MultiIndex, RangeIndex

    index = None
    index_specs = meta.get("index_columns", [])
    idx_cols, idx_names = [], []
    for spec in index_specs:
        if isinstance(spec, dict) and spec.get("kind") == "range":
            start, stop, step = spec["start"], spec["stop"], spec["step"]
            if len(range(start, stop, step)) == n:
                index = RangeIndex(start, stop, step, name=spec.get("name"))
        elif isinstance(spec, str) and spec in cols:
            idx_cols.append(cols.pop(spec))
            idx_names.append(by_field.get(spec, {}).get("name", spec))
    if len(idx_cols) == 1:
        index = Index._from_column(idx_cols[0], idx_names[0])
    elif idx_cols:
        index = MultiIndex(idx_cols, idx_names)
    labels = {f: by_field[f].get("name", f) if f in by_field else f for f in cols}
    out = {labels[f]: c for f, c in cols.items()}
    if index is None:
        index = RangeIndex(n)
    return DataFrame._from_columns(out, index) if out else DataFrame._from_columns({}, index)


def _column(arr: Any, xp: Any, spec: dict | None, name: Any = None) -> Any:
    """A column from an Arrow array as pandas' Arrow->pandas conversion types it."""
    from ember.column import NumericColumn, from_arrow
    from ember.column.decimal import DecimalColumn

    if isinstance(arr, pa.ChunkedArray) and arr.num_chunks == 0:
        arr = pa.array([], type=arr.type)
    t = arr.type
    if pa.types.is_decimal(t):  # pandas: Decimal objects (None where missing); a decimal column
        return DecimalColumn.from_arrow(arr, xp, name)
    nullable = spec is not None and _is_masked_name(spec.get("numpy_type"))
    if pa.types.is_null(t):  # all missing: object as pandas reads it (a masked dtype from its metadata)
        return from_arrow(arr, xp)
    if not nullable and arr.null_count and pa.types.is_integer(t):
        return from_arrow(arr.cast(pa.float64(), safe=False), xp)
    if nullable and arr.null_count and pa.types.is_floating(t):
        from ember.backend import asarray_on

        valid = np.asarray(arr.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
        values = (
            arr.fill_null(0).to_numpy(zero_copy_only=False)
            if isinstance(arr, pa.Array)
            else arr.combine_chunks().fill_null(0).to_numpy(zero_copy_only=False)
        )
        return NumericColumn(asarray_on(values, xp), asarray_on(valid, xp), nullable=True)
    return from_arrow(arr, xp)


_MASKED_NAMES = frozenset(
    {
        "Int8",
        "Int16",
        "Int32",
        "Int64",
        "UInt8",
        "UInt16",
        "UInt32",
        "UInt64",
        "Float32",
        "Float64",
        "boolean",
    }
)


def _is_masked_name(numpy_type: Any) -> bool:
    return numpy_type in _MASKED_NAMES


def _apply_meta(col: Any, spec: dict | None) -> Any:
    """Nullable dtypes and ordered categoricals that the Arrow types alone do not say."""
    from ember.column import CategoricalColumn, NumericColumn, StringColumn

    numpy_type = None if spec is None else spec.get("numpy_type")
    if isinstance(col, NumericColumn) and _is_masked_name(numpy_type):
        return NumericColumn(col.data, col.mask, nullable=True)
    if isinstance(col, NumericColumn) and col.mask is not None and col.data.dtype.kind in "iuf":
        # missing ints and floats of a plain (not nullable) dtype read as NaN floats, as in pandas
        xp = col.xp
        data = col.data if col.data.dtype.kind == "f" else col.data.astype(np.float64)
        return NumericColumn(xp.where(col.mask, data, data.dtype.type(np.nan)))
    if spec is None:
        return col
    if isinstance(col, CategoricalColumn) and spec.get("pandas_type") == "categorical":
        ordered = bool((spec.get("metadata") or {}).get("ordered", col.ordered))
        cats = col.categories
        if isinstance(cats, StringColumn) and len(cats) == 0:  # pandas types empty categories as object
            cats = StringColumn(cats.data, cats.chars, None, np.dtype(object))
        return CategoricalColumn(col.data, cats, ordered)
    return col


def write_parquet(
    frame: Any,
    path: Any,
    engine: str = "auto",
    compression: str | None = "snappy",
    index: bool | None = None,
    partition_cols: list | None = None,
    storage_options: dict | None = None,
    row_group_size: int | None = None,
    **kwargs: Any,
) -> None:
    """Write ``frame`` as Parquet with pandas' metadata (index, categoricals, tz, nullable dtypes), as
    ``DataFrame.to_parquet``; ``partition_cols`` writes a hive-partitioned directory."""
    import pyarrow.parquet as pq

    if engine not in ("auto", "pyarrow"):
        raise NotImplementedError(f"write_parquet: engine={engine!r}; supported: 'auto', 'pyarrow'")
    if compression not in _CODECS:
        raise ValueError(f"write_parquet: compression={compression!r}; supported: {list(_CODECS)}")
    if kwargs:
        raise NotImplementedError(f"write_parquet: arguments {sorted(kwargs)} are not supported by ember")
    codec = "none" if compression is None else compression
    table = pa.Table.from_pandas(frame.to_pandas(), preserve_index=index)
    if partition_cols:
        fs, root = _target_fs(path, storage_options)
        pq.write_to_dataset(
            table,
            root,
            partition_cols=list(partition_cols),
            filesystem=_paths.arrow_filesystem(fs),
            compression=codec,
        )
        return
    if _paths.is_file_like(path):
        pq.write_table(table, path, compression=codec, row_group_size=row_group_size)
        return
    fs, inner = _target_fs(path, storage_options)
    with fs.open(inner, "wb") as f:
        pq.write_table(table, f, compression=codec, row_group_size=row_group_size)


def _target_fs(path: Any, storage_options: dict | None) -> tuple[Any, str]:
    import os

    return _paths.get_filesystem(os.fspath(path), storage_options)

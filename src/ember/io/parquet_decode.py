"""``read_parquet(engine="ember")``: local files read by ember's own page decoder, not pyarrow's.

Each column chunk's pages are read and decompressed on the host (``parquet_pages.plan_chunk``: page
headers, pyarrow's codecs), their bytes go to the compute device in one copy, and the dictionary
indices of every page are decoded by one kernel launch, values looked up there
(``parquet_pages.decode_plan``). Host work per chunk is the decompression only; the decoded frame is
never built on the host. Row groups are planned by a thread pool (decompression releases the GIL).

Columns it decodes: int32 / int64 / float32 / float64 (physical types that are the Arrow type) and
dictionary-encoded strings read as categoricals, flat, without nulls. Any other column (other types,
nulls, encodings such as DELTA_*) is read by pyarrow and converted as the default engine converts it.
Experimental: the default engine ("auto") stays pyarrow's decode until this one is measured on the GPU
host (``docs/parquet-device-decode.md``). On the CPU backend the decode runs in the NumPy reference
(run by run) and is several times slower than pyarrow's: the engine is meant for the GPU.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pyarrow as pa

from ember.backend.kernels.parquet import ParquetPageError
from ember.io.parquet_pages import decode_plan, plan_chunk

_THREADS = min(16, os.cpu_count() or 1)
_PHYSICAL = {"INT32": pa.int32(), "INT64": pa.int64(), "FLOAT": pa.float32(), "DOUBLE": pa.float64()}


def read_files_decoded(files: list[str], columns: list | None, convert: Any) -> tuple[dict, int] | None:
    """({field name: Column}, rows) of local Parquet files, or None when their schemas differ or a
    column is missing. ``convert(name, chunked_array)`` turns a column this decoder leaves to pyarrow
    into a Column."""
    from ember.backend import xp as current_xp
    from ember.io.parquet_device import open_files

    opened = open_files(files, columns)
    if opened is None:
        return None
    handles, schema, names = opened
    xp = current_xp()
    units = [(f, h.metadata, i) for f, h in zip(files, handles) for i in range(h.num_row_groups)]
    n = sum(meta.row_group(i).num_rows for _, meta, i in units)
    out, left = {}, []
    for name in names:
        decoded = _decode_column(name, schema.field(name).type, units, xp)
        if decoded is None:
            left.append(name)
        else:
            out[name] = decoded
    for name in left:
        chunks = [c for h in handles for c in h.read(columns=[name]).column(name).chunks]
        out[name] = convert(name, pa.chunked_array(chunks, type=schema.field(name).type))
    return {name: out[name] for name in names}, n


def _decode_column(name: str, t: Any, units: list, xp: Any) -> Any:
    """The column decoded from every row group, or None when this decoder does not cover it."""
    from ember.column import from_arrow

    leaf = _leaf(name, units[0][1])
    if leaf is None:
        return None
    j, physical, max_def = leaf
    categorical = pa.types.is_dictionary(t) and physical == "BYTE_ARRAY"
    categorical = categorical and (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type))
    if not categorical and _PHYSICAL.get(physical) != t:
        return None
    # footers are read here, on one thread; the pool only reads bytes and decompresses
    chunks = [_chunk_location(unit, j) for unit in units]
    try:
        with ThreadPoolExecutor(_THREADS) as pool:
            plans = list(pool.map(lambda where: _plan(where, physical, max_def), chunks))
    except NotImplementedError:
        return None  # nulls, or an encoding the plan does not cover: pyarrow reads this column
    parts = [decode_plan(plan, xp) for plan in plans]
    if not categorical:
        template = from_arrow(pa.array([], type=t), xp)
        return template._rebuild(_concat([values for values, _ in parts], xp), None)
    from ember.io.parquet_device import categorical_from_parts

    codes = _concat([codes for codes, _ in parts], xp)
    dictionaries = [d.cast(t.value_type) for _, d in parts]
    return categorical_from_parts(codes, dictionaries, [int(c.shape[0]) for c, _ in parts], t)


def _chunk_location(unit: tuple, j: int) -> tuple:
    """(path, first byte, bytes, codec, rows, a name for errors) of column ``j`` in one row group."""
    path, meta, i = unit
    col = meta.row_group(i).column(j)
    start = col.dictionary_page_offset if col.has_dictionary_page else col.data_page_offset
    where = f"row group {i} of column {col.path_in_schema}"
    return path, start, col.total_compressed_size, col.compression, meta.row_group(i).num_rows, where


def _plan(location: tuple, physical: str, max_def: int) -> Any:
    path, start, size, codec, rows, where = location
    with open(path, "rb") as f:
        f.seek(start)
        chunk = f.read(size)
    plan = plan_chunk(chunk, codec, physical, max_def)
    if int(plan.page_count.sum()) != rows:
        raise ParquetPageError(f"{where}: its pages hold a wrong row count")
    return plan


def _leaf(name: str, meta: Any) -> tuple[int, str, int] | None:
    """(leaf index, physical type, max definition level) of a flat column, or None."""
    paths = [meta.schema.column(k).path for k in range(meta.num_columns)]
    if paths.count(name) != 1:
        return None
    j = paths.index(name)
    descr = meta.schema.column(j)
    if descr.max_repetition_level or descr.max_definition_level > 1:
        return None
    return j, descr.physical_type, descr.max_definition_level


def _concat(parts: list, xp: Any) -> Any:
    if len(parts) == 1:
        return parts[0]
    return xp.concatenate(parts) if parts else xp.zeros(0, dtype=np.int64)

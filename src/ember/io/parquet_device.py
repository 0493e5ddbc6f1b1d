"""Local Parquet files onto the GPU with the row groups decoded in parallel and copied up as they land.

pyarrow decodes (the host-decode path); what this module adds is the data movement around it. Row
groups are decoded by a pool of threads, one row group each; each thread copies its fixed-width
columns into one pinned slab (laid out column by column, a row group at its row offset), and the main
thread sends each landed piece to the device with an asynchronous copy straight into the column's
final device array: no per-batch device arrays, no concatenation on the device, and the copies of
early row groups overlap the decoding of later ones.

Fixed width: integers, floats (32/64 bit), bools, timestamps and durations, and dictionary codes
(categoricals: the row groups' dictionaries are unified on the host, as Arrow's ``unify_dictionaries``
orders them, and the codes remapped on the device), when the footer's statistics say the column has
no nulls (the footer read by ``parquet_footer``: pyarrow's metadata API aborts on some corrupt
ones). Any other column (strings, nulls, nested) is gathered from the decoded row groups and
converted as the general path converts it.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa

from ember.backend.kernels.parquet import ParquetPageError

_THREADS = min(16, os.cpu_count() or 1)


class _Field(NamedTuple):
    name: str
    kind: str  # "fixed", "dict" or "host"
    dtype: Any  # numpy dtype of the slab's values (fixed: the values; dict: int32 codes)
    template: Any  # an empty Column of the result's class (fixed), or None


def read_files_to_device(
    files: list[str], columns: list | None, convert: Any, footers: list | None = None
) -> tuple[dict, int] | None:
    """({field name: device Column}, rows) of local Parquet files read as one table, or None when the
    files' schemas differ or a column is missing (the caller's dataset path handles those).
    ``convert(name, chunked_array)`` turns a column the slab cannot carry into a Column, as the
    general path does. ``footers``: the files' ``parquet_footer.read_footer``, when the caller has them."""
    import pyarrow.parquet as pq

    from ember.backend import xp as current_xp
    from ember.io.parquet_footer import read_footer

    opened = open_files(files, columns)
    if opened is None:
        return None
    handles, schema, names = opened
    footers = footers if footers is not None else [read_footer(f) for f in files]
    units = [(h, i) for h in handles for i in range(h.num_row_groups)]
    sizes = [rows for footer in footers for rows in footer.group_rows]
    if len(sizes) != len(units):
        raise ParquetPageError("the footer's row groups disagree with the file's")
    starts = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])
    n = int(starts[-1])
    xp = current_xp()
    metas = [h.metadata for h in handles]
    fields = [_plan(name, schema.field(name).type, metas, footers, xp) for name in names]
    slab = _Slab(fields, n, xp)
    decoded: list[Any] = [None] * len(units)

    local = threading.local()  # a ParquetFile is not safe to share between threads: one per thread

    def decode(k: int) -> None:
        h, i = units[k]
        opened = local.__dict__.setdefault("files", {})
        if id(h) not in opened:
            opened[id(h)] = pq.ParquetFile(files[handles.index(h)], metadata=h.metadata)
        table = opened[id(h)].read_row_group(i, columns=names, use_threads=False)
        slab.fill(table, int(starts[k]))
        decoded[k] = table

    with ThreadPoolExecutor(_THREADS) as pool:
        for k, done in enumerate([pool.submit(decode, k) for k in range(len(units))]):
            done.result()
            slab.upload(int(starts[k]), int(starts[k + 1]))
    slab.wait()
    out = {}
    for j, f in enumerate(fields):
        chunks = [t.column(j) for t in decoded]
        if f.kind == "fixed":
            out[f.name] = f.template._rebuild(slab.device[f.name], None)
        elif f.kind == "dict":
            out[f.name] = _categorical(slab.device[f.name], chunks, schema.field(f.name).type)
        else:
            combined = pa.chunked_array([c for chunk in chunks for c in chunk.chunks], type=chunks[0].type)
            out[f.name] = convert(f.name, combined)
    return out, n


def open_files(files: list[str], columns: list | None) -> tuple[list, Any, list] | None:
    """(ParquetFile per file, the shared Arrow schema, the column names to read), or None when the
    files' schemas differ or a column is missing (the dataset path handles those)."""
    import pyarrow.parquet as pq

    handles = [pq.ParquetFile(f) for f in files]
    schema = handles[0].schema_arrow
    if any(not h.schema_arrow.equals(schema) for h in handles[1:]):
        return None
    names = list(schema.names) if columns is None else list(columns)
    if any(name not in schema.names for name in names):
        return None
    return handles, schema, names


def _plan(name: str, t: Any, metas: list, footers: list, xp: Any) -> _Field:
    from ember.column import from_arrow
    from ember.io.parquet_footer import no_nulls

    if not no_nulls(name, metas, footers):
        return _Field(name, "host", None, None)
    if pa.types.is_dictionary(t) and pa.types.is_integer(t.index_type):
        return _Field(name, "dict", np.dtype(np.int32), None)
    fixed = (
        pa.types.is_integer(t)
        or pa.types.is_boolean(t)
        or (pa.types.is_floating(t) and t.bit_width >= 32)
        or pa.types.is_timestamp(t)
        or pa.types.is_duration(t)
    )
    if not fixed:
        return _Field(name, "host", None, None)
    template = from_arrow(pa.array([], type=t), xp)
    return _Field(name, "fixed", np.dtype(template.data.dtype), template)


class _Slab:
    """One host buffer for the fixed-width columns (pinned on the GPU backend), and their arrays on the
    compute device (on the CPU backend the same steps run with host arrays: the tests' path)."""

    def __init__(self, fields: list[_Field], n: int, xp: Any) -> None:
        self.fields = [f for f in fields if f.kind != "host"]
        self.offsets, total = {}, 0
        for f in self.fields:
            self.offsets[f.name] = total
            total += -(-n * f.dtype.itemsize // 64) * 64  # each column 64-byte aligned
        total = max(total, 1)
        self.stream = None
        if xp is np:
            self.host = np.empty(total, np.uint8)
        else:
            from ember.backend.device import cupy_module

            cp = cupy_module()
            self.memory = cp.cuda.alloc_pinned_memory(total)
            self.host = np.frombuffer(self.memory, np.uint8, total)
            self.stream = cp.cuda.Stream(non_blocking=True)
        self.device = {f.name: xp.empty(n, dtype=f.dtype) for f in self.fields}

    def _view(self, f: _Field, start: int, stop: int) -> np.ndarray:
        base = self.offsets[f.name] + start * f.dtype.itemsize
        return self.host[base : base + (stop - start) * f.dtype.itemsize].view(f.dtype)

    def fill(self, table: Any, start: int) -> None:
        """Copy a decoded row group's fixed-width columns into the slab (a worker thread's part)."""
        for f in self.fields:
            col = table.column(f.name)
            out = self._view(f, start, start + len(col))
            at = 0
            for chunk in col.chunks:
                values = chunk.indices if f.kind == "dict" else chunk
                if pa.types.is_timestamp(values.type) or pa.types.is_duration(values.type):
                    values = values.view(pa.int64())
                host = values.to_numpy(zero_copy_only=False)
                out[at : at + len(host)] = host  # casts dictionary indices to int32
                at += len(host)

    def upload(self, start: int, stop: int) -> None:
        """Copies of rows [start, stop) of every slab column to the device (asynchronous there)."""
        for f in self.fields:
            if self.stream is None:
                self.device[f.name][start:stop] = self._view(f, start, stop)
            else:
                self.device[f.name][start:stop].set(self._view(f, start, stop), stream=self.stream)

    def wait(self) -> None:
        if self.stream is not None:
            self.stream.synchronize()


def _categorical(codes: Any, chunks: list, t: Any) -> Any:
    """A categorical from the row groups' codes (on the device) and their Arrow dictionary chunks."""
    parts = [c for chunk in chunks for c in chunk.chunks]
    return categorical_from_parts(codes, [c.dictionary for c in parts], [len(c) for c in parts], t)


def categorical_from_parts(codes: Any, dictionaries: list, rows: list[int], t: Any) -> Any:
    """A categorical from codes laid end to end (device or host; -1 for a missing value) and each
    part's dictionary: the dictionaries unified in Arrow's order (the first one, then each later one's
    new values), and the codes of each part whose dictionary is not the union's prefix mapped through
    its positions in the union (each distinct dictionary looked up once, one small gather per such
    part)."""
    import pyarrow.compute as pc

    from ember.backend import asarray_on
    from ember.column import CategoricalColumn, from_arrow

    xp = _xp(codes)
    if not dictionaries:
        return CategoricalColumn(codes, from_arrow(pa.array([], t.value_type), xp), t.ordered)
    if all(d.equals(dictionaries[0]) for d in dictionaries[1:]):  # pandas' writes: one dictionary
        return CategoricalColumn(codes, from_arrow(dictionaries[0], xp), t.ordered)
    distinct = _distinct_dictionaries(dictionaries)
    unified = pc.unique(pa.concat_arrays(distinct))
    maps: dict[int, Any] = {}
    at = 0
    for d, n in zip(dictionaries, rows):
        key = next(i for i, e in enumerate(distinct) if e is d or e.equals(d))
        if key not in maps:
            where = pc.index_in(distinct[key], value_set=unified).to_numpy(zero_copy_only=False)
            identity = np.array_equal(where, np.arange(len(where)))
            maps[key] = None if identity else asarray_on(where.astype(np.int32), xp)
        if maps[key] is not None:
            part = codes[at : at + n]
            part[...] = xp.where(part >= 0, maps[key][xp.maximum(part, 0)], part)  # -1: missing
        at += n
    return CategoricalColumn(codes, from_arrow(unified, xp), t.ordered)


def _distinct_dictionaries(dictionaries: list) -> list:
    """The dictionaries in first-seen order, each once (compared with the previous distinct ones: a
    file's row groups repeat its dictionary, so the list stays as short as the files)."""
    distinct: list = []
    for d in dictionaries:
        if not any(d is e or d.equals(e) for e in distinct):
            distinct.append(d)
    return distinct


def _xp(a: Any) -> Any:
    from ember.backend import array_module

    return array_module(a)

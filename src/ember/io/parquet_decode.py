"""Local Parquet files decoded on the compute device by ember's page kernels: ``read_parquet``'s
decoder on the GPU (and ``engine="ember"`` on either backend).

The files' bytes go to the device as they are (``backend.files.read_ranges``: threads, pinned pieces,
copies overlapping the reads); there, in one launch each over every page of every column
(``backend.kernels.parquet``), the page headers are walked into a page table, the pages decompressed
(snappy or none) and the dictionary indices and definition levels decoded; PLAIN pages are copied
into place. The host reads the footers (``parquet_footer``), each chunk's dictionary page (one header
and one decompression per chunk, on a thread pool) and the small page table (to pick each page's
kernel). Pages of zstd and raw LZ4 are decompressed on the device by NVIDIA nvCOMP when it is
installed (``backend.nvcomp``, one batched call per codec: ``_inflate_on_device``); the host
decompresses the pages of the other codecs (gzip, brotli, Hadoop LZ4; and zstd without nvCOMP:
``_inflate``, in runs that go up through pinned buffers while later runs decompress). It never
builds the decoded frame.

Columns it decodes, flat, with or without nulls, of any of those codecs: ints of every width (signed
or not), float32 / float64, booleans, timestamps and durations stored as int64 ticks in their Arrow
unit, dates (date32), categoricals (strings from dictionary pages) and string columns (dictionary
and PLAIN pages, packed by one gather on the device). Any other column (other types, LZO,
DELTA_* encodings, PLAIN pages of a categorical) is read as the default engine reads it (pyarrow's
decode, ``parquet_device``). On the CPU
backend the same steps run in their NumPy references, page by page: the engine is meant for the GPU.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, wait
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ember.backend.kernels import parquet as kernels
from ember.backend.kernels.parquet import (
    DATA_PAGE,
    DATA_PAGE_V2,
    DICTIONARY_PAGE,
    INDEX_PAGE,
    PLAIN,
    PLAIN_DICTIONARY,
    ParquetPageError,
)
from ember.backend.pools import shared_pool
from ember.io.parquet_pages import decompress_into, page_decompressor, zstd_frames_say
from ember.io.parquet_values import PHYSICAL_DTYPE, ColumnPlan, Decoded, column_values

_THREADS = min(16, os.cpu_count() or 1)
_PHYSICAL = {"INT32": pa.int32(), "INT64": pa.int64(), "FLOAT": pa.float32(), "DOUBLE": pa.float64()}
_CODECS = {"SNAPPY": kernels.CODEC_SNAPPY, "UNCOMPRESSED": kernels.CODEC_NONE}  # decompressed on the device
_HOST_CODECS = ("GZIP", "ZSTD", "BROTLI", "LZ4", "LZ4_RAW")  # decompressed on the host, page by page
_MAX_EXPANSION = 32


class _Chunk(NamedTuple):
    column: int  # index into the decoded columns
    file: int
    dictionary_at: int  # file offset of the dictionary page, or -1
    data_at: int  # file offset of the first data page
    end: int  # file offset past the chunk
    codec: str  # the footer's name: SNAPPY / UNCOMPRESSED on the device, _HOST_CODECS on the host
    uncompressed: int  # the chunk's uncompressed bytes (the footer's): its pages decompress to no more
    rows: int
    where: str  # for errors: "row group i of column c"


def read_files_decoded(files: list[str], columns: list | None, convert: Any) -> tuple[dict, int] | None:
    """({field name: Column}, rows) of local Parquet files, or None when their schemas differ or a
    column is missing. Columns the page kernels do not decode are read as the default engine reads
    them (``parquet_device.read_files_to_device``; ``convert(name, chunked_array)`` for those it
    cannot carry either)."""
    from ember.backend import xp as current_xp
    from ember.io.parquet_device import open_files, read_files_to_device
    from ember.io.parquet_footer import read_footer

    opened = open_files(files, columns)
    if opened is None:
        return None
    handles, schema, names = opened
    metas = [h.metadata for h in handles]
    footers = [read_footer(path) for path in files]  # not pyarrow's per-chunk metadata: it can abort
    n = sum(footer.num_rows for footer in footers)
    covered = [
        c for name in names if (c := _column(name, schema.field(name).type, metas, footers)) is not None
    ]
    covered = [
        c
        for c in covered
        if all(
            g[c.leaf].codec in _CODECS or g[c.leaf].codec in _HOST_CODECS for fo in footers for g in fo.chunks
        )
    ]
    chunks = [
        _chunk(k, c, f, footer, i)
        for k, c in enumerate(covered)
        for f, footer in enumerate(footers)
        for i in range(len(footer.group_rows))
        if footer.group_rows[i]  # an empty row group has nothing to decode
    ]
    out = _decode(files, covered, chunks, n, current_xp()) if chunks else {}
    left = [name for name in names if name not in out]
    if left:
        out.update(read_files_to_device(files, left, convert, footers)[0])
    return {name: out[name] for name in names}, n


def _column(name: str, t: Any, metas: list, footers: list) -> ColumnPlan | None:
    """The column's decoding facts, or None when this decoder does not cover it."""
    from ember.io.parquet_footer import leaf_index, no_nulls

    j = leaf_index(metas[0], name)
    if j is None:
        return None
    descr = metas[0].schema.column(j)
    if descr.max_repetition_level or descr.max_definition_level > 1:
        return None
    text = descr.physical_type == "BYTE_ARRAY" and _is_text(_string_type(t))
    if not text and not _stored_as_is(descr, t):
        return None
    nulls = bool(descr.max_definition_level) and not no_nulls(name, metas, footers)
    return ColumnPlan(name, t, j, descr.physical_type, descr.max_definition_level, nulls)


_UNITS = {"milliseconds": "ms", "microseconds": "us", "nanoseconds": "ns"}


def _string_type(t: Any) -> Any:
    """The Arrow type of a string column's values: a categorical's value type, or the type itself."""
    return t.value_type if pa.types.is_dictionary(t) else t


def _is_text(t: Any) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t)


def _stored_as_is(descr: Any, t: Any) -> bool:
    """Whether the column's physical values carry its Arrow values: the same int / float type; int64
    ticks of a timestamp in the Arrow type's unit, or of a duration (pyarrow stores it in its unit);
    narrower or unsigned ints held in int32 / int64 (``_finish`` casts them); date32 days."""
    if _PHYSICAL.get(descr.physical_type) == t:
        return True
    if descr.physical_type == "BOOLEAN":
        return pa.types.is_boolean(t)
    if descr.physical_type not in ("INT32", "INT64"):
        return False
    import json

    logical = json.loads(descr.logical_type.to_json())
    kind = logical.get("Type")
    if pa.types.is_integer(t):
        wide = 64 if descr.physical_type == "INT64" else 32
        return kind == "Int" and logical.get("bitWidth") == t.bit_width and t.bit_width <= wide
    if descr.physical_type == "INT32":
        return pa.types.is_date32(t) and kind == "Date"
    if pa.types.is_timestamp(t):
        return kind == "Timestamp" and _UNITS.get(logical.get("timeUnit")) == t.unit
    return pa.types.is_duration(t) and kind == "None"


def _chunk(k: int, c: ColumnPlan, f: int, footer: Any, i: int) -> _Chunk:
    facts = footer.chunks[i][c.leaf]
    end = facts.start + facts.size
    where = f"row group {i} of column {c.name!r}"
    return _Chunk(
        k,
        f,
        facts.dictionary_at,
        facts.data_at,
        end,
        facts.codec,
        facts.uncompressed,
        footer.group_rows[i],
        where,
    )


def _decode(files: list[str], columns: list[ColumnPlan], chunks: list[_Chunk], n: int, xp: Any) -> dict:
    """{name: Column} of the covered columns: bytes up, pages walked, decompressed and decoded."""
    from ember.backend import asarray_on
    from ember.backend.arrays import upload

    # the file's bytes first: dictionary threads started beside the reading ones hold the GIL in
    # their Python and delay the copies (measured on the GPU host: the read took 22 ms instead of 8
    # and began 9 ms late); the dictionary pages are then decoded while the device walks and
    # decompresses the pages
    buf, base = _read_files(files, chunks, xp)
    once = _Once()
    pool = shared_pool("parquet-dictionaries", _THREADS)
    # the longest dictionary pages first: the pool's last tasks are then short ones
    page_bytes = [ch.data_at - ch.dictionary_at if ch.dictionary_at >= 0 else 0 for ch in chunks]
    longest_first = sorted(range(len(chunks)), key=lambda i: -page_bytes[i])
    on_host: list = [None] * len(chunks)
    for i in longest_first:
        ch = chunks[i]
        on_host[i] = pool.submit(_dictionary, files[ch.file], ch, columns[ch.column], once)
    try:
        pages, data, out_at, values_at, values_end, error = _decompressed(
            files, columns, chunks, buf, base, xp
        )
        dictionaries = [_settled(future.result()) for future in on_host]
    finally:
        wait(on_host)  # none left running after an error: the next read's would queue behind them
    lookups, (packed, packed_at) = _lookups(columns, chunks, pages, dictionaries, xp)
    # every page's lookup facts, and the fixed-width dictionaries: one copy each
    decoded = Decoded(
        pages,
        data,
        out_at,
        values_at,
        values_end,
        lookups,
        asarray_on(lookups, xp),
        (upload(packed, xp), packed_at),  # `packed` stays alive until the sync below
        error,
    )
    out = {}
    for k, c in enumerate(columns):
        dicts = [d for d, ch in zip(dictionaries, chunks) if ch.column == k]
        rows = [ch.rows for ch in chunks if ch.column == k]
        try:
            out[c.name] = column_values(k, c, decoded, dicts, rows, n, xp)
        except NotImplementedError:  # pages of an encoding the kernels do not decode: read as by default
            continue
    kernels.check_error(error)
    return out


def _decompressed(
    files: list[str], columns: list[ColumnPlan], chunks: list[_Chunk], buf: Any, base: np.ndarray, xp: Any
) -> tuple:
    """(page table, decompressed bytes, page starts, values starts, page ends, error flag): the chunks'
    page headers walked in their bytes (``buf``, ``base``: ``_read_files``) and their pages
    decompressed on the device (snappy or none; other codecs by nvCOMP there, ``_inflate_on_device``,
    or on the host, ``_inflate``, and copied up)."""
    at = base + np.array([ch.data_at for ch in chunks], dtype=np.int64)
    end = base + np.array([ch.end for ch in chunks], dtype=np.int64)
    table, chunk_of = kernels.walk_pages(buf, at, end)
    pages = _pages(table, chunk_of, chunks, len(columns))
    f = _page_fields(pages)
    codec = np.array([_CODECS.get(ch.codec, kernels.CODEC_NONE) for ch in chunks], dtype=np.int32)
    codec = codec[pages["chunk"]]
    raw = (f["kind"] == DATA_PAGE_V2) & (f["compressed"] == 0)  # a v2 page stored uncompressed
    codec[raw] = kernels.CODEC_NONE
    table = pages["table"]
    error = xp.zeros(1, dtype=np.int32)
    inflate = np.array([ch.codec in _HOST_CODECS for ch in chunks], dtype=bool)[pages["chunk"]] & ~raw
    if inflate.any():  # their decompressed bytes go after the file's: the device then copies them
        table = table.copy()
        parts = [buf]
        for which, on_gpu in _inflaters(chunks, pages, inflate, buf):
            if on_gpu:
                inflated, inflated_at = _inflate_on_device(buf, chunks, pages, which, xp, error)
            else:
                inflated, inflated_at = _inflate(files, chunks, base, pages, which, xp)
            table[kernels.PAGE_FIELDS.index("in_at"), which] = (
                sum(int(b.shape[0]) for b in parts) + inflated_at
            )
            table[kernels.PAGE_FIELDS.index("in_size"), which] = f["out_size"][which]
            parts.append(inflated)
        buf = xp.concatenate(parts)
    max_def = np.array([columns[ch.column].max_def for ch in chunks])[pages["chunk"]]
    level_kind = np.where(f["kind"] == DATA_PAGE_V2, 2, np.where(max_def > 0, 1, 0))
    out_at = np.concatenate([[0], np.cumsum(f["out_size"])[:-1]]).astype(np.int64)
    data, values_at, values_end = kernels.decompress_pages(buf, table, codec, level_kind, out_at, error)
    return pages, data, out_at, values_at, values_end, error


def _page_fields(pages: dict, which: Any = slice(None)) -> dict:
    """{page table field: its values} of the pages ``which`` (all by default)."""
    return {name: pages["table"][k][which] for k, name in enumerate(kernels.PAGE_FIELDS)}


def _inflaters(
    chunks: list[_Chunk], pages: dict, inflate: np.ndarray, buf: Any
) -> list[tuple[np.ndarray, bool]]:
    """(pages, on the GPU or not) for the pages of host codecs: those nvCOMP decompresses on the GPU when it is
    installed (``backend.nvcomp``: zstd, raw LZ4), the rest on the host. A zstd page goes to nvCOMP
    only when its frame header is intact and records the page's size (nvCOMP does not check the
    header: garbage there faults the device); any other page is left to the host's decompressor,
    which reads it or names what is wrong."""
    from ember.backend import nvcomp

    names = np.array([ch.codec for ch in chunks])[pages["chunk"]]
    on_gpu = inflate & np.isin(names, sorted(nvcomp.device_codecs()))
    zstd = np.flatnonzero(on_gpu & (names == "ZSTD"))
    if len(zstd):
        on_gpu[zstd[~_zstd_headers_intact(buf, pages, zstd)]] = False
    steps = [(np.flatnonzero(on_gpu), True), (np.flatnonzero(inflate & ~on_gpu), False)]
    return [(which, gpu) for which, gpu in steps if len(which)]


def _zstd_headers_intact(buf: Any, pages: dict, which: np.ndarray) -> np.ndarray:
    """Host bool per page of ``which``: its zstd frame header says the page's decompressed size
    (``parquet_pages.zstd_frames_say`` on each page's first 18 bytes, gathered in one copy)."""
    from ember.backend import to_host
    from ember.backend.arrays import array_module

    f = _page_fields(pages, which)
    start = f["in_at"] + f["levels"]
    places = np.minimum(start[:, None] + np.arange(18), int(buf.shape[0]) - 1)
    heads = to_host(buf[array_module(buf).asarray(places)])
    return zstd_frames_say(heads, f["in_size"] - f["levels"], f["out_size"] - f["levels"])


def _inflate_on_device(
    buf: Any, chunks: list[_Chunk], pages: dict, which: np.ndarray, xp: Any, error: Any
) -> tuple:
    """(bytes on the device, each page's place in them) of pages ``which`` decompressed by nvCOMP
    from the file's bytes already on the device, one batched call per codec. Each page's compressed
    body lands where nvCOMP's alignment wants it; a v2 page's level bytes (stored as they are) are
    copied just before it."""
    from ember.backend import nvcomp

    f = _page_fields(pages, which)
    names = np.array([chunks[c].codec for c in pages["chunk"][which]])
    align = max(nvcomp.output_alignment(codec) for codec in set(names.tolist()))
    levels, size = f["levels"], f["out_size"]
    if (levels > size).any() or (levels > f["in_size"]).any():
        raise ParquetPageError("a page header's level sizes are corrupt")
    ahead = -(-levels // align) * align  # room for the level bytes, the body then starts aligned
    slot = ahead + -(-(size - levels) // align) * align
    body_at = np.concatenate([[0], np.cumsum(slot)[:-1]]).astype(np.int64) + ahead
    inflated = xp.empty(int(slot.sum()) + align, dtype=np.uint8)
    for codec in sorted(set(names.tolist())):
        mine = names == codec
        nvcomp.decompress(
            codec, buf, (f["in_at"] + levels)[mine], (f["in_size"] - levels)[mine], inflated, body_at[mine],
            (size - levels)[mine], error,
        )  # fmt: skip
    page_at = body_at - levels
    if levels.any():  # v2 pages: their few level bytes, one gather
        within = np.arange(int(levels.sum())) - np.repeat(np.cumsum(levels) - levels, levels)
        src, dst = (xp.asarray(np.repeat(at, levels) + within) for at in (f["in_at"], page_at))
        inflated[dst] = buf[src]
    return inflated, page_at


def _inflate(
    files: list[str], chunks: list[_Chunk], base: np.ndarray, pages: dict, which: np.ndarray, xp: Any
) -> tuple:
    """(bytes on the device, each page's place in them) of pages ``which`` decompressed on the host by
    pyarrow's codecs (they release the GIL): ``backend.files.fill_pieces`` runs a pool of threads, each
    reading a run of a chunk's pages again in one read (the page cache has them) and decompressing
    them into a pinned buffer (``decompress_into``: one streaming decompressor per run) that goes up
    while later runs are decompressed; a v2 page's level bytes stay as they are. The per-page Python
    is kept short: it holds the GIL (4,554 pages in the benchmark file)."""
    from ember.backend.files import FILE_PIECE, fill_pieces

    f = _page_fields(pages, which)
    chunk = pages["chunk"][which]
    sizes = f["out_size"]
    inflated_at = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    runs = _runs(sizes, chunk, FILE_PIECE)  # (first, past the last) index into `which` of each piece
    body_at, in_size, size, levels, at = (
        v.tolist() for v in (f["in_at"] - base[chunk], f["in_size"], sizes, f["levels"], inflated_at)
    )
    fds = [os.open(path, os.O_RDONLY) for path in files]

    def one_run(i: int, out: np.ndarray) -> None:
        first, past = runs[i]
        ch = chunks[int(chunk[first])]
        start, stop = body_at[first], body_at[past - 1] + in_size[past - 1]
        raw = os.pread(fds[ch.file], stop - start, start)
        if len(raw) != stop - start:
            raise ParquetPageError(f"{ch.where}: the file ended while it was being read")
        view, mine = memoryview(raw), range(first, past)
        bodies = [view[body_at[p] - start + levels[p] : body_at[p] - start + in_size[p]] for p in mine]
        places = [(at[p] - at[first] + levels[p], size[p] - levels[p]) for p in mine]
        try:
            for p in mine:
                if levels[p]:
                    place = at[p] - at[first]
                    out[place : place + levels[p]] = np.frombuffer(
                        raw, np.uint8, levels[p], body_at[p] - start
                    )
            decompress_into(ch.codec, bodies, out, places)
        except (OSError, pa.ArrowException, ValueError):
            raise ParquetPageError(f"{ch.where}: a corrupt compressed page") from None

    inflated = xp.empty(int(sizes.sum()), dtype=np.uint8)
    try:
        fill_pieces(inflated, [(at[a], at[b - 1] + size[b - 1] - at[a]) for a, b in runs], one_run)
    finally:
        for fd in fds:
            os.close(fd)
    return inflated, inflated_at


def _runs(sizes: np.ndarray, chunk: np.ndarray, limit: int) -> list[tuple[int, int]]:
    """Runs of consecutive pages of one chunk whose ``sizes`` add up to no more than ``limit`` (a
    longer page alone)."""
    runs, first, total = [], 0, 0
    chunk = chunk.tolist()
    for i, size in enumerate(sizes.tolist()):
        if i > first and (total + size > limit or chunk[i] != chunk[first]):
            runs.append((first, i))
            first, total = i, 0
        total += size
    if len(sizes):
        runs.append((first, len(sizes)))
    return runs


_GAP = 1 << 20  # bytes between two chunks' data read through rather than starting another read


def _read_files(files: list[str], chunks: list[_Chunk], xp: Any) -> tuple[Any, np.ndarray]:
    """The chunks' data pages read into one buffer on the device, and for each chunk where its
    file's byte 0 would sit in that buffer. A file's chunks are read as ranges: neighbours less than
    ``_GAP`` apart share one, so a few columns of a wide file do not read the rest of it."""
    from ember.backend.files import read_ranges

    ranges = []  # (file, first byte, end, the chunks in it)
    for f in range(len(files)):
        mine = sorted((c for c, ch in enumerate(chunks) if ch.file == f), key=lambda c: chunks[c].data_at)
        for c in mine:
            ch = chunks[c]
            if ranges and ranges[-1][0] == f and ch.data_at - ranges[-1][2] <= _GAP:
                ranges[-1][2] = max(ranges[-1][2], ch.end)
                ranges[-1][3].append(c)
            else:
                ranges.append([f, ch.data_at, ch.end, [c]])
    buf = xp.empty(sum(b - a for _, a, b, _ in ranges) + 8, dtype=np.uint8)
    base = np.zeros(len(chunks), dtype=np.int64)
    places = np.concatenate([[0], np.cumsum([b - a for _, a, b, _ in ranges])[:-1]]).astype(np.int64)
    for (_, a, _, members), at in zip(ranges, places.tolist()):
        base[members] = at - a
    read_ranges([(files[f], a, b - a, at) for (f, a, b, _), at in zip(ranges, places.tolist())], buf)
    return buf, base


def _dictionary(path: str, ch: _Chunk, c: ColumnPlan, once: _Once) -> Any:
    """A chunk's dictionary page decoded on the host (NumPy values, or an Arrow array of strings), or
    None when the chunk has none. A string page whose bytes an earlier chunk of the column had (a
    pandas categorical's row groups repeat it) is decoded once (``once``, matched by the bytes; the
    other chunks get the Future of the thread decoding it).

    Dictionary pages stay off the device: one is a long page (up to a megabyte) and, when compressible
    (small integers, keys that share digits), made of many short snappy elements, which one warp can
    only take one after another (~0.5 us each: 80 ms for the id6 dictionary of the benchmark file)."""
    if ch.dictionary_at < 0:
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        raw = os.pread(fd, ch.data_at - ch.dictionary_at, ch.dictionary_at)
    finally:
        os.close(fd)
    if c.physical != "BYTE_ARRAY":
        return _decode_dictionary(raw, ch, c)
    return once.get(ch.column, raw, lambda: _decode_dictionary(raw, ch, c))


class _Once:
    """Values computed once per content by threads: the first to ask computes; the others get its
    Future at once instead of waiting for it (a pool thread blocked on another's dictionary would sit
    idle while pages are left to decode). Callers unwrap with ``_settled``.

    Contents are matched by comparing their bytes, among those of the same group, length and ends:
    not by hashing them, which holds the GIL ~10 ms for a 16 MB dictionary page (a million keys)
    against ~1.5 ms for the comparison."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[tuple, list[tuple[bytes, Future]]] = {}

    def get(self, group: Any, content: bytes, compute: Any) -> Any:
        near = (group, len(content), content[:64], content[-64:])
        with self._lock:
            same = self._seen.setdefault(near, [])
            future = next((f for seen, f in same if seen == content), None)
            mine = future is None
            if mine:
                future = Future()
                same.append((content, future))
        if not mine:
            return future
        try:
            future.set_result(compute())
        except BaseException as exc:
            future.set_exception(exc)
        return future.result()


def _settled(value: Any) -> Any:
    """A value ``_Once.get`` gave: itself, or what the thread computing it produced."""
    return value.result() if isinstance(value, Future) else value


def _decode_dictionary(raw: bytes, ch: _Chunk, c: ColumnPlan) -> Any:
    from ember.io.parquet_pages import plain_values

    table, _ = kernels.walk_pages(np.frombuffer(raw, np.uint8), np.array([0]), np.array([len(raw)]))
    fields = dict(zip(kernels.PAGE_FIELDS, table[:, 0])) if table.shape[1] == 1 else {}
    if fields.get("kind") != DICTIONARY_PAGE or fields.get("encoding") not in (PLAIN, PLAIN_DICTIONARY):
        raise ParquetPageError(f"{ch.where}: a corrupt or unsupported dictionary page")
    body: Any = memoryview(raw)[fields["in_at"] : fields["in_at"] + fields["in_size"]]
    try:
        body = page_decompressor(ch.codec)(body, int(fields["out_size"]))
    except (OSError, pa.ArrowException, ValueError):
        raise ParquetPageError(f"{ch.where}: a corrupt dictionary page") from None
    try:
        values = plain_values(body, c.physical, int(fields["num_values"]), copy=False)  # packed by _lookups
    except ValueError as exc:  # fewer bytes than values
        raise ParquetPageError(f"{ch.where}: a corrupt dictionary page ({exc})") from None
    if not isinstance(values, pa.Array):
        return values
    # a categorical's dictionary never repeats a value (pandas' categories cannot): a repeat comes
    # from corrupt bytes (zstd without its checksum inflates them silently). Checked here, on the
    # pool's thread, once per distinct dictionary, off the read's critical path
    if pa.types.is_dictionary(c.type) and _repeats(values):
        raise ParquetPageError(f"{ch.where}: a categorical's dictionary repeats a value")
    return values.cast(_string_type(c.type))


def _repeats(values: pa.Array) -> bool:
    """Whether an Arrow array repeats a value. Strictly increasing values do not (pandas' categories
    of strings are sorted unless the user ordered them): one comparison of neighbours, ~15x faster
    than hashing every value (115 ms for a million keys on the CI box); others are hashed."""
    if len(values) < 2 or pc.all(pc.less(values[:-1], values[1:])).as_py():
        return False
    return len(pc.unique(values)) != len(values)


def _pages(table: np.ndarray, chunk_of: np.ndarray, chunks: list[_Chunk], columns: int) -> dict:
    """A page table without its index pages, with each page's chunk, column, first row in its column
    and its chunk's rank among the column's; checks that only data pages follow a chunk's dictionary
    page and that they hold the chunk's row count."""
    keep = table[0] != INDEX_PAGE
    table, chunk_of = table[:, keep], chunk_of[keep]
    allowed = np.isin(table[0], (DATA_PAGE, DATA_PAGE_V2))
    if not allowed.all():
        raise ParquetPageError(f"{chunks[int(chunk_of[~allowed][0])].where}: a page of an unexpected type")
    # page sizes size the decompression buffers: a header claiming more than its chunk's uncompressed
    # total (the footer's), or than snappy can expand (~21x: a 3-byte copy of 64 bytes), is corrupt
    fields = dict(zip(kernels.PAGE_FIELDS, table))
    on_device = np.array([ch.codec in _CODECS for ch in chunks], dtype=bool)[chunk_of]
    too_big = on_device & (fields["out_size"] > fields["in_size"] * _MAX_EXPANSION + 64)
    out_per_chunk = np.bincount(chunk_of, weights=fields["out_size"], minlength=len(chunks))
    too_big |= (out_per_chunk > np.array([ch.uncompressed for ch in chunks]))[chunk_of]
    if too_big.any():
        raise ParquetPageError(
            f"{chunks[int(chunk_of[too_big][0])].where}: a page header's sizes are corrupt"
        )
    values = table[kernels.PAGE_FIELDS.index("num_values")]
    got = np.bincount(chunk_of, weights=values, minlength=len(chunks))
    for c, ch in enumerate(chunks):
        if got[c] != ch.rows:
            raise ParquetPageError(f"{ch.where}: its pages hold {int(got[c])} values for {ch.rows} rows")
    column = np.array([ch.column for ch in chunks], dtype=np.int64)[chunk_of]
    row = np.zeros(len(values), dtype=np.int64)  # first row of each page within its column
    rank = np.zeros(len(values), dtype=np.int64)
    for k in np.unique(column):
        mine = np.flatnonzero(column == k)
        row[mine] = np.concatenate([[0], np.cumsum(values[mine])[:-1]])
        rank[mine] = np.unique(chunk_of[mine], return_inverse=True)[1]
    # grouped by column, its dictionary-encoded pages before its PLAIN ones: each kernel's pages are
    # then one contiguous slice of every per-page array
    group = column * 2 + (table[kernels.PAGE_FIELDS.index("encoding")] == PLAIN)
    order = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[order], np.arange(2 * columns + 1))
    pages = {"table": table, "chunk": chunk_of, "column": column, "row": row, "rank": rank}
    return {key: (v[:, order] if v.ndim == 2 else v[order]) for key, v in pages.items()} | {"bounds": bounds}


def _lookups(
    columns: list[ColumnPlan], chunks: list[_Chunk], pages: dict, dictionaries: list, xp: Any
) -> tuple:
    """(per-page int64 rows: values, first row, dictionary base, dictionary size; the fixed-width
    columns' dictionaries packed in one byte buffer, each column's at an 8-byte aligned place, and
    where). A page's dictionary base is its chunk's dictionary's place among its column's
    (categoricals: 0, each chunk's codes index its own dictionary)."""
    from ember.backend.arrays import host_buffer

    sizes = np.array([0 if d is None else len(d) for d in dictionaries], dtype=np.int64)
    base = np.zeros(len(chunks), dtype=np.int64)
    packed_at, at = {}, 0
    for k, c in enumerate(columns):
        mine = [i for i, ch in enumerate(chunks) if ch.column == k]
        if not pa.types.is_dictionary(c.type):  # codes index the column's dictionaries end to end
            base[mine] = np.concatenate([[0], np.cumsum(sizes[mine])[:-1]])
        if c.physical != "BYTE_ARRAY":
            packed_at[k] = at
            at += -(-int(sizes[mine].sum()) * PHYSICAL_DTYPE[c.physical].itemsize // 8) * 8
    packed = host_buffer(max(at, 8), xp)  # pinned on the GPU: no first-touch faults, an async copy
    filled = 0
    for i, (d, ch) in enumerate(zip(dictionaries, chunks)):
        if d is not None and ch.column in packed_at:
            start = packed_at[ch.column] + int(base[i]) * d.itemsize
            packed[filled:start] = 0  # alignment padding (dictionaries are packed in order)
            packed[start : start + d.nbytes] = d.view(np.uint8)
            filled = start + d.nbytes
    packed[filled:] = 0
    chunk = pages["chunk"]
    count = pages["table"][kernels.PAGE_FIELDS.index("num_values")]
    return np.stack([count, pages["row"], base[chunk], sizes[chunk]]), (packed, packed_at)

"""Launchers of the Parquet page kernels in ``parquet.cu``, each with its NumPy reference.

The steps of decoding column chunks whose bytes sit in one buffer: ``walk_pages`` reads every chunk's
page headers into a page table, ``decompress_pages`` decompresses every page into one buffer (snappy or
none), ``rle_indices`` decodes the dictionary indices (and definition levels) of every page,
``plain_copy`` puts PLAIN fixed-width values into place and ``byte_array_spans`` finds PLAIN byte
arrays. On device arrays each is one launch over all
pages; on host arrays the reference runs page by page (``ThriftReader``, pyarrow's snappy,
``decode_hybrid``). Kernels that run back to back share an ``error`` flag checked once
(``check_error``): corrupt data raises ``ParquetPageError``, never a crash or a read past a page.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ember.backend.arrays import is_device_array

_THREADS = 256


class ParquetPageError(ValueError):
    """A page is corrupt: a header, compressed data, RLE / bit-packed runs or values past its end."""


# the page table's rows (``walk_pages``): one column per data page
PAGE_FIELDS = ("kind", "encoding", "num_values", "in_at", "in_size", "out_size", "levels", "compressed")
CODEC_NONE, CODEC_SNAPPY = 0, 1
# Parquet's page types and encodings, as the page table holds them
DATA_PAGE, INDEX_PAGE, DICTIONARY_PAGE, DATA_PAGE_V2 = 0, 1, 2, 3
PLAIN, PLAIN_DICTIONARY, RLE, RLE_DICTIONARY = 0, 2, 3, 8
_WHY = {
    1: "corrupt RLE / bit-packed data (a run past the page data)",
    2: "corrupt RLE / bit-packed data (a bit width above 32)",
    3: "corrupt data (an index past the dictionary)",
    10: "a corrupt page header (or a page past its column chunk)",
    11: "corrupt compressed data",
    12: "PLAIN values past the end of their page",
}
# Thrift compact protocol type codes
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(13)


@functools.cache
def _module() -> Any:
    from ember.backend.device import cupy_module

    path = os.path.join(os.path.dirname(__file__), "parquet.cu")
    with open(path, encoding="utf-8") as f:
        return cupy_module().RawModule(code=f.read())


def decode_hybrid(data: bytes, bit_width: int, count: int, pos: int = 0) -> np.ndarray:
    """``count`` values (uint32) of the RLE / bit-packed hybrid encoding starting at ``pos``: runs of one
    repeated value, and groups of 8 values packed ``bit_width`` bits each, least significant first."""
    out = np.zeros(count, dtype=np.uint32)
    if bit_width == 0:
        return out
    width_bytes = (bit_width + 7) // 8
    done, at = 0, pos
    while done < count:
        header, at = _varint(data, at)
        if header >> 1 == 0:
            raise ValueError("an empty run")
        if header & 1:  # bit-packed: (header >> 1) groups of 8 values
            n = (header >> 1) * 8
            nbytes = (header >> 1) * bit_width
            if at + nbytes > len(data):
                raise ValueError("a bit-packed run past the page data")
            raw = np.frombuffer(data, np.uint8, nbytes, at)
            at += nbytes
            bits = np.unpackbits(raw, bitorder="little").reshape(-1, bit_width).astype(np.uint32)
            values = (bits << np.arange(bit_width, dtype=np.uint32)).sum(axis=1, dtype=np.uint32)
            take = min(n, count - done)
            out[done : done + take] = values[:take]
        else:  # a run of one value
            n = header >> 1
            if at + width_bytes > len(data):
                raise ValueError("a run past the page data")
            value = int.from_bytes(data[at : at + width_bytes], "little")
            at += width_bytes
            take = min(n, count - done)
            out[done : done + take] = value
        done += take
    return out


def _varint(data: bytes, at: int) -> tuple[int, int]:
    out, shift = 0, 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("a run header past the page data")
        b = data[at]
        at += 1
        out |= (b & 0x7F) << shift
        if b < 0x80:
            return out, at
        shift += 7


class ThriftReader:
    """Thrift compact protocol over a bytes buffer: structs become {field id: value} dicts. Byte reads
    are inlined in the hot paths (a footer holds tens of thousands of fields: 3 ms -> ~1.5 ms for the
    benchmark file's on the CI box)."""

    def __init__(self, buf: bytes, pos: int = 0) -> None:
        self.buf, self.pos, self.end = buf, pos, len(buf)

    def _past_end(self) -> ParquetPageError:
        return ParquetPageError("Parquet page header runs past the end of the column chunk")

    def byte(self) -> int:
        if self.pos >= self.end:
            raise self._past_end()
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        buf, pos, end = self.buf, self.pos, self.end
        out, shift = 0, 0
        while True:
            if pos >= end:
                raise self._past_end()
            b = buf[pos]
            pos += 1
            out |= (b & 0x7F) << shift
            if b < 0x80:
                self.pos = pos
                return out
            shift += 7
            if shift > 70:
                raise ParquetPageError("Parquet page header: malformed varint")

    def zigzag(self) -> int:
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def value(self, kind: int) -> Any:
        if kind in (_I16, _I32, _I64):
            v = self.varint()
            return (v >> 1) ^ -(v & 1)
        if kind in (_TRUE, _FALSE):
            return kind == _TRUE
        if kind == _BINARY:
            n = self.varint()
            if self.pos + n > self.end:
                raise self._past_end()
            self.pos += n
            return bytes(self.buf[self.pos - n : self.pos])
        if kind == _STRUCT:
            return self.struct()
        if kind == _BYTE:
            return self.byte()
        if kind == _DOUBLE:
            if self.pos + 8 > self.end:
                raise self._past_end()
            self.pos += 8
            return float(np.frombuffer(self.buf, "<f8", 1, self.pos - 8)[0])
        if kind in (_LIST, _SET):
            head = self.byte()
            n, elem = head >> 4, head & 0x0F
            if n == 15:
                n = self.varint()
            if elem in (_TRUE, _FALSE):
                return [self.byte() == 1 for _ in range(n)]
            return [self.value(elem) for _ in range(n)]
        if kind == _MAP:
            n = self.varint()
            types = self.byte() if n else 0
            return {self.value(types >> 4): self.value(types & 0x0F) for _ in range(n)}
        raise ParquetPageError(f"Parquet page header: unknown Thrift type {kind}")

    def struct(self) -> dict[int, Any]:
        out: dict[int, Any] = {}
        last = 0
        buf, end = self.buf, self.end
        while True:
            if self.pos >= end:
                raise self._past_end()
            head = buf[self.pos]
            self.pos += 1
            kind = head & 0x0F
            if kind == _STOP:
                return out
            delta = head >> 4
            last = last + delta if delta else self.zigzag()
            out[last] = self.value(kind)


def walk_pages(buf: Any, chunk_at: np.ndarray, chunk_end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(page table, the chunk of each page) of column chunks at ``[chunk_at[c], chunk_end[c])`` of
    ``buf``: a host int64 array of ``PAGE_FIELDS`` rows, one column per page in chunk order (``in_at``:
    where the page's bytes start in ``buf``; ``levels``: a v2 page's level bytes; ``compressed``: v2's
    flag, 1 for v1; a page type the header does not give reads -1). Synchronizes twice on the device
    (the page counts, then the table)."""
    chunk_at, chunk_end = (np.asarray(a, dtype=np.int64) for a in (chunk_at, chunk_end))
    if not is_device_array(buf):
        rows = []
        chunk_of = []
        raw = memoryview(np.ascontiguousarray(buf, dtype=np.uint8))
        for c, (at, end) in enumerate(zip(chunk_at.tolist(), chunk_end.tolist())):
            while at < end:
                fields, at = _header_fields(raw[:end], at)  # a view: no copy
                rows.append(fields)
                chunk_of.append(c)
        table = np.array(rows, dtype=np.int64).reshape(-1, len(PAGE_FIELDS)).T.copy()
        return table, np.asarray(chunk_of, dtype=np.int64)
    from ember.backend.device import cupy_module

    cp = cupy_module()
    walk = _module().get_function("ember_parquet_page_walk")
    chunks = len(chunk_at)
    at, end = cp.asarray(chunk_at), cp.asarray(chunk_end)
    counts = cp.zeros(max(chunks, 1), dtype=np.int64)
    error = cp.zeros(1, dtype=np.int32)
    grid = ((chunks + 63) // 64,)
    if chunks:
        null = np.uint64(0)  # a null pointer: the counting pass
        walk(grid, (64,), (buf, at, end, np.int32(chunks), null, counts, null, np.int64(0), error))
    check_error(error)
    per_chunk = counts[:chunks].get()
    total = int(per_chunk.sum())
    first = np.concatenate([[0], np.cumsum(per_chunk)[:-1]]).astype(np.int64)
    table = cp.zeros((len(PAGE_FIELDS), total), dtype=np.int64)
    if total:
        walk(
            grid,
            (64,),
            (buf, at, end, np.int32(chunks), cp.asarray(first), counts, table, np.int64(total), error),
        )
    check_error(error)
    return table.get(), np.repeat(np.arange(chunks, dtype=np.int64), per_chunk)


def _header_fields(raw: memoryview, at: int) -> tuple[list[int], int]:
    """``PAGE_FIELDS`` of the page header at ``raw[at]``, and where the next page starts."""
    try:
        reader = ThriftReader(raw, at)
        header = reader.struct()
        kind = header.get(1, -1)
        sub = header.get(8) if kind == 3 else header.get(5, header.get(7, {}))
        if kind == 3:
            fields = [
                kind,
                sub.get(4, 0),
                sub[1],
                reader.pos,
                header[3],
                header[2],
                sub[5] + sub[6],
                int(sub.get(7, True)),
            ]
        else:
            fields = [
                kind,
                (sub or {}).get(2, 0),
                (sub or {}).get(1, 0),
                reader.pos,
                header[3],
                header[2],
                0,
                1,
            ]
        if any(type(v) not in (int, bool) for v in fields):  # a field of another Thrift type
            raise TypeError("a page header field of the wrong type")
    except (KeyError, TypeError, AttributeError) as exc:
        raise ParquetPageError(f"Parquet page: a corrupt page header ({type(exc).__name__}: {exc})") from None
    nxt = reader.pos + fields[4]
    if min(fields[2], fields[4], fields[5], fields[6]) < 0 or fields[6] > fields[4] or nxt > len(raw):
        raise ParquetPageError(f"Parquet page: {_WHY[10]}")
    return fields, nxt


def decompress_pages(
    buf: Any,
    table: np.ndarray,
    codec: np.ndarray,
    level_kind: np.ndarray,
    out_at: np.ndarray,
    error: Any = None,
) -> tuple[Any, Any, Any]:
    """(decompressed bytes, where each page's values start, where each page ends) of the pages of a
    ``walk_pages`` table: page ``p``'s bytes go to ``out[out_at[p]:]`` (``codec[p]``: ``CODEC_NONE`` or
    ``CODEC_SNAPPY``; a v2 page's level bytes are stored raw before its compressed values). Its values
    start after its definition levels: ``level_kind[p]`` 1 for a v1 page's length-prefixed levels, 2 for
    v2's, 0 for none. One launch, one warp per page; ``error`` as the other launchers."""
    f = {name: table[k] for k, name in enumerate(PAGE_FIELDS)}
    out_at = np.asarray(out_at, dtype=np.int64)
    total = int((out_at + f["out_size"]).max()) if len(out_at) else 0
    raw = np.where(f["kind"] == 3, f["levels"], 0)
    if not is_device_array(buf):
        return _decompress_reference(np.asarray(buf, np.uint8), f, raw, codec, level_kind, out_at, total)
    from ember.backend.device import cupy_module

    cp = cupy_module()
    out = cp.empty(total + 8, dtype=np.uint8)
    values_at, values_end = cp.empty(len(out_at), np.int64), cp.empty(len(out_at), np.int64)
    own = error is None
    error = cp.zeros(1, dtype=np.int32) if own else error
    if len(out_at):
        args = [cp.asarray(a) for a in (f["in_at"], f["in_size"], raw)]
        args += [cp.asarray(np.asarray(a, np.int32)) for a in (codec, level_kind)]
        args += [cp.asarray(out_at), cp.asarray(f["out_size"])]
        _module().get_function("ember_parquet_decompress")(
            (len(out_at),), (32,), (buf, *args, out, values_at, values_end, error)
        )
    if own:
        check_error(error)
    return out, values_at, values_end


def _decompress_reference(
    buf: np.ndarray, f: dict, raw: np.ndarray, codec: Any, level_kind: Any, out_at: np.ndarray, total: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    import pyarrow as pa

    out = np.zeros(total + 8, dtype=np.uint8)
    values_at = np.zeros(len(out_at), dtype=np.int64)
    for p in range(len(out_at)):
        src = buf[f["in_at"][p] : f["in_at"][p] + f["in_size"][p]]
        n, prefix, to = int(f["out_size"][p]), int(raw[p]), int(out_at[p])
        if prefix > min(len(src), n):
            raise ParquetPageError(f"Parquet page: {_WHY[11]}")
        if codec[p] == CODEC_NONE:
            if len(src) != n:
                raise ParquetPageError(f"Parquet page: {_WHY[11]}")
            body = src[prefix:]
        else:
            try:
                body = np.frombuffer(pa.decompress(src[prefix:], n - prefix, codec="snappy"), np.uint8)
            except (OSError, pa.ArrowException):
                raise ParquetPageError(f"Parquet page: {_WHY[11]}") from None
        out[to : to + prefix] = src[:prefix]
        out[to + prefix : to + n] = body
        at = prefix if level_kind[p] == 2 else 0
        if level_kind[p] == 1:
            at = 4 + int(out[to : to + 4].view("<u4")[0]) if n >= 4 else n + 1
        if at > n:
            raise ParquetPageError(f"Parquet page: {_WHY[11]}")
        values_at[p] = to + at
    return out, values_at, out_at + f["out_size"]


def rle_indices(
    data: Any,
    values_at: Any,
    values_end: Any,
    count: Any,
    out_start: Any,
    dict_base: Any,
    dict_size: Any,
    total: int,
    out: Any = None,
    error: Any = None,
    width: int | None = None,
) -> Any:
    """int32 dictionary indices of dictionary-encoded pages: page ``p``'s ``count[p]`` values start at
    byte ``values_at[p]`` of ``data`` (its bit-width byte), end before ``values_end[p]``, and go to
    ``out[out_start[p]:]`` plus ``dict_base[p]``; an index at or past ``dict_size[p]`` is corrupt data.
    ``width``: the runs' bit width when the pages carry no width byte (definition levels: 1). A page of
    no values is not read. ``out`` (``total`` int32, zeros when not given) keeps other pages'
    positions as they are. With no ``error`` flag given, synchronizes once to check its own."""
    if not is_device_array(data):
        out = np.zeros(total, dtype=np.int32) if out is None else out
        raw = memoryview(np.ascontiguousarray(data, dtype=np.uint8))
        pages = zip(
            *(np.asarray(a).tolist() for a in (values_at, values_end, count, out_start, dict_base, dict_size))
        )
        for at, end, n, start, base, size in pages:
            if n <= 0:
                continue
            bits = width if width is not None else (raw[at] if at < end else 255)
            if bits > 32:
                raise ParquetPageError("Parquet page: bit width past the data or above 32")
            try:
                index = decode_hybrid(raw[:end], bits, n, at if width is not None else at + 1)
            except (ValueError, IndexError) as exc:
                raise ParquetPageError(f"Parquet page: corrupt RLE / bit-packed data ({exc})") from None
            if n and int(index.max()) >= size:
                raise ParquetPageError(f"Parquet page: {_WHY[3]}")
            out[start : start + n] = index.astype(np.int32) + base
        return out
    from ember.backend.device import cupy_module

    cp = cupy_module()
    out = cp.zeros(total, dtype=np.int32) if out is None else out
    widths = cp.full(int(values_at.shape[0]), -1 if width is None else width, dtype=np.int64)
    per_page = (values_at, values_end, count, out_start, dict_base, dict_size, widths)
    _launch("ember_parquet_rle_indices", "block", data, per_page, (out,), error)
    return out


def plain_copy(
    data: Any, values_at: Any, values_end: Any, count: Any, out_start: Any, out: Any, error: Any = None
) -> None:
    """PLAIN fixed-width pages into place: page ``p``'s ``count[p]`` values at byte ``values_at[p]`` of
    ``data`` (ending by ``values_end[p]``; they need not be aligned) go to ``out[out_start[p]:]``."""
    itemsize = out.dtype.itemsize
    as_bytes = out.view(np.uint8)
    if not is_device_array(data):
        pages = zip(*(np.asarray(a).tolist() for a in (values_at, values_end, count, out_start)))
        for at, end, n, start in pages:
            if at + n * itemsize > end:
                raise ParquetPageError(f"Parquet page: {_WHY[12]}")
            as_bytes[start * itemsize : (start + n) * itemsize] = data[at : at + n * itemsize]
        return
    per_page = (values_at, values_end, count, out_start)
    _launch("ember_parquet_plain_copy", "block", data, per_page, (np.int32(itemsize), as_bytes), error)


def byte_array_spans(
    data: Any,
    values_at: Any,
    values_end: Any,
    count: Any,
    out_start: Any,
    starts: Any,
    lengths: Any,
    error: Any = None,
) -> None:
    """Where the values of PLAIN BYTE_ARRAY pages are: page ``p``'s ``count[p]`` values (each a 4-byte
    length, then its bytes) from byte ``values_at[p]`` of ``data``, ending by ``values_end[p]``; value
    ``i``'s first byte and length go to ``starts`` / ``lengths`` at ``out_start[p] + i``. One thread
    per page on the device (each length says where the next one is)."""
    if not is_device_array(data):
        raw = memoryview(np.ascontiguousarray(data, dtype=np.uint8))
        for at, end, n, o in zip(
            *(np.asarray(a).tolist() for a in (values_at, values_end, count, out_start))
        ):
            for i in range(n):
                if at + 4 > end:
                    raise ParquetPageError(f"Parquet page: {_WHY[12]}")
                length = int.from_bytes(raw[at : at + 4], "little")
                if at + 4 + length > end:
                    raise ParquetPageError(f"Parquet page: {_WHY[12]}")
                starts[o + i], lengths[o + i] = at + 4, length
                at += 4 + length
        return
    per_page = (values_at, values_end, count, out_start)
    tail = (np.int64(values_at.shape[0]), starts, lengths)
    _launch("ember_parquet_byte_array_spans", "thread", data, per_page, tail, error)


def _launch(kernel: str, per: str, data: Any, per_page: tuple, tail: tuple, error: Any) -> None:
    """One launch of a per-page kernel: its arguments are ``data`` (uint8), the per-page arrays (as
    contiguous int64), ``tail``, then the error flag; ``per`` "block" runs a block per page, "thread" a
    thread per page. With no ``error`` flag given, synchronizes to check its own."""
    from ember.backend.device import cupy_module

    cp = cupy_module()
    own = error is None
    error = cp.zeros(1, dtype=np.int32) if own else error
    pages = int(per_page[0].shape[0])
    if pages:
        arrays = [cp.ascontiguousarray(cp.asarray(a), dtype=np.int64) for a in per_page]
        grid, block = ((pages,), (_THREADS,)) if per == "block" else (((pages + 63) // 64,), (64,))
        args = (cp.ascontiguousarray(data, dtype=np.uint8), *arrays, *tail, error)
        _module().get_function(kernel)(grid, block, args)
    if own:
        check_error(error)


def check_error(error: Any) -> None:
    """Raise ParquetPageError for the code a kernel left in ``error`` (synchronizes)."""
    code = int(error.get()[0]) if is_device_array(error) else int(error[0])
    if code:
        raise ParquetPageError(f"Parquet page: {_WHY.get(code, f'error {code}')}")

"""Parquet column chunks decoded page by page on the host: the whole-chunk reference of the device
decoder (``io/parquet_decode.py``), tested against pyarrow's own reader.

Page headers are read from the chunk's bytes (Thrift compact protocol), each page is decompressed
(pyarrow's codecs), definition levels and dictionary indices are unpacked from the RLE / bit-packed
hybrid encoding, and values are read PLAIN or through the dictionary (``plain_values`` also decodes
the device decoder's dictionary pages).

Covered: flat columns (required or optional) of BOOLEAN, INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY;
PLAIN, PLAIN_DICTIONARY and RLE_DICTIONARY values (and RLE booleans); data pages v1 and v2; every codec
pyarrow decompresses, LZ4 in both its raw and Hadoop-framed forms. Anything else raises NotImplementedError naming what it met.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from ember.backend.kernels.parquet import (
    DATA_PAGE,
    DATA_PAGE_V2,
    DICTIONARY_PAGE,
    INDEX_PAGE,
    PLAIN,
    PLAIN_DICTIONARY,
    RLE,
    RLE_DICTIONARY,
    ParquetPageError,
    ThriftReader,
    decode_hybrid,
)

# pyarrow codec names of the footer's codecs
_CODECS = {"SNAPPY": "snappy", "GZIP": "gzip", "ZSTD": "zstd", "BROTLI": "brotli", "LZ4_RAW": "lz4_raw"}
_STREAMED = {"ZSTD": "zstd", "GZIP": "gzip", "BROTLI": "brotli"}  # pyarrow streams them, frames concatenated
_FIXED = {
    "INT32": np.dtype("<i4"),
    "INT64": np.dtype("<i8"),
    "FLOAT": np.dtype("<f4"),
    "DOUBLE": np.dtype("<f8"),
}


@dataclass
class Page:
    kind: int  # DATA_PAGE, DICTIONARY_PAGE, DATA_PAGE_V2
    num_values: int
    encoding: int
    data: bytes  # decompressed values (v2: levels first, uncompressed, then values)
    def_bytes: int = 0  # v2: bytes of definition levels at the start of ``data``
    rep_bytes: int = 0
    num_nulls: int | None = None
    extra: dict = field(default_factory=dict)


def read_pages(chunk: bytes, codec: str) -> list[Page]:
    """The pages of one column chunk's bytes (dictionary page first when there is one), decompressed."""
    try:
        return _read_pages(chunk, codec)
    except (KeyError, TypeError, IndexError, OverflowError) as exc:  # a header missing or mistyping a field
        raise ParquetPageError(f"Parquet page header is corrupt ({type(exc).__name__}: {exc})") from None


def _read_pages(chunk: bytes, codec: str) -> list[Page]:
    pages, pos = [], 0
    while pos < len(chunk):
        reader = ThriftReader(chunk, pos)
        header = reader.struct()
        body = chunk[reader.pos : reader.pos + header[3]]
        if len(body) != header[3]:
            raise ParquetPageError("Parquet column chunk ends inside a page")
        pos = reader.pos + header[3]
        kind, size = header[1], header[2]
        if kind == DICTIONARY_PAGE:
            sub = header[7]
            pages.append(Page(kind, sub[1], sub[2], decompress_page(body, codec, size)))
        elif kind == DATA_PAGE:
            sub = header[5]
            pages.append(Page(kind, sub[1], sub[2], decompress_page(body, codec, size)))
        elif kind == DATA_PAGE_V2:
            sub = header[8]
            levels = sub[5] + sub[6]
            values = body[levels:]
            if sub.get(7, True):
                values = decompress_page(values, codec, size - levels)
            page = Page(kind, sub[1], sub[4], body[:levels] + values, sub[5], sub[6], sub[2])
            pages.append(page)
        elif kind != INDEX_PAGE:
            raise NotImplementedError(f"Parquet page type {kind}")
    return pages


def decompress_page(body: Any, codec: str, size: int) -> Any:
    """A page's bytes decompressed by pyarrow's codecs (``codec``: the footer's name) to ``size`` bytes;
    NotImplementedError for a codec pyarrow lacks (LZO)."""
    if codec == "UNCOMPRESSED":
        return body
    if codec == "LZ4":
        return _lz4_legacy(body, size)
    if codec not in _CODECS:
        raise NotImplementedError(f"Parquet codec {codec}")
    return page_decompressor(codec)(body, size).to_pybytes()  # its size checks too


def page_decompressor(codec: str) -> Callable[[Any, int], Any]:
    """``decompress_page`` for many pages of one codec: a pyarrow codec made once (``pa.decompress``
    makes one per call), not copied out to bytes. For one thread: gzip's codec keeps state."""
    if codec not in _CODECS:  # uncompressed, Hadoop-framed LZ4, codecs pyarrow lacks
        return lambda body, size: decompress_page(body, codec, size)
    if codec == "LZ4_RAW":
        return _lz4_block
    made = pa.Codec(_CODECS[codec])

    def inflate(body: Any, size: int) -> Any:
        # pyarrow returns a buffer of the size asked for even when the bytes make fewer: snappy says
        # its length up front (raw LZ4 blocks do not: ``_lz4_block``)
        if codec == "SNAPPY" and _snappy_length(body) != size:
            raise ValueError("a page decompressed to the wrong size")
        return made.decompress(body, decompressed_size=size)

    return inflate


def _snappy_length(body: Any) -> int:
    """The decompressed length a snappy block starts with (a little-endian base-128 varint)."""
    length, shift = 0, 0
    for byte in bytes(memoryview(body)[:5]):
        length |= (byte & 0x7F) << shift
        if byte < 0x80:
            return length
        shift += 7
    return -1


def decompress_into(codec: str, bodies: list, out: np.ndarray, places: list) -> None:
    """Consecutive pages of ``codec`` (their compressed ``bodies``) decompressed into the byte array
    ``out``, page i at ``places[i]`` (start, decompressed size). The codecs whose streams concatenate
    (zstd, gzip, brotli) go through one streaming decompressor, and when the places follow one another
    and the pages' own headers vouch their sizes, in one read: one context, no buffer and no GIL round
    trip per page (pyarrow's one-shot call per page makes all three, and on the GPU host stopped
    scaling past 4 threads); the others page by page. ValueError when a page does not fill its place
    exactly."""
    if codec not in _STREAMED:
        inflate = page_decompressor(codec)
        for body, (start, size) in zip(bodies, places):
            values = inflate(body, size)
            if len(values) != size:
                raise ValueError("a page decompressed to the wrong size")
            out[start : start + size] = np.frombuffer(values, np.uint8)
        return
    stream = pa.CompressedInputStream(pa.BufferReader(b"".join(bodies)), _STREAMED[codec])
    sizes = [size for _, size in places]
    adjacent = all(a + n == b for (a, n), (b, _) in zip(places, places[1:]))
    if places and adjacent and all(map(_SIZE_SAID[codec], bodies, sizes)):
        places = [(places[0][0], sum(sizes))]
    for start, size in places:
        if stream.readinto(out[start : start + size]) != size:
            raise ValueError("a page decompressed to fewer bytes than its header says")
    if stream.read(1):
        raise ValueError("the pages decompressed to more bytes than their headers say")


def _zstd_says(body: Any, size: int) -> bool:
    """Whether a page's zstd frame header records ``size`` as its content size (False when it records
    none, or another size: the page may then hold several frames, which are read one page at a time)."""
    head = bytes(memoryview(body)[:18])
    if len(head) < 6 or head[:4] != b"\x28\xb5\x2f\xfd":
        return False
    flags = head[4]
    single, dict_bytes = flags >> 5 & 1, (0, 1, 2, 4)[flags & 3]
    width = (single, 2, 4, 8)[flags >> 6]
    at = 5 + (0 if single else 1) + dict_bytes
    if width == 0 or at + width > len(head):
        return False
    said = int.from_bytes(head[at : at + width], "little") + (256 if width == 2 else 0)
    return said == size


def zstd_frames_say(heads: np.ndarray, lengths: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """``_zstd_says`` of many pages at once: ``heads`` (pages x 18 uint8) holds each page's first bytes
    (of ``lengths`` its compressed length; bytes past it are ignored), ``sizes`` the decompressed size
    each should record. Used to keep pages whose frame header is not intact away from nvCOMP, which
    does not check it (garbage there faults the device)."""
    heads = np.asarray(heads, dtype=np.uint8).reshape(len(sizes), 18)
    magic = heads[:, :4].astype(np.uint32) << np.array([0, 8, 16, 24], dtype=np.uint32)
    flags = heads[:, 4].astype(np.int64)
    single = flags >> 5 & 1
    width = np.where(flags >> 6 == 0, single, np.array([0, 2, 4, 8])[flags >> 6])
    at = 5 + (1 - single) + np.array([0, 1, 2, 4])[flags & 3]
    said = np.zeros(len(sizes), dtype=np.uint64)
    for k in range(8):  # the little-endian content size, byte by byte (``at + k`` stays within 18)
        byte = np.take_along_axis(heads, np.minimum(at + k, 17)[:, None], axis=1)[:, 0].astype(np.uint64)
        said |= np.where(k < width, byte, 0).astype(np.uint64) << np.uint64(8 * k)
    said = said + np.where(width == 2, 256, 0).astype(np.uint64)
    ok = (magic.sum(axis=1) == 0xFD2FB528) & (width > 0) & (at + width <= np.minimum(lengths, 18))
    return ok & (said == np.asarray(sizes).astype(np.uint64))


def _gzip_says(body: Any, size: int) -> bool:
    """Whether a page's gzip member ends with ``size`` (its ISIZE trailer, modulo 2**32)."""
    view = memoryview(body)
    return len(view) >= 18 and int.from_bytes(view[-4:], "little") == size % (1 << 32)


# how a page's own bytes vouch its decompressed size (brotli's do not: its pages are read one by one)
_SIZE_SAID = {"ZSTD": _zstd_says, "GZIP": _gzip_says, "BROTLI": lambda body, size: False}


def _lz4_legacy(body: bytes, size: int) -> bytes:
    """Parquet's old LZ4 codec: a raw LZ4 block as writers emit it today, or Hadoop's framing (big-endian
    decompressed and compressed sizes before each block), as pyarrow's reader accepts both."""
    try:
        return _lz4_block(body, size).to_pybytes()
    except (OSError, pa.ArrowException, ValueError):
        out, pos = [], 0
        while pos + 8 <= len(body):
            length = int.from_bytes(body[pos + 4 : pos + 8], "big")
            expect = int.from_bytes(body[pos : pos + 4], "big")
            out.append(_lz4_block(body[pos + 8 : pos + 8 + length], expect).to_pybytes())
            pos += 8 + length
        return b"".join(out)


def _lz4_block(body: Any, size: int) -> Any:
    """A raw LZ4 block decompressed to exactly ``size`` bytes. pyarrow pads a shorter result to the
    size asked for, and the block does not state its length: it must also overflow ``size - 1``."""
    values = pa.decompress(body, decompressed_size=size, codec="lz4_raw")
    if size:
        try:
            pa.decompress(body, decompressed_size=size - 1, codec="lz4_raw")
        except (OSError, pa.ArrowException):
            return values
        raise ValueError("an LZ4 block decompressed to fewer bytes than its page header says")
    return values


def plain_values(data: bytes, physical: str, count: int, pos: int = 0, copy: bool = True) -> Any:
    """``count`` PLAIN values: a NumPy array, or a pyarrow binary array for BYTE_ARRAY. ``copy=False``:
    fixed-width values are a read-only view of ``data`` (a caller that packs them copies anyway)."""
    if physical in _FIXED:
        values = np.frombuffer(data, _FIXED[physical], count, pos)
        return values.copy() if copy else values
    if physical == "BOOLEAN":
        return np.unpackbits(np.frombuffer(data, np.uint8, (count + 7) // 8, pos), bitorder="little")[
            :count
        ].astype(bool)
    if physical == "BYTE_ARRAY":
        raw = np.frombuffer(data, np.uint8)
        grid = _one_width(raw, count, pos)
        if grid is not None:  # the bytes are (length, bytes) records of one width: drop the lengths
            width = grid.dtype.itemsize - 4
            offsets = np.arange(count + 1, dtype=np.int64) * width
            chars = grid["bytes"] if width else np.zeros(0, np.uint8)
        else:
            starts, lengths = _byte_array_spans(raw, count, pos)
            offsets = np.zeros(count + 1, dtype=np.int64)
            np.cumsum(lengths, out=offsets[1:])
            row = np.repeat(np.arange(count, dtype=np.int64), lengths)
            chars = raw[starts[row] + np.arange(offsets[-1], dtype=np.int64) - offsets[row]]
        buffers = [None, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(chars))]
        return pa.Array.from_buffers(pa.large_binary(), count, buffers)
    raise NotImplementedError(f"Parquet physical type {physical}")


def _one_width(raw: np.ndarray, count: int, pos: int) -> np.ndarray | None:
    """The ``count`` PLAIN byte arrays at ``pos`` as records (``length``, ``bytes``) when they all share
    one length (``'id%010d'`` keys), else None. Records, not a 2-D byte grid: NumPy copies a strided
    field of whole records ~5x faster than the grid's short rows."""
    if count == 0 or pos + 4 > raw.size:
        return None
    width = int(raw[pos : pos + 4].view("<u4")[0])
    if pos + count * (4 + width) > raw.size:
        return None
    record = np.dtype([("length", "<u4"), ("bytes", f"V{width}")]) if width else np.dtype([("length", "<u4")])
    grid = np.frombuffer(raw, record, count, pos)
    if not (grid["length"] == width).all():
        return None
    return grid


_U32 = struct.Struct("<I")


def _byte_array_spans(raw: np.ndarray, count: int, pos: int) -> tuple[np.ndarray, np.ndarray]:
    """(first byte, length) of ``count`` PLAIN byte arrays (each a 4-byte length, then the bytes), by
    walking the length prefixes (each says where the next one is)."""
    if count == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if pos + 4 > raw.size:
        raise ParquetPageError("Parquet PLAIN byte arrays run past the page")
    # lengths of different sizes: each prefix says where the next one is. Plain Python ints and
    # struct (not NumPy scalars) in the loop: ~5x faster, 0.16 us a value on the CI box
    data, size, at = raw.data, raw.size, pos
    unpack = _U32.unpack_from
    starts = [0] * count
    for i in range(count):
        if at + 4 > size:
            raise ParquetPageError("Parquet PLAIN byte arrays run past the page")
        starts[i] = at + 4
        at += 4 + unpack(data, at)[0]
    if at > size:
        raise ParquetPageError("Parquet PLAIN byte arrays run past the page")
    first = np.array(starts, dtype=np.int64)
    ends = np.empty(count, dtype=np.int64)  # each value ends where the next one's prefix begins
    ends[:-1] = first[1:] - 4
    ends[-1] = at
    return first, ends - first


def decode_chunk(chunk: bytes, codec: str, physical: str, max_def: int) -> tuple[Any, np.ndarray | None]:
    """(values of the non-null rows, validity per row or None) of one flat column chunk.

    Values are a NumPy array (fixed width, bool) or a pyarrow binary array (BYTE_ARRAY)."""
    dictionary, parts, valid_parts = None, [], []
    for page in read_pages(chunk, codec):
        if page.kind == DICTIONARY_PAGE:
            if page.encoding not in (PLAIN, PLAIN_DICTIONARY):
                raise NotImplementedError(f"Parquet dictionary page encoding {page.encoding}")
            dictionary = plain_values(page.data, physical, page.num_values)
            continue
        valid, pos = _levels(page, max_def)
        present = page.num_values if valid is None else int(valid.sum())
        valid_parts.append(valid if valid is not None else np.ones(page.num_values, dtype=bool))
        if page.encoding == PLAIN:
            parts.append(plain_values(page.data, physical, present, pos))
        elif page.encoding in (PLAIN_DICTIONARY, RLE_DICTIONARY):
            if dictionary is None:
                raise ParquetPageError("Parquet dictionary-encoded page without a dictionary page")
            width = page.data[pos]
            index = decode_hybrid(page.data, width, present, pos + 1)
            parts.append(
                dictionary.take(pa.array(index)) if isinstance(dictionary, pa.Array) else dictionary[index]
            )
        elif page.encoding == RLE and physical == "BOOLEAN":  # v2 booleans: 4-byte length, then width 1
            parts.append(decode_hybrid(page.data, 1, present, pos + 4).astype(bool))
        else:
            raise NotImplementedError(f"Parquet value encoding {page.encoding} of {physical}")
    validity = np.concatenate(valid_parts) if valid_parts else np.zeros(0, dtype=bool)
    if parts and isinstance(parts[0], pa.Array):
        values: Any = pa.concat_arrays(parts)
    else:
        values = np.concatenate(parts) if parts else np.zeros(0, dtype=_FIXED.get(physical, np.dtype(bool)))
    return values, None if max_def == 0 else validity


def _levels(page: Page, max_def: int) -> tuple[np.ndarray | None, int]:
    """(validity from the definition levels, or None for a required column; where the values start)."""
    if max_def == 0:
        return None, page.rep_bytes + page.def_bytes if page.kind == DATA_PAGE_V2 else 0
    if max_def > 1:
        raise NotImplementedError("nested Parquet columns (definition levels above 1)")
    width = max_def.bit_length()
    if page.kind == DATA_PAGE_V2:
        levels = decode_hybrid(page.data, width, page.num_values, page.rep_bytes)
        return levels == max_def, page.rep_bytes + page.def_bytes
    length = int.from_bytes(page.data[:4], "little")  # v1: levels carry a 4-byte length
    levels = decode_hybrid(page.data, width, page.num_values, 4)
    return levels == max_def, 4 + length


def read_column_chunk(path: str, row_group: int, column: int) -> tuple[Any, np.ndarray | None]:
    """``decode_chunk`` of one column chunk of a file, located by the footer."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    col = meta.row_group(row_group).column(column)
    descr = meta.schema.column(column)
    if descr.max_repetition_level:
        raise NotImplementedError("repeated (list) Parquet columns")
    start = col.dictionary_page_offset if col.has_dictionary_page else col.data_page_offset
    with open(path, "rb") as f:
        f.seek(start)
        chunk = f.read(col.total_compressed_size)
    return decode_chunk(chunk, col.compression, col.physical_type, descr.max_definition_level)

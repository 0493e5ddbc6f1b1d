"""Parquet column chunks decoded page by page in NumPy: the reference for decoding pages on the device.

``docs/parquet-device-decode.md`` plans a GPU decoder (compressed pages copied up, decompressed and
decoded by kernels). Its steps are written here first, on the host, with the same cut between them:
page headers are read from the chunk's bytes (Thrift compact protocol), each page is decompressed
(pyarrow's codecs), definition levels and dictionary indices are unpacked from the RLE / bit-packed
hybrid encoding, and values are read PLAIN or through the dictionary. The kernels will be tested
against these functions, and these functions are tested against pyarrow's own reader.

Covered: flat columns (required or optional) of BOOLEAN, INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY;
PLAIN, PLAIN_DICTIONARY and RLE_DICTIONARY values (and RLE booleans); data pages v1 and v2; every codec
pyarrow decompresses, LZ4 in both its raw and Hadoop-framed forms. Anything else raises NotImplementedError naming what it met.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from ember.backend.kernels.parquet import ParquetPageError, decode_hybrid, rle_indices

# Thrift compact protocol type codes
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(13)
# Parquet enums
DATA_PAGE, INDEX_PAGE, DICTIONARY_PAGE, DATA_PAGE_V2 = 0, 1, 2, 3
PLAIN, PLAIN_DICTIONARY, RLE, RLE_DICTIONARY = 0, 2, 3, 8
_CODECS = {"SNAPPY": "snappy", "GZIP": "gzip", "ZSTD": "zstd", "BROTLI": "brotli", "LZ4_RAW": "lz4_raw"}
_FIXED = {
    "INT32": np.dtype("<i4"),
    "INT64": np.dtype("<i8"),
    "FLOAT": np.dtype("<f4"),
    "DOUBLE": np.dtype("<f8"),
}


class _Reader:
    """Thrift compact protocol over a bytes buffer: structs become {field id: value} dicts."""

    def __init__(self, buf: bytes, pos: int = 0) -> None:
        self.buf, self.pos = buf, pos

    def byte(self) -> int:
        if self.pos >= len(self.buf):
            raise ParquetPageError("Parquet page header runs past the end of the column chunk")
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        out, shift = 0, 0
        while True:
            b = self.byte()
            out |= (b & 0x7F) << shift
            if b < 0x80:
                return out
            shift += 7
            if shift > 70:
                raise ParquetPageError("Parquet page header: malformed varint")

    def zigzag(self) -> int:
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def value(self, kind: int) -> Any:
        if kind in (_TRUE, _FALSE):
            return kind == _TRUE
        if kind == _BYTE:
            return self.byte()
        if kind in (_I16, _I32, _I64):
            return self.zigzag()
        if kind == _DOUBLE:
            self.pos += 8
            return float(np.frombuffer(self.buf, "<f8", 1, self.pos - 8)[0])
        if kind == _BINARY:
            n = self.varint()
            self.pos += n
            return bytes(self.buf[self.pos - n : self.pos])
        if kind in (_LIST, _SET):
            head = self.byte()
            n, elem = head >> 4, head & 0x0F
            if n == 15:
                n = self.varint()
            return [self.byte() == 1 if elem in (_TRUE, _FALSE) else self.value(elem) for _ in range(n)]
        if kind == _MAP:
            n = self.varint()
            types = self.byte() if n else 0
            return {self.value(types >> 4): self.value(types & 0x0F) for _ in range(n)}
        if kind == _STRUCT:
            return self.struct()
        raise ParquetPageError(f"Parquet page header: unknown Thrift type {kind}")

    def struct(self) -> dict[int, Any]:
        out: dict[int, Any] = {}
        last = 0
        while True:
            head = self.byte()
            kind = head & 0x0F
            if kind == _STOP:
                return out
            delta = head >> 4
            last = last + delta if delta else self.zigzag()
            out[last] = self.value(kind)


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
        reader = _Reader(chunk, pos)
        header = reader.struct()
        body = chunk[reader.pos : reader.pos + header[3]]
        if len(body) != header[3]:
            raise ParquetPageError("Parquet column chunk ends inside a page")
        pos = reader.pos + header[3]
        kind, size = header[1], header[2]
        if kind == DICTIONARY_PAGE:
            sub = header[7]
            pages.append(Page(kind, sub[1], sub[2], _decompress(body, codec, size)))
        elif kind == DATA_PAGE:
            sub = header[5]
            pages.append(Page(kind, sub[1], sub[2], _decompress(body, codec, size)))
        elif kind == DATA_PAGE_V2:
            sub = header[8]
            levels = sub[5] + sub[6]
            values = body[levels:]
            if sub.get(7, True):
                values = _decompress(values, codec, size - levels)
            page = Page(kind, sub[1], sub[4], body[:levels] + values, sub[5], sub[6], sub[2])
            pages.append(page)
        elif kind != INDEX_PAGE:
            raise NotImplementedError(f"Parquet page type {kind}")
    return pages


def _decompress(body: bytes, codec: str, size: int) -> bytes:
    if codec == "UNCOMPRESSED":
        return body
    if codec == "LZ4":
        return _lz4_legacy(body, size)
    if codec not in _CODECS:
        raise NotImplementedError(f"Parquet codec {codec}")
    return pa.decompress(body, decompressed_size=size, codec=_CODECS[codec]).to_pybytes()


def _lz4_legacy(body: bytes, size: int) -> bytes:
    """Parquet's old LZ4 codec: a raw LZ4 block as writers emit it today, or Hadoop's framing (big-endian
    decompressed and compressed sizes before each block), as pyarrow's reader accepts both."""
    try:
        return pa.decompress(body, decompressed_size=size, codec="lz4_raw").to_pybytes()
    except (OSError, pa.ArrowException):
        out, pos = [], 0
        while pos + 8 <= len(body):
            length = int.from_bytes(body[pos + 4 : pos + 8], "big")
            expect = int.from_bytes(body[pos : pos + 4], "big")
            block = body[pos + 8 : pos + 8 + length]
            out.append(pa.decompress(block, decompressed_size=expect, codec="lz4_raw").to_pybytes())
            pos += 8 + length
        return b"".join(out)


def _plain(data: bytes, physical: str, count: int, pos: int = 0) -> Any:
    """``count`` PLAIN values: a NumPy array, or a pyarrow binary array for BYTE_ARRAY."""
    if physical in _FIXED:
        return np.frombuffer(data, _FIXED[physical], count, pos).copy()
    if physical == "BOOLEAN":
        return np.unpackbits(np.frombuffer(data, np.uint8, (count + 7) // 8, pos), bitorder="little")[
            :count
        ].astype(bool)
    if physical == "BYTE_ARRAY":
        raw = np.frombuffer(data, np.uint8)
        starts, lengths = _byte_array_spans(raw, count, pos)
        offsets = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        row = np.repeat(np.arange(count, dtype=np.int64), lengths)
        chars = raw[starts[row] + np.arange(offsets[-1], dtype=np.int64) - offsets[row]]
        buffers = [None, pa.py_buffer(offsets), pa.py_buffer(chars.tobytes())]
        return pa.Array.from_buffers(pa.large_binary(), count, buffers)
    raise NotImplementedError(f"Parquet physical type {physical}")


def _byte_array_spans(raw: np.ndarray, count: int, pos: int) -> tuple[np.ndarray, np.ndarray]:
    """(first byte, length) of ``count`` PLAIN byte arrays (each a 4-byte length, then the bytes). Values
    of one length (``'id%010d'`` keys) are found at once; others by walking the length prefixes."""
    if count == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if pos + 4 > raw.size:
        raise ParquetPageError("Parquet PLAIN byte arrays run past the page")
    width = int(raw[pos : pos + 4].view("<u4")[0])
    end = pos + count * (4 + width)
    if end <= raw.size:
        prefixes = raw[pos:end].reshape(count, 4 + width)[:, :4].copy().view("<u4").ravel()
        if (prefixes == width).all():
            starts = pos + 4 + np.arange(count, dtype=np.int64) * (4 + width)
            return starts, np.full(count, width, dtype=np.int64)
    starts, lengths, at = np.empty(count, dtype=np.int64), np.empty(count, dtype=np.int64), pos
    for i in range(count):  # lengths of different sizes: each prefix says where the next one is
        if at + 4 > raw.size:
            raise ParquetPageError("Parquet PLAIN byte arrays run past the page")
        lengths[i] = int(raw[at : at + 4].view("<u4")[0])
        starts[i] = at + 4
        at += 4 + int(lengths[i])
    if at > raw.size:
        raise ParquetPageError("Parquet PLAIN byte arrays run past the page")
    return starts, lengths


def decode_chunk(chunk: bytes, codec: str, physical: str, max_def: int) -> tuple[Any, np.ndarray | None]:
    """(values of the non-null rows, validity per row or None) of one flat column chunk.

    Values are a NumPy array (fixed width, bool) or a pyarrow binary array (BYTE_ARRAY)."""
    dictionary, parts, valid_parts = None, [], []
    for page in read_pages(chunk, codec):
        if page.kind == DICTIONARY_PAGE:
            if page.encoding not in (PLAIN, PLAIN_DICTIONARY):
                raise NotImplementedError(f"Parquet dictionary page encoding {page.encoding}")
            dictionary = _plain(page.data, physical, page.num_values)
            continue
        valid, pos = _levels(page, max_def)
        present = page.num_values if valid is None else int(valid.sum())
        valid_parts.append(valid if valid is not None else np.ones(page.num_values, dtype=bool))
        if page.encoding == PLAIN:
            parts.append(_plain(page.data, physical, present, pos))
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


# --- the device decoder's data layout -------------------------------------------------------------
#
# A planned chunk is what the kernel sees: the data pages' decompressed bytes end to end in one buffer
# (one upload), a page table, and the dictionary. ``backend.kernels.parquet.rle_indices`` decodes every
# page's dictionary indices in one launch (one block per page); its NumPy twin is ``decode_hybrid``.


@dataclass
class ChunkPlan:
    physical: str
    dictionary: Any  # the dictionary page's values (NumPy array / pyarrow binary array), or None
    data: np.ndarray  # uint8: every data page's decompressed bytes, end to end
    page_values_at: np.ndarray  # int64: where each page's values start in ``data``
    page_count: np.ndarray  # int64: values per page
    page_encoding: np.ndarray  # int32: PLAIN or RLE_DICTIONARY (PLAIN_DICTIONARY folded into it)

    @property
    def page_out_start(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.page_count)[:-1]]).astype(np.int64)


def plan_chunk(chunk: bytes, codec: str, physical: str, max_def: int = 0) -> ChunkPlan:
    """The plan of a flat column chunk without nulls (a required column, or an optional one whose
    definition levels are all set); NotImplementedError for anything else (nulls included)."""
    dictionary, blobs, at, counts, encodings = None, [], [], [], []
    offset = 0
    for page in read_pages(chunk, codec):
        if page.kind == DICTIONARY_PAGE:
            dictionary = _plain(page.data, physical, page.num_values)
            continue
        encoding = RLE_DICTIONARY if page.encoding == PLAIN_DICTIONARY else page.encoding
        if encoding not in (PLAIN, RLE_DICTIONARY) or (encoding == PLAIN and physical not in _FIXED):
            raise NotImplementedError(f"planned Parquet decode of encoding {page.encoding} ({physical})")
        valid, skip = _levels(page, max_def)
        if valid is not None and not valid.all():
            raise NotImplementedError("planned Parquet decode of a column chunk with nulls")
        blobs.append(page.data)
        at.append(offset + skip)
        counts.append(page.num_values)
        encodings.append(encoding)
        offset += len(page.data)
    data = np.frombuffer(b"".join(blobs), np.uint8) if blobs else np.zeros(0, np.uint8)
    return ChunkPlan(
        physical,
        dictionary,
        data,
        np.asarray(at, dtype=np.int64),
        np.asarray(counts, dtype=np.int64),
        np.asarray(encodings, dtype=np.int32),
    )


def decode_plan(plan: ChunkPlan, xp: Any) -> tuple[Any, Any]:
    """(values on ``xp``'s device, None) of a planned fixed-width chunk, or (int32 dictionary codes,
    the dictionary as a pyarrow array) of a dictionary-encoded BYTE_ARRAY chunk: the pages' bytes go
    up once, the dictionary indices of every page are decoded by one kernel launch
    (``backend.kernels.parquet.rle_indices``), PLAIN pages are copied byte for byte into place."""
    from ember.backend import asarray_on

    total = int(plan.page_count.sum())
    data = asarray_on(plan.data, xp)
    rle = plan.page_encoding == RLE_DICTIONARY
    index = None
    if rle.any():
        picked = [asarray_on(a[rle], xp) for a in (plan.page_values_at, plan.page_count, plan.page_out_start)]
        if plan.dictionary is None:
            raise ParquetPageError("Parquet dictionary-encoded page without a dictionary page")
        index = rle_indices(data, *picked, total, len(plan.dictionary))
    if plan.physical not in _FIXED:
        if not rle.all() or plan.dictionary is None:
            raise NotImplementedError(f"planned Parquet decode of PLAIN {plan.physical} pages")
        return (index if index is not None else xp.zeros(0, dtype=np.int32)), plan.dictionary
    dtype = _FIXED[plan.physical]
    if index is not None:
        values = asarray_on(plan.dictionary, xp)[index]
    else:
        values = xp.empty(total, dtype=dtype)
    as_bytes = values.view(np.uint8)
    for at, n, out in zip(plan.page_values_at[~rle], plan.page_count[~rle], plan.page_out_start[~rle]):
        size = int(n) * dtype.itemsize  # byte copies: a page's values need not be aligned in ``data``
        as_bytes[int(out) * dtype.itemsize : int(out) * dtype.itemsize + size] = data[
            int(at) : int(at) + size
        ]
    return values, None

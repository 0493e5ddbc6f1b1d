"""The facts of a Parquet footer the device readers need, read by ember's own Thrift reader.

pyarrow's metadata API aborts the whole process (an uncaught C++ exception) on some corrupt footers:
an unknown codec, a column chunk whose type disagrees with the schema, size statistics of the wrong
length. Its file readers raise cleanly, but the device readers plan their reads from per-chunk
metadata, so they take it from here instead: every value is checked, and anything malformed is a
``ParquetPageError`` (``read_parquet`` names the file). The schema still comes from pyarrow (it is
parsed, and checked, when the file is opened).
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from ember.backend.kernels.parquet import ParquetPageError, ThriftReader

PHYSICAL_TYPES = (
    "BOOLEAN",
    "INT32",
    "INT64",
    "INT96",
    "FLOAT",
    "DOUBLE",
    "BYTE_ARRAY",
    "FIXED_LEN_BYTE_ARRAY",
)
CODECS = ("UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW")


class ChunkFacts(NamedTuple):
    physical: str  # the chunk's physical type (PHYSICAL_TYPES)
    codec: str  # CODECS
    data_at: int  # file offset of the first data page
    dictionary_at: int  # file offset of the dictionary page, or -1
    size: int  # compressed bytes of the whole chunk
    uncompressed: int  # its bytes uncompressed (headers included)
    null_count: int | None  # from the chunk's statistics, None when not recorded

    @property
    def start(self) -> int:
        return self.dictionary_at if self.dictionary_at >= 0 else self.data_at


class Footer(NamedTuple):
    num_rows: int
    group_rows: list[int]  # rows of each row group
    chunks: list[list[ChunkFacts]]  # [row group][leaf column]


def read_footer(path: str) -> Footer:
    """The footer of a local Parquet file, checked; ParquetPageError when any of it is malformed."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(max(size - 8, 0))
        tail = f.read(8)
        length = int.from_bytes(tail[:4], "little")
        if len(tail) < 8 or tail[4:] != b"PAR1" or length > size - 8:
            raise ParquetPageError("the file does not end with a Parquet footer")
        f.seek(size - 8 - length)
        raw = f.read(length)
    try:
        return _footer(ThriftReader(raw).struct(), size)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise ParquetPageError(f"the footer is corrupt ({type(exc).__name__}: {exc})") from None


def _footer(meta: dict, file_size: int) -> Footer:
    # the schema's leaves (elements without children) in order: each row group has a chunk of each
    leaf_types = [element.get(1) for element in meta[2] if not element.get(5)]
    group_rows, chunks = [], []
    for group in meta.get(4, []):
        group_rows.append(_count(group[3], "a row group's row count"))
        chunks.append([_chunk(chunk[3], file_size, group_rows[-1]) for chunk in group[1]])
        if [PHYSICAL_TYPES.index(c.physical) for c in chunks[-1]] != leaf_types:
            raise ParquetPageError("the footer's column chunks disagree with its schema's types")
    num_rows = _count(meta[3], "the row count")
    if num_rows != sum(group_rows):
        raise ParquetPageError("the footer's row count is not its row groups' total")
    return Footer(num_rows, group_rows, chunks)


def _chunk(meta: dict, file_size: int, rows: int) -> ChunkFacts:
    """A column chunk's facts; its place in the file checked unless it holds no rows (pyarrow writes
    an empty chunk's data page offset before its dictionary page's)."""
    physical, codec = meta[1], meta[4]
    if not (0 <= physical < len(PHYSICAL_TYPES)) or not (0 <= codec < len(CODECS)):
        raise ParquetPageError("the footer names an unknown type or compression codec")
    data_at = _count(meta[9], "a data page offset")
    dictionary_at = meta.get(11, -1)
    dictionary_at = dictionary_at if isinstance(dictionary_at, int) and dictionary_at > 0 else -1
    size = _count(meta[7], "a column chunk's size")
    uncompressed = _count(meta[6], "a column chunk's uncompressed size")
    start = dictionary_at if dictionary_at >= 0 else data_at
    if rows and (dictionary_at > data_at or size == 0 or start + size > file_size):
        raise ParquetPageError("the footer places a column chunk outside the file")
    stats = meta.get(12)
    nulls = stats.get(3) if isinstance(stats, dict) else None
    return ChunkFacts(
        PHYSICAL_TYPES[physical], CODECS[codec], data_at, dictionary_at, size, uncompressed, nulls
    )


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or value < 0:
        raise ParquetPageError(f"the footer's {what} is corrupt")
    return value


def leaf_index(meta: Any, name: str) -> int | None:
    """The index of a flat column among the schema's leaves, or None (absent, or nested)."""
    paths = [meta.schema.column(k).path for k in range(meta.num_columns)]
    return paths.index(name) if paths.count(name) == 1 else None


def no_nulls(name: str, metas: list, footers: list[Footer]) -> bool:
    """Whether every row group's statistics say the column holds no null (False when unknown)."""
    for meta, footer in zip(metas, footers):
        j = leaf_index(meta, name)
        groups = (group for group, rows in zip(footer.chunks, footer.group_rows) if rows)  # empty: none
        if j is None or any(group[j].null_count != 0 for group in groups):
            return False
    return True

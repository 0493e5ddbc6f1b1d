"""The GPU CSV path: the bytes go to the device through pinned staging buffers while the quote-count
kernel runs on each piece that has landed; the boundary kernels give field spans; one parse kernel per
column yields int64/float64/bool values in device arrays; string columns are built on the device in
the Arrow layout. The record/field logic around the kernels is ``csv_reference``'s, run on CuPy.
A local file is read by threads straight into pinned memory (``read_file_gpu``); above ``CHUNK_BYTES``
it is parsed a piece at a time (``csv_chunks``), so the raw bytes on the device are one piece's.

Syncs per file: the boundary count, the EOF facts, the record shape check, then one type decision per
column (plus the string byte total for string columns and the rare exact-float fallback).
"""

from __future__ import annotations

from typing import Any

from ember.io.csv_reference import (
    Unsupported,
    Words,
    build_column,
    close_boundaries,
    field_bytes,
    read_buffer,
)


def read_buffer_gpu(
    data: bytes, sep: str, header: int | None, names: list | None, words: Words, nrows: int | None
) -> tuple[list, list]:
    """(names, device columns) of a CSV buffer; raises Unsupported where the host parser takes over."""
    from ember.backend.kernels import csv as kernels

    _check_separator(sep)
    if not data:
        raise Unsupported("no records")
    buf, quote_counts = kernels.upload_and_count_quotes(data)
    return read_device_buffer(buf, quote_counts, data[-1], sep, header, names, words, nrows)


def read_file_gpu(
    path: str,
    offset: int,
    size: int,
    sep: str,
    header: int | None,
    names: list | None,
    words: Words,
    nrows: int | None,
) -> tuple[list, list] | None:
    """``read_buffer_gpu`` of bytes [offset, size) of a local file, read into pinned memory by threads
    and copied up a piece of at most ``CHUNK_BYTES`` at a time (``csv_chunks``; no host copy of the file).
    None when the bytes are not all ASCII (the caller validates UTF-8 on the host and reads them as a
    buffer) or when pieces disagree on a column's type (the caller parses in one pass)."""
    from ember.backend.kernels import csv as kernels
    from ember.io.csv_chunks import read_chunked

    _check_separator(sep)
    if size <= offset:
        raise Unsupported("no records")
    sep_byte = sep.encode()[0]

    def piece(start: int, end: int) -> tuple:
        buf, quote_counts, non_ascii = kernels.upload_file_and_count_quotes(path, start, end)
        if bool(non_ascii):
            raise _NonAscii
        pos, nl, quotes = kernels.boundaries(buf, quote_counts, sep_byte)
        return buf, pos, nl, quotes, int(buf[-1])  # the last byte: does the last record end a line?

    try:
        return read_chunked(piece, offset, size, CHUNK_BYTES, sep, header, names, words, nrows, _column)
    except _NonAscii:
        return None


# Files above this are parsed a piece at a time (``csv_chunks``): the raw bytes and the boundary arrays
# on the device stay those of one piece.
CHUNK_BYTES = 256 << 20


class _NonAscii(Exception):
    pass


def _column(buf: Any, starts: Any, ends: Any, words: Words) -> Any:
    from ember.backend.kernels import csv as kernels

    ival, fval, flags = kernels.parse_fields(buf, starts, ends, words.na, words.true, words.false)
    return build_column(ival, fval, flags, lambda: field_bytes(buf, starts, ends))


def read_device_buffer(
    buf: Any,
    quote_counts: Any,
    last: int,
    sep: str,
    header: int | None,
    names: list | None,
    words: Words,
    nrows: int | None,
) -> tuple[list, list]:
    """(names, device columns) of CSV bytes already on the device with their per-chunk quote counts;
    ``last`` is the final byte."""
    from ember.backend.kernels import csv as kernels

    pos, nl, quotes = kernels.boundaries(buf, quote_counts, sep.encode()[0])
    xp = _xp(buf)
    bounds = close_boundaries(pos, nl, quotes, last, int(buf.shape[0]), xp)
    return read_buffer(buf, sep, header, names, words, nrows, bounds=bounds, column=_column)


def _check_separator(sep: str) -> None:
    sep_b = sep.encode()
    if len(sep_b) != 1 or sep_b[0] in (0, 10, 13, 34):
        raise Unsupported("separator")


def _xp(a: Any) -> Any:
    from ember.backend import array_module

    return array_module(a)

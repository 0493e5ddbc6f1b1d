"""A large CSV file parsed a chunk of bytes at a time, so the raw bytes on the device never exceed one
chunk (issue bound: peak under 2x the parsed frame plus one chunk of the file).

Each piece starts at a record boundary, so its quote parity starts even and its boundary pass is exact
up to its last newline outside quotes; the records after that newline are read again at the start of
the next piece (a record longer than a piece doubles the piece). Every piece is typed by the same rules
as a whole file (``csv_reference.build_column``); the pieces' columns then join when their types agree,
ints widen to floats beside floats (pandas' answer for such a column), and any other disagreement
(text in one piece, numbers in another) returns None: the caller parses the file in one pass instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.backend import array_module
from ember.io.csv_reference import Unsupported, WideIntegers, Words, close_boundaries, read_buffer

# A piece: (bytes on the compute device, boundary positions, newline flags, quote total, last byte)
Piece = tuple[Any, Any, Any, int, int]


def read_chunked(
    piece: Callable[[int, int], Piece],
    offset: int,
    size: int,
    chunk_bytes: int,
    sep: str,
    header: int | None,
    names: list | None,
    words: Words,
    nrows: int | None,
    column: Callable | None = None,
) -> tuple[list, list] | None:
    """(names, columns) of bytes [offset, size) read through ``piece(start, end)``, or None when the
    pieces' column types disagree beyond int/float."""
    parts: list[list] = []
    file_names: list | None = None
    start, step, left = offset, chunk_bytes, nrows
    while start < size and (left is None or left > 0 or file_names is None):  # nrows=0: the header
        end = min(size, start + step)
        buf, pos, nl, quotes, last = piece(start, end)
        xp = array_module(buf)
        if end < size:
            pos, nl, used = _through_last_record(pos, nl, xp)
            if used == 0:  # no complete record in the piece: read a longer one
                step *= 2
                continue
        else:
            pos, nl = close_boundaries(pos, nl, quotes, last, int(buf.shape[0]), xp)
            used = int(buf.shape[0])
        first = file_names is None
        try:
            got_names, cols = read_buffer(
                buf[:used],
                sep,
                header if first else None,
                names if first else file_names,
                words,
                left,
                bounds=(pos, nl),
                column=column,
            )
        except WideIntegers:
            return None  # a piece's refusal may not be the file's (text in a later piece): one pass decides
        except Unsupported as exc:
            if first or str(exc) != "no records":
                raise
            got_names, cols = file_names, []  # a piece of blank lines only
        file_names = got_names
        if cols:
            parts.append(cols)
            if left is not None:
                left -= len(cols[0])
        start, step = start + used, chunk_bytes
    buf = pos = nl = None  # the last piece's bytes and boundaries: not held while the columns join
    if not parts:
        raise Unsupported("no records")
    joined = []
    for j in range(len(parts[0])):  # each column's pieces are let go once joined: peak ~ frame + a column
        pieces = [p[j] for p in parts]
        for p in parts:
            p[j] = None
        col = _join(pieces)
        if col is None:
            return None
        joined.append(col)
    return list(file_names or []), joined


def _through_last_record(pos: Any, nl: Any, xp: Any) -> tuple[Any, Any, int]:
    """The boundaries up to the piece's last newline outside quotes, and the bytes through it (0: none)."""
    lines = xp.flatnonzero(nl)
    if lines.shape[0] == 0:
        return pos[:0], nl[:0], 0
    k = int(lines[-1])
    return pos[: k + 1], nl[: k + 1], int(pos[k]) + 1


def _join(cols: list) -> Any:
    """The pieces of one column as one column, or None when their types disagree beyond int/float."""
    from ember.column import NumericColumn, StringColumn
    from ember.column.convert import concat_columns

    if len(cols) == 1:
        return cols[0]
    if all(isinstance(c, StringColumn) for c in cols):
        return concat_columns(cols)
    if not all(isinstance(c, NumericColumn) for c in cols):
        return None
    dtypes = {np.dtype(c.data.dtype) for c in cols}
    if len(dtypes) == 1 or dtypes <= {np.dtype(np.int64), np.dtype(np.float64)}:
        return concat_columns(cols)
    return None


def host_piece(data: bytes, sep: str) -> Callable[[int, int], Piece]:
    """``piece`` over bytes in host memory, with the reference boundary pass (the CPU path and tests)."""
    from ember.io.csv_reference import open_boundaries

    def piece(start: int, end: int) -> Piece:
        buf = np.frombuffer(data, dtype=np.uint8)[start:end]
        pos, nl, quotes = open_boundaries(buf, sep.encode()[0], np)
        return buf, pos, nl, quotes, int(buf[-1])

    return piece

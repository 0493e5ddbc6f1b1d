"""Columns from Parquet pages decompressed on the device (``parquet_decode``): dictionary indices and
definition levels decoded, values looked up, PLAIN values put in place, nulls spread to their rows.
One function per kind of column; each launches a few kernels (``backend.kernels.parquet``) over the
contiguous slice of the page table that holds its column's pages."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa

from ember.backend.kernels import parquet as kernels
from ember.backend.kernels.parquet import (
    DATA_PAGE,
    PLAIN,
    PLAIN_DICTIONARY,
    RLE,
    RLE_DICTIONARY,
    ParquetPageError,
)

PHYSICAL_DTYPE = {
    "INT32": np.dtype("<i4"),
    "INT64": np.dtype("<i8"),
    "FLOAT": np.dtype("<f4"),
    "DOUBLE": np.dtype("<f8"),
    "BOOLEAN": np.dtype(bool),
}


class ColumnPlan(NamedTuple):
    """What ``parquet_decode`` learned of a column it decodes."""

    name: str
    type: Any  # the Arrow type
    leaf: int  # the column's index in the footer's schema
    physical: str
    max_def: int
    nulls: bool  # whether it may hold nulls (its definition levels are then decoded)


class Decoded(NamedTuple):
    """Every covered page decompressed on the device, with what the per-column lookups need."""

    pages: dict  # ``_pages``: the page table (host) grouped by column and kernel, and its facts
    data: Any  # the decompressed pages, end to end (device)
    out_at: np.ndarray  # where each page starts in ``data`` (host)
    values_at: Any  # where each page's values start in ``data`` (device)
    values_end: Any  # where each page ends (device)
    lookups: np.ndarray  # ``_lookups``' per-page rows (host)
    params: Any  # the same on the device
    packed: tuple  # the fixed-width dictionaries on the device, and each column's place there
    error: Any  # the kernels' shared error flag (device)


def column_values(k: int, c: ColumnPlan, decoded: Decoded, dicts: list, rows: list, n: int, xp: Any) -> Any:
    """Column ``k`` from its pages: dictionary indices decoded, then looked up (fixed width: in the
    chunks' dictionaries laid end to end in ``decoded.packed``, each index offset by its dictionary's
    place; strings: the codes of a categorical over the chunks' dictionaries, for a categorical, or
    those codes' strings); PLAIN pages copied into
    place. A column with nulls first decodes its definition levels (``_present``): its values are then
    the present rows' only, decoded compactly and spread to their rows. NotImplementedError, before
    any launch, for pages the kernels do not decode."""
    from ember.column import from_arrow

    pages = decoded.pages
    first, middle, last = (int(b) for b in pages["bounds"][2 * k : 2 * k + 3])
    encoding = pages["table"][kernels.PAGE_FIELDS.index("encoding")][first:last]
    known = (PLAIN, RLE) if c.physical == "BOOLEAN" else (PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY)
    if np.isin(encoding, known, invert=True).any():
        raise NotImplementedError(f"Parquet encodings {sorted(set(encoding.tolist()))} of {c.name!r}")
    strings = c.physical == "BYTE_ARRAY"
    categorical = pa.types.is_dictionary(c.type)
    if categorical and middle < last:
        raise NotImplementedError(f"PLAIN-encoded pages of the categorical {c.name!r}")
    # (a column that may hold nulls may have a page of nulls only, with no dictionary to look in:
    # a page whose values need one and lack it is caught by the kernel, an index past size 0)
    if c.physical != "BOOLEAN" and not c.nulls and (decoded.lookups[3, first:middle] == 0).any():
        raise ParquetPageError(f"column {c.name!r}: a dictionary-encoded page without a dictionary")
    valid, spread, counts = _present(decoded, first, last, n, xp) if c.nulls else (None, None, None)
    if valid is not None and (pa.types.is_integer(c.type) or pa.types.is_boolean(c.type)):
        # one sync: pandas reads an int or bool column with no null as such, whatever the footer said
        # (a file without statistics); present everywhere, the compact values are the rows' own
        if not bool((~valid).any()):
            valid = spread = None

    def pages_of(a: int, b: int, facts: int) -> list:
        at = [decoded.values_at[a:b], decoded.values_end[a:b]]
        if counts is None:
            return at + list(decoded.params[:facts, a:b])
        return (
            at
            + [counts[0][a - first : b - first], counts[1][a - first : b - first]]
            + list(decoded.params[2:facts, a:b])
        )

    if c.physical == "BOOLEAN":
        values = _booleans(decoded, pages_of(first, last, 2), middle - first, n, xp)
        return from_arrow(pa.array([], type=c.type), xp)._rebuild(
            values if valid is None else values[spread], valid
        )
    index = kernels.rle_indices(decoded.data, *pages_of(first, middle, 4), n, error=decoded.error)
    if categorical:
        from ember.io.parquet_device import categorical_from_parts

        if valid is not None:
            index = xp.where(valid, index[spread], np.int32(-1))
        empty = pa.array([], c.type.value_type)
        return categorical_from_parts(index, [empty if d is None else d for d in dicts], rows, c.type)
    if strings:
        plain = pages_of(middle, last, 2)
        span = _bytes_span(decoded, first, last)
        return _strings(
            c, decoded, span, index, plain, [d for d in dicts if d is not None], valid, spread, n, xp
        )
    dtype = PHYSICAL_DTYPE[c.physical]
    buffer, packed_at = decoded.packed
    size = sum(0 if d is None else len(d) for d in dicts)
    dictionary = buffer[packed_at[k] : packed_at[k] + size * dtype.itemsize].view(dtype)
    values = dictionary[index] if middle > first and size else xp.zeros(n, dtype=dtype)
    if middle < last:
        kernels.plain_copy(decoded.data, *pages_of(middle, last, 2), values, error=decoded.error)
    if valid is not None:
        values = values[spread]
    return from_arrow(pa.array([], type=c.type), xp)._rebuild(_finish(values, c.type), valid)


def _bytes_span(decoded: Decoded, first: int, last: int) -> tuple[int, int]:
    """Where pages ``[first, last)`` (one column's, laid out one after another) lie in the decompressed
    bytes."""
    if first == last:
        return 0, 0
    size = decoded.pages["table"][kernels.PAGE_FIELDS.index("out_size")]
    return int(decoded.out_at[first]), int(decoded.out_at[last - 1] + size[last - 1])


def _strings(
    c: ColumnPlan,
    decoded: Decoded,
    span: tuple[int, int],
    index: Any,
    plain: list,
    dicts: list,
    valid: Any,
    spread: Any,
    n: int,
    xp: Any,
) -> Any:
    """A string column from its pages: each value's bytes are either a dictionary entry (``index``:
    its place among the column's dictionaries laid end to end) or a PLAIN page's (their places found
    by ``byte_array_spans``); one gather packs them (``gather_bytes``, over the column's own ``span``
    of the decompressed pages and the dictionaries' bytes after it). Synchronizes once (the packed
    size)."""
    from ember.backend import asarray_on
    from ember.backend.primitives import gather_bytes
    from ember.column import StringColumn, from_arrow

    starts = xp.zeros(n, dtype=np.int64)
    lengths = xp.full(n, -1, dtype=np.int64)  # -1: not a PLAIN value (a dictionary entry)
    if plain[0].shape[0]:
        kernels.byte_array_spans(decoded.data, *plain, starts, lengths, error=decoded.error)
    words = (
        pa.concat_arrays([d.cast(pa.large_binary()) for d in dicts])
        if dicts
        else pa.array([], pa.large_binary())
    )
    word_offsets = asarray_on(
        np.frombuffer(words.buffers()[1], np.int64, len(words) + 1, words.offset * 8), xp
    )
    word_bytes = words.buffers()[2]
    lo, hi = span  # the source holds this column's pages only, not every column's
    source = xp.concatenate(
        [
            decoded.data[lo:hi],
            asarray_on(np.frombuffer(word_bytes, np.uint8) if word_bytes else np.zeros(0, np.uint8), xp),
        ]
    )
    code = xp.minimum(index.astype(np.int64), max(len(words) - 1, 0))
    from_plain = lengths >= 0
    starts = starts - lo
    if len(words):
        starts = xp.where(from_plain, starts, word_offsets[code] + (hi - lo))
        lengths = xp.where(from_plain, lengths, word_offsets[code + 1] - word_offsets[code])
    if valid is not None:
        starts, lengths = starts[spread], xp.where(valid, lengths[spread], 0)
    lengths = xp.maximum(lengths, 0)
    offsets = xp.zeros(n + 1, dtype=np.int64)
    offsets[1:] = xp.cumsum(lengths)
    template = from_arrow(pa.array([], type=c.type), xp)
    return StringColumn(offsets, gather_bytes(source, starts, offsets), valid, template.pd_dtype)


def _booleans(decoded: Decoded, page_facts: list, rle_pages: int, n: int, xp: Any) -> Any:
    """The present values of a boolean column's pages (``page_facts``: values start, page end, values,
    first slot; its first ``rle_pages`` pages v2's RLE, the others PLAIN): RLE pages are the hybrid of
    width 1 after a 4-byte length (``rle_indices``); a PLAIN page's values are bits, least significant
    first: slot j reads bit i = j - (its page's first slot) of its page. Corrupt pages set the error."""
    values_at, values_end, count, start = page_facts
    out = xp.zeros(n, dtype=np.int32)
    if rle_pages:
        facts = [values_at[:rle_pages] + 4, values_end[:rle_pages], count[:rle_pages], start[:rle_pages]]
        zeros = xp.zeros(rle_pages, dtype=np.int64)
        kernels.rle_indices(decoded.data, *facts, zeros, zeros + 2, n, out=out, error=decoded.error, width=1)
    plain = slice(rle_pages, None)
    if len(count[plain]) and n:
        at, end, many, first_slot = values_at[plain], values_end[plain], count[plain], start[plain]
        slot = xp.arange(n, dtype=np.int64)
        page = xp.maximum(xp.searchsorted(first_slot, slot, side="right") - 1, 0)
        bit = slot - first_slot[page]
        mine = (bit >= 0) & (bit < many[page])
        byte = xp.minimum(at[page] + bit // 8, decoded.data.shape[0] - 1)
        bits = (decoded.data[byte] >> (bit % 8).astype(np.uint8)) & 1
        out = xp.where(mine, bits.astype(np.int32), out)
        short = (at + (many + 7) // 8 > end).any()
        decoded.error[...] = xp.maximum(decoded.error, xp.where(short, np.int32(12), np.int32(0)))
    return out.astype(bool)


def _present(decoded: Decoded, first: int, last: int, n: int, xp: Any) -> tuple:
    """(validity per row, for each row the place of its value among the present ones, (present
    values per page, where each page's first one goes)) of pages ``[first, last)`` of a column, from
    their definition levels (bit width 1: after a v1 page's 4-byte length, at a v2 page's start)."""
    from ember.backend import asarray_on

    kind = decoded.pages["table"][0][first:last]
    levels_at = decoded.out_at[first:last] + np.where(kind == DATA_PAGE, 4, 0)
    count, row = decoded.params[0, first:last], decoded.params[1, first:last]
    zeros = xp.zeros(last - first, dtype=np.int64)
    levels = kernels.rle_indices(
        decoded.data,
        asarray_on(levels_at, xp),
        decoded.values_at[first:last],  # the levels end where the values start
        count,
        row,
        zeros,
        zeros + 2,
        n,
        error=decoded.error,
        width=1,
    )
    valid = levels == 1
    before = xp.zeros(n + 1, dtype=np.int64)
    before[1:] = xp.cumsum(valid, dtype=np.int64)
    start = before[row]
    return valid, xp.maximum(before[1:] - 1, 0), (before[row + count] - start, start)


def _finish(values: Any, t: Any) -> Any:
    """Decoded physical values as the Arrow type's: narrower / unsigned ints cast (their bits, for the
    same width), date32 days as milliseconds (dates read as datetime64[ms], as pandas with
    ``date_as_object=False``)."""
    if pa.types.is_date32(t):
        return values.astype(np.int64) * 86_400_000
    if pa.types.is_integer(t):
        target = np.dtype(t.to_pandas_dtype())
        if target != values.dtype:
            return values.view(target) if target.itemsize == values.dtype.itemsize else values.astype(target)
    return values

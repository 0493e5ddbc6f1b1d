"""The CSV tokenizer and value parser as array code: the reference for the CUDA kernels in
``backend/kernels/csv.cu`` and the ``engine="ember"`` parser on the CPU.

Written against ``xp`` (NumPy or CuPy), so the same algorithm runs on both; the GPU path
(``io/csv_gpu.py``) swaps in fused kernels for the byte-level passes and keeps the rest.

The algorithm, for a UTF-8 buffer with ``"`` quotes (RFC 4180, doubled quotes inside quoted fields):

1. quote parity: an inclusive prefix count of quote bytes; a byte is outside quotes when the count up to
   it is even. Newlines and separators outside quotes are the record and field boundaries.
2. field spans: [previous boundary + 1, boundary), a trailing ``\\r`` dropped before a newline; records
   of one empty field (blank lines) are dropped, as pandas' ``skip_blank_lines`` does.
3. per column: strip the outer quotes, gather the bytes, classify every field (NA string, integer, float,
   bool, other) with segment reductions (prefix sums differenced at field ends), and parse numbers:
   integers exactly as int64; floats exactly on Clinger's fast path (<= 15 significant digits and a
   power of ten <= 22, where one multiplication or division is correctly rounded), the rest on the host.
4. the column type is pandas': int64 if every value is an integer (float64 once any is NA), float64,
   bool, else a string column in the Arrow layout (doubled quotes collapsed).

Quotes are only special when the quote count is balanced: a quote in the middle of an unquoted field
(not RFC 4180) toggles the parity; when that leaves rows ragged, the caller falls back to the host
parser, which treats it as pandas does.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from ember.backend.primitives import gather_bytes, repeat_positions

QUOTE = 34
NEWLINE = 10
CR = 13

# pandas' default NA strings (pandas._libs.parsers.STR_NA_VALUES) and its default bool spellings.
NA_STRINGS = (
    "",
    "#N/A",
    "#N/A N/A",
    "#NA",
    "-1.#IND",
    "-1.#QNAN",
    "-NaN",
    "-nan",
    "1.#IND",
    "1.#QNAN",
    "<NA>",
    "N/A",
    "NA",
    "NULL",
    "NaN",
    "None",
    "n/a",
    "nan",
    "null",
)
TRUE_STRINGS = ("True", "TRUE", "true")
FALSE_STRINGS = ("False", "FALSE", "false")
INF_STRINGS = ("inf", "+inf", "-inf", "infinity", "+infinity", "-infinity")  # matched case-insensitively

POW10_INT = np.array([10**k for k in range(19)], dtype=np.int64)
POW10_FLOAT = np.array([10.0**k for k in range(23)], dtype=np.float64)
MAX_FAST_DIGITS = 15
MAX_INT_DIGITS = 18


class Unsupported(Exception):
    """The buffer needs the host parser (ragged rows, unbalanced quotes, duplicate names, huge ints ...)."""


@dataclass
class Tokens:
    """Field spans of a tokenized buffer, kept as the (records, columns) grid of the position that ends
    each field (its separator or newline) and each record's first byte. A column's (starts, ends) are
    made when asked for (``column``), so no (records x columns) start array is ever built: a 256 MB
    piece of the benchmark CSV holds 45 million fields."""

    grid: Any  # int64 (records, columns)
    row_start: Any  # int64 (records,)
    buf: Any

    @property
    def n_records(self) -> int:
        return int(self.grid.shape[0])

    @property
    def n_columns(self) -> int:
        return int(self.grid.shape[1])

    def column(self, j: int) -> tuple[Any, Any]:
        """(starts, ends) of column ``j``'s fields; the last column's ends drop a CR before the newline."""
        ends = self.grid[:, j]
        starts = self.row_start if j == 0 else self.grid[:, j - 1] + 1
        if j == self.n_columns - 1:
            ends = _strip_cr(self.buf, starts, ends, _xp(self.buf))
        return starts, ends

    def rows(self, start: int, stop: int | None = None) -> Tokens:
        return Tokens(self.grid[start:stop], self.row_start[start:stop], self.buf)

    @property
    def starts(self) -> Any:
        xp = _xp(self.grid)
        return xp.stack([self.column(j)[0] for j in range(self.n_columns)], axis=1)

    @property
    def ends(self) -> Any:
        xp = _xp(self.grid)
        return xp.stack([self.column(j)[1] for j in range(self.n_columns)], axis=1)


def _strip_cr(buf: Any, starts: Any, ends: Any, xp: ModuleType) -> Any:
    """Field ends at a newline, less a CR just before it (CRLF line ends)."""
    cr = (ends > starts) & (buf[xp.maximum(ends - 1, 0)] == CR)
    return ends - cr


def _no_tokens(xp: ModuleType, buf: Any) -> Tokens:
    return Tokens(xp.zeros((0, 0), dtype=np.int64), xp.zeros(0, dtype=np.int64), buf)


def _boundaries(buf: Any, sep: int, xp: ModuleType) -> tuple[Any, Any]:
    """Positions of separators/newlines outside quotes (plus a virtual newline at EOF) and newline flags."""
    qcount = xp.cumsum(buf == QUOTE, dtype=np.int64)
    pos, nl = _outside_quotes(buf, qcount, sep, xp)
    # one sync for the two facts the host must know: balanced quotes, and whether the buffer ends a record
    tail_quotes, last = (int(v) for v in to_host_pair(qcount[-1], buf[-1], xp))
    return close_boundaries(pos, nl, tail_quotes, last, int(buf.shape[0]), xp)


def open_boundaries(buf: Any, sep: int, xp: ModuleType) -> tuple[Any, Any, int]:
    """(positions, newline flags, quote total) of a non-empty piece, not closed at its end (a piece of a
    longer file: ``csv_chunks`` cuts it at its last newline)."""
    qcount = xp.cumsum(buf == QUOTE, dtype=np.int64)
    pos, nl = _outside_quotes(buf, qcount, sep, xp)
    return pos, nl, int(qcount[-1])


def _outside_quotes(buf: Any, qcount: Any, sep: int, xp: ModuleType) -> tuple[Any, Any]:
    outside = (qcount & 1) == 0
    is_nl = (buf == NEWLINE) & outside
    pos = xp.flatnonzero(is_nl | ((buf == sep) & outside)).astype(np.int64)
    return pos, is_nl[pos]


def close_boundaries(pos: Any, nl: Any, quotes: int, last: int, n: int, xp: ModuleType) -> tuple[Any, Any]:
    """Checks the quote balance and adds the virtual newline at EOF when the last record has none."""
    if quotes & 1:
        raise Unsupported("EOF inside a quoted field")
    if last != NEWLINE:
        pos = xp.concatenate([pos, xp.asarray([n], dtype=np.int64)])
        nl = xp.concatenate([nl, xp.ones(1, dtype=bool)])
    return pos, nl


def to_host_pair(a: Any, b: Any, xp: ModuleType) -> np.ndarray:
    """Two device scalars in one transfer."""
    if xp is np:
        return np.array([int(a), int(b)], dtype=np.int64)
    return xp.stack([a.astype(np.int64), b.astype(np.int64)]).get()


def tokenize(buf: Any, sep: int = 44, bounds: tuple[Any, Any] | None = None) -> Tokens:
    """Field spans of every non-blank record of ``buf`` (uint8); raises Unsupported for ragged input.

    ``bounds``: (positions, newline flags) from the GPU kernels, already closed at EOF; computed here
    otherwise. Works on record-sized arrays (the fields' positions are only reshaped), except where
    blank lines must be cut out. Synchronizes twice (the record count, then the record shape check)."""
    xp = _xp(buf)
    if int(buf.shape[0]) == 0:
        return _no_tokens(xp, buf)
    pos, nl = _boundaries(buf, sep, xp) if bounds is None else bounds
    line_end = xp.flatnonzero(nl)  # each record's last field (the last flag is set: closed at EOF)
    n_all = int(line_end.shape[0])
    row_start = xp.zeros(n_all, dtype=np.int64)
    row_start[1:] = pos[line_end[:-1]] + 1
    fields = xp.diff(line_end, prepend=-1)
    # a record of one empty field (an empty line, or a lone CR) is skipped, as pandas skips blank lines
    content_end = _strip_cr(buf, row_start, pos[line_end], xp)
    blank = (fields == 1) & (content_end == row_start)
    # pandas also skips a line of spaces and tabs only: a lone field starting and ending with one
    # (rare) sends the file to the host parsers, which leave it to pandas
    first, last = buf[xp.minimum(row_start, buf.shape[0] - 1)], buf[xp.maximum(content_end - 1, 0)]
    spaced = (fields == 1) & ~blank & _space_or_tab(first) & _space_or_tab(last)
    n_kept, lo, hi, n_blank, n_spaced, n_odd = _host_stats(fields, blank, spaced, xp, buf, sep)
    if n_odd:
        raise Unsupported("a quote inside an unquoted field, or a carriage return without a line feed")
    if n_spaced:  # (rare) those whose every byte is a space or tab are blank too
        text = xp.zeros(int(buf.shape[0]) + 1, dtype=np.int64)
        xp.cumsum(~_space_or_tab(buf), out=text[1:])
        blank |= spaced & (text[content_end] == text[row_start])
        n_kept, lo, hi, n_blank, _, _ = _host_stats(fields, blank, spaced & False, xp, buf[:0], sep)
    if n_kept == 0:
        return _no_tokens(xp, buf)
    if lo != hi:
        raise Unsupported("records have different numbers of fields")
    if n_blank == 0:
        return Tokens(pos.reshape(-1, hi), row_start, buf)
    record = xp.cumsum(nl, dtype=np.int64) - nl  # the rare case: each field's record, to cut the blanks
    keep = ~blank
    return Tokens(pos[keep[record]].reshape(-1, hi), row_start[keep], buf)


def _space_or_tab(byte: Any) -> Any:
    return (byte == 32) | (byte == 9)


def _odd_bytes(buf: Any, sep: int, xp: ModuleType) -> Any:
    """How many bytes pandas' tokenizer reads otherwise than the quote parity does (0-d, no sync): a
    carriage return not before a line feed (pandas ends a line there), a quote that opens a quoted
    stretch inside a field (pandas keeps a quote after a field's first byte as text) or closes one before
    the field ends. Doubled quotes inside a quoted field pass: the second opens right after the first."""
    n = int(buf.shape[0])
    if n < 2:
        return xp.zeros((), dtype=np.int64)
    lone_cr = ((buf[:-1] == CR) & (buf[1:] != NEWLINE)).sum()
    q = xp.flatnonzero(buf == QUOTE)
    opening = (xp.arange(q.shape[0]) & 1) == 0
    prev = buf[xp.maximum(q - 1, 0)]
    nxt = buf[xp.minimum(q + 1, n - 1)]
    open_ok = (q == 0) | (prev == sep) | (prev == NEWLINE) | (prev == QUOTE)
    close_ok = (q == n - 1) | (nxt == sep) | (nxt == NEWLINE) | (nxt == CR) | (nxt == QUOTE)
    return lone_cr.astype(np.int64) + xp.where(opening, ~open_ok, ~close_ok).sum()


def _host_stats(fields: Any, blank: Any, spaced: Any, xp: ModuleType, buf: Any, sep: int) -> tuple[int, ...]:
    """(non-blank records, min and max fields of one, blank records, records that may be spaces
    only, bytes pandas reads otherwise than the quote parity) in one transfer."""
    if fields.shape[0] == 0:
        return 0, 0, 0, 0, 0, 0
    odd = _odd_bytes(buf, sep, xp)
    big = np.iinfo(np.int64).max
    vals = xp.stack(
        [
            (~blank).sum().astype(np.int64),
            xp.where(blank, big, fields).min(),
            xp.where(blank, 0, fields).max(),
            blank.sum().astype(np.int64),
            spaced.sum().astype(np.int64),
            odd.astype(np.int64),
        ]
    )
    return tuple(int(v) for v in (vals.get() if xp is not np else vals))


def record_spans(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(start, end) byte offsets of every non-blank record, ends including the newline (host only).

    Used to cut a buffer into row chunks (nrows, chunksize) before the host parser sees it."""
    n = buf.shape[0]
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    outside = (np.cumsum(buf == QUOTE, dtype=np.int64) & 1) == 0
    nl = np.flatnonzero((buf == NEWLINE) & outside).astype(np.int64)
    ends = nl + 1
    if buf[-1] != NEWLINE:
        ends = np.append(ends, n)
    starts = np.concatenate([[0], ends[:-1]])
    length = ends - starts
    content = length - (buf[np.maximum(ends - 1, 0)] == NEWLINE)
    last_cr = (content > 0) & (buf[np.maximum(starts + content - 1, 0)] == CR)
    blank = (content - last_cr) == 0
    return starts[~blank], ends[~blank]


# --- per-column parsing --------------------------------------------------------------------------
@dataclass
class FieldBytes:
    """The unquoted bytes of one column's fields, packed: ``offsets`` (m + 1), ``chars``, and (made on
    first use: an int64 per byte, which a plain string column never needs) ``field``, each packed
    byte's field id; ``quoted`` marks fields that were quoted (doubled quotes to collapse)."""

    offsets: Any
    chars: Any
    quoted: Any
    lengths: Any
    _field: Any = None

    @property
    def field(self) -> Any:
        if self._field is None:
            total = int(self.chars.shape[0])
            self._field = repeat_positions(self.lengths, self.offsets[1:], total)
        return self._field


def _xp(a: Any) -> ModuleType:
    from ember.backend import array_module

    return array_module(a)


def field_bytes(buf: Any, starts: Any, ends: Any) -> FieldBytes:
    """Gather one column's field contents (outer quotes removed). Synchronizes once (total size)."""
    xp = _xp(buf)
    n = int(buf.shape[0])
    length = ends - starts
    safe_s = xp.minimum(starts, max(n - 1, 0))
    safe_e = xp.clip(ends - 1, 0, max(n - 1, 0))
    quoted = (length >= 2) & (buf[safe_s] == QUOTE) & (buf[safe_e] == QUOTE)
    cs = starts + quoted
    lengths = length - 2 * quoted
    offsets = xp.zeros(lengths.shape[0] + 1, dtype=np.int64)
    xp.cumsum(lengths, out=offsets[1:])
    total = int(offsets[-1])
    chars = gather_bytes(buf, cs, offsets, total)
    return FieldBytes(offsets, chars, quoted, lengths)


def _segment_sum(values: Any, offsets: Any, xp: ModuleType) -> Any:
    """Sum of ``values`` over each field (prefix sum differenced at field bounds; int64 wraps safely)."""
    c = xp.zeros(values.shape[0] + 1, dtype=values.dtype)
    xp.cumsum(values, out=c[1:])
    return c[offsets[1:]] - c[offsets[:-1]]


def match_strings(fb: FieldBytes, words: tuple[str, ...], fold_case: bool = False) -> Any:
    """Fields equal to one of ``words`` (byte comparison; ASCII case folded when asked)."""
    xp = _xp(fb.chars)
    out = xp.zeros(fb.lengths.shape[0], dtype=bool)
    chars = fb.chars | 0x20 if fold_case else fb.chars
    for word in words:
        w = word.encode()
        cand = fb.lengths == len(w)
        for k, byte in enumerate(w):
            idx = xp.minimum(fb.offsets[:-1] + k, max(int(chars.shape[0]) - 1, 0))
            if chars.shape[0] == 0:
                cand &= False
                break
            cand &= chars[idx] == (byte | 0x20 if fold_case else byte)
        out |= cand
    return out


@dataclass
class Numbers:
    """Per field: integer / float syntax flags and parsed values (valid where the flags say)."""

    is_int: Any
    is_float: Any
    int_value: Any
    float_value: Any
    slow: Any  # float syntax, but outside the exact fast path: parse on the host
    long_int: Any  # integer syntax with more digits than int64 parsing here handles


def parse_numbers(fb: FieldBytes) -> Numbers:
    """Integer and float syntax check and conversion for every field, with segment reductions."""
    xp = _xp(fb.chars)
    m = fb.lengths.shape[0]
    b = fb.chars
    pos = xp.arange(b.shape[0], dtype=np.int64) - fb.offsets[:-1][fb.field]
    digit = (b >= 48) & (b <= 57)
    sign = (b == 43) | (b == 45)
    dot = b == 46
    expch = (b == 101) | (b == 69)
    # exponent part: bytes after the first e/E of the field
    seen_e = _segment_inclusive_count(expch, fb, xp)
    in_exp = (seen_e > 0) & ~expch
    prev_is_e = xp.zeros_like(expch)
    if b.shape[0] > 1:
        prev_is_e[1:] = expch[:-1] & (pos[1:] > 0)
    sign_ok = sign & ((pos == 0) | prev_is_e)
    legal = digit | sign_ok | dot | expch
    n_illegal = _segment_sum((~legal).astype(np.int64), fb.offsets, xp)
    n_dot = _segment_sum((dot & ~in_exp).astype(np.int64), fb.offsets, xp)
    n_bad_dot = _segment_sum((dot & in_exp).astype(np.int64), fb.offsets, xp)
    n_e = _segment_sum(expch.astype(np.int64), fb.offsets, xp)
    mant_digit = digit & (seen_e == 0)
    exp_digit = digit & in_exp
    n_mant = _segment_sum(mant_digit.astype(np.int64), fb.offsets, xp)
    n_expd = _segment_sum(exp_digit.astype(np.int64), fb.offsets, xp)
    n_sign = _segment_sum(sign_ok.astype(np.int64), fb.offsets, xp)
    ok = (n_illegal == 0) & (n_bad_dot == 0) & (n_dot <= 1) & (n_e <= 1) & (n_mant >= 1)
    ok &= (n_e == 0) | (n_expd >= 1)
    is_int = ok & (n_dot == 0) & (n_e == 0) & (n_sign <= 1)
    is_float = ok
    negative = xp.zeros(m, dtype=bool)
    if b.shape[0]:
        first = xp.minimum(fb.offsets[:-1], b.shape[0] - 1)
        negative = (fb.lengths > 0) & (b[first] == 45)
    # mantissa digits: place value counted among the field's mantissa digits after this one
    mant_after = n_mant[fb.field] - _segment_inclusive_count(mant_digit, fb, xp)
    digits = (b.astype(np.int64) - 48) * mant_digit
    place = xp.minimum(mant_after, MAX_INT_DIGITS)
    mant = _segment_sum(
        digits * xp.asarray(POW10_INT)[place] * (mant_after <= MAX_INT_DIGITS), fb.offsets, xp
    )
    mant = xp.where(negative, -mant, mant)
    long_int = is_int & (n_mant > MAX_INT_DIGITS)
    is_int &= ~long_int
    # exponent value (digits after e; at most 4 considered, more is out of the fast path)
    exp_after = n_expd[fb.field] - _segment_inclusive_count(exp_digit, fb, xp)
    edig = (b.astype(np.int64) - 48) * exp_digit
    exp_val = _segment_sum(
        edig * xp.asarray(POW10_INT)[xp.minimum(exp_after, 4)] * (exp_after <= 4), fb.offsets, xp
    )
    neg_exp = _segment_sum((sign_ok & (pos > 0) & (b == 45)).astype(np.int64), fb.offsets, xp) > 0
    exp_val = xp.where(neg_exp, -exp_val, exp_val)
    frac_digits = _segment_sum(
        (mant_digit & (_segment_inclusive_count(dot, fb, xp) > 0)).astype(np.int64), fb.offsets, xp
    )
    power = exp_val - frac_digits
    fast = is_float & (n_mant <= MAX_FAST_DIGITS) & (xp.abs(power) <= 22) & (n_expd <= 4)
    scale = xp.asarray(POW10_FLOAT)[xp.minimum(xp.abs(power), 22)]
    magnitude = xp.abs(mant).astype(np.float64)
    fval = xp.where(power >= 0, magnitude * scale, magnitude / scale)
    fval = xp.where(negative, -fval, fval)
    slow = is_float & ~fast
    return Numbers(is_int, is_float, mant, fval, slow, long_int)


def _segment_inclusive_count(flag: Any, fb: FieldBytes, xp: ModuleType) -> Any:
    """For every byte, how many ``flag`` bytes of its field lie at or before it."""
    c = xp.cumsum(flag, dtype=np.int64)
    base = xp.concatenate([xp.zeros(1, dtype=np.int64), c])[fb.offsets[:-1]]
    return c - base[fb.field] if c.shape[0] else c


def parse_slow_floats(fb: FieldBytes, slow: Any, values: Any) -> Any:
    """Exact conversion of the fields outside the fast path, on the host (one transfer each way)."""
    from ember.backend import asarray_on, to_host

    xp = _xp(values)
    idx = to_host(xp.flatnonzero(slow))
    if idx.size == 0:
        return values
    offsets, chars = to_host(fb.offsets), to_host(fb.chars)
    text = chars.tobytes()
    parsed = np.array([float(text[offsets[i] : offsets[i + 1]]) for i in idx], dtype=np.float64)
    out = values.copy()
    out[asarray_on(idx, xp)] = asarray_on(parsed, xp)
    return out


def collapse_quotes(fb: FieldBytes) -> tuple[Any, Any]:
    """Arrow (offsets, chars) of the field strings, ``""`` inside quoted fields collapsed to ``"``."""
    xp = _xp(fb.chars)
    if fb.chars.shape[0] == 0 or not bool(fb.quoted.any()):  # one sync: unquoted columns skip 4 passes
        return fb.offsets, fb.chars
    q = fb.chars == QUOTE
    nth = _segment_inclusive_count(q, fb, xp)  # 1-based index of this quote within its field
    drop = q & fb.quoted[fb.field] & ((nth & 1) == 0)
    keep = ~drop
    kept = _segment_sum(keep.astype(np.int64), fb.offsets, xp)
    offsets = xp.zeros(kept.shape[0] + 1, dtype=np.int64)
    xp.cumsum(kept, out=offsets[1:])
    return offsets, fb.chars[keep]


def decode_header(buf: Any, starts: Any, ends: Any) -> list[str]:
    """Column names from one record's field spans; only that record's bytes come to the host."""
    from ember.backend import to_host

    s, e = to_host(starts).astype(np.int64), to_host(ends).astype(np.int64)
    lo, hi = (int(s.min()), int(e.max())) if s.size else (0, 0)
    raw = to_host(buf[lo:hi]).tobytes()
    names = []
    for a, b in zip(s.tolist(), e.tolist(), strict=True):
        field = raw[a - lo : b - lo]
        if len(field) >= 2 and field[:1] == b'"' and field[-1:] == b'"':
            field = field[1:-1].replace(b'""', b'"')
        names.append(field.decode("utf-8"))
    return names


# --- columns and frames ----------------------------------------------------------------------------
@dataclass
class Words:
    """The strings that mean NA, True and False (pandas' defaults unless the user changed them)."""

    na: tuple[str, ...] = NA_STRINGS
    true: tuple[str, ...] = TRUE_STRINGS
    false: tuple[str, ...] = FALSE_STRINGS


F_NA, F_INT, F_FLOAT, F_TRUE, F_FALSE, F_SLOW, F_LONGINT, F_INF = 1, 2, 4, 8, 16, 32, 64, 128


def classify(buf: Any, starts: Any, ends: Any, words: Words) -> tuple[Any, Any, Any, FieldBytes]:
    """(int64 values, float64 values, flag bytes, field bytes) of one column: exactly what the
    ``csv_parse_fields`` kernel computes (flags: NA, INT, FLOAT syntax, TRUE, FALSE, SLOW, LONGINT, INF;
    values 0 where the flags say the field is not such a number)."""
    xp = _xp(buf)
    fb = field_bytes(buf, starts, ends)
    m = int(starts.shape[0])
    na = match_strings(fb, words.na) if words.na else xp.zeros(m, dtype=bool)
    nums = parse_numbers(fb)
    inf = match_strings(fb, INF_STRINGS, fold_case=True) & ~nums.is_float
    is_true = match_strings(fb, words.true) if words.true else xp.zeros(m, dtype=bool)
    is_false = match_strings(fb, words.false) if words.false else xp.zeros(m, dtype=bool)
    slow = nums.slow & ~nums.is_int
    flags = (
        na * F_NA
        | nums.is_int * F_INT
        | nums.is_float * F_FLOAT
        | is_true * F_TRUE
        | is_false * F_FALSE
        | slow * F_SLOW
        | nums.long_int * F_LONGINT
        | inf * F_INF
    ).astype(np.uint8)
    ival = xp.where(nums.is_int, nums.int_value, 0)
    fval = xp.where(
        nums.is_int, ival.astype(np.float64), xp.where(nums.is_float & ~slow, nums.float_value, 0.0)
    )
    fval = xp.where(inf, xp.where(_first_byte(fb, xp) == 45, -np.inf, np.inf), fval)
    return ival, fval, flags, fb


def parse_column(buf: Any, starts: Any, ends: Any, words: Words) -> Any:
    """One column from its field spans, typed as pandas infers it."""
    ival, fval, flags, fb = classify(buf, starts, ends, words)
    return build_column(ival, fval, flags, lambda: fb)


def build_column(ival: Any, fval: Any, flags: Any, get_fb: Any) -> Any:
    """The column pandas would infer from the classified fields. Synchronizes once for the type decision,
    again for the slow floats (if any) and for the string bytes (string columns)."""
    from ember.column import NumericColumn, StringColumn

    xp = _xp(flags)
    m = int(flags.shape[0])
    na = (flags & F_NA) != 0
    valid = ~na
    is_int = (flags & F_INT) != 0
    numeric = (flags & (F_FLOAT | F_INF)) != 0
    boolean = (flags & (F_TRUE | F_FALSE)) != 0
    facts = xp.stack(
        [
            valid.sum(),
            (is_int & valid).sum(),
            (numeric & valid).sum(),
            (boolean & valid).sum(),
            ((flags & F_LONGINT) != 0).sum(),
            na.sum(),
            (((flags & F_SLOW) != 0) & valid).sum(),
        ]
    ).astype(np.int64)
    n_valid, n_int, n_num, n_bool, n_long, n_na, n_slow = (
        int(v) for v in (facts.get() if xp is not np else facts)
    )
    fb_once: list = []

    def fields() -> FieldBytes:
        if not fb_once:
            fb_once.append(get_fb())
        return fb_once[0]

    if n_long:  # integers of 19+ digits: exact int64 where they fit, else pandas' uint64 or a refusal
        got = _wide_integers(ival, flags, fields(), n_valid, n_num, n_na, xp)
        if not isinstance(got, tuple):
            return got
        ival, flags, n_int = got
    if n_valid == 0:
        return NumericColumn(xp.full(m, np.nan, dtype=np.float64))
    if n_int == n_valid and n_na == 0:
        return NumericColumn(ival)
    if n_num == n_valid:
        values = fval
        if n_slow:
            values = parse_slow_floats(fields(), ((flags & F_SLOW) != 0) & valid, values)
        return NumericColumn(xp.where(valid, values, np.nan))
    if n_bool == n_valid:
        return NumericColumn((flags & F_TRUE) != 0, None if n_na == 0 else valid)
    fb = fields()
    if n_num == 0:  # pandas' own words True / False match in any case ("tRUE"; the user's exactly)
        folded_true = match_strings(fb, ("true",), fold_case=True)
        folded = folded_true | match_strings(fb, ("false",), fold_case=True) | boolean
        if int((folded & valid).sum()) == n_valid:
            return NumericColumn(((flags & F_TRUE) != 0) | folded_true, None if n_na == 0 else valid)
    if _padded_numbers_possible(fb, valid & ~numeric & ~boolean, xp):
        raise Unsupported("whitespace around values")  # pandas may read " 1" as a number: host parser
    offsets, chars = collapse_quotes(fb)
    return StringColumn(offsets, chars, None if n_na == 0 else valid)


class WideIntegers(Unsupported):
    """A column holds integers outside int64 that pandas keeps as Python ints (an object column), or
    reads by rules that depend on the row order: ember refuses it rather than round them."""


_E18 = 10**18
_U64_MAX_LOW = 2**64 - 1 - 18 * _E18  # uint64 max = 18 * 10**18 + this
_I64_MAX_LOW = 2**63 - 1 - 9 * _E18  # int64 max = 9 * 10**18 + this (its min is one more in magnitude)


def wide_integer_values(fb: FieldBytes) -> tuple[Any, Any, Any, Any, Any]:
    """Exact values of integer fields of any length (sign and digits): (int64 value, valid where
    ``in_i64``; uint64 value, valid where ``in_u64``; in_i64; in_u64 (non-negative and at most
    2**64 - 1); negative). The digits are summed in two parts, the last 18 and the 3 before them
    (each exact in int64); a non-zero digit further left is out of both ranges."""
    xp = _xp(fb.chars)
    b = fb.chars
    digit = (b >= 48) & (b <= 57)
    n_dig = _segment_sum(digit.astype(np.int64), fb.offsets, xp)
    place = n_dig[fb.field] - _segment_inclusive_count(digit, fb, xp)  # 0 for the units digit
    d = (b.astype(np.int64) - 48) * digit
    pow10 = xp.asarray(POW10_INT)
    low = _segment_sum(d * pow10[xp.minimum(place, 18)] * (place < 18), fb.offsets, xp)
    high = _segment_sum(
        d * pow10[xp.clip(place - 18, 0, 18)] * ((place >= 18) & (place < 21)), fb.offsets, xp
    )
    beyond = _segment_sum(d * (place >= 21), fb.offsets, xp) > 0
    negative = (fb.lengths > 0) & (_first_byte(fb, xp) == 45)
    i64_low_max = xp.where(negative, _I64_MAX_LOW + 1, _I64_MAX_LOW)
    in_i64 = ~beyond & ((high < 9) | ((high == 9) & (low <= i64_low_max)))
    in_u64 = ~beyond & ~negative & ((high < 18) | ((high == 18) & (low <= _U64_MAX_LOW)))
    h, lo = xp.where(in_i64, high, 0), xp.where(in_i64, low, 0)
    i64 = xp.where(negative, -(h * _E18) - lo, h * _E18 + lo)
    hu, lu = xp.where(in_u64, high, 0).astype(np.uint64), xp.where(in_u64, low, 0).astype(np.uint64)
    u64 = hu * np.uint64(_E18) + lu
    return i64, u64, in_i64, in_u64, negative


def _wide_integers(
    ival: Any, flags: Any, fb: FieldBytes, n_valid: int, n_num: int, n_na: int, xp: ModuleType
) -> Any:
    """Long integer fields (19+ digits) resolved: those inside int64 become ordinary integers
    (returns the updated (ival, flags, integer count)); a column of integers some of which lie above
    int64 (all non-negative, none above 2**64 - 1, no missing value) is pandas' uint64 column (returned
    as a column). pandas reads any other column holding integers outside int64 as Python ints in an
    object column, or as text keeping missing values as text, or as float64, depending on the row
    order: refused (``WideIntegers``). A text column stays text. One synchronization."""
    from ember.column import NumericColumn

    long = (flags & F_LONGINT) != 0
    i64, u64, in_i64, in_u64, negative = wide_integer_values(fb)
    fits = long & in_i64
    ival = xp.where(fits, i64, ival)
    flags = xp.where(fits, (flags | F_INT) & ~np.uint8(F_LONGINT), flags).astype(np.uint8)
    wide = long & ~in_i64
    valid = (flags & F_NA) == 0
    is_int = (flags & F_INT) != 0
    facts = xp.stack(
        [
            (is_int & valid).sum(),
            wide.sum(),
            (wide & ~in_u64).sum(),
            (wide & ~negative & ~in_u64).sum(),
            (is_int & valid & (ival < 0)).sum(),
        ]
    ).astype(np.int64)
    n_int, n_wide, n_not_u64, n_above_u64, n_neg = (int(v) for v in (facts.get() if xp is not np else facts))
    if n_wide == 0:
        return ival, flags, n_int
    if n_num < n_valid:  # text (or bool words) beside the numbers: a text column, as pandas
        if n_na and n_above_u64:
            raise WideIntegers(
                "integers above 2**64 - 1 beside text and missing values (pandas keeps the missing "
                "values as text there)"
            )
        return ival, flags, n_int
    if n_int + n_wide == n_valid and n_na == 0 and n_not_u64 == 0 and n_neg == 0:
        return NumericColumn(xp.where(wide, u64, ival.astype(np.uint64)))
    beside = [
        w
        for w, n in (
            ("missing values", n_na),
            ("negative numbers", n_neg),
            ("floats", n_valid - n_int - n_wide),
        )
        if n
    ]
    raise WideIntegers(
        ("integers outside the int64 and uint64 ranges" if n_not_u64 else "integers above the int64 range")
        + (" beside " + " and ".join(beside) if beside else "")
        + " (pandas keeps such a column as Python ints in an object column, or as text, or as float64, "
        "depending on the row order)"
    )


def _padded_numbers_possible(fb: FieldBytes, text: Any, xp: ModuleType) -> bool:
    """Whether pandas may read this text column as numbers: some field begins or ends with whitespace
    (pandas reads " 1" as a number) and no field is unpadded text (which keeps the column text, padded
    fields as they are). One sync."""
    if fb.chars.shape[0] == 0:
        return False
    padded = _padded_fields(fb, xp)
    # a padded field holding a byte no number, NA or bool word has (a comma, a quote, non-ASCII ...)
    b = fb.chars
    letter = ((b | 0x20) >= 97) & ((b | 0x20) <= 122)
    numberish = letter | ((b >= 48) & (b <= 57)) | (b == 43) | (b == 45) | (b == 46) | (b <= 32)
    certain_text = _segment_sum((~numberish).astype(np.int64), fb.offsets, xp) > 0
    facts = xp.stack([padded.sum(), (text & (~padded | certain_text)).sum()])
    n_padded, n_plain_text = (int(v) for v in (facts.get() if xp is not np else facts))
    return n_padded > 0 and n_plain_text == 0


def _padded_fields(fb: FieldBytes, xp: ModuleType) -> Any:
    """Fields that begin or end with whitespace."""
    last = int(fb.chars.shape[0]) - 1
    nonempty = fb.lengths > 0
    first = fb.chars[xp.minimum(fb.offsets[:-1], last)]
    end = fb.chars[xp.clip(fb.offsets[1:] - 1, 0, last)]
    space = (
        (first == 32)
        | (first == 9)
        | (first == 10)
        | (first == 13)
        | (end == 32)
        | (end == 9)
        | (end == 10)
        | (end == 13)
    )
    return space & nonempty


def _first_byte(fb: FieldBytes, xp: ModuleType) -> Any:
    if fb.chars.shape[0] == 0:
        return xp.zeros(fb.lengths.shape[0], dtype=np.uint8)
    return fb.chars[xp.minimum(fb.offsets[:-1], fb.chars.shape[0] - 1)]


def read_buffer(
    buf: Any,
    sep: str = ",",
    header: int | None = 0,
    names: list | None = None,
    words: Words | None = None,
    nrows: int | None = None,
    bounds: Any = None,
    column: Any = None,
) -> tuple[list, list]:
    """(column names, columns) of a CSV buffer (uint8 array on the host or the device).

    ``header`` is 0 (first record holds the names) or None; raises Unsupported where the host parser
    must take over (ragged records, unbalanced quotes, duplicate names, a names list of another width).
    ``bounds`` and ``column`` let the GPU path supply the kernel versions of the boundary pass and of
    ``parse_column``."""
    from ember.column import StringColumn

    words = words or Words()
    sep_b = sep.encode()
    if len(sep_b) != 1:
        raise Unsupported("multi-byte separator")
    tok = tokenize(buf, sep_b[0], bounds)
    if tok.n_records == 0:
        raise Unsupported("no records")
    if header == 0:
        head = tok.rows(0, 1)
        file_names = decode_header(buf, head.starts[0], head.ends[0])
        tok = tok.rows(1)
        if len(set(file_names)) != len(file_names):
            raise Unsupported("duplicate column names")
    else:
        file_names = list(range(tok.n_columns))
    if names is not None:
        if len(names) != tok.n_columns:
            raise Unsupported("names of another width than the records")
        file_names = list(names)
    if nrows is not None:
        tok = tok.rows(0, nrows)
    if tok.n_records == 0:
        xp = _xp(buf)
        empty = StringColumn(xp.zeros(1, dtype=np.int64), xp.zeros(0, dtype=np.uint8), None, np.dtype(object))
        return file_names, [empty for _ in file_names]
    column = column or parse_column
    cols = []
    for j in range(tok.n_columns):
        try:
            cols.append(column(buf, *tok.column(j), words))
        except WideIntegers as exc:
            raise WideIntegers(
                f"column {file_names[j]!r} holds {exc}; pass dtype={{{file_names[j]!r}: 'float64'}} "
                f"(rounded) or dtype={{{file_names[j]!r}: str}} (exact digits)"
            ) from None
    return file_names, cols

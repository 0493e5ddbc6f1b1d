"""``Series.str`` algorithms on Arrow-layout string columns, positions counted in characters.

Every operation first decodes the UTF-8 bytes into a code point array (int32, one entry per character,
plus character offsets per row) with vectorized array code, works there, and re-encodes. Decoding and
encoding are a handful of gathers/scatters over the byte array, so character positions (``slice``,
``find``, ``pad``) are exact on non-ASCII text and nothing loops over rows.

Unicode tables: case mappings (full, up to three code points, as Python's ``str.upper``) and character
classes (alpha, digit, space, upper ...) are built once, lazily, for all 0x110000 code points with
NumPy's vectorized string functions (which implement Python's ``str`` semantics); lookups are
``searchsorted`` into the sorted list of code points whose mapping is not the identity.
Known differences from pandas: for pyarrow-backed string dtypes pandas maps case through utf8proc's
simple mappings (e.g. ``'ß'.upper()`` is ``'ẞ'`` there, ``'SS'`` here); the Greek final-sigma rule of
``str.lower`` is not applied.

Operations whose result needs regex match spans (``extract``, ``extractall``, regex ``replace`` /
``count`` / ``split``) run Python's ``re`` once per *distinct* value on the host and scatter the
results back with the factorization codes (documented per-unique-value step); ``contains`` / ``match``
/ ``fullmatch`` with a regex run on the array automaton of :mod:`ember.ops.regex`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on, to_host
from ember.backend.primitives import ascii_case
from ember.column import Column, NumericColumn, StringColumn
from ember.ops._common import and_masks
from ember.ops._strings import expand_positions
from ember.ops._unicode import _device_table, char_flag, is_word_char  # noqa: F401 (char_flag, is_word_char: used by ops.regex)
from ember.ops.regex import extract, extractall, map_ints, map_strings, per_unique, pieces_from_lists  # noqa: F401

# --- the code point view -------------------------------------------------------------------------------


class CP:
    """A string column decoded to code points: ``offs`` (n + 1 int64), ``cps`` (int32), ``mask``;
    ``ascii``: every code point is known to be below 128 (per-character tables of 128 entries suffice)."""

    __slots__ = ("offs", "cps", "mask", "xp", "pd_dtype", "ascii", "na")

    def __init__(
        self, offs: Any, cps: Any, mask: Any, xp: Any, pd_dtype: Any, ascii: bool = False, na: Any = np.nan
    ) -> None:
        self.offs, self.cps, self.mask, self.xp, self.pd_dtype = offs, cps, mask, xp, pd_dtype
        self.ascii = ascii
        self.na = na  # an object column's missing value (None, NaN), given back by its results

    def __len__(self) -> int:
        return int(self.offs.shape[0]) - 1

    @property
    def lengths(self) -> Any:
        return self.offs[1:] - self.offs[:-1]

    def rows(self) -> tuple[Any, Any]:
        """(row, position within row) of every character."""
        xp = self.xp
        m = self.cps.shape[0]
        pos = xp.arange(m, dtype=np.int64)
        row = xp.searchsorted(self.offs, pos, side="right") - 1
        return row, pos - self.offs[row]


def decode(col: StringColumn) -> CP:
    """UTF-8 bytes -> code points, vectorized over the bytes (lead bytes start characters)."""
    xp = col.xp
    b = col.chars
    if b.shape[0] == 0 or not bool((b >= 0x80).any()):  # ASCII: one code point per byte
        offsets = col.offsets.astype(np.int64, copy=False)
        return CP(offsets, b.astype(np.int32), col.mask, xp, col.pd_dtype, ascii=True, na=col.na)
    lead = (b & 0xC0) != 0x80
    starts = xp.flatnonzero(lead)
    padded = xp.concatenate([b, xp.zeros(3, dtype=np.uint8)]).astype(np.int32)
    b0 = padded[starts]
    b1, b2, b3 = (padded[starts + k] & 0x3F for k in (1, 2, 3))
    cps = xp.where(
        b0 < 0x80,
        b0,
        xp.where(
            b0 < 0xE0,
            ((b0 & 0x1F) << 6) | b1,
            xp.where(
                b0 < 0xF0,
                ((b0 & 0x0F) << 12) | (b1 << 6) | b2,
                ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3,
            ),
        ),
    )
    cs = xp.zeros(b.shape[0] + 1, dtype=np.int64)
    if b.shape[0]:
        xp.cumsum(lead, out=cs[1:])
    return CP(cs[col.offsets], cps.astype(np.int32), col.mask, xp, col.pd_dtype, na=col.na)


def encode(cp: CP, mask: Any = "same") -> StringColumn:
    """Code points -> UTF-8 bytes (one sync for the byte count)."""
    xp = cp.xp
    m = cp.mask if isinstance(mask, str) else mask
    if cp.cps.shape[0] == 0 or int(cp.cps.max()) < 0x80:  # ASCII: one byte per code point
        return StringColumn(cp.offs, cp.cps.astype(np.uint8), m, cp.pd_dtype, cp.na)
    c = cp.cps.astype(np.int64)
    nb = 1 + (c >= 0x80).astype(np.int64) + (c >= 0x800) + (c >= 0x10000)
    cs = xp.zeros(c.shape[0] + 1, dtype=np.int64)
    if c.shape[0]:
        xp.cumsum(nb, out=cs[1:])
    total = int(cs[-1]) if c.shape[0] else 0
    out = xp.zeros(total + 1, dtype=np.uint8)
    s = cs[:-1]
    lead = xp.where(
        nb == 1, c, xp.where(nb == 2, 0xC0 | (c >> 6), xp.where(nb == 3, 0xE0 | (c >> 12), 0xF0 | (c >> 18)))
    )
    out[s] = lead.astype(np.uint8)
    for k in (1, 2, 3):
        shift = xp.maximum((nb - 1 - k) * 6, 0)
        byte = (0x80 | ((c >> shift) & 0x3F)).astype(np.uint8)
        idx = xp.where(nb > k, s + k, total)
        out[idx] = byte
    return StringColumn(cs[cp.offs], out[:total], m, cp.pd_dtype, cp.na)


def _empty_i32(xp: Any) -> Any:
    return xp.zeros(0, dtype=np.int32)


def gather_cp(cp: CP, starts: Any, lengths: Any, mask: Any = "same") -> CP:
    """Per row, ``lengths`` code points from ``starts`` (absolute indices into ``cp.cps``)."""
    xp = cp.xp
    offs = _offs(xp, lengths)
    total = int(offs[-1])
    if total == 0:
        cps = _empty_i32(xp)
    else:
        row, j = expand_positions(xp, offs, total)
        cps = cp.cps[starts[row] + j]
    return CP(offs, cps, cp.mask if isinstance(mask, str) else mask, xp, cp.pd_dtype)


def _offs(xp: Any, lengths: Any) -> Any:
    offs = xp.zeros(lengths.shape[0] + 1, dtype=np.int64)
    if lengths.shape[0]:
        xp.cumsum(lengths, out=offs[1:])
    return offs


def _seg_sum(xp: Any, offs: Any, values: Any) -> Any:
    cs = xp.zeros(values.shape[0] + 1, dtype=np.int64)
    if values.shape[0]:
        xp.cumsum(values, out=cs[1:])
    return cs[offs[1:]] - cs[offs[:-1]]


def _pattern_cps(xp: Any, s: str) -> Any:
    return asarray_on(np.frombuffer(s.encode("utf-32-le"), dtype=np.int32).copy(), xp)


# --- result builders (pandas' dtype rules for str / string / object) ----------------------------------


def _flavor(pd_dtype: Any) -> str:
    if isinstance(pd_dtype, pd.StringDtype):
        return "string" if pd_dtype.na_value is pd.NA else "str"
    return "object"


def bool_result(col: StringColumn | CP, values: Any, na: Any = None) -> NumericColumn:
    """Boolean result: missing rows give False (``str``), NA (``string``), NaN (object) or ``na``."""
    xp = col.xp
    flavor = _flavor(col.pd_dtype)
    mask = _real_mask(col.mask, flavor)
    if mask is None:
        return NumericColumn(values, None, nullable=flavor == "string")
    if na is not None and not (isinstance(na, float) and np.isnan(na)) and na is not pd.NA:
        return NumericColumn(xp.where(mask, values, bool(na)), None, nullable=flavor == "string")
    if flavor == "str":
        return NumericColumn(values & mask, None)
    if flavor == "string":
        return NumericColumn(values, mask, nullable=True)
    return NumericColumn(values, mask, na=getattr(col, "na", np.nan))  # object: the missing value held


def int_result(col: StringColumn | CP, values: Any) -> NumericColumn:
    """Integer result: Int64 for ``string``; int64, or float64 with NaN when rows are missing."""
    xp = col.xp
    values = values.astype(np.int64)
    if _flavor(col.pd_dtype) == "string":
        return NumericColumn(values, col.mask, nullable=True)
    mask = _real_mask(col.mask, "str")
    if mask is None:
        return NumericColumn(values)
    if _flavor(col.pd_dtype) == "object" and len(values) and not bool(mask.any()):
        # pandas: an object column of only missing values gives them back, as object
        return NumericColumn(xp.zeros(len(values), dtype=bool), mask, na=getattr(col, "na", np.nan))
    return NumericColumn(xp.where(mask, values.astype(np.float64), np.nan))


def _real_mask(mask: Any, flavor: str) -> Any:
    """The validity mask, or None where it marks no row missing: pandas' str / object results are
    NaN-holding (float / object) only where a row is missing. Synchronizes once (a mask only)."""
    if mask is None or flavor == "string" or not bool(mask.all()):
        return mask
    return None


def _check(col: Column, fn: str) -> StringColumn:
    if not isinstance(col, StringColumn):
        raise AttributeError(f"Can only use .str accessor with string values (str.{fn} got {col.dtype})")
    return col


# --- length, case, predicates --------------------------------------------------------------------------


def str_len(col: StringColumn) -> NumericColumn:
    cp = decode(_check(col, "len"))
    return int_result(cp, cp.lengths)


def _map_parts(cp: CP, kind: str) -> tuple[Any, Any, Any, Any]:
    """Per character: (count, v0, v1, v2) of the ``kind`` case mapping."""
    xp = cp.xp
    keys = _device_table(f"{kind}:0", xp)
    c = cp.cps
    if keys.shape[0] == 0 or c.shape[0] == 0:
        return xp.ones(c.shape[0], dtype=np.int64), c, c, c
    counts, vals = _device_table(f"{kind}:1", xp), _device_table(f"{kind}:2", xp)
    pos = xp.minimum(xp.searchsorted(keys, c), keys.shape[0] - 1)
    hit = keys[pos] == c
    cnt = xp.where(hit, counts[pos], 1)
    return cnt, xp.where(hit, vals[pos, 0], c), vals[pos, 1], vals[pos, 2]


def _select_parts(xp: Any, cond: Any, a: tuple, b: tuple) -> tuple:
    return tuple(xp.where(cond, x, y) for x, y in zip(a, b, strict=True))


def _expand_parts(cp: CP, parts: tuple[Any, Any, Any, Any]) -> StringColumn:
    xp = cp.xp
    cnt, v0, v1, v2 = parts
    cs = _offs(xp, cnt)
    total = int(cs[-1])
    out = xp.zeros(total + 1, dtype=np.int32)
    s = cs[:-1]
    out[s] = v0
    out[xp.where(cnt > 1, s + 1, total)] = v1
    out[xp.where(cnt > 2, s + 2, total)] = v2
    return encode(CP(cs[cp.offs], out[:total], cp.mask, xp, cp.pd_dtype))


def _table(col: StringColumn, kind: str) -> str:
    """The case table of a column's dtype: pandas' Arrow string dtypes map as pyarrow does (simple
    mappings), object columns as Python does (full ones)."""
    return kind if _flavor(col.pd_dtype) == "object" else f"{kind}@arrow"


def _ascii_case(col: StringColumn, kind: str) -> StringColumn | None:
    """lower / upper / swapcase / casefold of an all-ASCII column on its bytes (one byte in, one out,
    no decoding); None when a byte is not ASCII."""
    out = ascii_case(col.chars, kind in ("lower", "casefold", "swapcase"), kind in ("upper", "swapcase"))
    return None if out is None else StringColumn(col.offsets, out, col.mask, col.pd_dtype)


def case_map(col: StringColumn, kind: str) -> StringColumn:
    """lower / upper / swapcase / casefold / title / capitalize."""
    _check(col, kind)
    if kind in ("lower", "upper", "swapcase", "casefold"):
        fast = _ascii_case(col, kind)
        if fast is not None:
            return fast
    cp = decode(col)
    if kind in ("lower", "upper", "swapcase"):
        return _expand_parts(cp, _map_parts(cp, _table(col, kind)))
    if kind == "casefold":  # pandas uses Python's casefold for every string dtype
        return _expand_parts(cp, _map_parts(cp, "casefold"))
    xp = cp.xp
    row, k = cp.rows()
    # pyarrow (str/string dtypes) upper-cases word starts; Python uses the titlecase mapping
    simple = _flavor(col.pd_dtype) != "object"
    lower, title = (
        _map_parts(cp, _table(col, "lower")),
        _map_parts(cp, _table(col, "upper") if simple else "title"),
    )
    if kind == "capitalize":
        first = k == 0
    elif kind == "title":
        cased = char_flag(xp, cp.cps, "upper", "lower", "title")
        prev = xp.concatenate([xp.zeros(1, dtype=bool), cased[:-1]]) if cased.shape[0] else cased
        first = (k == 0) | ~prev
    else:
        raise ValueError(f"case_map: unknown kind {kind!r}")
    return _expand_parts(cp, _select_parts(xp, first, title, lower))


_PREDICATES = {
    "isalpha": ("alpha",),
    "isdigit": ("digit",),
    "isdecimal": ("decimal",),
    "isnumeric": ("numeric",),
    "isspace": ("space",),
    "isalnum": ("alnum",),
}


def predicate(col: StringColumn, name: str) -> NumericColumn:
    """The ``str.is*`` predicates with pandas' rules for the column's dtype: pyarrow's ``utf8_is_*``
    classes for the pyarrow-backed string dtypes, Python's ``str`` methods otherwise (non-empty;
    cased rules for upper / lower / title)."""
    cp = decode(_check(col, name))
    xp = cp.xp
    c = cp.cps
    arrow = getattr(col.pd_dtype, "storage", None) == "pyarrow"

    def flag(*names: str) -> Any:
        return char_flag(xp, c, *names, arrow=arrow)

    nonempty = cp.lengths > 0
    if name in _PREDICATES:
        bad = ~flag(*_PREDICATES[name])
        out = nonempty & (_seg_sum(xp, cp.offs, bad) == 0)
    elif name in ("isupper", "islower"):
        own, other = ("upper", "lower") if name == "isupper" else ("lower", "upper")
        out = (_seg_sum(xp, cp.offs, flag(other, "title")) == 0) & (_seg_sum(xp, cp.offs, flag(own)) > 0)
    elif name == "istitle":
        _, k = cp.rows()
        upper_t, lower = flag("upper", "title"), flag("lower")
        cased = upper_t | lower
        prev = xp.concatenate([xp.zeros(1, dtype=bool), cased[:-1]]) if c.shape[0] else cased
        prev = prev & (k > 0)
        bad = (upper_t & prev) | (lower & ~prev)
        out = (_seg_sum(xp, cp.offs, bad) == 0) & (_seg_sum(xp, cp.offs, cased) > 0)
    else:
        raise ValueError(f"predicate: unknown {name!r}")
    return bool_result(cp, out)


# --- shared by slicing and searching ----------------------------------------------------------------


def _slice_bounds(xp: Any, L: Any, start: int | None, stop: int | None, step: int) -> tuple[Any, Any]:
    """Vectorized ``slice(start, stop, step).indices(L)``: (first index, count)."""
    if step > 0:
        s = (
            xp.zeros_like(L)
            if start is None
            else (xp.clip(start + L, 0, None) if start < 0 else xp.minimum(start, L))
        )
        e = L if stop is None else (xp.clip(stop + L, 0, None) if stop < 0 else xp.minimum(stop, L))
        cnt = xp.maximum(0, (e - s + step - 1) // step)
    else:
        s = L - 1 if start is None else (xp.maximum(start + L, -1) if start < 0 else xp.minimum(start, L - 1))
        e = (
            xp.full_like(L, -1)
            if stop is None
            else (xp.maximum(stop + L, -1) if stop < 0 else xp.minimum(stop, L - 1))
        )
        cnt = xp.maximum(0, (s - e + (-step) - 1) // (-step))
    return s, cnt


# --- literal search ------------------------------------------------------------------------------------


def _occurrences(cp: CP, pat: Any) -> Any:
    """Bool per character: the literal ``pat`` (code points) starts here and fits in the row."""
    xp = cp.xp
    m = cp.cps.shape[0]
    L = pat.shape[0]
    row, k = cp.rows()
    fits = k + L <= cp.lengths[row]
    if L == 0:
        return fits
    padded = xp.concatenate([cp.cps, xp.full(L, -1, dtype=np.int32)])
    hit = fits.copy()
    for j in range(L):
        hit &= padded[j : j + m] == pat[j]
    return hit


def _prep(cp: CP, pat: str, case: bool) -> tuple[CP, Any]:
    xp = cp.xp
    if case:
        return cp, _pattern_cps(xp, pat)
    low = CP(cp.offs, _simple_lower(xp, cp.cps), cp.mask, xp, cp.pd_dtype)
    return low, _simple_lower(xp, _pattern_cps(xp, pat))


def _simple_lower(xp: Any, c: Any, kind: str = "lower") -> Any:
    """One-to-one case mapping (characters whose full mapping expands are kept)."""
    keys = _device_table(f"{kind}:0", xp)
    if c.shape[0] == 0:
        return c
    vals = _device_table(f"{kind}:2", xp)
    pos = xp.minimum(xp.searchsorted(keys, c), keys.shape[0] - 1)
    counts = _device_table(f"{kind}:1", xp)
    return xp.where((keys[pos] == c) & (counts[pos] == 1), vals[pos, 0], c)


def _simple_upper(xp: Any, c: Any) -> Any:
    return _simple_lower(xp, c, "upper")


def startswith(col: StringColumn, pat: str | tuple, na: Any = None, end: bool = False) -> NumericColumn:
    fn = "endswith" if end else "startswith"
    pats = pat if isinstance(pat, tuple) else (pat,)
    if not all(isinstance(p, str) for p in pats):
        raise TypeError(f"expected a string or tuple, not {type(pat).__name__}")
    cp = decode(_check(col, fn))
    xp = cp.xp
    out = xp.zeros(len(cp), dtype=bool)
    lo, L = cp.offs[:-1], cp.lengths
    m = cp.cps.shape[0]
    for p in pats:
        r = _pattern_cps(xp, p)
        rl = r.shape[0]
        ok = L >= rl
        base = lo + (L - rl if end else 0)
        for j in range(rl):
            ok &= cp.cps[xp.clip(base + j, 0, max(m - 1, 0))] == r[j] if m else xp.zeros_like(ok)
        out |= ok
    return bool_result(cp, out, na)


def contains(
    col: StringColumn, pat: str, case: bool = True, flags: int = 0, na: Any = None, regex: bool = True
) -> NumericColumn:
    cp = decode(_check(col, "contains"))
    if regex:
        from ember.ops.regex import regex_match

        return bool_result(cp, regex_match(cp, pat, flags | (0 if case else re.IGNORECASE), "search"), na)
    work, p = _prep(cp, pat, case)
    hit = _occurrences(work, p)
    return bool_result(cp, (_seg_sum(cp.xp, cp.offs, hit) > 0) | (p.shape[0] == 0), na)


def match(
    col: StringColumn, pat: str, case: bool = True, flags: int = 0, na: Any = None, full: bool = False
) -> NumericColumn:
    from ember.ops.regex import regex_match

    cp = decode(_check(col, "fullmatch" if full else "match"))
    mode = "fullmatch" if full else "match"
    return bool_result(cp, regex_match(cp, pat, flags | (0 if case else re.IGNORECASE), mode), na)


def find(
    col: StringColumn, sub: str, start: int = 0, end: int | None = None, reverse: bool = False
) -> NumericColumn:
    """find / rfind of a literal within ``[start, end)`` (Python slice rules), -1 when absent."""
    if not isinstance(sub, str):
        raise TypeError(f"expected a string object, not {type(sub).__name__}")
    cp = decode(_check(col, "rfind" if reverse else "find"))
    xp = cp.xp
    L = cp.lengths
    s, _ = _slice_bounds(xp, L, start, None, 1)
    e = L if end is None else _slice_bounds(xp, L, end, None, 1)[0]
    r = _pattern_cps(xp, sub)
    row, k = cp.rows()
    hit = _occurrences(cp, r) & (k >= s[row]) & (k + r.shape[0] <= e[row])
    # empty pattern: a match at every position start..end, including end itself
    lo, hi = cp.offs[:-1], cp.offs[1:]
    kp = xp.flatnonzero(hit)
    if kp.shape[0]:
        if reverse:
            li = xp.searchsorted(kp, hi) - 1
            cand = kp[xp.maximum(li, 0)]
            found = (li >= 0) & (cand >= lo)
        else:
            fi = xp.searchsorted(kp, lo)
            cand = kp[xp.minimum(fi, kp.shape[0] - 1)]
            found = (fi < kp.shape[0]) & (cand < hi)
        res = xp.where(found, cand - lo, -1)
    else:
        res = xp.full(len(cp), -1, dtype=np.int64)
    if r.shape[0] == 0:
        ok = s <= e
        res = xp.where(ok, e if reverse else s, -1)
    return int_result(cp, res)


def _has_border(p: str) -> bool:
    return any(p[k:] == p[: len(p) - k] for k in range(1, len(p)))


def count(col: StringColumn, pat: str, flags: int = 0) -> NumericColumn:
    """Non-overlapping regex matches. Plain literals without self-overlap count on the device."""
    _check(col, "count")
    if re.escape(pat) == pat and pat and not _has_border(pat) and not flags:
        cp = decode(col)
        return int_result(cp, _seg_sum(cp.xp, cp.offs, _occurrences(cp, _pattern_cps(cp.xp, pat))))
    rx = re.compile(pat, flags)
    return map_ints(col, lambda s: len(rx.findall(s)))


def replace(
    col: StringColumn,
    pat: str | re.Pattern,
    repl: str | Callable,
    n: int = -1,
    case: bool | None = None,
    flags: int = 0,
    regex: bool = False,
) -> StringColumn:
    _check(col, "replace")
    if isinstance(pat, re.Pattern) or callable(repl):
        regex = True if isinstance(pat, re.Pattern) else regex
        if not regex:
            raise ValueError("Cannot use a callable replacement when regex=False")
    if not regex and isinstance(repl, str) and pat and not _has_border(pat) and case in (None, True):
        return _replace_literal(col, pat, repl, n)
    if not regex:
        if case is False:
            rx = re.compile(re.escape(pat), re.IGNORECASE)
            return map_strings(
                col,
                lambda s: rx.sub(
                    repl.replace("\\", "\\\\") if isinstance(repl, str) else repl, s, count=max(n, 0)
                ),
            )
        return map_strings(col, lambda s: s.replace(pat, repl, n))
    if isinstance(pat, re.Pattern):
        rx = pat
    else:
        rx = re.compile(pat, flags | (re.IGNORECASE if case is False else 0))
    return map_strings(col, lambda s: rx.sub(repl, s, count=max(n, 0)))


def _replace_literal(col: StringColumn, pat: str, repl: str, n: int) -> StringColumn:
    """Vectorized literal replace: ``pat`` has no self-overlap, so its occurrences are disjoint."""
    cp = decode(col)
    xp = cp.xp
    p, r = _pattern_cps(xp, pat), _pattern_cps(xp, repl)
    pl, rl = p.shape[0], r.shape[0]
    hit = _occurrences(cp, p)
    if n is not None and n >= 0:
        cs = xp.cumsum(hit.astype(np.int64))
        before = cs - hit
        rank = (
            before - (xp.concatenate([xp.zeros(1, np.int64), cs])[cp.offs[:-1]])[cp.rows()[0]]
            if hit.shape[0]
            else before
        )
        hit = hit & (rank < n)
    m = hit.shape[0]
    hs = xp.zeros(m + 1, dtype=np.int64)
    if m:
        xp.cumsum(hit, out=hs[1:])
    i = xp.arange(m, dtype=np.int64)
    covered = (hs[i + 1] - hs[xp.maximum(i - pl + 1, 0)]) > 0
    emit = xp.where(hit, rl, xp.where(covered, 0, 1))
    cs = _offs(xp, emit)
    total = int(cs[-1])
    out = xp.zeros(total + 1, dtype=np.int32)
    s = cs[:-1]
    out[xp.where(~covered, s, total)] = cp.cps
    for j in range(rl):
        out[xp.where(hit, s + j, total)] = r[j]
    return encode(CP(cs[cp.offs], out[:total], cp.mask, xp, cp.pd_dtype))


def repeat(col: StringColumn, repeats: int | Any) -> StringColumn:
    cp = decode(_check(col, "repeat"))
    xp = cp.xp
    reps = (
        xp.full(len(cp), int(repeats), dtype=np.int64)
        if np.isscalar(repeats)
        else asarray_on(np.asarray(repeats, dtype=np.int64), xp)
    )
    reps = xp.maximum(reps, 0)
    L = cp.lengths
    offs = _offs(xp, L * reps)
    total = int(offs[-1])
    if total == 0:
        return encode(CP(offs, _empty_i32(xp), cp.mask, xp, cp.pd_dtype))
    row, j = expand_positions(xp, offs, total)
    src = cp.offs[row] + j % xp.maximum(L[row], 1)
    return encode(CP(offs, cp.cps[src], cp.mask, xp, cp.pd_dtype))


# --- split, cat, extract -------------------------------------------------------------------------------


def split(
    col: StringColumn, pat: str | None = None, n: int = -1, reverse: bool = False, regex: bool | None = None
) -> list[StringColumn]:
    """``str.split(expand=True)``: one string column per piece (missing where a row has fewer)."""
    _check(col, "rsplit" if reverse else "split")
    n = -1 if n in (None, 0) else n
    fn = _host_splitter(pat, n, reverse, regex)
    if fn is not None:
        return pieces_from_lists(col, fn)
    cp = decode(col)
    xp = cp.xp
    p = _pattern_cps(xp, pat)
    hit = _occurrences(cp, p)
    nhits = _seg_sum(xp, cp.offs, hit)
    if n > 0:
        row, _ = cp.rows()
        cs = _offs(xp, hit.astype(np.int64))
        rank = cs[:-1] - cs[cp.offs[:-1]][row]
        hit = hit & ((rank >= nhits[row] - n) if reverse else (rank < n))
        nhits = xp.minimum(nhits, n)
    hb = _offs(xp, nhits)[:-1]
    hp = xp.flatnonzero(hit)
    npieces = int(nhits.max()) + 1 if len(cp) else 0
    lo, hi = cp.offs[:-1], cp.offs[1:]
    last = max(hp.shape[0] - 1, 0)
    hpp = hp if hp.shape[0] else xp.zeros(1, dtype=np.int64)
    out = []
    for k in range(npieces):
        start = lo if k == 0 else hpp[xp.clip(hb + k - 1, 0, last)] + p.shape[0]
        stop = xp.where(k < nhits, hpp[xp.clip(hb + k, 0, last)], hi)
        exists = nhits >= k
        start = xp.where(exists, start, lo)
        stop = xp.where(exists, stop, start)
        out.append(encode(gather_cp(cp, start, stop - start, and_masks(cp.mask, exists))))
    return out


def _host_splitter(
    pat: str | None, n: int, reverse: bool, regex: bool | None
) -> Callable[[str], list] | None:
    """Python's split for the patterns the device path does not take (whitespace, regex, patterns that
    overlap themselves); None for a plain literal separator. ``rsplit`` takes its pattern literally
    (pandas' rsplit has no regex); a compiled pattern splits as a regex, as pandas."""
    if isinstance(pat, re.Pattern):
        if reverse:
            raise TypeError("expected a string object, not Pattern")
        if regex is False:
            raise ValueError("Cannot use a compiled regex as replacement pattern with regex=False")
        return lambda s: pat.split(s, maxsplit=max(n, 0))
    is_regex = not reverse and (
        bool(regex) or (regex is None and pat is not None and len(pat) > 1 and re.escape(pat) != pat)
    )
    if not (pat is None or is_regex or _has_border(pat) or pat == ""):
        return None
    if pat == "":
        raise ValueError("split() requires a non-empty pattern match.")
    if pat is None:
        return (lambda s: s.rsplit(None, n)) if reverse else (lambda s: s.split(None, n))
    if is_regex:
        rx = re.compile(pat)
        return lambda s: rx.split(s, maxsplit=max(n, 0))
    return (lambda s: s.rsplit(pat, n)) if reverse else (lambda s: s.split(pat, n))


def cat_rows(cols: list[StringColumn], sep: str = "", na_rep: str | None = None) -> StringColumn:
    """Row-wise concatenation with ``sep``; a missing piece makes the row missing unless ``na_rep``."""
    from ember.ops._strings import col_view, concat, scalar_view

    xp = cols[0].xp
    n = len(cols[0])
    mask = None
    acc = None
    for c in cols:
        if na_rep is not None and c.mask is not None:
            from ember.ops._strings import select

            o, ch = select(xp, c.mask, col_view(c), scalar_view(xp, na_rep, n))
            c = StringColumn(o, ch, None, c.pd_dtype)
        mask = and_masks(mask, c.mask)
        view = col_view(c)
        if acc is None:
            acc = view
            continue
        if sep:
            o, ch = concat(xp, acc, scalar_view(xp, sep, n))
            acc = (o[:-1], o[1:] - o[:-1], ch)
        o, ch = concat(xp, acc, view)
        acc = (o[:-1], o[1:] - o[:-1], ch)
    starts, lens, chars = acc
    offs = _offs(xp, lens)
    from ember.backend.primitives import gather_bytes

    return StringColumn(
        offs,
        gather_bytes(chars, starts, offs) if int(offs[-1]) else xp.zeros(0, np.uint8),
        mask,
        cols[0].pd_dtype,
    )


def cat_all(col: StringColumn, sep: str = "", na_rep: str | None = None) -> str:
    """All values joined into one Python string (missing skipped unless ``na_rep``). One transfer."""
    if na_rep is not None and col.mask is not None:
        col = cat_rows([col], "", na_rep)
    elif col.mask is not None:
        col = col.filter(col.mask)
    offs, chars = to_host(col.offsets), to_host(col.chars).tobytes()
    return (
        sep.join(chars[offs[i] : offs[i + 1]].decode("utf-8") for i in range(len(offs) - 1))
        if sep
        else chars.decode()
    )


def dummies(col: StringColumn, sep: str, dtype: Any) -> tuple[Any, StringColumn]:
    """``str.get_dummies``: an ``(n, k)`` indicator matrix of ``dtype`` (row ``i`` marks the tokens its
    string splits into at ``sep``) and the ``k`` distinct tokens, sorted. A missing row marks none.
    An empty token counts for pyarrow-backed strings only, as pandas' two implementations differ
    there. ``sep`` must not overlap itself, so that the tokens are what pandas' substring test finds.
    Synchronizes for the token count."""
    from ember.ops.factorize import factorize_keys
    from ember.ops.lists import list_explode, split_lists

    _check(col, "get_dummies")
    xp = col.xp
    items, owner = list_explode(split_lists(col, sep, -1, False, False))
    keep = ~items.isna()
    if getattr(col.pd_dtype, "storage", None) != "pyarrow":
        keep &= items.lengths() > 0
    rows = xp.flatnonzero(keep)
    tokens = items.take(rows).with_mask(None)
    out = xp.zeros((len(col), 0), dtype=dtype)
    if not len(tokens):
        return out, tokens
    codes, uniques, k = factorize_keys([tokens], sort=True, dropna=True)
    out = xp.zeros((len(col), k), dtype=dtype)
    out[owner[rows], codes] = 1
    return out, uniques[0]

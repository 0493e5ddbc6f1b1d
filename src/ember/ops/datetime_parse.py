"""Parsing strings and numbers into datetime columns (``to_datetime``), vectorized (NumPy or CuPy).

Strings are parsed on their bytes with a position per row: each format directive is a few vectorized
byte comparisons. ISO 8601 follows pandas' ``format="ISO8601"`` grammar; on the device it goes through
a CUDA kernel (``backend/kernels/iso.cu``), one thread per row, with the same grammar. Results keep
days and nanoseconds into the day apart, so every four-digit year converts exactly to microseconds.
"""

from __future__ import annotations

import datetime as _dt
import re
import warnings
from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31, float_epoch_overflow
from ember.backend import asarray_on, is_device_array, to_host
from ember.column import DatetimeColumn, NumericColumn, StringColumn
from ember.ops._common import UNIT_NS
from ember.ops.datetimes import (
    _ABBR_DAYS,
    _ABBR_MONTHS,
    _DAY_NAMES,
    _MONTH_NAMES,
    I64_MAX,
    I64_MIN,
    _format_tokens,
    days_from_civil,
    days_in_month,
    first_bad,
    per_day,
    per_second,
)


class _Cursor:
    """Per-row read positions over a string column's bytes."""

    def __init__(self, col: StringColumn) -> None:
        xp = self.xp = col.xp
        self.start = col.offsets[:-1]
        self.end = col.offsets[1:]
        self.chars = xp.concatenate([col.chars, xp.zeros(1, dtype=np.uint8)])
        self.pos = self.start.copy()
        self.ok = xp.ones(self.start.shape[0], dtype=bool) if col.mask is None else col.mask.copy()
        self.fields: dict[str, Any] = {}

    def byte(self, k: int = 0) -> Any:
        p = self.pos + k
        return self.xp.where(p < self.end, self.chars[self.xp.minimum(p, self.chars.shape[0] - 1)], 0)

    def lit(self, b: int, where: Any = None) -> None:
        hit = self.byte() == b
        w = self.ok if where is None else self.ok & where
        self.ok &= hit | ~w
        self.pos = self.pos + (w & hit)

    def num(self, minw: int, maxw: int, where: Any = None) -> tuple[Any, Any]:
        xp = self.xp
        v = xp.zeros(self.pos.shape[0], dtype=np.int64)
        cnt = xp.zeros(self.pos.shape[0], dtype=np.int64)
        active = self.ok if where is None else self.ok & where
        w = active
        for k in range(maxw):
            b = self.byte(k).astype(np.int64)
            isd = active & (b >= 48) & (b <= 57)
            v = xp.where(isd, v * 10 + b - 48, v)
            cnt += isd
            active = isd
        self.ok &= (cnt >= minw) | ~w
        self.pos = self.pos + cnt
        return v, cnt

    def text(self, options: list[str], where: Any = None) -> Any:
        """Index of the (case-insensitive) option found at the cursor, -1 when none."""
        xp = self.xp
        found = xp.full(self.pos.shape[0], -1, dtype=np.int64)
        flen = xp.zeros(self.pos.shape[0], dtype=np.int64)
        for i, opt in enumerate(options):
            hit = found < 0
            for k, ch in enumerate(opt.lower().encode()):
                hit &= (self.byte(k) | 0x20) == ch
            found = xp.where(hit, i, found)
            flen = xp.where(hit, len(opt), flen)
        w = self.ok if where is None else self.ok & where
        self.ok &= (found >= 0) | ~w
        self.pos = self.pos + xp.where(w, flen, 0)
        return found


def _tz_suffix(cur: _Cursor) -> tuple[Any, Any]:
    """Optional 'Z' or ±HH[:MM] at the cursor: (offset seconds, present)."""
    xp = cur.xp
    b = cur.byte()
    z = cur.ok & (b == 90)
    cur.pos = cur.pos + z
    sign = cur.ok & ((b == 43) | (b == 45))
    cur.pos = cur.pos + sign
    hh, _ = cur.num(2, 2, sign)
    colon = sign & (cur.byte() == 58)
    cur.pos = cur.pos + colon
    mm, mcnt = cur.num(0, 2, sign)
    off = (hh * 3600 + mm * 60) * xp.where(b == 45, -1, 1)
    return xp.where(sign, off, 0), z | sign


_MAX_SPACES = 8  # leading whitespace, and whitespace around a time zone, read per row (pandas: any)


def parse_iso(col: StringColumn) -> tuple[Any, Any, Any, Any, Any, Any]:
    """ISO 8601 per row, with pandas' ``format="ISO8601"`` grammar (its vendored NumPy parser):

        [ws] YYYY [S M[M] [S D[D]]] | YYYYMMDD           S one of - / . and space, the same twice
        then optionally (T|space) H[H] [[:]MM [[:]SS [.f{0,18}]]]   one-digit fields only with ':'
        then optionally [ws] Z | (+|-)H[H][[:]M[M]] [ws]

    (year-month needs the separator; an hour alone needs two digits; fractions keep 9 digits.)
    Returns (days since epoch and ns into the day of the wall time, ok, tz offset seconds, tz present,
    fraction digits); only rows with ok are meaningful.
    On the device a CUDA kernel (``ember.backend.kernels.iso``) parses one row per thread with the
    same grammar; the vectorized code below is its reference."""
    if is_device_array(col.chars):
        # the vectorized parse is a few hundred full-column passes; the kernel reads each string once
        from ember.backend.kernels.iso import parse_iso_device

        return parse_iso_device(col.offsets, col.chars, col.mask)
    return _IsoParse(col).run()


class _IsoParse:
    """The vectorized ISO 8601 parse: every row advances its own read position; ``ok`` turns False at a
    row's first error and ``done`` marks rows that ended early (date only, hour or minutes last)."""

    def __init__(self, col: StringColumn) -> None:
        xp = self.xp = col.xp
        self.end = col.offsets[1:]
        self.chars = xp.concatenate([col.chars, xp.zeros(1, dtype=np.uint8)])
        self.pos = col.offsets[:-1].astype(np.int64)
        n = self.pos.shape[0]
        self.ok = xp.ones(n, dtype=bool) if col.mask is None else col.mask.copy()
        self.done = xp.zeros(n, dtype=bool)

    def at(self, k: int = 0) -> Any:
        """The byte k past each row's position (0 past the row's end), as int64."""
        xp = self.xp
        p = self.pos + k
        return xp.where(p < self.end, self.chars[xp.minimum(p, self.chars.shape[0] - 1)], 0).astype(np.int64)

    @staticmethod
    def digit(b: Any) -> Any:
        return (b >= 48) & (b <= 57)

    @staticmethod
    def space(b: Any) -> Any:
        return (b == 32) | ((b >= 9) & (b <= 13))

    def active(self) -> Any:
        return self.ok & ~self.done

    def skip_spaces(self, rows: Any) -> None:
        for _ in range(_MAX_SPACES):
            step = rows & self.space(self.at())
            if not bool(step.any()):  # host arrays (the device runs the kernel): no sync to fear
                return
            self.pos = self.pos + step

    def field(self, rows: Any, two_needed: Any, default: int) -> tuple[Any, Any]:
        """A one- or two-digit field at the position of ``rows`` (first digit required; the second
        required where ``two_needed``): (value, whether it had two digits)."""
        xp = self.xp
        b0 = self.at()
        self.ok &= ~rows | self.digit(b0)
        rows = rows & self.ok
        v = xp.where(rows, b0 - 48, default)
        self.pos = self.pos + rows
        b1 = self.at()
        two = rows & self.digit(b1)
        v = xp.where(two, v * 10 + b1 - 48, v)
        self.pos = self.pos + two
        self.ok &= ~rows | two | ~two_needed
        return v, two

    def end_here(self, rows: Any) -> Any:
        """Rows among ``rows`` whose text ends at their position (marked done)."""
        ended = rows & self.ok & (self.pos == self.end)
        self.done |= ended
        return ended

    def run(self) -> tuple[Any, Any, Any, Any, Any, Any]:
        xp = self.xp
        n = self.pos.shape[0]
        self.skip_spaces(self.ok)
        y = xp.zeros(n, dtype=np.int64)
        for k in range(4):
            b = self.at(k)
            self.ok &= self.digit(b)
            y = y * 10 + b - 48
        self.pos = self.pos + 4 * self.ok
        self.end_here(self.ok)  # the year alone
        b = self.at()
        act = self.active()
        sep = xp.where(act & ((b == 45) | (b == 47) | (b == 46) | (b == 32)), b, 0)
        has_sep = sep != 0
        self.ok &= ~act | has_sep | self.digit(b)
        self.pos = self.pos + (act & has_sep)
        mo, _ = self.field(self.active(), ~has_sep, 1)
        ended = self.end_here(self.active())
        self.ok &= ~ended | has_sep  # YYYYMM is not a date
        act = self.active() & has_sep
        self.ok &= ~act | ((self.at() == sep) & (self.pos + 1 < self.end))
        self.pos = self.pos + (act & self.ok)
        d, _ = self.field(self.active(), ~has_sep, 1)
        self.end_here(self.active())
        act = self.active()
        b = self.at()
        self.ok &= ~act | (((b == 84) | (b == 32)) & (self.pos + 1 < self.end))
        self.pos = self.pos + (act & self.ok)
        hh, two_h = self.field(self.active(), xp.zeros(n, dtype=bool), 0)
        ended = self.end_here(self.active())
        self.ok &= ~ended | two_h  # an hour alone has two digits
        act = self.active()
        b = self.at()
        has_hms = act & (b == 58)
        self.pos = self.pos + has_hms
        self.ok &= ~has_hms | self.digit(self.at())
        to_tz = act & ~has_hms & ~self.digit(b)
        self.ok &= ~to_tz | two_h
        rows = act & ~to_tz & self.ok
        mi, _ = self.field(rows, ~has_hms, 0)
        rows &= self.ok & ~self.end_here(rows)
        b = self.at()
        sec = rows & ((has_hms & (b == 58)) | (~has_hms & self.digit(b)))
        colon = sec & has_hms
        self.pos = self.pos + colon
        self.ok &= ~colon | self.digit(self.at())
        sec &= self.ok
        ss, _ = self.field(sec, ~has_hms, 0)
        sec &= self.ok
        frac = xp.zeros(n, dtype=np.int64)
        fcnt = xp.zeros(n, dtype=np.int64)
        reading = sec & (self.at() == 46)
        self.pos = self.pos + reading
        for k in range(18):  # pandas reads up to 18 fraction digits (to attoseconds); ns keep 9
            b = self.at()
            reading = reading & self.digit(b)
            if not bool(reading.any()):
                break
            if k < 9:
                frac = xp.where(reading, frac * 10 + b - 48, frac)
                fcnt = fcnt + reading
            self.pos = self.pos + reading
        tzoff, has_tz = self._zone(hh, mi, ss)
        valid = _valid_date(xp, y, mo, d, hh, mi, ss)
        days, nsod = _assemble(xp, y, mo, d, hh, mi, ss, frac, fcnt, self.ok)
        return days, nsod, self.ok & valid, tzoff, has_tz, fcnt

    def _zone(self, hh: Any, mi: Any, ss: Any) -> tuple[Any, Any]:
        """The optional zone after the time: [ws] Z | (+|-)H[H][[:]M[M]] [ws]; every row not done must
        end after it. Returns (offset seconds, zone present)."""
        xp = self.xp
        rows = self.active()
        self.skip_spaces(rows)
        rows &= ~self.end_here(rows)
        b = self.at()
        z = rows & (b == 90)
        sign = rows & ((b == 43) | (b == 45))
        self.pos = self.pos + (z | sign)
        th, tcount = self._offset_part(sign)
        self.ok &= ~sign | (th < 24)
        more = sign & self.ok & (self.pos < self.end)
        self.pos = self.pos + (more & (self.at() == 58))
        tm, _ = self._offset_part(more)
        self.ok &= ~more | (tm < 60)
        self.skip_spaces(rows & self.ok)
        self.ok &= ~rows | (self.pos == self.end)
        off = (th * 3600 + tm * 60) * xp.where(b == 45, -1, 1)
        return xp.where(sign, off, 0), z | sign

    def _offset_part(self, rows: Any) -> tuple[Any, Any]:
        """Two digits, else one, at the position of ``rows`` (one required): (value, digits read)."""
        xp = self.xp
        b0, b1 = self.at(), self.at(1)
        two = rows & self.digit(b0) & self.digit(b1)
        one = rows & self.digit(b0) & ~self.digit(b1)
        self.ok &= ~rows | two | one
        v = xp.where(two, (b0 - 48) * 10 + b1 - 48, xp.where(one, b0 - 48, 0))
        count = xp.where(two, 2, xp.where(one, 1, 0))
        self.pos = self.pos + count
        return v, count


def _assemble(
    xp: Any, y: Any, mo: Any, d: Any, hh: Any, mi: Any, ss: Any, frac: Any, fcnt: Any, ok: Any
) -> tuple[Any, Any]:
    """(days since 1970-01-01, nanoseconds into the day): kept apart so that years outside the
    nanosecond range (1677-2262) still convert exactly to the coarser units."""
    mo_s = xp.clip(mo, 1, 12)
    days = days_from_civil(xp, xp.where(ok, y, 1970), mo_s, xp.clip(d, 1, 31))
    scale = asarray_on(10 ** (9 - np.arange(10, dtype=np.int64)), xp)[xp.clip(fcnt, 0, 9)]
    return days, ((hh * 60 + mi) * 60 + ss) * 1_000_000_000 + frac * scale


def _valid_date(xp: Any, y: Any, mo: Any, d: Any, hh: Any, mi: Any, ss: Any) -> Any:
    ok = (mo >= 1) & (mo <= 12) & (d >= 1) & (hh < 24) & (mi < 60) & (ss < 60)
    return ok & (d <= days_in_month(xp, y, xp.clip(mo, 1, 12)))


_DIRECTIVES = "YmdHMSfyjIpbBaAzZ%"


def parse_format(col: StringColumn, fmt: str) -> tuple[Any, Any, Any, Any, Any]:
    """strptime subset: %Y %m %d %H %M %S %f %y %I %p %b %B %a %A %z %%, literal text. Same
    return as :func:`parse_iso`."""
    cur = _Cursor(col)
    xp = cur.xp
    n = cur.pos.shape[0]
    zero = xp.zeros(n, dtype=np.int64)
    f = {"Y": zero + 1900, "m": zero + 1, "d": zero + 1, "H": zero, "M": zero, "S": zero, "f": zero}
    fcnt, pm, tzoff, has_tz = zero, None, zero, xp.zeros(n, dtype=bool)
    for kind, v in _format_tokens(fmt):
        if kind == "lit" or v == "%":
            for b in (v if kind == "lit" else "%").encode():
                if b == 32:  # strptime: a space matches any run of whitespace (here: one or more spaces)
                    cur.lit(32)
                    while_more = cur.ok & (cur.byte() == 32)
                    for _ in range(8):
                        cur.pos = cur.pos + while_more
                        while_more = while_more & (cur.byte() == 32)
                else:
                    cur.lit(b)
        elif v in "YmdHMSIy":
            w = {"Y": (4, 4), "y": (2, 2)}.get(v, (1, 2))
            val, _ = cur.num(*w)
            key = {"y": "Y", "I": "H"}.get(v, v)
            f[key] = val + 2000 - 100 * (val >= 69) if v == "y" else val
        elif v == "f":
            f["f"], fcnt = cur.num(1, 9)
            fcnt = xp.minimum(fcnt, 9)
        elif v == "p":
            pm = cur.text(["AM", "PM"]) == 1
        elif v in "bB":
            f["m"] = cur.text(_MONTH_NAMES if v == "B" else _ABBR_MONTHS) + 1
        elif v in "aA":
            cur.text(_DAY_NAMES if v == "A" else _ABBR_DAYS)
        elif v == "z":
            tzoff, has_tz = _tz_suffix(cur)
        else:
            raise NotImplementedError(
                f"to_datetime: format directive %{v} is not supported; supported: "
                + " ".join("%" + c for c in _DIRECTIVES if c != "Z")
            )
    if pm is not None:
        f["H"] = f["H"] % 12 + 12 * pm
    ok = cur.ok & (cur.pos == cur.end)
    days, nsod = _assemble(xp, f["Y"], f["m"], f["d"], f["H"], f["M"], f["S"], f["f"], fcnt, ok)
    valid = _valid_date(xp, f["Y"], f["m"], f["d"], f["H"], f["M"], f["S"])
    return days, nsod, ok & valid, tzoff, has_tz, fcnt


_NAT_CODES = tuple(
    (ord(w[0]) << 16) | (ord(w[1]) << 8) | ord(w[2]) for w in ("NaT", "nat", "NAT", "nan", "NaN", "NAN")
)


def nat_strings(col: StringColumn) -> Any:
    """Rows pandas reads as NaT: '' and NaT / nan spelled as pandas' ``nat_strings``."""
    xp = col.xp
    start, lengths = col.offsets[:-1], col.offsets[1:] - col.offsets[:-1]
    chars = xp.concatenate([col.chars, xp.zeros(3, dtype=np.uint8)])
    code = xp.zeros(start.shape[0], dtype=np.int64)
    for k in range(3):
        code = (code << 8) | chars[start + k].astype(np.int64)
    hit = lengths == 0
    three = lengths == 3
    for c in _NAT_CODES:
        hit |= three & (code == c)
    return hit


# separator codes of an ISO 8601 string's shape (any other non-digit byte is 7)
_SEP_CODES = {ord("-"): 1, ord("/"): 2, ord("."): 3, ord(" "): 4, ord("T"): 5, ord(":"): 6}
_MAX_SEPS = 20  # 3 bits each in an int64


def iso_shapes(col: StringColumn) -> tuple[Any, Any, Any]:
    """Per row, what pandas' inferred ISO format pins down: the separators before the time zone
    (their bytes in order, packed 3 bits each), their count, and the digits before the first one
    (``%Y`` against ``%Y%m%d``). Field widths that a format accepts either way (``%m`` one or two
    digits, ``%f`` one to nine) and the zone's spelling (``%z``: Z, +HH, +HHMM, +HH:MM) are left out.
    A few vectorized passes over the bytes, no sync."""
    xp = col.xp
    offs = col.offsets
    n_chars = col.chars.shape[0]
    c = col.chars.astype(np.int64)
    row = xp.searchsorted(offs, xp.arange(n_chars, dtype=np.int64), side="right") - 1
    row = xp.clip(row, 0, max(offs.shape[0] - 2, 0))
    start = offs[:-1][row] if offs.shape[0] > 1 else xp.zeros(n_chars, dtype=np.int64)

    def excl(flags: Any) -> Any:  # exclusive prefix sums with a leading 0 (length n_chars + 1)
        return xp.concatenate([xp.zeros(1, dtype=np.int64), xp.cumsum(flags.astype(np.int64))])

    def before_in_row(flags: Any) -> Any:  # how many flagged bytes precede each byte in its row
        p = excl(flags)
        return p[:-1] - p[start]

    def per_row(values: Any) -> Any:  # sum over each row's bytes (int64 wrapping is harmless)
        p = excl(values) if values.dtype != bool else excl(values.astype(np.int64))
        return p[offs[1:]] - p[offs[:-1]]

    digit = (c >= 48) & (c <= 57)
    colon_before = before_in_row(c == 58) > 0
    zone_start = (c == 90) | (c == 43) | ((c == 45) & colon_before)  # Z, + or a - after the time
    in_zone = (before_in_row(zone_start) + zone_start) > 0
    sep = ~digit & ~in_zone
    rank = before_in_row(sep)
    code = xp.full(n_chars, 7, dtype=np.int64)
    for b, v in _SEP_CODES.items():
        code = xp.where(c == b, v, code)
    packed = xp.where(sep & (rank < _MAX_SEPS), code << (3 * xp.minimum(rank, _MAX_SEPS - 1)), 0)
    lead = digit & (before_in_row(~digit) == 0)
    return per_row(packed), per_row(sep.astype(np.int64)), per_row(lead.astype(np.int64))


# pandas' ``format_is_iso``: the formats its ISO 8601 parser reads (the rest go through strptime)
_ISO_FORMAT = re.compile(r"^%Y(?:([-/ \\.]?)%m(?:\1%d(?:[ T]%H(?::%M(?::%S(?:%z|\.%f(?:%z)?)?)?)?)?)?)?$")


def format_is_iso(fmt: str) -> bool:
    return _ISO_FORMAT.match(fmt) is not None


def _first_valid_text(col: StringColumn, valid: Any) -> tuple[int, str] | None:
    """(position, text) of the first valid row, None when none. Synchronizes once or twice."""
    xp = col.xp
    i = first_bad(xp, valid) if valid is not None else (0 if len(col) else None)
    if i is None:
        return None
    return i, col.take(xp.asarray([i])).to_pandas().iloc[0]


def _inferred_format(col: StringColumn, valid: Any, dayfirst: bool = False) -> tuple[str | None, int | None]:
    """pandas' format for ``format=None``: the one guessed from the first non-missing string
    (``guess_datetime_format``, reading an ambiguous day and month day first with ``dayfirst``),
    with that row's position."""
    first = _first_valid_text(col, valid)
    if first is None:
        return None, None
    from pandas.tseries.api import guess_datetime_format

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return guess_datetime_format(first[1], dayfirst=dayfirst), first[0]


def _format_error(value: Any, i: int, fmt: str | None) -> ValueError:
    if fmt is None:
        what = "is not a valid ISO 8601 date-time"
    else:
        what = f'doesn\'t match format "{fmt}"'
    return ValueError(
        f'time data "{value}" {what}, at position {i}. You might want to try:\n'
        "    - passing `format` if your strings have a consistent format;\n"
        "    - passing `format='ISO8601'` if your strings are all ISO8601 but not necessarily in "
        "exactly the same format;\n"
        "    - passing `format='mixed'`, and the format will be inferred for each element individually. "
        "You might want to use `dayfirst` alongside this."
    )


def strings_to_datetime(
    col: StringColumn,
    fmt: str | None = None,
    errors: str = "raise",
    utc: bool = False,
    dayfirst: bool = False,
    yearfirst: bool = False,
) -> DatetimeColumn:
    """Parse a string column as pandas 3's ``to_datetime``; unit ``us`` (``ns`` when a value has more
    than 6 fraction digits). ``'' / 'NaT' / 'nan'`` are missing. ``format=None``: the format pandas
    guesses from the first non-missing string, which every other string must match (an ISO 8601
    format is checked on the strings' shapes and parsed by the ISO parser; others go through the
    strptime subset); ``'ISO8601'``: any ISO 8601 form per row; ``'mixed'``: ISO 8601 per row, other
    strings refused (pandas parses them with dateutil). ``dayfirst`` guides the guess of the format
    (then applied to every string, as pandas); a given format ignores it and ``yearfirst``; where
    pandas would hand the strings to dateutil with either, they are refused (dateutil reads even
    ISO 8601 strings day first). Offsets: all equal -> that fixed offset;
    ``utc=True`` -> UTC. Synchronizes a few times."""
    if errors not in ("raise", "coerce"):
        raise ValueError("errors must be one of 'raise', or 'coerce'.")
    xp = col.xp
    given_fmt, had_mask = fmt, col.mask is not None
    nat = nat_strings(col)
    valid = ~nat if col.mask is None else col.mask & ~nat
    col = col.with_mask(valid)
    shape_fmt, first = None, None  # the inferred ISO format whose shape every row must have
    mixed = fmt in ("mixed", "ISO8601", "iso8601")
    if fmt is None:
        guessed, first = _inferred_format(col, valid, dayfirst)
        if guessed is None:
            mixed = True  # pandas parses each string with dateutil: ISO ones the same as here
        elif format_is_iso(guessed):
            shape_fmt = guessed
        else:
            fmt = guessed
    dateutil = fmt == "mixed" or (fmt is None and mixed and first is not None)
    if dateutil and (dayfirst or yearfirst):
        raise NotImplementedError(
            "to_datetime: dayfirst / yearfirst where pandas parses each string with dateutil (no format "
            "guessed from the first string, or format='mixed'); pass format="
        )
    iso = fmt is None or mixed
    days, nsod, ok, tzoff, has_tz, fcnt = parse_iso(col) if iso else parse_format(col, fmt)
    if shape_fmt is not None:
        sig = iso_shapes(col)
        same = has_tz == has_tz[first]
        for part in sig:
            same &= part == part[first]
        ok = ok & same
    bad = valid & ~ok
    good = valid & ok
    stats = to_host(
        xp.stack(
            [
                bad.any().astype(np.int64),
                xp.where(good, fcnt, 0).max() if fcnt.shape[0] else xp.asarray(0),
                (good & has_tz).any().astype(np.int64),
                (good & ~has_tz).any().astype(np.int64),
                xp.where(good & has_tz, tzoff, 1 << 40).min() if fcnt.shape[0] else xp.asarray(0),
                xp.where(good & has_tz, tzoff, -(1 << 40)).max() if fcnt.shape[0] else xp.asarray(0),
                nat.any().astype(np.int64),
                good.any().astype(np.int64),
            ]
        )
    )
    if stats[0] and (errors == "raise" or (mixed and fmt != "ISO8601" and fmt != "iso8601")):
        i = int(to_host(xp.flatnonzero(bad)[:1])[0])
        value = col.take(xp.asarray([i])).to_pandas().iloc[0]
        if mixed and fmt not in ("ISO8601", "iso8601"):
            raise NotImplementedError(
                f'to_datetime: "{value}" (position {i}) is not an ISO 8601 date-time; with '
                f"format={fmt!r} pandas parses such strings one by one with dateutil, which ember does "
                "not; pass format= (a strptime format) or format='ISO8601'"
            )
        if fmt in ("ISO8601", "iso8601"):
            raise ValueError(
                f'time data "{value}" doesn\'t match format "ISO8601", at position {i}. '
                "You might want to try passing `errors='coerce'`."
            )
        raise _format_error(value, i, shape_fmt or fmt)
    unit = "ns" if stats[1] > 6 else ("us" if stats[7] else "s")  # pandas 3: no dates at all give [s]
    coerced = False
    if unit == "ns":
        ok, coerced = _within_ns_range(col, days, nsod, tzoff, ok, good, errors)
    ticks = days * per_day(unit) + nsod // UNIT_NS[unit]
    new_valid = valid & ok
    tz = None
    if stats[2] and stats[3] and not utc:
        raise ValueError(
            "Mixed timezones detected. Pass utc=True in to_datetime or tz='UTC' in "
            "DatetimeIndex to convert to a common timezone."
        )
    if stats[2]:
        ticks = ticks - tzoff * per_second(unit)
        if utc:
            tz = _dt.UTC
        elif stats[4] == stats[5]:
            off = int(stats[4])
            tz = _dt.UTC if off == 0 and given_fmt is None else _dt.timezone(_dt.timedelta(seconds=off))
        else:
            raise ValueError(
                "Mixed timezones detected. Pass utc=True in to_datetime or tz='UTC' in "
                "DatetimeIndex to convert to a common timezone."
            )
    elif utc:
        tz = _dt.UTC
    plain = not stats[0] and not coerced and not stats[6] and not had_mask
    return DatetimeColumn(ticks, unit, tz, None if plain else new_valid)


# the nanosecond range as (day, ns into that day): pandas' Timestamp.min and Timestamp.max
_NS_FIRST = (-106_752, 763_145_224_193)
_NS_LAST = (106_751, 85_636_854_775_807)
_DAY_NS = 86_400 * 1_000_000_000


def _within_ns_range(
    col: StringColumn, days: Any, nsod: Any, tzoff: Any, ok: Any, good: Any, errors: str
) -> Any:
    """``ok`` with rows whose UTC instant lies outside the nanosecond range dropped (errors='coerce'),
    or raise pandas' OutOfBoundsDatetime for the first such row. Synchronizes once."""
    xp = col.xp
    shifted = nsod - tzoff * 1_000_000_000  # the UTC instant, as (day, ns into the day)
    day = days + shifted // _DAY_NS
    ns = shifted % _DAY_NS
    out = (day < _NS_FIRST[0]) | (day > _NS_LAST[0])
    out |= ((day == _NS_FIRST[0]) & (ns < _NS_FIRST[1])) | ((day == _NS_LAST[0]) & (ns > _NS_LAST[1]))
    out &= good
    if not bool(out.any()):
        return ok, False
    if errors == "coerce":
        return ok & ~out, True
    i = int(to_host(xp.flatnonzero(out)[:1])[0])
    value = col.take(xp.asarray([i])).to_pandas().iloc[0]
    raise pd.errors.OutOfBoundsDatetime(f"Out of bounds nanosecond timestamp: {value}, at position {i}")


_FACTOR_NS = {
    "D": 86_400 * 10**9,
    "h": 3600 * 10**9,
    "m": 60 * 10**9,
    "s": 10**9,
    "ms": 10**6,
    "us": 1000,
    "ns": 1,
}


def numbers_to_datetime(col: NumericColumn, unit: str = "ns", errors: str = "raise") -> DatetimeColumn:
    """Epoch numbers in ``unit`` (D, h, m, s, ms, us, ns), as pandas 3: integers (and floats that are
    all whole or NaN) keep ``us`` or ``ns`` ticks (``us`` for coarser units; pandas 3.0: ms / us / ns
    kept, ``s`` for coarser units), other floats give ``ns``
    with the fraction rounded as pandas. A value outside the int64 range of the result raises pandas'
    OutOfBoundsDatetime (errors='coerce': NaT). Synchronizes once (twice for floats)."""
    if unit not in _FACTOR_NS:
        raise ValueError(f"to_datetime: unit must be one of {sorted(_FACTOR_NS)}, got {unit!r}")
    if errors not in ("raise", "coerce"):
        raise ValueError("errors must be one of 'raise', or 'coerce'.")
    xp = col.xp
    data = col.data
    valid = col.mask
    if data.dtype.kind != "f":
        return _ints_to_datetime(xp, data, valid, unit, errors)
    nan = xp.isnan(data)
    valid = ~nan if valid is None else valid & ~nan
    x = xp.where(valid, data, 0).astype(np.float64)
    base = xp.trunc(x)
    whole = (x == base) & (x >= -(2.0**63)) & (x < 2.0**63)
    flags = to_host(xp.stack([whole.all(), nan.any()]))  # one sync
    if col.mask is None and not flags[1]:
        valid = None
    if flags[0]:  # pandas gives whole floats (and NaN) the integers' unit
        return _ints_to_datetime(xp, base.astype(np.int64), valid, unit, errors)
    m = _FACTOR_NS[unit]
    lim = float(I64_MAX // m)
    bad = ~xp.isfinite(x) | (base > lim) | (base < -lim)
    beyond = None if PANDAS_31 else ~xp.isfinite(x) | (xp.abs(x) >= 2.0**63)  # pandas 3.0: OverflowError
    x = xp.where(bad, 0, x)
    base = xp.where(bad, 0, base)
    base_i = base.astype(np.int64)
    frac = x - base
    p = int(np.log10(m))
    if p:
        frac = xp.round(frac, p)
    with np.errstate(over="ignore"):
        scaled = base_i * m
        part = (frac * m).astype(np.int64)
        ticks = scaled + part
    bad |= (((scaled ^ ticks) & (part ^ ticks)) < 0) | (ticks == I64_MIN)
    message = f"cannot convert input with unit '{unit}'"
    ticks, valid = _coerce_or_raise(xp, ticks, valid, bad, errors, message, beyond)
    return DatetimeColumn(ticks, "ns", None, valid)


def _ints_to_datetime(xp: Any, data: Any, valid: Any, unit: str, errors: str) -> DatetimeColumn:
    # pandas 3.1 keeps us / ns and gives coarser units us; pandas 3.0 keeps ms / us / ns and gives s
    if PANDAS_31:
        out_unit = unit if unit in ("us", "ns") else "us"
    else:
        out_unit = unit if unit in ("ms", "us", "ns") else "s"
    if data.dtype == np.uint64:  # beyond the int64 range: pandas' "cannot convert" (coerce: NaT)
        beyond = data > np.uint64(I64_MAX)
        data, valid = _coerce_or_raise(
            xp, xp.where(beyond, 0, data), valid, beyond, errors, f"cannot convert input with unit '{unit}'"
        )
    data = data.astype(np.int64)
    factor = _FACTOR_NS[unit] // UNIT_NS[out_unit]
    if factor == 1:
        return DatetimeColumn(data, out_unit, None, valid)
    lim = I64_MAX // factor
    nat = data == I64_MIN  # NaT stays NaT
    over = (data > lim) | (data < -lim)
    over &= ~nat if valid is None else valid & ~nat
    flags = to_host(xp.stack([over.any(), nat.any()]))  # one sync
    if flags[1]:
        valid = ~nat if valid is None else valid & ~nat
    if flags[0]:
        i = int(to_host(xp.flatnonzero(over)[:1])[0])
        if errors != "coerce":
            v = int(to_host(data[i : i + 1])[0])
            when = np.datetime64(v, unit)
            if unit in ("D", "h", "m") and abs(v * _FACTOR_NS[unit] // 10**9) <= I64_MAX:
                when = when.astype("M8[s]")
            shown = str(when).replace("T", " ")
            raise pd.errors.OutOfBoundsDatetime(f"Out of bounds microsecond timestamp: {shown}")
        valid = ~over if valid is None else valid & ~over
    if flags[0] or flags[1]:
        data = xp.where(valid, data, 0)
    return DatetimeColumn(data * factor, out_unit, None, valid)


def _coerce_or_raise(
    xp: Any, ticks: Any, valid: Any, bad: Any, errors: str, message: Any, beyond: Any = None
) -> tuple[Any, Any]:
    """Rows flagged ``bad`` (among the valid ones) become NaT with errors='coerce', else raise pandas'
    OutOfBoundsDatetime for the first one (pandas 3.0: OverflowError where ``beyond`` flags it, a
    number past int64). One sync (two or three on the error path)."""
    i = first_bad(xp, bad, valid)
    if i is None:
        return ticks, valid
    if errors != "coerce":
        text = message if isinstance(message, str) else message(i)
        raise float_epoch_overflow(text, beyond is not None and bool(to_host(beyond[i : i + 1])[0]))
    keep = ~bad
    return xp.where(keep, ticks, 0), keep if valid is None else valid & keep

"""Unicode tables for the ``.str`` kernels: case mappings and character classes for every code point.

Built once, lazily, with NumPy's vectorized string functions (Python's ``str`` semantics), then kept
on each device as lookup tables; character classes come in ASCII, BMP and full-range tables, the
smallest that covers the text being used.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ember.backend import asarray_on

_NCP = 0x110000


@functools.cache
def _all_chars() -> np.ndarray:
    cps = np.arange(_NCP, dtype=np.uint32)
    cps[0xD800:0xE000] = 0x20  # surrogates cannot occur in decoded UTF-8; any placeholder works
    return cps


@functools.cache
def _mapping(kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(keys, counts, values[k, 3]) for code points whose ``kind`` mapping is not the identity:
    Python's (full mappings: ß -> SS), or with an ``@arrow`` suffix pyarrow's ``utf8_*`` kernels
    (utf8proc's simple mappings, one code point each: İ -> i, ß -> ẞ, ᾳ -> ᾼ), which pandas' Arrow
    string dtypes use."""
    cps = _all_chars()
    wide = np.zeros((_NCP, 3), dtype=np.uint32)
    wide[:, 0] = cps
    arr = wide.view("<U3").ravel()
    if kind.endswith("@arrow"):
        import pyarrow as pa
        import pyarrow.compute as pc

        fn = {"lower": pc.utf8_lower, "upper": pc.utf8_upper, "swapcase": pc.utf8_swapcase}[kind[:-6]]
        out = fn(pa.array(cps.view("<U1"))).to_numpy(zero_copy_only=False).astype("<U3")
    elif kind == "casefold":  # NumPy has no casefold: Python's, over the cased characters only
        out = arr.copy()
        cased = np.flatnonzero(_flags() & np.uint16(0b11100001))
        out[cased] = [chr(c).casefold() for c in cased.tolist()]
    else:
        fn = {
            "lower": np.strings.lower,
            "upper": np.strings.upper,
            "title": np.strings.title,
            "swapcase": np.strings.swapcase,
        }[kind]
        out = np.asarray(fn(arr)).astype("<U3")
    vals = out.view(np.uint32).reshape(_NCP, 3)
    counts = np.asarray(np.strings.str_len(out), dtype=np.int64)
    changed = (counts != 1) | (vals[:, 0] != cps)
    changed[0] = False
    changed[0xD800:0xE000] = False
    keys = np.flatnonzero(changed).astype(np.int32)
    return keys, counts[keys], vals[keys].astype(np.int32)


_FLAG_NAMES = ("alpha", "digit", "decimal", "numeric", "space", "upper", "lower", "title", "alnum")


@functools.cache
def _flags(limit: int = _NCP, arrow: bool = False) -> np.ndarray:
    """uint16 bit flags of the code points below ``limit`` (bit i = _FLAG_NAMES[i]): the ASCII and BMP
    tables are built in microseconds / milliseconds, the full one (0.1 s) only for text that needs it.
    ``arrow``: the classes of pyarrow's ``utf8_is_*`` kernels (utf8proc's Unicode version and rules:
    '½' is a digit, 'ª' is not lower), which pandas' pyarrow-backed string dtypes use; 'title' then
    marks the characters pyarrow counts as cased that are neither upper nor lower."""
    if arrow:
        return _arrow_flags(limit)
    arr = _all_chars()[:limit].view("<U1")
    out = np.zeros(limit, dtype=np.uint16)
    tests = [
        np.strings.isalpha,
        np.strings.isdigit,
        np.strings.isdecimal,
        np.strings.isnumeric,
        np.strings.isspace,
        np.strings.isupper,
        np.strings.islower,
        np.strings.istitle,
    ]
    for i, fn in enumerate(tests):
        out |= np.asarray(fn(arr), dtype=np.uint16) << i
    title_only = ((out >> 7) & 1).astype(bool) & ~((out >> 5) & 1).astype(bool)
    out &= np.uint16(~(1 << 7) & 0xFFFF)
    out |= title_only.astype(np.uint16) << 7
    out |= (((out & np.uint16(0b1111)) != 0).astype(np.uint16)) << 8  # Python: alpha or any numeric kind
    out[0xD800:0xE000] = 0
    return out


def _arrow_flags(limit: int) -> np.ndarray:
    import pyarrow as pa
    import pyarrow.compute as pc

    chars = pa.array(_all_chars()[:limit].view("<U1"))

    def test(fn: Any, values: Any = chars) -> np.ndarray:
        return np.asarray(fn(values).to_numpy(zero_copy_only=False), dtype=bool)

    upper, lower = test(pc.utf8_is_upper), test(pc.utf8_is_lower)
    cased = ~test(pc.utf8_is_lower, pc.binary_join_element_wise("a", chars, "")) | lower
    bits = [
        test(pc.utf8_is_alpha),
        test(pc.utf8_is_digit),
        test(pc.utf8_is_decimal),
        test(pc.utf8_is_numeric),
        test(pc.utf8_is_space),
        upper,
        lower,
        cased & ~upper & ~lower,
        test(pc.utf8_is_alnum),
    ]
    out = np.zeros(limit, dtype=np.uint16)
    for i, b in enumerate(bits):
        out |= b.astype(np.uint16) << i
    out[0xD800:0xE000] = 0
    return out


_FLAG_LIMITS = (0x80, 0x10000, _NCP)


@functools.cache
def _device_table(name: str, xp: Any) -> Any:
    if name.startswith("flags"):
        base, arrow = (name[:-6], True) if name.endswith("@arrow") else (name, False)
        return asarray_on(_flags(int(base[len("flags") :] or _NCP), arrow), xp)
    kind, part = name.split(":")
    return asarray_on(_mapping(kind)[int(part)], xp)


def char_flag(xp: Any, cps: Any, *names: str, arrow: bool = False) -> Any:
    """True where the code point has any of the named classes (``arrow``: pyarrow's classes)."""
    bits = 0
    for n in names:
        bits |= 1 << _FLAG_NAMES.index(n)
    top = int(cps.max()) if cps.shape[0] else 0  # the smallest table that covers the text
    limit = next(lim for lim in _FLAG_LIMITS if top < lim)
    table = _device_table(f"flags{limit}" + ("@arrow" if arrow else ""), xp)
    return (table[cps] & np.uint16(bits)) != 0


def is_word_char(xp: Any, cps: Any) -> Any:
    return char_flag(xp, cps, "alpha", "digit", "decimal", "numeric") | (cps == 95)

"""``.str`` operations that reshape each string: strip, pad / center / zfill, slice, get and
slice_replace, on the code point view of ``ops.strings`` (positions are characters, not bytes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import StringColumn
from ember.ops._common import and_masks
from ember.ops._strings import expand_positions
from ember.ops._unicode import char_flag
from ember.ops.strings import (
    CP,
    _check,
    _empty_i32,
    _offs,
    _pattern_cps,
    _slice_bounds,
    decode,
    encode,
    gather_cp,
)


def _first_last_keep(cp: CP, keep: Any) -> tuple[Any, Any]:
    """Per row: index of the first kept character and one past the last (a row keeping none: its end
    and its start)."""
    xp = cp.xp
    kp = xp.flatnonzero(keep)
    lo, hi = cp.offs[:-1], cp.offs[1:]
    if kp.shape[0] == 0:  # no row keeps a character
        return hi, lo
    kpp = xp.concatenate([kp, xp.asarray([np.iinfo(np.int64).max])])
    first = kpp[xp.searchsorted(kp, lo)]
    first = xp.minimum(first, hi)
    li = xp.searchsorted(kp, hi) - 1
    prev = kp[xp.maximum(li, 0)]
    last = xp.where((li >= 0) & (prev >= lo), prev + 1, lo)  # a row keeping nothing: its start
    return first, last


def strip(col: StringColumn, to_strip: str | None = None, side: str = "both") -> StringColumn:
    cp = decode(_check(col, "strip"))
    xp = cp.xp
    if to_strip is None:
        strip_ = char_flag(xp, cp.cps, "space")
    else:
        strip_ = xp.isin(cp.cps, _pattern_cps(xp, to_strip))
    first, last = _first_last_keep(cp, ~strip_)
    lo, hi = cp.offs[:-1], cp.offs[1:]
    start = first if side in ("both", "left") else lo
    stop = last if side in ("both", "right") else hi
    start = xp.minimum(start, stop) if side != "right" else start
    stop = xp.maximum(stop, start)
    return encode(gather_cp(cp, start, stop - start))


def pad(col: StringColumn, width: int, side: str = "left", fillchar: str = " ") -> StringColumn:
    """pad / center / ljust / rjust (Python's center rule for the odd extra character)."""
    if not isinstance(fillchar, str) or len(fillchar) != 1:
        raise TypeError(
            "fillchar must be a character, not str"
            if isinstance(fillchar, str)
            else f"fillchar must be a character, not {type(fillchar).__name__}"
        )
    if not isinstance(width, (int, np.integer)):
        raise TypeError(f"width must be of integer type, not {type(width).__name__}")
    cp = decode(_check(col, "pad"))
    xp = cp.xp
    n_len = cp.lengths
    marg = xp.maximum(width - n_len, 0)
    if side == "left":
        left = marg
    elif side == "right":
        left = xp.zeros_like(marg)
    elif side == "both":
        left = marg // 2 + (marg & width & 1)
    else:
        raise ValueError("Invalid side")
    return encode(_padded(cp, left, n_len + marg, ord(fillchar)))


def _padded(cp: CP, left: Any, newlen: Any, fill: int, keep_first: Any = None) -> CP:
    xp = cp.xp
    offs = _offs(xp, newlen)
    total = int(offs[-1])
    if total == 0:
        return CP(offs, _empty_i32(xp), cp.mask, xp, cp.pd_dtype)
    row, j = expand_positions(xp, offs, total)
    lr, ln = left[row], cp.lengths[row]
    src = j - lr
    inside = (src >= 0) & (src < ln)
    if keep_first is not None:  # zfill: the sign stays in front of the zeros
        kf = keep_first[row]
        src = xp.where(kf & (j == 0), 0, src)
        inside = inside | (kf & (j == 0))
        inside = inside & ~(kf & (j > 0) & (src == 0))
    val = (
        cp.cps[xp.clip(cp.offs[row] + src, 0, max(cp.cps.shape[0] - 1, 0))]
        if cp.cps.shape[0]
        else xp.zeros(total, np.int32)
    )
    out = xp.where(inside, val, fill).astype(np.int32)
    return CP(offs, out, cp.mask, xp, cp.pd_dtype)


def zfill(col: StringColumn, width: int) -> StringColumn:
    if not isinstance(width, (int, np.integer)):
        raise TypeError(f"width must be of integer type, not {type(width).__name__}")
    cp = decode(_check(col, "zfill"))
    xp = cp.xp
    n_len = cp.lengths
    marg = xp.maximum(width - n_len, 0)
    first = (
        cp.cps[xp.minimum(cp.offs[:-1], max(cp.cps.shape[0] - 1, 0))]
        if cp.cps.shape[0]
        else xp.zeros(len(cp), np.int32)
    )
    sign = (n_len > 0) & ((first == 43) | (first == 45)) & (marg > 0)
    return encode(_padded(cp, marg, n_len + marg, 48, keep_first=sign))


def str_slice(
    col: StringColumn, start: int | None = None, stop: int | None = None, step: int | None = None
) -> StringColumn:
    step = 1 if step is None else int(step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    cp = decode(_check(col, "slice"))
    xp = cp.xp
    s, cnt = _slice_bounds(xp, cp.lengths, start, stop, step)
    offs = _offs(xp, cnt)
    total = int(offs[-1])
    if total == 0:
        return encode(CP(offs, _empty_i32(xp), cp.mask, xp, cp.pd_dtype))
    row, j = expand_positions(xp, offs, total)
    src = cp.offs[row] + s[row] + j * step
    return encode(CP(offs, cp.cps[src], cp.mask, xp, cp.pd_dtype))


def get(col: StringColumn, i: int) -> StringColumn:
    """Character ``i`` of each row (negative from the end); missing where out of range."""
    cp = decode(_check(col, "get"))
    xp = cp.xp
    L = cp.lengths
    idx = (L + i if i < 0 else xp.full_like(L, i)) if isinstance(i, (int, np.integer)) else None
    if idx is None:
        raise TypeError(f"str.get: expected an integer position, got {type(i).__name__}")
    ok = (idx >= 0) & (idx < L)
    out = gather_cp(cp, cp.offs[:-1] + xp.where(ok, idx, 0), ok.astype(np.int64), and_masks(cp.mask, ok))
    return encode(out)


def slice_replace(col: StringColumn, start: int | None, stop: int | None, repl: str | None) -> StringColumn:
    """``x[:start] + repl + x[stop':]`` where stop' = start when ``x[start:stop]`` is empty (pandas)."""
    repl = "" if repl is None else repl
    cp = decode(_check(col, "slice_replace"))
    xp = cp.xp
    L = cp.lengths
    s, _ = _slice_bounds(xp, L, start, None, 1)
    a_cnt = s if start is not None else xp.zeros_like(L)
    if stop is None:
        b_start = L
    else:
        e = xp.clip(stop + L, 0, None) if stop < 0 else xp.minimum(stop, L)
        b_start = xp.where(e > s, e, s)
    r = _pattern_cps(xp, repl)
    return encode(_splice(cp, a_cnt, b_start, r))


def _splice(cp: CP, head: Any, tail_start: Any, r: Any) -> CP:
    """Per row: first ``head`` characters, then ``r``, then characters from ``tail_start`` on."""
    xp = cp.xp
    L = cp.lengths
    rl = r.shape[0]
    tail = L - tail_start
    newlen = head + rl + tail
    offs = _offs(xp, newlen)
    total = int(offs[-1])
    if total == 0:
        return CP(offs, _empty_i32(xp), cp.mask, xp, cp.pd_dtype)
    row, j = expand_positions(xp, offs, total)
    h = head[row]
    src = xp.where(j < h, j, tail_start[row] + (j - h - rl))
    in_r = (j >= h) & (j < h + rl)
    m = max(cp.cps.shape[0] - 1, 0)
    val = cp.cps[xp.clip(cp.offs[row] + src, 0, m)] if cp.cps.shape[0] else xp.zeros(total, np.int32)
    rv = r[xp.clip(j - h, 0, max(rl - 1, 0))] if rl else val
    return CP(offs, xp.where(in_r, rv, val).astype(np.int32), cp.mask, xp, cp.pd_dtype)

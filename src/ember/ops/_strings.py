"""Vectorized kernels on UTF-8 string storage (offsets + bytes), written once for NumPy and CuPy.

A string operand is a "view": ``(starts, lengths, chars)`` — per-row start offsets and byte lengths
into a byte buffer. A column gives ``(offsets[:-1], diff(offsets), chars)``; a Python ``str`` scalar
broadcast to n rows gives ``(zeros, full(n, len), encoded)``. No per-row Python anywhere: each kernel
expands rows to byte positions with one ``searchsorted`` over the output offsets.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.backend import asarray_on
from ember.backend.primitives import gather_bytes
from ember.column.string import StringColumn

_HASH_P = np.uint64(0x100000001B3)
_HASH_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_HASH_MIX2 = np.uint64(0x94D049BB133111EB)
_HASH_LEN = np.uint64(0x9E3779B97F4A7C15)


def col_view(col: StringColumn) -> tuple[Any, Any, Any]:
    offs = col.data
    return offs[:-1], offs[1:] - offs[:-1], col.chars


def scalar_view(xp: Any, value: str, n: int) -> tuple[Any, Any, Any]:
    encoded = np.frombuffer(value.encode("utf-8"), dtype=np.uint8)
    return (
        xp.zeros(n, dtype=np.int64),
        xp.full(n, encoded.size, dtype=np.int64),
        asarray_on(encoded, xp),
    )


def _offsets(xp: Any, lengths: Any) -> Any:
    offs = xp.zeros(lengths.shape[0] + 1, dtype=np.int64)
    if lengths.shape[0]:
        xp.cumsum(lengths, out=offs[1:])
    return offs


def expand_positions(xp: Any, offs: Any, total: int) -> tuple[Any, Any]:
    """(row, position within row) for every position 0..total-1 of a packed layout whose ``offs``
    start at 0 and end at ``total`` (np.repeat on the host, a binary search on the device)."""
    from ember.backend.primitives import repeat_positions

    row = repeat_positions(offs[1:] - offs[:-1], offs[1:], total)
    return row, xp.arange(total, dtype=np.int64) - offs[row]


def compare(xp: Any, a: tuple[Any, Any, Any], b: tuple[Any, Any, Any]) -> Any:
    """Row-wise lexicographic byte comparison of two views: int8 array of -1 / 0 / 1.

    Bytewise comparison of UTF-8 is codepoint order, as Python and pandas compare strings.
    Synchronizes twice (sizes of the expanded byte range and of the mismatch list)."""
    sa, la, ca = a
    sb, lb, cb = b
    cmp = xp.sign(la - lb).astype(np.int8)
    lmin = xp.minimum(la, lb)
    offs = _offsets(xp, lmin)
    total = int(offs[-1])
    if total == 0:
        return cmp
    row, k = expand_positions(xp, offs, total)
    ba = ca[sa[row] + k]
    bb = cb[sb[row] + k]
    diff = xp.flatnonzero(ba != bb)
    if diff.shape[0] == 0:
        return cmp
    drow = row[diff]
    first = xp.ones(diff.shape[0], dtype=bool)
    first[1:] = drow[1:] != drow[:-1]
    fd = diff[first]
    cmp[drow[first]] = xp.where(ba[fd] < bb[fd], -1, 1).astype(np.int8)
    return cmp


def equal(xp: Any, a: tuple[Any, Any, Any], b: tuple[Any, Any, Any]) -> Any:
    """Row-wise equality of two views (bool array); only rows of equal length compare bytes."""
    sa, la, ca = a
    sb, lb, cb = b
    same_len = la == lb
    lens = xp.where(same_len, la, 0)
    offs = _offsets(xp, lens)
    total = int(offs[-1])
    if total == 0:
        return same_len
    row, k = expand_positions(xp, offs, total)
    mismatch = ca[sa[row] + k] != cb[sb[row] + k]
    bad = xp.zeros(la.shape[0], dtype=bool)
    bad[row[mismatch]] = True
    return same_len & ~bad


def concat(xp: Any, a: tuple[Any, Any, Any], b: tuple[Any, Any, Any]) -> tuple[Any, Any]:
    """Row-wise concatenation a + b: (offsets, chars)."""
    sa, la, ca = a
    sb, lb, cb = b
    offs = _offsets(xp, la + lb)
    total = int(offs[-1])
    if total == 0:
        return offs, xp.zeros(0, dtype=np.uint8)
    both = xp.concatenate([ca, cb])
    row, k = expand_positions(xp, offs, total)
    lrow = la[row]
    src = xp.where(k < lrow, sa[row] + k, ca.shape[0] + sb[row] + (k - lrow))
    return offs, both[src]


def select(xp: Any, cond: Any, a: tuple[Any, Any, Any], b: tuple[Any, Any, Any]) -> tuple[Any, Any]:
    """Row-wise ``a if cond else b``: (offsets, chars)."""
    sa, la, ca = a
    sb, lb, cb = b
    offs = _offsets(xp, xp.where(cond, la, lb))
    both = xp.concatenate([ca, cb])
    starts = xp.where(cond, sa, sb + ca.shape[0])
    return offs, gather_bytes(both, starts, offs)


def hash64(xp: Any, view: tuple[Any, Any, Any]) -> Any:
    """A 64-bit hash of each row's bytes (polynomial, then a splitmix finalizer). Equal strings hash
    equal; callers that need exactness confirm candidate matches with ``equal``."""
    starts, lengths, chars = view
    n = lengths.shape[0]
    offs = _offsets(xp, lengths)
    total = int(offs[-1])
    h = lengths.astype(np.uint64) * _HASH_LEN
    if total:
        row, k = expand_positions(xp, offs, total)
        maxlen = int(lengths.max())
        pw = xp.full(maxlen, _HASH_P, dtype=np.uint64)
        pw[0] = 1
        pw = xp.cumprod(pw, dtype=np.uint64)
        contrib = (chars[starts[row] + k].astype(np.uint64) + np.uint64(1)) * pw[k]
        cs = xp.zeros(total + 1, dtype=np.uint64)
        xp.cumsum(contrib, out=cs[1:], dtype=np.uint64)
        h = h + (cs[offs[1:]] - cs[offs[:-1]])
    elif n == 0:
        return h
    h = h ^ (h >> np.uint64(30))
    h = h * _HASH_MIX1
    h = h ^ (h >> np.uint64(27))
    h = h * _HASH_MIX2
    return h ^ (h >> np.uint64(31))


def take_view(view: tuple[Any, Any, Any], idx: Any) -> tuple[Any, Any, Any]:
    starts, lengths, chars = view
    return starts[idx], lengths[idx], chars


def lookup(xp: Any, col_v: tuple[Any, Any, Any], keys_v: tuple[Any, Any, Any]) -> Any:
    """For each row of ``col_v`` the index of an equal row in ``keys_v`` (keys unique), or -1.

    Hashes both sides, binary-searches the sorted key hashes, and confirms candidates bytewise; keys
    whose hashes collide are confirmed one probe at a time (rare: 64-bit hashes)."""
    n = col_v[1].shape[0]
    m = keys_v[1].shape[0]
    out = xp.full(n, -1, dtype=np.int64)
    if n == 0 or m == 0:
        return out
    hk = hash64(xp, keys_v)
    order = xp.argsort(hk, kind="stable") if xp is np else xp.argsort(hk)
    hk_sorted = hk[order]
    hc = hash64(xp, col_v)
    pos = xp.searchsorted(hk_sorted, hc, side="left")
    # probe while the hash matches: equal hashes are adjacent in the sorted keys
    max_dup = 1
    if m > 1:
        same = hk_sorted[1:] == hk_sorted[:-1]
        if bool(same.any()):
            max_dup = m  # bounded by the loop exit below
    pending = xp.ones(n, dtype=bool)
    for step in range(max_dup):
        p = pos + step
        inb = p < m
        pc = xp.where(inb, p, 0)
        cand = pending & inb & (hk_sorted[pc] == hc)
        if step and not bool(cand.any()):
            break
        key_idx = order[pc]
        eq = equal(xp, col_v, take_view(keys_v, key_idx)) & cand
        out = xp.where(eq, key_idx, out)
        pending = pending & ~eq
    return out


def from_arrays(offsets: Any, chars: Any, mask: Any, pd_dtype: Any) -> StringColumn:
    return StringColumn(offsets, chars, mask, pd_dtype)

"""Array kernels for text features: UTF-8 word tokenizing, n-grams and MurmurHash3, written against
``xp`` so that the same code runs on NumPy and CuPy.

A *term list* is ``(buf, starts, lens, doc)``: the UTF-8 bytes of every term lie at
``buf[starts[i]:starts[i] + lens[i]]`` and belong to document ``doc[i]``; terms of one document are in
document order and documents in ascending order.

Word characters.  Python's ``\\w`` (what scikit-learn's default ``token_pattern`` uses) is decided per
code point; here every code point is decoded from the UTF-8 bytes and looked up in a table built once
from Python's own ``re`` for all 0x110000 code points, so tokens equal Python's, non-ASCII included.
Lowercasing on the device folds ASCII only (host string inputs are lowercased with Arrow's Unicode
``utf8_lower`` before they move to the device).
"""

from __future__ import annotations

import functools
import re
from types import ModuleType
from typing import Any

import numpy as np

from ember.backend import asarray_on, to_host
from ember.backend.primitives import cummax, repeat_positions

_C1 = 0xCC9E2D51
_C2 = 0x1B873593


@functools.cache
def _word_table_host() -> np.ndarray:
    """bool[0x110000]: whether Python's ``(?u)\\w`` matches the code point."""
    table = np.zeros(0x110000, dtype=bool)
    chars = "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))
    cps = np.concatenate([np.arange(0xD800), np.arange(0xE000, 0x110000)])  # surrogates never match
    hits = [m.start() for m in re.finditer(r"(?u)\w", chars)]
    table[cps[np.asarray(hits, dtype=np.int64)]] = True
    return table


_TABLES: dict[int, Any] = {}


def word_table(xp: ModuleType) -> Any:
    """The word-character table on the device of ``xp`` (copied there once)."""
    key = id(xp)
    if key not in _TABLES:
        _TABLES[key] = asarray_on(_word_table_host(), xp)
    return _TABLES[key]


def ascii_lower(chars: Any, xp: ModuleType) -> Any:
    """Bytes with A-Z folded to a-z (other bytes unchanged)."""
    upper = (chars >= 65) & (chars <= 90)
    return chars + (upper.astype(xp.uint8) * xp.uint8(32))


def _code_points(chars: Any, xp: ModuleType) -> tuple[Any, Any]:
    """(is_lead, code point at each lead byte) of a UTF-8 buffer."""
    b = chars.astype(xp.uint32)
    pad = xp.concatenate([b, xp.zeros(3, dtype=xp.uint32)])
    b1, b2, b3 = pad[1:-2] & 0x3F, pad[2:-1] & 0x3F, pad[3:] & 0x3F
    lead = (b & 0xC0) != 0x80
    cp = xp.where(
        b < 0x80,
        b,
        xp.where(
            b >= 0xF0,
            ((b & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3,
            xp.where(b >= 0xE0, ((b & 0x0F) << 12) | (b1 << 6) | b2, ((b & 0x1F) << 6) | b1),
        ),
    )
    return lead, xp.minimum(cp, 0x10FFFF)


def tokenize_words(offsets: Any, chars: Any, min_chars: int, xp: ModuleType) -> tuple[Any, Any, Any]:
    """(starts, lens, doc) of the maximal runs of word characters with at least ``min_chars`` code
    points, i.e. the matches of ``(?u)\\b\\w\\w+\\b`` (min_chars=2) or ``(?u)\\b\\w+\\b`` (1).

    One device->host sync (the number of tokens)."""
    n = chars.shape[0]
    if n == 0:
        e = xp.zeros(0, dtype=xp.int64)
        return e, e, e
    lead, cp = _code_points(chars, xp)
    pos = xp.arange(n, dtype=xp.int64)
    lead_pos = cummax(xp.where(lead, pos, 0))
    word = word_table(xp)[cp[lead_pos].astype(xp.int64)]
    doc_start = xp.zeros(n + 1, dtype=bool)
    doc_start[offsets[:-1]] = True  # empty documents share a start with the next one: harmless
    doc_start = doc_start[:n]
    prev_word = xp.concatenate([xp.zeros(1, dtype=bool), word[:-1]]) & ~doc_start
    next_word = xp.concatenate([word[1:], xp.zeros(1, dtype=bool)]) & ~xp.concatenate(
        [doc_start[1:], xp.ones(1, dtype=bool)]
    )
    starts = xp.flatnonzero(word & ~prev_word)
    ends = xp.flatnonzero(word & ~next_word) + 1
    ncp = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(lead, dtype=xp.int64)])
    keep = (ncp[ends] - ncp[starts]) >= min_chars
    starts, ends = starts[keep], ends[keep]
    doc = xp.searchsorted(offsets, starts, side="right").astype(xp.int64) - 1
    return starts.astype(xp.int64), (ends - starts).astype(xp.int64), doc


def gather_segments(src: Any, starts: Any, lens: Any, xp: ModuleType) -> tuple[Any, Any]:
    """Concatenate ``src[starts[i]:starts[i]+lens[i]]`` for all i: (buffer, offsets). One sync."""
    offsets = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(lens, dtype=xp.int64)])
    total = int(offsets[-1])
    owner = repeat_positions(lens, offsets[1:], total)
    within = xp.arange(total, dtype=xp.int64) - offsets[owner]
    return src[starts[owner] + within], offsets


def word_ngrams(buf: Any, starts: Any, lens: Any, doc: Any, n: int, xp: ModuleType) -> tuple[Any, ...]:
    """Term list of the n-grams (tokens joined by one space) of consecutive tokens of a document."""
    m = starts.shape[0] - n + 1
    if m <= 0:
        e = xp.zeros(0, dtype=xp.int64)
        return xp.zeros(0, dtype=xp.uint8), e, e, e
    first = xp.arange(m, dtype=xp.int64)
    valid = doc[first] == doc[first + n - 1]
    first = first[valid]
    space_at = buf.shape[0]
    src = xp.concatenate([buf, xp.full(1, 32, dtype=xp.uint8)])
    piece_start = xp.full((first.shape[0], 2 * n - 1), space_at, dtype=xp.int64)
    piece_len = xp.ones((first.shape[0], 2 * n - 1), dtype=xp.int64)
    for j in range(n):  # loop over the n positions of a gram, not over rows
        piece_start[:, 2 * j] = starts[first + j]
        piece_len[:, 2 * j] = lens[first + j]
    out, _ = gather_segments(src, piece_start.ravel(), piece_len.ravel(), xp)
    glen = piece_len.sum(axis=1)
    gstart = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(glen, dtype=xp.int64)[:-1]])
    return out, gstart, glen, doc[first]


def _rotl(x: Any, r: int, xp: ModuleType) -> Any:
    return (x << xp.uint32(r)) | (x >> xp.uint32(32 - r))


def _mix_k1(k1: Any, xp: ModuleType) -> Any:
    k1 = k1 * xp.uint32(_C1)
    k1 = _rotl(k1, 15, xp)
    return k1 * xp.uint32(_C2)


def murmurhash3_32(buf: Any, starts: Any, lens: Any, xp: ModuleType, seed: int = 0) -> Any:
    """Signed 32-bit MurmurHash3 (x86_32) of every term, equal to
    ``sklearn.utils.murmurhash3_32(term_bytes, seed, positive=False)``.

    The 4-byte blocks are processed block index by block index over the terms still that long (terms
    sorted by length so each step is a prefix slice); one sync reads the block-count histogram."""
    m = starts.shape[0]
    if m == 0:
        return xp.zeros(0, dtype=xp.int32)
    pad = xp.concatenate([buf, xp.zeros(4, dtype=xp.uint8)]).astype(xp.uint32)
    nblocks = lens // 4
    order = xp.argsort(-nblocks)
    s_start, s_len, s_nb = starts[order], lens[order], nblocks[order]
    hist = to_host(xp.bincount(s_nb))
    active = m - np.concatenate([[0], np.cumsum(hist)])  # active[j]: terms with more than j blocks
    h = xp.full(m, seed, dtype=xp.uint32)
    for j in range(len(hist) - 1):
        a = int(active[j + 1])
        p = s_start[:a] + 4 * j
        k1 = (
            pad[p]
            | (pad[p + 1] << xp.uint32(8))
            | (pad[p + 2] << xp.uint32(16))
            | (pad[p + 3] << xp.uint32(24))
        )
        hj = h[:a] ^ _mix_k1(k1, xp)
        hj = _rotl(hj, 13, xp)
        h[:a] = hj * xp.uint32(5) + xp.uint32(0xE6546B64)
    tail = s_len & 3
    p = s_start + 4 * s_nb
    t0, t1, t2 = pad[p], pad[p + 1], pad[p + 2]
    k1 = xp.where(tail >= 3, t2 << xp.uint32(16), 0).astype(xp.uint32)
    k1 ^= xp.where(tail >= 2, t1 << xp.uint32(8), 0).astype(xp.uint32)
    k1 ^= xp.where(tail >= 1, t0, 0).astype(xp.uint32)
    h = xp.where(tail > 0, h ^ _mix_k1(k1, xp), h)
    h = h ^ s_len.astype(xp.uint32)
    h ^= h >> xp.uint32(16)
    h = h * xp.uint32(0x85EBCA6B)
    h ^= h >> xp.uint32(13)
    h = h * xp.uint32(0xC2B2AE35)
    h ^= h >> xp.uint32(16)
    out = xp.empty(m, dtype=xp.int32)
    out[order] = h.view(xp.int32)
    return out


def packed_keys(buf: Any, starts: Any, lens: Any, width: int, xp: ModuleType) -> Any:
    """(m, width // 8 + 1) uint64 rows: the first ``width`` bytes of each term packed little-endian,
    zero-padded, then the length; equal rows <=> equal terms for terms up to ``width`` bytes."""
    m = starts.shape[0]
    pad = xp.concatenate([buf, xp.zeros(width, dtype=xp.uint8)])
    out = xp.zeros((m, width // 8 + 1), dtype=xp.uint64)
    for j in range(width):  # loop over byte positions of a short key, not rows
        byte = xp.where(lens > j, pad[starts + j], 0).astype(xp.uint64)
        out[:, j // 8] |= byte << xp.uint64(8 * (j % 8))
    out[:, -1] = lens.astype(xp.uint64)
    return out


def term_hash64(buf: Any, starts: Any, lens: Any, xp: ModuleType) -> Any:
    """64-bit term identity: two MurmurHash3 seeds side by side (used to find unique terms; the chance
    of a collision among m distinct terms is about m**2 / 2**65)."""
    h0 = murmurhash3_32(buf, starts, lens, xp, seed=0).view(xp.uint32).astype(xp.uint64)
    h1 = murmurhash3_32(buf, starts, lens, xp, seed=0x9747B28C).view(xp.uint32).astype(xp.uint64)
    return ((h1 << xp.uint64(32)) | h0).view(xp.int64)

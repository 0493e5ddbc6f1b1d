"""Loader and launcher of the regex automaton kernel in ``regex.cu``, and its NumPy reference.

The automaton (at most 64 states, a bit set per row) comes from ``ember.ops.regex``; this module only
runs it. On the device one thread walks one string; on the host the reference walks all strings at
once, one character position per step, with the follow sets looked up a byte of the state at a time.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ember.backend.device import cupy_module

MAX_STATES = 64
_THREADS = 256


@functools.cache
def _module() -> Any:
    path = os.path.join(os.path.dirname(__file__), "regex.cu")
    with open(path, encoding="utf-8") as f:
        return cupy_module().RawModule(code=f.read(), options=("-std=c++14",))


def run_nfa64(
    member: Any,
    offs: Any,
    follow: np.ndarray,
    first: int,
    last: int,
    start_anchor: bool,
    end_mode: int,
    ends_nl: Any,
    found: Any,
) -> Any:
    """Bool per row: whether the automaton accepts a substring (see regex.cu for the arguments).
    ``found`` (the caller's empty-match answer) is not modified; the result is a new array."""
    from ember.backend.arrays import is_device_array

    if not is_device_array(member):
        return _reference(member, offs, follow, first, last, start_anchor, end_mode, ends_nl, found)
    cp = cupy_module()
    out = found.copy()
    n = int(out.shape[0])
    if n:
        sms = cp.cuda.Device().attributes["MultiProcessorCount"]
        grid = int(max(1, min(8 * sms, (n + _THREADS - 1) // _THREADS)))
        _module().get_function("ember_regex_nfa64")(
            (grid,),
            (_THREADS,),
            (
                cp.ascontiguousarray(member, dtype=np.uint64),
                cp.ascontiguousarray(offs, dtype=np.int64),
                cp.asarray(np.ascontiguousarray(follow, dtype=np.uint64)),
                np.uint64(first),
                np.uint64(last),
                np.int32(bool(start_anchor)),
                np.int32(end_mode),
                cp.ascontiguousarray(ends_nl, dtype=np.bool_),
                out,
                np.int64(n),
            ),
        )
    return out


def _follow_tables(follow: np.ndarray) -> np.ndarray:
    """(8, 256) uint64: for byte j of a state set with value v, the union of the follow sets of its states."""
    tables = np.zeros((8, 256), dtype=np.uint64)
    values = np.arange(256)
    for j in range(8):
        for bit in range(8):
            s = 8 * j + bit
            if s < len(follow):
                tables[j, (values >> bit) & 1 == 1] |= np.uint64(follow[s])
    return tables


def _reference(
    member: np.ndarray,
    offs: np.ndarray,
    follow: np.ndarray,
    first: int,
    last: int,
    start_anchor: bool,
    end_mode: int,
    ends_nl: np.ndarray,
    found: np.ndarray,
) -> np.ndarray:
    """The kernel's semantics in NumPy, vectorized over rows (rows sorted by length, longest first, so
    that step ``t`` touches only the rows longer than ``t``)."""
    n = len(offs) - 1
    out = found.copy()
    if n == 0 or member.shape[0] == 0:
        return out
    lengths = np.diff(offs)
    order = np.argsort(-lengths, kind="stable")
    lens, starts, nl = lengths[order], offs[:-1][order], ends_nl[order]
    hit = out[order]
    active = np.searchsorted(-lens, -np.arange(int(lens[0]), dtype=np.int64), side="left")
    tables = _follow_tables(follow)
    nbytes = (len(follow) + 7) // 8
    first_, last_ = np.uint64(first), np.uint64(last)
    state = np.zeros(n, dtype=np.uint64)
    for t, a in enumerate(active):
        if a == 0:
            break
        cur = state[:a]
        nxt = np.zeros(a, dtype=np.uint64)
        for j in range(nbytes):
            nxt |= tables[j, ((cur >> np.uint64(8 * j)) & np.uint64(255)).astype(np.intp)]
        if not start_anchor or t == 0:
            nxt |= first_
        nxt &= member[starts[:a] + t]
        state[:a] = nxt
        accept = (nxt & last_) != 0
        if end_mode:
            at_end = lens[:a] == t + 1
            if end_mode == 1:
                at_end |= (lens[:a] == t + 2) & nl[:a]
            accept &= at_end
        hit[:a] |= accept
        if start_anchor and not nxt.any():
            break
    out[order] = hit
    return out

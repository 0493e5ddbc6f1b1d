"""Loader and launchers for the CSV kernels in ``csv.cu`` (reference: ``ember.io.csv_reference``).

The module is compiled once per process (``cupy.RawModule``; CuPy caches the binary on disk).
Functions here take and return CuPy arrays and say when they synchronize.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ember.backend.device import cupy_module

CHUNK = 64  # bytes per thread in the boundary passes (CSV_CHUNK in csv.cu)
THREADS = 256
UPLOAD_CHUNK = 64 << 20  # bytes per pinned staging buffer (a multiple of CHUNK)

F_NA, F_INT, F_FLOAT, F_TRUE, F_FALSE, F_SLOW, F_LONGINT, F_INF = 1, 2, 4, 8, 16, 32, 64, 128


@functools.cache
def _module() -> Any:
    cp = cupy_module()
    path = os.path.join(os.path.dirname(__file__), "csv.cu")
    with open(path, encoding="utf-8") as f:
        source = f.read()
    return cp.RawModule(code=source, options=("-std=c++14",))


def _kernel(name: str) -> Any:
    return _module().get_function(name)


def _grid(n: int) -> tuple[int]:
    return (max(1, (n + THREADS - 1) // THREADS),)


def upload_and_count_quotes(data: bytes | np.ndarray) -> tuple[Any, Any]:
    """(device buffer, quotes per 64-byte chunk): the bytes go up through two pinned staging buffers
    on a side stream and each piece's quote count is launched as soon as its copy is queued, so the
    host memcpy into pinned memory, the DMA and the first tokenizer pass overlap. Synchronizes at the end."""
    cp = cupy_module()
    src = np.frombuffer(data, dtype=np.uint8) if isinstance(data, (bytes, bytearray, memoryview)) else data
    n = int(src.shape[0])
    nchunks = (n + CHUNK - 1) // CHUNK
    # pad to 8 bytes so the kernels' 8-byte loads stay inside the allocation
    dev = cp.empty(nchunks * CHUNK + 8, dtype=cp.uint8)
    counts = cp.empty(max(nchunks, 1), dtype=cp.int32)
    if n == 0:
        return dev[:0], counts[:0]
    count = _kernel("csv_count_quotes")
    stream = cp.cuda.Stream(non_blocking=True)
    # `dev` may reuse pool memory that kernels queued on the current stream still use: wait for them
    stream.wait_event(cp.cuda.get_current_stream().record())
    piece = UPLOAD_CHUNK
    staging = [np.frombuffer(cp.cuda.alloc_pinned_memory(piece), np.uint8, piece) for _ in range(2)]
    events: list[Any] = [None, None]
    with stream:
        for i, start in enumerate(range(0, n, piece)):
            slot = i % 2
            if events[slot] is not None:
                events[slot].synchronize()  # the copy that used this staging buffer has finished
            k = min(piece, n - start)
            np.copyto(staging[slot][:k], src[start : start + k])
            dev[start : start + k].set(staging[slot][:k], stream=stream)
            events[slot] = stream.record()
            first = start // CHUNK
            m = (k + CHUNK - 1) // CHUNK
            count(_grid(m), (THREADS,), (dev, np.int64(n), np.int64(first), np.int64(m), counts))
        stream.synchronize()
    return dev[:n], counts[:nchunks]


def upload_file_and_count_quotes(path: str, offset: int, size: int) -> tuple[Any, Any, Any]:
    """(device buffer, quotes per 64-byte chunk, any byte >= 0x80 as a device bool) of bytes
    [offset, size) of a local file, read through ``backend.files.read_into`` (threads, pinned pieces):
    each piece's quote count is queued as soon as its copy is. Synchronizes at the end."""
    from ember.backend.files import read_into

    cp = cupy_module()
    n = max(size - offset, 0)
    nchunks = (n + CHUNK - 1) // CHUNK
    dev = cp.empty(nchunks * CHUNK + 8, dtype=cp.uint8)
    counts = cp.empty(max(nchunks, 1), dtype=cp.int32)
    if n == 0:
        return dev[:0], counts[:0], cp.zeros((), dtype=bool)
    count = _kernel("csv_count_quotes")
    flags: dict[str, Any] = {}

    def count_piece(start: int, k: int, stream: Any) -> None:
        first, m = start // CHUNK, (k + CHUNK - 1) // CHUNK
        count(_grid(m), (THREADS,), (dev, np.int64(n), np.int64(first), np.int64(m), counts))
        if start + k == n:  # the last piece: queued on the same stream, after every copy
            flags["non_ascii"] = dev[:n].max() >= 128

    read_into(path, offset, n, dev, on_piece=count_piece)
    return dev[:n], counts[:nchunks], flags["non_ascii"]


def boundaries(buf: Any, quote_counts: Any, sep: int) -> tuple[Any, Any, int]:
    """(positions of separators/newlines outside quotes, newline flags, total quotes).

    Synchronizes once (the number of boundaries and the quote total, read together)."""
    cp = cupy_module()
    n = int(buf.shape[0])
    nchunks = int(quote_counts.shape[0])
    qc = quote_counts.astype(cp.int64)
    quotes_before = cp.cumsum(qc) - qc
    counts = cp.empty(nchunks, dtype=cp.int32)
    _kernel("csv_count_boundaries")(
        _grid(nchunks),
        (THREADS,),
        (buf, np.int64(n), np.int32(sep), quotes_before, np.int64(nchunks), counts),
    )
    bc = counts.astype(cp.int64)
    out_before = cp.cumsum(bc) - bc
    totals = cp.stack([out_before[-1] + bc[-1], quotes_before[-1] + qc[-1]]).get()
    total, quotes = int(totals[0]), int(totals[1])
    pos = cp.empty(total, dtype=cp.int64)
    is_nl = cp.empty(total, dtype=cp.uint8)
    _kernel("csv_write_boundaries")(
        _grid(nchunks),
        (THREADS,),
        (buf, np.int64(n), np.int32(sep), quotes_before, out_before, np.int64(nchunks), pos, is_nl),
    )
    return pos, is_nl.view(cp.bool_), quotes


def parse_fields(
    buf: Any, starts: Any, ends: Any, na: tuple[str, ...], true: tuple[str, ...], false: tuple[str, ...]
) -> tuple[Any, Any, Any]:
    """(int64 values, float64 values, flag bytes) for one column's fields; no synchronization."""
    cp = cupy_module()
    m = int(starts.shape[0])
    words, offsets, flags = _word_table(na, true, false)
    ival = cp.empty(m, dtype=cp.int64)
    fval = cp.empty(m, dtype=cp.float64)
    out_flags = cp.empty(m, dtype=cp.uint8)
    if m:
        _kernel("csv_parse_fields")(
            _grid(m),
            (THREADS,),
            (
                buf,
                cp.ascontiguousarray(starts),
                cp.ascontiguousarray(ends),
                np.int64(m),
                cp.asarray(words),
                cp.asarray(offsets),
                cp.asarray(flags),
                np.int32(len(flags)),
                ival,
                fval,
                out_flags,
            ),
        )
    return ival, fval, out_flags


@functools.cache
def _word_table(na: tuple[str, ...], true: tuple[str, ...], false: tuple[str, ...]) -> tuple[Any, ...]:
    """Packed word bytes, int32 offsets and per-word flags for the parse kernel (host arrays)."""
    entries = [(w, F_NA) for w in na] + [(w, F_TRUE) for w in true] + [(w, F_FALSE) for w in false]
    encoded = [w.encode() for w, _ in entries]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int32)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    words = np.frombuffer(b"".join(encoded) or b"\0", dtype=np.uint8)
    flags = np.array([f for _, f in entries], dtype=np.uint8)
    return words, offsets, flags

"""Local files read straight into device memory: pieces read by a pool of threads into pinned buffers
(``os.preadv`` releases the GIL; page-cache copies scale with cores) and each piece copied up on a side
stream as soon as it lands, while later pieces are still being read. No Python bytes object, no host-side
copy. On host arrays (the CPU backend) the pieces are read into place."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, wait
from typing import Any

import numpy as np

from ember.backend.arrays import is_device_array
from ember.backend.pools import shared_pool

FILE_PIECE = 8 << 20  # bytes per pinned buffer (a multiple of the CSV kernels' 64-byte chunk)
# threads reading pieces, and pinned buffers in flight: every reader busy while the oldest pieces are
# still being copied up
FILE_READERS = min(16, os.cpu_count() or 1)
FILE_BUFFERS = FILE_READERS + 4


def read_into(
    path: str, offset: int, size: int, dev: Any, at: int = 0, on_piece: Callable | None = None
) -> None:
    """Bytes ``[offset, offset + size)`` of a local file into ``dev[at : at + size]`` (uint8, device or
    host). ``on_piece(start, length, stream)`` runs after each piece's copy is queued on ``stream``
    (positions relative to ``at``; ``stream`` None on the host), e.g. to launch a kernel on the piece.
    Synchronizes at the end on the device. The file ending early is an OSError naming it."""
    after = (
        None if on_piece is None else lambda piece_at, length, stream: on_piece(piece_at - at, length, stream)
    )
    read_ranges([(path, offset, size, at)], dev, after)


def read_ranges(ranges: list, dev: Any, on_piece: Callable | None = None) -> None:
    """Each ``(path, offset, size, at)`` of ``ranges``: bytes ``[offset, offset + size)`` of a local file
    into ``dev[at : at + size]``, all ranges' pieces read by one pool of threads (many small ranges
    read one after another would leave most threads idle). ``on_piece(at, length, stream)`` as in
    ``read_into``, with ``at`` a place in ``dev``."""
    pieces, sources = [], []  # (place in dev, bytes); (file, offset) of each piece
    for path, offset, size, at in ranges:
        for start in range(0, size, FILE_PIECE):
            pieces.append((at + start, min(FILE_PIECE, size - start)))
            sources.append((path, offset + start))
    fds: dict[str, int] = {}
    try:
        for path, *_ in ranges:
            if path not in fds:
                fds[path] = os.open(path, os.O_RDONLY)
        fill = lambda i, out: pread_full(fds[sources[i][0]], out, sources[i][1], sources[i][0])  # noqa: E731
        after = None if on_piece is None else lambda i, stream: on_piece(*pieces[i], stream)
        fill_pieces(dev, pieces, fill, after)
    finally:
        for fd in fds.values():
            os.close(fd)


def fill_pieces(dev: Any, pieces: list, fill: Callable, after: Callable | None = None) -> None:
    """``dev[at : at + size]`` for each ``(at, size)`` of ``pieces`` (uint8, device or host) written by
    ``fill(i, out)``, which writes piece i's bytes into ``out`` (a host buffer of ``size`` bytes), on a
    pool of threads (the work must release the GIL: reads, decompression). On the device ``out`` is a
    pinned buffer, each piece copied up on a side stream as soon as it is filled, while later pieces
    are still being filled; a piece longer than ``FILE_PIECE`` goes through a pageable buffer of its
    own. ``after(i, stream)`` runs in order after piece i is queued (``stream`` None on the host).
    Synchronizes at the end on the device."""
    pool = shared_pool("files", FILE_READERS)
    if is_device_array(dev):
        _fill_on_device(dev, pieces, fill, after, pool)
        return
    done = [pool.submit(fill, i, dev[at : at + size]) for i, (at, size) in enumerate(pieces)]
    try:
        for i, future in enumerate(done):
            future.result()
            if after is not None:
                after(i, None)
    finally:
        _settle(done)


def _fill_on_device(dev: Any, pieces: list, fill: Callable, after: Callable | None, pool: Any) -> None:
    from ember.backend.device import cupy_module

    cp = cupy_module()
    stream = cp.cuda.Stream(non_blocking=True)
    stream.wait_event(cp.cuda.get_current_stream().record())  # `dev` may be memory still in use there
    slots = min(FILE_BUFFERS, len(pieces))
    staging = [
        np.frombuffer(cp.cuda.alloc_pinned_memory(FILE_PIECE), np.uint8, FILE_PIECE) for _ in range(slots)
    ]
    events: list[Any] = [None] * slots

    def staged(i: int) -> np.ndarray:
        size = pieces[i][1]
        out = staging[i % slots][:size] if size <= FILE_PIECE else np.empty(size, dtype=np.uint8)
        fill(i, out)
        return out

    pending: dict[int, Future] = {}
    try:
        with stream:
            pending.update((i, pool.submit(staged, i)) for i in range(slots))
            for i, (at, size) in enumerate(pieces):
                out = pending.pop(i).result()
                slot = i % slots
                dev[at : at + size].set(out, stream=stream)
                events[slot] = stream.record()
                if after is not None:
                    after(i, stream)
                nxt = i + slots
                if nxt < len(pieces):
                    events[slot].synchronize()  # this buffer's copy is done: it may take the next piece
                    pending[nxt] = pool.submit(staged, nxt)
            stream.synchronize()
    finally:
        _settle(list(pending.values()))
        stream.synchronize()  # no copy still reads a staging buffer when it goes back to the pool


def _settle(futures: list) -> None:
    """Wait for every task of ``futures`` (their errors are the caller's to raise): on an early exit,
    none may still write into buffers, or read files, that the caller is about to release."""
    wait(futures)


def pread_full(fd: int, out: np.ndarray, offset: int, path: str) -> int:
    """Fill ``out`` with the file's bytes from ``offset``; the file shrinking meanwhile is an error."""
    view = memoryview(out)
    done = 0
    while done < len(view):
        got = os.preadv(fd, [view[done:]], offset + done)
        if got == 0:
            raise OSError(f"{path}: the file ended at byte {offset + done} while it was being read")
        done += got
    return done

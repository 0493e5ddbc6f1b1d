"""Local files read straight into device memory: pieces read by a pool of threads into pinned buffers
(``os.preadv`` releases the GIL; page-cache copies scale with cores) and each piece copied up on a side
stream as soon as it lands, while later pieces are still being read. No Python bytes object, no host-side
copy. On host arrays (the CPU backend) the pieces are read into place."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ember.backend.arrays import is_device_array

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
    pieces = list(range(0, size, FILE_PIECE))
    fd = os.open(path, os.O_RDONLY)
    try:
        if not is_device_array(dev):
            for start in pieces:
                k = min(FILE_PIECE, size - start)
                pread_full(fd, dev[at + start : at + start + k], offset + start, path)
                if on_piece is not None:
                    on_piece(start, k, None)
            return
        _read_to_device(fd, path, offset, size, dev, at, pieces, on_piece)
    finally:
        os.close(fd)


def _read_to_device(
    fd: int, path: str, offset: int, size: int, dev: Any, at: int, pieces: list, on_piece: Any
) -> None:
    from ember.backend.device import cupy_module

    cp = cupy_module()
    stream = cp.cuda.Stream(non_blocking=True)
    stream.wait_event(cp.cuda.get_current_stream().record())  # `dev` may be memory still in use there
    slots = min(FILE_BUFFERS, len(pieces))
    staging = [
        np.frombuffer(cp.cuda.alloc_pinned_memory(FILE_PIECE), np.uint8, FILE_PIECE) for _ in range(slots)
    ]
    events: list[Any] = [None] * slots

    def read(i: int) -> int:
        k = min(FILE_PIECE, size - pieces[i])
        return pread_full(fd, staging[i % slots][:k], offset + pieces[i], path)

    with ThreadPoolExecutor(max(FILE_READERS, 1)) as pool, stream:
        pending = {i: pool.submit(read, i) for i in range(slots)}
        for i, start in enumerate(pieces):
            k = pending.pop(i).result()
            slot = i % slots
            dev[at + start : at + start + k].set(staging[slot][:k], stream=stream)
            events[slot] = stream.record()
            if on_piece is not None:
                on_piece(start, k, stream)
            nxt = i + slots
            if nxt < len(pieces):
                events[slot].synchronize()  # this buffer's copy is done: it may take the next read
                pending[nxt] = pool.submit(read, nxt)
        stream.synchronize()


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

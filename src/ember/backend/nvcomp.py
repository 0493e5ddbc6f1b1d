"""Batched decompression on the GPU by NVIDIA nvCOMP, through its C API (``ctypes``), when the
library is installed (``pip install nvidia-libnvcomp-cu13``, or a system ``libnvcomp.so.6``).

One call decompresses many independent buffers (Parquet pages) that already sit on the device, in
one launch: the codecs ember's own kernels lack (zstd, raw LZ4). Without the library, or on
the CPU backend, ``device_codecs()`` is empty and callers decompress on the host as before.

nvCOMP documents that corrupt input is undefined behaviour: its zstd decoder faults on garbage where
a frame header belongs (measured), so callers check zstd frame headers first
(``io.parquet_pages.zstd_frames_say``). Errors past the header stay on the device: each buffer's
status and decompressed size are checked against the expected size into the caller's ``error`` flag
(no sync here), which the caller checks once.
"""

from __future__ import annotations

import ctypes
import functools
import os
from typing import Any

import numpy as np

# Parquet's codec names -> nvCOMP's function-name infix. LZ4_RAW pages are bare LZ4 blocks, nvCOMP's LZ4
# format. Not here: GZIP (nvCOMP does not check a gzip member's CRC-32, which pyarrow does: a corrupt
# page would read as other values) and Hadoop-framed "LZ4" (the host unwraps it).
_INFIX = {"ZSTD": "Zstd", "LZ4_RAW": "LZ4"}
CORRUPT = 11  # the Parquet kernels' code for corrupt compressed data (``kernels.parquet._WHY``)


class _Options(ctypes.Structure):
    """Every codec's ``nvcompBatched*DecompressOpts_t``: 64 bytes, all zero = the defaults (the
    backend nvCOMP picks; reserved bytes must be zero)."""

    _fields_ = [("raw", ctypes.c_char * 64)]


class _Alignments(ctypes.Structure):
    _fields_ = [("input", ctypes.c_size_t), ("output", ctypes.c_size_t), ("temp", ctypes.c_size_t)]


@functools.cache
def _library() -> Any:
    """The loaded libnvcomp, or None: the wheel's copy first, then the system's."""
    candidates = []
    try:
        import nvidia.libnvcomp as wheel  # the nvidia-libnvcomp-cu13 / -cu12 wheels

        root = os.path.dirname(wheel.__file__)
        candidates += [os.path.join(root, d, "libnvcomp.so.6") for d in ("lib64", "lib")]
    except ImportError:
        pass
    candidates.append("libnvcomp.so.6")
    for path in candidates:
        try:
            return ctypes.CDLL(path, ctypes.RTLD_LOCAL)
        except OSError:
            continue
    return None


def device_codecs() -> frozenset[str]:
    """The Parquet codec names this module decompresses on the current device (empty on the CPU
    backend or without nvCOMP)."""
    from ember.backend.device import current_device

    if current_device() != "gpu" or _library() is None:
        return frozenset()
    return frozenset(_INFIX)


@functools.cache
def _alignments(codec: str) -> tuple[int, int, int]:
    got = _Alignments()
    fn = getattr(_library(), f"nvcompBatched{_INFIX[codec]}DecompressGetRequiredAlignments")
    _check(fn(_Options(), ctypes.byref(got)), "alignments")
    return got.input, got.output, got.temp


def output_alignment(codec: str) -> int:
    """Where each decompressed buffer must start: a multiple of this many bytes."""
    return _alignments(codec)[1]


def _check(status: int, what: str) -> None:
    if status:
        raise RuntimeError(f"nvCOMP {what} failed with status {status}")


def decompress(
    codec: str,
    src: Any,
    src_at: np.ndarray,
    src_size: np.ndarray,
    dst: Any,
    dst_at: np.ndarray,
    dst_size: np.ndarray,
    error: Any,
) -> None:
    """Decompress buffers ``src[src_at[i] : src_at[i] + src_size[i]]`` (device uint8) of ``codec`` into
    ``dst[dst_at[i] : dst_at[i] + dst_size[i]]``, all in one batched launch; the offsets are host int64
    arrays and each ``dst_at`` a multiple of ``output_alignment(codec)``. A buffer that fails, or that
    decompresses to other than ``dst_size[i]`` bytes, sets ``error`` (device int32[1]) to ``CORRUPT``."""
    from ember.backend.device import cupy_module

    cp = cupy_module()
    n = len(src_at)
    if n == 0:
        return
    src_at, src_size, dst_at, dst_size = (
        np.asarray(a, dtype=np.int64) for a in (src_at, src_size, dst_at, dst_size)
    )
    src, src_at = _aligned_inputs(cp, codec, src, src_at, src_size)
    lib, infix = _library(), _INFIX[codec]
    # one host array of the per-buffer arguments, one copy up: pointers in, sizes in, pointers out, sizes out
    table = np.stack([src.data.ptr + src_at, src_size, dst.data.ptr + dst_at, dst_size]).astype(np.uint64)
    on_device = cp.asarray(table)
    actual = cp.empty(n, dtype=np.uint64)
    statuses = cp.empty(n, dtype=np.int32)
    stream = cp.cuda.get_current_stream().ptr
    temp_bytes = ctypes.c_size_t(0)
    max_out, total_out = int(dst_size.max()), int(dst_size.sum())
    get_temp = getattr(lib, f"nvcompBatched{infix}DecompressGetTempSize")
    _check(
        get_temp(
            ctypes.c_size_t(n),
            ctypes.c_size_t(max_out),
            _Options(),
            ctypes.byref(temp_bytes),
            ctypes.c_size_t(total_out),
            ctypes.c_void_p(stream),
        ),
        "temp size",
    )
    temp = cp.empty(max(int(temp_bytes.value), 1), dtype=np.uint8)
    ptr = lambda row: ctypes.c_void_p(on_device[row].data.ptr)  # noqa: E731
    run = getattr(lib, f"nvcompBatched{infix}DecompressAsync")
    status = run(
        ptr(0), ptr(1), ptr(3), ctypes.c_void_p(actual.data.ptr), ctypes.c_size_t(n),
        ctypes.c_void_p(temp.data.ptr), ctypes.c_size_t(temp.size), ptr(2), _Options(),
        ctypes.c_void_p(statuses.data.ptr), ctypes.c_void_p(stream),
    )  # fmt: skip
    _check(status, f"{codec} decompression")
    bad = (statuses != 0) | (actual != on_device[3])
    cp.maximum(error, bad.any().astype(np.int32) * CORRUPT, out=error)


def _aligned_inputs(cp: Any, codec: str, src: Any, src_at: np.ndarray, src_size: np.ndarray) -> tuple:
    """(buffer, start of each input in it): ``src`` itself when every input starts where nvCOMP
    accepts one, else the inputs copied (one gather on the device) to aligned places of a new buffer."""
    align = _alignments(codec)[0]
    if align <= 1 or not ((src.data.ptr + src_at) % align).any():
        return src, src_at
    from ember.backend.kernels.bytes import gather_rows

    # each input a row, each followed by a filler row (bytes from the buffer's start) up to the next
    # multiple of ``align``: the packed rows then start where nvCOMP wants them
    gap = -src_size % align
    starts = np.zeros(2 * len(src_at), dtype=np.int64)
    starts[0::2] = src_at
    lengths = np.stack([src_size, gap], axis=1).ravel()
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    out = gather_rows(src, cp.asarray(starts), cp.asarray(offsets), int(offsets[-1]))
    return out, offsets[0:-1:2]

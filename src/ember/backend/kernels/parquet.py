"""Loader and launcher of the Parquet page kernels in ``parquet.cu``.

The NumPy reference is ``ember.io.parquet_pages.decode_hybrid`` applied page by page (as
``rle_indices`` does on host arrays); the kernel decodes every page at once, one block per page.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ember.backend.arrays import is_device_array

_THREADS = 256


class ParquetPageError(ValueError):
    """A page's RLE / bit-packed data is corrupt (a run past the data, or a bit width above 32)."""


@functools.cache
def _module() -> Any:
    from ember.backend.device import cupy_module

    path = os.path.join(os.path.dirname(__file__), "parquet.cu")
    with open(path, encoding="utf-8") as f:
        return cupy_module().RawModule(code=f.read())


def decode_hybrid(data: bytes, bit_width: int, count: int, pos: int = 0) -> np.ndarray:
    """``count`` values (uint32) of the RLE / bit-packed hybrid encoding starting at ``pos``: runs of one
    repeated value, and groups of 8 values packed ``bit_width`` bits each, least significant first."""
    out = np.zeros(count, dtype=np.uint32)
    if bit_width == 0:
        return out
    width_bytes = (bit_width + 7) // 8
    done, at = 0, pos
    while done < count:
        header, at = _varint(data, at)
        if header >> 1 == 0:
            raise ValueError("an empty run")
        if header & 1:  # bit-packed: (header >> 1) groups of 8 values
            n = (header >> 1) * 8
            nbytes = (header >> 1) * bit_width
            if at + nbytes > len(data):
                raise ValueError("a bit-packed run past the page data")
            raw = np.frombuffer(data, np.uint8, nbytes, at)
            at += nbytes
            bits = np.unpackbits(raw, bitorder="little").reshape(-1, bit_width).astype(np.uint32)
            values = (bits << np.arange(bit_width, dtype=np.uint32)).sum(axis=1, dtype=np.uint32)
            take = min(n, count - done)
            out[done : done + take] = values[:take]
        else:  # a run of one value
            n = header >> 1
            if at + width_bytes > len(data):
                raise ValueError("a run past the page data")
            value = int.from_bytes(data[at : at + width_bytes], "little")
            at += width_bytes
            take = min(n, count - done)
            out[done : done + take] = value
        done += take
    return out


def _varint(data: bytes, at: int) -> tuple[int, int]:
    out, shift = 0, 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("a run header past the page data")
        b = data[at]
        at += 1
        out |= (b & 0x7F) << shift
        if b < 0x80:
            return out, at
        shift += 7


def rle_indices(data: Any, values_at: Any, count: Any, out_start: Any, total: int, dict_size: int) -> Any:
    """int32 dictionary indices of dictionary-encoded pages: page ``p``'s ``count[p]`` values start at
    byte ``values_at[p]`` of ``data`` (its bit-width byte) and go to ``out[out_start[p]:]``. Output
    positions of other pages are left as they are (zero). An index at or past ``dict_size`` is corrupt
    data. Synchronizes once (the error flag)."""
    if not is_device_array(data):
        out = np.zeros(total, dtype=np.int32)
        raw = np.asarray(data, dtype=np.uint8).tobytes()
        for at, n, start in zip(values_at.tolist(), count.tolist(), out_start.tolist()):
            if at >= len(raw) or raw[at] > 32:
                raise ParquetPageError("Parquet page: bit width past the data or above 32")
            try:
                out[start : start + n] = decode_hybrid(raw, raw[at], n, at + 1)
            except (ValueError, IndexError) as exc:
                raise ParquetPageError(f"Parquet page: corrupt RLE / bit-packed data ({exc})") from None
            if n and int(out[start : start + n].max()) >= dict_size:
                raise ParquetPageError("Parquet page: corrupt data (an index past the dictionary)")
        return out
    from ember.backend.device import cupy_module

    cp = cupy_module()
    out = cp.zeros(total, dtype=np.int32)
    error = cp.zeros(1, dtype=np.int32)
    pages = int(values_at.shape[0])
    if pages:
        _module().get_function("ember_parquet_rle_indices")(
            (pages,),
            (_THREADS,),
            (
                cp.ascontiguousarray(data, dtype=np.uint8),
                np.int64(data.shape[0]),
                cp.ascontiguousarray(values_at, dtype=np.int64),
                cp.ascontiguousarray(count, dtype=np.int64),
                cp.ascontiguousarray(out_start, dtype=np.int64),
                np.int64(dict_size),
                out,
                error,
            ),
        )
    code = int(error.get()[0])
    if code:
        why = {1: "a run past the page data", 2: "a bit width above 32", 3: "an index past the dictionary"}
        raise ParquetPageError(f"Parquet page: corrupt RLE / bit-packed data ({why.get(code, code)})")
    return out

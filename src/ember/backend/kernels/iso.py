"""Loader and launcher of the ISO 8601 parsing kernel in ``iso.cu``.

The NumPy reference is ``ember.ops.datetime_parse.parse_iso`` on a host column (a per-row cursor written
as a few hundred vectorized passes over the column); the kernel walks the same cursor with one thread
per row, reading each string once, and gives bit-identical outputs, failed rows included.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ember.backend.device import cupy_module

_THREADS = 256


@functools.cache
def _kernel() -> Any:
    path = os.path.join(os.path.dirname(__file__), "iso.cu")
    with open(path, encoding="utf-8") as f:
        return cupy_module().RawModule(code=f.read(), options=("-std=c++14",)).get_function("ember_parse_iso")


def parse_iso_device(offsets: Any, chars: Any, mask: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
    """(days, nsod, ok, tzoff, has_tz, fcnt) per row of the device string column given by its Arrow
    ``offsets`` and ``chars`` and its validity ``mask`` (None: every row valid); see iso.cu."""
    cp = cupy_module()
    n = max(int(offsets.shape[0]) - 1, 0)
    offsets = cp.ascontiguousarray(offsets, dtype=np.int64)
    chars = cp.ascontiguousarray(chars, dtype=np.uint8)
    days = cp.empty(n, dtype=np.int64)
    nsod = cp.empty(n, dtype=np.int64)
    ok = cp.empty(n, dtype=np.bool_)
    tzoff = cp.empty(n, dtype=np.int64)
    has_tz = cp.empty(n, dtype=np.bool_)
    fcnt = cp.empty(n, dtype=np.int64)
    if n > 0:
        valid = ok if mask is None else cp.ascontiguousarray(mask, dtype=np.bool_)  # not read without a mask
        sms = cp.cuda.Device().attributes["MultiProcessorCount"]
        grid = int(max(1, min(sms * 16, (n + _THREADS - 1) // _THREADS)))
        _kernel()(
            (grid,),
            (_THREADS,),
            (
                chars,
                offsets,
                valid,
                np.int32(mask is not None),
                np.int64(n),
                days,
                nsod,
                ok,
                tzoff,
                has_tz,
                fcnt,
            ),
        )
    return days, nsod, ok, tzoff, has_tz, fcnt

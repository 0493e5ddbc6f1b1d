"""Primitives whose NumPy and CuPy spellings differ; each branches on the array module."""

from __future__ import annotations

from typing import Any

# --- sorting and scatter reductions (used by ops.sort / ops.factorize / ops.groupby) -------------------


def stable_argsort(a: Any) -> Any:
    """Stable ascending argsort as int64 (NumPy needs kind='stable'; CuPy's radix sort is stable)."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(a)
    if a.dtype.kind == "b":
        a = a.view(xp.uint8)
    if is_device_array(a):
        return xp.argsort(a).astype(xp.int64, copy=False)
    return xp.argsort(a, kind="stable").astype(xp.int64, copy=False)


def _scatter_device_view(out: Any, values: Any, op: str) -> tuple[Any, Any, Any]:
    """CuPy's scatter ops take int32/uint32/uint64/float32/float64; int64 goes through uint64 bits
    (addition is the same on the bits; min/max flip the sign bit so unsigned order = signed order)."""
    import numpy as np

    if out.dtype == np.int64:
        sign = np.uint64(1 << 63)
        if op == "add":
            return out.view(np.uint64), values.astype(np.int64, copy=False).view(np.uint64), None
        return (out.view(np.uint64) ^ sign), values.astype(np.int64, copy=False).view(np.uint64) ^ sign, sign
    return out, values.astype(out.dtype, copy=False), None


def scatter_add(out: Any, idx: Any, values: Any) -> None:
    """out[idx] += values with repeated indices accumulated (np.add.at / cupyx.scatter_add), in place."""
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(out)
    if not is_device_array(out):
        xp.add.at(out, idx, values.astype(out.dtype, copy=False))
        return
    import cupyx

    target, vals, _ = _scatter_device_view(out, values, "add")
    cupyx.scatter_add(target, idx, vals)


def _scatter_extreme(out: Any, idx: Any, values: Any, op: str) -> None:
    from ember.backend.arrays import array_module, is_device_array

    xp = array_module(out)
    if not is_device_array(out):
        ufunc = xp.minimum if op == "min" else xp.maximum
        ufunc.at(out, idx, values.astype(out.dtype, copy=False))
        return
    import cupyx

    fn = cupyx.scatter_min if op == "min" else cupyx.scatter_max
    target, vals, sign = _scatter_device_view(out, values, op)
    fn(target, idx, vals)
    if sign is not None:  # target was a flipped copy: write the result back as int64
        out[...] = (target ^ sign).view(out.dtype)


def scatter_min(out: Any, idx: Any, values: Any) -> None:
    """out[idx] = min(out[idx], values) with repeated indices (np.minimum.at / cupyx.scatter_min)."""
    _scatter_extreme(out, idx, values, "min")


def scatter_max(out: Any, idx: Any, values: Any) -> None:
    """out[idx] = max(out[idx], values) with repeated indices (np.maximum.at / cupyx.scatter_max)."""
    _scatter_extreme(out, idx, values, "max")

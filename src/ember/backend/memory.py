"""The device memory pool: CuPy's pool behind an allocator that records the high-water mark and turns
out-of-memory into a MemoryError that says how much was asked and what to do."""

from __future__ import annotations

from typing import Any

from ember.backend import device as _device


class DeviceOutOfMemoryError(MemoryError):
    """The GPU has no room for an allocation, even after the pool released its cached blocks."""


_state: dict[str, Any] = {"pool": None, "peak": 0}


def _allocator(nbytes: int) -> Any:
    cp = _device.cupy_module()
    pool = _state["pool"]
    try:
        ptr = pool.malloc(nbytes)
    except cp.cuda.memory.OutOfMemoryError:
        pool.free_all_blocks()
        try:
            ptr = pool.malloc(nbytes)
        except cp.cuda.memory.OutOfMemoryError:
            free, total = cp.cuda.runtime.memGetInfo()
            raise DeviceOutOfMemoryError(
                f"GPU out of memory: asked for {nbytes / 2**20:.1f} MiB with {free / 2**20:.1f} MiB free "
                f"of {total / 2**30:.1f} GiB. Work on smaller pieces, or scale out with ember.dask "
                "(LocalGPUCluster spills device -> host -> disk)."
            ) from None
    used = pool.used_bytes()
    if used > _state["peak"]:
        _state["peak"] = used
    return ptr


def install_pool(cp: Any) -> None:
    """Route CuPy allocations through ember's pool (idempotent; called when CuPy is first probed)."""
    if _state["pool"] is not None:
        return
    _state["pool"] = cp.get_default_memory_pool()
    cp.cuda.set_allocator(_allocator)


def peak_device_bytes() -> int:
    """The pool's high-water mark of bytes in use since the last reset (0 on the CPU backend)."""
    return int(_state["peak"])


def used_device_bytes() -> int:
    """Bytes of device memory held by live arrays now (0 on the CPU backend)."""
    pool = _state["pool"]
    return int(pool.used_bytes()) if pool is not None else 0


def reset_peak_device_bytes() -> None:
    pool = _state["pool"]
    _state["peak"] = pool.used_bytes() if pool is not None else 0

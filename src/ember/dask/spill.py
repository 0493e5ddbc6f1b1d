"""Device -> host -> disk spilling for Dask workers holding ember partitions.

``DeviceHostDiskBuffer`` is the worker's ``data=`` mapping (what distributed keeps its task results
in). New results land in the device tier. When the device tier holds more than
``device_memory_limit`` bytes, the least recently used ember objects move to the host tier (their
columns copied with ``Column.to(numpy)``); when the host tier exceeds ``memory_limit`` the least
recently used values are written to ``local_directory`` (ember frames as Arrow IPC through
ember.dask.serialize, anything else through distributed's serializers). Reading a spilled key brings
it back to the device tier, so tasks always see device-resident partitions.

On the CPU backend "device" memory is host memory: the tiers still apply (the device tier holds the
NumPy-backed frames), which makes the policy testable without a GPU.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import OrderedDict
from collections.abc import Iterator, MutableMapping
from typing import Any

import numpy as np
from dask.sizeof import sizeof
from distributed.protocol import deserialize_bytes, serialize_bytelist

import ember
from ember.backend import asarray_on
from ember.frame import DataFrame, Index, Series

_EMBER = (DataFrame, Series, Index)


def move_to(obj: Any, xp: Any) -> Any:
    """The same ember object with all its arrays on module ``xp`` (numpy = host)."""
    from ember.dask.serialize import flatten, unflatten

    header, arrays = flatten(obj)
    return unflatten(header, [asarray_on(a, xp) for a in arrays])


def parse_bytes_limit(limit: Any, total: int | None) -> int | None:
    """``"80%"`` / ``0.8`` (fractions of ``total``), ``"4GB"``, bytes, or None/0 for no limit."""
    from dask.utils import parse_bytes

    if limit is None or limit == 0 or limit == "0":
        return None
    if limit == "auto":
        return total
    if isinstance(limit, str) and limit.endswith("%"):
        return int(float(limit[:-1]) / 100 * (total or 0)) or None
    if isinstance(limit, float) and limit <= 1:
        return int(limit * (total or 0)) or None
    return int(parse_bytes(limit)) if isinstance(limit, str) else int(limit)


class DeviceHostDiskBuffer(MutableMapping):
    """Three LRU tiers (device, host, disk) with byte limits; see the module docstring."""

    def __init__(
        self,
        device_memory_limit: int | None = None,
        memory_limit: int | None = None,
        local_directory: str | None = None,
    ) -> None:
        self.device_memory_limit = device_memory_limit
        self.memory_limit = memory_limit
        self._own_dir = local_directory is None
        base = local_directory or tempfile.gettempdir()
        os.makedirs(base, exist_ok=True)
        self.directory = tempfile.mkdtemp(prefix="ember-spill-", dir=base)
        self.device: OrderedDict[Any, Any] = OrderedDict()
        self.host: OrderedDict[Any, Any] = OrderedDict()
        self.disk: dict[Any, str] = {}
        self._weights: dict[Any, int] = {}
        self.device_bytes = 0
        self.host_bytes = 0
        self.spilled_to_host = 0
        self.spilled_to_disk = 0

    # --- MutableMapping ----------------------------------------------------------------------
    def __setitem__(self, key: Any, value: Any) -> None:
        self._discard(key)
        weight = int(sizeof(value))
        self._weights[key] = weight
        if isinstance(value, _EMBER):
            self.device[key] = value
            self.device_bytes += weight
        else:
            self.host[key] = value
            self.host_bytes += weight
        self._enforce()

    def __getitem__(self, key: Any) -> Any:
        if key in self.device:
            self.device.move_to_end(key)
            return self.device[key]
        if key in self.host:
            value = self.host[key]
        elif key in self.disk:
            value = self._read_disk(key)
        else:
            raise KeyError(key)
        if isinstance(value, _EMBER):  # unspill: tasks see device-resident partitions
            value = move_to(value, ember.backend.xp())
        self[key] = value
        return value

    def __delitem__(self, key: Any) -> None:
        if not self._discard(key):
            raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return key in self.device or key in self.host or key in self.disk

    def __iter__(self) -> Iterator:
        yield from list(self.device)
        yield from list(self.host)
        yield from list(self.disk)

    def __len__(self) -> int:
        return len(self.device) + len(self.host) + len(self.disk)

    # --- distributed's memory manager hooks ---------------------------------------------------
    @property
    def fast(self) -> dict:
        """In-memory keys (device and host tiers); distributed checks it before calling evict()."""
        return {**self.host, **self.device}

    def evict(self) -> int:
        """Move one value one tier down (host -> disk first); returns its size, -1 when none."""
        if self.host:
            key = next(iter(self.host))
            self._host_to_disk(key)
            return self._weights[key]
        if self.device:
            key = next(iter(self.device))
            self._device_to_host(key)
            return self._weights[key]
        return -1

    def close(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    # --- tier moves -----------------------------------------------------------------------------
    def _enforce(self) -> None:
        if self.device_memory_limit is not None:
            while self.device_bytes > self.device_memory_limit and len(self.device) > 1:
                self._device_to_host(next(iter(self.device)))
        if self.memory_limit is not None:
            while self.host_bytes > self.memory_limit and self.host:
                self._host_to_disk(next(iter(self.host)))

    def _device_to_host(self, key: Any) -> None:
        value = self.device.pop(key)
        weight = self._weights[key]
        self.device_bytes -= weight
        self.host[key] = move_to(value, np)
        self.host_bytes += weight
        self.spilled_to_host += 1

    def _host_to_disk(self, key: Any) -> None:
        value = self.host.pop(key)
        self.host_bytes -= self._weights[key]
        path = os.path.join(self.directory, f"{len(self.disk)}-{abs(hash(key))}")
        with open(path, "wb") as f:
            for frame in serialize_bytelist(value, on_error="raise"):
                f.write(frame)
        self.disk[key] = path
        self.spilled_to_disk += 1

    def _read_disk(self, key: Any) -> Any:
        path = self.disk.pop(key)
        with open(path, "rb") as f:
            value = deserialize_bytes(f.read())
        os.remove(path)
        return value

    def _discard(self, key: Any) -> bool:
        if key in self.device:
            del self.device[key]
            self.device_bytes -= self._weights.pop(key)
        elif key in self.host:
            del self.host[key]
            self.host_bytes -= self._weights.pop(key)
        elif key in self.disk:
            os.remove(self.disk.pop(key))
            self._weights.pop(key, None)
        else:
            return False
        return True

    def __repr__(self) -> str:
        return (
            f"<DeviceHostDiskBuffer device={len(self.device)} ({self.device_bytes} B) "
            f"host={len(self.host)} ({self.host_bytes} B) disk={len(self.disk)}>"
        )


def device_total_bytes() -> int:
    """Memory of the worker's device: the first visible GPU, or host RAM on the CPU backend."""
    if ember.backend.current_device() == "gpu":
        cp = ember.backend.cupy_module()
        return int(cp.cuda.Device().mem_info[1])
    import psutil

    return int(psutil.virtual_memory().total)


def make_buffer(
    device_memory_limit: Any = "80%", memory_limit: Any = None, local_directory: str | None = None
) -> DeviceHostDiskBuffer:
    """The worker's ``data=`` factory: limits are resolved inside the worker process, where
    CUDA_VISIBLE_DEVICES already names its GPU."""
    import psutil

    device_limit = parse_bytes_limit(device_memory_limit, device_total_bytes())
    host_limit = parse_bytes_limit(memory_limit, int(psutil.virtual_memory().total))
    return DeviceHostDiskBuffer(device_limit, host_limit, local_directory)

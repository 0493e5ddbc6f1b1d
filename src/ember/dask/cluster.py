"""``LocalGPUCluster``: a distributed.LocalCluster with one worker process per visible GPU.

Each worker sees "its" GPU first (CUDA_VISIBLE_DEVICES rotated), holds its results in a
device -> host -> disk spilling buffer (ember.dask.spill), and imports ember's Dask registrations at
start-up (preload ``ember.dask.worker``, which also sets up the device memory pool). Without a GPU the
same script runs on CPU workers, with a warning.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from distributed import LocalCluster

from ember.backend import gpu_available


def visible_gpus() -> list[str]:
    """The GPU ids this process may use (CUDA_VISIBLE_DEVICES, else every device CuPy sees)."""
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is not None:
        return [d.strip() for d in env.split(",") if d.strip()]
    if not gpu_available():
        return []
    from ember.backend import cupy_module

    return [str(i) for i in range(cupy_module().cuda.runtime.getDeviceCount())]


def rotated(devices: list[str], i: int) -> str:
    """CUDA_VISIBLE_DEVICES for worker ``i``: its own GPU first, then the others."""
    k = i % len(devices)
    return ",".join(devices[k:] + devices[:k])


def worker_options(
    device_memory_limit: Any,
    memory_limit: Any,
    local_directory: str | None,
    device: str,
    host_memory_limit: Any = None,
) -> dict:
    """Worker keyword arguments shared by LocalGPUCluster and ``ember worker``."""
    from ember.dask.spill import make_buffer

    return {
        "data": (
            make_buffer,
            {
                "device_memory_limit": device_memory_limit,
                "memory_limit": memory_limit if host_memory_limit is None else host_memory_limit,
                "local_directory": local_directory,
            },
        ),
        "preload": ["ember.dask.worker"],
        "env": {"EMBER_DEVICE": device},
    }


class LocalGPUCluster(LocalCluster):
    """One worker process per GPU on this machine, bound to localhost by default.

    Parameters
    ----------
    n_workers : number of workers (default: one per visible GPU; 1 on a machine without GPU).
    device_memory_limit : device bytes a worker keeps before spilling to host ("80%", "20GB", bytes).
    memory_limit : distributed's per-worker memory limit (None: none), and by default the host bytes
        spilled partitions may take before they go to disk.
    host_memory_limit : host bytes for spilled partitions before they go to disk (default memory_limit).
    local_directory : where spilled partitions and scratch files go.
    threads_per_worker, protocol, dashboard_address, host ... : as distributed.LocalCluster.
        ``protocol="ucx"`` needs distributed-ucxx (``pip install ember[ucx]``).
    processes : True (default): worker processes. False: one worker inside this process, on its
        current device, reached in memory: results come back without serialization or a copy
        (worth it for one GPU and interactive queries: a 1e6-row result crosses TCP in ~0.1 s).
        Its tasks share this process's GIL and device memory.
    """

    def __init__(
        self,
        n_workers: int | None = None,
        *,
        device_memory_limit: Any = "80%",
        memory_limit: Any = None,
        host_memory_limit: Any = None,
        local_directory: str | None = None,
        threads_per_worker: int = 1,
        protocol: str | None = None,
        dashboard_address: str | None = ":0",
        host: str = "127.0.0.1",
        CUDA_VISIBLE_DEVICES: Any = None,
        processes: bool = True,
        **kwargs: Any,
    ) -> None:
        if not processes:
            _check_in_process(n_workers, CUDA_VISIBLE_DEVICES)
        devices = _device_list(CUDA_VISIBLE_DEVICES)
        if devices:
            device = "gpu"
            n_workers = len(devices) if n_workers is None else n_workers
        else:
            warnings.warn(
                "LocalGPUCluster: no GPU visible; starting CPU workers (ember's NumPy backend)",
                RuntimeWarning,
                stacklevel=2,
            )
            device = "cpu"
            n_workers = 1 if n_workers is None else n_workers
        if protocol == "ucx":
            _check_ucx()
        opts = worker_options(device_memory_limit, memory_limit, local_directory, device, host_memory_limit)
        env = {**opts.pop("env"), **kwargs.pop("env", {})}
        if processes:
            opts["env"] = env
        else:
            n_workers, devices = 1, []  # this process's device; no environment to set
            host = None if protocol in (None, "inproc", "inproc://") else host  # in-memory comm
        self._devices = devices
        self._base_env = env
        super().__init__(
            n_workers=0,
            threads_per_worker=threads_per_worker,
            processes=processes,
            memory_limit=memory_limit or 0,
            local_directory=local_directory,
            protocol=protocol,
            dashboard_address=dashboard_address,
            host=host,
            **opts,
            **kwargs,
        )
        self.scale(n_workers)
        self.wait_for_workers(n_workers)

    def new_worker_spec(self) -> dict:
        """The next worker's spec, with CUDA_VISIBLE_DEVICES rotated to its GPU."""
        spec = super().new_worker_spec()
        if not self._devices:
            return spec
        ((name, base),) = spec.items()
        index = int(name) if str(name).isdigit() else self._i
        options = dict(base["options"])
        options["env"] = {**self._base_env, "CUDA_VISIBLE_DEVICES": rotated(self._devices, index)}
        return {name: {**base, "options": options}}


def _device_list(value: Any) -> list[str]:
    if value is None:
        return visible_gpus()
    if isinstance(value, str):
        return [d.strip() for d in value.split(",") if d.strip()]
    return [str(d) for d in value]


def _check_in_process(n_workers: int | None, devices: Any) -> None:
    if n_workers not in (None, 1) or devices is not None:
        raise NotImplementedError(
            "LocalGPUCluster(processes=False) runs one worker in this process, on its current device; "
            "for several workers or chosen GPUs use worker processes (processes=True)"
        )


def _check_ucx() -> None:
    try:
        import distributed_ucxx  # noqa: F401
    except ImportError:
        raise ImportError(
            'LocalGPUCluster(protocol="ucx") needs distributed-ucxx: '
            "pip install distributed-ucxx-cu12 (or ember[ucx])"
        ) from None

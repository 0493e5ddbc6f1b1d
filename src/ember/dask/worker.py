"""Worker start-up: the preload every ember worker runs, and ``ember worker SCHEDULER_ADDRESS``
(also ``dask ember worker``) that starts one worker per local GPU for clusters deployed by any Dask
tool (SSH, Kubernetes, job queues, YARN).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from typing import Any

import click


def dask_setup(worker: Any) -> None:
    """Preload hook (``preload=["ember.dask.worker"]``): register ember's dispatches and
    serializers, and set up the device memory pool on the worker's GPU before the first task."""
    import ember
    import ember.dask  # noqa: F401  (registrations)

    if ember.backend.current_device() == "gpu":
        ember.backend.cupy_module()  # installs ember's pool on the first visible device


async def _run(
    scheduler: str,
    nworkers: int | None,
    nthreads: int,
    device_memory_limit: Any,
    memory_limit: Any,
    local_directory: str | None,
    name: str | None,
    host: str | None,
) -> None:
    from distributed import Nanny

    from ember.dask.cluster import rotated, visible_gpus, worker_options

    devices = visible_gpus()
    device = "gpu" if devices else "cpu"
    n = nworkers or max(len(devices), 1)
    nannies = []
    for i in range(n):
        opts = worker_options(device_memory_limit, memory_limit, local_directory, device)
        env = opts.pop("env")
        if devices:
            env["CUDA_VISIBLE_DEVICES"] = rotated(devices, i)
        nannies.append(
            Nanny(
                scheduler,
                nthreads=nthreads,
                env=env,
                memory_limit=memory_limit or 0,
                local_directory=local_directory,
                host=host,
                name=f"{name or 'ember'}-{i}",
                **opts,
            )
        )
    await asyncio.gather(*nannies)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    finished = asyncio.gather(*(nanny.finished() for nanny in nannies))
    await asyncio.wait([finished, asyncio.ensure_future(stop.wait())], return_when=asyncio.FIRST_COMPLETED)
    await asyncio.gather(*(nanny.close() for nanny in nannies), return_exceptions=True)


def start_workers(
    scheduler: str,
    nworkers: int | None = None,
    nthreads: int = 1,
    device_memory_limit: Any = "80%",
    memory_limit: Any = None,
    local_directory: str | None = None,
    name: str | None = None,
    host: str | None = None,
) -> int:
    """Run one worker per local GPU (or ``nworkers``) until they stop or the process is signalled."""
    asyncio.run(
        _run(scheduler, nworkers, nthreads, device_memory_limit, memory_limit, local_directory, name, host)
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ember worker", description="Start one Dask worker per local GPU, connected to a scheduler."
    )
    p.add_argument("scheduler", metavar="SCHEDULER_ADDRESS", help="e.g. tcp://10.0.0.1:8786")
    p.add_argument("--nworkers", type=int, default=None, help="workers to start (default: one per GPU)")
    p.add_argument("--nthreads", type=int, default=1, help="threads per worker (default 1)")
    p.add_argument("--device-memory-limit", default="80%", help="device bytes before spilling to host")
    p.add_argument("--memory-limit", default=None, help="host bytes before spilling to disk")
    p.add_argument("--local-directory", default=None, help="directory for spilled data")
    p.add_argument("--name", default=None, help="worker name prefix")
    p.add_argument("--host", default=None, help="address the workers listen on")
    return p


def main(argv: list[str] | None = None) -> int:
    """``ember worker ...``"""
    args = build_parser().parse_args(argv)
    return start_workers(
        args.scheduler,
        args.nworkers,
        args.nthreads,
        args.device_memory_limit,
        args.memory_limit,
        args.local_directory,
        args.name,
        args.host,
    )


@click.group(name="ember", help="ember's Dask tools")
def dask_cli() -> None:
    """``dask ember ...`` (registered through the ``dask_cli`` entry point)."""


@dask_cli.command(name="worker", help="Start one worker per local GPU connected to SCHEDULER_ADDRESS.")
@click.argument("scheduler")
@click.option("--nworkers", type=int, default=None)
@click.option("--nthreads", type=int, default=1)
@click.option("--device-memory-limit", default="80%")
@click.option("--memory-limit", default=None)
@click.option("--local-directory", default=None)
@click.option("--name", default=None)
@click.option("--host", default=None)
def _dask_worker(scheduler: str, **kwargs: Any) -> None:
    raise SystemExit(start_workers(scheduler, **kwargs))

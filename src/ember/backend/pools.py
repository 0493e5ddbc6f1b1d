"""Thread pools kept for the life of the process: a pool made per call costs ~1-2 ms of thread starts
(16 threads), a tenth of reading a 1e7-row Parquet file, which Dask does once per partition.

Tasks run on a pool must not wait on other tasks of the same pool (a full pool would then wait on
itself); each reader keeps to its own pool for that reason.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

_POOLS: dict[str, tuple[int, ThreadPoolExecutor]] = {}
_LOCK = threading.Lock()


def shared_pool(name: str, workers: int) -> ThreadPoolExecutor:
    """The process's pool called ``name`` (made on first use with ``workers`` threads; made again in a
    forked child, where the parent's threads do not exist)."""
    with _LOCK:
        pid, pool = _POOLS.get(name, (None, None))
        if pool is None or pid != os.getpid():
            pool = ThreadPoolExecutor(max(workers, 1), thread_name_prefix=f"ember-{name}")
            _POOLS[name] = (os.getpid(), pool)
        return pool

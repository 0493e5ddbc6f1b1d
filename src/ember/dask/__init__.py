"""ember on Dask: the ``ember`` Dask DataFrame backend, ``LocalGPUCluster``, spilling and serializers.

Importing this package registers ember's Dask dispatch functions and serializers (workers import it
through the cluster's preload); ``LocalGPUCluster`` is imported on first use.
"""

from __future__ import annotations

from typing import Any

from ember.dask import backend as _backend  # noqa: F401  (registers the dispatches)
from ember.dask import serialize as _serialize  # noqa: F401  (registers the serializers)
from ember.dask.backend import EmberBackendEntrypoint

__all__ = ["EmberBackendEntrypoint", "LocalGPUCluster"]


def __getattr__(name: str) -> Any:
    if name == "LocalGPUCluster":
        from ember.dask.cluster import LocalGPUCluster

        return LocalGPUCluster
    raise AttributeError(f"module 'ember.dask' has no attribute {name!r}")

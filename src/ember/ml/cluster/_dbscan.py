"""DBSCAN on the device, a drop-in for ``sklearn.cluster.DBSCAN``.

Neighbourhoods are found in tiles of the (n x n) distance matrix (``neighbors._pairwise``): each tile
contributes its weighted neighbour counts (core points) and its core-core edges. Clusters are the
connected components of the core graph, found by min-label propagation with pointer jumping (one host
read per round, O(log diameter) rounds in practice). Labels match scikit-learn's: clusters are numbered
in the order of their lowest-index core point, and a border point joins the earliest-numbered cluster
among its core neighbours, which is the cluster that scikit-learn's in-order expansion reaches first.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
from sklearn import cluster as _sk
from sklearn.base import BaseEstimator, ClusterMixin

from ember import backend
from ember.backend.primitives import scatter_min
from ember.ml._base import check_sample_weight, compute_xp, validate_data
from ember.ml.neighbors._pairwise import Reference, resolve_metric, row_tiles


def _edges(ref: Reference, X: Any, eps: float, w: Any, xp: ModuleType) -> tuple[Any, Any, Any]:
    """(weighted neighbour count per row, edge sources, edge targets) of all pairs within ``eps``."""
    n = X.shape[0]
    weight = xp.zeros(n, dtype=xp.float64)
    src, dst = [], []
    for sl in row_tiles(n, n, xp):
        near = ref.block(X[sl]) <= eps
        weight[sl] = near.astype(xp.float64) @ w
        i, j = xp.nonzero(near)
        src.append(i + sl.start)
        dst.append(j)
    if not src:
        empty = xp.zeros(0, dtype=xp.int64)
        return weight, empty, empty
    return weight, xp.concatenate(src).astype(xp.int64), xp.concatenate(dst).astype(xp.int64)


def connected_min_labels(n: int, src: Any, dst: Any, xp: ModuleType) -> Any:
    """For every vertex, the smallest vertex index of its connected component (edges given both ways)."""
    label = xp.arange(n, dtype=xp.int64)
    while True:
        new = label.copy()
        scatter_min(new, src, label[dst])
        for _ in range(4):  # pointer jumping: labels point at labels with smaller indices
            new = new[new]
        if not bool(backend.to_host((new != label).any())):
            return new
        label = new


class DBSCAN(ClusterMixin, BaseEstimator):
    """Density-based clustering, like ``sklearn.cluster.DBSCAN`` (euclidean, manhattan or cosine;
    ``algorithm`` / ``leaf_size`` are accepted and ignored: neighbourhoods are brute force on the device).

    The core-core edge list is held in memory, so very dense neighbourhoods (large ``eps``) on millions
    of points need proportionally more memory.
    """

    _parameter_constraints = dict(_sk.DBSCAN._parameter_constraints)

    def __init__(
        self,
        eps=0.5,
        *,
        min_samples=5,
        metric="euclidean",
        metric_params=None,
        algorithm="auto",
        leaf_size=30,
        p=None,
        n_jobs=None,
    ):
        self.eps = eps
        self.min_samples = min_samples
        self.metric = metric
        self.metric_params = metric_params
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.n_jobs = n_jobs

    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> DBSCAN:
        """Label every row with its cluster (-1 = noise) and find the core samples."""
        self._validate_params()
        metric = resolve_metric("DBSCAN", self.metric, 2 if self.p is None else self.p)
        if self.metric_params:
            raise NotImplementedError(f"DBSCAN: metric_params is not supported (got {self.metric_params!r})")
        X, _ = validate_data(self, X, dtype=[np.float64, np.float32])
        xp = compute_xp()
        n = X.shape[0]
        w = check_sample_weight(sample_weight, n, xp)
        ref = Reference(X, metric, xp)
        weight, src, dst = _edges(ref, X, self.eps, w, xp)
        core = weight >= self.min_samples
        both = core[src] & core[dst]
        root = connected_min_labels(n, src[both], dst[both], xp)
        roots = xp.unique(root[core])
        cluster = xp.where(core, xp.searchsorted(roots, root), n)
        border = ~core[src] & core[dst]
        best = xp.full(n, n, dtype=xp.int64)
        scatter_min(best, src[border], cluster[dst[border]])
        labels = xp.where(core, cluster, xp.where(best < n, best, -1))
        self.labels_ = backend.to_host(labels).astype(np.int64)
        self.core_sample_indices_ = backend.to_host(xp.flatnonzero(core))
        self.components_ = backend.to_host(X[xp.flatnonzero(core)])
        return self

    def fit_predict(self, X: Any, y: Any = None, sample_weight: Any = None) -> np.ndarray:
        return self.fit(X, sample_weight=sample_weight).labels_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags

"""Tiled pairwise distances on either device: the shared engine of the neighbours and clustering models.

Distance matrices of a million points do not fit in memory, so every consumer walks query rows in tiles
whose (tile x n_train) block stays under a fixed element budget, and reduces each block (top-k, argmin,
radius count) before the next one is computed. Euclidean and cosine blocks are one GEMM each; manhattan
has no GEMM form and is computed as broadcast |q - x| sums over sub-tiles of the training set.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np

from ember import backend
from ember.backend.primitives import argmin_rows, smallest_k

# Elements of one distance block: 2**28 on the device (1 GiB of float32), 2**23 on the host.
_DEVICE_BUDGET = 1 << 28
_HOST_BUDGET = 1 << 23

METRICS = ("euclidean", "sqeuclidean", "cosine", "manhattan")
_ALIASES = {"l2": "euclidean", "cityblock": "manhattan", "l1": "manhattan"}


def resolve_metric(owner: str, metric: Any, p: Any = 2) -> str:
    """The canonical metric name, or NotImplementedError naming what is supported."""
    if metric == "minkowski":
        if p == 2:
            return "euclidean"
        if p == 1:
            return "manhattan"
        raise NotImplementedError(f"{owner}: metric='minkowski' supports p=1 or p=2, got p={p!r}")
    name = _ALIASES.get(metric, metric) if isinstance(metric, str) else metric
    if name not in METRICS:
        raise NotImplementedError(
            f"{owner}: metric={metric!r} is not supported; use one of "
            "'euclidean', 'cosine', 'manhattan' (or 'minkowski' with p=1 or 2)"
        )
    return name


def budget(xp: ModuleType) -> int:
    return _HOST_BUDGET if xp is np else _DEVICE_BUDGET


def row_tiles(n_rows: int, width: int, xp: ModuleType) -> Iterator[slice]:
    """Slices of ``n_rows`` such that (tile rows x ``width``) stays within the block budget."""
    step = max(1, budget(xp) // max(width, 1))
    for start in range(0, n_rows, step):
        yield slice(start, min(n_rows, start + step))


class Reference:
    """A training set prepared once for a metric (row norms, normalised rows) and queried in blocks."""

    def __init__(self, X: Any, metric: str, xp: ModuleType) -> None:
        self.metric = metric
        if metric == "cosine":
            norms = xp.sqrt((X * X).sum(axis=1))
            X = X / xp.where(norms == 0, 1, norms)[:, None]
        self.X = X
        self.sqnorm = (X * X).sum(axis=1) if metric in ("euclidean", "sqeuclidean") else None

    @property
    def xp(self) -> ModuleType:
        """The module of the stored rows (a property, so that fitted estimators pickle)."""
        return backend.array_module(self.X)

    def block(self, Q: Any, squared: bool = False) -> Any:
        """Distances (len(Q), n_train); euclidean stays squared when ``squared`` (cheaper to rank)."""
        xp, X = self.xp, self.X
        if self.metric == "cosine":
            norms = xp.sqrt((Q * Q).sum(axis=1))
            Q = Q / xp.where(norms == 0, 1, norms)[:, None]
            return xp.maximum(1 - Q @ X.T, 0)
        if self.metric == "manhattan":
            return _manhattan(Q, X, xp)
        d = (Q * Q).sum(axis=1)[:, None] - 2 * (Q @ X.T) + self.sqnorm[None, :]
        xp.maximum(d, 0, out=d)
        if self.metric == "sqeuclidean" or squared:
            return d
        return xp.sqrt(d, out=d)

    def _rank_block(self, Q: Any) -> Any:
        """-2 q.x per (query, training row); with |x|^2 added (``smallest_k``'s column bias, as the
        top-k reads it) each query's squared distances less its own |q|^2, so the same order. Scaling
        the small query tile by -2 is exact and spares a pass over the GEMM's output. Only for choosing
        neighbours: ``_refine`` computes the chosen ones' distances exactly."""
        return (Q * Q.dtype.type(-2)) @ self.X.T

    def _refine(self, Q: Any, ind: Any) -> tuple[Any, Any]:
        """Exact squared distances of the k chosen rows (the GEMM expansion loses digits near zero, so a
        duplicate would sit at 1e-9 instead of 0), re-sorted by (distance, index)."""
        xp = self.xp
        diff = Q[:, None, :] - self.X[ind]
        exact = (diff * diff).sum(axis=2)
        order = xp.argsort(ind, axis=1)
        ind = xp.take_along_axis(ind, order, axis=1)
        exact = xp.take_along_axis(exact, order, axis=1)
        order = xp.argsort(exact, axis=1, kind="stable") if xp is np else xp.argsort(exact, axis=1)
        return xp.take_along_axis(exact, order, axis=1), xp.take_along_axis(ind, order, axis=1)

    def finish(self, d: Any) -> Any:
        """Turn values of ``block(..., squared=True)`` into distances."""
        return self.xp.sqrt(d) if self.metric == "euclidean" else d

    def kneighbors(self, Q: Any, k: int) -> tuple[Any, Any]:
        """(distances, indices) of the ``k`` nearest training rows of each query, nearest first."""
        xp = self.xp
        dists, idx = [], []
        for sl in row_tiles(Q.shape[0], self.X.shape[0], xp):
            if self.metric in ("euclidean", "sqeuclidean"):
                _, ind = smallest_k(self._rank_block(Q[sl]), k, col_bias=self.sqnorm)
                vals, ind = self._refine(Q[sl], ind)
            else:
                vals, ind = smallest_k(self.block(Q[sl], squared=True), k)
            dists.append(self.finish(vals))
            idx.append(ind)
        if not dists:
            return xp.zeros((0, k), dtype=self.X.dtype), xp.zeros((0, k), dtype=xp.int64)
        return xp.concatenate(dists), xp.concatenate(idx)


def _manhattan(Q: Any, X: Any, xp: ModuleType) -> Any:
    """Sum of |q - x| over features, in sub-blocks so the (q, x, feature) broadcast fits the budget."""
    out = xp.empty((Q.shape[0], X.shape[0]), dtype=np.result_type(Q.dtype, X.dtype))
    width = max(1, Q.shape[0] * max(X.shape[1], 1))
    for sl in row_tiles(X.shape[0], width, xp):
        out[:, sl] = xp.abs(Q[:, None, :] - X[None, sl, :]).sum(axis=2)
    return out


def nearest_center(
    X: Any, centers: Any, xp: ModuleType, center_sqnorm: Any = None, row_sqnorm: Any = None
) -> tuple[Any, Any]:
    """(index, squared euclidean distance) of the nearest center of each row, in tiles.

    Each tile is ranked by |c|^2 - 2 x.c (the row's own |x|^2 does not move its argmin), with -2 folded
    into the centers (exact: a power of two) and |c|^2 added as the argmin reads the GEMM's output;
    ``row_sqnorm`` (|x|^2 per row) may be passed by callers that reuse it across calls."""
    if center_sqnorm is None:
        center_sqnorm = (centers * centers).sum(axis=1)
    scaled = centers * centers.dtype.type(-2)
    labels = xp.empty(X.shape[0], dtype=xp.int64)
    mind = xp.empty(X.shape[0], dtype=X.dtype)
    for sl in row_tiles(X.shape[0], centers.shape[0], xp):
        Xt = X[sl]
        lab, best = argmin_rows(Xt @ scaled.T, center_sqnorm)
        labels[sl] = lab
        own = (Xt * Xt).sum(axis=1) if row_sqnorm is None else row_sqnorm[sl]
        mind[sl] = xp.maximum(best + own, 0)
    return labels, mind

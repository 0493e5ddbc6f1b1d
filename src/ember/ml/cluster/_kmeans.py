"""KMeans and MiniBatchKMeans on the device, drop-ins for scikit-learn's.

Lloyd iterations are two device passes over the data: a tiled GEMM + argmin that assigns each row to its
nearest center (``neighbors._pairwise.nearest_center``), and a one-hot (n x k) transpose times X that
sums the rows of every cluster (``cluster_sums``), so no scatter atomics contend on k rows. Each iteration reads one
pair of numbers on the host (labels unchanged? center shift) to decide convergence.

Random draws come from the host ``RandomState`` (k-means++ trial values, seeds for device generators), so
a ``random_state`` reproduces the same centers on one backend; the streams differ from scikit-learn's,
so the centers found are of the same quality, not the same numbers.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
from sklearn import cluster as _sk
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, ClusterMixin, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.backend.primitives import block_onehot
from ember.backend.sparse import csr_matrix
from ember.ml._base import check_sample_weight, compute_xp, to_output, validate_data
from ember.ml.neighbors._pairwise import Reference, nearest_center, row_tiles

_FLOATS = [np.float64, np.float32]


# --- building blocks -------------------------------------------------------------------------------------


def cluster_sums(X: Any, labels: Any, weights: Any, k: int, xp: ModuleType) -> tuple[Any, Any]:
    """(weighted row sums per cluster (k, p), weight per cluster (k,)): a one-hot (n x k) transpose times X.

    On the host the one-hot is sparse (n nonzeros). On the device it is dense, written a block of rows at
    a time in (block, k, rows) layout, and multiplied by X as a strided batch of GEMMs whose outputs are
    summed: cuSPARSE's transposed product took 2.6 ms per Lloyd iteration at 1M x 50, k = 100, and one
    GEMM whose reduction spans a million rows leaves most SMs idle. The weights per cluster are the
    one-hot's row sums (a weighted bincount into k bins is 1e7 contended atomics). No scatter atomics
    either way, so the sums are the same from run to run."""
    n = X.shape[0]
    if xp is np:
        indptr = xp.arange(n + 1, dtype=xp.int32)
        onehot = csr_matrix(weights.astype(X.dtype), labels.astype(xp.int32), indptr, (n, k))
        counts = xp.bincount(labels, weights=weights, minlength=k).astype(X.dtype)
        return xp.asarray(onehot.T @ X).astype(X.dtype, copy=False), counts
    sums = xp.zeros((k, X.shape[1]), dtype=X.dtype)
    counts = xp.zeros(k, dtype=X.dtype)
    w = weights.astype(X.dtype, copy=False)
    for sl in row_tiles(n, k, xp):
        tile_sums, tile_counts = onehot_product(labels[sl], w[sl], X[sl], k, xp)
        sums += tile_sums
        counts += tile_counts
    return sums, counts


def onehot_product(
    labels: Any, w: Any, X: Any, k: int, xp: ModuleType, block_rows: int = 16384
) -> tuple[Any, Any]:
    """(onehot(labels, weights w).T @ X (k x p), the one-hot's column sums (k,)): batched GEMMs over
    whole blocks of rows, one product for the rest."""
    m, p = X.shape
    blocks = m // block_rows
    cut = blocks * block_rows
    out = xp.zeros((k, p), dtype=X.dtype)
    counts = xp.zeros(k, dtype=X.dtype)
    if blocks:
        H = block_onehot(labels[:cut], w[:cut], k, block_rows)
        out += xp.matmul(H, X[:cut].reshape(blocks, block_rows, p)).sum(axis=0)
        counts += H.sum(axis=(0, 2))
    if cut < m:
        rest = labels[cut:, None] == xp.arange(k, dtype=labels.dtype)[None, :]
        H = xp.where(rest, w[cut:, None], X.dtype.type(0))
        out += H.T @ X[cut:]
        counts += H.sum(axis=0)
    return out, counts


def relocate_empty(centers: Any, counts: Any, X: Any, mind: Any, xp: ModuleType) -> Any:
    """Move empty clusters to the rows farthest from their centers (scikit-learn's rule), without a sync."""
    k = centers.shape[0]
    empty = counts == 0
    far = xp.argsort(-mind)[: min(k, X.shape[0])]
    rank = xp.clip(xp.cumsum(empty) - 1, 0, far.shape[0] - 1)
    return xp.where(empty[:, None], X[far[rank]], centers)


def kmeans_plusplus(
    X: Any, k: int, w: Any, rs: np.random.RandomState, xp: ModuleType, n_local_trials: int | None = None
) -> tuple[Any, Any]:
    """Greedy k-means++ (scikit-learn's variant): (centers, indices). One device pass per center."""
    if n_local_trials is None:
        n_local_trials = 2 + int(np.log(k))
    sqn = (X * X).sum(axis=1)
    wx = w.astype(X.dtype, copy=False)  # potentials in X's precision: no float64 copy of each block
    first = draw_proportional(w, rs.uniform(size=1), xp)
    ids = xp.empty(k, dtype=xp.int64)
    ids[0] = first[0]
    closest = xp.maximum(sqn - 2 * (X @ X[first[0]]) + sqn[first[0]], 0)
    for c in range(1, k):
        cand = draw_proportional(w * closest, rs.uniform(size=n_local_trials), xp)
        C = X[cand]
        d = (C * C.dtype.type(-2)) @ X.T  # -2 c.x (exact scaling), then |c|^2 + |x|^2 in place
        d += sqn[cand][:, None]
        d += sqn[None, :]
        xp.maximum(d, 0, out=d)
        xp.minimum(closest[None, :], d, out=d)
        pots = d @ wx
        best = xp.argmin(pots)
        closest = d[best]
        ids[c] = cand[best]
    return X[ids], ids


def draw_proportional(weights: Any, uniforms: np.ndarray, xp: ModuleType) -> Any:
    """A row index per uniform draw in [0, 1), chosen with probability proportional to ``weights`` (>= 0).

    The running sum is taken over the weights in fixed point (2**52 units for the total), an exact
    integer cumsum: a float cumsum on the device adds in an order that varies from run to run (CUB's
    scan), and its last bits moved the draws, so one random_state gave different centers."""
    n = weights.shape[0]
    w = weights.astype(xp.float64, copy=False)
    total = w.sum()
    scale = xp.where(total > 0, float(1 << 52) / xp.where(total > 0, total, 1), 0)
    cum = xp.cumsum(xp.floor(w * scale).astype(xp.int64))
    target = xp.floor(xp.asarray(uniforms) * cum[-1]).astype(xp.int64)
    return xp.minimum(xp.searchsorted(cum, target, side="right"), n - 1)


def _weighted_sample(n: int, k: int, w: Any, rs: np.random.RandomState, xp: ModuleType) -> Any:
    """k distinct row indices drawn with probability proportional to ``w`` (exponential race)."""
    u = xp.random.RandomState(rs.randint(np.iinfo(np.int32).max)).random_sample(n)
    keys = -xp.log(xp.maximum(u, 1e-300)) / xp.where(w > 0, w, 1e-300)
    return xp.argsort(keys)[:k]


def lloyd(
    X: Any, centers: Any, w: Any, max_iter: int, tol: float, xp: ModuleType
) -> tuple[Any, Any, float, int]:
    """Lloyd iterations from ``centers``: (labels, centers, inertia, n_iter)."""
    k = centers.shape[0]
    labels_old = None
    strict = False
    n_iter = 0
    row_sqnorm = (X * X).sum(axis=1)  # once: every iteration's distances add it
    for n_iter in range(1, max_iter + 1):  # noqa: B007 (read after the loop)
        labels, mind = nearest_center(X, centers, xp, row_sqnorm=row_sqnorm)
        sums, counts = cluster_sums(X, labels, w, k, xp)
        new = sums / xp.where(counts == 0, 1, counts)[:, None]
        shift = ((new - centers) ** 2).sum()
        same = xp.asarray(False) if labels_old is None else (labels == labels_old).all()
        empty = (counts == 0).any()
        flags = backend.to_host(xp.stack([same.astype(shift.dtype), shift, empty.astype(shift.dtype)]))
        if flags[2]:  # rare: relocating needs the farthest rows (a sort), so only then
            new = relocate_empty(new, counts, X, mind, xp)
            flags[1] = float(backend.to_host(((new - centers) ** 2).sum()))
        if flags[0]:
            strict = True  # labels did not move: the old centers are the fixed point
            break
        centers, labels_old = new, labels
        if flags[1] <= tol:
            break
    if not strict:
        labels, mind = nearest_center(X, centers, xp, row_sqnorm=row_sqnorm)
    inertia = float(mind @ w.astype(mind.dtype))
    return labels, centers, inertia, n_iter


# --- estimators -----------------------------------------------------------------------------------------


class _KMeansBase(ClassNamePrefixFeaturesOutMixin, TransformerMixin, ClusterMixin, BaseEstimator):
    """predict / transform / score shared by KMeans and MiniBatchKMeans (centers live in ``_centers``)."""

    def _check_params_vs_input(self, X: Any, default_n_init: int) -> None:
        if X.shape[0] < self.n_clusters:
            raise ValueError(f"n_samples={X.shape[0]} should be >= n_clusters={self.n_clusters}.")
        self._tol = 0.0 if self.tol == 0 else float(backend.to_host(X.var(axis=0).mean())) * self.tol
        n_init = self.n_init
        if n_init == "auto":
            n_init = 1 if isinstance(self.init, str) and self.init == "k-means++" else default_n_init
            if not isinstance(self.init, str) and not callable(self.init):
                n_init = 1
        if hasattr(self.init, "__array__") and n_init != 1:
            warnings.warn(
                "Explicit initial center position passed: performing only one init in "
                f"{type(self).__name__} instead of n_init={n_init}.",
                RuntimeWarning,
                stacklevel=3,
            )
            n_init = 1
        self._n_init = n_init

    def _init_centers(
        self,
        X: Any,
        w: Any,
        rs: np.random.RandomState,
        xp: ModuleType,
        init_size: int | None = None,
        shift: Any = 0,
    ) -> Any:
        """Initial centers; ``shift`` is subtracted from user-given centers (X was centered by it)."""
        n = X.shape[0]
        if init_size is not None and init_size < n:
            pick = xp.asarray(rs.randint(0, n, init_size))
            X, w = X[pick], w[pick]
        k = self.n_clusters
        init = self.init
        if isinstance(init, str) and init == "k-means++":
            return kmeans_plusplus(X, k, w, rs, xp)[0]
        if isinstance(init, str) and init == "random":
            return X[_weighted_sample(X.shape[0], k, w, rs, xp)]
        if callable(init):
            centers = init(backend.to_host(X), k, random_state=rs)
        else:
            centers = init
        centers = backend.asarray_on(np.asarray(backend.to_host(centers), dtype=X.dtype), xp) - shift
        if centers.shape != (k, X.shape[1]):
            raise ValueError(
                f"The shape of the initial centers {centers.shape} does not match the "
                f"number of clusters {k} and features {X.shape[1]}."
            )
        return centers

    def _fitted_centers(self, centers: Any, mean: Any, xp: ModuleType) -> None:
        self._centers = centers + mean
        self.cluster_centers_ = backend.to_host(self._centers)
        self._n_features_out = self.cluster_centers_.shape[0]

    def _check_test(self, X: Any) -> tuple[Any, str]:
        check_is_fitted(self)
        X, kind = validate_data(self, X, dtype=_FLOATS, reset=False, order="C")
        return X.astype(self._centers.dtype, copy=False), kind

    def predict(self, X: Any) -> Any:
        """Index of the nearest cluster center of each row (int32)."""
        X, kind = self._check_test(X)
        labels, _ = nearest_center(X, self._centers, compute_xp())
        return to_output(labels.astype(np.int32), kind)

    def transform(self, X: Any) -> Any:
        """Euclidean distances of each row to every center (n_samples, n_clusters)."""
        X, kind = self._check_test(X)
        ref = Reference(self._centers, "euclidean", compute_xp())
        return to_output(_blocks(ref, X, compute_xp()), kind)

    def fit_transform(self, X: Any, y: Any = None, sample_weight: Any = None) -> Any:
        return self.fit(X, sample_weight=sample_weight).transform(X)

    def fit_predict(self, X: Any, y: Any = None, sample_weight: Any = None) -> Any:
        return self.fit(X, sample_weight=sample_weight).labels_

    def score(self, X: Any, y: Any = None, sample_weight: Any = None) -> float:
        """Opposite of the (weighted) inertia of ``X`` on the fitted centers."""
        X, _ = self._check_test(X)
        xp = compute_xp()
        w = check_sample_weight(sample_weight, X.shape[0], xp, X.dtype)
        _, mind = nearest_center(X, self._centers, xp)
        return -float(mind @ w)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags


def _blocks(ref: Reference, X: Any, xp: ModuleType) -> Any:
    out = xp.empty((X.shape[0], ref.X.shape[0]), dtype=X.dtype)
    for sl in row_tiles(X.shape[0], ref.X.shape[0], xp):
        out[sl] = ref.block(X[sl])
    return out


class KMeans(_KMeansBase):
    """K-Means clustering (Lloyd) with k-means++ / random / array init, like ``sklearn.cluster.KMeans``.

    ``algorithm`` accepts 'lloyd' and 'elkan' (Elkan's bounds pay off on CPUs; the device runs Lloyd).
    Sparse input is not supported.
    """

    _parameter_constraints = dict(_sk.KMeans._parameter_constraints)

    def __init__(
        self,
        n_clusters=8,
        *,
        init="k-means++",
        n_init="auto",
        max_iter=300,
        tol=1e-4,
        verbose=0,
        random_state=None,
        copy_x=True,
        algorithm="lloyd",
    ):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.random_state = random_state
        self.copy_x = copy_x
        self.algorithm = algorithm

    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> KMeans:
        """Run ``n_init`` initialisations + Lloyd and keep the one of least inertia."""
        self._validate_params()
        X, _ = validate_data(self, X, dtype=_FLOATS, order="C", copy=self.copy_x)
        xp = compute_xp()
        self._check_params_vs_input(X, default_n_init=10)
        w = check_sample_weight(sample_weight, X.shape[0], xp, X.dtype)
        rs = check_random_state(self.random_state)
        mean = X.mean(axis=0)
        Xc = X - mean  # centering keeps the |x|^2 - 2 x.c + |c|^2 expansion accurate
        best = None
        for _ in range(self._n_init):
            centers = self._init_centers(Xc, w, rs, xp, shift=mean)
            labels, centers, inertia, n_iter = lloyd(Xc, centers, w, self.max_iter, self._tol, xp)
            if best is None or inertia < best[2]:
                best = (labels, centers, inertia, n_iter)
        labels, centers, inertia, n_iter = best
        n_distinct = int(xp.unique(labels).shape[0])
        if n_distinct < self.n_clusters:
            warnings.warn(
                f"Number of distinct clusters ({n_distinct}) found smaller than n_clusters "
                f"({self.n_clusters}). Possibly due to duplicate points in X.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self._fitted_centers(centers, mean, xp)
        self._labels = labels.astype(xp.int32)
        self.labels_ = backend.to_host(self._labels)
        self.inertia_ = inertia
        self.n_iter_ = n_iter
        return self


class MiniBatchKMeans(_KMeansBase):
    """Mini-batch K-Means like ``sklearn.cluster.MiniBatchKMeans``: per-center learning rates 1/count.

    Each step assigns one random batch on the device and moves the centers it touched; early stopping
    follows scikit-learn's smoothed batch inertia (``max_no_improvement``) and center shift (``tol``).
    Low-count centers are reassigned to random batch rows every ``10 * batch_size`` samples as in
    scikit-learn (``reassignment_ratio``).
    """

    _parameter_constraints = dict(_sk.MiniBatchKMeans._parameter_constraints)

    def __init__(
        self,
        n_clusters=8,
        *,
        init="k-means++",
        max_iter=100,
        batch_size=1024,
        verbose=0,
        compute_labels=True,
        random_state=None,
        tol=0.0,
        max_no_improvement=10,
        init_size=None,
        n_init="auto",
        reassignment_ratio=0.01,
    ):
        self.n_clusters = n_clusters
        self.init = init
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.verbose = verbose
        self.compute_labels = compute_labels
        self.random_state = random_state
        self.tol = tol
        self.max_no_improvement = max_no_improvement
        self.init_size = init_size
        self.n_init = n_init
        self.reassignment_ratio = reassignment_ratio

    def _start(self, X: Any, w: Any, rs: np.random.RandomState, xp: ModuleType) -> Any:
        """Best of ``n_init`` initialisations, judged by inertia on an ``init_size`` validation sample."""
        n = X.shape[0]
        init_size = self.init_size if self.init_size is not None else 3 * self.batch_size
        init_size = max(min(init_size, n), self.n_clusters)
        valid = xp.asarray(rs.randint(0, n, init_size))
        best, best_inertia = None, np.inf
        for _ in range(self._n_init):
            centers = self._init_centers(X, w, rs, xp, init_size=init_size)
            _, mind = nearest_center(X[valid], centers, xp)
            inertia = float(mind @ w[valid])
            if inertia < best_inertia:
                best, best_inertia = centers, inertia
        return best

    def _step(self, Xb: Any, wb: Any, rs: np.random.RandomState, xp: ModuleType) -> Any:
        """One mini-batch update of ``_centers`` / ``_counts``; returns the batch inertia (device)."""
        k = self.n_clusters
        labels, mind = nearest_center(Xb, self._centers, xp)
        sums, counts = cluster_sums(Xb, labels, wb, k, xp)
        total = self._counts + counts
        moved = counts > 0
        new = (self._centers * self._counts[:, None] + sums) / xp.where(moved, total, 1)[:, None]
        self._centers = xp.where(moved[:, None], new, self._centers)
        self._counts = total
        self._n_since_reassign += Xb.shape[0]
        if self.reassignment_ratio > 0:
            # scikit-learn reassigns every 10 batches, and at once while some center has no weight yet
            periodic = self._n_since_reassign >= 10 * self._batch_size
            low = self._counts < self.reassignment_ratio * self._counts.max()
            low &= periodic | (self._counts == 0).any()
            pick = xp.asarray(rs.randint(0, Xb.shape[0], k))
            self._centers = xp.where(low[:, None], Xb[pick], self._centers)
            floor = xp.where(low, xp.inf, self._counts).min()  # scikit-learn: the least kept count
            self._counts = xp.where(low, floor, self._counts)
            if periodic:
                self._n_since_reassign = 0
        return (mind @ wb) / wb.sum()

    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> MiniBatchKMeans:
        """Initialise, then run mini-batch steps for ``max_iter`` passes over the data (or until stopped)."""
        self._validate_params()
        X, _ = validate_data(self, X, dtype=_FLOATS, order="C")
        xp = compute_xp()
        self._check_params_vs_input(X, default_n_init=3)
        n = X.shape[0]
        w = check_sample_weight(sample_weight, n, xp, X.dtype)
        rs = check_random_state(self.random_state)
        self._random_state = rs
        self._batch_size = min(self.batch_size, n)
        self._centers = self._start(X, w, rs, xp)
        self._counts = xp.zeros(self.n_clusters, dtype=X.dtype)
        self._n_since_reassign = 0
        n_steps = (self.max_iter * n) // self._batch_size
        ewa, best, no_improve = None, np.inf, 0
        step = 0
        for step in range(1, n_steps + 1):  # noqa: B007 (read after the loop)
            batch = xp.asarray(rs.randint(0, n, self._batch_size))
            old = self._centers
            inertia = self._step(X[batch], w[batch], rs, xp)
            shift = ((self._centers - old) ** 2).sum()
            vals = backend.to_host(xp.stack([inertia.astype(xp.float64), shift.astype(xp.float64)]))
            alpha = min(1.0, self._batch_size * 2.0 / (n + 1))
            ewa = vals[0] if ewa is None else ewa * (1 - alpha) + vals[0] * alpha
            if self._tol > 0 and vals[1] <= self._tol:
                break
            if ewa < best:
                best, no_improve = ewa, 0
            else:
                no_improve += 1
            if self.max_no_improvement is not None and no_improve >= self.max_no_improvement:
                break
        self.n_steps_ = step
        self.n_iter_ = int(np.ceil(step * self._batch_size / n))
        self._finish(X, w, xp)
        return self

    def partial_fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> MiniBatchKMeans:
        """One mini-batch step on ``X`` (initialising the centers from it on the first call)."""
        first = not hasattr(self, "_centers")
        if first:
            self._validate_params()
        X, _ = validate_data(self, X, dtype=_FLOATS, order="C", reset=first)
        xp = compute_xp()
        w = check_sample_weight(sample_weight, X.shape[0], xp, X.dtype)
        if first:
            self._check_params_vs_input(X, default_n_init=3)
            self._random_state = check_random_state(self.random_state)
            self._batch_size = X.shape[0]
            self._centers = self._start(X, w, self._random_state, xp)
            self._counts = xp.zeros(self.n_clusters, dtype=X.dtype)
            self._n_since_reassign = 0
            self.n_steps_ = 0
        self._step(X.astype(self._centers.dtype, copy=False), w, self._random_state, xp)
        self.n_steps_ += 1
        self.n_iter_ = self.n_steps_
        self._finish(X, w, xp)
        return self

    def _finish(self, X: Any, w: Any, xp: ModuleType) -> None:
        self.cluster_centers_ = backend.to_host(self._centers)
        self._n_features_out = self.cluster_centers_.shape[0]
        if self.compute_labels:
            labels, mind = nearest_center(X, self._centers, xp)
            self.labels_ = backend.to_host(labels.astype(xp.int32))
            self.inertia_ = float(mind @ w)

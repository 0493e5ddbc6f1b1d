"""Brute-force nearest neighbours on the device: NearestNeighbors, KNeighborsClassifier, KNeighborsRegressor.

Drop-ins for scikit-learn's. Queries run in tiles: one GEMM per tile gives the (tile x n_train) distance
block (euclidean via |q|^2 - 2 q.x + |x|^2, cosine via normalised rows, manhattan via broadcast sums), and
the k smallest of each row are selected on the device before the next tile (``_pairwise``). Trees
(``algorithm='kd_tree'/'ball_tree'``) are accepted for compatibility and answered by the same brute force:
on a GPU brute force is the fast exact method. Ties between equidistant training rows go to the lower
index (scikit-learn's brute force does the same up to floating-point rounding).
"""

from __future__ import annotations

from numbers import Integral
from types import ModuleType
from typing import Any

import numpy as np
from sklearn import neighbors as _sk
from sklearn.base import BaseEstimator, MultiOutputMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.backend.sparse import csr_matrix
from ember.ml._base import DEVICE, HOST, compute_xp, host_y, to_output, unique_inverse, validate_data
from ember.ml._mixins import ClassifierMixin, RegressorMixin
from ember.ml.neighbors._pairwise import Reference, resolve_metric

_FLOATS = [np.float64, np.float32]


class _NeighborsBase(MultiOutputMixin, BaseEstimator):
    """Fitting (storing the prepared training set) and ``kneighbors`` shared by the three estimators."""

    def _fit_X(self, X: Any, y: Any = None) -> tuple[Any, Any]:
        self._validate_params()
        name = type(self).__name__
        self._metric = resolve_metric(name, self.metric, self.p)
        if self.metric_params:
            raise NotImplementedError(f"{name}: metric_params is not supported (got {self.metric_params!r})")
        if y is None and not isinstance(self, NearestNeighbors):
            raise ValueError(f"{name} requires y to be passed, but the target y is None")
        if y is None:
            X, _ = validate_data(self, X, dtype=_FLOATS)
        else:
            X, y, _ = validate_data(self, X, y, dtype=_FLOATS, multi_output=True)
        self._ref = Reference(X, self._metric, compute_xp())
        self.n_samples_fit_ = X.shape[0]
        self.effective_metric_ = self._metric
        self.effective_metric_params_ = {}
        self._fit_method = "brute"
        return X, y

    def _check_k(self, n_neighbors: Any, n_query: int, self_query: bool) -> int:
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if k is None:
            raise ValueError("n_neighbors must be set")
        if not isinstance(k, Integral) or isinstance(k, bool):
            raise TypeError(f"n_neighbors does not take {type(k)} value, enter integer value")
        if k <= 0:
            raise ValueError(f"Expected n_neighbors > 0. Got {k}")
        limit = self.n_samples_fit_
        if k + int(self_query) > limit:
            raise ValueError(
                f"Expected n_neighbors <= n_samples_fit, but n_neighbors = {k + int(self_query)}, "
                f"n_samples_fit = {limit}, n_samples = {n_query}"
            )
        return int(k)

    def _neighbors(self, X: Any, n_neighbors: Any) -> tuple[Any, Any, str]:
        """(distances, indices, output kind) on the compute device; X=None queries the training rows,
        each without itself."""
        check_is_fitted(self, "_ref")
        xp = compute_xp()
        if X is None:
            Q, kind = self._ref_input, HOST if self._fit_kind == HOST else DEVICE
            k = self._check_k(n_neighbors, Q.shape[0], True)
            d, ind = self._ref.kneighbors(Q, k + 1)
            d, ind = _drop_self(d, ind, xp)
        else:
            Q, kind = validate_data(self, X, dtype=_FLOATS, reset=False)
            k = self._check_k(n_neighbors, Q.shape[0], False)
            d, ind = self._ref.kneighbors(Q.astype(self._ref.X.dtype, copy=False), k)
        return d, ind, kind

    def _remember(self, X: Any, raw: Any) -> None:
        from ember.ml._base import input_kind

        self._ref_input = X
        self._fit_kind = input_kind(raw)

    def kneighbors(self, X: Any = None, n_neighbors: int | None = None, return_distance: bool = True) -> Any:
        """Distances and indices of the ``n_neighbors`` nearest training rows of each query row."""
        d, ind, kind = self._neighbors(X, n_neighbors)
        if return_distance:
            return to_output(d, kind), to_output(ind, kind)
        return to_output(ind, kind)

    def kneighbors_graph(
        self, X: Any = None, n_neighbors: int | None = None, mode: str = "connectivity"
    ) -> Any:
        """CSR (n_queries, n_samples_fit) graph of the k nearest neighbours: 1s or distances."""
        if mode not in ("connectivity", "distance"):
            raise ValueError(
                f'Unsupported mode, must be one of "connectivity", or "distance" but got "{mode}" instead'
            )
        d, ind, kind = self._neighbors(X, n_neighbors)
        xp = compute_xp()
        n_q, k = ind.shape
        data = xp.ones(n_q * k, dtype=np.float64) if mode == "connectivity" else d.ravel().astype(np.float64)
        indptr = xp.arange(0, n_q * k + 1, k, dtype=xp.int64)
        graph = csr_matrix(data, ind.ravel(), indptr, (n_q, self.n_samples_fit_))
        return to_output(graph, kind)


def _drop_self(d: Any, ind: Any, xp: ModuleType) -> tuple[Any, Any]:
    """Remove each query's own row from its k+1 neighbours (the last one when duplicates hide it)."""
    n = ind.shape[0]
    keep = ind != xp.arange(n)[:, None]
    no_self = keep.all(axis=1)
    keep[:, -1] = keep[:, -1] & ~no_self
    drop = (~keep).astype(xp.int8)
    order = xp.argsort(drop, axis=1, kind="stable") if xp is np else xp.argsort(drop, axis=1)
    order = order[:, : ind.shape[1] - 1]
    return xp.take_along_axis(d, order, axis=1), xp.take_along_axis(ind, order, axis=1)


def neighbor_weights(d: Any, weights: Any, xp: ModuleType) -> Any:
    """Per-neighbour weights: None for 'uniform'; 1/d for 'distance' (rows with a zero distance weigh
    only their exact matches, as scikit-learn); callables get the distance array."""
    if weights == "uniform" or weights is None:
        return None
    if weights == "distance":
        with np.errstate(divide="ignore"):
            inv = 1.0 / d
        exact = xp.isinf(inv)
        exact_row = exact.any(axis=1)
        return xp.where(exact_row[:, None], exact.astype(inv.dtype), inv)
    return xp.asarray(weights(d))


class NearestNeighbors(_NeighborsBase):
    """Unsupervised k-nearest-neighbour queries, like ``sklearn.neighbors.NearestNeighbors``."""

    _parameter_constraints = dict(_sk.NearestNeighbors._parameter_constraints)

    def __init__(
        self,
        *,
        n_neighbors=5,
        radius=1.0,
        algorithm="auto",
        leaf_size=30,
        metric="minkowski",
        p=2,
        metric_params=None,
        n_jobs=None,
    ):
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def fit(self, X: Any, y: Any = None) -> NearestNeighbors:
        Xv, _ = self._fit_X(X)
        self._remember(Xv, X)
        return self


class KNeighborsClassifier(ClassifierMixin, _NeighborsBase):
    """k-nearest-neighbour vote, like ``sklearn.neighbors.KNeighborsClassifier`` (labels may be any
    hashable type: they are encoded on the host once, and votes are counted on the device)."""

    _parameter_constraints = dict(_sk.KNeighborsClassifier._parameter_constraints)

    def __init__(
        self,
        n_neighbors=5,
        *,
        weights="uniform",
        algorithm="auto",
        leaf_size=30,
        p=2,
        metric="minkowski",
        metric_params=None,
        n_jobs=None,
    ):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def fit(self, X: Any, y: Any) -> KNeighborsClassifier:
        """Store the training rows and encode the labels (per output when y is 2-D)."""
        if y is None:
            raise ValueError("KNeighborsClassifier requires y to be passed, but the target y is None")
        Xv, _ = self._fit_X(X, y if not _is_string_y(y) else np.zeros(len(host_y(y))))
        self._remember(Xv, X)
        yh = host_y(y)
        check_classification_targets(yh)
        self.outputs_2d_ = yh.ndim == 2 and yh.shape[1] > 1
        y2 = yh.reshape(-1, 1) if yh.ndim == 1 or yh.shape[1] == 1 else yh
        if yh.ndim == 2 and yh.shape[1] == 1:
            import warnings

            from sklearn.exceptions import DataConversionWarning

            warnings.warn(
                "A column-vector y was passed when a 1d array was expected. Please change the shape "
                "of y to (n_samples,), for example using ravel().",
                DataConversionWarning,
                stacklevel=2,
            )
        classes, codes = [], []
        for j in range(y2.shape[1]):  # loop over outputs, not rows
            cls, inv = unique_inverse(y2[:, j])
            classes.append(cls)
            codes.append(inv)
        xp = compute_xp()
        self._codes = backend.asarray_on(np.stack(codes, axis=1).astype(np.int64), xp)
        self.classes_ = classes if self.outputs_2d_ else classes[0]
        self._classes = classes
        return self

    def _votes(self, X: Any) -> tuple[list[Any], str]:
        """Per output: (n_queries, n_classes) weighted votes on the device."""
        d, ind, kind = self._neighbors(X, None)
        xp = compute_xp()
        w = neighbor_weights(d, self.weights, xp)
        n_q, k = ind.shape
        out = []
        for j, cls in enumerate(self._classes):
            c = len(cls)
            lab = self._codes[:, j][ind]
            flat = (xp.arange(n_q)[:, None] * c + lab).ravel()
            vw = None if w is None else w.ravel().astype(np.float64)
            out.append(xp.bincount(flat, weights=vw, minlength=n_q * c).reshape(n_q, c).astype(np.float64))
        return out, kind

    def predict(self, X: Any) -> Any:
        """The class with most (weighted) votes; ties go to the smallest label."""
        votes, kind = self._votes(X)
        preds = []
        for v, cls in zip(votes, self._classes, strict=True):
            idx = v.argmax(axis=1)
            if kind == DEVICE and cls.dtype.kind in "biuf":
                preds.append(backend.asarray_on(cls, compute_xp())[idx])
            else:
                preds.append(cls[backend.to_host(idx)])
        xp = backend.array_module(preds[0])
        out = xp.stack(preds, axis=1) if self.outputs_2d_ else preds[0]
        return to_output(out, kind)

    def predict_proba(self, X: Any) -> Any:
        """Vote shares per class (a list per output when y was 2-D)."""
        votes, kind = self._votes(X)
        xp = compute_xp()
        probs = []
        for v in votes:
            total = v.sum(axis=1, keepdims=True)
            probs.append(to_output(v / xp.where(total == 0, 1, total), kind))
        return probs if self.outputs_2d_ else probs[0]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.input_tags.pairwise = False
        return tags


def _is_string_y(y: Any) -> bool:
    yh = host_y(y) if not backend.is_device_array(y) else None
    return yh is not None and yh.dtype.kind in "OUS"


class KNeighborsRegressor(RegressorMixin, _NeighborsBase):
    """Mean of the k nearest targets (1/d weighted for ``weights='distance'``), like scikit-learn's."""

    _parameter_constraints = dict(_sk.KNeighborsRegressor._parameter_constraints)

    def __init__(
        self,
        n_neighbors=5,
        *,
        weights="uniform",
        algorithm="auto",
        leaf_size=30,
        p=2,
        metric="minkowski",
        metric_params=None,
        n_jobs=None,
    ):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def fit(self, X: Any, y: Any) -> KNeighborsRegressor:
        Xv, yv = self._fit_X(X, y)
        self._remember(Xv, X)
        self._y = yv.astype(np.float64, copy=False)
        return self

    def predict(self, X: Any) -> Any:
        """(Weighted) mean of the neighbours' targets."""
        d, ind, kind = self._neighbors(X, None)
        xp = compute_xp()
        w = neighbor_weights(d, self.weights, xp)
        yk = self._y[ind]  # (n_q, k) or (n_q, k, n_outputs)
        if w is None:
            out = yk.mean(axis=1)
        else:
            ww = w if yk.ndim == 2 else w[:, :, None]
            out = (yk * ww).sum(axis=1) / ww.sum(axis=1)
        return to_output(out, kind)

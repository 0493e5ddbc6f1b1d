"""PCA and TruncatedSVD on the device, drop-ins for scikit-learn's.

Solvers follow scikit-learn's: 'covariance_eigh' (one X^T X GEMM and a p x p eigh; the fast path for
tall data, chosen by 'auto' when n_features <= 1000 and n_samples >= 10 n_features), 'full' (thin SVD
of the centered data), 'randomized' (Halko et al. range finder with QR-normalised power iterations) and
'arpack', which here computes the exact thin SVD and keeps the leading components (same subspace, no
ARPACK on the device). Signs follow scikit-learn's ``svd_flip(u_based_decision=False)``: the largest
entry of each component is positive. Randomized results match scikit-learn's up to the random stream.
"""

from __future__ import annotations

from numbers import Real
from types import ModuleType
from typing import Any

import numpy as np
from sklearn import decomposition as _sk
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.backend.sparse import is_sparse
from ember.ml._base import compute_xp, to_output, validate_data

_FLOATS = [np.float64, np.float32]


def flip_signs(Vt: Any, xp: ModuleType, U: Any = None) -> tuple[Any, Any]:
    """Make the largest-magnitude entry of each row of ``Vt`` positive (and flip ``U``'s columns alike)."""
    pos = xp.argmax(xp.abs(Vt), axis=1)
    signs = xp.sign(Vt[xp.arange(Vt.shape[0]), pos])
    signs = xp.where(signs == 0, 1, signs)
    return (None if U is None else U * signs[None, :]), Vt * signs[:, None]


def randomized_svd(
    X: Any, k: int, n_oversamples: int, n_iter: int, rs: np.random.RandomState, xp: ModuleType
) -> tuple[Any, Any, Any]:
    """(U, S, Vt) of rank ``k`` of dense or sparse ``X`` by a randomized range finder."""
    n, p = X.shape
    width = min(k + n_oversamples, n, p)
    dtype = X.dtype
    gen = xp.random.RandomState(rs.randint(np.iinfo(np.int32).max))
    Q = xp.asarray(X @ gen.standard_normal((p, width)).astype(dtype))
    for _ in range(n_iter):
        Q, _ = xp.linalg.qr(Q)
        Z, _ = xp.linalg.qr(xp.asarray(X.T @ Q))
        Q = xp.asarray(X @ Z)
    Q, _ = xp.linalg.qr(Q)
    B = xp.asarray((X.T @ Q).T)
    Uh, S, Vt = xp.linalg.svd(B, full_matrices=False)
    return (Q @ Uh)[:, :k], S[:k], Vt[:k]


class PCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Principal component analysis, like ``sklearn.decomposition.PCA`` (dense input only)."""

    _parameter_constraints = dict(_sk.PCA._parameter_constraints)

    def __init__(
        self,
        n_components=None,
        *,
        copy=True,
        whiten=False,
        svd_solver="auto",
        tol=0.0,
        iterated_power="auto",
        n_oversamples=10,
        power_iteration_normalizer="auto",
        random_state=None,
    ):
        self.n_components = n_components
        self.copy = copy
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.tol = tol
        self.iterated_power = iterated_power
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state

    def _solver(self, n: int, p: int) -> str:
        solver, k = self.svd_solver, self.n_components
        if solver != "auto":
            return solver
        if p <= 1_000 and n >= 10 * p:
            return "covariance_eigh"
        if max(n, p) <= 500 or k == "mle":
            return "full"
        if isinstance(k, Real) and 1 <= k < 0.8 * min(n, p):
            return "randomized"
        return "full"

    def _check_k(self, n: int, p: int, solver: str) -> Any:
        k = self.n_components
        if k is None:
            return min(n, p) - 1 if solver == "arpack" else min(n, p)
        if k == "mle":
            if solver not in ("full", "covariance_eigh"):
                raise ValueError("n_components='mle' is only supported if n_samples >= n_features")
            if n < p:
                raise ValueError("n_components='mle' is only supported if n_samples >= n_features")
            return k
        limit = min(n, p) - (1 if solver == "arpack" else 0)
        if solver in ("full", "covariance_eigh") and not 0 <= k <= min(n, p):
            raise ValueError(
                f"n_components={k!r} must be between 0 and min(n_samples, n_features)="
                f"{min(n, p)} with svd_solver={solver!r}"
            )
        if solver in ("randomized", "arpack") and not (
            isinstance(k, Real) and 1 <= k <= limit and float(k).is_integer()
        ):
            raise ValueError(
                f"n_components={k!r} must be between 1 and min(n_samples, n_features)="
                f"{min(n, p)} with svd_solver={solver!r}"
            )
        return k

    def fit(self, X: Any, y: Any = None) -> PCA:
        """Learn the principal axes of ``X``."""
        self._fit(X)
        return self

    def fit_transform(self, X: Any, y: Any = None) -> Any:
        Xv, kind = self._fit(X)
        return to_output(self._project(Xv), kind)

    def _fit(self, X: Any) -> tuple[Any, str]:
        self._validate_params()
        if is_sparse(X):
            raise TypeError("PCA only supports dense input on ember; use TruncatedSVD for sparse input.")
        X, kind = validate_data(self, X, dtype=_FLOATS, ensure_2d=True, ensure_min_samples=2)
        xp = compute_xp()
        n, p = X.shape
        solver = self._solver(n, p)
        k = self._check_k(n, p, solver)
        self._fit_solver(X, solver, k, xp)
        return X, kind

    def _fit_solver(self, X: Any, solver: str, k: Any, xp: ModuleType) -> None:
        n, p = X.shape
        mean = X.mean(axis=0)
        if solver == "covariance_eigh":
            C = (X.T @ X - n * xp.outer(mean, mean)) / (n - 1)
            evals, evecs = xp.linalg.eigh(C)
            ev = xp.maximum(evals[::-1], 0)
            _, Vt = flip_signs(evecs[:, ::-1].T, xp)
            S = xp.sqrt(ev * (n - 1))
            total = ev.sum()
        elif solver in ("full", "arpack"):
            _, S, Vt = xp.linalg.svd(X - mean, full_matrices=False)
            _, Vt = flip_signs(Vt, xp)
            ev = S**2 / (n - 1)
            total = ev.sum()
        else:
            rs = check_random_state(self.random_state)
            n_iter = self.iterated_power
            if n_iter == "auto":
                n_iter = 7 if k < 0.1 * min(n, p) else 4
            _, S, Vt = randomized_svd(X - mean, int(k), self.n_oversamples, n_iter, rs, xp)
            _, Vt = flip_signs(Vt, xp)
            ev = S**2 / (n - 1)
            total = X.var(axis=0, ddof=1).sum()
        self._finish(mean, Vt, S, ev, total, k, solver, n, p)

    def _finish(
        self, mean: Any, Vt: Any, S: Any, ev: Any, total: Any, k: Any, solver: str, n: int, p: int
    ) -> None:
        """Choose the number of components (int, fraction, 'mle') and set the fitted attributes."""
        ev_h, S_h = backend.to_host(ev), backend.to_host(S)
        total_h = float(backend.to_host(total))
        with np.errstate(invalid="ignore", divide="ignore"):  # no variance at all: NaN, as scikit-learn
            ratio = ev_h / total_h
        if k == "mle":
            from sklearn.decomposition._pca import _infer_dimension

            k = int(_infer_dimension(ev_h, n))
        elif 0 < k < 1.0:
            k = int(np.searchsorted(np.cumsum(ratio, dtype=np.float64), k, side="right") + 1)
            k = min(k, ev_h.shape[0])
        k = int(k)
        if solver == "randomized":
            rest = min(n, p) - k
            noise = (total_h - ev_h.sum()) / rest if rest > 0 else 0.0
        else:
            noise = float(ev_h[k:].mean()) if k < min(n, p) else 0.0
        self._mean, self._components = mean, Vt[:k]
        self._ev = ev[:k]
        self.mean_ = backend.to_host(mean)
        self.components_ = backend.to_host(self._components)
        self.n_components_ = k
        self.n_samples_ = n
        self.explained_variance_ = ev_h[:k]
        self.explained_variance_ratio_ = ratio[:k]
        self.singular_values_ = S_h[:k]
        self.noise_variance_ = noise
        self._n_features_out = k

    def _project(self, X: Any) -> Any:
        xp = compute_xp()
        out = (X - self._mean) @ self._components.T
        if self.whiten:
            scale = xp.sqrt(self._ev)
            out = out / xp.where(scale == 0, 1, scale)
        return out

    def transform(self, X: Any) -> Any:
        """Project ``X`` on the principal axes (scaled to unit variance when ``whiten``)."""
        check_is_fitted(self)
        X, kind = validate_data(self, X, dtype=_FLOATS, reset=False)
        return to_output(self._project(X.astype(self._components.dtype, copy=False)), kind)

    def inverse_transform(self, X: Any) -> Any:
        """Map projected rows back to feature space."""
        check_is_fitted(self)
        xp = compute_xp()
        kind = "device" if backend.is_device_array(X) else "host"
        X = backend.asarray_on(backend.to_host(X) if kind == "host" else X, xp)
        comps = self._components
        if self.whiten:
            comps = xp.sqrt(self._ev)[:, None] * comps
        return to_output(X @ comps + self._mean, kind)

    def get_covariance(self) -> np.ndarray:
        """Data covariance modelled by the components: C^T diag(ev - noise) C + noise I (host)."""
        check_is_fitted(self)
        comps = self.components_
        ev = self.explained_variance_
        if self.whiten:
            comps = comps * np.sqrt(ev[:, None])
        diff = np.maximum(ev - self.noise_variance_, 0.0)
        cov = (comps.T * diff) @ comps
        cov.flat[:: cov.shape[0] + 1] += self.noise_variance_
        return cov

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        tags.input_tags.sparse = False
        return tags


class TruncatedSVD(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Truncated SVD (LSA) of dense or sparse input, like ``sklearn.decomposition.TruncatedSVD``.

    'randomized' runs the range finder with sparse x dense products on the device; 'arpack' computes the
    exact leading singular vectors from the p x p Gram matrix X^T X (one sparse GEMM and an eigh), which
    needs n_features small enough for a dense p x p matrix.
    """

    _parameter_constraints = dict(_sk.TruncatedSVD._parameter_constraints)

    def __init__(
        self,
        n_components=2,
        *,
        algorithm="randomized",
        n_iter=5,
        n_oversamples=10,
        power_iteration_normalizer="auto",
        random_state=None,
        tol=0.0,
    ):
        self.n_components = n_components
        self.algorithm = algorithm
        self.n_iter = n_iter
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state
        self.tol = tol

    def fit(self, X: Any, y: Any = None) -> TruncatedSVD:
        self.fit_transform(X)
        return self

    def fit_transform(self, X: Any, y: Any = None) -> Any:
        """Fit and return U * S (the projection of ``X`` on the components)."""
        self._validate_params()
        X, kind = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=_FLOATS, ensure_min_features=2)
        xp = compute_xp()
        n, p = X.shape
        k = self.n_components
        if self.algorithm == "arpack":
            if k >= p:
                raise ValueError(f"n_components must be < n_features; got {k} >= {p}")
            G = xp.asarray((X.T @ X).todense()) if is_sparse(X) else X.T @ X
            evals, evecs = xp.linalg.eigh(G)
            _, Vt = flip_signs(evecs[:, ::-1][:, :k].T, xp)
            S = xp.sqrt(xp.maximum(evals[::-1][:k], 0))
        else:
            if k > p:
                raise ValueError(f"n_components({k}) must be <= n_features({p}).")
            rs = check_random_state(self.random_state)
            _, S, Vt = randomized_svd(X, k, self.n_oversamples, self.n_iter, rs, xp)
            _, Vt = flip_signs(Vt, xp)
        self._components = Vt
        Xt = xp.asarray(X @ Vt.T)
        exp_var = Xt.var(axis=0)
        if is_sparse(X):
            col_mean = xp.asarray(X.sum(axis=0)).ravel() / n
            col_sq = xp.asarray(X.multiply(X).sum(axis=0)).ravel() / n
            full_var = (col_sq - col_mean**2).sum()
        else:
            full_var = X.var(axis=0).sum()
        self.components_ = backend.to_host(Vt)
        self.explained_variance_ = backend.to_host(exp_var)
        self.explained_variance_ratio_ = self.explained_variance_ / float(backend.to_host(full_var))
        self.singular_values_ = backend.to_host(S)
        self._n_features_out = k
        return to_output(Xt, kind)

    def transform(self, X: Any) -> Any:
        """Project ``X`` (dense or sparse) on the components."""
        check_is_fitted(self)
        X, kind = validate_data(self, X, accept_sparse=["csr", "csc"], reset=False)
        xp = compute_xp()
        return to_output(xp.asarray(X @ self._components.T.astype(X.dtype, copy=False)), kind)

    def inverse_transform(self, X: Any) -> Any:
        check_is_fitted(self)
        xp = compute_xp()
        kind = "device" if backend.is_device_array(X) else "host"
        X = backend.asarray_on(backend.to_host(X) if kind == "host" else X, xp)
        return to_output(X @ self._components, kind)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags

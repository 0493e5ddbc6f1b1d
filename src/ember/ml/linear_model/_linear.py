"""Least squares on the device: LinearRegression and Ridge through the (weighted, centered) Gram matrix.

The n-sized work (centering and ``X.T @ X``, ``X.T @ y``: one GEMM each) runs where X lives; what
remains is a d x d solve. LinearRegression takes the minimum-norm solution through an eigen-
decomposition of the Gram matrix (what ``lstsq`` returns, also for rank-deficient X; directions with
eigenvalue below ``eps * max(n, d) * max eigenvalue`` of the Gram matrix count as null). Squaring the condition number is the price of the GEMM speed:
for ill-conditioned X (condition number near 1e8 and above) results lose digits that lstsq keeps.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, MultiOutputMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.backend.sparse import is_sparse
from ember.ml._base import check_sample_weight, compute_xp, to_output, validate_data


class GramProblem:
    """Centered, weighted normal equations of (X, y): G = Xc' W Xc, q = Xc' W yc, yy = yc' W yc."""

    def __init__(
        self, X: Any, y: Any, sw: Any, fit_intercept: bool, xp: ModuleType, unit: bool = False
    ) -> None:
        self.xp = xp
        Y = y.reshape(y.shape[0], -1).astype(X.dtype, copy=False)
        total = sw.sum()
        if fit_intercept:
            self.x_mean = _weighted_mean(X, sw, total, xp)
            self.y_mean = (sw[:, None] * Y).sum(axis=0) / total
        else:
            self.x_mean = xp.zeros(X.shape[1], dtype=X.dtype)
            self.y_mean = xp.zeros(Y.shape[1], dtype=X.dtype)
        Yc = Y - self.y_mean
        if is_sparse(X):  # centering would densify X: correct the uncentered products instead
            WX = X.multiply(sw[:, None]).tocsr() if not unit else X
            G = (X.T @ WX).toarray() if is_sparse(X.T @ WX) else X.T @ WX
            G = G - total * xp.outer(self.x_mean, self.x_mean)
            q = _dense(WX.T @ Yc)
        else:
            Xc = X - self.x_mean if fit_intercept else X
            WXc = Xc if unit else Xc * sw[:, None]
            G = Xc.T @ WXc
            q = WXc.T @ Yc
        self.G, self.q = G, q
        self.yy = (sw[:, None] * Yc * Yc).sum(axis=0)
        self.n, self.total = X.shape[0], total

    def intercept(self, coef: Any) -> Any:
        """Intercepts of coefficients ``coef`` (n_targets, d)."""
        return self.y_mean - coef @ self.x_mean


def _dense(a: Any) -> Any:
    return a.toarray() if is_sparse(a) else a


def _weighted_mean(X: Any, sw: Any, total: Any, xp: ModuleType) -> Any:
    if is_sparse(X):
        return _dense(X.T @ sw[:, None]).ravel() / total
    return (sw @ X) / total


def _fit_arrays(est: Any, X: Any, y: Any, sample_weight: Any) -> tuple[Any, Any, Any, ModuleType, bool]:
    X, y, _ = validate_data(
        est,
        X,
        y,
        accept_sparse=["csr", "csc", "coo"],
        dtype=[np.float64, np.float32],
        multi_output=True,
        y_numeric=True,
    )
    xp = compute_xp()
    sw = check_sample_weight(sample_weight, X.shape[0], xp, X.dtype)
    return X, y, sw, xp, sample_weight is None


class _LinearPredictor(MultiOutputMixin, RegressorMixin, BaseEstimator):
    """predict / score shared by the least-squares models."""

    def _set_coef(self, coef: Any, problem: GramProblem, y_ndim: int) -> None:
        intercept = problem.intercept(coef) if self.fit_intercept else problem.xp.zeros(coef.shape[0])
        if y_ndim == 1:
            coef, intercept = coef[0], intercept[0]
        self.coef_ = backend.to_host(coef)
        self.intercept_ = (
            backend.to_host(intercept)
            if self.fit_intercept
            else (0.0 if y_ndim == 1 else backend.to_host(intercept))
        )
        if y_ndim == 1 and self.fit_intercept:
            self.intercept_ = float(self.intercept_)

    def predict(self, X: Any) -> Any:
        """X @ coef_.T + intercept_ on the device."""
        check_is_fitted(self)
        X, kind = validate_data(self, X, accept_sparse=["csr", "csc", "coo"], reset=False)
        xp = compute_xp()
        coef = backend.asarray_on(self.coef_, xp, X.dtype)
        out = X @ coef.T + backend.asarray_on(np.asarray(self.intercept_, dtype=X.dtype), xp)
        return to_output(out, kind)

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        from ember.ml.metrics import r2_score

        return r2_score(y, self.predict(X), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class LinearRegression(_LinearPredictor):
    """Ordinary least squares (minimum-norm solution), like sklearn's LinearRegression."""

    def __init__(self, *, fit_intercept=True, copy_X=True, tol=1e-6, n_jobs=None, positive=False):
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.tol = tol
        self.n_jobs = n_jobs
        self.positive = positive

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> LinearRegression:
        if self.positive:
            raise NotImplementedError("LinearRegression(positive=True): ember supports positive=False.")
        X, y, sw, xp, unit = _fit_arrays(self, X, y, sample_weight)
        problem = GramProblem(X, y, sw, self.fit_intercept, xp, unit)
        lam, V = xp.linalg.eigh(problem.G)
        s = xp.sqrt(xp.maximum(lam, 0))
        # eigenvalues of G carry rounding noise of eps * max(lam): the cutoff is relative on them
        keep = lam > np.finfo(X.dtype).eps * max(X.shape) * lam.max()
        inv = xp.where(keep, 1 / xp.where(keep, lam, 1), 0)
        coef = (V @ (inv[:, None] * (V.T @ problem.q))).T
        self.rank_ = int(backend.to_host(keep.sum()))
        self.singular_ = backend.to_host(s[::-1])
        self._set_coef(coef, problem, y.ndim)
        return self


class Ridge(_LinearPredictor):
    """L2-penalized least squares ``||y - Xw||^2 + alpha ||w||^2``, like sklearn's Ridge (Cholesky)."""

    def __init__(
        self,
        alpha=1.0,
        *,
        fit_intercept=True,
        copy_X=True,
        max_iter=None,
        tol=1e-4,
        solver="auto",
        positive=False,
        random_state=None,
    ):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.positive = positive
        self.random_state = random_state

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> Ridge:
        if self.positive or self.solver not in ("auto", "cholesky"):
            raise NotImplementedError(
                f"Ridge(solver={self.solver!r}, positive={self.positive}): ember "
                "supports solver='auto'/'cholesky' with positive=False."
            )
        alpha = np.asarray(self.alpha, dtype=np.float64)
        if (alpha < 0).any():
            raise ValueError(
                f"The 'alpha' parameter of Ridge must be a float in the range [0.0, inf). "
                f"Got {self.alpha!r} instead."
            )
        X, y, sw, xp, unit = _fit_arrays(self, X, y, sample_weight)
        problem = GramProblem(X, y, sw, self.fit_intercept, xp, unit)
        k = problem.q.shape[1]
        if alpha.ndim and alpha.size not in (1, k):
            raise ValueError(
                f"Number of targets and number of penalties do not correspond: {k} != {alpha.size}"
            )
        d = problem.G.shape[0]
        eye = xp.eye(d, dtype=problem.G.dtype)
        if alpha.size == 1:
            coef = xp.linalg.solve(problem.G + float(alpha.ravel()[0]) * eye, problem.q).T
        else:
            coef = xp.stack(
                [
                    xp.linalg.solve(problem.G + float(a) * eye, problem.q[:, j])
                    for j, a in enumerate(alpha.ravel())
                ]
            )
        self._set_coef(coef, problem, y.ndim)
        self.solver_ = "cholesky"
        self.n_iter_ = None  # a direct solve, as scikit-learn's Ridge reports for solver='cholesky'
        return self

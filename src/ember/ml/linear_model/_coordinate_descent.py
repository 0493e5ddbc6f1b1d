"""ElasticNet and Lasso by coordinate descent on the Gram matrix.

scikit-learn's objective: ``1/(2 S) sum_i s_i (y_i - x_i w)^2 + alpha r ||w||_1 + alpha (1 - r)/2 ||w||^2``
(S = sum of sample weights). The n-sized work (centering, ``X.T W X`` and ``X.T W y``) runs on the device
in two GEMMs; the coordinate sweeps then touch only the d x d Gram matrix, which is copied to the host
once (each coordinate update is O(d) and inherently sequential, so a kernel launch per update on the
device would cost more than it computes). Convergence uses scikit-learn's duality-gap test
(gap < tol * ||y_c||^2), evaluated from the Gram quantities.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state

from ember import backend
from ember.ml.linear_model._linear import GramProblem, _fit_arrays, _LinearPredictor


def _gap(
    G: np.ndarray,
    q: np.ndarray,
    yy: float,
    w: np.ndarray,
    H: np.ndarray,
    l1: float,
    l2: float,
    positive: bool,
) -> float:
    """Duality gap of the unnormalized problem 0.5||r||^2 + l1|w|_1 + l2/2 |w|^2 (sklearn's formula)."""
    XtA = q - H - l2 * w
    if not XtA.size:
        dual_norm = 0.0
    else:
        dual_norm = XtA.max() if positive else np.abs(XtA).max()
    R_norm2 = yy - 2 * w @ q + w @ H
    Ry = yy - w @ q
    if dual_norm > l1:
        const = l1 / dual_norm
        gap = 0.5 * (R_norm2 + R_norm2 * const**2)
    else:
        const = 1.0
        gap = R_norm2
    return float(gap + l1 * np.abs(w).sum() - const * Ry + 0.5 * l2 * (1 + const**2) * (w @ w))


def enet_gram_cd(
    G: np.ndarray,
    q: np.ndarray,
    yy: float,
    w: np.ndarray,
    l1: float,
    l2: float,
    *,
    max_iter: int,
    tol: float,
    positive: bool,
    rng: Any,
) -> tuple[np.ndarray, float, int]:
    """Cyclic (or random) coordinate descent; returns (w, dual gap, sweeps)."""
    d = G.shape[0]
    H = G @ w
    diag = np.diag(G).copy()
    d_w_tol, tol = tol, tol * yy
    gap = tol + 1.0
    for it in range(max_iter):
        w_max = d_w_max = 0.0
        coords = range(d) if rng is None else rng.randint(0, d, size=d)
        for j in coords:  # sequential by nature: each update sees the previous ones
            if diag[j] == 0.0:
                continue
            old = w[j]
            tmp = q[j] - H[j] + diag[j] * old
            if positive and tmp < 0:
                new = 0.0
            else:
                new = np.sign(tmp) * max(abs(tmp) - l1, 0.0) / (diag[j] + l2)
            if new != old:
                H += G[:, j] * (new - old)
                w[j] = new
            d_w_max = max(d_w_max, abs(new - old))
            w_max = max(w_max, abs(new))
        if w_max == 0.0 or d_w_max / w_max < d_w_tol or it == max_iter - 1:
            gap = _gap(G, q, yy, w, H, l1, l2, positive)
            if gap <= tol:
                return w, gap, it + 1
    return w, gap, max_iter


class ElasticNet(_LinearPredictor):
    """Linear regression with combined L1 and L2 priors, like sklearn's ElasticNet."""

    def __init__(
        self,
        alpha=1.0,
        *,
        l1_ratio=0.5,
        fit_intercept=True,
        precompute=False,
        max_iter=1000,
        copy_X=True,
        tol=1e-4,
        warm_start=False,
        positive=False,
        random_state=None,
        selection="cyclic",
    ):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.precompute = precompute
        self.max_iter = max_iter
        self.copy_X = copy_X
        self.tol = tol
        self.warm_start = warm_start
        self.positive = positive
        self.random_state = random_state
        self.selection = selection

    def _check(self) -> None:
        if self.selection not in ("cyclic", "random"):
            raise ValueError(
                f"The 'selection' parameter of {type(self).__name__} must be a str among "
                f"{{'cyclic', 'random'}}. Got {self.selection!r} instead."
            )
        if not (isinstance(self.alpha, (int, float, np.number)) and self.alpha >= 0):
            raise ValueError(
                f"The 'alpha' parameter of {type(self).__name__} must be a float in the range "
                f"[0.0, inf). Got {self.alpha!r} instead."
            )
        if not 0 <= self._ratio() <= 1:
            raise ValueError(
                f"The 'l1_ratio' parameter of {type(self).__name__} must be a float in the "
                f"range [0.0, 1.0]. Got {self.l1_ratio!r} instead."
            )

    def _ratio(self) -> float:
        return self.l1_ratio

    def fit(self, X: Any, y: Any, sample_weight: Any = None, check_input: bool = True) -> ElasticNet:
        """Fit by coordinate descent (Gram on the device, sweeps on the host d x d matrix)."""
        self._check()
        X, y, sw, xp, unit = _fit_arrays(self, X, y, sample_weight)
        problem = GramProblem(X, y, sw, self.fit_intercept, xp, unit)
        G = backend.to_host(problem.G).astype(np.float64)
        Q = backend.to_host(problem.q).astype(np.float64)
        YY = backend.to_host(problem.yy).astype(np.float64)
        S = float(backend.to_host(problem.total))
        l1, l2 = self.alpha * self._ratio() * S, self.alpha * (1 - self._ratio()) * S
        rng = check_random_state(self.random_state) if self.selection == "random" else None
        k = Q.shape[1]
        coef = np.zeros((k, G.shape[0]))
        if self.warm_start and hasattr(self, "coef_"):
            coef[:] = np.asarray(self.coef_).reshape(k, -1)
        gaps, iters = np.zeros(k), []
        for t in range(k):  # targets are independent problems
            coef[t], gaps[t], it = enet_gram_cd(
                G,
                Q[:, t],
                float(YY[t]),
                coef[t],
                l1,
                l2,
                max_iter=self.max_iter,
                tol=self.tol,
                positive=self.positive,
                rng=rng,
            )
            iters.append(it)
            if gaps[t] > self.tol * YY[t] and it >= self.max_iter:
                warnings.warn(
                    "Objective did not converge. You might want to increase the number of "
                    f"iterations. Duality gap: {gaps[t]:.3e}, tolerance: {self.tol * YY[t]:.3e}",
                    ConvergenceWarning,
                    stacklevel=2,
                )
        self._set_coef(backend.asarray_on(coef.astype(problem.G.dtype), xp), problem, y.ndim)
        self.dual_gap_ = gaps[0] / S if k == 1 else gaps / S
        self.n_iter_ = iters[0] if k == 1 else iters
        return self

    @property
    def sparse_coef_(self) -> Any:
        import scipy.sparse as sp

        return sp.csr_matrix(np.atleast_2d(self.coef_))


class Lasso(ElasticNet):
    """Linear regression with an L1 prior (ElasticNet with l1_ratio=1), like sklearn's Lasso."""

    def __init__(
        self,
        alpha=1.0,
        *,
        fit_intercept=True,
        precompute=False,
        copy_X=True,
        max_iter=1000,
        tol=1e-4,
        warm_start=False,
        positive=False,
        random_state=None,
        selection="cyclic",
    ):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.precompute = precompute
        self.copy_X = copy_X
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.positive = positive
        self.random_state = random_state
        self.selection = selection

    def _ratio(self) -> float:
        return 1.0

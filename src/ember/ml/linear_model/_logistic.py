"""LogisticRegression on the device: binary (sigmoid) and multinomial (softmax), penalties l2 / l1 /
elasticnet / none, class and sample weights, dense or sparse X.

The objective is scikit-learn's, scaled the way its lbfgs path scales it (same minimizer):
``sum_i s_i loss_i / S + (1 - r) / (2 C S) ||W||^2 + r / (C S) ||W||_1`` with S = sum of the (class-
weighted) sample weights and r the l1 ratio. Smooth problems use L-BFGS (``_optim.lbfgs``); problems
with an l1 part use FISTA, accepted under scikit-learn's solver name ``"saga"`` (same objective, a
different first-order method). X is moved to the device once; each iteration costs two products with
X and one small host read.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.backend.sparse import is_device_sparse, is_sparse
from ember.ml._base import (
    check_sample_weight,
    compute_xp,
    decode_labels,
    encode_labels,
    to_output,
    validate_data,
)
from ember.ml.linear_model._optim import fista, lbfgs


def _matmul(X: Any, W: Any) -> Any:
    return X @ W


def _rmatmul(X: Any, R: Any) -> Any:
    """X.T @ R for dense or sparse X (sparse gives a dense result)."""
    out = X.T @ R
    return out.toarray() if is_sparse(out) else out


class _Loss:
    """Penalized logistic loss and gradient over packed parameters (K, d + fit_intercept)."""

    def __init__(
        self, X: Any, y: Any, sw: Any, n_classes: int, fit_intercept: bool, l2: float, xp: ModuleType
    ) -> None:
        self.X, self.sw, self.xp = X, sw / sw.sum(), xp
        self.K = 1 if n_classes == 2 else n_classes
        self.d = X.shape[1]
        self.fit_intercept, self.l2 = fit_intercept, l2
        # cuSPARSE multiplies by a transposed CSR slowly (or converts it per call): the gradient's X.T @ R
        # gets an explicit CSR copy of X.T, made once per fit
        self.XT = X.T.tocsr() if is_device_sparse(X) else None
        if self.K == 1:
            self.Y = y.astype(X.dtype)
        else:
            self.Y = xp.zeros((X.shape[0], self.K), dtype=X.dtype)
            self.Y[xp.arange(X.shape[0]), y] = 1

    def split(self, p: Any) -> tuple[Any, Any]:
        P = p.reshape(self.K, -1)
        return P[:, : self.d], (P[:, self.d] if self.fit_intercept else None)

    def __call__(self, p: Any) -> tuple[Any, Any]:
        xp = self.xp
        W, b = self.split(p)
        Z = _matmul(self.X, W.T)
        if b is not None:
            Z = Z + b
        if self.K == 1:
            z = Z[:, 0]
            lse = xp.logaddexp(0, z)
            f = (self.sw * (lse - self.Y * z)).sum()
            R = (self.sw * (xp.exp(z - lse) - self.Y))[:, None]
        else:
            m = Z.max(axis=1, keepdims=True)
            lse = m + xp.log(xp.exp(Z - m).sum(axis=1, keepdims=True))
            f = (self.sw * (lse[:, 0] - (Z * self.Y).sum(axis=1))).sum()
            R = self.sw[:, None] * (xp.exp(Z - lse) - self.Y)
        XtR = _rmatmul(self.X, R) if self.XT is None else self.XT @ R
        gW = XtR.T + self.l2 * W
        f = f + 0.5 * self.l2 * (W * W).sum()
        g = xp.concatenate([gW, R.sum(axis=0)[:, None]], axis=1) if b is not None else gW
        return f, g.ravel()


_PENALTIES = ("l2", "l1", "elasticnet", None)


class LogisticRegression(ClassifierMixin, BaseEstimator):
    """Logistic regression (scikit-learn's API and objective) fitted on the active device.

    Parameters follow scikit-learn: ``penalty`` in {'l2', 'l1', 'elasticnet', None}; ``solver``
    'lbfgs' (l2 / None) or 'saga' (any penalty; solved with FISTA here); ``C``, ``l1_ratio``, ``tol``,
    ``max_iter``, ``fit_intercept``, ``class_weight``, ``warm_start``. Binary problems fit one sigmoid
    model; three or more classes fit the multinomial (softmax) model, as scikit-learn does.
    """

    def __init__(
        self,
        penalty="l2",
        *,
        C=1.0,
        l1_ratio=None,
        tol=1e-4,
        fit_intercept=True,
        class_weight=None,
        random_state=None,
        solver="lbfgs",
        max_iter=100,
        verbose=0,
        warm_start=False,
        n_jobs=None,
    ):
        self.penalty = penalty
        self.C = C
        self.l1_ratio = l1_ratio
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.class_weight = class_weight
        self.random_state = random_state
        self.solver = solver
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    def _check_params(self) -> float:
        """The l1 ratio of the penalty; raises like scikit-learn on inconsistent parameters."""
        if self.penalty not in _PENALTIES:
            raise ValueError(
                f"The 'penalty' parameter of LogisticRegression must be a str among "
                f"{{'l1', 'l2', 'elasticnet'}} or None. Got {self.penalty!r} instead."
            )
        if self.solver not in ("lbfgs", "saga"):
            raise NotImplementedError(
                f"LogisticRegression(solver={self.solver!r}): ember supports "
                "solver='lbfgs' (l2 / None penalty) and 'saga' (any penalty)."
            )
        if not isinstance(self.C, (int, float, np.number)) or isinstance(self.C, bool) or not self.C > 0:
            raise ValueError(
                f"The 'C' parameter of LogisticRegression must be a float in the range "
                f"(0.0, inf]. Got {self.C!r} instead."
            )
        if not isinstance(self.max_iter, (int, np.integer)) or self.max_iter < 0:
            raise ValueError(
                f"The 'max_iter' parameter of LogisticRegression must be an int in the range "
                f"[0, inf). Got {self.max_iter!r} instead."
            )
        if not isinstance(self.tol, (int, float, np.number)) or self.tol < 0:
            raise ValueError(
                f"The 'tol' parameter of LogisticRegression must be a float in the range "
                f"[0.0, inf). Got {self.tol!r} instead."
            )
        ratio = {"l2": 0.0, "l1": 1.0, None: 0.0}.get(self.penalty)
        if self.penalty == "elasticnet":
            if self.l1_ratio is None or not 0 <= self.l1_ratio <= 1:
                raise ValueError(f"l1_ratio must be between 0 and 1; got (l1_ratio={self.l1_ratio!r})")
            ratio = float(self.l1_ratio)
        if ratio > 0 and self.solver == "lbfgs":
            raise ValueError(
                f"Solver lbfgs supports only 'l2' or None penalties, got {self.penalty} penalty."
            )
        return ratio

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> LogisticRegression:
        """Fit the model on the active device (X is copied there once when it lives on the host)."""
        ratio = self._check_params()
        X, y, _ = validate_data(
            self, X, y, accept_sparse="csr", dtype=[np.float64, np.float32], y_to_device=False
        )
        xp = compute_xp()
        if not backend.is_device_array(y):
            check_classification_targets(y)
        self.classes_, y_enc = encode_labels(y, xp)
        n_classes = len(self.classes_)
        if n_classes < 2:
            raise ValueError(
                "This solver needs samples of at least 2 classes in the data, but the data "
                f"contains only one class: {self.classes_[0]!r}"
            )
        sw = check_sample_weight(sample_weight, X.shape[0], xp, X.dtype)
        if self.class_weight is not None:
            y_host = backend.to_host(y_enc)
            cw = compute_class_weight(self.class_weight, classes=np.arange(n_classes), y=y_host)
            sw = sw * backend.asarray_on(cw.astype(X.dtype), xp)[y_enc]
        total = float(backend.to_host(sw.sum()))
        inv_c = 0.0 if self.penalty is None else 1.0 / (self.C * total)
        loss = _Loss(X, y_enc, sw, n_classes, self.fit_intercept, (1 - ratio) * inv_c, xp)
        p0 = self._start(loss, X.dtype, xp)
        if ratio > 0:
            l1 = ratio * inv_c
            p, n_iter, ok = fista(
                loss,
                lambda v, t: _soft_threshold(v, t * l1, loss, xp),
                None,
                p0,
                tol=self.tol,
                max_iter=self.max_iter,
            )
        else:
            p, n_iter, ok = lbfgs(loss, p0, tol=self.tol, max_iter=self.max_iter)
        if not ok:
            warnings.warn(
                f"{self.solver} failed to converge after {n_iter} iteration(s) (status=1): "
                "Increase the number of iterations (max_iter) or scale the data.",
                ConvergenceWarning,
                stacklevel=2,
            )
        W, b = loss.split(p)
        self._coef, self._intercept = W, (b if b is not None else xp.zeros(loss.K, dtype=X.dtype))
        self.coef_ = backend.to_host(W)
        self.intercept_ = backend.to_host(self._intercept)
        self.n_iter_ = np.array([n_iter], dtype=np.int32)
        return self

    def _start(self, loss: _Loss, dtype: Any, xp: ModuleType) -> Any:
        shape = (loss.K, loss.d + int(self.fit_intercept))
        if self.warm_start and hasattr(self, "coef_") and self.coef_.shape == (loss.K, loss.d):
            p = np.zeros(shape, dtype=dtype)
            p[:, : loss.d] = self.coef_
            if self.fit_intercept:
                p[:, loss.d] = self.intercept_
            return backend.asarray_on(p.ravel(), xp)
        return xp.zeros(shape[0] * shape[1], dtype=dtype)

    def _scores(self, X: Any) -> tuple[Any, str]:
        check_is_fitted(self)
        X, kind = validate_data(self, X, accept_sparse="csr", dtype=[np.float64, np.float32], reset=False)
        xp = compute_xp()
        W = backend.asarray_on(self.coef_, xp, X.dtype)
        b = backend.asarray_on(self.intercept_, xp, X.dtype)
        return _matmul(X, W.T) + b, kind

    def decision_function(self, X: Any) -> Any:
        """Confidence scores: shape (n,) for two classes, (n, n_classes) otherwise."""
        Z, kind = self._scores(X)
        return to_output(Z[:, 0] if Z.shape[1] == 1 else Z, kind)

    def predict_proba(self, X: Any) -> Any:
        """Class probabilities (sigmoid for two classes, softmax otherwise), columns in classes_ order."""
        Z, kind = self._scores(X)
        xp = backend.array_module(Z)
        if Z.shape[1] == 1:
            p1 = 1 / (1 + xp.exp(-Z[:, 0]))
            return to_output(xp.stack([1 - p1, p1], axis=1), kind)
        Z = Z - Z.max(axis=1, keepdims=True)
        E = xp.exp(Z)
        return to_output(E / E.sum(axis=1, keepdims=True), kind)

    def predict_log_proba(self, X: Any) -> Any:
        P = self.predict_proba(X)
        return backend.array_module(P).log(P)

    def predict(self, X: Any) -> Any:
        """The most probable class of each sample."""
        Z, kind = self._scores(X)
        xp = backend.array_module(Z)
        idx = (Z[:, 0] > 0).astype(xp.int64) if Z.shape[1] == 1 else Z.argmax(axis=1)
        return decode_labels(self.classes_, idx, kind)

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        from ember.ml.metrics import accuracy_score

        return accuracy_score(y, self.predict(X), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def _soft_threshold(v: Any, t: float, loss: _Loss, xp: ModuleType) -> Any:
    """Proximal map of t * ||W||_1 on the coefficients (the intercepts are not penalized)."""
    P = v.reshape(loss.K, -1).copy()
    W = P[:, : loss.d]
    P[:, : loss.d] = xp.sign(W) * xp.maximum(xp.abs(W) - t, 0)
    return P.ravel()

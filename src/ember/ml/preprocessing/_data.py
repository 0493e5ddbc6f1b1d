"""Scalers and Normalizer on the device: StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler,
Normalizer. NaNs are ignored when fitting and kept when transforming, as scikit-learn does.

Sparse X is accepted where scikit-learn accepts it without centering: StandardScaler(with_mean=False),
MaxAbsScaler and Normalizer. RobustScaler takes dense X only (a documented deviation).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.backend.sparse import csr_matrix, is_sparse
from ember.ml._base import check_sample_weight, compute_xp, to_output, validate_data

FLOAT_DTYPES = (np.float64, np.float32, np.float16)


def _handle_zeros(scale: Any, xp: ModuleType, constant: Any = None) -> Any:
    """Scale 1 where a feature is (numerically) constant, so that it maps to 0 instead of NaN/inf."""
    bad = scale < 10 * np.finfo(scale.dtype).eps
    if constant is not None:
        bad = bad | constant
    return xp.where(bad, xp.ones_like(scale), scale)


def nanquantile_columns(X: Any, qs: list[float], xp: ModuleType) -> Any:
    """Per-column quantiles ignoring NaN, NumPy's 'linear' method: (len(qs), d)."""
    S = xp.sort(X, axis=0)  # NaN sorts last on both NumPy and CuPy
    k = (~xp.isnan(X)).sum(axis=0)
    out = []
    for q in qs:  # a handful of quantiles, not rows
        pos = q / 100.0 * xp.maximum(k - 1, 0)
        lo = xp.floor(pos).astype(xp.int64)
        hi = xp.minimum(lo + 1, xp.maximum(k - 1, 0))
        frac = pos - lo
        cols = xp.arange(X.shape[1])
        a, b = S[lo, cols], S[hi, cols]
        val = a + (b - a) * frac
        out.append(xp.where(k > 0, val, xp.nan))
    return xp.stack(out)


def _col_scale_sparse(X: Any, factor: Any) -> Any:
    X = X.tocsr()
    return csr_matrix(X.data * factor[X.indices], X.indices, X.indptr, X.shape)


def _sparse_nan_stats(X: Any, xp: ModuleType) -> tuple[Any, Any, Any]:
    """(mean, var, count) per column of a sparse matrix, NaNs ignored (implicit zeros count)."""
    X = X.tocsr()
    idx = X.indices.astype(xp.int64)
    nan = xp.isnan(X.data)
    d = X.shape[1]
    data = xp.where(nan, 0, X.data).astype(xp.float64)
    nnan = xp.bincount(idx, weights=nan.astype(xp.float64), minlength=d)
    count = X.shape[0] - nnan
    mean = xp.bincount(idx, weights=data, minlength=d) / count
    dev = xp.where(nan, 0, (data - mean[idx]) ** 2)
    nz = xp.bincount(idx, weights=(~nan).astype(xp.float64), minlength=d)
    var = (xp.bincount(idx, weights=dev, minlength=d) + (count - nz) * mean**2) / count
    return mean, var, count


class StandardScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """(x - mean) / std per feature, like sklearn's StandardScaler (sample_weight supported)."""

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> StandardScaler:
        X, _ = validate_data(
            self, X, accept_sparse=("csr", "csc"), dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan"
        )
        xp = compute_xp()
        if is_sparse(X):
            if self.with_mean:
                raise ValueError(
                    "Cannot center sparse matrices: pass `with_mean=False` instead. See "
                    "docstring for motivation and alternatives."
                )
            if sample_weight is not None:
                raise NotImplementedError(
                    "StandardScaler.fit(sample_weight=...) with sparse X: ember "
                    "supports sample weights for dense X."
                )
            mean, var, count = _sparse_nan_stats(X, xp)
        else:
            valid = ~xp.isnan(X)
            w = check_sample_weight(sample_weight, X.shape[0], xp, np.float64)[:, None] * valid
            count = w.sum(axis=0)
            Xz = xp.where(valid, X, 0).astype(xp.float64)
            mean = (w * Xz).sum(axis=0) / count
            var = (w * (Xz - mean) ** 2).sum(axis=0) / count
        counts = backend.to_host(count)
        n_seen = counts.astype(np.int64) if sample_weight is None else counts
        self.n_samples_seen_ = int(n_seen[0]) if n_seen.size and (n_seen == n_seen[0]).all() else n_seen
        if not n_seen.size:
            self.n_samples_seen_ = X.shape[0]
        dtype = X.dtype
        self.mean_ = backend.to_host(mean).astype(dtype) if (self.with_mean or self.with_std) else None
        self.var_ = backend.to_host(var).astype(dtype) if self.with_std else None
        if self.with_std:
            upper = count * np.finfo(np.float64).eps * var + (count * mean * np.finfo(np.float64).eps) ** 2
            constant = var <= upper
            self.scale_ = backend.to_host(_handle_zeros(xp.sqrt(var), xp, constant)).astype(dtype)
        else:
            self.scale_ = None
        return self

    def transform(self, X: Any, copy: Any = None) -> Any:
        check_is_fitted(self, "n_samples_seen_")
        X, kind = validate_data(
            self,
            X,
            reset=False,
            accept_sparse=("csr", "csc"),
            dtype=FLOAT_DTYPES,
            ensure_all_finite="allow-nan",
        )
        xp = compute_xp()
        if is_sparse(X):
            if self.with_mean:
                raise ValueError(
                    "Cannot center sparse matrices: pass `with_mean=False` instead. See "
                    "docstring for motivation and alternatives."
                )
            if self.scale_ is not None:
                X = _col_scale_sparse(X, 1 / backend.asarray_on(self.scale_, xp))
            return to_output(X, kind)
        if self.with_mean:
            X = X - backend.asarray_on(self.mean_, xp, X.dtype)
        if self.with_std:
            X = X / backend.asarray_on(self.scale_, xp, X.dtype)
        return to_output(X, kind)

    def inverse_transform(self, X: Any, copy: Any = None) -> Any:
        check_is_fitted(self, "n_samples_seen_")
        X, kind = validate_data(
            self,
            X,
            reset=False,
            accept_sparse=("csr", "csc"),
            dtype=FLOAT_DTYPES,
            ensure_all_finite="allow-nan",
        )
        xp = compute_xp()
        if is_sparse(X):
            if self.scale_ is not None:
                X = _col_scale_sparse(X, backend.asarray_on(self.scale_, xp))
            return to_output(X, kind)
        if self.with_std:
            X = X * backend.asarray_on(self.scale_, xp, X.dtype)
        if self.with_mean:
            X = X + backend.asarray_on(self.mean_, xp, X.dtype)
        return to_output(X, kind)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = not self.with_mean
        return tags


class MinMaxScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Scale each feature to ``feature_range``, like sklearn's MinMaxScaler."""

    def __init__(self, feature_range=(0, 1), *, copy=True, clip=False):
        self.feature_range = feature_range
        self.copy = copy
        self.clip = clip

    def fit(self, X: Any, y: Any = None) -> MinMaxScaler:
        lo, hi = self.feature_range
        if lo >= hi:
            raise ValueError(
                f"Minimum of desired feature range must be smaller than maximum. Got {self.feature_range!s}."
            )
        X, _ = validate_data(self, X, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan")
        xp = compute_xp()
        dmin, dmax = xp.nanmin(X, axis=0), xp.nanmax(X, axis=0)
        rng = _handle_zeros(dmax - dmin, xp)
        scale = (hi - lo) / rng
        self.data_min_, self.data_max_ = backend.to_host(dmin), backend.to_host(dmax)
        self.data_range_ = backend.to_host(dmax - dmin)
        self.scale_ = backend.to_host(scale)
        self.min_ = backend.to_host(lo - dmin * scale)
        self.n_samples_seen_ = X.shape[0]
        return self

    def transform(self, X: Any) -> Any:
        check_is_fitted(self)
        X, kind = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan")
        xp = compute_xp()
        out = X * backend.asarray_on(self.scale_, xp, X.dtype) + backend.asarray_on(self.min_, xp, X.dtype)
        if self.clip:
            out = xp.clip(out, self.feature_range[0], self.feature_range[1])
        return to_output(out, kind)

    def inverse_transform(self, X: Any) -> Any:
        check_is_fitted(self)
        X, kind = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan")
        xp = compute_xp()
        out = (X - backend.asarray_on(self.min_, xp, X.dtype)) / backend.asarray_on(self.scale_, xp, X.dtype)
        return to_output(out, kind)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


class MaxAbsScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Divide each feature by its maximum absolute value, like sklearn's MaxAbsScaler."""

    def __init__(self, *, copy=True):
        self.copy = copy

    def fit(self, X: Any, y: Any = None) -> MaxAbsScaler:
        X, _ = validate_data(
            self, X, accept_sparse=("csr", "csc"), dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan"
        )
        xp = compute_xp()
        if is_sparse(X):
            from ember.backend.primitives import scatter_max

            X = X.tocsr()
            m = xp.zeros(X.shape[1], dtype=X.dtype)
            vals = xp.abs(X.data)
            scatter_max(m, X.indices.astype(xp.int64), xp.where(xp.isnan(vals), 0, vals))
        else:
            m = xp.nanmax(xp.abs(X), axis=0) if X.shape[0] else xp.zeros(X.shape[1], dtype=X.dtype)
        self.max_abs_ = backend.to_host(m)
        self.scale_ = backend.to_host(_handle_zeros(m, xp))
        self.n_samples_seen_ = X.shape[0]
        return self

    def _apply(self, X: Any, inverse: bool, reset: Any) -> Any:
        check_is_fitted(self)
        X, kind = validate_data(
            self,
            X,
            reset=reset,
            accept_sparse=("csr", "csc"),
            dtype=FLOAT_DTYPES,
            ensure_all_finite="allow-nan",
        )
        xp = compute_xp()
        s = backend.asarray_on(self.scale_, xp, X.dtype)
        s = s if inverse else 1 / s
        return to_output(_col_scale_sparse(X, s) if is_sparse(X) else X * s, kind)

    def transform(self, X: Any) -> Any:
        return self._apply(X, False, False)

    def inverse_transform(self, X: Any) -> Any:
        return self._apply(X, True, None)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = True
        return tags


class RobustScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """(x - median) / IQR per feature, like sklearn's RobustScaler (dense X)."""

    def __init__(
        self,
        *,
        with_centering=True,
        with_scaling=True,
        quantile_range=(25.0, 75.0),
        copy=True,
        unit_variance=False,
    ):
        self.with_centering = with_centering
        self.with_scaling = with_scaling
        self.quantile_range = quantile_range
        self.copy = copy
        self.unit_variance = unit_variance

    def fit(self, X: Any, y: Any = None) -> RobustScaler:
        q_min, q_max = self.quantile_range
        if not 0 <= q_min <= q_max <= 100:
            raise ValueError(f"Invalid quantile range: {self.quantile_range!s}")
        X, _ = validate_data(self, X, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan")
        xp = compute_xp()
        q = nanquantile_columns(X, [50.0, q_min, q_max], xp)
        self.center_ = backend.to_host(q[0]) if self.with_centering else None
        if self.with_scaling:
            scale = _handle_zeros(q[2] - q[1], xp)
            if self.unit_variance:
                from scipy import stats

                scale = scale / (stats.norm.ppf(q_max / 100.0) - stats.norm.ppf(q_min / 100.0))
            self.scale_ = backend.to_host(scale)
        else:
            self.scale_ = None
        return self

    def transform(self, X: Any) -> Any:
        check_is_fitted(self, ["center_", "scale_"], all_or_any=any)
        X, kind = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan")
        xp = compute_xp()
        if self.with_centering:
            X = X - backend.asarray_on(self.center_, xp, X.dtype)
        if self.with_scaling:
            X = X / backend.asarray_on(self.scale_, xp, X.dtype)
        return to_output(X, kind)

    def inverse_transform(self, X: Any) -> Any:
        check_is_fitted(self, ["center_", "scale_"], all_or_any=any)
        X, kind = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan")
        xp = compute_xp()
        if self.with_scaling:
            X = X * backend.asarray_on(self.scale_, xp, X.dtype)
        if self.with_centering:
            X = X + backend.asarray_on(self.center_, xp, X.dtype)
        return to_output(X, kind)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


class Normalizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Scale each sample (row) to unit norm ('l1', 'l2' or 'max'), like sklearn's Normalizer."""

    def __init__(self, norm="l2", *, copy=True):
        self.norm = norm
        self.copy = copy

    def fit(self, X: Any, y: Any = None) -> Normalizer:
        validate_data(self, X, accept_sparse="csr")
        return self

    def transform(self, X: Any, copy: Any = None) -> Any:
        if self.norm not in ("l1", "l2", "max"):
            raise ValueError(f"'{self.norm}' is not a supported norm")
        X, kind = validate_data(self, X, accept_sparse="csr", reset=False, dtype=FLOAT_DTYPES)
        xp = compute_xp()
        if is_sparse(X):
            from ember.ml.feature_extraction.text import normalize_csr

            return to_output(normalize_csr(X.tocsr(), self.norm, xp), kind)
        if self.norm == "l2":
            n = xp.sqrt((X * X).sum(axis=1))
        elif self.norm == "l1":
            n = xp.abs(X).sum(axis=1)
        else:
            n = xp.abs(X).max(axis=1) if X.shape[1] else xp.zeros(X.shape[0], dtype=X.dtype)
        n = _handle_zeros(n, xp)
        return to_output(X / n[:, None], kind)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.requires_fit = False
        return tags

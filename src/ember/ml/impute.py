"""SimpleImputer on the device: fill missing values with a per-column mean, median, mode or constant."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted

from ember import backend
from ember.ml._base import compute_xp, to_output, validate_data
from ember.ml.preprocessing._data import nanquantile_columns


class SimpleImputer(TransformerMixin, BaseEstimator):
    """Univariate imputer, like sklearn's SimpleImputer for numeric X (missing_values NaN or a number).

    Columns with no observed value are dropped at transform (with a warning at fit) unless
    ``keep_empty_features=True`` (then filled with 0, or ``fill_value`` for 'constant'), as scikit-learn does."""

    def __init__(
        self,
        *,
        missing_values=np.nan,
        strategy="mean",
        fill_value=None,
        copy=True,
        add_indicator=False,
        keep_empty_features=False,
    ):
        self.missing_values = missing_values
        self.strategy = strategy
        self.fill_value = fill_value
        self.copy = copy
        self.add_indicator = add_indicator
        self.keep_empty_features = keep_empty_features

    def _missing(self, X: Any, xp: Any) -> Any:
        if isinstance(self.missing_values, float) and np.isnan(self.missing_values):
            return xp.isnan(X)
        return X == self.missing_values

    def _check(self, X: Any, reset: bool) -> tuple[Any, str]:
        if self.strategy not in ("mean", "median", "most_frequent", "constant"):
            raise ValueError(
                f"The 'strategy' parameter of SimpleImputer must be a str among {{'mean', "
                f"'median', 'most_frequent', 'constant'}} or a callable. Got {self.strategy!r} "
                "instead."
            )
        if self.add_indicator:
            raise NotImplementedError(
                "SimpleImputer(add_indicator=True): ember supports add_indicator=False."
            )
        allow = (
            "allow-nan" if isinstance(self.missing_values, float) and np.isnan(self.missing_values) else True
        )
        return validate_data(self, X, reset=reset, dtype=[np.float64, np.float32], ensure_all_finite=allow)

    def fit(self, X: Any, y: Any = None) -> SimpleImputer:
        X, _ = self._check(X, True)
        xp = compute_xp()
        miss = self._missing(X, xp)
        Xn = xp.where(miss, xp.nan, X)
        count = (~miss).sum(axis=0)
        if self.strategy == "mean":
            stats = xp.where(count > 0, xp.where(miss, 0, X).sum(axis=0) / xp.maximum(count, 1), xp.nan)
        elif self.strategy == "median":
            stats = nanquantile_columns(Xn, [50.0], xp)[0]
        elif self.strategy == "most_frequent":
            stats = _column_modes(Xn, xp)
        else:
            fill = 0 if self.fill_value is None else self.fill_value
            stats = xp.full(X.shape[1], fill, dtype=X.dtype)
        if self.keep_empty_features and self.strategy != "constant":
            stats = xp.where(count > 0, stats, 0)
        self.statistics_ = backend.to_host(stats).astype(X.dtype)
        self._valid = backend.to_host(count > 0) | self.keep_empty_features
        if not self._valid.all():
            import warnings

            warnings.warn(
                f"Skipping features without any observed values: {np.flatnonzero(~self._valid)}. "
                "At least one non-missing value is needed for imputation with "
                f"strategy='{self.strategy}'.",
                stacklevel=2,
            )
        return self

    def transform(self, X: Any) -> Any:
        check_is_fitted(self)
        X, kind = self._check(X, False)
        xp = compute_xp()
        stats = backend.asarray_on(self.statistics_, xp)
        out = xp.where(self._missing(X, xp), stats, X)
        if not self._valid.all():
            out = out[:, backend.asarray_on(np.flatnonzero(self._valid), xp)]
        return to_output(out, kind)

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        check_is_fitted(self)
        names = _check_feature_names_in(self, input_features)
        return names[self._valid]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


def _column_modes(X: Any, xp: Any) -> Any:
    """Most frequent non-NaN value per column (the smallest among ties); NaN for empty columns."""
    S = xp.sort(X, axis=0)
    n, d = S.shape
    if n == 0:
        return xp.full(d, xp.nan)
    new = xp.ones((n, d), dtype=bool)
    new[1:] = S[1:] != S[:-1]
    new &= ~xp.isnan(S)
    # run length: for each row of a run start, the distance to the next start in the same column
    pos = xp.arange(n)[:, None] * xp.ones((1, d), dtype=xp.int64)
    starts = xp.where(new, pos, n)
    nxt = _next_start(starts, xp)
    valid_end = xp.minimum(nxt, (~xp.isnan(S)).sum(axis=0)[None, :])
    length = xp.where(new, valid_end - pos, -1)
    best = length.argmax(axis=0)  # first (smallest value) among equal lengths
    out = S[best, xp.arange(d)]
    return xp.where(length.max(axis=0) > 0, out, xp.nan)


def _next_start(starts: Any, xp: Any) -> Any:
    from ember.backend.primitives import cummin

    shifted = xp.concatenate([starts[1:], xp.full((1, starts.shape[1]), starts.shape[0])])
    return xp.flip(cummin(xp.flip(shifted, 0), axis=0), 0)

"""PolynomialFeatures: products of feature columns on the device (one column product per output column;
the loop is over output columns, never rows)."""

from __future__ import annotations

from itertools import chain, combinations, combinations_with_replacement
from numbers import Integral
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted

from ember.ml._base import compute_xp, to_output, validate_data


class PolynomialFeatures(TransformerMixin, BaseEstimator):
    """Polynomial and interaction features, in scikit-learn's column order (dense X)."""

    def __init__(self, degree=2, *, interaction_only=False, include_bias=True, order="C"):
        self.degree = degree
        self.interaction_only = interaction_only
        self.include_bias = include_bias
        self.order = order

    def _degrees(self) -> tuple[int, int]:
        if isinstance(self.degree, Integral) and not isinstance(self.degree, bool):
            if self.degree < 0:
                raise ValueError(f"degree must be a non-negative integer, got {self.degree}.")
            return 0, int(self.degree)
        lo, hi = self.degree
        if not (isinstance(lo, Integral) and isinstance(hi, Integral) and 0 <= lo <= hi):
            raise ValueError(
                "degree=(min_degree, max_degree) must be non-negative integers that fulfil "
                f"min_degree <= max_degree, got {self.degree}."
            )
        return int(lo), int(hi)

    def _combinations(self, d: int) -> list[tuple[int, ...]]:
        lo, hi = self._degrees()
        comb = combinations if self.interaction_only else combinations_with_replacement
        start = max(1, lo)
        combos = list(chain.from_iterable(comb(range(d), k) for k in range(start, hi + 1)))
        if self.include_bias and (lo == 0 or hi == 0):
            combos.insert(0, ())
        return combos

    def fit(self, X: Any, y: Any = None) -> PolynomialFeatures:
        X, _ = validate_data(self, X)
        lo, hi = self._degrees()
        if hi == 0 and not self.include_bias:
            raise ValueError(
                "Setting degree to zero and include_bias to False would result in an empty output array."
            )
        combos = self._combinations(X.shape[1])
        self.n_output_features_ = len(combos)
        powers = np.zeros((len(combos), X.shape[1]), dtype=np.int64)
        for i, c in enumerate(combos):
            for j in c:
                powers[i, j] += 1
        self._powers = powers
        return self

    @property
    def powers_(self) -> np.ndarray:
        check_is_fitted(self, "n_output_features_")
        return self._powers

    def transform(self, X: Any) -> Any:
        check_is_fitted(self, "n_output_features_")
        X, kind = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        xp = compute_xp()
        combos = self._combinations(X.shape[1])
        out = xp.empty((X.shape[0], len(combos)), dtype=X.dtype, order=self.order)
        for i, c in enumerate(combos):
            col = xp.ones(X.shape[0], dtype=X.dtype)
            for j in c:
                col = col * X[:, j]
            out[:, i] = col
        return to_output(out, kind)

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        check_is_fitted(self, "n_output_features_")
        names = _check_feature_names_in(self, input_features)
        out = []
        for row in self._powers:
            terms = [f"{names[j]}^{p}" if p != 1 else str(names[j]) for j, p in enumerate(row) if p]
            out.append(" ".join(terms) if terms else "1")
        return np.asarray(out, dtype=object)

"""LabelEncoder: labels <-> 0..n_classes-1 with sort + searchsorted (on the device for device labels)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, column_or_1d

from ember import backend
from ember.ml._base import DEVICE, HOST, _is_ember


def _labels(y: Any) -> tuple[Any, str]:
    if _is_ember(y):
        col = getattr(y, "column", None)
        if col is not None and not hasattr(col, "chars") and getattr(col, "mask", 1) is None:
            return col.data, DEVICE if backend.is_device_array(col.data) else HOST
        return np.asarray(y.to_pandas()), HOST
    if backend.is_device_array(y):
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.ndim != 1:
            raise ValueError(f"y should be a 1d array, got an array of shape {y.shape} instead.")
        return y, DEVICE
    return column_or_1d(y, warn=True), HOST


class LabelEncoder(TransformerMixin, BaseEstimator):
    """Encode target labels as 0..n_classes-1, like sklearn's LabelEncoder."""

    def fit(self, y: Any) -> LabelEncoder:
        y, _ = _labels(y)
        self.classes_ = backend.to_host(backend.array_module(y).unique(y))
        return self

    def fit_transform(self, y: Any) -> Any:
        y, kind = _labels(y)
        xp = backend.array_module(y)
        classes, inv = xp.unique(y, return_inverse=True)
        self.classes_ = backend.to_host(classes)
        return inv.ravel() if kind == DEVICE else backend.to_host(inv).ravel()

    def transform(self, y: Any) -> Any:
        check_is_fitted(self)
        y, kind = _labels(y)
        xp = backend.array_module(y)
        if y.shape[0] == 0:
            return xp.zeros(0, dtype=xp.int64)
        classes = backend.asarray_on(self.classes_, xp) if xp is not np else self.classes_
        if len(self.classes_) == 0:
            raise ValueError(f"y contains previously unseen labels: {list(np.unique(backend.to_host(y)))}")
        pos = xp.minimum(xp.searchsorted(classes, y), len(self.classes_) - 1)
        ok = classes[pos] == y
        if not bool(backend.to_host(ok.all())):
            bad = np.unique(backend.to_host(y[~ok]))
            raise ValueError(f"y contains previously unseen labels: {bad.tolist()}")
        return pos.astype(xp.int64)

    def inverse_transform(self, y: Any) -> Any:
        check_is_fitted(self)
        y, kind = _labels(y)
        xp = backend.array_module(y)
        if y.shape[0] == 0:
            return np.array([], dtype=self.classes_.dtype)
        bad = (y < 0) | (y >= len(self.classes_))
        if bool(backend.to_host(bad.any())):
            raise ValueError(f"y contains previously unseen labels: {backend.to_host(y[bad]).tolist()}")
        if kind == DEVICE and self.classes_.dtype.kind in "biuf":
            return backend.asarray_on(self.classes_, xp)[y]
        return self.classes_[backend.to_host(y)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.target_tags.one_d_labels = True
        return tags

"""scikit-learn's Classifier/RegressorMixin with ``score`` computed by ember.ml.metrics, where the
predictions are: scikit-learn's own metrics call ``np.asarray`` on the labels, which device arrays and
GPU-backed ember Series refuse (no hidden device-to-host copies)."""

from __future__ import annotations

from typing import Any

from sklearn.base import ClassifierMixin as _SkClassifierMixin
from sklearn.base import RegressorMixin as _SkRegressorMixin


class ClassifierMixin(_SkClassifierMixin):
    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Mean accuracy of ``self.predict(X)`` against ``y`` (as scikit-learn's)."""
        from ember.ml.metrics import accuracy_score

        return accuracy_score(y, self.predict(X), sample_weight=sample_weight)


class RegressorMixin(_SkRegressorMixin):
    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Coefficient of determination R^2 of ``self.predict(X)`` against ``y`` (as scikit-learn's)."""
        from ember.ml.metrics import r2_score

        return r2_score(y, self.predict(X), sample_weight=sample_weight)

"""Linear models on the device, mirroring ``sklearn.linear_model``."""

from ember.ml.linear_model._logistic import LogisticRegression

__all__ = ["LogisticRegression"]

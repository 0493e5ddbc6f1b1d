"""Ensembles on the device: random forests of histogram trees (drop-ins for ``sklearn.ensemble``)."""

from ember.ml.ensemble._forest import RandomForestClassifier, RandomForestRegressor

__all__ = ["RandomForestClassifier", "RandomForestRegressor"]

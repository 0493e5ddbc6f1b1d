"""Nearest neighbours on the device (brute force, tiled GEMM + top-k), drop-ins for ``sklearn.neighbors``."""

from ember.ml.neighbors._neighbors import KNeighborsClassifier, KNeighborsRegressor, NearestNeighbors

__all__ = ["KNeighborsClassifier", "KNeighborsRegressor", "NearestNeighbors"]

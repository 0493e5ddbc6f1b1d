"""Decomposition on the device: PCA and TruncatedSVD (drop-ins for ``sklearn.decomposition``)."""

from ember.ml.decomposition._pca import PCA, TruncatedSVD

__all__ = ["PCA", "TruncatedSVD"]

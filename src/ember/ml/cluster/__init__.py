"""Clustering on the device: KMeans, MiniBatchKMeans, DBSCAN (drop-ins for ``sklearn.cluster``)."""

from ember.ml.cluster._dbscan import DBSCAN
from ember.ml.cluster._kmeans import KMeans, MiniBatchKMeans

__all__ = ["DBSCAN", "KMeans", "MiniBatchKMeans"]

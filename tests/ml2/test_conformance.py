"""scikit-learn's estimator checks for the ML II estimators; deviations are strict xfails with reasons."""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from ember.ml.cluster import DBSCAN, KMeans, MiniBatchKMeans
from ember.ml.decomposition import PCA, TruncatedSVD
from ember.ml.ensemble import RandomForestClassifier, RandomForestRegressor
from ember.ml.neighbors import KNeighborsClassifier, KNeighborsRegressor, NearestNeighbors

_WEIGHT_EQUIV = {
    "check_sample_weight_equivalence_on_dense_data": "random draws (init / bootstrap / features) see weighted and repeated rows differently; "
    "scikit-learn marks the same check xfail for its KMeans, MiniBatchKMeans and forests",
}

ESTIMATORS = [
    KMeans(n_init=2, max_iter=5),
    MiniBatchKMeans(n_init=2, max_iter=5),
    DBSCAN(),
    PCA(),
    TruncatedSVD(),
    NearestNeighbors(),
    KNeighborsClassifier(),
    KNeighborsRegressor(),
    RandomForestClassifier(n_estimators=5),
    RandomForestRegressor(n_estimators=5),
]
EXPECTED_FAILED = {
    "KMeans": _WEIGHT_EQUIV,
    "MiniBatchKMeans": _WEIGHT_EQUIV,
    "RandomForestClassifier": _WEIGHT_EQUIV,
    "RandomForestRegressor": _WEIGHT_EQUIV,
}


@parametrize_with_checks(
    ESTIMATORS,
    expected_failed_checks=lambda est: EXPECTED_FAILED.get(type(est).__name__, {}),
    xfail_strict=True,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)

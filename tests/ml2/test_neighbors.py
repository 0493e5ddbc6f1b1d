"""Nearest neighbours against scikit-learn (tie-free data, so neighbour order is unique)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn import neighbors as skn
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris

from ember.backend.primitives import smallest_k
from ember.ml.neighbors import KNeighborsClassifier, KNeighborsRegressor, NearestNeighbors

RNG = np.random.RandomState(0)
X_TRAIN = RNG.randn(300, 8)
X_QUERY = RNG.randn(40, 8)


@pytest.mark.parametrize("metric", ["euclidean", "cosine", "manhattan", "minkowski", "l1", "cityblock"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kneighbors_matches_sklearn(metric, dtype):
    Xt, Xq = X_TRAIN.astype(dtype), X_QUERY.astype(dtype)
    ours = NearestNeighbors(n_neighbors=6, metric=metric).fit(Xt)
    ref = skn.NearestNeighbors(n_neighbors=6, metric=metric).fit(Xt)
    d, i = ours.kneighbors(Xq)
    dr, ir = ref.kneighbors(Xq)
    np.testing.assert_array_equal(i, ir)
    np.testing.assert_allclose(d, dr, rtol=1e-4, atol=1e-5)
    d, i = ours.kneighbors()  # training rows, each without itself
    dr, ir = ref.kneighbors()
    np.testing.assert_array_equal(i, ir)
    np.testing.assert_allclose(d, dr, rtol=1e-4, atol=1e-5)
    g, gr = ours.kneighbors_graph(Xq, 3, mode="distance"), ref.kneighbors_graph(Xq, 3, mode="distance")
    np.testing.assert_allclose(g.toarray(), gr.toarray(), rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(
        ours.kneighbors(Xq, 2, return_distance=False), ref.kneighbors(Xq, 2, return_distance=False)
    )


def test_kneighbors_duplicates_and_errors():
    X = np.array([[0.0], [0.0], [1.0], [3.0]])
    d, i = NearestNeighbors(n_neighbors=1).fit(X).kneighbors()
    dr, ir = skn.NearestNeighbors(n_neighbors=1).fit(X).kneighbors()
    np.testing.assert_array_equal(i, ir)
    np.testing.assert_array_equal(d, dr)
    nn = NearestNeighbors(n_neighbors=5).fit(X)
    with pytest.raises(ValueError, match="Expected n_neighbors <= n_samples_fit"):
        nn.kneighbors(X)
    with pytest.raises(ValueError, match="Expected n_neighbors > 0"):
        nn.kneighbors(X, 0)
    with pytest.raises(NotImplementedError, match="metric='chebyshev'"):
        NearestNeighbors(metric="chebyshev").fit(X)
    one = NearestNeighbors(n_neighbors=1).fit(np.array([[1.0, 2.0]]))
    np.testing.assert_array_equal(one.kneighbors(np.array([[1.0, 2.0]]))[1], [[0]])


@pytest.mark.parametrize("load", [load_iris, load_breast_cancer])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_classifier_matches_sklearn(load, weights):
    X, y = load(return_X_y=True)
    X = X + np.random.RandomState(1).randn(*X.shape) * 1e-3 * X.std(axis=0)  # break distance ties
    ours = KNeighborsClassifier(7, weights=weights).fit(X[::2], y[::2])
    ref = skn.KNeighborsClassifier(7, weights=weights).fit(X[::2], y[::2])
    np.testing.assert_array_equal(ours.predict(X[1::2]), ref.predict(X[1::2]))
    np.testing.assert_allclose(ours.predict_proba(X[1::2]), ref.predict_proba(X[1::2]), atol=1e-10)
    assert ours.score(X[1::2], y[1::2]) == ref.score(X[1::2], y[1::2])


def test_classifier_string_labels_and_multioutput():
    X, y = load_iris(return_X_y=True)
    X = X + np.random.RandomState(2).randn(*X.shape) * 1e-3  # break distance ties
    names = np.array(["setosa", "versicolor", "virginica"], dtype=object)[y]
    ours = KNeighborsClassifier(5).fit(X, names)
    ref = skn.KNeighborsClassifier(5).fit(X, names)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    Y = np.c_[y, y % 2]
    ours, ref = KNeighborsClassifier(5).fit(X, Y), skn.KNeighborsClassifier(5).fit(X, Y)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    for a, b in zip(ours.predict_proba(X), ref.predict_proba(X), strict=True):
        np.testing.assert_allclose(a, b)


@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
def test_regressor_matches_sklearn(weights, metric):
    X, y = load_diabetes(return_X_y=True)
    ours = KNeighborsRegressor(5, weights=weights, metric=metric).fit(X, y)
    ref = skn.KNeighborsRegressor(5, weights=weights, metric=metric).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-9)
    Y = np.c_[y, -y]
    ours = KNeighborsRegressor(5, weights=weights, metric=metric).fit(X, Y)
    np.testing.assert_allclose(
        ours.predict(X[:30]),
        skn.KNeighborsRegressor(5, weights=weights, metric=metric).fit(X, Y).predict(X[:30]),
        rtol=1e-9,
    )


@settings(max_examples=60, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 6), st.integers(1, 12)),
        elements=st.floats(-5, 5, allow_nan=False),
    ),
    st.integers(1, 12),
)
def test_smallest_k_property(d, k):
    vals, idx = smallest_k(d, k)
    k = min(k, d.shape[1])
    order = np.lexsort((np.broadcast_to(np.arange(d.shape[1]), d.shape), d), axis=1)[:, :k]
    np.testing.assert_array_equal(idx, order)
    np.testing.assert_array_equal(vals, np.take_along_axis(d, order, axis=1))

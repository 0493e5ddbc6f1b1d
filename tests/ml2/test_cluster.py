"""KMeans, MiniBatchKMeans and DBSCAN against scikit-learn on the same data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import cluster as skc
from sklearn.datasets import load_iris, make_blobs, make_moons
from sklearn.metrics import adjusted_rand_score

from ember.ml.cluster import DBSCAN, KMeans, MiniBatchKMeans
from ember.ml.cluster._dbscan import connected_min_labels


@pytest.fixture(scope="module")
def blobs():
    return make_blobs(2000, 6, centers=5, cluster_std=1.0, random_state=0)[0]


@pytest.mark.parametrize("init", ["k-means++", "random"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kmeans_matches_sklearn(blobs, init, dtype):
    X = blobs.astype(dtype)
    ours = KMeans(5, init=init, n_init=10, random_state=0).fit(X)
    ref = skc.KMeans(5, init=init, n_init=10, random_state=0).fit(X)
    assert adjusted_rand_score(ours.labels_, ref.labels_) == 1.0
    np.testing.assert_allclose(ours.inertia_, ref.inertia_, rtol=1e-4)
    assert ours.cluster_centers_.dtype == dtype
    perm = ref.predict(ours.cluster_centers_)
    np.testing.assert_allclose(ours.cluster_centers_, ref.cluster_centers_[perm], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        np.sort(ours.transform(X[:20]), axis=1), np.sort(ref.transform(X[:20]), axis=1), rtol=1e-4
    )
    np.testing.assert_allclose(ours.score(X), ref.score(X), rtol=1e-4)


def test_kmeans_sample_weight_and_array_init(blobs):
    w = np.random.RandomState(0).rand(len(blobs))
    init = blobs[:5]
    ours = KMeans(5, init=init, n_init=1).fit(blobs, sample_weight=w)
    ref = skc.KMeans(5, init=init, n_init=1).fit(blobs, sample_weight=w)
    np.testing.assert_array_equal(ours.labels_, ref.labels_)
    np.testing.assert_allclose(ours.cluster_centers_, ref.cluster_centers_, rtol=1e-6)
    np.testing.assert_allclose(ours.inertia_, ref.inertia_, rtol=1e-6)
    assert ours.n_iter_ == ref.n_iter_


def test_kmeans_iris_inertia_close():
    X = load_iris().data
    ours = KMeans(3, n_init=10, random_state=1).fit(X)
    ref = skc.KMeans(3, n_init=10, random_state=1).fit(X)
    assert ours.inertia_ <= ref.inertia_ * 1.01


def test_kmeans_duplicate_points_and_errors():
    X = np.zeros((10, 2))
    with pytest.warns(Warning, match="distinct clusters"):
        KMeans(3, random_state=0).fit(X)
    with pytest.raises(ValueError, match="n_samples=2 should be >= n_clusters=3"):
        KMeans(3).fit(np.ones((2, 2)))
    one = KMeans(1, random_state=0).fit(np.array([[1.0, 2.0]]))
    np.testing.assert_array_equal(one.cluster_centers_, [[1.0, 2.0]])
    assert one.inertia_ == 0.0


def test_minibatch_kmeans_quality(blobs):
    ours = MiniBatchKMeans(5, random_state=0, batch_size=256).fit(blobs)
    ref = skc.MiniBatchKMeans(5, random_state=0, batch_size=256).fit(blobs)
    assert adjusted_rand_score(ours.labels_, ref.labels_) > 0.95
    assert ours.inertia_ <= ref.inertia_ * 1.05
    part, ref_part = MiniBatchKMeans(5, random_state=0), skc.MiniBatchKMeans(5, random_state=0)
    for chunk in np.array_split(blobs, 8):
        part.partial_fit(chunk)
        ref_part.partial_fit(chunk)
    assert part.n_steps_ == ref_part.n_steps_ == 8
    assert -part.score(blobs) <= -ref_part.score(blobs) * 4  # one k-means++ draw on 250 rows: same order


def test_minibatch_kmeans_separated_partial_fit():
    X = make_blobs(2000, 4, centers=4, cluster_std=0.3, random_state=3, shuffle=True)[0]
    part = MiniBatchKMeans(4, random_state=0, n_init=3)
    for chunk in np.array_split(X, 5):
        part.partial_fit(chunk)
    ref = skc.KMeans(4, random_state=0).fit(X)
    assert adjusted_rand_score(part.predict(X), ref.labels_) == 1.0


@pytest.mark.parametrize(
    "metric,eps,min_samples", [("euclidean", 0.15, 5), ("manhattan", 0.2, 8), ("cosine", 0.001, 4)]
)
def test_dbscan_labels_equal_sklearn(metric, eps, min_samples):
    X = make_moons(400, noise=0.08, random_state=0)[0] + 0.5
    ours = DBSCAN(eps=eps, min_samples=min_samples, metric=metric).fit(X)
    ref = skc.DBSCAN(eps=eps, min_samples=min_samples, metric=metric).fit(X)
    np.testing.assert_array_equal(ours.labels_, ref.labels_)
    np.testing.assert_array_equal(ours.core_sample_indices_, ref.core_sample_indices_)
    np.testing.assert_array_equal(ours.components_, ref.components_)


def test_dbscan_sample_weight_noise_and_one_row():
    X = make_blobs(300, 2, centers=3, random_state=2)[0]
    w = np.random.RandomState(1).randint(0, 4, 300).astype(float)
    ours = DBSCAN(eps=0.6, min_samples=7).fit(X, sample_weight=w)
    ref = skc.DBSCAN(eps=0.6, min_samples=7).fit(X, sample_weight=w)
    np.testing.assert_array_equal(ours.labels_, ref.labels_)
    np.testing.assert_array_equal(DBSCAN().fit_predict(np.array([[0.0, 0.0]])), [-1])
    np.testing.assert_array_equal(DBSCAN(min_samples=1).fit_predict(np.array([[0.0, 0.0]])), [0])


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30), st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=60))
def test_connected_components_property(n, pairs):
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    pairs = [(a, b) for a, b in pairs if a < n and b < n]
    src = np.array([a for a, b in pairs] + [b for a, b in pairs], dtype=np.int64)
    dst = np.array([b for a, b in pairs] + [a for a, b in pairs], dtype=np.int64)
    labels = connected_min_labels(n, src, dst, np)
    _, comp = connected_components(coo_matrix((np.ones(len(src)), (src, dst)), shape=(n, n)), directed=False)
    expected = np.array([np.flatnonzero(comp == comp[i]).min() for i in range(n)])
    np.testing.assert_array_equal(labels, expected)


def test_kmeans_relocates_an_empty_cluster_like_sklearn():
    """A starting center far from every row gets no rows: it moves to the farthest rows, as scikit-learn's."""
    from sklearn.cluster import KMeans as SkKMeans

    from ember.ml.cluster import KMeans as EmKMeans

    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(0, 1, (100, 2)), rng.normal(8, 1, (100, 2))])
    init = np.array([[0.0, 0.0], [8.0, 8.0], [1000.0, 1000.0]])
    ours = EmKMeans(3, init=init, n_init=1, max_iter=50).fit(X)
    ref = SkKMeans(3, init=init, n_init=1, max_iter=50, algorithm="lloyd").fit(X)
    np.testing.assert_allclose(
        np.sort(ours.cluster_centers_, axis=0), np.sort(ref.cluster_centers_, axis=0), rtol=1e-6
    )
    assert ours.inertia_ == pytest.approx(ref.inertia_, rel=1e-6)


@pytest.mark.parametrize("m", [0, 5, 64, 200])
def test_onehot_product_equals_the_sparse_sum(xp, m):
    """The device's cluster sums (one-hot blocks times X, batched, plus a remainder) on either backend
    equal the per-cluster sums of the rows."""
    import ember
    from ember.ml.cluster._kmeans import onehot_product

    rng = np.random.default_rng(m)
    k, X = 7, rng.normal(size=(m, 3))
    labels, w = rng.integers(0, k, m), rng.random(m)
    got, weight = onehot_product(xp.asarray(labels), xp.asarray(w), xp.asarray(X), k, xp, block_rows=16)
    expected = np.zeros((k, 3))
    np.add.at(expected, labels, w[:, None] * X)
    np.testing.assert_allclose(ember.backend.to_host(got), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ember.backend.to_host(weight), np.bincount(labels, w, k), rtol=1e-12)


def test_draw_proportional_follows_the_weights():
    """k-means++ draws: zero weights never drawn, draws land in proportion to the weights."""
    from ember.ml.cluster._kmeans import draw_proportional

    w = np.array([0.0, 1.0, 0.0, 3.0, 0.0])
    draws = draw_proportional(w, np.random.default_rng(0).random(40_000), np)
    counts = np.bincount(draws, minlength=5)
    assert counts[[0, 2, 4]].sum() == 0
    assert abs(counts[3] / counts[1] - 3) < 0.15
    np.testing.assert_array_equal(
        draw_proportional(w, np.array([0.0, 0.2499, 0.25, 0.9999]), np), [1, 1, 3, 3]
    )

"""max_depth of random forests on every sizing path: trees grown and walked with the host's batch and
histogram budgets, with the device's (one batch of all trees, one histogram chunk per level), and with
tiny ones (a tree per batch, a few nodes per histogram chunk, a few rows per prediction chunk).

The depths are read off the fitted node arrays by walking the children from the root, independently of
the depth the grower records; a forest of stumps is an additive model (one feature per tree), so it has
no interaction term and cannot fit XOR, which scikit-learn's stumps cannot either."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import ensemble as ske
from sklearn import tree as skt

from ember import backend
from ember.ml.ensemble import RandomForestClassifier, RandomForestRegressor, _forest, _tree


@pytest.fixture(params=["host_sizes", "device_sizes", "tiny_sizes"])
def sizes(request, monkeypatch):
    """Both the host's and the device's constants are set, so the path is the same on either backend."""
    if request.param == "device_sizes":
        monkeypatch.setattr(_forest, "_BATCH_HOST", _forest._BATCH_DEVICE)
        monkeypatch.setattr(_tree, "_HIST_HOST", _tree._HIST_DEVICE)
    elif request.param == "host_sizes":
        monkeypatch.setattr(_forest, "_BATCH_DEVICE", _forest._BATCH_HOST)
        monkeypatch.setattr(_tree, "_HIST_DEVICE", _tree._HIST_HOST)
    else:
        for mod, name, value in [
            (_forest, "_BATCH_HOST", 1),
            (_forest, "_BATCH_DEVICE", 1),
            (_tree, "_HIST_HOST", 1 << 9),
            (_tree, "_HIST_DEVICE", 1 << 9),
        ]:
            monkeypatch.setattr(mod, name, value)
    return request.param


def _xor_data(n: int = 20_000, noise: bool = True):
    """(a > 3) ^ (b > 2) on a 7 x 5 grid of values (every cell present), plus a feature of noise."""
    i = np.arange(n)
    a, b = (i % 7).astype(float), (i % 5).astype(float)
    cols = [a, b] + ([np.random.default_rng(0).normal(size=n)] if noise else [])
    return np.stack(cols, axis=1), ((a > 3) ^ (b > 2)).astype(np.int64)


def _depths(t) -> np.ndarray:
    """Depth of every node of a fitted tree, walked from node 0; each node is reached exactly once."""
    left, right = backend.to_host(t.children_left), backend.to_host(t.children_right)
    feature = backend.to_host(t.feature)
    depth = np.full(left.shape[0], -1)
    depth[0], frontier, d = 0, np.array([0]), 0
    while frontier.size:
        inner = frontier[feature[frontier] >= 0]
        children = np.concatenate([left[inner], right[inner]])
        assert (children > 0).all() and (depth[children] == -1).all()  # a tree: no node met twice
        d += 1
        depth[children] = d
        frontier = children
    assert (depth >= 0).all()  # every node hangs from the root
    assert ((feature < 0) == (left < 0)).all() and ((left < 0) == (right < 0)).all()
    return depth


@pytest.mark.parametrize("max_depth", [1, 2, 3])
def test_every_leaf_within_max_depth(sizes, max_depth):
    X, y = _xor_data()
    forest = RandomForestClassifier(10, max_depth=max_depth, random_state=0).fit(X, y)
    reg = RandomForestRegressor(4, max_depth=max_depth, random_state=0).fit(X, y.astype(float))
    for t in forest.estimators_ + reg.estimators_:
        depth = _depths(t)
        assert depth.max() <= max_depth
        assert t.max_depth == depth.max()
        assert t.node_count <= 2 ** (max_depth + 1) - 1
    # the prediction walk stops at leaves: every row of every tree ends at a node with no split
    st = forest._stacked
    xp = backend.array_module(st.feature)
    ends = _tree.leaves(st, backend.asarray_on(X[:500].astype(np.float32), xp), xp)
    assert (backend.to_host(st.feature[ends]) < 0).all()


def test_forest_of_stumps_cannot_fit_xor(sizes):
    X, y = _xor_data()
    stumps = RandomForestClassifier(10, max_depth=1, random_state=0).fit(X, y)
    # an additive model: on the (a, b) grid at a fixed noise value the interaction term is 0
    a, b = np.meshgrid(np.arange(7.0), np.arange(5.0), indexing="ij")
    grid = np.stack([a.ravel(), b.ravel(), np.zeros(35)], axis=1)
    p = backend.to_host(stumps.predict_proba(grid))[:, 1].reshape(7, 5)
    interaction = p - p[:, :1] - p[:1, :] + p[0, 0]
    np.testing.assert_allclose(interaction, 0, atol=1e-12)
    truth = ((a > 3) ^ (b > 2)).astype(np.int64)
    ours = float((backend.to_host(stumps.predict(grid)).reshape(7, 5) == truth).mean())
    ref = ske.RandomForestClassifier(10, max_depth=1, random_state=0).fit(X, y)
    theirs = float((ref.predict(grid).reshape(7, 5) == truth).mean())
    assert ours < 1 and theirs < 1  # neither library's stumps separate XOR
    deep = RandomForestClassifier(10, max_depth=6, random_state=0).fit(X, y)
    assert float((backend.to_host(deep.predict(grid)).reshape(7, 5) == truth).mean()) == 1.0


@pytest.mark.parametrize("max_depth", [1, 2])
def test_single_tree_equals_sklearn_tree(sizes, max_depth):
    """Without bootstrap and with every feature, a tree is scikit-learn's (thresholds are exact)."""
    X, y = _xor_data(2_000, noise=False)
    ours = RandomForestClassifier(1, bootstrap=False, max_features=None, max_depth=max_depth, random_state=0)
    ours.fit(X, y)
    ref = skt.DecisionTreeClassifier(max_depth=max_depth, random_state=0).fit(X, y)
    t = ours.estimators_[0]
    assert t.node_count == ref.tree_.node_count
    assert t.max_depth == ref.tree_.max_depth == _depths(t).max()
    # nodes are stored level by level (scikit-learn: depth first): compare the split sets
    inner = backend.to_host(t.feature) >= 0
    assert sorted(zip(backend.to_host(t.feature)[inner], backend.to_host(t.threshold)[inner])) == sorted(
        zip(ref.tree_.feature[ref.tree_.feature >= 0], ref.tree_.threshold[ref.tree_.feature >= 0])
    )
    np.testing.assert_array_equal(backend.to_host(ours.predict(X)), ref.predict(X))
    np.testing.assert_allclose(backend.to_host(ours.predict_proba(X)), ref.predict_proba(X))


def test_prediction_chunks_do_not_change_predictions(monkeypatch):
    X, y = _xor_data(3_000)
    forest = RandomForestClassifier(8, max_depth=4, random_state=0).fit(X, y)
    whole = backend.to_host(forest.predict_proba(X))
    monkeypatch.setattr(_tree, "_HIST_HOST", 1 << 6)  # a few rows per chunk on either backend
    monkeypatch.setattr(_tree, "_HIST_DEVICE", 1 << 6)
    np.testing.assert_array_equal(backend.to_host(forest.predict_proba(X)), whole)

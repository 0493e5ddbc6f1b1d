"""Metrics against scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as S
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
import ember.ml.metrics as E

RNG = np.random.default_rng(0)
Y = RNG.integers(0, 3, 60)
P = RNG.integers(0, 3, 60)
W = RNG.uniform(0, 2, 60)


@pytest.mark.parametrize("normalize", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
def test_accuracy(normalize, weighted):
    w = W if weighted else None
    assert E.accuracy_score(Y, P, normalize=normalize, sample_weight=w) == pytest.approx(
        S.accuracy_score(Y, P, normalize=normalize, sample_weight=w)
    )
    labels = np.array(["a", "b", "c"])
    assert E.accuracy_score(labels[Y], labels[P]) == S.accuracy_score(labels[Y], labels[P])
    assert E.accuracy_score(ember.Series(Y), ember.Series(P)) == S.accuracy_score(Y, P)


def test_accuracy_length_mismatch():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        E.accuracy_score([1, 2], [1])


@pytest.mark.parametrize("multioutput", ["uniform_average", "raw_values", "variance_weighted", [0.3, 0.7]])
def test_r2(multioutput):
    y = RNG.normal(size=(40, 2))
    p = y + RNG.normal(size=(40, 2)) * 0.3
    np.testing.assert_allclose(
        E.r2_score(y, p, multioutput=multioutput, sample_weight=W[:40]),
        S.r2_score(y, p, multioutput=multioutput, sample_weight=W[:40]),
    )
    assert E.r2_score(y[:, 0], p[:, 0]) == pytest.approx(S.r2_score(y[:, 0], p[:, 0]))


@pytest.mark.parametrize("force_finite", [True, False])
def test_r2_constant_target(force_finite):
    y = np.ones(5)
    for p in (np.ones(5), np.arange(5.0)):
        np.testing.assert_equal(
            E.r2_score(y, p, force_finite=force_finite), S.r2_score(y, p, force_finite=force_finite)
        )


def test_log_loss():
    proba = RNG.dirichlet([1, 1, 1], 60)
    assert E.log_loss(Y, proba) == pytest.approx(S.log_loss(Y, proba))
    assert E.log_loss(Y, proba, sample_weight=W, normalize=False) == pytest.approx(
        S.log_loss(Y, proba, sample_weight=W, normalize=False)
    )
    yb, pb = Y % 2, np.clip(proba[:, 0], 0, 1)
    assert E.log_loss(yb, pb) == pytest.approx(S.log_loss(yb, pb))
    assert E.log_loss(["x", "y", "y"], [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]) == pytest.approx(
        S.log_loss(["x", "y", "y"], [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    )
    with pytest.raises(ValueError, match="only one label"):
        E.log_loss([1, 1], [0.5, 0.5])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.sampled_from([0.0, 0.1, 0.5, 0.5, 0.9, 1.0]), st.floats(0.1, 3.0)),
        min_size=2,
        max_size=30,
    )
)
def test_roc_auc_hypothesis_ties_and_weights(rows):
    y = np.array([r[0] for r in rows])
    if len(set(y)) < 2:
        return
    s = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows])
    assert E.roc_auc_score(y, s) == pytest.approx(S.roc_auc_score(y, s))
    assert E.roc_auc_score(y, s, sample_weight=w) == pytest.approx(S.roc_auc_score(y, s, sample_weight=w))


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_roc_auc_multiclass_ovr(average):
    proba = RNG.dirichlet([1, 1, 1], 60)
    assert E.roc_auc_score(Y, proba, multi_class="ovr", average=average) == pytest.approx(
        S.roc_auc_score(Y, proba, multi_class="ovr", average=average)
    )
    with pytest.raises(NotImplementedError, match="ovo"):
        E.roc_auc_score(Y, proba, multi_class="ovo")


def test_roc_auc_single_class():
    with pytest.raises(ValueError, match="Only one class"):
        E.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3])


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
@pytest.mark.parametrize("weighted", [False, True])
def test_confusion_matrix(normalize, weighted):
    w = W if weighted else None
    got = E.confusion_matrix(Y, P, sample_weight=w, normalize=normalize)
    want = S.confusion_matrix(Y, P, sample_weight=w, normalize=normalize)
    np.testing.assert_allclose(got, want)
    assert got.dtype == want.dtype


def test_confusion_matrix_labels_and_strings():
    labels = np.array(["cat", "ant", "bee"])
    np.testing.assert_array_equal(
        E.confusion_matrix(labels[Y], labels[P]), S.confusion_matrix(labels[Y], labels[P])
    )
    np.testing.assert_array_equal(
        E.confusion_matrix(Y, P, labels=[2, 0]), S.confusion_matrix(Y, P, labels=[2, 0])
    )
    with pytest.raises(ValueError, match="empty input"):
        E.confusion_matrix([], [])

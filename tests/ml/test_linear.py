"""Linear models against scikit-learn: coefficients and probabilities within solver tolerance."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn import linear_model as S
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning, NotFittedError

import ember
from ember.ml import linear_model as E


def _data(K, n=400, d=12, seed=0):
    return make_classification(n, d, n_informative=min(6, d), n_redundant=0, n_classes=K, random_state=seed)


def _sk_logistic(**kw):
    if kw.pop("penalty", "l2") is None:
        kw["C"] = np.inf
    return S.LogisticRegression(tol=1e-10, max_iter=10000, **kw)


@pytest.mark.parametrize("K", [2, 3, 4])
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"C": 0.05},
        {"penalty": None},
        {"class_weight": "balanced"},
        {"fit_intercept": False},
        {"class_weight": {0: 3.0, 1: 0.5}},
    ],
)
def test_logistic_lbfgs_matches_sklearn(K, params):
    X, y = _data(K)
    e = E.LogisticRegression(tol=1e-10, max_iter=5000, **params).fit(X, y)
    s = _sk_logistic(**params).fit(X, y)
    np.testing.assert_allclose(e.coef_, s.coef_, rtol=1e-4, atol=1e-5 * np.abs(s.coef_).max())
    np.testing.assert_allclose(e.intercept_, s.intercept_, atol=1e-5 * max(1, np.abs(s.intercept_).max()))
    np.testing.assert_allclose(e.predict_proba(X), s.predict_proba(X), atol=1e-6)
    np.testing.assert_allclose(e.decision_function(X), s.decision_function(X), atol=1e-5)
    np.testing.assert_array_equal(e.predict(X), s.predict(X))
    assert e.coef_.shape == s.coef_.shape and e.intercept_.shape == s.intercept_.shape


def test_logistic_default_tolerance_close_to_sklearn():
    X, y = _data(2)
    e, s = E.LogisticRegression().fit(X, y), S.LogisticRegression().fit(X, y)
    np.testing.assert_allclose(e.predict_proba(X), s.predict_proba(X), atol=2e-3)


@pytest.mark.parametrize("K", [2, 3])
def test_logistic_sample_weight_and_string_labels(K):
    X, y = _data(K)
    labels = np.array(["ant", "bee", "cat", "dog"])[y]
    w = np.random.default_rng(1).uniform(0, 3, len(y))
    e = E.LogisticRegression(tol=1e-8, max_iter=1000).fit(X, labels, sample_weight=w)
    s = _sk_logistic().fit(X, labels, sample_weight=w)
    np.testing.assert_array_equal(e.classes_, s.classes_)
    np.testing.assert_allclose(e.predict_proba(X), s.predict_proba(X), atol=1e-6)
    np.testing.assert_array_equal(e.predict(X), s.predict(X))
    assert e.score(X, labels) == pytest.approx(s.score(X, labels))


@pytest.mark.parametrize("K", [2, 3])
@pytest.mark.parametrize("penalty,ratio", [("l1", None), ("elasticnet", 0.4)])
def test_logistic_l1_elasticnet(K, penalty, ratio):
    X, y = _data(K, n=300, d=8)
    kw = {"C": 0.1, "solver": "saga", "tol": 1e-10, "max_iter": 50000}
    e = E.LogisticRegression(penalty=penalty, l1_ratio=ratio, **kw).fit(X, y)
    s = S.LogisticRegression(l1_ratio=1.0 if ratio is None else ratio, **kw).fit(X, y)
    np.testing.assert_allclose(e.coef_, s.coef_, atol=1e-6)
    np.testing.assert_array_equal(e.coef_ == 0, s.coef_ == 0)


@pytest.mark.parametrize("K", [2, 3])
def test_logistic_sparse_matches_dense(K):
    X, y = _data(K)
    Xs = sp.csr_matrix(np.where(np.abs(X) > 1, X, 0))
    e = E.LogisticRegression(tol=1e-8).fit(Xs, y)
    s = _sk_logistic().fit(Xs, y)
    np.testing.assert_allclose(e.predict_proba(Xs), s.predict_proba(Xs), atol=1e-6)


def test_logistic_float32_keeps_dtype():
    X, y = _data(2)
    e = E.LogisticRegression().fit(X.astype(np.float32), y)
    assert e.coef_.dtype == np.float32


def test_logistic_inputs_pandas_and_ember():
    X, y = _data(2, n=100, d=3)
    df = pd.DataFrame(X, columns=["a", "b", "c"])
    e1 = E.LogisticRegression().fit(df, pd.Series(y))
    e2 = E.LogisticRegression().fit(ember.DataFrame(df), ember.Series(y))
    np.testing.assert_array_equal(e1.feature_names_in_, ["a", "b", "c"])
    np.testing.assert_array_equal(e2.feature_names_in_, ["a", "b", "c"])
    np.testing.assert_allclose(e1.coef_, e2.coef_)
    p = e2.predict_proba(ember.DataFrame(df))
    np.testing.assert_allclose(ember.backend.to_host(p), e1.predict_proba(df))


def test_logistic_errors_like_sklearn():
    X, y = _data(2, n=50, d=3)
    with pytest.raises(NotFittedError):
        E.LogisticRegression().predict(X)
    with pytest.raises(ValueError, match="at least 2 classes"):
        E.LogisticRegression().fit(X, np.zeros(50))
    with pytest.raises(ValueError, match="Unknown label type"):
        E.LogisticRegression().fit(X, np.linspace(0, 1, 50))
    with pytest.raises(ValueError, match="NaN"):
        E.LogisticRegression().fit(np.where(X > 1, np.nan, X), y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        E.LogisticRegression().fit(X, y[:-1])
    e = E.LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        e.predict(X[:, :2])
    with pytest.raises(ValueError, match="lbfgs supports only"):
        E.LogisticRegression(penalty="l1").fit(X, y)
    with pytest.raises(NotImplementedError, match="solver"):
        E.LogisticRegression(solver="liblinear").fit(X, y)


def test_logistic_convergence_warning():
    X, y = _data(3)
    with pytest.warns(ConvergenceWarning):
        E.LogisticRegression(max_iter=2).fit(X, y)


def test_logistic_one_row_per_class():
    X = np.array([[0.0, 1.0], [1.0, 0.0]])
    y = np.array([0, 1])
    np.testing.assert_allclose(
        E.LogisticRegression(tol=1e-10).fit(X, y).predict_proba(X),
        _sk_logistic().fit(X, y).predict_proba(X),
        atol=1e-6,
    )


def _reg_data(seed=0, n=300, d=8):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) + 3
    y = X @ rng.normal(size=d) + rng.normal(size=n) + 5
    return X, y, np.c_[y, 2 * y + 1], rng.uniform(0.5, 2, n)


REGRESSORS = [
    ("LinearRegression", {}),
    ("Ridge", {"alpha": 3.0}),
    ("Ridge", {"alpha": 0.0}),
    ("Lasso", {"alpha": 0.1}),
    ("ElasticNet", {"alpha": 0.1, "l1_ratio": 0.3}),
    ("Lasso", {"alpha": 0.05, "positive": True}),
]


@pytest.mark.parametrize("name,params", REGRESSORS)
@pytest.mark.parametrize("multi", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_regressors_dense(name, params, multi, weighted, fit_intercept):
    X, y, Y, w = _reg_data()
    target = Y if multi else y
    kw = dict(params, fit_intercept=fit_intercept)
    if name in ("Lasso", "ElasticNet"):
        kw.update(tol=1e-12, max_iter=100000)
    sw = w if weighted else None
    e = getattr(E, name)(**kw).fit(X, target, sample_weight=sw)
    s = getattr(S, name)(**kw).fit(X, target, sample_weight=sw)
    np.testing.assert_allclose(e.coef_, s.coef_, rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(e.intercept_, s.intercept_, rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(e.predict(X), s.predict(X), rtol=1e-7)
    assert e.score(X, target) == pytest.approx(s.score(X, target), rel=1e-9)


@pytest.mark.parametrize(
    "name,params", [("LinearRegression", {}), ("Ridge", {"alpha": 2.0}), ("Lasso", {"alpha": 0.1})]
)
def test_regressors_sparse(name, params):
    X, y, _, _ = _reg_data()
    Xs = sp.csr_matrix(np.where(X > 3.5, X, 0))
    kw = dict(params)
    if name == "Lasso":
        kw.update(tol=1e-12, max_iter=100000)
    e = getattr(E, name)(**kw).fit(Xs, y)
    skw = dict(kw, solver="sparse_cg", tol=1e-12) if name == "Ridge" else kw
    s = getattr(S, name)(**skw).fit(Xs, y)
    np.testing.assert_allclose(e.coef_, s.coef_, rtol=1e-6, atol=1e-8)


def test_linear_regression_rank_deficient_min_norm():
    X, y, _, _ = _reg_data(n=20, d=4)
    X = np.c_[X, X[:, 0] * 2]
    e, s = E.LinearRegression().fit(X, y), S.LinearRegression().fit(X, y)
    np.testing.assert_allclose(e.coef_, s.coef_, atol=1e-8)
    assert e.rank_ == s.rank_ == 4


def test_regressor_errors():
    X, y, _, _ = _reg_data(n=30, d=3)
    with pytest.raises(NotFittedError):
        E.Ridge().predict(X)
    with pytest.raises(ValueError, match="NaN"):
        E.LinearRegression().fit(np.where(X > 3, np.nan, X), y)
    with pytest.raises(ValueError, match="features"):
        E.Lasso().fit(X, y).predict(X[:, :2])
    with pytest.raises(NotImplementedError, match="positive"):
        E.LinearRegression(positive=True).fit(X, y)
    with pytest.warns(ConvergenceWarning):
        E.Lasso(alpha=1e-4, max_iter=1, tol=1e-12).fit(X, y)


def test_one_row_regression():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        X, y = np.array([[1.0, 2.0]]), np.array([3.0])
        np.testing.assert_allclose(E.LinearRegression().fit(X, y).predict(X), [3.0])

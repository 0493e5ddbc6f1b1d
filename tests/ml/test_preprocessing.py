"""Preprocessing and imputation against scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import sklearn.impute as SI
import sklearn.preprocessing as S
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.exceptions import NotFittedError

import ember
import ember.ml.impute as EI
import ember.ml.preprocessing as E

RNG = np.random.default_rng(0)
X = RNG.normal(size=(50, 4)) * [1, 10, 100, 0] + [0, 5, 0, 3]
XN = X.copy()
XN[RNG.random(X.shape) < 0.2] = np.nan


def _close(a, b, rtol=1e-10):
    a = a.toarray() if sp.issparse(a) else np.asarray(ember.backend.to_host(a))
    b = b.toarray() if sp.issparse(b) else b
    np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-12)


SCALERS = [
    ("StandardScaler", {}),
    ("StandardScaler", {"with_mean": False}),
    ("StandardScaler", {"with_std": False}),
    ("MinMaxScaler", {"feature_range": (-1, 2)}),
    ("MinMaxScaler", {"clip": True}),
    ("MaxAbsScaler", {}),
    ("RobustScaler", {}),
    ("RobustScaler", {"quantile_range": (10, 90), "unit_variance": True}),
    ("RobustScaler", {"with_centering": False}),
]


@pytest.mark.parametrize("name,params", SCALERS)
@pytest.mark.parametrize("data", [X, XN, X.astype(np.float32), X[:1]], ids=["dense", "nan", "f32", "one_row"])
def test_scalers(name, params, data):
    e, s = getattr(E, name)(**params).fit(data), getattr(S, name)(**params).fit(data)
    Xt = e.transform(data)
    _close(Xt, s.transform(data), rtol=1e-5 if data.dtype == np.float32 else 1e-10)
    assert Xt.dtype == s.transform(data).dtype
    _close(e.inverse_transform(Xt), s.inverse_transform(s.transform(data)), rtol=1e-5)


def test_standard_scaler_attributes_and_weights():
    w = RNG.uniform(0, 2, len(X))
    e, s = E.StandardScaler().fit(X, sample_weight=w), S.StandardScaler().fit(X, sample_weight=w)
    _close(e.mean_, s.mean_)
    _close(e.var_, s.var_)
    _close(e.scale_, s.scale_)
    e, s = E.StandardScaler().fit(XN), S.StandardScaler().fit(XN)
    np.testing.assert_array_equal(e.n_samples_seen_, s.n_samples_seen_)


@pytest.mark.parametrize(
    "name,params",
    [
        ("StandardScaler", {"with_mean": False}),
        ("MaxAbsScaler", {}),
        ("Normalizer", {}),
        ("Normalizer", {"norm": "l1"}),
    ],
)
def test_sparse_inputs(name, params):
    Xs = sp.csr_matrix(np.where(X > 1, X, 0))
    e, s = getattr(E, name)(**params).fit(Xs), getattr(S, name)(**params).fit(Xs)
    out = e.transform(Xs)
    assert sp.issparse(out)
    _close(out, s.transform(Xs))


def test_sparse_centering_raises():
    with pytest.raises(ValueError, match="Cannot center sparse matrices"):
        E.StandardScaler().fit(sp.csr_matrix(X))


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_normalizer(norm):
    Z = np.vstack([X, np.zeros((1, 4))])
    _close(E.Normalizer(norm=norm).fit_transform(Z), S.Normalizer(norm=norm).fit_transform(Z))


@pytest.mark.parametrize(
    "params",
    [
        {"degree": 3},
        {"degree": (2, 3), "interaction_only": True, "include_bias": False},
        {"degree": 1},
        {"degree": 0},
    ],
)
def test_polynomial_features(params):
    e, s = E.PolynomialFeatures(**params).fit(X), S.PolynomialFeatures(**params).fit(X)
    _close(e.transform(X), s.transform(X))
    np.testing.assert_array_equal(e.powers_, s.powers_)
    np.testing.assert_array_equal(e.get_feature_names_out(), s.get_feature_names_out())


XI = np.round(XN, 0)
XI[:, 3] = np.nan


@pytest.mark.parametrize("strategy", ["mean", "median", "most_frequent", "constant"])
@pytest.mark.parametrize("keep", [False, True])
def test_simple_imputer(strategy, keep):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = EI.SimpleImputer(strategy=strategy, keep_empty_features=keep).fit(XI)
        s = SI.SimpleImputer(strategy=strategy, keep_empty_features=keep).fit(XI)
    _close(e.transform(XI), s.transform(XI))
    np.testing.assert_array_equal(e.get_feature_names_out(), s.get_feature_names_out())


def test_simple_imputer_numeric_missing_value():
    Z = np.array([[1.0, -1], [-1, 2], [3, -1], [3, 4]])
    e = EI.SimpleImputer(missing_values=-1, strategy="most_frequent").fit(Z)
    s = SI.SimpleImputer(missing_values=-1, strategy="most_frequent").fit(Z)
    _close(e.transform(Z), s.transform(Z))


@settings(max_examples=40, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 12), st.integers(1, 3)),
        elements=st.sampled_from([0.0, 1.0, 2.0, 2.5, -3.0, np.nan]),
    )
)
def test_imputer_median_mode_hypothesis(Z):
    for strategy in ("median", "most_frequent"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = EI.SimpleImputer(strategy=strategy).fit(Z).transform(Z)
            want = SI.SimpleImputer(strategy=strategy).fit(Z).transform(Z)
        _close(got, want)


DF = pd.DataFrame({"a": ["x", "y", "x", "z"], "b": [1, 2, 1, 3]})
XNUM = RNG.integers(0, 4, size=(30, 3)).astype(float)


@pytest.mark.parametrize("name", ["OneHotEncoder", "OrdinalEncoder"])
@pytest.mark.parametrize("data", [DF, XNUM, XNUM.astype(np.int32)], ids=["strings", "floats", "int32"])
def test_encoders(name, data):
    e, s = getattr(E, name)().fit(data), getattr(S, name)().fit(data)
    _close(e.transform(data), s.transform(data))
    for a, b in zip(e.categories_, s.categories_, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(e.get_feature_names_out(), s.get_feature_names_out())


def test_encoders_unknown():
    e = E.OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(XNUM)
    s = S.OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(XNUM)
    _close(e.transform(XNUM + 1), s.transform(XNUM + 1))
    with pytest.raises(ValueError, match="unknown categor"):
        E.OneHotEncoder().fit(XNUM).transform(XNUM + 1)
    e = E.OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1).fit(DF)
    s = S.OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1).fit(DF)
    other = pd.DataFrame({"a": ["q", "y"], "b": [1, 7]})
    _close(e.transform(other), s.transform(other))
    np.testing.assert_array_equal(e.inverse_transform(e.transform(DF)), s.inverse_transform(s.transform(DF)))
    with pytest.raises(NotImplementedError, match="drop"):
        E.OneHotEncoder(drop="first").fit(DF)


def test_label_encoder():
    y = ["b", "a", "c", "a"]
    e, s = E.LabelEncoder().fit(y), S.LabelEncoder().fit(y)
    np.testing.assert_array_equal(e.classes_, s.classes_)
    np.testing.assert_array_equal(e.transform(["a", "c"]), s.transform(["a", "c"]))
    np.testing.assert_array_equal(e.inverse_transform([0, 2]), s.inverse_transform([0, 2]))
    np.testing.assert_array_equal(E.LabelEncoder().fit_transform([3, 1, 3]), [1, 0, 1])
    encoded = E.LabelEncoder().fit_transform(ember.Series([3, 1, 3]))  # on the device under the GPU
    np.testing.assert_array_equal(ember.backend.to_host(encoded), [1, 0, 1])
    with pytest.raises(ValueError, match="previously unseen labels"):
        e.transform(["zz"])
    with pytest.raises(NotFittedError):
        E.LabelEncoder().transform(["a"])


def test_ember_frame_in_numpy_out_on_cpu():
    df = ember.DataFrame({"a": [1.0, 2.0, 4.0], "b": [4, 5, 6]})
    sc = E.StandardScaler().fit(df)
    np.testing.assert_array_equal(sc.feature_names_in_, ["a", "b"])
    _close(sc.transform(df), S.StandardScaler().fit(df.to_pandas()).transform(df.to_pandas()))


def test_unfitted_and_shape_errors():
    with pytest.raises(NotFittedError):
        E.StandardScaler().transform(X)
    with pytest.raises(ValueError, match="features"):
        E.MinMaxScaler().fit(X).transform(X[:, :2])
    with pytest.raises(ValueError, match="NaN"):
        E.PolynomialFeatures().fit(XN)

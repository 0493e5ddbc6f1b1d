"""PCA and TruncatedSVD against scikit-learn (components compared as fitted: same sign rule)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import decomposition as skd
from sklearn.datasets import load_digits, load_iris

from ember.ml.decomposition import PCA, TruncatedSVD


@pytest.fixture(scope="module")
def digits():
    return load_digits().data


@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "auto", "arpack"])
@pytest.mark.parametrize("n_components", [5, 0.8])
@pytest.mark.parametrize("whiten", [False, True])
def test_pca_exact_solvers(digits, solver, n_components, whiten):
    if solver == "arpack" and n_components == 0.8:  # arpack takes an integer n_components: both raise
        with pytest.raises(ValueError) as exc:
            skd.PCA(n_components, svd_solver=solver, whiten=whiten).fit(digits)
        with pytest.raises(type(exc.value)):
            PCA(n_components, svd_solver=solver, whiten=whiten).fit(digits)
        return
    ours = PCA(n_components, svd_solver=solver, whiten=whiten).fit(digits)
    ref = skd.PCA(n_components, svd_solver=solver, whiten=whiten).fit(digits)
    assert ours.n_components_ == ref.n_components_
    np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-8)
    np.testing.assert_allclose(ours.explained_variance_ratio_, ref.explained_variance_ratio_, rtol=1e-8)
    np.testing.assert_allclose(ours.singular_values_, ref.singular_values_, rtol=1e-8)
    np.testing.assert_allclose(ours.components_, ref.components_, atol=1e-8)
    np.testing.assert_allclose(ours.mean_, ref.mean_)
    np.testing.assert_allclose(ours.noise_variance_, ref.noise_variance_, rtol=1e-7)
    Z = ours.transform(digits)
    np.testing.assert_allclose(Z, ref.transform(digits), atol=1e-7)
    np.testing.assert_allclose(ours.inverse_transform(Z), ref.inverse_transform(Z), atol=1e-7)
    np.testing.assert_allclose(ours.fit_transform(digits), ref.transform(digits), atol=1e-7)
    np.testing.assert_allclose(ours.get_covariance(), ref.get_covariance(), atol=1e-6)


def test_pca_randomized_and_mle(digits):
    ours = PCA(6, svd_solver="randomized", random_state=0).fit(digits)
    ref = skd.PCA(6, svd_solver="randomized", random_state=0).fit(digits)
    np.testing.assert_allclose(ours.explained_variance_ratio_, ref.explained_variance_ratio_, rtol=1e-4)
    np.testing.assert_allclose(ours.noise_variance_, ref.noise_variance_, rtol=1e-4)
    np.testing.assert_allclose(np.abs(ours.components_ @ ref.components_.T), np.eye(6), atol=1e-2)
    assert PCA("mle").fit(digits).n_components_ == skd.PCA("mle").fit(digits).n_components_


def test_pca_float32_one_feature_and_errors():
    X = load_iris().data.astype(np.float32)
    ours, ref = PCA(2).fit(X), skd.PCA(2).fit(X)
    assert ours.transform(X).dtype == np.float32
    np.testing.assert_allclose(ours.transform(X), ref.transform(X), rtol=1e-4, atol=1e-4)
    col = np.arange(10.0)[:, None]
    np.testing.assert_allclose(PCA().fit_transform(col), skd.PCA().fit_transform(col))
    with pytest.raises(ValueError):
        PCA(10).fit(X)
    with pytest.raises(TypeError):
        PCA().fit(sp.random(10, 4, density=0.5, format="csr"))


@pytest.mark.parametrize("algorithm", ["randomized", "arpack"])
@pytest.mark.parametrize("sparse", [True, False])
def test_truncated_svd(algorithm, sparse):
    X = sp.random(300, 60, density=0.1, random_state=0, format="csr")
    X = X if sparse else X.toarray()
    ours = TruncatedSVD(5, algorithm=algorithm, n_iter=15, random_state=0)
    ref = skd.TruncatedSVD(5, algorithm=algorithm, n_iter=15, random_state=0)
    Zo, Zr = ours.fit_transform(X), ref.fit_transform(X)
    np.testing.assert_allclose(ours.transform(X), Zo, atol=1e-10)
    if algorithm == "randomized":  # both are approximations of a flat spectrum: compare loosely
        np.testing.assert_allclose(ours.singular_values_, ref.singular_values_, rtol=1e-2)
        np.testing.assert_allclose(
            ours.explained_variance_ratio_.sum(), ref.explained_variance_ratio_.sum(), rtol=2e-2
        )
        return
    np.testing.assert_allclose(ours.singular_values_, ref.singular_values_, rtol=1e-7)
    np.testing.assert_allclose(ours.explained_variance_ratio_, ref.explained_variance_ratio_, rtol=1e-6)
    np.testing.assert_allclose(np.abs(Zo), np.abs(Zr), atol=1e-8)
    np.testing.assert_allclose(np.abs(ours.components_), np.abs(ref.components_), atol=1e-8)


def test_pca_of_data_without_variance_reports_nan_ratios() -> None:
    """Every column constant: the explained variance ratio is 0 / 0, NaN as scikit-learn says."""
    import warnings

    import numpy as np
    from sklearn.decomposition import PCA as SkPCA

    from ember.ml.decomposition import PCA

    X = np.ones((6, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = SkPCA().fit(X)
    got = PCA().fit(X)
    np.testing.assert_array_equal(got.explained_variance_ratio_, want.explained_variance_ratio_)
    assert got.n_components_ == want.n_components_

"""scikit-learn's estimator checks over every ember estimator (CPU backend in CI, GPU with --backend gpu).

Each deviation is listed in EXPECTED_FAILURES with its reason; they are strict xfails, so a check that
starts passing must be removed from the list."""

from __future__ import annotations

import warnings

from sklearn.utils.estimator_checks import parametrize_with_checks

from ember.ml.feature_extraction.text import (
    CountVectorizer,
    HashingVectorizer,
    TfidfTransformer,
    TfidfVectorizer,
)
from ember.ml.impute import SimpleImputer
from ember.ml.linear_model import ElasticNet, Lasso, LinearRegression, LogisticRegression, Ridge
from ember.ml.preprocessing import (
    LabelEncoder,
    MaxAbsScaler,
    MinMaxScaler,
    Normalizer,
    OneHotEncoder,
    OrdinalEncoder,
    PolynomialFeatures,
    RobustScaler,
    StandardScaler,
)

ESTIMATORS = [
    HashingVectorizer(),
    CountVectorizer(),
    TfidfTransformer(),
    TfidfVectorizer(),
    LogisticRegression(),
    LinearRegression(),
    Ridge(),
    Lasso(),
    ElasticNet(),
    StandardScaler(),
    MinMaxScaler(),
    MaxAbsScaler(),
    RobustScaler(),
    Normalizer(),
    OneHotEncoder(),
    OrdinalEncoder(),
    LabelEncoder(),
    PolynomialFeatures(),
    SimpleImputer(),
]

EXPECTED_FAILURES: dict[str, dict[str, str]] = {
    "Ridge": {
        "check_non_transformer_estimators_n_iter": "Ridge is a direct (Cholesky) solve: n_iter_ is None, as "
        "scikit-learn's Ridge reports for solver='cholesky'",
    },
    "OrdinalEncoder": {
        "check_fit_idempotent": "default handle_unknown='error' raises on the check's unseen test values, "
        "as scikit-learn's own OrdinalEncoder does (scikit-learn runs this check with "
        "handle_unknown='use_encoded_value')",
    },
}


def _expected(estimator):
    return EXPECTED_FAILURES.get(type(estimator).__name__, {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected, xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(estimator)

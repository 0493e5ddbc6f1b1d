"""ember.ml.model_selection: scikit-learn's searches over ember data (on the GPU backend the documents
and labels are device-backed Series, which scikit-learn's splitters cannot read with NumPy)."""

import numpy as np
import pytest
from sklearn import model_selection as skm
from sklearn.pipeline import make_pipeline

import ember
from ember.ml.datasets import make_topic_documents
from ember.ml.ensemble import RandomForestClassifier, RandomForestRegressor
from ember.ml.feature_extraction.text import HashingVectorizer, TfidfTransformer
from ember.ml.linear_model import LogisticRegression
from ember.ml.model_selection import GridSearchCV, RandomizedSearchCV


def _pipeline():
    return make_pipeline(HashingVectorizer(n_features=2**12), TfidfTransformer(), LogisticRegression())


def test_randomized_search_on_ember_series_matches_host_search():
    docs, labels = make_topic_documents(240, n_topics=3, random_state=0)
    params = {"logisticregression__C": [0.1, 1.0, 10.0]}
    ours = RandomizedSearchCV(_pipeline(), params, n_iter=2, cv=3, random_state=0)
    ours.fit(ember.Series(list(docs)), ember.Series(np.asarray(labels)))
    ref = skm.RandomizedSearchCV(_pipeline(), params, n_iter=2, cv=3, random_state=0).fit(list(docs), labels)
    assert ours.best_params_ == ref.best_params_
    assert ours.best_score_ == pytest.approx(ref.best_score_)
    score = ours.score(ember.Series(list(docs)), ember.Series(np.asarray(labels)))
    assert score == pytest.approx(ref.score(list(docs), labels))


def test_grid_search_is_sklearn_grid_search():
    assert issubclass(GridSearchCV, skm.GridSearchCV)
    X = ember.DataFrame({"a": np.arange(60.0) % 7, "b": np.arange(60.0) % 5})
    a, b = np.arange(60) % 7, np.arange(60) % 5
    y = ember.Series(((a > 3) ^ (b > 2)).astype(np.int64))  # one split cannot separate: depth matters
    grid = {"max_depth": [1, 6]}
    search = GridSearchCV(RandomForestClassifier(5, random_state=0), grid, cv=2).fit(X, y)
    # the same search by scikit-learn's class on host arrays: the same scores per candidate and choice
    ref = skm.GridSearchCV(RandomForestClassifier(5, random_state=0), grid, cv=2)
    ref.fit(X.to_pandas().to_numpy(), y.to_pandas().to_numpy())
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], ref.cv_results_["mean_test_score"])
    assert search.best_params_ == ref.best_params_
    assert search.best_score_ == pytest.approx(ref.best_score_)
    # the candidates differ, so the choice means something: a forest of stumps is additive in a and b,
    # and each test fold holds all four corners of some XOR rectangle, so depth 1 cannot score 1.0 on
    # any random stream (on y = a > 3 a single stump scored 1.0 like depth 6 for most streams)
    depth1, depth6 = ref.cv_results_["mean_test_score"]
    assert depth1 < 1.0 and depth1 < depth6


def test_forest_scores_ember_inputs_like_sklearn_metrics():
    rng = np.random.default_rng(0)
    Xh = rng.normal(size=(300, 4))
    yc = (Xh[:, 0] > 0).astype(np.int64)
    yr = Xh[:, 0] * 2 + Xh[:, 1]
    X = ember.DataFrame({f"f{i}": Xh[:, i] for i in range(4)})
    clf = RandomForestClassifier(10, random_state=0).fit(X, ember.Series(yc))
    pred = ember.backend.to_host(clf.predict(X))
    assert clf.score(X, ember.Series(yc)) == pytest.approx(float((pred == yc).mean()))
    reg = RandomForestRegressor(10, random_state=0).fit(X, ember.Series(yr))
    p = ember.backend.to_host(reg.predict(X))
    r2 = 1 - ((yr - p) ** 2).sum() / ((yr - yr.mean()) ** 2).sum()
    assert reg.score(X, ember.Series(yr)) == pytest.approx(r2)

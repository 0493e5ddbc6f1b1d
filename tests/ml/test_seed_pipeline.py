"""The issue's seed program, run as written with ember's estimators swapped in:

    pipeline = make_pipeline(HashingVectorizer(), TfidfTransformer(), LogisticRegression())
    RandomizedSearchCV(pipeline, ...).fit(data, labels)

on ember's generated topic dataset, checked against the same program with scikit-learn's estimators.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.feature_extraction import text as sk_text
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.model_selection import GridSearchCV, RandomizedSearchCV, cross_val_score
from sklearn.pipeline import FeatureUnion, make_pipeline

import ember
from ember.ml.datasets import make_topic_documents
from ember.ml.feature_extraction.text import HashingVectorizer, TfidfTransformer, TfidfVectorizer
from ember.ml.linear_model import LogisticRegression
from ember.ml.preprocessing import StandardScaler

DATA, LABELS = make_topic_documents(600, n_topics=3, random_state=0)
GRID = {
    "hashingvectorizer__n_features": [2**10, 2**14],
    "logisticregression__C": [0.3, 1.0, 10.0],
    "hashingvectorizer__ngram_range": [(1, 1), (1, 2)],
    "tfidftransformer__norm": ["l1", "l2"],
}


def _search(pipeline):
    search = RandomizedSearchCV(pipeline, GRID, n_iter=5, cv=3, random_state=0)
    return search.fit(DATA, LABELS)


def test_seed_pipeline_matches_sklearn():
    ours = _search(make_pipeline(HashingVectorizer(), TfidfTransformer(), LogisticRegression()))
    theirs = _search(
        make_pipeline(sk_text.HashingVectorizer(), sk_text.TfidfTransformer(), SkLogisticRegression())
    )
    assert ours.best_params_ == theirs.best_params_
    np.testing.assert_allclose(
        ours.cv_results_["mean_test_score"], theirs.cv_results_["mean_test_score"], atol=0.01
    )
    assert ours.best_score_ > 0.9
    test_docs, _ = make_topic_documents(200, n_topics=3, random_state=1)
    agree = (ours.predict(test_docs) == theirs.predict(test_docs)).mean()
    assert agree > 0.98
    np.testing.assert_allclose(ours.predict_proba(test_docs), theirs.predict_proba(test_docs), atol=0.02)


def test_seed_pipeline_on_ember_series():
    pipe = make_pipeline(HashingVectorizer(n_features=2**14), TfidfTransformer(), LogisticRegression())
    docs = ember.Series(DATA)
    pipe.fit(docs, LABELS)
    host = make_pipeline(HashingVectorizer(n_features=2**14), TfidfTransformer(), LogisticRegression())
    host.fit(DATA, LABELS)
    # the dataset has one non-ASCII capital-free vocabulary, so device ASCII lowercasing is exact here
    np.testing.assert_array_equal(np.asarray(ember.backend.to_host(pipe.predict(docs))), host.predict(DATA))


def test_grid_search_and_cross_val_score_with_tfidf_vectorizer():
    pipe = make_pipeline(TfidfVectorizer(min_df=2), LogisticRegression())
    scores = cross_val_score(pipe, DATA, LABELS, cv=3)
    assert scores.min() > 0.9
    grid = GridSearchCV(pipe, {"tfidfvectorizer__ngram_range": [(1, 1), (1, 2)]}, cv=2).fit(DATA, LABELS)
    assert grid.best_score_ > 0.9


def test_column_transformer_and_feature_union():
    import pandas as pd

    frame = pd.DataFrame({"text": DATA, "length": [len(d) for d in DATA]})
    ct = ColumnTransformer(
        [("words", HashingVectorizer(n_features=2**12), "text"), ("len", StandardScaler(), ["length"])]
    )
    model = make_pipeline(ct, LogisticRegression(max_iter=300)).fit(frame, LABELS)
    assert model.score(frame, LABELS) > 0.9
    union = FeatureUnion([("h", HashingVectorizer(n_features=2**10)), ("t", TfidfVectorizer())])
    assert union.fit_transform(DATA).shape == (
        len(DATA),
        2**10 + len(TfidfVectorizer().fit(DATA).vocabulary_),
    )


@pytest.mark.gpu
def test_seed_pipeline_returns_device_output_for_ember_input():
    pipe = make_pipeline(HashingVectorizer(), TfidfTransformer(), LogisticRegression())
    pipe.fit(ember.Series(DATA), LABELS)
    proba = pipe.predict_proba(ember.Series(DATA))
    assert ember.backend.is_device_array(proba)

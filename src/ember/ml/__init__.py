"""scikit-learn-compatible estimators on the active device (CuPy on the GPU, NumPy on the CPU).

Submodules mirror scikit-learn's: ``ember.ml.feature_extraction.text``, ``ember.ml.linear_model``,
``ember.ml.preprocessing``, ``ember.ml.impute``, ``ember.ml.metrics``. Importing ``ember`` does not
import this package (nor scikit-learn / scipy); importing it does.

The seed program, with ember's estimators swapped in, on the text dataset ember generates:

>>> from sklearn.model_selection import RandomizedSearchCV
>>> from sklearn.pipeline import make_pipeline
>>> from ember.ml.datasets import make_topic_documents
>>> from ember.ml.feature_extraction.text import HashingVectorizer, TfidfTransformer
>>> from ember.ml.linear_model import LogisticRegression
>>> data, labels = make_topic_documents(300, n_topics=2)
>>> pipeline = make_pipeline(HashingVectorizer(), TfidfTransformer(), LogisticRegression())
>>> search = RandomizedSearchCV(pipeline, {"logisticregression__C": [0.1, 1.0, 10.0]}, n_iter=2, cv=3,
...                             random_state=0).fit(data, labels)
>>> bool(search.best_score_ > 0.9)
True

Inputs: ember DataFrame/Series, pandas, NumPy, CuPy, scipy / cupyx sparse, lists of str. Outputs follow
the input's kind: host in -> NumPy / scipy out; ember or CuPy in -> device arrays out on the GPU backend.
"""

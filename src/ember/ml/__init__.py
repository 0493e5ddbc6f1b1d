"""scikit-learn-compatible estimators on the active device (CuPy on the GPU, NumPy on the CPU).

Submodules mirror scikit-learn's: ``ember.ml.feature_extraction.text``, ``ember.ml.linear_model``,
``ember.ml.preprocessing``, ``ember.ml.impute``, ``ember.ml.metrics``. Importing ``ember`` does not
import this package (nor scikit-learn / scipy); importing it does.
"""

"""Linear models on the device, mirroring ``sklearn.linear_model``."""

from ember.ml.linear_model._coordinate_descent import ElasticNet, Lasso
from ember.ml.linear_model._linear import LinearRegression, Ridge
from ember.ml.linear_model._logistic import LogisticRegression

__all__ = ["ElasticNet", "Lasso", "LinearRegression", "LogisticRegression", "Ridge"]

"""scikit-learn's hyper-parameter searches for ember data: ``GridSearchCV`` and ``RandomizedSearchCV``.

They are scikit-learn's classes; the one difference is that ``fit`` brings the target ``y`` to the host
once, explicitly, because scikit-learn's splitters (StratifiedKFold's class counts) read it with NumPy.
``X`` stays where it is: an ember DataFrame/Series on the GPU is sliced per fold with ``.iloc``, and the
estimators in the pipeline run on the device.
"""

from __future__ import annotations

from typing import Any

from sklearn import model_selection as _sk

from ember.ml._base import host_y

__all__ = ["GridSearchCV", "RandomizedSearchCV"]


class _HostTargetSearch:
    def fit(self, X: Any, y: Any = None, **params: Any) -> Any:
        return super().fit(X, None if y is None else host_y(y), **params)

    def score(self, X: Any, y: Any = None, **params: Any) -> float:
        return super().score(X, None if y is None else host_y(y), **params)


class GridSearchCV(_HostTargetSearch, _sk.GridSearchCV):
    __doc__ = _sk.GridSearchCV.__doc__


class RandomizedSearchCV(_HostTargetSearch, _sk.RandomizedSearchCV):
    __doc__ = _sk.RandomizedSearchCV.__doc__

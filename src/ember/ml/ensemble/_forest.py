"""RandomForestClassifier and RandomForestRegressor on the device, drop-ins for scikit-learn's.

The data are binned once (``_tree.quantile_edges``: at most ``max_bins`` quantile bins per feature,
exact for features with fewer distinct values); each tree draws its bootstrap as per-row counts on the
device; trees grow level-wise on histograms, a batch of trees at once (``_tree.grow_trees``).
Prediction walks all trees at once.

Differences from scikit-learn, by design: split thresholds are chosen among the bin edges (identical
to scikit-learn's when a feature has fewer than ``max_bins`` distinct values); a node whose sampled
features offer no valid split becomes a leaf (scikit-learn draws further features); random streams
differ, so forests are equally accurate, not identical. Unsupported: ``max_leaf_nodes`` (best-first
growth), ``ccp_alpha`` > 0, ``monotonic_cst``, ``warm_start``, multi-output targets, missing values.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral
from types import ModuleType
from typing import Any

import numpy as np
from sklearn import ensemble as _sk
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.ml._base import (
    DEVICE,
    check_sample_weight,
    compute_xp,
    host_y,
    to_output,
    unique_inverse,
    validate_data,
)
from ember.ml._mixins import ClassifierMixin, RegressorMixin
from ember.ml.ensemble._tree import (
    GrowParams,
    bin_data,
    grow_trees,
    predict_values,
    quantile_edges,
    stack_trees,
)

_MAX_INT = np.iinfo(np.int32).max
# Bootstrap rows grown together (trees per batch = this // rows per tree): on the device a batch of
# 16 one-million-row trees takes a few GB at the widest level; a tree alone leaves the device idle.
# NumPy gains nothing from large batches (its time is in the arrays, not the calls): small ones there.
_BATCH_DEVICE = 1 << 24
_BATCH_HOST = 1 << 16


class _Forest(BaseEstimator):
    """Fitting, prediction plumbing, importances and out-of-bag scoring shared by both forests."""

    _classification = False

    def _check_unsupported(self) -> None:
        name = type(self).__name__
        if self.max_leaf_nodes is not None:
            raise NotImplementedError(
                f"{name}: max_leaf_nodes is not supported (trees grow level-wise); use max_depth"
            )
        if self.ccp_alpha != 0.0:
            raise NotImplementedError(f"{name}: ccp_alpha > 0 (pruning) is not supported; use 0.0")
        if self.monotonic_cst is not None:
            raise NotImplementedError(f"{name}: monotonic_cst is not supported; use None")
        if self.warm_start:
            raise NotImplementedError(f"{name}: warm_start=True is not supported; refit with more trees")
        if self.oob_score and not self.bootstrap:
            raise ValueError("Out of bag estimation only available if bootstrap=True")
        if not isinstance(self.max_bins, Integral) or not 2 <= self.max_bins <= 65536:
            raise ValueError(f"max_bins must be an integer in [2, 65536], got {self.max_bins!r}")

    def _grow_params(self, n: int, p: int, n_classes: int, total_w: float) -> GrowParams:
        mss, msl = self.min_samples_split, self.min_samples_leaf
        mss = mss if isinstance(mss, Integral) else max(2, math.ceil(mss * n))
        msl = msl if isinstance(msl, Integral) else max(1, math.ceil(msl * n))
        mf = self.max_features
        if mf == "sqrt":
            mtry = max(1, int(np.sqrt(p)))
        elif mf == "log2":
            mtry = max(1, int(np.log2(p)))
        elif mf is None:
            mtry = p
        elif isinstance(mf, Integral):
            if mf > p:
                raise ValueError(f"max_features must be <= n_features ({p}), got {mf}")
            mtry = int(mf)
        else:
            mtry = max(1, int(mf * p))
        criterion = "entropy" if self.criterion == "log_loss" else self.criterion
        if criterion not in ("gini", "entropy", "squared_error"):
            raise NotImplementedError(
                f"{type(self).__name__}: criterion={self.criterion!r} is not supported; "
                "use 'gini', 'entropy', 'log_loss' or 'squared_error'"
            )
        return GrowParams(
            classification=self._classification,
            criterion=criterion,
            n_classes=n_classes,
            max_depth=self.max_depth if self.max_depth is not None else 1 << 30,
            min_samples_split=int(mss),
            min_samples_leaf=int(msl),
            min_weight_leaf=self.min_weight_fraction_leaf * total_w,
            min_impurity_decrease=float(self.min_impurity_decrease),
            max_features=mtry,
        )

    def _n_boot(self, n: int) -> int:
        ms = self.max_samples
        if ms is None or not self.bootstrap:
            return n
        if isinstance(ms, Integral):
            if ms > n:
                raise ValueError(f"`max_samples` must be <= n_samples={n} but got value {ms}")
            return int(ms)
        return max(round(n * ms), 1)

    def _fit_forest(self, X: Any, y: Any, sw: Any, n_classes: int, xp: ModuleType) -> None:
        """Bin, then grow ``n_estimators`` trees in batches; keeps the trees stacked for prediction."""
        n, p = X.shape
        rs = check_random_state(self.random_state)
        edges = quantile_edges(X, self.max_bins, xp, rs)
        Xb = bin_data(X, edges, xp)
        params = self._grow_params(n, p, n_classes, float(backend.to_host(sw.sum())))
        n_boot = self._n_boot(n)
        seeds = rs.randint(_MAX_INT, size=self.n_estimators)
        per_batch = max(1, (_BATCH_DEVICE if xp is not np else _BATCH_HOST) // max(n_boot, 1))
        batch_seeds = rs.randint(_MAX_INT, size=-(-self.n_estimators // per_batch))
        trees: list[Any] = []
        oob_sum = xp.zeros((n, n_classes if self._classification else 1)) if self.oob_score else None
        oob_n = xp.zeros(n) if self.oob_score else None
        for b, lo in enumerate(range(0, self.n_estimators, per_batch)):  # each batch grows its trees at once
            counts = [
                self._bootstrap(n, n_boot, np.random.RandomState(s), xp) for s in seeds[lo : lo + per_batch]
            ]
            ws = [self._tree_weights(sw, c, y, n_classes, xp) for c in counts]
            batch = grow_trees(Xb, edges, y, ws, params, xp, np.random.RandomState(batch_seeds[b]))
            trees.extend(batch)
            if self.oob_score:
                out_of_bag = xp.stack([c == 0 for c in counts], axis=1)
                vals, k = predict_values(stack_trees(batch, xp), X, xp, mask=out_of_bag)
                oob_sum += vals
                oob_n += k
        self.estimators_ = trees
        self._stacked = stack_trees(trees, xp)
        self._n_features = p
        if self.oob_score:
            self._oob(oob_sum, oob_n, y, xp)

    def _tree_weights(self, sw: Any, counts: Any, y: Any, n_classes: int, xp: ModuleType) -> Any:
        """One tree's row weights: sample weight x bootstrap count (x per-bootstrap class weights)."""
        w = sw * counts
        if self.class_weight == "balanced_subsample":
            w = w * _balanced(y, counts, n_classes, xp)[y]
        return w

    def _bootstrap(self, n: int, n_boot: int, rs: np.random.RandomState, xp: ModuleType) -> Any:
        if not self.bootstrap:
            return xp.ones(n, dtype=xp.float64)
        gen = xp.random.RandomState(rs.randint(_MAX_INT))
        return xp.bincount(gen.randint(0, n, n_boot), minlength=n).astype(xp.float64)

    def _oob(self, oob_sum: Any, oob_n: Any, y: Any, xp: ModuleType) -> None:
        if bool(backend.to_host((oob_n == 0).any())):
            warnings.warn(
                "Some inputs do not have OOB scores. This probably means too few trees were used to "
                "compute any reliable OOB estimates.",
                UserWarning,
                stacklevel=3,
            )
        pred = oob_sum / xp.where(oob_n == 0, 1, oob_n)[:, None]
        self._set_oob(backend.to_host(pred), backend.to_host(y))

    @property
    def feature_importances_(self) -> np.ndarray:
        """Mean over trees of each tree's normalised impurity decrease per feature (sums to 1)."""
        check_is_fitted(self, "_stacked")
        xp = backend.array_module(self._stacked.feature)
        imp = sum(t.importances(self._n_features, xp) for t in self.estimators_) / len(self.estimators_)
        total = float(backend.to_host(imp.sum()))
        return backend.to_host(imp / total) if total > 0 else backend.to_host(imp)

    def _values(self, X: Any) -> tuple[Any, str]:
        check_is_fitted(self, "_stacked")
        X, kind = validate_data(self, X, dtype=np.float32, reset=False)
        xp = compute_xp()
        total, count = predict_values(self._stacked, X, xp)
        return total / count[:, None], kind

    def _validate_fit(self, X: Any, y: Any, sample_weight: Any) -> tuple[Any, np.ndarray, Any]:
        self._validate_params()
        self._check_unsupported()
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        yh = host_y(y)
        X = self._validate_xy(X, y, yh)
        if yh.ndim == 2 and yh.shape[1] > 1:
            raise NotImplementedError(
                f"{type(self).__name__}: multi-output y is not supported; fit one forest per output"
            )
        if yh.ndim == 2:
            from sklearn.exceptions import DataConversionWarning

            warnings.warn(
                "A column-vector y was passed when a 1d array was expected. Please change the shape "
                "of y to (n_samples,), for example using ravel().",
                DataConversionWarning,
                stacklevel=3,
            )
            yh = yh.ravel()
        sw = check_sample_weight(sample_weight, X.shape[0], compute_xp())
        return X, yh, sw

    def _validate_xy(self, X: Any, y: Any, yh: np.ndarray) -> Any:
        """X as float32 on the compute device; y checked by the same call (labels stay on the host)."""
        y_check = np.zeros(yh.shape[0]) if yh.dtype.kind in "OUS" else y
        Xv, _, _ = validate_data(
            self, X, y_check, dtype=np.float32, multi_output=True, y_numeric=not self._classification
        )
        return Xv

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.target_tags.multi_output = False
        return tags


def _balanced(y: Any, counts: Any, n_classes: int, xp: ModuleType) -> Any:
    """'balanced_subsample' class weights from one bootstrap: n / (n_classes * weighted class count)."""
    per_class = xp.bincount(y, weights=counts, minlength=n_classes)
    present = per_class > 0
    k = present.sum()
    return xp.where(present, counts.sum() / (k * xp.where(present, per_class, 1)), 0.0)


class RandomForestClassifier(ClassifierMixin, _Forest):
    """Random forest of histogram trees, like ``sklearn.ensemble.RandomForestClassifier``.

    ``max_bins`` (default 256) bounds the candidate thresholds per feature; the other parameters are
    scikit-learn's (see the module docstring for the unsupported ones).
    """

    _classification = True
    _parameter_constraints = dict(_sk.RandomForestClassifier._parameter_constraints)
    _parameter_constraints["max_bins"] = [Integral]

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features="sqrt",
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        bootstrap=True,
        oob_score=False,
        n_jobs=None,
        random_state=None,
        verbose=0,
        warm_start=False,
        class_weight=None,
        ccp_alpha=0.0,
        max_samples=None,
        monotonic_cst=None,
        max_bins=256,
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.warm_start = warm_start
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples
        self.monotonic_cst = monotonic_cst
        self.max_bins = max_bins

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> RandomForestClassifier:
        """Grow the forest on (X, y); labels may be any sortable type (encoded on the host)."""
        X, yh, sw = self._validate_fit(X, y, sample_weight)
        check_classification_targets(yh)
        classes, codes = unique_inverse(yh)
        xp = compute_xp()
        if self.class_weight is not None and self.class_weight != "balanced_subsample":
            from sklearn.utils.class_weight import compute_sample_weight

            sw = sw * backend.asarray_on(compute_sample_weight(self.class_weight, yh), xp)
        self.classes_ = classes
        self.n_classes_ = len(classes)
        self.n_outputs_ = 1
        self._fit_forest(X, backend.asarray_on(codes.astype(np.int64), xp), sw, len(classes), xp)
        return self

    def _set_oob(self, pred: np.ndarray, y: np.ndarray) -> None:
        self.oob_decision_function_ = pred
        self.oob_score_ = float((pred.argmax(axis=1) == y).mean())

    def predict_proba(self, X: Any) -> Any:
        """Mean over trees of the leaf class fractions."""
        proba, kind = self._values(X)
        return to_output(proba, kind)

    def predict_log_proba(self, X: Any) -> Any:
        proba, kind = self._values(X)
        with np.errstate(divide="ignore"):
            return to_output(backend.array_module(proba).log(proba), kind)

    def predict(self, X: Any) -> Any:
        """The class of highest mean probability."""
        proba, kind = self._values(X)
        idx = proba.argmax(axis=1)
        if kind == DEVICE and self.classes_.dtype.kind in "biuf":
            return backend.asarray_on(self.classes_, compute_xp())[idx]
        return self.classes_[backend.to_host(idx)]


class RandomForestRegressor(RegressorMixin, _Forest):
    """Random forest of histogram regression trees, like ``sklearn.ensemble.RandomForestRegressor``."""

    _parameter_constraints = dict(_sk.RandomForestRegressor._parameter_constraints)
    _parameter_constraints["max_bins"] = [Integral]

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="squared_error",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features=1.0,
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        bootstrap=True,
        oob_score=False,
        n_jobs=None,
        random_state=None,
        verbose=0,
        warm_start=False,
        ccp_alpha=0.0,
        max_samples=None,
        monotonic_cst=None,
        max_bins=256,
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.warm_start = warm_start
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples
        self.monotonic_cst = monotonic_cst
        self.max_bins = max_bins

    class_weight = None  # the shared fitting code reads it

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> RandomForestRegressor:
        """Grow the forest on (X, y) with the squared-error criterion."""
        X, yh, sw = self._validate_fit(X, y, sample_weight)
        xp = compute_xp()
        self.n_outputs_ = 1
        yv = backend.asarray_on(yh.astype(np.float64), xp)
        self._fit_forest(X, yv, sw, 1, xp)
        return self

    def _set_oob(self, pred: np.ndarray, y: np.ndarray) -> None:
        from sklearn.metrics import r2_score

        self.oob_prediction_ = pred[:, 0]
        self.oob_score_ = float(r2_score(y, pred[:, 0]))

    def predict(self, X: Any) -> Any:
        """Mean over trees of the leaf means."""
        vals, kind = self._values(X)
        return to_output(vals[:, 0], kind)

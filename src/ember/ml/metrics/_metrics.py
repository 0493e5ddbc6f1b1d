"""Metrics computed on the device: accuracy, r2, log loss, ROC AUC, confusion matrix.

Inputs may be ember Series, NumPy / CuPy arrays, pandas or lists. Numeric inputs are computed with the
compute module (CuPy on the GPU backend); string labels, which cannot live on the device, are computed
with NumPy. Scalar metrics return Python floats (one sync); matrices keep the kind of their inputs.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ember import backend
from ember.ml._base import DEVICE, HOST, compute_xp, to_output


def _as_array(a: Any) -> Any:
    if type(a).__module__.startswith("ember."):
        col = getattr(a, "column", None)
        if (
            col is not None
            and getattr(col, "mask", 1) is None
            and hasattr(col, "data")
            and not hasattr(col, "chars")
        ):
            return col.data
        return a.to_pandas().to_numpy()
    if backend.is_device_array(a):
        return a
    if hasattr(a, "to_numpy"):
        return a.to_numpy()
    return np.asarray(a)


def _arrays(*arrays: Any) -> tuple[ModuleType, str, list[Any]]:
    """(module, output kind, arrays on that module's device); None entries pass through."""
    arrs = [None if a is None else _as_array(a) for a in arrays]
    kind = DEVICE if any(backend.is_device_array(a) for a in arrs if a is not None) else HOST
    if any(a is not None and a.dtype.kind in "OUSTM" for a in arrs):
        return np, kind, [None if a is None else backend.to_host(a) for a in arrs]
    xp = compute_xp()
    return xp, kind, [None if a is None else backend.asarray_on(a, xp) for a in arrs]


def _check_lengths(*arrays: Any) -> None:
    lengths = [int(a.shape[0]) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths}")


def _float(x: Any) -> float:
    return float(backend.to_host(x))


def _weights(sample_weight: Any, n: int, xp: ModuleType) -> Any:
    if sample_weight is None:
        return xp.ones(n, dtype=xp.float64)
    return sample_weight.astype(xp.float64)


def accuracy_score(y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None) -> float:
    """Fraction (or, with normalize=False, weighted count) of exactly matching labels."""
    xp, _, (t, p, w) = _arrays(y_true, y_pred, sample_weight)
    _check_lengths(t, p, w)
    if t.ndim > 1 or p.ndim > 1:
        raise NotImplementedError("accuracy_score: ember supports 1-D label arrays (no multilabel input).")
    hit = (t == p).astype(xp.float64)
    if normalize:
        if w is None:
            return _float(hit.mean()) if hit.shape[0] else float("nan")
        return _float((hit * w).sum() / w.sum())
    return _float(hit.sum() if w is None else (hit * w).sum())


def r2_score(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    multioutput: Any = "uniform_average",
    force_finite: bool = True,
) -> Any:
    """Coefficient of determination, per output then averaged as ``multioutput`` says."""
    xp, kind, (t, p, w) = _arrays(y_true, y_pred, sample_weight)
    _check_lengths(t, p, w)
    if t.shape[0] < 2:
        import warnings

        from sklearn.exceptions import UndefinedMetricWarning

        warnings.warn("R^2 score is not well-defined with less than two samples.", UndefinedMetricWarning)
        return float("nan")
    t2 = t.reshape(t.shape[0], -1).astype(xp.float64)
    p2 = p.reshape(p.shape[0], -1).astype(xp.float64)
    if t2.shape[1] != p2.shape[1]:
        raise ValueError(f"y_true and y_pred have different number of output ({t2.shape[1]}!={p2.shape[1]})")
    w = _weights(w, t2.shape[0], xp)[:, None]
    num = (w * (t2 - p2) ** 2).sum(axis=0)
    mean = (w * t2).sum(axis=0) / w.sum()
    den = (w * (t2 - mean) ** 2).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = 1 - num / den
    if force_finite:
        scores = xp.where(den == 0, xp.where(num == 0, 1.0, 0.0), scores)
    if isinstance(multioutput, str) and multioutput == "raw_values":
        return to_output(scores, kind)
    if isinstance(multioutput, str) and multioutput == "variance_weighted":
        if not force_finite or bool(backend.to_host((den != 0).any())):
            return _float((scores * den).sum() / den.sum())
        return _float(scores.mean())
    if isinstance(multioutput, str):
        if multioutput != "uniform_average":
            raise ValueError(
                f"Allowed 'multioutput' string values are ('raw_values', 'uniform_average', "
                f"'variance_weighted'). You provided multioutput={multioutput!r}."
            )
        return _float(scores.mean())
    mw = backend.asarray_on(np.asarray(multioutput, dtype=np.float64), xp)
    return _float((scores * mw).sum() / mw.sum())


def _encode(t: Any, labels: Any, xp: ModuleType) -> tuple[Any, Any]:
    """(sorted class labels, positions of ``t`` in them)."""
    classes = xp.unique(t) if labels is None else xp.asarray(np.unique(np.asarray(labels)))
    pos = xp.searchsorted(classes, t)
    pos = xp.minimum(pos, classes.shape[0] - 1)
    if not bool(backend.to_host((classes[pos] == t).all())):
        raise ValueError("y_true contains values not belonging to the passed labels")
    return classes, pos


def log_loss(
    y_true: Any, y_proba: Any = None, *, normalize: bool = True, sample_weight: Any = None, labels: Any = None
) -> float:
    """Cross-entropy of predicted probabilities (columns in sorted label order), clipped at eps."""
    xp, _, (t, p, w) = _arrays(y_true, y_proba, sample_weight)
    _check_lengths(t, p, w)
    if xp is np and p.dtype.kind in "OUS":
        raise ValueError("y_proba must be numeric")
    p = backend.asarray_on(p, xp) if xp is not np else backend.to_host(p)
    classes, pos = _encode(t, labels, xp)
    if classes.shape[0] == 1:
        raise ValueError(
            f"y_true contains only one label ({backend.to_host(classes)[0]}). Please provide the list of all expected "
            "class labels explicitly through the labels argument."
        )
    p = p.astype(xp.float64) if p.dtype.kind != "f" else p
    if p.ndim == 1:
        p = xp.stack([1 - p, p], axis=1)
    if p.shape[1] != classes.shape[0]:
        raise ValueError(
            f"y_true and y_prob contain different number of classes: {classes.shape[0]} vs "
            f"{p.shape[1]}. Please provide the true labels explicitly through the labels argument."
        )
    eps = np.finfo(p.dtype).eps
    picked = xp.clip(p[xp.arange(p.shape[0]), pos], eps, 1 - eps)
    loss = -xp.log(picked)
    w = _weights(w, loss.shape[0], xp)
    total = (loss * w).sum()
    return _float(total / w.sum() if normalize else total)


def _binary_auc(y: Any, score: Any, w: Any, xp: ModuleType) -> Any:
    """Area under the ROC curve of binary 0/1 ``y`` (trapezoids over distinct thresholds)."""
    order = xp.argsort(-score, kind="stable") if xp is np else xp.argsort(-score)
    s, yy, ww = score[order], y[order].astype(xp.float64), w[order]
    tps, fps = xp.cumsum(yy * ww), xp.cumsum((1 - yy) * ww)
    last = xp.ones(s.shape[0], dtype=bool)
    last[:-1] = s[1:] != s[:-1]
    tps = xp.concatenate([xp.zeros(1), tps[last]])
    fps = xp.concatenate([xp.zeros(1), fps[last]])
    area = ((fps[1:] - fps[:-1]) * (tps[1:] + tps[:-1]) / 2).sum()
    return area / (tps[-1] * fps[-1])


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: Any = "macro",
    sample_weight: Any = None,
    max_fpr: Any = None,
    multi_class: str = "raise",
    labels: Any = None,
) -> float:
    """ROC AUC for binary labels, or one-vs-rest (``multi_class='ovr'``) for multiclass scores."""
    if max_fpr is not None:
        raise NotImplementedError("roc_auc_score(max_fpr=...): ember supports max_fpr=None only.")
    xp, _, (t, s, w) = _arrays(y_true, y_score, sample_weight)
    _check_lengths(t, s, w)
    if xp is np and t.dtype.kind in "OUS":
        s = backend.to_host(s)
    classes, pos = _encode(t, labels, xp)
    w = _weights(w, t.shape[0], xp)
    s = s.astype(xp.float64)
    n_classes = int(classes.shape[0])
    if s.ndim == 1 or (s.ndim == 2 and s.shape[1] == 1 and n_classes <= 2):
        if n_classes != 2:
            raise ValueError(
                "Only one class is present in y_true. ROC AUC score is not defined in that case."
            )
        return _float(_binary_auc(pos == 1, s.ravel(), w, xp))
    if multi_class != "ovr":
        raise NotImplementedError(
            f"roc_auc_score(multi_class={multi_class!r}): ember supports 'ovr' for multiclass scores."
        )
    per_class = xp.stack([_binary_auc(pos == k, s[:, k], w, xp) for k in range(n_classes)])
    if average == "weighted":
        support = xp.bincount(pos, weights=w, minlength=n_classes)
        return _float((per_class * support).sum() / support.sum())
    if average != "macro":
        raise NotImplementedError(
            f"roc_auc_score(average={average!r}): ember supports 'macro' and 'weighted'."
        )
    return _float(per_class.mean())


def confusion_matrix(
    y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None, normalize: Any = None
) -> Any:
    """C[i, j]: (weighted) count of samples of true label i predicted as j, labels sorted."""
    xp, kind, (t, p, w) = _arrays(y_true, y_pred, sample_weight)
    _check_lengths(t, p, w)
    if t.shape[0] == 0:
        raise ValueError(
            "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 sample is required."
        )
    if normalize not in ("true", "pred", "all", None):
        raise ValueError("normalize must be one of {'true', 'pred', 'all', None}")
    if labels is None:
        lab = xp.unique(xp.concatenate([t, p]))
    else:
        lab_h = np.asarray(labels)
        if lab_h.size == 0:
            raise ValueError("'labels' should contains at least one label.")
        lab = backend.asarray_on(lab_h, xp) if xp is not np else lab_h
    n = int(lab.shape[0])
    order = xp.argsort(lab)
    sorted_lab = lab[order]
    ti = xp.minimum(xp.searchsorted(sorted_lab, t), n - 1)
    pi = xp.minimum(xp.searchsorted(sorted_lab, p), n - 1)
    keep = (sorted_lab[ti] == t) & (sorted_lab[pi] == p)
    ti, pi = order[ti[keep]], order[pi[keep]]
    if w is None:
        cm = xp.bincount(ti * n + pi, minlength=n * n).reshape(n, n).astype(xp.int64)
    else:
        ww = w[keep].astype(xp.float64)
        cm = xp.bincount(ti * n + pi, weights=ww, minlength=n * n).reshape(n, n)
        if w.dtype.kind in "iub":
            cm = cm.astype(xp.int64)
    if normalize is not None:
        cm = cm.astype(xp.float64)
        with np.errstate(all="ignore"):
            if normalize == "true":
                cm = cm / cm.sum(axis=1, keepdims=True)
            elif normalize == "pred":
                cm = cm / cm.sum(axis=0, keepdims=True)
            else:
                cm = cm / cm.sum()
        cm = xp.nan_to_num(cm)
    return to_output(cm, kind)

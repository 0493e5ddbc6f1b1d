"""The one validation entry point of ember's estimators.

Every estimator turns its inputs into arrays of the *compute* module ``xp`` (CuPy when ember's current
device is the GPU, NumPy otherwise) through :func:`validate_data`, and turns results back into the
*kind* of its input through :func:`to_output`: NumPy / pandas / scipy / lists in -> NumPy (scipy) out;
CuPy / cupyx / ember in -> device out (NumPy on the CPU backend, where ember's data lives on the host).

Host inputs are validated by scikit-learn's own ``validate_data`` so that bad input raises exactly the
exceptions scikit-learn raises; device inputs are checked on the device with at most one sync.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ember import backend
from ember.backend.sparse import is_device_sparse, is_sparse, sparse_to

HOST = "host"
DEVICE = "device"


def compute_xp() -> ModuleType:
    """The module estimators compute with: CuPy on the GPU backend, NumPy on the CPU backend."""
    return backend.xp()


def _is_ember(obj: Any) -> bool:
    return type(obj).__module__.startswith("ember.")


def input_kind(X: Any) -> str:
    """``DEVICE`` for CuPy / cupyx / ember inputs on the GPU backend, else ``HOST``."""
    if backend.is_device_array(X) or is_device_sparse(X):
        return DEVICE
    if _is_ember(X) and backend.current_device() == "gpu":
        return DEVICE
    return HOST


def to_output(a: Any, kind: str, sparse_dtype: Any = None) -> Any:
    """``a`` (an array or sparse matrix of the compute module) as the given kind. ``sparse_dtype``: the
    dtype a host sparse result should have when the device could not hold it (integer counts)."""
    if a is None:
        return a
    if is_sparse(a):
        if kind != HOST:
            return a
        out = sparse_to(a, np)
        return out if sparse_dtype is None or out.dtype == sparse_dtype else out.astype(sparse_dtype)
    if kind == HOST:
        return backend.to_host(a)
    return a


def to_xp(a: Any, xp: ModuleType, dtype: Any = None) -> Any:
    """A dense array or sparse matrix ``a`` on the device of ``xp``."""
    if is_sparse(a):
        out = sparse_to(a, xp)
        return out if dtype is None else out.astype(dtype)
    return backend.asarray_on(a, xp, dtype)


def _ember_to_array(X: Any) -> Any:
    """ember DataFrame/Series -> a 2-D/1-D array of the compute module (NaN for missing floats)."""
    if backend.current_device() == "gpu":
        try:
            return X.to_cupy()
        except Exception:  # nullable or non-numeric columns: go through the host like pandas would
            pass
    return X.to_pandas()


def _device_check(
    est: Any,
    X: Any,
    reset: bool,
    *,
    accept_sparse: Any,
    dtype: Any,
    ensure_all_finite: Any,
    ensure_2d: bool = True,
    ensure_min_samples: int = 1,
) -> Any:
    """Validation of a CuPy array / cupyx matrix, mirroring check_array's errors."""
    from sklearn.utils.validation import _check_n_features

    xp = backend.cupy_module()
    if is_device_sparse(X):
        if not accept_sparse:
            raise TypeError(f"Sparse data was passed for {type(est).__name__}, but dense data is required.")
        X = X.tocsr()
        values = X.data
    else:
        if ensure_2d and X.ndim != 2:
            raise ValueError(
                f"Expected 2D array, got {X.ndim}D array instead. Reshape your data either "
                "using array.reshape(-1, 1) if your data has a single feature or "
                "array.reshape(1, -1) if it contains a single sample."
            )
        values = X
    want = dtype[0] if isinstance(dtype, (list, tuple)) else dtype
    if want == "numeric":
        if X.dtype.kind not in "fc":
            X = X.astype(xp.float64)
    elif want is not None and X.dtype not in (dtype if isinstance(dtype, (list, tuple)) else [dtype]):
        X = X.astype(want)
    if X.shape[0] < ensure_min_samples:
        raise ValueError(
            f"Found array with {X.shape[0]} sample(s) (shape={X.shape}) while a minimum of "
            f"{ensure_min_samples} is required by {type(est).__name__}."
        )
    if ensure_all_finite is True and values.dtype.kind == "f" and values.size:
        if not bool(xp.isfinite(values).all()):
            raise ValueError(
                f"Input X contains NaN or infinity. {type(est).__name__} does not accept "
                "missing values encoded as NaN natively."
            )
    if reset is not None:
        _check_n_features(est, X, reset=reset)
    return X


def validate_data(
    est: Any,
    X: Any,
    y: Any = "no_validation",
    *,
    reset: bool = True,
    xp: Any = None,
    y_to_device: bool = True,
    **check_params: Any,
) -> tuple[Any, ...]:
    """(X, [y,] kind): X and y on the compute module's device, and the output kind of X.

    Sets ``n_features_in_`` / ``feature_names_in_`` on ``reset`` and checks them otherwise, like
    scikit-learn's ``validate_data`` (which does the work for host inputs). ``y_to_device=False`` leaves
    a host y on the host (class labels may be strings, which cannot live on the device).
    """
    from sklearn.utils.validation import _check_feature_names
    from sklearn.utils.validation import validate_data as sk_validate

    xp = compute_xp() if xp is None else xp
    kind = input_kind(X)
    names_from = None
    if _is_ember(X):
        import pandas as pd

        if hasattr(X, "columns"):  # an empty pandas frame carries the names to scikit-learn's check
            names_from = pd.DataFrame(columns=X.columns)
        X = _ember_to_array(X)  # device array on the GPU; a pandas object (names kept) on the host
    if _is_ember(y):
        y = _ember_to_array(y)
    if backend.is_device_array(X) or is_device_sparse(X):
        _check_feature_names(est, X if names_from is None else names_from, reset=reset)
        check_params.pop("y_numeric", None)
        multi_output = check_params.pop("multi_output", False)
        X = _device_check(
            est,
            X,
            reset,
            **{
                k: check_params.get(k, d)
                for k, d in (
                    ("accept_sparse", False),
                    ("dtype", "numeric"),
                    ("ensure_all_finite", True),
                    ("ensure_2d", True),
                    ("ensure_min_samples", 1),
                )
            },
        )
        if isinstance(y, str) and y == "no_validation":
            return to_xp(X, xp), kind
        y = _device_y(y, X.shape[0], multi_output)
        return to_xp(X, xp), (to_xp(y, xp) if y_to_device or y.dtype.kind not in "OUS" else y), kind
    y_dev = backend.is_device_array(y)
    if y_dev:
        y = backend.to_host(y)
    if isinstance(y, str) and y == "no_validation":
        Xv = sk_validate(est, X, reset=reset, **check_params)
        return to_xp(Xv, xp), kind
    Xv, yv = sk_validate(est, X, y, reset=reset, **check_params)
    if y_to_device or y_dev:
        yv = to_xp(yv if xp is np else _numeric_object_y(yv), xp)
    return to_xp(Xv, xp), yv, kind


def _numeric_object_y(y: Any) -> Any:
    """An object-dtype target that is all numbers as float64 (the device holds no Python objects);
    anything else is refused with scikit-learn's 'Unknown label type' wording."""
    if getattr(y, "dtype", None) != object:
        return y
    try:
        return np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"Unknown label type: y of dtype object holds non-numeric values ({y[:3]!r}...)"
        ) from None


def _device_y(y: Any, n: int, multi_output: bool) -> Any:
    if y is None:
        raise ValueError("requires y to be passed, but the target y is None")
    if not backend.is_device_array(y):
        y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1 and not multi_output:
        y = y.ravel()
    if y.shape[0] != n:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: [{n}, {y.shape[0]}]")
    return y


def check_sample_weight(sample_weight: Any, n: int, xp: ModuleType, dtype: Any = np.float64) -> Any:
    """Sample weights as an xp array of length ``n`` (ones when None), checked like scikit-learn."""
    from sklearn.utils.validation import _check_sample_weight

    if sample_weight is None:
        return xp.ones(n, dtype=dtype)
    if backend.is_device_array(sample_weight):
        if sample_weight.ndim != 1 or sample_weight.shape[0] != n:
            raise ValueError(f"sample_weight.shape == {sample_weight.shape}, expected ({n},)!")
        return sample_weight.astype(dtype, copy=False)
    sw = _check_sample_weight(sample_weight, np.empty((n, 1)), dtype=dtype)
    return backend.asarray_on(sw, xp)


def host_y(y: Any) -> np.ndarray:
    """Targets on the host (labels may be strings, which cannot live on the device)."""
    if _is_ember(y):
        y = y.to_numpy() if not hasattr(y, "to_pandas") else y.to_pandas().to_numpy()
    return backend.to_host(y) if backend.is_device_array(y) else np.asarray(y)


def encode_labels(y: Any, xp: ModuleType) -> tuple[np.ndarray, Any]:
    """(classes_ on the host, sorted; y as int64 class positions on the device of ``xp``)."""
    if backend.is_device_array(y):
        classes, inv = backend.array_module(y).unique(y, return_inverse=True)
        return backend.to_host(classes), backend.asarray_on(inv.ravel().astype(np.int64), xp)
    classes, inv = unique_inverse(np.asarray(y))
    return classes, backend.asarray_on(inv.ravel().astype(np.int64), xp)


def unique_inverse(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(y, return_inverse=True)`` for host labels; integer labels spanning a small range are
    counted instead of sorted (a million labels: 5 ms, not 50)."""
    if y.dtype.kind in "iu" and y.ndim == 1 and y.size > 4096:
        lo, hi = int(y.min()), int(y.max())
        if hi - lo < 1 << 20:
            present = np.bincount((y - lo).astype(np.intp), minlength=hi - lo + 1) > 0
            position = np.cumsum(present) - 1
            return (np.flatnonzero(present) + lo).astype(y.dtype), position[y - lo]
    return np.unique(y, return_inverse=True)


def decode_labels(classes: np.ndarray, idx: Any, kind: str) -> Any:
    """Class labels of positions ``idx``: on the device for device output and numeric labels."""
    if kind == DEVICE and classes.dtype.kind in "biuf" and backend.is_device_array(idx):
        return backend.asarray_on(classes, backend.array_module(idx))[idx]
    return classes[backend.to_host(idx)]

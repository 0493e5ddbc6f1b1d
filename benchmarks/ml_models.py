"""ML II workloads: ember.ml vs scikit-learn (and cuML when importable) on the issue's problem sizes.

Runnable standalone: ``python benchmarks/ml_models.py [--rows 1000000] [--only kmeans,pca] [--no-sklearn]``.
Workloads (``--rows`` scales the row counts; the defaults are the issue's):

- RandomForestClassifier, 1M x 50, 100 trees, max_depth 16
- KMeans, 1M x 50 and 10M x 50, k = 100, 100 Lloyd iterations (tol 0, one init)
- PCA, 10M x 100, 10 components
- KNeighborsClassifier, 1M x 64 training rows, 10k queries, k = 5

Each estimator runs once untimed on a smaller problem of the same shape (CUDA contexts, kernel
compilation, lazily loaded cuBLAS kernels: the warm-up must take the same code paths), then once timed
on the full data; ember's timings end with ``ember.backend.synchronize()`` so that queued device work
is counted. Data are generated once per workload and placed on the device before ember's clock starts
(the host->device copy is reported separately). Accuracy / inertia / explained variance are printed
beside the times so that a fast wrong answer shows.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ember import backend


def _clock(fn: Callable[[], Any], device: bool) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    if device:
        backend.synchronize()
    return time.perf_counter() - t0, out


def _on_device(a: np.ndarray) -> Any:
    return backend.asarray_on(a, backend.xp())


def _cuml(name: str) -> Any:
    try:
        import importlib

        module, cls = name.rsplit(".", 1)
        return getattr(importlib.import_module(module), cls)
    except Exception:
        return None


def _run(
    label: str,
    make: Callable[[], tuple],
    ember_fit: Callable,
    sk_fit: Callable | None,
    cuml_fit: Callable | None,
    quality: Callable,
    warm: Callable[[], tuple],
) -> dict[str, Any]:
    """Time ember (device data), scikit-learn (host data) and cuML on one workload."""
    data = make()
    t0 = time.perf_counter()
    dev = tuple(_on_device(a) if isinstance(a, np.ndarray) else a for a in data)
    backend.synchronize()
    h2d = time.perf_counter() - t0
    wdata = tuple(_on_device(a) if isinstance(a, np.ndarray) else a for a in warm())
    ember_fit(*wdata)  # warm-up: kernels compile, pools fill
    backend.synchronize()
    t_ember, out = _clock(lambda: ember_fit(*dev), True)
    row: dict[str, Any] = {
        "workload": label,
        "ember_s": round(t_ember, 3),
        "h2d_s": round(h2d, 3),
        "ember_quality": quality(out, data),
    }
    if sk_fit is not None:
        t_sk, out_sk = _clock(lambda: sk_fit(*data), False)
        row.update(
            sklearn_s=round(t_sk, 3), sklearn_quality=quality(out_sk, data), speedup=round(t_sk / t_ember, 1)
        )
    if cuml_fit is not None:
        cuml_fit(*wdata)
        t_cu, _ = _clock(lambda: cuml_fit(*dev), True)
        row.update(cuml_s=round(t_cu, 3), vs_cuml=round(t_cu / t_ember, 1))
    print(json.dumps(row), flush=True)
    return row


def random_forest(rows: int, sk: bool) -> dict[str, Any]:
    from sklearn.datasets import make_classification
    from sklearn.ensemble import RandomForestClassifier as SK

    from ember.ml.ensemble import RandomForestClassifier

    def make(n: int = rows) -> tuple:
        X, y = make_classification(n + 100_000, 50, n_informative=20, random_state=0)
        return X[:n].astype(np.float32), y[:n], X[n:].astype(np.float32), y[n:]

    params = {"n_estimators": 100, "max_depth": 16, "random_state": 0}

    def quality(model: Any, data: tuple) -> float:
        return round(float(np.mean(backend.to_host(model.predict(data[2])) == data[3])), 4)

    cu = _cuml("cuml.ensemble.RandomForestClassifier")
    return _run(
        f"RandomForestClassifier {rows}x50 100 trees depth 16",
        make,
        lambda X, y, *_: RandomForestClassifier(**params).fit(X, y),
        (lambda X, y, *_: SK(n_jobs=-1, **params).fit(X, y)) if sk else None,
        (lambda X, y, *_: cu(n_estimators=100, max_depth=16, random_state=0).fit(X, y)) if cu else None,
        quality,
        lambda: make(20_000),
    )


def kmeans(rows: int, sk: bool) -> dict[str, Any]:
    from sklearn.cluster import KMeans as SK

    from ember.ml.cluster import KMeans

    def make(n: int = rows) -> tuple:
        rng = np.random.default_rng(0)
        centers = rng.normal(0, 5, (100, 50))
        return ((centers[rng.integers(0, 100, n)] + rng.normal(0, 1, (n, 50))).astype(np.float32),)

    params = {"n_clusters": 100, "max_iter": 100, "tol": 0.0, "n_init": 1, "random_state": 0}

    def quality(model: Any, data: tuple) -> str:
        return f"inertia {float(model.inertia_):.1f} after {model.n_iter_} iterations"

    cu = _cuml("cuml.cluster.KMeans")
    return _run(
        f"KMeans {rows}x50 k=100 100 iterations",
        make,
        lambda X: KMeans(**params).fit(X),
        (lambda X: SK(**params).fit(X)) if sk else None,
        (lambda X: cu(n_clusters=100, max_iter=100, tol=0.0, n_init=1, random_state=0).fit(X))
        if cu
        else None,
        quality,
        lambda: make(min(rows, 200_000)),  # warm-up past 16,384 rows: the batched one-hot GEMM's kernels
    )


def pca(rows: int, sk: bool) -> dict[str, Any]:
    from sklearn.decomposition import PCA as SK

    from ember.ml.decomposition import PCA

    def make(n: int = rows) -> tuple:
        rng = np.random.default_rng(0)
        basis = rng.normal(size=(100, 100)).astype(np.float32)
        return (
            (rng.normal(size=(n, 100)).astype(np.float32) * np.linspace(5, 0.1, 100, dtype=np.float32))
            @ basis,
        )

    def quality(model: Any, data: tuple) -> float:
        return round(float(np.sum(model.explained_variance_ratio_)), 6)

    cu = _cuml("cuml.decomposition.PCA")
    return _run(
        f"PCA {rows}x100 10 components",
        make,
        lambda X: PCA(10).fit(X),
        (lambda X: SK(10).fit(X)) if sk else None,
        (lambda X: cu(n_components=10).fit(X)) if cu else None,
        quality,
        lambda: make(10_000),
    )


def knn(rows: int, sk: bool, queries: int = 10_000) -> dict[str, Any]:
    from sklearn.neighbors import KNeighborsClassifier as SK

    from ember.ml.neighbors import KNeighborsClassifier

    def make(n: int = rows, q: int = queries) -> tuple:
        rng = np.random.default_rng(0)
        X = rng.normal(size=(n + q, 64)).astype(np.float32)
        y = (X[:, :8].sum(axis=1) > 0).astype(np.int64)
        return X[:n], y[:n], X[n:], y[n:]

    def fit_predict(est: Any) -> Callable:
        return lambda X, y, Q, _: (est.fit(X, y), est.predict(Q))

    def quality(out: Any, data: tuple) -> float:
        return round(float(np.mean(backend.to_host(out[1]) == data[3])), 4)

    cu = _cuml("cuml.neighbors.KNeighborsClassifier")
    return _run(
        f"KNeighborsClassifier {rows}x64, {queries} queries, k=5",
        make,
        lambda *d: fit_predict(KNeighborsClassifier(5))(*d),
        (lambda *d: fit_predict(SK(5, n_jobs=-1))(*d)) if sk else None,
        (lambda *d: fit_predict(cu(n_neighbors=5))(*d)) if cu else None,
        quality,
        lambda: make(20_000, 1_000),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rows", type=int, default=None, help="rows for every workload (default: the issue's)"
    )
    parser.add_argument("--only", default="rf,kmeans,kmeans10m,pca,knn", help="comma-separated workloads")
    parser.add_argument("--no-sklearn", action="store_true", help="skip scikit-learn (long on big inputs)")
    args = parser.parse_args()
    sk = not args.no_sklearn
    jobs = {
        "rf": lambda: random_forest(args.rows or 1_000_000, sk),
        "kmeans": lambda: kmeans(args.rows or 1_000_000, sk),
        "kmeans10m": lambda: kmeans(args.rows or 10_000_000, sk),
        "pca": lambda: pca(args.rows or 10_000_000, sk),
        "knn": lambda: knn(args.rows or 1_000_000, sk),
    }
    print(f"device: {backend.current_device()}", flush=True)
    for name in args.only.split(","):
        jobs[name.strip()]()


if __name__ == "__main__":
    main()

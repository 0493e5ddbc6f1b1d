"""Where the ML II fits spend their time (GPU host): device-synchronized milliseconds per function of the
model modules, then a cProfile of a plain run. ``python benchmarks/profile_ml.py --only rf,kmeans,knn``.

Sizes are the issue's (1M rows) with fewer trees / iterations, so a run takes seconds; figures per tree
or per iteration scale to the full benchmark (benchmarks/ml_models.py). The synchronizing wrappers add
syncs of their own: compare the 'total' line with the plain timing printed first.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np
from profile_groupby import _print_cprofile, instrument

from ember import backend

MODULES = {
    "rf": ("ember.ml.ensemble._tree", "ember.ml.ensemble._forest"),
    "kmeans": ("ember.ml.cluster._kmeans", "ember.ml.neighbors._pairwise"),
    "knn": ("ember.ml.neighbors._pairwise", "ember.ml.neighbors._neighbors", "ember.backend.primitives"),
}


def _workload(name: str, rows: int, trees: int, iters: int) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """(full run, small warm-up run) of one model on device data."""
    xp = backend.xp()
    if name == "rf":
        from sklearn.datasets import make_classification

        from ember.ml.ensemble import RandomForestClassifier

        X, y = make_classification(rows, 50, n_informative=20, random_state=0)
        Xd = backend.asarray_on(X.astype(np.float32), xp)

        def fit(n: int = rows) -> Any:
            return RandomForestClassifier(n_estimators=trees, max_depth=16, random_state=0).fit(Xd[:n], y[:n])

        return fit, lambda: fit(20_000)
    if name == "kmeans":
        from ember.ml.cluster import KMeans

        rng = np.random.default_rng(0)
        centers = rng.normal(0, 5, (100, 50))
        X = (centers[rng.integers(0, 100, rows)] + rng.normal(0, 1, (rows, 50))).astype(np.float32)
        Xd = backend.asarray_on(X, xp)

        def fit_km(n: int = rows) -> Any:
            km = KMeans(n_clusters=100, max_iter=iters, tol=0.0, n_init=1, random_state=0)
            return km.fit(Xd[:n])

        return fit_km, lambda: fit_km(10_000)
    if name == "knn":
        from ember.ml.neighbors import KNeighborsClassifier

        rng = np.random.default_rng(0)
        X = rng.normal(size=(rows + 10_000, 64)).astype(np.float32)
        y = (X[:, :8].sum(axis=1) > 0).astype(np.int64)
        Xd = backend.asarray_on(X, xp)

        def fit_knn(n: int = rows) -> Any:
            return KNeighborsClassifier(5).fit(Xd[:n], y[:n]).predict(Xd[rows:])

        return fit_knn, lambda: fit_knn(20_000)
    raise ValueError(f"unknown workload {name!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="rf,kmeans,knn")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--trees", type=int, default=10)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    for name in args.only.split(","):
        run, warm = _workload(name, args.rows, args.trees, args.iters)
        warm()
        backend.synchronize()
        t0 = time.perf_counter()
        run()
        backend.synchronize()
        print(f"\n##### {name}: plain {1e3 * (time.perf_counter() - t0):.1f} ms", flush=True)
        _print_cprofile(run, args.top)
        totals: dict[str, float] = defaultdict(float)
        counts: dict[str, int] = defaultdict(int)
        instrument(totals, counts, MODULES[name])
        t0 = time.perf_counter()
        run()
        backend.synchronize()
        print(f"{name}: instrumented total {1e3 * (time.perf_counter() - t0):.1f} ms")
        for key, sec in sorted(totals.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"  {key:45s} {1e3 * sec:9.1f} ms  x{counts[key]}")


if __name__ == "__main__":
    main()

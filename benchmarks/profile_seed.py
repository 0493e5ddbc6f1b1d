"""Per-step timings of the seed's elementwise and reduction calls, ember vs raw CuPy (GPU host).

Shows where ember's overhead over the raw array library goes: ``python benchmarks/profile_seed.py``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import ember as em


def timeit(fn, runs: int = 20) -> float:
    """Median milliseconds of ``fn`` with the device synchronized around each run."""
    fn()
    em.backend.synchronize()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        em.backend.synchronize()
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples) * 1e3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=float, default=1e7)
    args = parser.parse_args()
    n = int(args.rows)
    rng = np.random.default_rng(0)
    df = em.DataFrame({"x": rng.random(n), "y": rng.integers(0, n, n)})
    s = df.x
    xp = s.column.xp
    x = s.column.data
    steps = {
        "sin": (lambda: np.sin(s), lambda: xp.sin(x)),
        "pow2": (lambda: s**2, lambda: x**2),
        "add": (lambda: s + s, lambda: x + x),
        "sincos": (lambda: np.sin(s) ** 2 + np.cos(s) ** 2, lambda: xp.sin(x) ** 2 + xp.cos(x) ** 2),
        "mean": (lambda: s.mean(), lambda: float(x.mean())),
        "df.mean": (
            lambda: df.mean(),
            lambda: (em.backend.to_host(x.mean()), em.backend.to_host(df.y.column.data.mean())),
        ),
        "sum": (lambda: s.sum(), lambda: float(x.sum())),
        "isnan": (lambda: s.isna(), lambda: xp.isnan(x)),
    }
    print(f"rows={n:,} device={em.backend.current_device()}")
    print(f"{'step':10s} {'ember ms':>10s} {'raw ms':>10s} {'ratio':>7s}")
    for name, (ember_fn, raw_fn) in steps.items():
        a, b = timeit(ember_fn), timeit(raw_fn)
        print(f"{name:10s} {a:10.3f} {b:10.3f} {a / b:7.2f}")
    print(f"peak device bytes: {em.backend.peak_device_bytes():,}")


if __name__ == "__main__":
    main()

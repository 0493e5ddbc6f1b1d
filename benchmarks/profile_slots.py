"""The slot kernels alone on the GPU host: milliseconds per call for db-benchmark-like keys (K slots,
random) and values, shared-memory tables against global atomics. ``python benchmarks/profile_slots.py``."""

from __future__ import annotations

import argparse

import numpy as np

import ember as em
from ember.backend.kernels import slots


def _time(fn, runs: int = 20) -> float:
    cp = em.backend.xp()
    fn()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(runs):
        fn()
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop) / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=float, default=1e7)
    args = parser.parse_args()
    cp = em.backend.xp()
    n = int(args.rows)
    rng = cp.random.default_rng(0)
    floats = rng.random(n) * 100
    ints = rng.integers(1, 16, n, dtype=np.int64)
    for k in (100, 10_000, 100_000):
        key = rng.integers(1, k + 1, n, dtype=np.int64)
        codes = key.astype(np.int32)
        for shared in (True, False):
            limit = slots._SHARED_BYTES
            slots._SHARED_BYTES = limit if shared else 0
            rows = _time(lambda key=key, k=k: slots.slot_rows(key, 1, k + 1))
            f64 = _time(lambda key=key, k=k: slots.slot_sums(key, 1, k + 1, floats))
            i64 = _time(lambda key=key, k=k: slots.slot_sums(key, 1, k + 1, ints, want_counts=False))
            i32key = _time(lambda c=codes, k=k: slots.slot_sums(c, 1, k + 1, floats, want_counts=False))
            slots._SHARED_BYTES = limit
            print(
                f"K={k:>7} {'shared' if shared else 'global'}: rows+first {rows:.3f} ms, float sum+count "
                f"{f64:.3f} ms, int sum {i64:.3f} ms, float sum by int32 key {i32key:.3f} ms"
            )
    lo_hi = _time(lambda: cp.stack([key.min(), key.max()]).get(), runs=10)
    print(f"key range (min, max, one transfer): {lo_hi:.3f} ms")


if __name__ == "__main__":
    main()

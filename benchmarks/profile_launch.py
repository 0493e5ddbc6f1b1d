"""CPU microseconds per CuPy call on the GPU host (the launch-bound regime of millisecond questions):
which spellings of the small steps around a kernel cost the most. ``python benchmarks/profile_launch.py``."""

from __future__ import annotations

import time

import numpy as np

import ember as em


def _us(fn, runs: int = 2000) -> float:
    fn()
    em.backend.synchronize()
    t0 = time.perf_counter()
    for _ in range(runs):
        fn()
    per = (time.perf_counter() - t0) / runs * 1e6
    em.backend.synchronize()
    return per


def main() -> None:
    cp = em.backend.xp()
    a = cp.arange(101, dtype=np.float64)
    b = cp.arange(101, dtype=np.int64) + 1
    t = cp.zeros((2, 101), dtype=np.uint64)
    at = cp.arange(0, 100, dtype=np.int64)
    host = np.arange(100)
    from ember.backend.kernels import slots

    key = cp.arange(1000, dtype=np.int64) % 100
    cases = {
        "a[at] (1-d gather)": lambda: a[at],
        "t[:, at] (2-d gather)": lambda: t[:, at],
        "cp.take(t, at, axis=1)": lambda: cp.take(t, at, axis=1),
        "a / b": lambda: a / b,
        "a == 0": lambda: a == 0,
        "cp.where(b > 0, b, 1)": lambda: cp.where(b > 0, b, 1),
        "cp.zeros(101)": lambda: cp.zeros(101),
        "cp.empty(101)": lambda: cp.empty(101),
        "a.astype(float64, copy=False)": lambda: a.astype(np.float64, copy=False),
        "a.astype(float32)": lambda: a.astype(np.float32),
        "cp.asarray(100 host ints)": lambda: cp.asarray(host),
        "a.get() (sync)": lambda: a.get(),
        "a.min()": lambda: a.min(),
        "cp.stack([a.min(), a.max()])": lambda: cp.stack([a.min(), a.max()]),
        "slot_sums (1000 rows)": lambda: slots.slot_sums(key, 0, 101, a[:1] * 0 + key.astype(np.float64)),
        "slot_rows (1000 rows)": lambda: slots.slot_rows(key, 0, 101),
        "slot_lookup (1000 rows)": lambda: slots.slot_lookup(key, 0, 101, b),
        "cp.cuda.Device().attributes": lambda: cp.cuda.Device().attributes["MultiProcessorCount"],
    }
    for name, fn in cases.items():
        print(f"{_us(fn):8.1f} us  {name}")


if __name__ == "__main__":
    main()

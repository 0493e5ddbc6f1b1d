"""read_csv / read_parquet timings on db-benchmark-like data: ember, pandas (c and pyarrow engines), polars.

Runnable standalone: ``python benchmarks/io_workloads.py --rows 10000000 [--dir /tmp/ember_io]``.
``io_workloads(rows, workdir)`` returns the results as a list of dicts for the harness in ember.bench.
Files are written once and read from the page cache (a warm-up read precedes the timed ones).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd


def make_groupby_data(rows: int, k: int = 100, seed: int = 0) -> pd.DataFrame:
    """db-benchmark groupby data (id1..id6, v1..v3): string keys, int keys, ints and floats."""
    rng = np.random.default_rng(seed)
    nk = max(rows // k, 1)
    return pd.DataFrame(
        {
            "id1": np.char.add("id", rng.integers(1, k + 1, rows).astype(str)),
            "id2": np.char.add("id", rng.integers(1, k + 1, rows).astype(str)),
            "id3": np.char.add("id", rng.integers(1, nk + 1, rows).astype(str)),
            "id4": rng.integers(1, k + 1, rows),
            "id5": rng.integers(1, k + 1, rows),
            "id6": rng.integers(1, nk + 1, rows),
            "v1": rng.integers(1, 6, rows),
            "v2": rng.integers(1, 16, rows),
            "v3": np.round(rng.uniform(0, 100, rows), 6),
        }
    )


def _time(fn: Callable[[], Any], repeat: int = 3) -> float:
    fn()  # warm-up: page cache, JIT / kernel compilation
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        _sync(out)
        best = min(best, time.perf_counter() - t0)
    return best


def _sync(_: Any) -> None:
    from ember.backend import synchronize

    synchronize()


def _readers(csv_path: str, pq_path: str) -> dict[str, Callable[[], Any]]:
    import ember.io as eio

    out: dict[str, Callable[[], Any]] = {
        "ember read_csv": lambda: eio.read_csv(csv_path),
        "pandas read_csv (c)": lambda: pd.read_csv(csv_path),
        "pandas read_csv (pyarrow)": lambda: pd.read_csv(csv_path, engine="pyarrow"),
        "ember read_parquet": lambda: eio.read_parquet(pq_path),
        "pandas read_parquet": lambda: pd.read_parquet(pq_path),
    }
    try:
        import polars as pl

        out["polars read_csv"] = lambda: pl.read_csv(csv_path)
        out["polars read_parquet"] = lambda: pl.read_parquet(pq_path)
    except ImportError:
        pass
    try:
        import cudf  # noqa: F401  (when importable on the GPU host)

        out["cudf read_csv"] = lambda: cudf.read_csv(csv_path)
        out["cudf read_parquet"] = lambda: cudf.read_parquet(pq_path)
    except ImportError:
        pass
    return out


def io_workloads(rows: int, workdir: str, repeat: int = 3) -> list[dict[str, Any]]:
    """Write the data as CSV and snappy Parquet under ``workdir``, then time every reader."""
    os.makedirs(workdir, exist_ok=True)
    csv_path = os.path.join(workdir, f"groupby_{rows}.csv")
    pq_path = os.path.join(workdir, f"groupby_{rows}.parquet")
    if not (os.path.exists(csv_path) and os.path.exists(pq_path)):
        df = make_groupby_data(rows)
        df.to_csv(csv_path, index=False)
        df.to_parquet(pq_path, compression="snappy", index=False)
    sizes = {"csv": os.path.getsize(csv_path), "parquet": os.path.getsize(pq_path)}
    results = []
    for name, fn in _readers(csv_path, pq_path).items():
        kind = "parquet" if "parquet" in name else "csv"
        try:
            seconds = _time(fn, repeat)
        except Exception as exc:  # a peer missing a feature is reported, not fatal
            results.append({"workload": name, "rows": rows, "error": f"{type(exc).__name__}: {exc}"})
            continue
        results.append(
            {
                "workload": name,
                "rows": rows,
                "seconds": seconds,
                "bytes": sizes[kind],
                "GB/s": sizes[kind] / seconds / 1e9,
            }
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--dir", default="/tmp/ember_io_bench")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for r in io_workloads(args.rows, args.dir, args.repeat):
        if "error" in r:
            print(f"{r['workload']:<28} error: {r['error']}")
        else:
            print(
                f"{r['workload']:<28} {r['seconds'] * 1e3:9.1f} ms  {r['GB/s']:6.2f} GB/s  ({r['bytes'] / 1e6:.0f} MB)"
            )


if __name__ == "__main__":
    main()

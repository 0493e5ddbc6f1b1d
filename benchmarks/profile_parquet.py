"""Where ember's read_parquet spends its time (GPU host), as the base of a plan for decoding pages on
the device: pyarrow's own host decode of the same file, then device-synchronized milliseconds per
function of ember's Parquet and transfer layers. ``python benchmarks/profile_parquet.py``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict

import pyarrow.parquet as pq
from profile_groupby import instrument, timed

import ember as em
from ember.bench import data

MODULES = ("ember.io.parquet", "ember.io._paths", "ember.column.convert", "ember.backend.arrays")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--codec", default="snappy")
    parser.add_argument("--path", default=None)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    path = args.path or f"/tmp/ember_profile_{args.codec}.parquet"
    if not os.path.exists(path):
        data.groupby_data(int(args.rows)).to_parquet(path, compression=args.codec, index=False)
    size = os.path.getsize(path)
    host = timed(lambda: pq.read_table(path), runs=3)
    plain = timed(lambda: em.read_parquet(path), runs=3)
    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    instrument(totals, counts, MODULES)
    t0 = time.perf_counter()
    em.read_parquet(path)
    em.backend.synchronize()
    total = (time.perf_counter() - t0) * 1e3
    print(
        f"read_parquet {size / 1e6:.0f} MB ({args.codec}): pyarrow host decode {host:.1f} ms, "
        f"ember {plain:.1f} ms plain, {total:.1f} ms instrumented"
    )
    for key, secs in sorted(totals.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {secs * 1e3:8.2f} ms  {counts[key]:4d}x  {key}")


if __name__ == "__main__":
    main()

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
ENGINE_MODULES = (
    "ember.io.parquet_decode",
    "ember.backend.kernels.parquet",
    "ember.backend.files",
    "ember.io.parquet_device",
    "ember.backend.nvcomp",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--codec", default="snappy")
    parser.add_argument("--path", default=None)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--columns", default=None, help="comma-separated columns to read (default all)")
    parser.add_argument("--phases", action="store_true", help="pyarrow's decode by column and by row group")
    parser.add_argument(
        "--variants",
        action="store_true",
        help="also time other files of the same rows: zstd, strings with nulls (not categorical), gzip",
    )
    args = parser.parse_args()
    path = args.path or f"/tmp/ember_profile_{args.codec}.parquet"
    if not os.path.exists(path):
        data.groupby_data(int(args.rows)).to_parquet(path, compression=args.codec, index=False)
    size = os.path.getsize(path)
    if args.phases:
        _phases(path)
    if args.variants:
        _variants(int(args.rows))
    cols = args.columns.split(",") if args.columns else None
    host = timed(lambda: pq.read_table(path, columns=cols), runs=3)
    plain = timed(lambda: em.read_parquet(path, columns=cols), runs=5)
    arrow = timed(lambda: em.read_parquet(path, columns=cols, engine="pyarrow"), runs=3)
    print(
        f"read_parquet {size / 1e6:.0f} MB ({args.codec}): pyarrow read_table {host:.1f} ms, ember {plain:.1f} ms "
        f"(default: page kernels on the GPU), ember engine='pyarrow' {arrow:.1f} ms"
    )
    _instrumented(
        "engine='pyarrow'", MODULES, lambda: em.read_parquet(path, columns=cols, engine="pyarrow"), args.top
    )
    # functions run by worker threads (the string dictionaries) add up over the threads
    _instrumented(
        "engine='ember'",
        ENGINE_MODULES,
        lambda: em.read_parquet(path, columns=cols, engine="ember"),
        args.top,
    )


def _variants(rows: int) -> None:
    """The default engine against pyarrow on files the benchmark file does not exercise: another codec
    (decompressed on the host, then the page kernels), and plain string columns with nulls and floats
    with NaN (definition levels, PLAIN string pages)."""
    import numpy as np

    frame = data.groupby_data(rows)
    r = np.random.default_rng(1)
    holes = r.random(rows) < 0.05
    mixed = frame.assign(
        id1=frame["id1"].astype(str).where(~holes, None),
        id3=frame["id3"].astype(str),
        v3=frame["v3"].where(~holes),
    )
    for label, df, codec in (
        ("zstd", frame, "zstd"),
        ("strings+nulls", mixed, "snappy"),
        ("gzip", frame, "gzip"),
    ):
        path = f"/tmp/ember_profile_{label}_{rows}.parquet"
        if not os.path.exists(path):
            df.to_parquet(path, compression=codec, index=False)
        host = timed(lambda p=path: pq.read_table(p), runs=3)
        ours = timed(lambda p=path: em.read_parquet(p), runs=3)
        arrow = timed(lambda p=path: em.read_parquet(p, engine="pyarrow"), runs=3)
        size = os.path.getsize(path) / 1e6
        print(
            f"{label} ({size:.0f} MB): pyarrow read_table {host:.1f} ms, ember {ours:.1f} ms, "
            f"ember engine='pyarrow' {arrow:.1f} ms"
        )


def _instrumented(label: str, modules: tuple, call, top: int) -> None:
    """One synchronized call with the modules' functions timed (nested: a function's time includes
    its callees')."""
    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    instrument(totals, counts, modules)
    t0 = time.perf_counter()
    call()
    em.backend.synchronize()
    print(f"{label} instrumented: {(time.perf_counter() - t0) * 1e3:.1f} ms")
    _print(totals, counts, top)


def _print(totals: dict, counts: dict, top: int) -> None:
    for key, secs in sorted(totals.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {secs * 1e3:8.2f} ms  {counts[key]:4d}x  {key}")


def _phases(path: str) -> None:
    """Where pyarrow's own decode goes: the file's layout, each column alone, one thread against all,
    and the row groups decoded in parallel by a thread pool (ember's reader, without the copies)."""
    from concurrent.futures import ThreadPoolExecutor

    meta = pq.ParquetFile(path).metadata
    rg = meta.row_group(0)
    print(f"{meta.num_row_groups} row groups of {rg.num_rows} rows")
    for j in range(rg.num_columns):
        c = rg.column(j)
        print(f"  {c.path_in_schema}: {c.compression}, {c.encodings}, {c.total_compressed_size / 1e6:.1f} MB")
    names = pq.read_schema(path).names
    for name in names:
        print(
            f"  read_table(columns=[{name!r}]): {timed(lambda n=name: pq.read_table(path, columns=[n]), runs=3):.1f} ms"
        )
    print(f"read_table one thread: {timed(lambda: pq.read_table(path, use_threads=False), runs=3):.1f} ms")

    def by_row_group():
        def one(i):
            return pq.ParquetFile(path).read_row_group(i, use_threads=False)

        with ThreadPoolExecutor(16) as pool:
            return list(pool.map(one, range(meta.num_row_groups)))

    print(f"row groups on 16 threads: {timed(by_row_group, runs=3):.1f} ms")
    import cProfile
    import pstats

    profile = cProfile.Profile()  # the main thread of ember's reader: waits, dictionaries, copies
    profile.runcall(lambda: em.read_parquet(path))
    pstats.Stats(profile).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()

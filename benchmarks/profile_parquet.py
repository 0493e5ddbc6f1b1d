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
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--codec", default="snappy")
    parser.add_argument("--path", default=None)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--phases", action="store_true", help="pyarrow's decode by column and by row group")
    parser.add_argument("--engine-phases", action="store_true", help="the ember engine's steps one by one")
    args = parser.parse_args()
    path = args.path or f"/tmp/ember_profile_{args.codec}.parquet"
    if not os.path.exists(path):
        data.groupby_data(int(args.rows)).to_parquet(path, compression=args.codec, index=False)
    size = os.path.getsize(path)
    if args.phases:
        _phases(path)
    if args.engine_phases:
        for _ in range(3):
            _engine_phases(path)
    host = timed(lambda: pq.read_table(path), runs=3)
    plain = timed(lambda: em.read_parquet(path), runs=3)
    own = timed(lambda: em.read_parquet(path, engine="ember"), runs=3)
    print(f"read_parquet(engine='ember'), ember's own page decoder: {own:.1f} ms")
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
    _print(totals, counts, args.top)
    totals.clear()
    counts.clear()
    instrument(totals, counts, ENGINE_MODULES)  # nested: a function's time includes its callees'
    t0 = time.perf_counter()
    em.read_parquet(path, engine="ember")
    em.backend.synchronize()
    print(f"read_parquet(engine='ember') instrumented: {(time.perf_counter() - t0) * 1e3:.1f} ms")
    _print(totals, counts, args.top)


def _engine_phases(path: str) -> None:
    """The steps of ``parquet_decode._decode`` run one after another, each synchronized and timed."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from ember.backend.kernels import parquet as kernels
    from ember.io import parquet_decode as d

    xp = em.backend.xp()
    marks = [("start", time.perf_counter())]

    def mark(name: str) -> None:
        em.backend.synchronize()
        marks.append((name, time.perf_counter()))

    meta = pq.ParquetFile(path).metadata
    schema = pq.ParquetFile(path).schema_arrow
    columns = [d._column(n, schema.field(n).type, [meta]) for n in schema.names]
    chunks = [d._chunk(k, c, 0, meta, i) for k, c in enumerate(columns) for i in range(meta.num_row_groups)]
    mark("footer")
    buf, base = d._read_files([path], chunks, xp)
    mark("bytes up")
    seen = {"lock": threading.Lock()}
    with ThreadPoolExecutor(d._THREADS) as pool:
        dictionaries = list(pool.map(lambda ch: d._dictionary(path, ch, columns[ch.column], seen), chunks))
    mark("dictionary pages (host)")
    at = np.array([base[0] + ch.data_at for ch in chunks], dtype=np.int64)
    end = np.array([base[0] + ch.end for ch in chunks], dtype=np.int64)
    table, chunk_of = kernels.walk_pages(buf, at, end)
    mark(f"walk ({table.shape[1]} pages)")
    pages = d._data_pages(table, chunk_of, chunks)
    f = {name: pages["table"][k] for k, name in enumerate(kernels.PAGE_FIELDS)}
    codec = np.array([chunks[c].codec for c in pages["chunk"]], dtype=np.int32)
    level_kind = np.where(f["kind"] == 3, 2, 1)
    out_at = np.concatenate([[0], np.cumsum(f["out_size"])[:-1]]).astype(np.int64)
    error = xp.zeros(1, dtype=np.int32)
    data, values_at, values_end = kernels.decompress_pages(
        buf, pages["table"], codec, level_kind, out_at, error
    )
    mark(f"decompress ({int(f['out_size'].sum()) / 1e6:.0f} MB out)")
    n = meta.num_rows
    for k, c in enumerate(columns):
        mine = np.flatnonzero(pages["column"] == k)
        args = (data, values_at, values_end, mine, f, pages["row"], error)
        dicts = [dictionaries[i] for i, ch in enumerate(chunks) if ch.column == k]
        rows = [ch.rows for ch in chunks if ch.column == k]
        d._column_values(c, args, pages["chunk_rank"][mine], dicts, rows, n, xp)
        mark(f"column {c.name}")
    kernels.check_error(error)
    total = (marks[-1][1] - marks[0][1]) * 1e3
    steps = ", ".join(f"{name} {(t - marks[i][1]) * 1e3:.1f}" for i, (name, t) in enumerate(marks[1:]))
    print(f"engine steps, {total:.1f} ms serial: {steps}")


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

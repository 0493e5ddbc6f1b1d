"""What slows ember's read_parquet down on the GPU host: the two host-side halves of one read timed
alone and together (the file's bytes up through ``backend.files.read_into``; the dictionary pages
decoded on a thread pool) and the whole read with the interpreter's thread switch interval changed
(the reader threads and the main thread that queues the copies wait for the GIL while dictionary
threads run Python). ``python benchmarks/probe_parquet_read.py [--codec snappy] [--rows 1e7]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import ember as em
from ember.bench import data
from ember.io import parquet_decode as pd_
from ember.io.parquet_device import open_files
from ember.io.parquet_footer import read_footer


def _median_ms(fn, runs: int) -> str:
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        em.backend.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return f"{np.median(times):.1f} ms (min {min(times):.1f})"


def _plan(path: str) -> tuple:
    handles, schema, names = open_files([path], None)
    metas, footers = [h.metadata for h in handles], [read_footer(path)]
    columns = [c for n in names if (c := pd_._column(n, schema.field(n).type, metas, footers)) is not None]
    chunks = [
        pd_._chunk(k, c, 0, footers[0], i)
        for k, c in enumerate(columns)
        for i in range(len(footers[0].group_rows))
    ]
    return columns, chunks


def _raw_read(path: str, size: int, threads: int) -> None:
    """The file into pinned host pieces by ``threads`` threads, nothing copied up: the page cache's rate."""
    from ember.backend.files import FILE_PIECE, pread_full

    if em.backend.current_device() == "gpu":
        from ember.backend.device import cupy_module

        pinned = cupy_module().cuda.alloc_pinned_memory
        bufs = [np.frombuffer(pinned(FILE_PIECE), np.uint8, FILE_PIECE) for _ in range(threads)]
    else:
        bufs = [np.empty(FILE_PIECE, np.uint8) for _ in range(threads)]
    fd = os.open(path, os.O_RDONLY)
    starts = list(range(0, size, FILE_PIECE))
    try:
        with ThreadPoolExecutor(threads) as pool:
            list(
                pool.map(
                    lambda i: pread_full(
                        fd, bufs[i % threads][: min(FILE_PIECE, size - starts[i])], starts[i], path
                    ),
                    range(len(starts)),
                )
            )
    finally:
        os.close(fd)


def _timeline(path: str, runs: int, columns: list | None = None) -> None:
    """When each phase of one read ends (ms from the call, median over ``runs``): the decoder's
    functions wrapped to record their start and end (device work synchronized at each end), the
    dictionary pages' threads by their last end."""
    import ember.io.parquet_decode as mod

    marks: dict[str, list] = {}
    t0 = [0.0]
    names = ("_read_files", "_decompressed", "_inflaters", "_lookups", "column_values", "_dictionary")
    originals = {name: getattr(mod, name) for name in names}

    def wrap(name, fn):
        def timed(*a, **kw):
            start = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                if name != "_dictionary":
                    em.backend.synchronize()
                marks.setdefault(name, []).append(
                    ((start - t0[0]) * 1e3, (time.perf_counter() - t0[0]) * 1e3)
                )

        return timed

    rows = []
    try:
        for name, fn in originals.items():
            setattr(mod, name, wrap(name, fn))
        for _ in range(runs + 1):
            marks.clear()
            t0[0] = time.perf_counter()
            em.read_parquet(path, columns=columns, engine="ember")
            em.backend.synchronize()
            total = (time.perf_counter() - t0[0]) * 1e3
            row = {k: (min(a for a, _ in v), max(b for _, b in v)) for k, v in marks.items()}
            row["total"] = (0.0, total)
            rows.append(row)
    finally:
        for name, fn in originals.items():
            setattr(mod, name, fn)
    rows = rows[1:]
    for key in rows[0]:
        start = np.median([r[key][0] for r in rows if key in r])
        end = np.median([r[key][1] for r in rows if key in r])
        print(f"  phase {key:14s} {start:6.1f} -> {end:6.1f} ms")


def _dictionary_spans(path: str, columns: list, chunks: list, threads: int = 16) -> None:
    """Per column, when its chunks' dictionary pages were decoded by a pool of ``threads`` (ms from the
    pool's start: first start, last end, summed and longest call), a run after a warm-up."""

    def run() -> tuple[list, float]:
        spans, once, t0 = [], pd_._Once(), time.perf_counter()

        def one(ch):
            start = time.perf_counter()
            pd_._dictionary(path, ch, columns[ch.column], once)
            spans.append((columns[ch.column].name, (start - t0) * 1e3, (time.perf_counter() - t0) * 1e3))

        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(one, chunks))
        return spans, (time.perf_counter() - t0) * 1e3

    run()
    spans, wall = run()
    print(f"  dictionary pages on {threads} threads, {wall:.1f} ms:")
    for name in dict.fromkeys(n for n, _, _ in spans):
        mine = [(a, b) for n, a, b in spans if n == name]
        print(
            f"    {name:6s} {min(a for a, _ in mine):6.1f} -> {max(b for _, b in mine):6.1f} ms, "
            f"sum {sum(b - a for a, b in mine):6.1f}, longest {max(b - a for a, b in mine):5.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--codec", default="snappy")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--path", default=None, help="another file: only the phases of its read")
    parser.add_argument("--columns", default=None, help="with --path: comma-separated columns")
    args = parser.parse_args()
    if args.path:
        _timeline(args.path, args.runs, args.columns.split(",") if args.columns else None)
        return
    path = f"/tmp/ember_profile_{args.codec}.parquet"
    if not os.path.exists(path):
        data.groupby_data(int(args.rows)).to_parquet(path, compression=args.codec, index=False)
    xp = em.backend.xp()
    columns, chunks = _plan(path)
    size = os.path.getsize(path)
    print(f"{args.codec}: {size / 1e6:.0f} MB, {len(chunks)} chunks", flush=True)
    for threads in (4, 8, 16):
        print(
            f"  raw pread into pinned, {threads} threads: {_median_ms(lambda t=threads: _raw_read(path, size, t), args.runs)}"
        )
    print(
        f"  bytes up (_read_files) alone: {_median_ms(lambda: pd_._read_files([path], chunks, xp), args.runs)}"
    )

    def dictionaries(threads: int) -> None:
        with ThreadPoolExecutor(threads) as pool:
            once = pd_._Once()
            list(pool.map(lambda ch: pd_._dictionary(path, ch, columns[ch.column], once), chunks))

    for threads in (1, 4, 8, 16):
        print(
            f"  dictionary pages alone, {threads} threads: {_median_ms(lambda t=threads: dictionaries(t), args.runs)}"
        )

    _dictionary_spans(path, columns, chunks)

    def both(threads: int) -> None:
        worker = threading.Thread(target=dictionaries, args=(threads,))
        worker.start()
        pd_._read_files([path], chunks, xp)
        worker.join()

    for threads in (4, 16):
        print(
            f"  bytes up + dictionaries on {threads} threads: {_median_ms(lambda t=threads: both(t), args.runs)}"
        )
    _timeline(path, args.runs)
    default = sys.getswitchinterval()
    for interval in (default, 0.001, 0.0002):
        sys.setswitchinterval(interval)
        print(
            f"  read_parquet, switch interval {interval * 1e3:.1f} ms: {_median_ms(lambda: em.read_parquet(path), args.runs)}"
        )
    sys.setswitchinterval(default)


if __name__ == "__main__":
    main()

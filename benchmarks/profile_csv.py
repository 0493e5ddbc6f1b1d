"""Where ember's read_csv spends its time (GPU host): device-synchronized milliseconds per function of
the CSV layers, on db-benchmark's groupby table written as CSV. ``python benchmarks/profile_csv.py``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict

from profile_groupby import instrument, timed, wrap_functions

import ember as em
from ember.bench import data

MODULES = (
    "ember.io.csv",
    "ember.io.csv_gpu",
    "ember.io.csv_reference",
    "ember.io._paths",
    "ember.backend.kernels.csv",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--path", default="/tmp/ember_profile.csv")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--memory-trace", action="store_true", help="device memory after each call")
    args = parser.parse_args()
    if not os.path.exists(args.path):
        data.groupby_data(int(args.rows)).to_csv(args.path, index=False)
    size = os.path.getsize(args.path)
    plain = timed(lambda: em.read_csv(args.path), runs=3)
    _print_memory(args.path)
    if args.memory_trace:
        _trace_memory(args.path)
    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    instrument(totals, counts, MODULES)
    t0 = time.perf_counter()
    em.read_csv(args.path)
    em.backend.synchronize()
    total = (time.perf_counter() - t0) * 1e3
    print(
        f"read_csv {size / 1e6:.0f} MB: {plain:.1f} ms plain ({size / plain / 1e6:.2f} GB/s), {total:.1f} ms instrumented"
    )
    for key, secs in sorted(totals.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {secs * 1e3:8.2f} ms  {counts[key]:4d}x  {key}")


def _trace_memory(path: str) -> None:
    """Each profiled function's exit with the device bytes in use and the peak so far, where the peak
    grew during the call: where read_csv's high-water mark is set."""
    em.backend.reset_peak_device_bytes()
    base = em.backend.used_device_bytes()

    def around(fn, key):
        def traced_call(*a, **kw):
            before = em.backend.peak_device_bytes()
            out = fn(*a, **kw)
            after = em.backend.peak_device_bytes()
            if after > before:
                used = em.backend.used_device_bytes() - base
                print(f"  {key:40s} peak {(after - base) / 1e6:8.0f} MB, in use on exit {used / 1e6:8.0f} MB")
            return out

        return traced_call

    wrap_functions(MODULES, around)
    em.read_csv(path)


def _print_memory(path: str) -> None:
    """Peak device bytes of one read against the issue's bound: 2x the parsed frame plus one chunk."""
    from ember.io.csv_gpu import CHUNK_BYTES

    before = em.backend.used_device_bytes()
    em.backend.reset_peak_device_bytes()
    frame = em.read_csv(path)
    em.backend.synchronize()
    parsed = em.backend.used_device_bytes() - before
    peak = em.backend.peak_device_bytes() - before
    chunk = min(CHUNK_BYTES, os.path.getsize(path))
    bound = 2 * parsed + chunk
    print(
        f"device memory: peak {peak / 1e6:.0f} MB, parsed frame {parsed / 1e6:.0f} MB, chunk {chunk / 1e6:.0f} MB;"
        f" peak / (2 x frame + chunk) = {peak / bound:.2f}"
    )
    del frame


if __name__ == "__main__":
    main()

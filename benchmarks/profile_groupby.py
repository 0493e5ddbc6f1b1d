"""Where a db-benchmark groupby query spends its time on ember (GPU host): inclusive device-synchronized
milliseconds per function of the groupby layers. ``python benchmarks/profile_groupby.py --queries 2,3``.
``--dask`` runs each query as Dask runs it on one ember partition (its chunk and aggregate tasks, sync
scheduler), to see what a Dask task costs beyond ember's own groupby, and adds a cProfile of that run.

Every top-level function of the profiled modules is wrapped to synchronize the device before and after,
so each figure includes the device work it launched (nested calls are counted in their callers too).
The wrapping itself adds syncs: compare the 'total' line with the plain timing printed first.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import time
from collections import defaultdict

import numpy as np

import ember as em
from ember.bench import data, workloads

MODULES = (
    "ember.ops.groupby",
    "ember.ops.grouping",
    "ember.ops.group_kernels",
    "ember.ops.slot_grouping",
    "ember.backend.kernels.slots",
    "ember.ops.factorize",
    "ember.frame.groupby",
    "ember.backend.primitives",
    "ember.backend.kernels.segment",
    "ember.ops.sort",
    "ember.frame.convert",
)


def timed(fn, runs: int = 5) -> float:
    fn()
    em.backend.synchronize()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        em.backend.synchronize()
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples) * 1e3)


def wrap_functions(modules: tuple, around) -> None:
    """Replace each module's own top-level functions by ``around(fn, "module.name")``, also where
    another of the modules imported them by name."""
    wrapped = {}
    for name in modules:
        module = importlib.import_module(name)
        short = name.split(".")[-1]
        for attr, fn in list(vars(module).items()):
            if inspect.isfunction(fn) and fn.__module__ == name:
                wrapped[fn] = functools.wraps(fn)(around(fn, f"{short}.{attr}"))
    for name in modules:
        module = importlib.import_module(name)
        for attr, fn in list(vars(module).items()):
            if inspect.isfunction(fn) and fn in wrapped:
                setattr(module, attr, wrapped[fn])


def instrument(totals: dict[str, float], counts: dict[str, int], modules: tuple = MODULES) -> None:
    """Wrap each module's own top-level functions with a synchronized timer."""

    def around(fn, key):
        def timed_call(*args, **kwargs):
            em.backend.synchronize()
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                em.backend.synchronize()
                totals[key] += time.perf_counter() - t0
                counts[key] += 1

        return timed_call

    wrap_functions(modules, around)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--queries", default="2,3,5,10")
    parser.add_argument("--top", type=int, default=18)
    parser.add_argument("--dask", action="store_true", help="through Dask's groupby on one partition")
    parser.add_argument("--cprofile", action="store_true", help="also a cProfile of each plain query")
    parser.add_argument("--without-hash", action="store_true", help="wide keys by factorize's sort")
    args = parser.parse_args()
    raw = {"x": data.groupby_data(int(args.rows))}
    frames = workloads.CONVERTERS["ember"](raw)
    queries = {q: workloads.WORKLOADS[f"gb_q{q}"].impls["ember"] for q in args.queries.split(",")}
    if args.dask:
        queries = {q: _through_dask(q) for q in queries}
    if args.without_hash:  # wide keys left to factorize's sort (the path before hashed slots)
        from ember.ops import slot_grouping

        slot_grouping._hashable = lambda span, n: False
        print("without hashed slots")
    plain = {q: timed(lambda fn=fn: fn(frames)) for q, fn in queries.items()}
    if em.backend.current_device() == "gpu":
        from cupyx.profiler import benchmark

        for q, fn in queries.items():  # CPU time (launches, Python) against the device's own time
            print(f"gb_q{q}: {benchmark(fn, (frames,), n_repeat=20)}")
    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    instrument(totals, counts)
    for q, fn in queries.items():
        totals.clear()
        counts.clear()
        fn(frames)
        em.backend.synchronize()
        t0 = time.perf_counter()
        fn(frames)
        em.backend.synchronize()
        total = (time.perf_counter() - t0) * 1e3
        for key in list(totals):
            totals[key] /= 2
            counts[key] //= 2
        print(f"\ngb_q{q}: {plain[q]:.2f} ms plain, {total:.2f} ms instrumented")
        for key, secs in sorted(totals.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"  {secs * 1e3:8.2f} ms  {counts[key]:4d}x  {key}")
        if args.dask or args.cprofile:
            _print_cprofile(lambda fn=fn: fn(frames), args.top)


def _through_dask(query: str):
    """The query (as benchmarks/dask_overhead.py spells it) on a one-partition Dask collection of the
    same ember frame: Dask's own groupby chunk/aggregate functions call ember (sync scheduler)."""
    import dask.dataframe as dd
    from dask_overhead import GROUPBY

    import ember.dask  # noqa: F401  (registers the backend)

    keys, aggs = GROUPBY[f"gb_q{query}"]

    def run(frames):
        x = frames["x"]
        ddf = dd.from_map(_same_frame, [x], meta=x.iloc[:0], enforce_metadata=False)
        return ddf.groupby(keys, observed=True).agg(aggs).compute(scheduler="sync")

    return run


def _same_frame(frame):
    return frame


def _print_cprofile(fn, top: int) -> None:
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.runcall(fn)
    em.backend.synchronize()
    pstats.Stats(profile).sort_stats("tottime").print_stats(top)


if __name__ == "__main__":
    main()

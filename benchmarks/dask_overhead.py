"""Dask's overhead over ember alone, and a data set larger than the device limit through spilling.

``python benchmarks/dask_overhead.py [--rows 1e8] [--partitions 10[,2]] [--clusters processes,in-process] [--spill-limit 4GB] [--no-joins]
[--from-parquet]``

For db-benchmark groupby and join questions the same data run (a) on ember alone, one frame on one
device, and (b) through Dask with one ``LocalGPUCluster`` worker on that device, the frame split into
``--partitions`` ember partitions persisted on the worker before timing. The ratio (b)/(a) is Dask's
overhead (issue target: under 1.5x). ``--from-parquet`` also times each groupby question end to end
from the files (``dd.read_parquet`` -> answer against ``em.read_parquet`` -> answer). With ``--spill-limit`` a second cluster whose device limit is below
the persisted data runs the groupby questions again: partitions move device -> host (-> disk) and back,
and the answers must equal ember's. Each timing is the median of ``--runs`` after one warm-up; ember's
include a device synchronize. Prints one JSON record per line.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import ember as em
from ember.bench import data

GROUPBY = {
    "gb_q1": (["id1"], {"v1": "sum"}),
    "gb_q3": (["id3"], {"v1": "sum", "v3": "mean"}),
    "gb_q5": (["id6"], {"v1": "sum", "v2": "sum", "v3": "sum"}),
    "gb_q10": (["id1", "id2", "id3", "id4", "id5", "id6"], {"v3": "sum", "v1": "count"}),
}
_ONE_PARTITION = 1_000_000  # rows
JOINS = {
    "join_q2": ("medium", "id2", "inner"),
    "join_q3": ("medium", "id2", "left"),
    "join_q5": ("big", "id3", "inner"),
}


# Each timed run starts from an idle client: back to back, a compute's first message waits out the
# Dask client's 10 ms batching interval, started by the previous compute's release of its keys (a
# cost of a benchmark loop, not of one query; measured 10.6 -> 5.8 ms for one trivial task)
PAUSE_S = 0.03


def median_seconds(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    out = fn()
    em.backend.synchronize()
    times = []
    for _ in range(runs):
        time.sleep(PAUSE_S)
        t0 = time.perf_counter()
        out = fn()
        em.backend.synchronize()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


def _groupby(frame: Any, keys: list, aggs: dict) -> Any:
    return frame.groupby(keys, observed=True).agg(aggs)


def _same(a: Any, b: Any) -> bool:
    """Same rows in any order (Dask's group order is its own)."""
    pa, pb = a.to_pandas(), b.to_pandas()
    if hasattr(pa, "columns"):
        pa, pb = pa.sort_index(), pb.sort_index()
        return pa.shape == pb.shape and bool(
            np.allclose(pa.to_numpy(float), pb.to_numpy(float), equal_nan=True)
        )
    return len(pa) == len(pb)


def write_partitions(tables: dict, folder: str, partitions: int) -> dict:
    """Each table as ``partitions`` Parquet files (one per Dask partition); returns the folders."""
    import os
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
    paths = {}
    for name, table in tables.items():
        paths[name] = os.path.join(folder, name)
        os.makedirs(paths[name])
        # tables that fit one partition (the join questions' small and medium) stay whole, so Dask
        # broadcasts them instead of shuffling both sides
        parts = partitions if len(table) > _ONE_PARTITION else 1
        for i, rows in enumerate(np.array_split(np.arange(len(table)), parts)):
            table.iloc[rows].to_parquet(os.path.join(paths[name], f"part-{i:04d}.parquet"), index=False)
    return paths


def run_cluster(name: str, paths: dict, frames: dict, args: argparse.Namespace, **cluster_kw: Any) -> list:
    import dask.dataframe as dd
    from distributed import Client, wait

    import dask
    from ember.dask import LocalGPUCluster

    records = []
    with LocalGPUCluster(n_workers=1, **cluster_kw) as cluster, Client(cluster) as client:
        with dask.config.set({"dataframe.backend": "ember"}):
            ddfs = {k: dd.read_parquet(v).persist() for k, v in paths.items()}
        wait(list(ddfs.values()))
        floor, _ = median_seconds(lambda: client.submit(int, 1, pure=False).result(), args.runs)
        print(json.dumps({"cluster": name, "one_task_round_trip_s": round(floor, 4)}), flush=True)
        for q in args.queries.split(","):
            keys, aggs = GROUPBY[q]
            secs, got = median_seconds(lambda k=keys, a=aggs: _groupby(ddfs["x"], k, a).compute(), args.runs)
            base, want = median_seconds(lambda k=keys, a=aggs: _groupby(frames["x"], k, a), args.runs)
            records.append(_record(name, q, secs, base, _same(got, want)))
            if args.breakdown:
                _print_task_times(name, q, lambda k=keys, a=aggs: _groupby(ddfs["x"], k, a).compute())
        if args.from_parquet:
            records += _from_parquet(name, paths["x"], args)
        for q, (right, key, how) in JOINS.items() if "jx" in ddfs else ():
            secs, got = median_seconds(
                lambda r=right, k=key, h=how: _rows(ddfs["jx"], ddfs[r], k, h), args.runs
            )
            base, want = median_seconds(
                lambda r=right, k=key, h=how: _rows(frames["jx"], frames[r], k, h), args.runs
            )
            records.append(_record(name, q, secs, base, got == want))
        state = {"cluster": name, "spill_state": _worker_memory(client)}
        print(json.dumps(state, default=str), flush=True)
        records.append(state)
    return records


def _from_parquet(cluster: str, path: str, args: argparse.Namespace) -> list:
    """Each groupby question end to end, files -> answer: ``dd.read_parquet(...)...compute()`` on the
    cluster against ``em.read_parquet(...)...`` alone; the ratio is Dask's overhead on a whole query."""
    import dask.dataframe as dd

    import dask

    records = []
    for q in args.queries.split(","):
        keys, aggs = GROUPBY[q]

        def through_dask(k: list = keys, a: dict = aggs) -> Any:
            with dask.config.set({"dataframe.backend": "ember"}):
                return _groupby(dd.read_parquet(path), k, a).compute()

        secs, got = median_seconds(through_dask, args.runs)
        # Dask reads only the columns the query uses; so does ember alone
        used = keys + list(aggs)
        base, want = median_seconds(
            lambda k=keys, a=aggs, c=used: _groupby(em.read_parquet(path, columns=c), k, a), args.runs
        )
        # ember reading the files one call each, as Dask's tasks do: the per-call cost of the reader
        files = sorted(os.path.join(path, f) for f in os.listdir(path))
        per_file, _ = median_seconds(
            lambda c=used, fs=files: [em.read_parquet(f, columns=c) for f in fs], args.runs
        )
        rec = _record(f"{cluster}-from-parquet", q, secs, base, _same(got, want))
        rec["ember_file_by_file_read_s"] = round(per_file, 4)
        print(
            json.dumps({"query": q, "ember_file_by_file_read_s": rec["ember_file_by_file_read_s"]}),
            flush=True,
        )
        records.append(rec)
        if args.breakdown:
            _print_task_times(f"{cluster}-from-parquet", q, through_dask)
    return records


def _profile_from_parquet(path: str, args: argparse.Namespace, top: int = 25) -> None:
    """Where a query from the files spends its time inside Dask's tasks: the same graph on the
    synchronous scheduler in this process, under cProfile (time sorted by own time)."""
    import cProfile
    import pstats

    import dask.dataframe as dd

    import dask

    for q in args.queries.split(","):
        keys, aggs = GROUPBY[q]

        def run(k: list = keys, a: dict = aggs) -> Any:
            with dask.config.set({"dataframe.backend": "ember"}):
                out = _groupby(dd.read_parquet(path), k, a).compute(scheduler="sync")
            em.backend.synchronize()
            return out

        run()
        print(f"=== cProfile {q} from the files (sync scheduler)", flush=True)
        profile = cProfile.Profile()
        profile.runcall(run)
        pstats.Stats(profile).sort_stats("tottime").print_stats(top)


def _print_task_times(cluster: str, q: str, fn: Callable[[], Any]) -> None:
    """Where one run's time goes: the workers' compute seconds per task name (the rest of the wall
    time is scheduling, transfers and the client)."""
    from collections import defaultdict

    from distributed import get_task_stream

    time.sleep(PAUSE_S)
    t0 = time.perf_counter()
    with get_task_stream() as stream:
        fn()
    wall = time.perf_counter() - t0
    per_task: dict = defaultdict(lambda: [0, 0.0])
    for task in stream.data:
        key = task["key"][0] if isinstance(task["key"], tuple) else task["key"]
        entry = per_task[str(key).rsplit("-", 1)[0]]
        entry[0] += 1
        entry[1] += sum(s["stop"] - s["start"] for s in task["startstops"] if s["action"] == "compute")
    tasks = {k: {"n": n, "compute_s": round(secs, 4)} for k, (n, secs) in per_task.items()}
    busy = sum(secs for _, secs in per_task.values())
    record = {"cluster": cluster, "query": q, "wall_s": round(wall, 4), "tasks_compute_s": round(busy, 4)}
    print(json.dumps({**record, "tasks": tasks}), flush=True)


def _rows(left: Any, right: Any, key: str, how: str) -> int:
    return int(len(left.merge(right, on=key, how=how)))


def _record(cluster: str, q: str, secs: float, base: float, same: bool) -> dict:
    rec = {"cluster": cluster, "query": q, "dask_s": round(secs, 4), "ember_s": round(base, 4)}
    rec.update(overhead=round(secs / base, 2) if base else None, same_result=same)
    print(json.dumps(rec), flush=True)
    return rec


def _worker_memory(client: Any) -> Any:
    def spill_state(dask_worker: Any) -> dict:
        buf = getattr(dask_worker, "data", None)
        return {k: getattr(buf, k) for k in ("device_bytes", "host_bytes", "disk_bytes") if hasattr(buf, k)}

    try:
        return client.run(spill_state)
    except Exception as exc:  # noqa: BLE001 - informational only
        return f"unavailable: {exc}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    gpu = em.backend.current_device() == "gpu"
    parser.add_argument("--rows", type=float, default=1e8 if gpu else 1e6)
    parser.add_argument("--partitions", default="10", help="Parquet files per table; a list runs each")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--clusters",
        default="processes",
        help="processes (a worker process), in-process (LocalGPUCluster(processes=False)), or both",
    )
    parser.add_argument("--spill-limit", default=None, help='device limit of the spilling run, e.g. "4GB"')
    parser.add_argument("--no-joins", action="store_true", help="groupby questions only (no join tables)")
    parser.add_argument(
        "--int-join-keys",
        action="store_true",
        help="join tables without the id4-id6 string columns (the questions join on int keys)",
    )
    parser.add_argument("--queries", default=",".join(GROUPBY), help="groupby questions to run")
    parser.add_argument("--from-parquet", action="store_true", help="also time each query from the files")
    parser.add_argument(
        "--profile", action="store_true", help="cProfile each query from the files, in-process"
    )
    parser.add_argument("--breakdown", action="store_true", help="print each run's compute time per task")
    parser.add_argument("--dir", default="/tmp/ember_dask_bench", help="folder for the Parquet partitions")
    args = parser.parse_args()
    n = int(args.rows)
    t0 = time.perf_counter()
    tables = {"x": data.groupby_data(n)}
    if not args.no_joins:
        joins = data.join_data(n, labels=not args.int_join_keys)
        tables.update(jx=joins["x"], medium=joins["medium"], big=joins["big"])
    for partitions in (int(p) for p in str(args.partitions).split(",")):
        paths = write_partitions(tables, args.dir, partitions)
        frames = {k: em.read_parquet(v) for k, v in paths.items()}  # ember alone reads the same files
        setup = {"rows": n, "partitions": partitions, "device": em.backend.current_device()}
        setup["setup_s"] = round(time.perf_counter() - t0, 1)
        print(json.dumps(setup), flush=True)
        if args.profile:
            _profile_from_parquet(paths["x"], args)
        for kind in args.clusters.split(","):
            in_process = {"processes": True, "in-process": False}[kind]
            run_cluster(f"dask-{kind}-{partitions}-partitions", paths, frames, args, processes=in_process)
        if args.spill_limit:
            frames = {"x": frames["x"]}
            run_cluster(
                "dask-spilling", {"x": paths["x"]}, frames, args, device_memory_limit=args.spill_limit
            )
        del frames


if __name__ == "__main__":
    main()

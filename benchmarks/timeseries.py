"""String and time-series workloads of issue #5: ember vs pandas vs Polars (vs cuDF when importable),
same data, one process.

    python benchmarks/timeseries.py --rows 100000000 [--asof-rows 10000000] [--string-rows 10000000]
                                    [--repeat 3] [--skip pandas]

Workloads: rolling mean (window 100) on ``rows`` float64s; resample of ``rows`` one-second readings to
hourly means; merge_asof of ``asof-rows`` x ``asof-rows`` sorted timestamps (backward, with a ``by``
key of 100 values); on ``string-rows`` strings such as ``"Zqmxa-417-bkT"``: lower, contains of a regex,
split on ``-``, and to_datetime of ISO 8601 strings. pandas runs on its default (Arrow-backed) string
dtype. Inputs are built once per library (not timed); every timed call ends with
``ember.backend.synchronize()`` (and cuDF's device sync) before the clock is read. The best of
``--repeat`` runs after one warm-up is reported, with ember's speed-up over each peer.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd


def _sync() -> None:
    from ember.backend import synchronize

    synchronize()


def _time(fn: Callable[[], Any], repeat: int) -> float:
    fn()
    _sync()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        _sync()
        best = min(best, time.perf_counter() - t0)
    return best


_REGEX = r"[0-9]{3}-[a-z]+T"


def _strings(n: int, rng: np.random.Generator) -> tuple[pd.Series, pd.Series]:
    """``n`` words-and-numbers strings (from a 1,000-word vocabulary) and ``n`` ISO 8601 timestamps."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    vocab = np.array(["".join(rng.choice(letters, rng.integers(3, 9))) for _ in range(1000)], dtype=object)
    words = vocab[rng.integers(0, 1000, n)] + "-" + rng.integers(0, 1000, n).astype(str).astype(object)
    words = words + "-" + vocab[rng.integers(0, 1000, n)]
    stamps = np.datetime64("2020-01-01T00:00:00") + rng.integers(0, 10**8, n).astype("timedelta64[s]")
    return pd.Series(words, name="s", dtype="str"), pd.Series(np.datetime_as_string(stamps), dtype="str")


def make_data(rows: int, asof_rows: int, string_rows: int = 0, seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    words, iso = _strings(string_rows, rng)
    values = rng.normal(size=rows).cumsum() + 100.0
    t = pd.date_range("2020-01-01", periods=rows, freq="s")
    lt = np.sort(rng.integers(0, asof_rows * 10, asof_rows)).astype("datetime64[s]").astype("datetime64[ns]")
    rt = np.sort(rng.integers(0, asof_rows * 10, asof_rows)).astype("datetime64[s]").astype("datetime64[ns]")
    return {
        "series": pd.Series(values, name="v"),
        "ts": pd.DataFrame({"t": t, "v": values}),
        "left": pd.DataFrame(
            {"t": lt, "k": rng.integers(0, 100, asof_rows), "x": rng.normal(size=asof_rows)}
        ),
        "right": pd.DataFrame(
            {"t": rt, "k": rng.integers(0, 100, asof_rows), "y": rng.normal(size=asof_rows)}
        ),
        "words": words,
        "iso": iso,
    }


def ember_workloads(d: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    import ember
    from ember.frame.timeseries import merge_asof, resample
    from ember.frame.window import rolling

    s, ts = ember.from_pandas(d["series"]), ember.from_pandas(d["ts"])
    left, right = ember.from_pandas(d["left"]), ember.from_pandas(d["right"])
    words, iso = ember.from_pandas(d["words"]), ember.from_pandas(d["iso"])
    return {
        "rolling mean w=100": lambda: rolling(s, 100).mean(),
        "resample 1h mean": lambda: resample(ts, "1h", on="t").mean(),
        "merge_asof by": lambda: merge_asof(left, right, on="t", by="k"),
        "str.lower": lambda: words.str.lower(),
        "str.contains regex": lambda: words.str.contains(_REGEX),
        "str.split": lambda: words.str.split("-"),
        "to_datetime ISO": lambda: ember.to_datetime(iso),
    }


def pandas_workloads(d: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    s, ts, left, right = d["series"], d["ts"], d["left"], d["right"]
    return {
        "rolling mean w=100": lambda: s.rolling(100).mean(),
        "resample 1h mean": lambda: ts.resample("1h", on="t").mean(),
        "merge_asof by": lambda: pd.merge_asof(left, right, on="t", by="k"),
        "str.lower": lambda: d["words"].str.lower(),
        "str.contains regex": lambda: d["words"].str.contains(_REGEX),
        "str.split": lambda: d["words"].str.split("-"),
        "to_datetime ISO": lambda: pd.to_datetime(d["iso"]),
    }


def polars_workloads(d: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    import polars as pl

    s = pl.from_pandas(d["series"])
    ts = pl.from_pandas(d["ts"])
    left = pl.from_pandas(d["left"]).set_sorted("t")
    right = pl.from_pandas(d["right"]).set_sorted("t")
    words, iso = pl.from_pandas(d["words"]), pl.from_pandas(d["iso"])
    return {
        "rolling mean w=100": lambda: s.rolling_mean(100),
        "resample 1h mean": lambda: ts.group_by_dynamic("t", every="1h").agg(pl.col("v").mean()),
        "merge_asof by": lambda: left.join_asof(right, on="t", by="k"),
        "str.lower": lambda: words.str.to_lowercase(),
        "str.contains regex": lambda: words.str.contains(_REGEX),
        "str.split": lambda: words.str.split("-"),
        "to_datetime ISO": lambda: iso.str.to_datetime("%Y-%m-%dT%H:%M:%S"),
    }


def cudf_workloads(d: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    import cudf

    s, ts = cudf.from_pandas(d["series"]), cudf.from_pandas(d["ts"])
    left, right = cudf.from_pandas(d["left"]), cudf.from_pandas(d["right"])
    words, iso = cudf.from_pandas(d["words"]), cudf.from_pandas(d["iso"])
    return {
        "rolling mean w=100": lambda: s.rolling(100).mean(),
        "resample 1h mean": lambda: ts.set_index("t").resample("1h").mean(),
        "merge_asof by": lambda: cudf.merge_asof(left, right, on="t", by="k"),
        "str.lower": lambda: words.str.lower(),
        "str.contains regex": lambda: words.str.contains(_REGEX),
        "str.split": lambda: words.str.split("-"),
        "to_datetime ISO": lambda: cudf.to_datetime(iso),
    }


PEERS = {
    "ember": ember_workloads,
    "pandas": pandas_workloads,
    "polars": polars_workloads,
    "cudf": cudf_workloads,
}


def run(
    rows: int, asof_rows: int, string_rows: int, repeat: int = 3, skip: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """Seconds per (workload, library); libraries that cannot be imported are left out."""
    data = make_data(rows, asof_rows, string_rows)
    results = []
    for lib, build in PEERS.items():
        if lib in skip:
            continue
        try:
            fns = build(data)
        except ImportError:
            continue
        for name, fn in fns.items():
            results.append(
                {
                    "workload": name,
                    "library": lib,
                    "seconds": _time(fn, repeat),
                    "rows": asof_rows if "asof" in name else string_rows if _is_string(name) else rows,
                }
            )
    return results


def _is_string(workload: str) -> bool:
    return workload.startswith(("str.", "to_datetime"))


def report(results: list[dict[str, Any]]) -> str:
    lines = [f"{'workload':<22}{'library':<9}{'seconds':>10}{'ember x':>10}"]
    ember_t = {r["workload"]: r["seconds"] for r in results if r["library"] == "ember"}
    for r in results:
        speed = ember_t.get(r["workload"])
        ratio = f"{r['seconds'] / speed:9.1f}x" if speed and r["library"] != "ember" else ""
        lines.append(f"{r['workload']:<22}{r['library']:<9}{r['seconds']:>10.4f}{ratio:>10}")
    return "\n".join(lines)


def _count(text: str) -> int:
    """A row count given as 100000000 or 1e8."""
    return int(float(text))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=_count, default=1_000_000)
    p.add_argument(
        "--asof-rows", type=_count, default=None, help="rows per side of merge_asof (default rows // 10)"
    )
    p.add_argument("--string-rows", type=_count, default=None, help="strings (default rows // 10)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--skip", nargs="*", default=[], choices=list(PEERS))
    args = p.parse_args()
    asof_rows = args.asof_rows if args.asof_rows is not None else max(args.rows // 10, 1)
    string_rows = args.string_rows if args.string_rows is not None else max(args.rows // 10, 1)
    print(report(run(args.rows, asof_rows, string_rows, args.repeat, tuple(args.skip))))


if __name__ == "__main__":
    main()

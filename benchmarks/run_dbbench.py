"""db-benchmark's groupby questions q1-q10 (q9 included) and join questions q1-q5, plus the two-key
sort, on the G1 / join generators' data: ember beside pandas, Polars, DuckDB (and cuDF on a GPU host).

Fixed settings: 1e7 rows on a GPU, 1e6 on a CPU; median of 3 runs after a warm-up. Results in
bench-out/dbbench*. Extra arguments are passed on to ``ember bench`` (later ones win), e.g.
``python benchmarks/run_dbbench.py --rows 1e8``.
"""

from __future__ import annotations

import sys

import ember
from ember.bench import main


def run(extra: list[str]) -> int:
    rows = "1e7" if ember.backend.current_device() == "gpu" else "1e6"
    return main(
        ["--workloads", "gb_q*,sort,join", "--rows", rows, "--runs", "3"]
        + ["--json", "bench-out/dbbench.json", "--out", "bench-out/dbbench", *extra]
    )


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))

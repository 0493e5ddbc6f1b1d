"""The seed post's table, reproduced: NumPy vs ember on sin^2 + cos^2, then mean, groupby-mean in its
three spellings and the self-merge, beside pandas, Polars, DuckDB (and cuDF/CuPy on a GPU host).

Fixed settings: sin/cos on 1e8 values on a GPU (1e7 on a CPU), the rest on 1e7 rows on a GPU (1e6 on a
CPU); median of 5 runs after a warm-up. Results in bench-out/seed*. Extra arguments are passed on to
``ember bench`` (later ones win), e.g. ``python benchmarks/run_seed.py --libraries ember,pandas``.
"""

from __future__ import annotations

import sys

import ember
from ember.bench import main


def run(extra: list[str]) -> int:
    gpu = ember.backend.current_device() == "gpu"
    common = ["--runs", "5"]
    status = main(
        ["--workloads", "seed_sincos", "--rows", "1e8" if gpu else "1e7", *common]
        + ["--json", "bench-out/seed_sincos.json", "--out", "bench-out/seed_sincos", *extra]
    )
    return status or main(
        ["--workloads", "seed", "--rows", "1e7" if gpu else "1e6", *common]
        + ["--json", "bench-out/seed.json", "--out", "bench-out/seed", *extra]
    )


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))

"""ember's figures from an ``ember bench --json`` file against the anchors measured on the GPU host
(``../shared/anchors/*.md``: cuDF, Polars, DuckDB, pandas): per-workload ratios and the geometric
means over the groupby questions that the relational-core issue targets.

``python benchmarks/anchor_ratios.py bench.json [--anchors ../shared/anchors/h200-2026-12-02.md]``
"""

from __future__ import annotations

import argparse
import json
import math
import os

GROUPBY_QUESTIONS = [f"gb_q{q}" for q in (1, 2, 3, 4, 5, 6, 7, 8, 10)]


def read_anchors(path: str) -> dict[str, dict[str, float]]:
    """{workload: {library: ms}} from the first markdown table of an anchors file."""
    out: dict[str, dict[str, float]] = {}
    header: list[str] | None = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|"):
                if header is not None and out:
                    break
                continue
            if header is None:
                header = cells
                continue
            if set(cells[0]) <= {"-", ":"}:
                continue
            row = {}
            for name, cell in zip(header[1:], cells[1:]):
                try:
                    row[name.lower()] = float(cell)
                except ValueError:
                    pass
            out[cells[0]] = row
    return out


def ember_ms(records: list[dict]) -> dict[str, float]:
    return {
        r["workload"]: r["seconds"] * 1e3
        for r in records
        if r.get("library") == "ember" and r.get("seconds") and r.get("status", "ok") == "ok"
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench_json")
    default = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "anchors", "h200-2026-12-02.md")
    parser.add_argument("--anchors", default=default)
    args = parser.parse_args()
    with open(args.bench_json, encoding="utf-8") as f:
        ours = ember_ms(json.load(f))
    anchors = read_anchors(args.anchors)
    peers = ("cudf", "polars")
    print("| workload | ember ms | " + " | ".join(f"{p} ms | vs {p}" for p in peers) + " |")
    print("|---|---|" + "---|---|" * len(peers))
    for name, ms in sorted(ours.items()):
        cells = []
        for p in peers:
            ref = anchors.get(name, {}).get(p)
            cells += [f"{ref:g}" if ref else "", f"{ref / ms:.2f}x" if ref else ""]
        print(f"| {name} | {ms:.3g} | " + " | ".join(cells) + " |")
    for p in peers:
        pairs = [(anchors[q][p], ours[q]) for q in GROUPBY_QUESTIONS if q in ours and p in anchors.get(q, {})]
        if pairs:
            geo = math.exp(sum(math.log(ref / ms) for ref, ms in pairs) / len(pairs))
            print(f"geometric mean over {len(pairs)} groupby questions vs {p}: {geo:.2f}x")


if __name__ == "__main__":
    main()

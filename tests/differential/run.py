"""Runs the differential fuzzer outside pytest: N chains, counted by outcome, divergences deduplicated.

    python -m tests.differential.run --chains 2000 --seed 0 --jobs 1
    python tests/differential/run.py --chains 200 --seed 7 --only 123    # replay one chain

Chain i of seed S draws from ``numpy.random.default_rng([S, i])``, so any chain can be replayed alone.
Each distinct divergence (op, error kind) is shrunk (fewer steps, columns, rows) and printed as a repro.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_engine as fe  # noqa: E402
from fuzz_known import known, known_result  # noqa: E402
from fuzz_ops import TABLE  # noqa: E402

import ember  # noqa: E402


def run_range(seed: int, start: int, stop: int, include_known: bool, max_steps: int, shrink: bool) -> dict:
    """Runs chains start..stop-1 of ``seed``; returns counts, op counts and the first repro per key."""
    ember.config.set(device="cpu")
    counts: Counter[str] = Counter()
    found: dict[tuple[str, str], dict] = {}
    type_differs: dict[tuple[str, str], dict] = {}
    unsupported: Counter[str] = Counter()
    for i in range(start, stop):
        d = fe.RngDrawer([seed, i])
        try:
            pobj, steps, out = fe.fuzz_one(d, TABLE, known, skip_known=not include_known, max_steps=max_steps)
        except Exception as exc:  # noqa: BLE001 - a bug of the fuzzer itself: count it, keep going
            import traceback

            counts["fuzzer-error"] += 1
            found.setdefault(
                ("fuzzer", type(exc).__name__), {"chain": i, "repro": traceback.format_exc(), "count": 0}
            )
            continue
        if out.status == fe.DIVERGENCE and not include_known and known_result(out, steps, pobj):
            counts["known divergence"] += 1
            continue
        counts[out.status] += 1
        if out.status == fe.UNSUPPORTED:
            unsupported[out.key[0]] += 1
        if out.status == fe.BOTH_RAISE and out.type_differs:
            counts["both-raise, other type"] += 1
            if out.key not in type_differs:
                type_differs[out.key] = {
                    "chain": i,
                    "repro": fe.repro(pobj, steps[: out.steps_run], out),
                    "count": 0,
                }
            type_differs[out.key]["count"] += 1
        if out.status == fe.DIVERGENCE:
            if out.key not in found:
                if shrink:
                    pobj, steps, out2 = fe.shrink(pobj, steps, out)
                else:
                    out2 = out
                found[out.key] = {
                    "chain": i,
                    "repro": fe.repro(pobj, steps[: out2.steps_run], out2),
                    "signature": out2.signature,
                    "count": 0,
                }
            found[out.key]["count"] += 1
    return {"counts": counts, "found": found, "type_differs": type_differs, "unsupported": unsupported}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chains", type=int, default=int(os.environ.get("EMBER_FUZZ_EXAMPLES", 1000)))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("EMBER_FUZZ_SEED", 0)))
    ap.add_argument("--start", type=int, default=0, help="first chain number")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", type=int, default=None, help="replay chain ONLY of SEED and print it")
    ap.add_argument("--max-steps", type=int, default=5)
    ap.add_argument("--include-known", action="store_true", help="also draw the known divergences")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument(
        "--show-type-differs", action="store_true", help="print repros where both raise, types differ"
    )
    ap.add_argument("--markdown", default=None, help="also write the divergences' repros to this file")
    ap.add_argument(
        "--show-unsupported", type=int, default=10, help="print the N most frequent unsupported ops"
    )
    args = ap.parse_args(argv)

    if args.only is not None:
        ember.config.set(device="cpu")
        d = fe.RngDrawer([args.seed, args.only])
        pobj, steps, out = fe.fuzz_one(
            d, TABLE, known, skip_known=not args.include_known, max_steps=args.max_steps
        )
        print(f"status: {out.status} {out.key}")
        print(fe.repro(pobj, steps, out))
        return 0

    t0 = time.perf_counter()
    lo, hi = args.start, args.start + args.chains
    if args.jobs <= 1:
        results = [run_range(args.seed, lo, hi, args.include_known, args.max_steps, not args.no_shrink)]
    else:
        import multiprocessing as mp

        bounds = [lo + (hi - lo) * k // args.jobs for k in range(args.jobs + 1)]
        with mp.get_context("fork").Pool(args.jobs) as pool:
            results = pool.starmap(
                run_range,
                [
                    (args.seed, a, b, args.include_known, args.max_steps, not args.no_shrink)
                    for a, b in zip(bounds, bounds[1:])
                ],
            )
    elapsed = time.perf_counter() - t0

    counts: Counter[str] = Counter()
    unsupported: Counter[str] = Counter()
    found: dict = {}
    type_differs: dict = {}
    for r in results:
        counts.update(r["counts"])
        unsupported.update(r["unsupported"])
        for dest, src in ((found, r["found"]), (type_differs, r["type_differs"])):
            for k, v in src.items():
                if k in dest:
                    dest[k]["count"] += v["count"]
                else:
                    dest[k] = v

    if args.show_type_differs:
        print(f"=== both raise, exception types differ: {len(type_differs)} distinct")
        for (op, kind), v in sorted(type_differs.items()):
            print(f"\n--- [{op}] {kind}  (x{v['count']}, first: chain {v['chain']} of seed {args.seed})")
            print(v["repro"])
    print(f"\n=== divergences: {len(found)} distinct")
    for (op, kind), v in sorted(found.items()):
        print(f"\n--- [{op}] {kind}  (x{v['count']}, first: chain {v['chain']} of seed {args.seed})")
        print(f"# {v.get('signature', '')}")
        print(v["repro"])
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(
                f"# Divergences: {len(found)} distinct (op, kind) in chains {lo}..{hi - 1} of seed {args.seed}\n"
            )
            for (op, kind), v in sorted(found.items()):
                f.write(
                    f"\n## [{op}] {kind} (x{v['count']}, chain {v['chain']})\n`{v.get('signature', '')}`\n"
                )
                f.write(f"```python\n{v['repro']}\n```\n")
    print("\n=== most frequent unsupported ops:")
    for op, c in unsupported.most_common(args.show_unsupported):
        print(f"  {c:6d}  {op}")
    total = sum(
        counts[k]
        for k in (fe.PASS, fe.UNSUPPORTED, fe.BOTH_RAISE, fe.DIVERGENCE, "known divergence", "fuzzer-error")
    )
    print(f"\n=== {total} chains in {elapsed:.1f} s ({total / elapsed:.1f} chains/s, {args.jobs} job(s))")
    for k in (
        fe.PASS,
        fe.UNSUPPORTED,
        fe.BOTH_RAISE,
        "both-raise, other type",
        "known divergence",
        fe.DIVERGENCE,
        "fuzzer-error",
    ):
        print(f"  {k:24s} {counts[k]}")
    print(f"  distinct divergences     {len(found)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

"""``ember bench``: ember side by side with pandas, Polars, DuckDB, NumPy, scikit-learn (and cuDF, cuML,
CuPy on a GPU host) on the same data, in one process.

Each workload runs once to warm up, then ``--runs`` times; the table shows the median. Results go to
stdout and to ``--out`` (results.md, bench.png), and to ``--json FILE`` as a list of records.
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Sequence

__all__ = ["main"]

_EPILOG = """\
workloads (names, groups or patterns, comma-separated; "all" adds the ones off by default):
{workloads}

libraries: {libraries}
  Libraries that are not installed (or, for cudf/cuml/cupy, that have no GPU) are skipped with a note.
  ember workloads whose API is not built yet are reported as "unsupported: <reason>", never estimated.

examples:
  ember bench                                  # default workloads, 1e7 rows on a GPU, 1e6 on a CPU
  ember bench --workloads seed --rows 1e8      # the seed post's table at 1e8 rows
  ember bench --workloads gb_q1,gb_q2 --libraries ember,pandas,polars --runs 5 --json out.json
"""


def _rows(text: str) -> int:
    """Row counts as ints or in scientific notation ("1e7")."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--rows must be a number like 1000000 or 1e6, got {text!r}"
        ) from None
    if value < 1 or value != int(value):
        raise argparse.ArgumentTypeError(f"--rows must be a positive whole number, got {text!r}")
    return int(value)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    from ember.bench.workloads import LIBRARIES, WORKLOADS

    listing = "\n".join(
        f"  {w.name:<24} {w.description}{'' if w.default else '  [off by default]'}"
        for w in WORKLOADS.values()
    )
    parser = argparse.ArgumentParser(
        prog="ember bench",
        description=__doc__,
        epilog=_EPILOG.format(workloads=listing, libraries=", ".join(LIBRARIES)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--rows", type=_rows, default=None, help="rows per data set (default 1e7 on a GPU, 1e6 on a CPU)"
    )
    parser.add_argument("--workloads", default=None, help="comma list of workload names, groups or patterns")
    parser.add_argument(
        "--libraries", default=None, help="comma list of libraries (default: all that are installed)"
    )
    parser.add_argument(
        "--runs", type=_positive, default=3, help="timed runs per workload; the median is reported"
    )
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs before timing (default 1)")
    parser.add_argument(
        "--json", metavar="FILE", default=None, help="write the records to FILE as a JSON list"
    )
    parser.add_argument(
        "--out", default="bench-out", help="folder for results.md and bench.png (default bench-out)"
    )
    parser.add_argument("--no-plot", action="store_true", help="skip the PNG chart")
    parser.add_argument(
        "--device", choices=("auto", "gpu", "cpu"), default=None, help="ember's device (default: auto)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--list", action="store_true", help="list the workloads and libraries, then exit")
    return parser


def _header(rows: int, runs: int, warmup: int) -> str:
    import ember

    device = ember.backend.current_device()
    return (
        f"ember {ember.__version__} bench on {device.upper()} | {platform.machine()} "
        f"Python {platform.python_version()} | rows={rows:,} | median of {runs} run(s) after {warmup} warm-up"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark from command-line arguments; returns the exit status (0, or 2 on bad arguments)."""
    import os

    import ember
    from ember.bench import harness, report
    from ember.bench.workloads import WORKLOADS, select

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list:
        for w in WORKLOADS.values():
            print(f"{w.name:<24} {w.group:<5} {', '.join(w.impls)}")
        return 0
    previous = ember.config.get("device")
    if args.device:
        try:
            ember.config.set(device=args.device)
            ember.backend.current_device()
        except Exception as exc:  # e.g. --device gpu without a GPU: the message names the fix
            ember.config.set(device=previous)
            print(f"ember bench: {exc}", file=sys.stderr)
            return 2
    try:
        chosen = select(args.workloads)
    except ValueError as exc:
        parser.error(str(exc))
    requested = [s.strip() for s in args.libraries.split(",") if s.strip()] if args.libraries else None
    libraries, notes = harness.resolve_libraries(requested)
    rows = args.rows or (10_000_000 if ember.backend.current_device() == "gpu" else 1_000_000)
    header = _header(rows, args.runs, args.warmup)
    print(header, file=sys.stderr)
    for lib, note in notes.items():
        print(f"note: {lib} skipped: {note}", file=sys.stderr)
    records = harness.run(
        chosen, libraries, rows, runs=args.runs, warmup=max(args.warmup, 0), progress=not args.no_progress
    )
    table = report.markdown_table(records, notes=notes)
    memory = report.memory_table(records)
    if memory:
        table += (
            "\nDevice memory (peak while the calls ran; inputs: the prepared frames, live before):\n\n"
            + memory
        )
    print(table)
    counts = report.summary(records)
    print(f"{counts['measured']} measured, {counts['unsupported']} unsupported, {counts['errors']} errors")
    report.write_markdown(f"{header}\n\n{table}", os.path.join(args.out, "results.md"), title="ember bench")
    if not args.no_plot:
        report.plot(records, os.path.join(args.out, "bench.png"))
    if args.json:
        report.write_json(records, args.json)
    return 0

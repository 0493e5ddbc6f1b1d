"""Reporting: JSON records, a markdown table with ratios, and a PNG bar chart.

The table has one row per workload and one column per library (milliseconds, median of the runs),
then two ratios for the focus library (ember by default): "vs pandas" = pandas time / ember time and
"vs best peer" = the fastest other library's time / ember time, so > 1x means ember is faster.
Unsupported and failed cells are marked and their reasons listed under the table, grouped; a GPU
library's result that differs from pandas' is flagged "(mismatch)" and gets no ratio.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from ember.bench.harness import Record
from ember.bench.workloads import LIBRARIES


def write_json(records: Sequence[Record], path: str) -> None:
    """A JSON list of records: library, workload, rows, seconds, runs (+ times, status, peak memory, device)."""
    _ensure_parent(path)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump([r.to_json() for r in records], fh, indent=1)
        fh.write("\n")


def read_json(path: str) -> list[Record]:
    with open(path, encoding="utf-8") as fh:
        return [Record(**item) for item in json.load(fh)]


def _ensure_parent(path: str) -> None:
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)


def format_ms(seconds: float) -> str:
    ms = seconds * 1e3
    if ms >= 100:
        return f"{ms:,.0f}"
    if ms >= 1:
        return f"{ms:.2f}"
    return f"{ms:.3f}"


def format_ratio(ratio: float) -> str:
    return f"{ratio:.1f}x" if ratio >= 10 else f"{ratio:.2f}x"


def _table_libraries(records: Sequence[Record]) -> list[str]:
    present = {r.library for r in records}
    return [lib for lib in LIBRARIES if lib in present] + sorted(present - set(LIBRARIES))


def _cells(records: Sequence[Record]) -> dict[str, dict[str, Record]]:
    table: dict[str, dict[str, Record]] = {}
    for r in records:
        table.setdefault(r.workload, {})[r.library] = r
    return table


def _marker(status: str) -> str:
    return "unsupported" if status.startswith("unsupported") else "error"


def _mismatch(rec: Record) -> bool:
    return bool(rec.check and rec.check.startswith("mismatch"))


def ratios(row: dict[str, Record], focus: str) -> tuple[str, str]:
    """("vs pandas", "vs best peer") cells for the focus library in one workload's row."""
    mine = row.get(focus)
    if mine is None or not mine.ok or not mine.seconds or _mismatch(mine):
        return "", ""
    pandas = row.get("pandas")
    vs_pandas = format_ratio(pandas.seconds / mine.seconds) if pandas and pandas.ok and pandas.seconds else ""
    peers = [r for lib, r in row.items() if lib != focus and r.ok and r.seconds]
    if not peers:
        return vs_pandas, ""
    best = min(peers, key=lambda r: r.seconds or 0.0)
    return vs_pandas, f"{format_ratio(best.seconds / mine.seconds)} ({best.library})"


def markdown_table(
    records: Sequence[Record], focus: str = "ember", notes: dict[str, str] | None = None
) -> str:
    """The results as a markdown table (ms), with ratios for ``focus`` and the failure reasons below it."""
    libs = _table_libraries(records)
    has_focus = focus in libs
    head = ["workload", "rows", *(f"{lib} ms" for lib in libs)]
    if has_focus:
        head += [f"{focus} vs pandas", f"{focus} vs best peer"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    reasons: dict[tuple[str, str], list[str]] = {}
    for workload, row in _cells(records).items():
        rows = max(r.rows for r in row.values())
        cells = [workload, f"{rows:,}"]
        for lib in libs:
            rec = row.get(lib)
            if rec is None:
                cells.append("")
            elif rec.ok and rec.seconds is not None:
                flag = " (mismatch)" if _mismatch(rec) else ""
                cells.append(format_ms(rec.seconds) + flag)
                if flag:
                    reasons.setdefault((lib, f"result differs from pandas: {rec.check}"), []).append(workload)
            else:
                cells.append(_marker(rec.status))
                reasons.setdefault((lib, rec.status), []).append(workload)
        if has_focus:
            cells += list(ratios(row, focus))
        lines.append("| " + " | ".join(cells) + " |")
    out = "\n".join(lines) + "\n"
    if reasons or notes:
        out += "\nNotes:\n"
        for (lib, status), names in reasons.items():
            out += f"- {lib} on {_names(names)}: {status}\n"
        for lib, note in (notes or {}).items():
            out += f"- {lib} skipped: {note}\n"
    return out


def memory_table(records: Sequence[Record], focus: str = "ember") -> str:
    """Peak device memory of ``focus`` per workload against its inputs and output (GB), and the ratio
    peak / (inputs + output); empty when nothing was tracked (the CPU backend)."""
    rows = [
        r
        for r in records
        if r.library == focus and r.ok and r.peak_device_bytes and r.input_device_bytes is not None
    ]
    if not rows:
        return ""
    lines = [
        f"| workload | rows | {focus} peak GB | inputs GB | output GB | peak / (inputs + output) |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        base = (r.input_device_bytes or 0) + (r.output_device_bytes or 0)
        ratio = f"{r.peak_device_bytes / base:.2f}" if base else ""
        gb = [
            f"{(b or 0) / 1e9:.3f}"
            for b in (r.peak_device_bytes, r.input_device_bytes, r.output_device_bytes)
        ]
        lines.append(f"| {r.workload} | {r.rows:,} | {' | '.join(gb)} | {ratio} |")
    return "\n".join(lines) + "\n"


def _names(names: list[str]) -> str:
    return ", ".join(names) if len(names) <= 6 else ", ".join(names[:5]) + f" and {len(names) - 5} more"


def write_markdown(text: str, path: str, title: str = "") -> None:
    _ensure_parent(path)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write((f"# {title}\n\n" if title else "") + text)


def plot(records: Sequence[Record], path: str, title: str = "ember bench (median ms, log scale)") -> None:
    """A horizontal grouped bar chart: one group per workload, one bar per library, log-scale ms.

    Uses the Agg canvas directly (no pyplot), so it neither needs a display nor changes the caller's
    matplotlib backend.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    table = _cells(records)
    libs = _table_libraries(records)
    workloads = list(table)
    n_w, n_l = max(len(workloads), 1), max(len(libs), 1)
    fig = Figure(figsize=(10, 1.5 + n_w * (0.18 + 0.1 * n_l)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    height = 0.8 / max(len(libs), 1)
    any_bar = False
    for j, lib in enumerate(libs):
        ys, xs = [], []
        for i, name in enumerate(workloads):
            rec = table[name].get(lib)
            if rec is not None and rec.ok and rec.seconds:
                ys.append(i + (j - (len(libs) - 1) / 2) * height)
                xs.append(rec.seconds * 1e3)
        if xs:
            ax.barh(ys, xs, height=height, label=lib)
            any_bar = True
    ax.set_yticks(range(len(workloads)))
    ax.set_yticklabels(workloads, fontsize=8)
    ax.invert_yaxis()
    if any_bar:
        ax.set_xscale("log")
        ax.legend(loc="lower right", fontsize=8)
    else:
        ax.text(0.5, 0.5, "no measured results", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel("milliseconds (lower is better)")
    ax.set_title(title)
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    _ensure_parent(path)
    fig.savefig(path, dpi=110)


def summary(records: Sequence[Record]) -> dict[str, Any]:
    """Counts by status, for a one-line footer."""
    ok = sum(r.ok for r in records)
    unsupported = sum(r.status.startswith("unsupported") for r in records)
    return {"measured": ok, "unsupported": unsupported, "errors": len(records) - ok - unsupported}

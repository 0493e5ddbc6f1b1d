"""Writes docs/pandas-coverage.md: every public member of pandas' DataFrame, Series, Index classes,
GroupBy, window, Resampler, the .str / .dt / .cat accessors and the top-level functions, with what
ember does with it.

A member is

* **supported** where ember defines it and every docstring example of it that involves ember runs
  natively with pandas' result (or it has no such example);
* **partial** where ember defines it and some of its examples are refused or fail (the first reason is
  shown: what ember refuses with NotImplementedError, or the error);
* **not supported** where ember does not define it (calling it raises NotImplementedError, or runs
  through pandas with ``ember.config.set(fallback="pandas")``).

The examples' outcomes come from the JSON report of ``scripts/pandas_docstrings.py``::

    python scripts/pandas_docstrings.py --out build/doctest-pandas.json
    python scripts/pandas_coverage.py build/doctest-pandas.json [--out docs/pandas-coverage.md]
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pandas

import ember as em

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pandas_docstrings import AREAS, SKIP_MEMBERS, TOP_LEVEL, _area_classes  # noqa: E402


def _ember_classes() -> dict[str, Any]:
    """ember's class standing for each pandas class of ``_area_classes`` (by the name used there)."""
    df = em.DataFrame({"k": [1, 1], "v": [1.0, 2.0]})
    times = em.Series(np.array(["2000-01-01", "2000-01-02"], dtype="datetime64[ns]"))
    found = {
        "DataFrame": em.DataFrame,
        "Series": em.Series,
        "Index": em.Index,
        "RangeIndex": em.RangeIndex,
        "MultiIndex": em.MultiIndex,
        "CategoricalIndex": getattr(em, "CategoricalIndex", None),
        "DatetimeIndex": type(em.Index(times)),
        "TimedeltaIndex": type(em.Index(times - times)),
        "DataFrameGroupBy": type(df.groupby("k")),
        "SeriesGroupBy": type(df.groupby("k")["v"]),
        "Rolling": type(df.rolling(1)),
        "Expanding": type(df.expanding()),
        "ExponentialMovingWindow": type(df.ewm(com=1)),
        "Resampler": type(em.Series([1, 2], index=em.Index(times)).resample("D")),
        "Series.str": type(em.Series(["a"]).str),
        "Series.dt": type(times.dt),
        "Series.dt(timedelta)": type((times - times).dt),
        "Series.cat": type(em.Series(["a"]).astype("category").cat),
    }
    return found


def _defines(cls: Any, name: str) -> bool:
    """Whether ember's class defines ``name`` itself (not through the not-supported hook)."""
    return cls is not None and any(name in vars(k) for k in cls.__mro__ if k is not object)


def _reason(result: dict) -> str:
    text = (result.get("detail") or "").split("\n")[0]
    text = re.sub(r" Opt in to running it through pandas.*", "", text)
    text = re.sub(r"^(Unsupported|NotImplementedError): ", "", text)
    text = re.sub(r" at 0x[0-9a-f]+", "", text)
    return text[:160].replace("|", "\\|")


def _outcomes(report: dict) -> dict[str, list[dict]]:
    """Examples by docstring name, only those ember took part in."""
    by_doc: dict[str, list[dict]] = defaultdict(list)
    for r in report["results"]:
        if r["status"] not in ("skipped", "pandas-only"):
            by_doc[r["doc"]].append(r)
    return by_doc


def _row(name: str, defined: bool, examples: list[dict]) -> tuple[str, str, str]:
    passed = sum(r["status"] == "pass" for r in examples)
    shown = f"{passed}/{len(examples)}" if examples else "-"
    failing = [r for r in examples if r["status"] != "pass" and not r.get("blocked_by")]
    if not defined:
        return "not supported", shown, "not implemented natively"
    if not failing and passed == len(examples):
        return "supported", shown, ""
    return "partial", shown, _reason(failing[0]) if failing else "examples blocked by an earlier one"


def _members(cls: type) -> list[str]:
    return [m for m in sorted(dir(cls)) if not m.startswith("_") and m not in SKIP_MEMBERS]


def build(report: dict) -> str:
    by_doc = _outcomes(report)
    ember_classes = _ember_classes()
    sections, totals = [], defaultdict(int)
    for area in AREAS:
        rows = []
        if area == "top-level":
            for fname in TOP_LEVEL:
                doc = f"pd.{fname}"
                rows.append((doc, *_row(doc, hasattr(em, fname), by_doc.get(doc, []))))
        else:
            for cname, cls in _area_classes()[area]:
                ecls = ember_classes.get(cname)
                for member in _members(cls):
                    doc = f"{cname}.{member}"
                    rows.append((doc, *_row(doc, _defines(ecls, member), by_doc.get(doc, []))))
        counts = defaultdict(int)
        for row in rows:
            counts[row[1]] += 1
            totals[row[1]] += 1
        lines = [
            f"## {area}",
            "",
            f"{counts['supported']} supported, {counts['partial']} partial, "
            f"{counts['not supported']} not supported.",
            "",
            "| member | ember | examples passing | first reason |",
            "|---|---|---|---|",
        ]
        lines += [f"| `{n}` | {s} | {e} | {why} |" for n, s, e, why in rows]
        sections.append("\n".join(lines))
    head = [
        "# pandas API coverage",
        "",
        "Every public member of pandas' main classes and its top-level functions, and what ember does with",
        "it: **supported** (defined natively; every docstring example of it that involves ember gives",
        "pandas' result), **partial** (defined; some examples are refused with NotImplementedError or",
        "fail: the first reason is shown), **not supported** (calling it raises NotImplementedError, or",
        'runs through pandas with `ember.config.set(fallback="pandas")`). "examples passing" counts',
        "pandas' own docstring examples (`scripts/pandas_docstrings.py`).",
        "",
        f"Generated {_dt.date.today().isoformat()} with pandas {report.get('pandas', pandas.__version__)} by",
        "`python scripts/pandas_coverage.py <report.json>`: "
        f"{totals['supported']} supported, {totals['partial']} partial, "
        f"{totals['not supported']} not supported.",
        "",
    ]
    summary = report.get("counts", {}).get("overall")
    if summary:
        head += [
            f"Docstring examples overall: {summary.get('pass', 0)} pass of {summary.get('total', 0)} "
            f"({summary.get('unsupported', 0)} unsupported, {summary.get('error', 0)} error, "
            f"{summary.get('wrong', 0)} wrong).",
            "",
        ]
    return "\n".join(head) + "\n" + "\n\n".join(sections) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report", help="JSON report of scripts/pandas_docstrings.py")
    ap.add_argument("--out", default="docs/pandas-coverage.md")
    args = ap.parse_args(argv)
    report = json.loads(Path(args.report).read_text())
    Path(args.out).write_text(build(report))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

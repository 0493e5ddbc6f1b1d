"""``ember demo``: an end-to-end workflow, each step timed in pandas / scikit-learn and in ember.

The data are generated (nothing is downloaded): a messy shop data set of orders, customers and
labelled reviews, written to CSV and Parquet. The steps:

  1. ingest CSV            orders.csv, customers.csv
  2. ingest Parquet        reviews.parquet
  3. clean                 strip/lower strings, parse dates, fill nulls, fix types, drop cancelled
  4. merge                 orders x customers, revenue column
  5. groupby analytics     revenue, order count and mean price by region x category
  6. time-series features  hour, weekday, rolling mean price, gap since the customer's last order
  7. daily resample        revenue per day
  8. text model            HashingVectorizer -> TfidfTransformer -> LogisticRegression in RandomizedSearchCV
  9. tabular model         RandomForestClassifier on the time-series features ("returned" flag)

Every step is written once against the pandas API and run with ``pandas`` and with ``ember`` as the
module (the ML steps with scikit-learn's and ember.ml's estimators). An ember step whose feature is not
built yet (NotImplementedError) prints "skipped: <reason>"; any other exception prints "failed: <reason>";
either way the next ember step starts from pandas' result, converted outside the timing. Frame results
are checked against pandas'. A table with the speedups is printed and a chart written to
``<out>/demo.png``; the default size finishes in under 2 minutes on a 2-core CPU. The exit status is 1
when an ember step failed or its result differs from pandas'.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any

from ember.bench.report import format_ratio

__all__ = ["main", "run_demo"]

Ctx = dict[str, Any]


@dataclass(frozen=True)
class Step:
    """One demo step: ``fn(library, ctx) -> outputs``; ``needs`` are the context keys it reads."""

    name: str
    fn: Callable[[str, Ctx], Ctx]
    needs: tuple[str, ...]
    check: str | None = None  # output compared with pandas'
    baseline: str = "pandas"


@dataclass
class StepResult:
    step: str
    baseline: str
    baseline_s: float | None = None
    ember_s: float | None = None
    ember_status: str = "ok"
    baseline_status: str = "ok"
    check: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def speedup(self) -> float | None:
        if self.baseline_s and self.ember_s and self.ember_status == "ok":
            return self.baseline_s / self.ember_s
        return None


def _frame_module(library: str) -> ModuleType:
    return importlib.import_module("pandas" if library == "pandas" else "ember")


# -------------------------------------------------------------------------------------------- the steps


def ingest_csv(lib: str, c: Ctx) -> Ctx:
    mod = _frame_module(lib)
    return {
        "orders": mod.read_csv(c["paths"]["orders_csv"]),
        "customers": mod.read_csv(c["paths"]["customers_csv"]),
    }


def ingest_parquet(lib: str, c: Ctx) -> Ctx:
    return {"reviews": _frame_module(lib).read_parquet(c["paths"]["reviews_parquet"])}


def clean(lib: str, c: Ctx) -> Ctx:
    mod = _frame_module(lib)
    o = c["orders"].copy()
    o["status"] = o["status"].str.strip().str.lower()
    o["ts"] = mod.to_datetime(o["ts"])
    o["price"] = o["price"].fillna(o["price"].median())
    o["quantity"] = o["quantity"].fillna(1).astype("int64")
    o = o[o["status"] != "cancelled"]
    cust = c["customers"].copy()
    cust["signup"] = mod.to_datetime(cust["signup"])
    return {"orders_clean": o, "customers_clean": cust}


def merge(lib: str, c: Ctx) -> Ctx:
    m = c["orders_clean"].merge(c["customers_clean"], on="customer_id", how="left")
    m["revenue"] = m["price"] * m["quantity"]
    return {"merged": m}


def groupby_analytics(lib: str, c: Ctx) -> Ctx:
    g = (
        c["merged"]
        .groupby(["region", "category"])
        .agg({"revenue": "sum", "order_id": "count", "price": "mean"})
    )
    return {"by_region": g}


def ts_features(lib: str, c: Ctx) -> Ctx:
    t = c["merged"].sort_values("ts", kind="stable")  # ties in a defined order on both sides
    t["hour"] = t["ts"].dt.hour
    t["dayofweek"] = t["ts"].dt.day_of_week
    t["price_roll50"] = t["price"].rolling(50, min_periods=1).mean()
    t["gap_h"] = t.groupby("customer_id")["ts"].diff().dt.total_seconds().fillna(0) / 3600.0
    t["tenure_d"] = (t["ts"] - t["signup"]).dt.days
    return {"features": t}


def daily_resample(lib: str, c: Ctx) -> Ctx:
    return {"daily": c["features"].set_index("ts")["revenue"].resample("D").sum()}


_FEATURES = ["price", "quantity", "hour", "dayofweek", "price_roll50", "gap_h", "tenure_d"]


def _estimator(lib: str, module: str, name: str) -> Any:
    root = "sklearn" if lib == "sklearn" else "ember.ml"
    return getattr(importlib.import_module(f"{root}.{module}"), name)


def _split(n: int) -> int:
    return max(int(n * 0.8), 1)


#: Hashed feature space of the text model. Kept small: on the 2-core CPU machine scikit-learn's
#: LogisticRegression (SciPy 1.17 L-BFGS-B) took ~0.3 s per iteration at 2**14 features and above, against
#: ~0.03 s at 2**12, which alone would have broken the demo's 2-minute budget.
TEXT_FEATURES = 2**12


def text_model(lib: str, c: Ctx) -> Ctx:
    from scipy.stats import loguniform
    from sklearn.pipeline import Pipeline

    try:
        search_cls = _estimator(lib, "model_selection", "RandomizedSearchCV")
    except ImportError:  # ember's estimators are scikit-learn compatible: sklearn's search drives them
        from sklearn.model_selection import RandomizedSearchCV as search_cls
    pipe = Pipeline(
        [
            (
                "hash",
                _estimator(lib, "feature_extraction.text", "HashingVectorizer")(
                    n_features=TEXT_FEATURES, alternate_sign=False
                ),
            ),
            ("tfidf", _estimator(lib, "feature_extraction.text", "TfidfTransformer")()),
            ("clf", _estimator(lib, "linear_model", "LogisticRegression")(max_iter=200)),
        ]
    )
    params = {"clf__C": loguniform(1e-2, 1e2), "tfidf__sublinear_tf": [True, False]}
    search = search_cls(pipe, params, n_iter=3, cv=2, random_state=0)
    reviews = c["reviews"]
    cut = _split(len(reviews))
    text, label = reviews["text"], reviews["label"]
    search.fit(text.iloc[:cut], label.iloc[:cut])
    return {"text_accuracy": float(search.score(text.iloc[cut:], label.iloc[cut:]))}


def tabular_model(lib: str, c: Ctx) -> Ctx:
    kw: dict[str, Any] = {"n_estimators": 30, "max_depth": 10, "random_state": 0}
    if lib == "sklearn":
        kw["n_jobs"] = -1
    forest = _estimator(lib, "ensemble", "RandomForestClassifier")(**kw)
    t = c["features"]
    cut = _split(len(t))
    X, y = t[_FEATURES], t["returned"]
    forest.fit(X.iloc[:cut], y.iloc[:cut])
    return {"forest_accuracy": float(forest.score(X.iloc[cut:], y.iloc[cut:]))}


STEPS: list[Step] = [
    Step("ingest CSV", ingest_csv, ("paths",), check="orders"),
    Step("ingest Parquet", ingest_parquet, ("paths",), check="reviews"),
    Step("clean", clean, ("orders", "customers"), check="orders_clean"),
    Step("merge", merge, ("orders_clean", "customers_clean"), check="merged"),
    Step("groupby analytics", groupby_analytics, ("merged",), check="by_region"),
    Step("time-series features", ts_features, ("merged",), check="features"),
    Step("daily resample", daily_resample, ("features",), check="daily"),
    Step("text model (search)", text_model, ("reviews",), baseline="sklearn"),
    Step("tabular model (forest)", tabular_model, ("features",), baseline="sklearn"),
]


# ---------------------------------------------------------------------------------------- running them


class _StepBar:
    """A progress bar for one step that appears only once the step has run for a second, and keeps its
    elapsed time ticking while a library works (tqdm alone redraws only on updates)."""

    def __init__(self, name: str, total: int, enabled: bool) -> None:
        self.bar: Any = None
        if enabled:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(
                    total=total, desc=name, delay=1.0, file=sys.stderr, unit="lib", leave=False, disable=None
                )  # disable=None: no bar when stderr is not a terminal
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            if self.bar is not None and not self.bar.disable and time.time() - self.bar.start_t >= 1.0:
                self.bar.refresh()

    def __enter__(self) -> _StepBar:
        if self.bar is not None:
            self._thread.start()
        return self

    def update(self, label: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=False)
            self.bar.update()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self.bar is not None:
            self._thread.join()
            self.bar.close()


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


def _timed(fn: Callable[[], Ctx], device: bool) -> tuple[Ctx, float]:
    import ember

    if device:
        ember.backend.synchronize()
    start = time.perf_counter()
    out = fn()
    if device:
        ember.backend.synchronize()
    return out, time.perf_counter() - start


def _ember_inputs(step: Step, pd_ctx: Ctx, em_ctx: Ctx) -> Ctx:
    """ember's inputs for a step: its own earlier outputs, or pandas' converted (outside the timing)."""
    import ember

    out: Ctx = {}
    for key in step.needs:
        if key in em_ctx:
            out[key] = em_ctx[key]
        elif key == "paths":
            out[key] = pd_ctx[key]
        else:
            out[key] = ember.from_pandas(pd_ctx[key])
    return out


def _check(step: Step, pd_out: Ctx, em_out: Ctx) -> str:
    from ember.bench.harness import compare_to_pandas

    if step.check is None:
        keys = [k for k in pd_out if k in em_out]
        return "; ".join(f"{k} {em_out[k]:.3f} vs {pd_out[k]:.3f}" for k in keys)
    status = compare_to_pandas(em_out[step.check], pd_out[step.check])
    return "matches pandas" if status == "match" else status


def run_step(step: Step, pd_ctx: Ctx, em_ctx: Ctx, progress: bool) -> StepResult:
    """Run one step with the baseline and with ember; update both contexts with the outputs."""
    res = StepResult(step.name, step.baseline)
    with _StepBar(step.name, 2, progress) as bar:
        try:
            pd_out, res.baseline_s = _timed(lambda: step.fn(step.baseline, pd_ctx), device=False)
            pd_ctx.update(pd_out)
        except Exception as exc:
            res.baseline_status = f"failed: {_describe(exc)}"
            pd_out = {}
        bar.update(step.baseline)
        try:
            inputs = _ember_inputs(step, pd_ctx, em_ctx)
            em_out, res.ember_s = _timed(lambda: step.fn("ember", inputs), device=True)
            em_ctx.update(em_out)
            if pd_out:
                res.check = _check(step, pd_out, em_out)
        except NotImplementedError as exc:  # a feature ember does not have yet
            res.ember_status = f"skipped: {_describe(exc)}"
        except Exception as exc:  # a bug: reported as such, never as a skip
            res.ember_status = f"failed: {_describe(exc)}"
        bar.update("ember")
    return res


def failures(results: Sequence[StepResult]) -> list[str]:
    """The steps where ember failed or gave another result than pandas (skipped steps are not failures)."""
    return [
        f"{r.step}: {r.ember_status if r.ember_status.startswith('failed') else r.check}"
        for r in results
        if r.ember_status.startswith("failed") or r.check.startswith("mismatch")
    ]


def run_demo(rows: int, out_dir: str, progress: bool = True) -> list[StepResult]:
    """Generate the data into ``out_dir``, run every step, and return the results."""
    from ember.bench import data

    paths = write_data(data.demo_tables(rows), os.path.join(out_dir, "data"))
    pd_ctx: Ctx = {"paths": paths}
    em_ctx: Ctx = {}
    return [run_step(step, pd_ctx, em_ctx, progress) for step in STEPS]


def write_data(tables: dict[str, Any], folder: str) -> dict[str, str]:
    os.makedirs(folder, exist_ok=True)
    paths = {
        "orders_csv": os.path.join(folder, "orders.csv"),
        "customers_csv": os.path.join(folder, "customers.csv"),
        "reviews_parquet": os.path.join(folder, "reviews.parquet"),
    }
    tables["orders"].to_csv(paths["orders_csv"], index=False)
    tables["customers"].to_csv(paths["customers_csv"], index=False)
    tables["reviews"].to_parquet(paths["reviews_parquet"], index=False)
    return paths


# -------------------------------------------------------------------------------------------- reporting


def _secs(value: float | None, status: str) -> str:
    return f"{value:.3f}" if value is not None and status == "ok" else status.split(":")[0]


def table(results: Sequence[StepResult]) -> str:
    """A markdown table: step, baseline seconds, ember seconds, speedup, check; reasons below it."""
    lines = ["| step | baseline | baseline s | ember s | speedup | check |", "|---|---|---|---|---|---|"]
    notes = []
    for r in results:
        speed = format_ratio(r.speedup) if r.speedup is not None else ""
        lines.append(
            f"| {r.step} | {r.baseline} | {_secs(r.baseline_s, r.baseline_status)} | "
            f"{_secs(r.ember_s, r.ember_status)} | {speed} | {r.check} |"
        )
        for status in (r.baseline_status, r.ember_status):
            if status != "ok":
                notes.append(f"- {r.step}: {status}")
    base = sum(r.baseline_s or 0 for r in results if r.ember_status == "ok" and r.baseline_status == "ok")
    mine = sum(r.ember_s or 0 for r in results if r.ember_status == "ok" and r.baseline_status == "ok")
    text = "\n".join(lines) + "\n"
    if mine:
        text += f"\nSteps that ran in both: {base:.2f} s baseline, {mine:.2f} s ember ({base / mine:.2f}x).\n"
    return text + ("\n" + "\n".join(notes) + "\n" if notes else "")


def chart(results: Sequence[StepResult], path: str, title: str) -> None:
    """Bars of seconds per step, baseline beside ember; ember's skipped steps are labelled."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 1.5 + 0.45 * len(results)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ys = list(range(len(results)))
    base = [r.baseline_s if r.baseline_status == "ok" and r.baseline_s else 0.0 for r in results]
    mine = [r.ember_s if r.ember_status == "ok" and r.ember_s else 0.0 for r in results]
    ax.barh([y - 0.2 for y in ys], base, height=0.4, label="pandas / scikit-learn")
    ax.barh([y + 0.2 for y in ys], mine, height=0.4, label="ember")
    for y, r in zip(ys, results, strict=True):
        if r.ember_status != "ok":
            ax.text(0, y + 0.2, f"  ember: {r.ember_status.split(':')[0]}", va="center", fontsize=7)
        elif r.speedup is not None:
            ax.text(mine[y], y + 0.2, f"  {format_ratio(r.speedup)}", va="center", fontsize=7)
    ax.set_yticks(ys)
    ax.set_yticklabels([r.step for r in results], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("seconds (lower is better)")
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)  # the slow bars are at the bottom
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=110)


def _rows(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--rows must be a number like 200000 or 2e5, got {text!r}"
        ) from None
    if value < 100 or value != int(value):
        raise argparse.ArgumentTypeError(f"--rows must be a whole number of at least 100, got {text!r}")
    return int(value)


DEFAULT_ROWS = 200_000


def build_parser() -> argparse.ArgumentParser:
    steps = "\n".join(f"  {i}. {s.name} (vs {s.baseline})" for i, s in enumerate(STEPS, 1))
    parser = argparse.ArgumentParser(
        prog="ember demo",
        description=__doc__,
        epilog=f"steps:\n{steps}\n\nexample: ember demo --rows 2e6 --out demo-out",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--rows",
        type=_rows,
        default=DEFAULT_ROWS,
        help=f"orders to generate (default {DEFAULT_ROWS:,}; reviews = rows/20)",
    )
    parser.add_argument("--out", default="demo-out", help="folder for the data, demo.png, results.md/json")
    parser.add_argument(
        "--device", choices=("auto", "gpu", "cpu"), default=None, help="ember's device (default: auto)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo from command-line arguments; returns the exit status."""
    import ember

    args = build_parser().parse_args(argv)
    previous = ember.config.get("device")
    try:
        if args.device:
            ember.config.set(device=args.device)
        device = ember.backend.current_device()
    except Exception as exc:  # e.g. --device gpu without a GPU: the message names the fix
        ember.config.set(device=previous)
        print(f"ember demo: {exc}", file=sys.stderr)
        return 2
    header = f"ember {ember.__version__} demo on {device.upper()} | rows={args.rows:,} | out={args.out}"
    print(header, file=sys.stderr)
    start = time.perf_counter()
    results = run_demo(args.rows, args.out, progress=not args.no_progress)
    text = table(results)
    print(text)
    print(f"total {time.perf_counter() - start:.1f} s; chart: {os.path.join(args.out, 'demo.png')}")
    chart(results, os.path.join(args.out, "demo.png"), f"ember demo on {device.upper()}, {args.rows:,} rows")
    with open(os.path.join(args.out, "results.md"), "w", encoding="utf-8") as fh:
        fh.write(f"# ember demo\n\n{header}\n\n{text}")
    with open(os.path.join(args.out, "results.json"), "w", encoding="utf-8") as fh:
        json.dump([asdict(r) for r in results], fh, indent=1)
    bad = failures(results)
    for line in bad:
        print(f"ember demo: {line}", file=sys.stderr)
    return 1 if bad else 0

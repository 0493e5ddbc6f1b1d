"""Timing: every library on the same data in one process, a warm-up, then the median of N runs (with
Python's garbage collector paused during the runs, as ``timeit`` does).

Work on the GPU is queued asynchronously, so for the device libraries (ember, CuPy, cuDF, cuML) the
device is synchronized before the clock starts and before it is read; otherwise a timing would measure
the launch, not the work. Data generation, conversion to each library's native form and per-workload
preparation all happen outside the timing. A failure never stops the run: a workload whose API is not
there yet (AttributeError / NotImplementedError / ImportError) is recorded as "unsupported: <reason>",
any other exception as "error: <reason>", and no number is invented for either.
"""

from __future__ import annotations

import gc
import importlib
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ember.bench import workloads as wl

UNSUPPORTED = (AttributeError, NotImplementedError, ImportError)


@dataclass
class Record:
    """One (workload, library) result. ``seconds`` is the median of ``times`` (None unless status is ok)."""

    library: str
    workload: str
    rows: int
    seconds: float | None
    runs: int
    times: list[float] = field(default_factory=list)
    status: str = "ok"
    peak_device_bytes: int | None = None
    # device bytes live before the calls (the prepared inputs) and held by one call's result: the
    # issue's memory bound is peak <= 2 x (inputs + output)
    input_device_bytes: int | None = None
    output_device_bytes: int | None = None
    device: str = "cpu"
    check: str | None = None  # "match" / "mismatch: ..." against pandas' result; None when not compared

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def classify(exc: BaseException) -> str:
    """The status of a failed workload: "unsupported: ..." for a missing API, "error: ..." otherwise."""
    kind = "unsupported" if isinstance(exc, UNSUPPORTED) else "error"
    return f"{kind}: {_describe(exc)}"


def synchronize(library: str) -> None:
    """Wait for the device work a library queued (no-op for host libraries and without a GPU)."""
    if library not in wl.DEVICE_LIBRARIES:
        return
    import ember

    ember.backend.synchronize()
    if library in ("cudf", "cuml") and ember.backend.gpu_available():
        ember.backend.cupy_module().cuda.runtime.deviceSynchronize()  # cuDF/RMM work on other streams


def time_callable(
    fn: Callable[[Any], Any],
    arg: Any,
    runs: int = 3,
    warmup: int = 1,
    sync: Callable[[], None] | None = None,
    check: Callable[[Any], None] | None = None,
) -> list[float]:
    """Seconds of ``runs`` calls of ``fn(arg)`` after ``warmup`` untimed ones; ``sync()`` brackets each call.

    ``check`` sees the first result (e.g. to refuse a result that did not come from the library timed).
    """
    sync = sync or (lambda: None)
    for i in range(warmup):
        out = fn(arg)
        sync()
        if i == 0 and check is not None:
            check(out)
        del out
    times = []
    # as timeit: one collection before the runs and none during them. A collection before each run (as
    # this harness did) made the next call ~0.7 ms slower on the GPU host (db-benchmark q1 1.76 ms
    # against 0.98 with no collection): a cold host for a call that is mostly Python and launches.
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for i in range(runs):
            sync()
            start = time.perf_counter()
            out = fn(arg)
            sync()
            times.append(time.perf_counter() - start)
            if warmup == 0 and i == 0 and check is not None:
                check(out)
            del out
    finally:
        if was_enabled:
            gc.enable()
    return times


def median(times: Sequence[float]) -> float:
    return float(statistics.median(times))


def _check_ember_result(out: Any) -> None:
    """An ember workload must return an ember object (or a scalar): a pandas/NumPy array means the work
    silently ran elsewhere (e.g. ``np.sin`` converting the Series to an ndarray)."""
    if isinstance(out, np.ndarray | pd.Series | pd.DataFrame | pd.Index):
        raise NotImplementedError(
            f"the ember call returned a {type(out).__module__}.{type(out).__name__}: the work ran outside ember"
        )


def compare_to_pandas(out: Any, expected: Any, ordered: bool = True) -> str:
    """Return "match", or "mismatch: <why>", for a GPU library's result against pandas' result of the same call.

    Values are compared with a relative tolerance of 1e-6 and without dtype checks (a categorical key
    may come back as strings); index, column names and row order must agree, as pandas semantics demand.
    With ``ordered=False`` (pandas' own order is undefined) rows are compared as sorted sets of values.
    """
    got = out.to_pandas() if hasattr(out, "to_pandas") else out
    if not ordered and isinstance(expected, pd.DataFrame | pd.Series) and type(got) is type(expected):
        got, expected = _canonical(got), _canonical(expected)
    try:
        if isinstance(expected, pd.DataFrame | pd.Series):
            if type(got) is not type(expected):
                return f"mismatch: got a {type(got).__name__}, pandas returns a {type(expected).__name__}"
            kw = {
                "check_dtype": False,
                "check_exact": False,
                "rtol": 1e-6,
                "check_index_type": False,
                "check_categorical": False,
                "check_freq": False,  # ember's DatetimeIndex carries no freq (documented deviation)
            }
            if isinstance(expected, pd.DataFrame):
                pd.testing.assert_frame_equal(_plain(got), _plain(expected), check_column_type=False, **kw)
            else:
                pd.testing.assert_series_equal(_plain(got), _plain(expected), **kw)
        elif not np.isclose(float(got), float(expected), rtol=1e-6, equal_nan=True):
            return f"mismatch: {got!r} != pandas {expected!r}"
    except AssertionError as exc:
        return "mismatch: " + " ".join(str(exc).split())[:200]
    except (TypeError, ValueError) as exc:
        return f"mismatch: {_describe(exc)}"
    return "match"


def _canonical(obj: Any) -> Any:
    """Rows sorted by all their values, index dropped: for results whose row order pandas leaves open."""
    obj = _plain(obj).reset_index(drop=True)
    if isinstance(obj, pd.Series):
        return obj.sort_values(kind="stable").reset_index(drop=True)
    return obj.sort_values(list(obj.columns), kind="stable").reset_index(drop=True)


def _plain(obj: Any) -> Any:
    """Categorical columns/index levels as their values, so that only values and order are compared."""
    if isinstance(obj, pd.Series):
        obj = obj.astype(object) if isinstance(obj.dtype, pd.CategoricalDtype) else obj
    else:
        cats = [c for c in obj.columns if isinstance(obj[c].dtype, pd.CategoricalDtype)]
        obj = obj.astype(dict.fromkeys(cats, object)) if cats else obj
    idx = obj.index
    if isinstance(idx, pd.CategoricalIndex):
        obj = obj.set_axis(idx.astype(object))
    elif isinstance(idx, pd.MultiIndex) and any(isinstance(lv, pd.CategoricalIndex) for lv in idx.levels):
        obj = obj.set_axis(
            pd.MultiIndex.from_arrays(
                [idx.get_level_values(i).astype(object) for i in range(idx.nlevels)], names=idx.names
            )
        )
    return obj


_IMPORTS = {"polars": "polars", "duckdb": "duckdb", "sklearn": "sklearn", "cudf": "cudf", "cuml": "cuml"}


def library_unavailable(library: str) -> str | None:
    """None when a library can run here, else why not (not installed, or no GPU for the GPU libraries)."""
    if library not in wl.LIBRARIES:
        return f"unknown library {library!r}; known: {', '.join(wl.LIBRARIES)}"
    if library in ("cupy", "cudf", "cuml"):
        import ember

        if not ember.backend.gpu_available():
            return "needs a GPU (none usable here)"
    if library == "cupy":
        return None
    if library in _IMPORTS:
        try:
            importlib.import_module(_IMPORTS[library])
        except Exception as exc:
            return f"not installed ({_describe(exc)})"
    return None


def resolve_libraries(requested: Iterable[str] | None) -> tuple[list[str], dict[str, str]]:
    """(usable libraries in table order, {skipped library: note}) for a request (None: all known)."""
    names = list(requested) if requested is not None else list(wl.LIBRARIES)
    usable, notes = [], {}
    for lib in names:
        reason = library_unavailable(lib)
        if reason is None:
            usable.append(lib)
        else:
            notes[lib] = reason
    return [lib for lib in wl.LIBRARIES if lib in usable], notes


def _device() -> str:
    import ember

    try:
        return ember.backend.current_device()
    except Exception:
        return "cpu"


def _peak_tracking(library: str) -> bool:
    return library in ("ember", "cupy") and _device() == "gpu"


def run_one(
    workload: wl.Workload,
    library: str,
    native: Any,
    rows: int,
    runs: int,
    warmup: int,
    reference: dict[str, Any] | None = None,
) -> Record:
    """Prep and time one workload for one library; failures become the record's status.

    With ``reference`` given, pandas' first result is stored in it (key "pandas"), and ember's and
    cuDF's first results are compared with it (the record's ``check``).
    """
    import ember

    device = _device() if library in wl.DEVICE_LIBRARIES else "cpu"
    rec = Record(library, workload.name, rows, None, 0, device=device)
    check = _check_ember_result if library == "ember" else None
    if reference is not None and library == "pandas":
        check = lambda out: reference.__setitem__("pandas", out)  # noqa: E731
    elif reference is not None and "pandas" in reference and library in ("ember", "cudf"):
        check = _comparing(rec, reference["pandas"], library, workload.ordered)
    try:
        arg = workload.prep[library](native) if library in workload.prep else native
        synchronize(library)
        impl = workload.impls[library]
        if _peak_tracking(library):
            ember.backend.reset_peak_device_bytes()
            rec.input_device_bytes = ember.backend.used_device_bytes()
            impl = _measuring_output(impl, rec)
        times = time_callable(
            impl,
            arg,
            runs=min(runs, workload.max_runs or runs),
            warmup=warmup,
            sync=lambda: synchronize(library),
            check=check,
        )
    except Exception as exc:
        rec.status = classify(exc)
        return rec
    rec.times, rec.runs, rec.seconds = times, len(times), median(times)
    if _peak_tracking(library):
        rec.peak_device_bytes = ember.backend.peak_device_bytes()
    return rec


def _measuring_output(impl: Callable[[Any], Any], rec: Record) -> Callable[[Any], Any]:
    """``impl`` that records the device bytes its result holds (live bytes on return, less the inputs)."""
    import ember

    def run(arg: Any) -> Any:
        out = impl(arg)
        held = ember.backend.used_device_bytes() - (rec.input_device_bytes or 0)
        rec.output_device_bytes = max(rec.output_device_bytes or 0, held)
        return out

    return run


def _comparing(rec: Record, expected: Any, library: str, ordered: bool) -> Callable[[Any], None]:
    def check(out: Any) -> None:
        if library == "ember":
            _check_ember_result(out)
        rec.check = compare_to_pandas(out, expected, ordered)

    return check


def _run_order(libraries: Sequence[str], workload: wl.Workload) -> list[str]:
    """pandas first (its result is the reference the GPU libraries are checked against), then the rest."""
    libs = [lib for lib in libraries if lib in workload.impls]
    return sorted(libs, key=lambda lib: lib != "pandas")


def _progress(total: int, enabled: bool) -> Any:
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, disable=None if enabled else True, file=sys.stderr, unit="task", leave=False)


def run(
    workloads: Sequence[wl.Workload],
    libraries: Sequence[str],
    rows: int,
    runs: int = 3,
    warmup: int = 1,
    progress: bool = True,
) -> list[Record]:
    """Time every selected workload for every selected library that implements it.

    Data sets are built once per (data set, size) and converted once per library; they are released
    before the next data set is built, so peak host memory is one data set in all its forms.
    """
    tasks = [(w, lib) for w in workloads for lib in libraries if lib in w.impls]
    bar = _progress(len(tasks), progress)
    records: list[Record] = []
    by_data: dict[tuple[str, int], list[wl.Workload]] = {}
    for w in workloads:
        by_data.setdefault((w.dataset, w.size(rows)), []).append(w)
    for (dataset, n), group in by_data.items():
        raw = wl.DATASETS[dataset](n)
        natives: dict[str, Any] = {}
        try:
            for w in group:
                reference: dict[str, Any] = {}
                for lib in _run_order(libraries, w):
                    if bar is not None:
                        bar.set_description(f"{w.name} [{lib}]")
                    if lib not in natives:
                        try:
                            natives[lib] = ("ok", wl.CONVERTERS[lib](raw))
                        except Exception as exc:
                            natives[lib] = ("failed", exc)
                    state, native = natives[lib]
                    if state == "ok":
                        records.append(run_one(w, lib, native, n, runs, warmup, reference))
                    else:
                        status = classify(native)
                        records.append(
                            Record(lib, w.name, n, None, 0, status=f"{status} (converting the data)")
                        )
                    if bar is not None:
                        bar.update()
                del reference
        finally:
            for lib, (state, native) in natives.items():
                if state == "ok":
                    wl.release(lib, native)
            if hasattr(raw, "cleanup"):
                raw.cleanup()
            del natives, raw
            gc.collect()
    if bar is not None:
        bar.close()
    return records

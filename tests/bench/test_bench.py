"""The benchmark harness and the demo, on tiny data: timing, records, reports, and the end-to-end CLIs."""

from __future__ import annotations

import json
import statistics

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from ember import demo
from ember.bench import data, harness, main, report
from ember.bench import workloads as wl
from ember.bench.harness import Record

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------------------------------------ data


def test_seed_frame_is_deterministic_and_shaped() -> None:
    a, b = data.seed_frame(1000), data.seed_frame(1000)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["x", "y"]
    assert a["x"].dtype == np.float64 and a["y"].dtype == np.int64
    assert a["y"].between(0, 999).all() and a["x"].between(0, 1).all()


def test_groupby_data_follows_g1_recipe() -> None:
    df = data.groupby_data(10_000, k=100)
    assert list(df.columns) == ["id1", "id2", "id3", "id4", "id5", "id6", "v1", "v2", "v3"]
    assert isinstance(df["id1"].dtype, pd.CategoricalDtype)
    assert df["id1"].astype(str).str.fullmatch(r"id\d{3}").all()
    assert df["id3"].astype(str).str.fullmatch(r"id\d{10}").all()
    assert df["id4"].between(1, 100).all() and df["id6"].between(1, 100).all()
    assert set(df["v1"].unique()) <= set(range(1, 6)) and set(df["v2"].unique()) <= set(range(1, 16))
    assert df["v3"].between(0, 100).all()
    assert df.isna().sum().sum() == 0
    pd.testing.assert_frame_equal(df, data.groupby_data(10_000, k=100))


def test_groupby_data_with_nas() -> None:
    df = data.groupby_data(5_000, na_pct=5)
    assert df["id4"].dtype == "Int64"
    share = df.isna().mean()
    assert ((share > 0.02) & (share < 0.09)).all()


def test_join_data_shares_90_percent_of_keys() -> None:
    t = data.join_data(100_000)
    assert {k: len(v) for k, v in t.items()} == {"x": 100_000, "small": 10, "medium": 100, "big": 100_000}
    matched = t["x"]["id3"].isin(t["big"]["id3"]).mean()
    assert 0.85 < matched < 0.95
    assert t["big"]["id3"].is_unique and t["medium"]["id2"].is_unique
    assert (t["x"]["id4"].astype(str) == "id" + t["x"]["id1"].astype(str)).all()


def test_text_and_tabular_generators() -> None:
    docs, y = data.text_documents(200, vocab_size=500)
    lengths = docs.str.split().str.len()
    assert lengths.between(8, 30).all() and set(np.unique(y)) == {0, 1}
    X, y2 = data.tabular_classification(300, n_features=12)
    assert X.shape == (300, 12) and X.dtype == np.float32 and set(np.unique(y2)) <= {0, 1}


def test_demo_tables_are_messy() -> None:
    t = data.demo_tables(2_000)
    o = t["orders"]
    assert o["price"].isna().any() and o["quantity"].isna().any()
    assert (o["status"] != o["status"].str.strip().str.lower()).any()
    assert pd.to_datetime(o["ts"]).is_monotonic_increasing
    assert len(t["reviews"]) == 100


# ---------------------------------------------------------------------------------------------- timing


def test_time_callable_warms_up_then_times_each_run() -> None:
    calls, syncs = [], []
    times = harness.time_callable(calls.append, 7, runs=4, warmup=2, sync=lambda: syncs.append(1))
    assert len(calls) == 6 and len(times) == 4 and all(t >= 0 for t in times)
    assert len(syncs) == 2 + 2 * 4  # after each warm-up; before and after each timed run


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1e3), min_size=1, max_size=9))
def test_median_matches_statistics(values: list[float]) -> None:
    assert harness.median(values) == pytest.approx(statistics.median(values))


def test_classify_unsupported_vs_error() -> None:
    assert harness.classify(NotImplementedError("x")).startswith("unsupported: NotImplementedError")
    assert harness.classify(AttributeError("y")).startswith("unsupported: AttributeError")
    assert harness.classify(ModuleNotFoundError("z")).startswith("unsupported: ModuleNotFoundError")
    assert harness.classify(ValueError("w")).startswith("error: ValueError")


def test_compare_to_pandas() -> None:
    exp = pd.DataFrame({"a": [1, 2], "b": [0.5, 1.5]})
    assert harness.compare_to_pandas(exp.copy(), exp) == "match"
    assert harness.compare_to_pandas(exp.assign(b=[0.5, 9.0]), exp).startswith("mismatch")
    assert harness.compare_to_pandas(exp["a"], exp).startswith("mismatch: got a Series")
    assert harness.compare_to_pandas(np.float64(1.0), 1.0 + 1e-9) == "match"
    cat = pd.Series(pd.Categorical(["x", "y"]))
    assert harness.compare_to_pandas(pd.Series(["x", "y"], dtype=object), cat) == "match"


def _tiny_workloads(monkeypatch: pytest.MonkeyPatch, impls: dict) -> wl.Workload:
    monkeypatch.setitem(wl.DATASETS, "tiny", lambda n: {"df": pd.DataFrame({"x": np.arange(n, dtype=float)})})
    return wl.Workload("tiny_sum", "seed", "tiny", impls)


def test_run_records_failures_without_crashing(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(d):
        raise NotImplementedError("DataFrame.frobnicate is not supported")

    def broken(d):
        raise ZeroDivisionError("boom")

    w = _tiny_workloads(monkeypatch, {"pandas": lambda d: d["df"].x.sum(), "numpy": broken, "ember": missing})
    recs = {r.library: r for r in harness.run([w], ["ember", "pandas", "numpy"], 50, runs=2, progress=False)}
    assert recs["pandas"].ok and recs["pandas"].runs == 2 and len(recs["pandas"].times) == 2
    assert recs["pandas"].seconds == pytest.approx(statistics.median(recs["pandas"].times))
    assert recs["ember"].status.startswith("unsupported: NotImplementedError: DataFrame.frobnicate")
    assert recs["ember"].seconds is None and recs["ember"].runs == 0
    assert recs["numpy"].status == "error: ZeroDivisionError: boom" and recs["numpy"].seconds is None


def test_ember_result_that_ran_elsewhere_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    w = _tiny_workloads(monkeypatch, {"ember": lambda d: np.arange(3)})
    (rec,) = harness.run([w], ["ember"], 10, runs=1, progress=False)
    assert rec.status.startswith("unsupported") and "ran outside ember" in rec.status


def test_ember_result_is_checked_against_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    w = _tiny_workloads(monkeypatch, {"pandas": lambda d: d["df"].x.sum(), "ember": lambda d: -1.0})
    recs = {r.library: r for r in harness.run([w], ["ember", "pandas"], 10, runs=1, progress=False)}
    assert recs["ember"].ok and recs["ember"].check.startswith("mismatch")
    table = report.markdown_table(list(recs.values()))
    assert "(mismatch)" in table and "result differs from pandas" in table


def test_run_seed_workloads_with_pandas_numpy_and_ember() -> None:
    chosen = wl.select("seed_mean,seed_sincos,seed_groupby_mean")
    recs = harness.run(chosen, ["ember", "pandas", "numpy"], 500, runs=3, progress=False)
    pairs = {(r.workload, r.library) for r in recs}
    assert ("seed_mean", "numpy") in pairs and ("seed_groupby_mean", "pandas") in pairs
    assert ("seed_groupby_mean", "numpy") not in pairs  # no numpy spelling registered
    for r in recs:
        assert r.rows == 500
        if r.library in ("pandas", "numpy"):
            assert r.ok and r.runs == 3 and r.seconds is not None and r.seconds > 0
        else:  # ember runs each of these and gives pandas' result
            assert r.ok, r.status
            assert r.seconds is not None
            assert r.check == "match", r.check


def test_resolve_libraries_skips_missing_peers_with_a_note() -> None:
    libs, notes = harness.resolve_libraries(["pandas", "cudf", "nosuchlib", "numpy"])
    assert libs == ["pandas", "numpy"]
    assert "nosuchlib" in notes and "unknown library" in notes["nosuchlib"]
    if not ember.backend.gpu_available():
        assert "GPU" in notes["cudf"]


def test_select_workloads() -> None:
    default = wl.select(None)
    assert "gb_q9" not in {w.name for w in default} and "seed_mean" in {w.name for w in default}
    assert [w.name for w in wl.select("gb")] == [f"gb_q{q}" for q in (1, 2, 3, 4, 5, 6, 7, 8, 10)]
    assert "gb_q9" in {w.name for w in wl.select("gb_q*")}
    assert {w.name for w in wl.select("join")} == {f"join_q{q}" for q in range(1, 6)}
    assert len(wl.select("all")) == len(wl.WORKLOADS)
    with pytest.raises(ValueError, match="no workload matches"):
        wl.select("nope")


def test_every_workload_has_a_pandas_or_sklearn_baseline() -> None:
    for w in wl.WORKLOADS.values():
        assert "ember" in w.impls, w.name
        assert {"pandas", "sklearn"} & set(w.impls), w.name
        assert w.dataset in wl.DATASETS


# ---------------------------------------------------------------------------------------------- report


def _records() -> list[Record]:
    return [
        Record("pandas", "w1", 10, 0.010, 3, [0.01, 0.011, 0.009]),
        Record("polars", "w1", 10, 0.004, 3, [0.004] * 3),
        Record("ember", "w1", 10, 0.002, 3, [0.002] * 3),
        Record("pandas", "w2", 10, 0.5, 3, [0.5] * 3),
        Record("ember", "w2", 10, None, 0, status="unsupported: AttributeError: no read_csv"),
    ]


def test_markdown_table_ratios_and_notes() -> None:
    text = report.markdown_table(_records(), notes={"cudf": "needs a GPU"})
    lines = text.splitlines()
    assert (
        lines[0]
        == "| workload | rows | ember ms | pandas ms | polars ms | ember vs pandas | ember vs best peer |"
    )
    w1 = next(line for line in lines if line.startswith("| w1 "))
    assert "| 5.00x |" in w1 and "2.00x (polars)" in w1
    w2 = next(line for line in lines if line.startswith("| w2 "))
    assert "unsupported" in w2 and "500" in w2
    assert "- ember on w2: unsupported: AttributeError: no read_csv" in text
    assert "- cudf skipped: needs a GPU" in text


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=1e-6, max_value=10), st.floats(min_value=1e-6, max_value=10))
def test_ratio_is_pandas_over_ember(pandas_s: float, ember_s: float) -> None:
    row = {"pandas": Record("pandas", "w", 1, pandas_s, 1), "ember": Record("ember", "w", 1, ember_s, 1)}
    vs_pandas, vs_best = report.ratios(row, "ember")
    assert vs_pandas == report.format_ratio(pandas_s / ember_s)
    assert vs_best == f"{vs_pandas} (pandas)"


def test_json_round_trip_and_png(tmp_path) -> None:
    recs = _records()
    path = tmp_path / "sub" / "r.json"
    report.write_json(recs, str(path))
    items = json.loads(path.read_text())
    assert isinstance(items, list) and len(items) == 5
    assert {"library", "workload", "rows", "seconds", "runs", "status"} <= set(items[0])
    assert report.read_json(str(path)) == recs
    png = tmp_path / "b.png"
    report.plot(recs, str(png))
    assert png.read_bytes()[:8] == PNG_MAGIC
    report.plot([recs[-1]], str(tmp_path / "empty.png"))  # nothing measured: still a chart
    assert (tmp_path / "empty.png").read_bytes()[:8] == PNG_MAGIC


# ------------------------------------------------------------------------------------------------- CLIs


def test_bench_main_end_to_end(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    out, js = tmp_path / "out", tmp_path / "r.json"
    argv = ["--rows", "2e3", "--runs", "2", "--workloads", "seed_mean,gb_q1,read_parquet_snappy"]
    argv += ["--libraries", "pandas,numpy,ember,cudf", "--json", str(js), "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    items = json.loads(js.read_text())
    assert {(i["workload"], i["library"]) for i in items if i["library"] != "cudf"} == {
        ("seed_mean", "pandas"),
        ("seed_mean", "numpy"),
        ("seed_mean", "ember"),
        ("gb_q1", "pandas"),
        ("gb_q1", "ember"),
        ("read_parquet_snappy", "pandas"),
        ("read_parquet_snappy", "ember"),
    }
    for i in items:
        assert i["rows"] == 2000
        assert (i["seconds"] is None) == (i["status"] != "ok")
        if i["library"] == "ember":  # ran, and gave pandas' result
            assert i["status"] == "ok" and i["check"] == "match", i
        elif i["library"] != "cudf":
            assert i["status"] == "ok" and i["runs"] == 2
    stdout = capsys.readouterr().out
    assert "| workload | rows |" in stdout and "measured" in stdout
    assert (out / "results.md").exists() and (out / "bench.png").read_bytes()[:8] == PNG_MAGIC


def test_bench_help_lists_workloads(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for token in (
        "--rows",
        "--workloads",
        "--libraries",
        "--runs",
        "--json",
        "gb_q10",
        "join_q5",
        "[off by default]",
    ):
        assert token in text


def test_bench_rejects_bad_arguments() -> None:
    with pytest.raises(SystemExit):
        main(["--rows", "lots"])
    with pytest.raises(SystemExit):
        main(["--workloads", "nope", "--no-progress"])


def test_demo_end_to_end(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo-out"
    assert demo.main(["--rows", "400", "--out", str(out), "--no-progress"]) == 0
    results = json.loads((out / "results.json").read_text())
    assert [r["step"] for r in results] == [s.name for s in demo.STEPS]
    for r, step in zip(results, demo.STEPS, strict=True):
        assert r["baseline_status"] == "ok" and r["baseline_s"] > 0
        assert r["ember_status"] == "ok", r  # every step runs in ember (a skip or a failure fails here)
        if step.check is not None:
            assert r["check"] == "matches pandas", r
        else:  # the models' scores: ember's estimators score about as scikit-learn's on the same data
            for part in r["check"].split("; "):
                _, mine, _, theirs = part.split()
                assert abs(float(mine) - float(theirs)) <= 0.15, r
    ml = {r["step"]: r for r in results}
    assert ml["tabular model (forest)"]["baseline"] == "sklearn"
    assert (out / "demo.png").read_bytes()[:8] == PNG_MAGIC
    assert (out / "data" / "orders.csv").exists() and (out / "data" / "reviews.parquet").exists()
    text = capsys.readouterr().out
    assert "| step | baseline |" in text


def test_demo_steps_match_a_direct_pandas_computation() -> None:
    t = data.demo_tables(1_000)
    ctx = {"orders": t["orders"], "customers": t["customers"]}
    ctx.update(demo.clean("pandas", ctx))
    o = ctx["orders_clean"]
    assert o["price"].notna().all() and o["quantity"].dtype == np.int64
    assert set(o["status"]) <= {"shipped", "delivered", "returned"}
    ctx.update(demo.merge("pandas", ctx))
    ctx.update(demo.groupby_analytics("pandas", ctx))
    merged = ctx["merged"]
    expected = (merged["price"] * merged["quantity"]).groupby([merged["region"], merged["category"]]).sum()
    pd.testing.assert_series_equal(ctx["by_region"]["revenue"], expected, check_names=False)


def test_demo_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        demo.main(["--help"])
    text = capsys.readouterr().out
    assert "--rows" in text and "RandomizedSearchCV" in text and "tabular model" in text


def test_unavailable_device_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    if ember.backend.gpu_available():
        pytest.skip("a GPU is available here")
    before = ember.config.get("device")
    assert main(["--device", "gpu", "--rows", "100"]) == 2
    assert demo.main(["--device", "gpu"]) == 2
    assert "ember found no usable GPU" in capsys.readouterr().err
    assert ember.config.get("device") == before


def test_ml_workloads_time_sklearn_and_report_ember() -> None:
    recs = harness.run(
        wl.select("ml_hashing_vectorizer,ml_random_forest"),
        ["sklearn", "ember"],
        3000,
        runs=3,
        progress=False,
    )
    by = {(r.workload, r.library): r for r in recs}
    assert (
        by[("ml_hashing_vectorizer", "sklearn")].ok and by[("ml_hashing_vectorizer", "sklearn")].rows == 300
    )
    assert by[("ml_random_forest", "sklearn")].runs == 1  # slow fits: one timed run after the warm-up
    for lib_rec in (by[("ml_hashing_vectorizer", "ember")], by[("ml_random_forest", "ember")]):
        assert lib_rec.ok, lib_rec.status  # ember's estimators run these workloads


def test_demo_step_errors_are_failures_not_skips(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A NotImplementedError in an ember step is a skip; any other exception, or a result that differs
    from pandas', is a failure: the demo's exit status says so."""

    def broken(lib, ctx):
        if lib == "ember":
            raise KeyError("price")
        return {"out": pd.DataFrame({"a": [1]})}

    def missing(lib, ctx):
        if lib == "ember":
            raise NotImplementedError("DataFrame.frobnicate")
        return {"out": pd.DataFrame({"a": [1]})}

    def wrong(lib, ctx):
        frame = pd.DataFrame({"a": [1 if lib == "pandas" else 2]})
        return {"out": ember.from_pandas(frame) if lib == "ember" else frame}

    steps = [
        demo.Step(name, fn, (), check="out") for name, fn in [("b", broken), ("m", missing), ("w", wrong)]
    ]
    results = [demo.run_step(step, {}, {}, progress=False) for step in steps]
    assert [r.ember_status.split(":")[0] for r in results] == ["failed", "skipped", "ok"]
    assert results[2].check.startswith("mismatch")
    assert demo.failures(results) == [f"b: {results[0].ember_status}", f"w: {results[2].check}"]
    monkeypatch.setattr(demo, "STEPS", steps)
    monkeypatch.setattr(demo, "write_data", lambda tables, folder: {})
    assert demo.main(["--rows", "100", "--out", str(tmp_path), "--no-progress"]) == 1


def test_compare_unordered_results() -> None:
    exp = pd.DataFrame({"k": [1, 1, 2], "v": [5.0, 5.0, 3.0]}, index=[10, 11, 12])
    got = pd.DataFrame({"k": [2, 1, 1], "v": [3.0, 5.0, 5.0]}, index=[12, 11, 10])
    assert harness.compare_to_pandas(got, exp).startswith("mismatch")
    assert harness.compare_to_pandas(got, exp, ordered=False) == "match"
    assert harness.compare_to_pandas(got.assign(v=[3.0, 5.0, 6.0]), exp, ordered=False).startswith("mismatch")


def test_memory_table_ratio_of_peak_to_inputs_and_output() -> None:
    """Device peaks are reported against inputs + output; CPU records (no tracking) give no table."""
    from ember.bench.report import memory_table

    gpu = Record("ember", "gb q1", 10, 0.002, 3, [0.002] * 3, peak_device_bytes=3_000_000_000)
    gpu.input_device_bytes, gpu.output_device_bytes = 1_000_000_000, 500_000_000
    table = memory_table([gpu, Record("pandas", "gb q1", 10, 0.01, 3)])
    assert "| gb q1 | 10 | 3.000 | 1.000 | 0.500 | 2.00 |" in table
    assert memory_table([Record("ember", "w", 10, 0.002, 3)]) == ""

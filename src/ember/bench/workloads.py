"""The workload registry: name -> {library -> callable(prepared data)}.

A workload names a data set (built once per size, in pandas form, by ``ember.bench.data``) and one
callable per library. The harness converts the data set to each library's native form (a Polars frame,
a DuckDB table, an ember frame ...) and runs the optional per-workload ``prep`` *outside* the timing; the
timed callable does only the work the workload names and returns its result (materialised: DuckDB
queries write a table, as db-benchmark does).

pandas, ember and cuDF share one callable where their spellings agree: ember is pandas-compatible, so a
workload that ember cannot run yet is reported as "unsupported: <reason>" by the harness, never skipped
silently. ML workloads look up ember's estimators in ``ember.ml`` (the registry hook): until that package
lands they report unsupported, and the scikit-learn side is measured.
"""

from __future__ import annotations

import importlib
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ember.bench import data

Fn = Callable[[Any], Any]

#: Every library the harness knows, in table order.
LIBRARIES = ("ember", "cudf", "cupy", "pandas", "polars", "duckdb", "numpy", "sklearn", "cuml")
#: Libraries that put work on the GPU: the harness synchronizes the device around their timings.
DEVICE_LIBRARIES = frozenset({"ember", "cudf", "cupy", "cuml"})


@dataclass(frozen=True)
class Workload:
    """One benchmark: the data set it reads, its row count for a requested ``rows``, one callable per library."""

    name: str
    group: str
    dataset: str
    impls: Mapping[str, Fn]
    prep: Mapping[str, Fn] = field(default_factory=dict)
    size: Callable[[int], int] = int
    default: bool = True
    description: str = ""
    max_runs: int | None = None  # cap on timed runs for slow fits (the warm-up still runs first)
    ordered: bool = True  # False: pandas' row order is not defined (ties of an unstable sort)


# ---------------------------------------------------------------------------------------------- data sets


@dataclass
class Files:
    """Paths of the IO workloads' files (written outside the timing, removed by ``cleanup``)."""

    folder: tempfile.TemporaryDirectory
    paths: dict[str, str]

    def cleanup(self) -> None:
        self.folder.cleanup()


def _io_files(n: int) -> Files:
    df = data.groupby_data(n)
    folder = tempfile.TemporaryDirectory(prefix="ember-bench-")
    paths = {
        "csv": os.path.join(folder.name, "G1.csv"),
        "parquet_snappy": os.path.join(folder.name, "G1_snappy.parquet"),
        "parquet_zstd": os.path.join(folder.name, "G1_zstd.parquet"),
    }
    df.to_csv(paths["csv"], index=False)
    df.to_parquet(paths["parquet_snappy"], compression="snappy", index=False)
    df.to_parquet(paths["parquet_zstd"], compression="zstd", index=False)
    return Files(folder, paths)


def _text(n: int) -> dict[str, Any]:
    docs, labels = data.text_documents(n)
    return {"docs": docs, "y": labels}


def _tabular(n: int) -> dict[str, Any]:
    X, y = data.tabular_classification(n, n_features=20)
    return {"X": X, "y": y}


#: data set name -> builder(rows) -> raw data in pandas/NumPy form.
DATASETS: dict[str, Callable[[int], Any]] = {
    "seed": lambda n: {"df": data.seed_frame(n)},
    "groupby": lambda n: {"x": data.groupby_data(n)},
    "join": data.join_data,
    "io": _io_files,
    "text": _text,
    "tabular": _tabular,
}


# -------------------------------------------------------------------------- conversion to native forms


def _frames(raw: Any) -> bool:
    return isinstance(raw, dict) and all(isinstance(v, pd.DataFrame) for v in raw.values())


def _ember() -> Any:
    import ember

    return ember


def _to_ember(raw: Any) -> Any:
    em = _ember()
    if _frames(raw):
        return {k: em.from_pandas(v) for k, v in raw.items()}
    if isinstance(raw, dict) and "docs" in raw:
        return {"docs": em.from_pandas(raw["docs"]), "y": raw["y"]}
    if isinstance(raw, dict) and "X" in raw:
        xp = em.backend.xp()
        return {"X": em.backend.asarray_on(raw["X"], xp), "y": em.backend.asarray_on(raw["y"], xp)}
    return raw


def _to_duckdb(raw: Any) -> Any:
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")  # its own bar would interleave with the table
    if _frames(raw):
        for name, df in raw.items():
            # categoricals become VARCHAR: native tables, as db-benchmark loads them
            cats = {c: "string" for c in df.columns if isinstance(df[c].dtype, pd.CategoricalDtype)}
            src = df.astype(cats) if cats else df  # noqa: F841 - read by DuckDB's replacement scan
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM src")
    return {"con": con, "raw": raw}


def _to_polars(raw: Any) -> Any:
    import polars as pl

    return {k: pl.from_pandas(v) for k, v in raw.items()} if _frames(raw) else raw


def _to_numpy(raw: Any) -> Any:
    if _frames(raw):
        return {k: {c: v[c].to_numpy() for c in v.columns} for k, v in raw.items()}
    return raw


def _cupy() -> Any:
    return _ember().backend.cupy_module()


def _to_cupy(raw: Any) -> Any:
    cp = _cupy()
    if _frames(raw):
        return {
            k: {c: cp.asarray(v[c].to_numpy()) for c in v.columns if v[c].dtype.kind in "biuf"}
            for k, v in raw.items()
        }
    if isinstance(raw, dict) and "X" in raw:
        return {"X": cp.asarray(raw["X"]), "y": cp.asarray(raw["y"])}
    return raw


def _to_cudf(raw: Any) -> Any:
    import cudf

    if _frames(raw):
        return {k: cudf.from_pandas(v) for k, v in raw.items()}
    if isinstance(raw, dict) and "docs" in raw:
        return {"docs": cudf.from_pandas(raw["docs"]), "y": raw["y"]}
    return _to_cupy(raw)


#: library -> conversion of a data set's raw form into that library's native form (done outside timing).
CONVERTERS: dict[str, Fn] = {
    "pandas": lambda raw: raw,
    "sklearn": lambda raw: raw,
    "numpy": _to_numpy,
    "polars": _to_polars,
    "duckdb": _to_duckdb,
    "ember": _to_ember,
    "cupy": _to_cupy,
    "cudf": _to_cudf,
    "cuml": _to_cudf,
}


def release(library: str, native: Any) -> None:
    """Free what a conversion holds outside Python's reach (DuckDB's connection)."""
    if library == "duckdb" and isinstance(native, dict) and "con" in native:
        native["con"].close()


# -------------------------------------------------------------------------------------- seed workloads


def _sincos(s: Any) -> Any:
    return np.sin(s) ** 2 + np.cos(s) ** 2


def _duck(sql: str) -> Fn:
    """A DuckDB workload: the query's result is written to a table, as db-benchmark times it."""

    def run(d: dict[str, Any]) -> Any:
        return d["con"].execute(f"CREATE OR REPLACE TABLE ans AS {sql}")

    return run


def _pandas_like(fn: Fn, *libs: str) -> dict[str, Fn]:
    return dict.fromkeys(libs or ("pandas", "ember", "cudf"), fn)


_SEED: list[Workload] = [
    Workload(
        "seed_sincos",
        "seed",
        "seed",
        {
            **_pandas_like(lambda d: _sincos(d["df"]["x"])),
            "numpy": lambda d: _sincos(d["df"]["x"]),
            "cupy": lambda d: _sincos(d["df"]["x"]),
            "polars": lambda d: d["df"].select((pl_col("x").sin() ** 2 + pl_col("x").cos() ** 2).alias("r")),
        },
        description="sin(x)**2 + cos(x)**2 on one float64 column (the seed's NumPy vs GPU table)",
    ),
    Workload(
        "seed_mean",
        "seed",
        "seed",
        {
            **_pandas_like(lambda d: d["df"].x.mean()),
            "numpy": lambda d: d["df"]["x"].mean(),
            "cupy": lambda d: d["df"]["x"].mean(),
            "polars": lambda d: d["df"]["x"].mean(),
            "duckdb": lambda d: d["con"].execute("SELECT avg(x) FROM df").fetchall(),
        },
        description="df.x.mean()",
    ),
    Workload(
        "seed_df_mean",
        "seed",
        "seed",
        {**_pandas_like(lambda d: d["df"].mean()), "polars": lambda d: d["df"].mean()},
        description="df.mean()",
    ),
    Workload(
        "seed_groupby_mean",
        "seed",
        "seed",
        {
            **_pandas_like(lambda d: d["df"].groupby("y").mean()),
            "polars": lambda d: d["df"].group_by("y").mean(),
            "duckdb": _duck("SELECT y, avg(x) AS x FROM df GROUP BY y"),
        },
        description="df.groupby('y').mean()",
    ),
    Workload(
        "seed_groupby_col_mean",
        "seed",
        "seed",
        _pandas_like(lambda d: d["df"].groupby("y").x.mean()),
        description="df.groupby('y').x.mean()",
    ),
    Workload(
        "seed_series_groupby_mean",
        "seed",
        "seed",
        _pandas_like(lambda d: d["df"].x.groupby(d["df"].y).mean()),
        description="df.x.groupby(df.y).mean()",
    ),
    Workload(
        "seed_merge",
        "seed",
        "seed",
        {
            **_pandas_like(lambda d: d["df"].merge(d["df"], on="y")),
            "polars": lambda d: d["df"].join(d["df"], on="y"),
            "duckdb": _duck("SELECT a.x AS x_x, a.y, b.x AS x_y FROM df a JOIN df b USING (y)"),
        },
        description="df.merge(df, on='y') (~2 rows per input row)",
    ),
]


def pl_col(name: str) -> Any:
    import polars as pl

    return pl.col(name)


def _pl() -> Any:
    import polars as pl

    return pl


# ---------------------------------------------------------------------------- db-benchmark groupby q1-q10

_GB_KW = {"as_index": False, "sort": False, "observed": True, "dropna": False}


def _gb(keys: Any, aggs: dict[str, Any]) -> Fn:
    return lambda d: d["x"].groupby(keys, **_GB_KW).agg(aggs)


def _gb_q7(d: dict[str, Any]) -> Any:
    ans = d["x"].groupby("id3", **_GB_KW).agg({"v1": "max", "v2": "min"})
    ans["range_v1_v2"] = ans["v1"] - ans["v2"]
    return ans[["id3", "range_v1_v2"]]


def _gb_q8(d: dict[str, Any]) -> Any:
    x = d["x"]
    top = x[~x["v3"].isna()][["id6", "v3"]].sort_values("v3", ascending=False)
    return top.groupby("id6", observed=True).head(2)


def _gb_q9(d: dict[str, Any]) -> Any:
    sub = d["x"][["id2", "id4", "v1", "v2"]]
    return sub.groupby(["id2", "id4"], observed=True).apply(
        lambda g: pd.Series({"r2": g.corr(numeric_only=True)["v1"]["v2"] ** 2})
    )


def _polars_gb(query: int) -> Fn:
    def run(d: dict[str, Any]) -> Any:
        pl, x = _pl(), d["x"]
        if query == 1:
            return x.group_by("id1").agg(pl.sum("v1"))
        if query == 2:
            return x.group_by("id1", "id2").agg(pl.sum("v1"))
        if query == 3:
            return x.group_by("id3").agg(pl.sum("v1"), pl.mean("v3"))
        if query == 4:
            return x.group_by("id4").agg(pl.mean("v1"), pl.mean("v2"), pl.mean("v3"))
        if query == 5:
            return x.group_by("id6").agg(pl.sum("v1"), pl.sum("v2"), pl.sum("v3"))
        if query == 6:
            return x.group_by("id4", "id5").agg(
                pl.median("v3").alias("median_v3"), pl.std("v3").alias("sd_v3")
            )
        if query == 7:
            return x.group_by("id3").agg((pl.max("v1") - pl.min("v2")).alias("range_v1_v2"))
        if query == 8:
            return (
                x.drop_nulls("v3")
                .group_by("id6")
                .agg(pl.col("v3").top_k(2).alias("largest2_v3"))
                .explode("largest2_v3")
            )
        if query == 9:
            return x.group_by("id2", "id4").agg((pl.corr("v1", "v2") ** 2).alias("r2"))
        return x.group_by("id1", "id2", "id3", "id4", "id5", "id6").agg(
            pl.sum("v3").alias("v3"), pl.count("v1").alias("count")
        )

    return run


_GB_SQL = {
    1: "SELECT id1, sum(v1) AS v1 FROM x GROUP BY id1",
    2: "SELECT id1, id2, sum(v1) AS v1 FROM x GROUP BY id1, id2",
    3: "SELECT id3, sum(v1) AS v1, avg(v3) AS v3 FROM x GROUP BY id3",
    4: "SELECT id4, avg(v1) AS v1, avg(v2) AS v2, avg(v3) AS v3 FROM x GROUP BY id4",
    5: "SELECT id6, sum(v1) AS v1, sum(v2) AS v2, sum(v3) AS v3 FROM x GROUP BY id6",
    6: "SELECT id4, id5, quantile_cont(v3, 0.5) AS median_v3, stddev(v3) AS sd_v3 FROM x GROUP BY id4, id5",
    7: "SELECT id3, max(v1) - min(v2) AS range_v1_v2 FROM x GROUP BY id3",
    8: (
        "SELECT id6, v3 AS largest2_v3 FROM (SELECT id6, v3, row_number() OVER "
        "(PARTITION BY id6 ORDER BY v3 DESC) AS order_v3 FROM x WHERE v3 IS NOT NULL) sub WHERE order_v3 <= 2"
    ),
    9: "SELECT id2, id4, pow(corr(v1, v2), 2) AS r2 FROM x GROUP BY id2, id4",
    10: (
        "SELECT id1, id2, id3, id4, id5, id6, sum(v3) AS v3, count(*) AS count "
        "FROM x GROUP BY id1, id2, id3, id4, id5, id6"
    ),
}

_GB_PANDAS: dict[int, tuple[Fn, str]] = {
    1: (_gb("id1", {"v1": "sum"}), "sum v1 by id1"),
    2: (_gb(["id1", "id2"], {"v1": "sum"}), "sum v1 by id1:id2"),
    3: (_gb("id3", {"v1": "sum", "v3": "mean"}), "sum v1 mean v3 by id3"),
    4: (_gb("id4", {"v1": "mean", "v2": "mean", "v3": "mean"}), "mean v1:v3 by id4"),
    5: (_gb("id6", {"v1": "sum", "v2": "sum", "v3": "sum"}), "sum v1:v3 by id6"),
    6: (_gb(["id4", "id5"], {"v3": ["median", "std"]}), "median v3 sd v3 by id4 id5"),
    7: (_gb_q7, "max v1 - min v2 by id3"),
    8: (_gb_q8, "largest two v3 by id6"),
    9: (_gb_q9, "regression v1 v2 by id2 id4 (groupby.apply; off by default, as in the anchors)"),
    10: (
        _gb(["id1", "id2", "id3", "id4", "id5", "id6"], {"v3": "sum", "v1": "size"}),
        "sum v3 count by id1:id6",
    ),
}

_GROUPBY: list[Workload] = [
    Workload(
        f"gb_q{q}",
        "gb",
        "groupby",
        {**_pandas_like(fn), "polars": _polars_gb(q), "duckdb": _duck(_GB_SQL[q])},
        default=q != 9,
        ordered=q != 8,  # q8 sorts v3 with pandas' default unstable quicksort: ties come in any order
        description=f"db-benchmark groupby q{q}: {text}",
    )
    for q, (fn, text) in _GB_PANDAS.items()
]

_GROUPBY.append(
    Workload(
        "sort_values_2keys",
        "sort",
        "groupby",
        {
            **_pandas_like(lambda d: d["x"].sort_values(["id4", "v3"])),
            "polars": lambda d: d["x"].sort(["id4", "v3"]),
            "duckdb": _duck("SELECT * FROM x ORDER BY id4, v3"),
        },
        description="x.sort_values(['id4', 'v3']) on the groupby table",
    )
)


# ------------------------------------------------------------------------------ db-benchmark join q1-q5

_JOINS: dict[int, tuple[str, str, str, str]] = {
    # query -> (right table, key, how, DuckDB select list beyond x.*)
    1: ("small", "id1", "inner", "small.id4 AS small_id4, v2"),
    2: (
        "medium",
        "id2",
        "inner",
        "medium.id1 AS medium_id1, medium.id4 AS medium_id4, medium.id5 AS medium_id5, v2",
    ),
    3: (
        "medium",
        "id2",
        "left",
        "medium.id1 AS medium_id1, medium.id4 AS medium_id4, medium.id5 AS medium_id5, v2",
    ),
    4: (
        "medium",
        "id5",
        "inner",
        "medium.id1 AS medium_id1, medium.id2 AS medium_id2, medium.id4 AS medium_id4, v2",
    ),
    5: (
        "big",
        "id3",
        "inner",
        "big.id1 AS big_id1, big.id2 AS big_id2, big.id4 AS big_id4, big.id5 AS big_id5, big.id6 AS big_id6, v2",
    ),
}


def _join_workload(q: int) -> Workload:
    right, key, how, cols = _JOINS[q]
    sql = f"SELECT x.*, {cols} FROM x {'LEFT ' if how == 'left' else ''}JOIN {right} USING ({key})"
    return Workload(
        f"join_q{q}",
        "join",
        "join",
        {
            **_pandas_like(lambda d: d["x"].merge(d[right], how=how, on=key)),
            "polars": lambda d: d["x"].join(d[right], how=how, on=key),
            "duckdb": _duck(sql),
        },
        description=f"db-benchmark join q{q}: {how} join x with {right} on {key}",
    )


_JOIN: list[Workload] = [_join_workload(q) for q in _JOINS]


# ------------------------------------------------------------------------------------------ IO workloads


def _duck_read(fmt: str) -> Fn:
    reader = "read_csv" if fmt == "csv" else "read_parquet"
    return lambda d: d["con"].execute(
        f"CREATE OR REPLACE TABLE ans AS SELECT * FROM {reader}('{d['raw'].paths[fmt]}')"
    )


def _io_workload(name: str, fmt: str, pandas_reader: str) -> Workload:
    return Workload(
        name,
        "io",
        "io",
        {
            "pandas": lambda f: getattr(pd, pandas_reader)(f.paths[fmt]),
            "ember": lambda f: getattr(_ember(), pandas_reader)(f.paths[fmt]),
            "cudf": lambda f: getattr(importlib.import_module("cudf"), pandas_reader)(f.paths[fmt]),
            "polars": lambda f: getattr(_pl(), pandas_reader)(f.paths[fmt]),
            "duckdb": _duck_read(fmt),
        },
        description=f"read the groupby table from {fmt.replace('_', ' ')}",
    )


_IO: list[Workload] = [
    _io_workload("read_csv", "csv", "read_csv"),
    _io_workload("read_parquet_snappy", "parquet_snappy", "read_parquet"),
    _io_workload("read_parquet_zstd", "parquet_zstd", "read_parquet"),
]


# ------------------------------------------------------------------------------------------ ML workloads
# ember's estimators are looked up in ember.ml (module paths mirror scikit-learn's): until a module
# lands, the ImportError makes the harness report the workload as unsupported for ember.


def _estimator(library: str, module: str, name: str) -> Any:
    root = {"sklearn": "sklearn", "ember": "ember.ml", "cuml": "cuml"}[library]
    return getattr(importlib.import_module(f"{root}.{module}"), name)


_DOCS_SIZE = lambda rows: max(rows // 10, 100)  # noqa: E731
_FOREST_SIZE = lambda rows: max(rows // 100, 100)  # noqa: E731


def _hashing(library: str) -> Fn:
    hv = _estimator(library, "feature_extraction.text", "HashingVectorizer")
    return lambda d: hv(n_features=2**20).transform(d["docs"])


def _tfidf(library: str) -> Fn:
    tv = _estimator(library, "feature_extraction.text", "TfidfVectorizer")
    return lambda d: tv().fit_transform(d["docs"])


def _tfidf_prep(library: str) -> Fn:
    def prep(d: dict[str, Any]) -> dict[str, Any]:
        return {"X": _tfidf(library)(d), "y": d["y"]}

    return prep


def _logreg(library: str) -> Fn:
    lr = _estimator(library, "linear_model", "LogisticRegression")
    return lambda d: lr(max_iter=100).fit(d["X"], d["y"])


def _forest(library: str) -> Fn:
    rf = _estimator(library, "ensemble", "RandomForestClassifier")
    kw: dict[str, Any] = {"n_estimators": 100, "max_depth": 16, "random_state": 0}
    if library == "sklearn":
        kw["n_jobs"] = -1
    return lambda d: rf(**kw).fit(d["X"], d["y"])


def _lazy(factory: Callable[[str], Fn], library: str) -> Fn:
    """Resolve the estimator when the workload runs, so a missing module is that workload's ImportError."""
    return lambda d: factory(library)(d)


def _ml_impls(
    factory: Callable[[str], Fn], libs: tuple[str, ...] = ("sklearn", "ember", "cuml")
) -> dict[str, Fn]:
    return {lib: _lazy(factory, lib) for lib in libs}


_ML: list[Workload] = [
    Workload(
        "ml_hashing_vectorizer",
        "ml",
        "text",
        _ml_impls(_hashing),
        size=_DOCS_SIZE,
        max_runs=1,
        description="HashingVectorizer(2**20).transform on rows/10 Zipf documents",
    ),
    Workload(
        "ml_tfidf_vectorizer",
        "ml",
        "text",
        _ml_impls(_tfidf),
        size=_DOCS_SIZE,
        max_runs=1,
        description="TfidfVectorizer().fit_transform on rows/10 Zipf documents",
    ),
    Workload(
        "ml_logreg_text",
        "ml",
        "text",
        _ml_impls(_logreg),
        prep={lib: _lazy(_tfidf_prep, lib) for lib in ("sklearn", "ember", "cuml")},
        size=_DOCS_SIZE,
        max_runs=1,
        description="LogisticRegression(max_iter=100).fit on the TF-IDF of rows/10 documents",
    ),
    Workload(
        "ml_random_forest",
        "ml",
        "tabular",
        _ml_impls(_forest),
        size=_FOREST_SIZE,
        max_runs=1,
        description="RandomForestClassifier(100 trees, depth 16).fit on rows/100 x 20 features",
    ),
]


#: name -> Workload, in table order.
WORKLOADS: dict[str, Workload] = {w.name: w for w in (*_SEED, *_GROUPBY, *_JOIN, *_IO, *_ML)}
GROUPS: tuple[str, ...] = ("seed", "gb", "sort", "join", "io", "ml")


def select(spec: str | None) -> list[Workload]:
    """Workloads named by a comma list of names, groups ("seed", "gb", "sort", "join", "io", "ml"),
    shell-style patterns ("gb_q*") or "all". None/"default" and the groups select the workloads marked
    default; a workload off by default (gb_q9) runs when named, matched by a pattern, or with "all"."""
    import fnmatch

    if spec is None or spec.strip() in ("", "default"):
        return [w for w in WORKLOADS.values() if w.default]
    chosen: dict[str, Workload] = {}
    for token in (t.strip() for t in spec.split(",") if t.strip()):
        if token == "all":
            hits = list(WORKLOADS.values())
        elif token == "default":
            hits = [w for w in WORKLOADS.values() if w.default]
        elif token in GROUPS:
            hits = [w for w in WORKLOADS.values() if w.group == token and w.default]
        else:
            hits = [w for n, w in WORKLOADS.items() if fnmatch.fnmatchcase(n, token)]
        if not hits:
            raise ValueError(
                f"no workload matches {token!r}; known: {', '.join(WORKLOADS)} and groups {GROUPS}"
            )
        chosen.update((w.name, w) for w in hits)
    return [w for w in WORKLOADS.values() if w.name in chosen]

"""ember as a Dask DataFrame backend: parity with pandas-backed Dask (synchronous scheduler, so the
dispatch layer is tested without process start-up), creation functions, conversions, hashing and
serialization round trips."""

from __future__ import annotations

import pickle

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import dask
import ember
import ember.dask  # noqa: F401
from ember.frame import DataFrame

from .conftest import assert_same, make_frame

OPS = {
    "groupby_sum": lambda d, r: d.groupby("a").b.sum(),
    "groupby_agg": lambda d, r: d.groupby(["a", "s"]).agg({"b": ["sum", "mean", "count"], "i": "max"}),
    "groupby_split_out": lambda d, r: d.groupby("s").b.mean(split_out=2),
    "merge_hash": lambda d, r: d.merge(r, on="a", how="inner", shuffle_method="tasks", broadcast=False),
    "merge_broadcast": lambda d, r: d.merge(r, on="a", how="left", broadcast=True),
    "shuffle": lambda d, r: d.shuffle("s", shuffle_method="tasks"),
    "sort_values": lambda d, r: d.sort_values("i"),
    "set_index": lambda d, r: d.set_index("i"),
    "drop_duplicates": lambda d, r: d.drop_duplicates(subset=["a", "s"]),
    "value_counts": lambda d, r: d.s.value_counts(),
    "map_partitions": lambda d, r: d.map_partitions(lambda x: x.assign(c=x.i * 2)),
    "sum": lambda d, r: d.i.sum(),
}


@pytest.fixture(scope="module")
def frames():
    pdf = make_frame()
    right = pd.DataFrame({"a": np.arange(5), "z": np.arange(5) * 10.0})
    with dask.config.set({"dataframe.convert-string": False}):
        p = dd.from_pandas(pdf, npartitions=4)
        r = dd.from_pandas(right, npartitions=2)
        return p, r, p.to_backend("ember"), r.to_backend("ember")


@pytest.mark.parametrize("op", list(OPS))
def test_parity_sync(frames, op):
    p, r, e, er = frames
    exp = OPS[op](p, r).compute(scheduler="sync")
    got = OPS[op](e, er).compute(scheduler="sync")
    assert isinstance(got, (DataFrame, ember.Series)) or np.isscalar(got)
    assert_same(got, exp, ignore_index=op.startswith("merge"))


def test_partitions_are_ember(frames):
    _, _, e, _ = frames
    assert isinstance(e._meta, DataFrame)
    assert isinstance(e.partitions[1].compute(scheduler="sync"), DataFrame)


def test_to_backend_both_ways(frames):
    p, _, e, _ = frames
    back = e.to_backend("pandas")
    assert isinstance(back._meta, pd.DataFrame)
    pd.testing.assert_frame_equal(back.compute(scheduler="sync"), p.compute(scheduler="sync"))


def test_from_dict_backend():
    data = {"x": np.arange(10), "y": list("abcdefghij")}
    with dask.config.set({"dataframe.backend": "ember"}):
        d = dd.from_dict(data, npartitions=3)
    assert isinstance(d._meta, DataFrame)
    pd.testing.assert_frame_equal(d.compute(scheduler="sync").to_pandas(), pd.DataFrame(data))


def test_read_parquet_and_csv_backend(tmp_path):
    pdf = make_frame(60)[["a", "b", "s", "i"]]
    for k in range(3):
        pdf.iloc[k * 20 : (k + 1) * 20].to_parquet(tmp_path / f"part{k}.parquet", index=False)
        pdf.iloc[k * 20 : (k + 1) * 20].to_csv(tmp_path / f"part{k}.csv", index=False)
    with dask.config.set({"dataframe.backend": "ember"}):
        pq = dd.read_parquet(str(tmp_path / "*.parquet"))
        csv = dd.read_csv(str(tmp_path / "*.csv"))
    for d in (pq, csv):
        assert isinstance(d._meta, DataFrame) and d.npartitions == 3
        got = d.compute(scheduler="sync").to_pandas().reset_index(drop=True)
        pd.testing.assert_frame_equal(got, pdf.reset_index(drop=True), check_dtype=False)
        assert_same(d.groupby("a").b.sum().compute(scheduler="sync"), pdf.groupby("a").b.sum())


def test_read_parquet_categoricals_differ_per_file(tmp_path):
    """Each file holds its own category set: the meta must not claim the first file's (Dask's
    "unknown categories"), and groupby over the parts must match pandas over all rows."""
    parts = [
        pd.DataFrame({"k": pd.Categorical(list("aab")), "v": [1, 2, 3]}),
        pd.DataFrame({"k": pd.Categorical(list("ccd")), "v": [4, 5, 6]}),
    ]
    for i, part in enumerate(parts):
        part.to_parquet(tmp_path / f"p{i}.parquet", index=False)
    with dask.config.set({"dataframe.backend": "ember"}):
        d = dd.read_parquet(str(tmp_path / "*.parquet"))
    assert not dd.utils.has_known_categories(d._meta["k"])
    whole = pd.concat(parts, ignore_index=True).astype({"k": str})
    got = d.groupby("k", observed=True).v.sum().compute(scheduler="sync").to_pandas()
    got.index = got.index.astype(str)
    pd.testing.assert_series_equal(got.sort_index(), whole.groupby("k").v.sum(), check_names=False)


def test_empty_and_one_row_partitions():
    pdf = pd.DataFrame({"a": [1], "b": [2.0]})
    e = dd.from_pandas(pdf, npartitions=1).to_backend("ember")
    assert_same(e.groupby("a").b.sum().compute(scheduler="sync"), pdf.groupby("a").b.sum())
    empty = e[e.a > 5]
    assert len(empty.compute(scheduler="sync")) == 0


# --- hashing ---------------------------------------------------------------------------------
def test_hash_equal_rows_equal_hash_across_partitions():
    from dask.dataframe.dispatch import hash_object_dispatch

    a = ember.from_pandas(pd.DataFrame({"k": [1.0, -0.0, np.nan, 3.0], "s": ["x", "y", None, "x"]}))
    b = ember.from_pandas(
        pd.DataFrame({"k": np.array([3.0, 0.0, np.nan], dtype="float32"), "s": ["x", "y", None]})
    )
    ha = hash_object_dispatch(a, index=False).to_numpy()
    hb = hash_object_dispatch(b, index=False).to_numpy()
    assert ha[3] == hb[0] and ha[1] == hb[1] and ha[2] == hb[2]
    assert len(set(ha.tolist())) == 4


def test_hash_categorical_by_value():
    from dask.dataframe.dispatch import hash_object_dispatch

    a = ember.from_pandas(pd.Series(pd.Categorical(["u", "v", None], categories=["u", "v"])))
    b = ember.from_pandas(pd.Series(pd.Categorical(["v", "u", None], categories=["v", "w", "u"])))
    ha, hb = (hash_object_dispatch(x, index=False).to_numpy() for x in (a, b))
    assert ha[0] == hb[1] and ha[1] == hb[0] and ha[2] == hb[2]


def test_group_split_keeps_order_and_rows():
    from dask.dataframe.dispatch import group_split_dispatch

    pdf = make_frame(50)
    e = ember.from_pandas(pdf)
    codes = np.arange(50) % 3
    parts = group_split_dispatch(e, codes, 3, ignore_index=False)
    for k in range(3):
        pd.testing.assert_frame_equal(parts[k].to_pandas(), pdf[codes == k])


# --- serialization -----------------------------------------------------------------------------
def _objects():
    pdf = make_frame(30).set_index("a")
    e = ember.from_pandas(pdf)
    cat = ember.from_pandas(pd.DataFrame({"c": pd.Categorical(["x", None, "y"])}))
    multi = ember.from_pandas(pdf.reset_index().set_index(["a", "s"]))
    return [
        e,
        e["b"],
        e.index,
        cat,
        multi,
        ember.from_pandas(pdf.iloc[:0]),
        ember.from_pandas(pdf.reset_index()),
    ]


@pytest.mark.parametrize("family", ["dask", "cuda", "pickle"])
def test_serialize_roundtrip(family):
    from distributed.protocol import deserialize, serialize

    for obj in _objects():
        if family == "pickle":
            out = pickle.loads(pickle.dumps(obj))
        else:
            header, frames = serialize(obj, serializers=[family], on_error="raise")
            assert header["serializer"] == family
            out = deserialize(header, frames)
        exp = obj.to_pandas()
        if isinstance(exp, pd.Index):
            pd.testing.assert_index_equal(out.to_pandas(), exp)
        elif isinstance(exp, pd.Series):
            pd.testing.assert_series_equal(out.to_pandas(), exp)
        else:
            pd.testing.assert_frame_equal(out.to_pandas(), exp)


def test_arrow_table_roundtrip_keeps_index():
    from dask.dataframe.dispatch import from_pyarrow_table_dispatch, to_pyarrow_table_dispatch

    for obj in _objects():
        if not isinstance(obj, DataFrame):
            continue
        t = to_pyarrow_table_dispatch(obj, preserve_index=True)
        out = from_pyarrow_table_dispatch(obj, t, self_destruct=True)
        pd.testing.assert_frame_equal(out.to_pandas(), obj.to_pandas())


def test_tokenize_deterministic():
    from dask.tokenize import tokenize

    a = ember.from_pandas(make_frame(20))
    b = ember.from_pandas(make_frame(20))
    c = ember.from_pandas(make_frame(20, seed=1))
    assert tokenize(a) == tokenize(b) != tokenize(c)


def test_compute_fuses_blockwise_steps(tmp_path):
    """A read, a column selection and a groupby chunk run as one task per partition (Dask's own
    collections compute them unfused: three tasks per partition, each a scheduler round trip)."""
    pdf = make_frame(60)[["a", "b", "s", "i"]]
    for k in range(3):
        pdf.iloc[k * 20 : (k + 1) * 20].to_parquet(tmp_path / f"part{k}.parquet", index=False)
    graphs = []

    def recording_scheduler(graph, keys, **kwargs):
        from dask.local import get_sync

        graphs.append(dict(graph.__dask_graph__()) if hasattr(graph, "__dask_graph__") else dict(graph))
        return get_sync(graph, keys, **kwargs)

    with dask.config.set({"dataframe.backend": "ember"}):
        query = dd.read_parquet(str(tmp_path / "*.parquet")).groupby("a").b.sum()
    got = query.compute(scheduler=recording_scheduler)
    assert_same(got, pdf.groupby("a").b.sum())
    # fused: one task per file (read, string conversion and chunk) and the tree's one; Dask's own
    # compute of the same collection runs the read, the conversion and the chunk as three tasks each
    assert len(graphs[0]) == 3 + 1
    from dask.base import DaskMethodsMixin

    DaskMethodsMixin.compute(query, scheduler=recording_scheduler)
    assert len(graphs[1]) > len(graphs[0])
    # optimize_graph=False: the graph as it is, unfused and unoptimized
    assert_same(query.compute(scheduler=recording_scheduler, optimize_graph=False), pdf.groupby("a").b.sum())
    assert len(graphs[2]) >= len(graphs[1])

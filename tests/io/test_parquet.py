"""read_parquet / write_parquet / read_orc against pandas on the same files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import ember
from ember.io import parquet as parquet_module
from ember.io import read_orc, read_parquet, write_orc, write_parquet


def frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "i8": np.array([1, -2, 3, 4], dtype=np.int8),
            "u32": np.array([1, 2, 3, 4], dtype=np.uint32),
            "f32": np.array([1.5, np.nan, 2.5, 3], dtype=np.float32),
            "f": [0.1, 0.2, np.nan, 1e300],
            "b": [True, False, True, True],
            "I": pd.array([1, None, 3, 4], dtype="Int64"),
            "B": pd.array([True, None, False, True], dtype="boolean"),
            "s": ["a", None, "c", "dd"],
            "cat": pd.Categorical(["x", "y", None, "x"], categories=["y", "x"], ordered=True),
            "t": pd.to_datetime(["2020-01-01", None, "2021-01-01", "2022-02-02"]),
            "tz": pd.date_range("2020-01-01", periods=4, freq="h", tz="US/Eastern"),
            "td": pd.to_timedelta([1, 2, None, 4], unit="s"),
        }
    )


@pytest.mark.parametrize("codec", ["snappy", "gzip", "zstd", "lz4", "brotli", None])
def test_roundtrip_codecs(tmp_path, codec):
    pdf = frame()
    path = str(tmp_path / "f.parquet")
    write_parquet(ember.from_pandas(pdf), path, compression=codec)
    pd.testing.assert_frame_equal(read_parquet(path).to_pandas(), pd.read_parquet(path))
    pd.testing.assert_frame_equal(pd.read_parquet(path), pdf)


@pytest.mark.parametrize(
    "index",
    [
        pd.RangeIndex(4),
        pd.RangeIndex(10, 18, 2, name="r"),
        pd.Index([5, 3, 9, 1], name="k"),
        pd.Index(["a", "b", "c", "d"]),
        pd.MultiIndex.from_arrays([[1, 1, 2, 2], ["a", "b", "a", "b"]], names=["p", "q"]),
    ],
)
def test_index_roundtrip(tmp_path, index):
    pdf = frame().set_axis(index)
    path = str(tmp_path / "f.parquet")
    pdf.to_parquet(path)
    pd.testing.assert_frame_equal(read_parquet(path).to_pandas(), pd.read_parquet(path))


def test_columns_and_filters(tmp_path):
    pdf = pd.DataFrame(
        {"k": np.arange(1000), "v": np.arange(1000) * 0.5, "s": [f"s{i % 7}" for i in range(1000)]}
    )
    path = str(tmp_path / "f.parquet")
    pdf.to_parquet(path, row_group_size=100)
    for kw in [
        dict(columns=["v"]),
        dict(filters=[("k", ">=", 950)]),
        dict(filters=[[("k", "<", 5)], [("s", "==", "s3")]]),
        dict(columns=["s"], filters=[("k", "in", [1, 500])]),
    ]:
        pd.testing.assert_frame_equal(read_parquet(path, **kw).to_pandas(), pd.read_parquet(path, **kw))


def test_row_groups_pruned_by_statistics(tmp_path):
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    pdf = pd.DataFrame({"k": np.arange(1000)})
    path = str(tmp_path / "f.parquet")
    pdf.to_parquet(path, row_group_size=100)
    frag = next(ds.dataset(path).get_fragments(filter=pq.filters_to_expression([("k", ">=", 950)])))
    assert len(frag.split_by_row_group(pq.filters_to_expression([("k", ">=", 950)]))) == 1
    assert len(read_parquet(path, filters=[("k", ">=", 950)])) == 50


def test_directory_glob_list_and_hive(tmp_path):
    pdf = pd.DataFrame({"g": ["a", "b", "a", "c"], "v": [1, 2, 3, 4]})
    root = str(tmp_path / "ds")
    pdf.to_parquet(root, partition_cols=["g"])
    pd.testing.assert_frame_equal(read_parquet(root).to_pandas(), pd.read_parquet(root))
    pd.testing.assert_frame_equal(
        read_parquet(root, filters=[("g", "=", "a")]).to_pandas(),
        pd.read_parquet(root, filters=[("g", "=", "a")]),
    )
    for i in range(3):
        pdf.iloc[i : i + 2].to_parquet(tmp_path / f"part{i}.parquet", index=False)
    files = sorted(str(p) for p in tmp_path.glob("part*.parquet"))
    exp = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    pd.testing.assert_frame_equal(read_parquet(str(tmp_path / "part*.parquet")).to_pandas(), exp)
    pd.testing.assert_frame_equal(read_parquet(files).to_pandas(), exp)


def test_partition_cols_write(tmp_path):
    pdf = pd.DataFrame({"g": ["a", "b", "a"], "v": [1.0, 2.0, 3.0]})
    root = str(tmp_path / "out")
    write_parquet(ember.from_pandas(pdf), root, partition_cols=["g"])
    pd.testing.assert_frame_equal(read_parquet(root).to_pandas(), pd.read_parquet(root))


def test_file_object_and_empty(tmp_path):
    import io

    pdf = frame().iloc[:0]
    buf = io.BytesIO()
    pdf.to_parquet(buf)
    buf.seek(0)
    exp = pd.read_parquet(io.BytesIO(buf.getvalue()))
    pd.testing.assert_frame_equal(read_parquet(buf).to_pandas(), exp)


@pytest.mark.parametrize("engine", ["auto", "pyarrow", "ember"])
@pytest.mark.parametrize("rows", [0, 1, 3])
def test_all_null_columns(tmp_path, engine, rows):
    """Columns with no value: a masked int, a float, and an all-None object column (stored with
    Arrow's null type), which pandas reads back as object (None), not float."""
    pdf = pd.DataFrame(
        {
            "b": pd.array([None] * rows, dtype="Int64"),
            "c": [np.nan] * rows,
            "d": pd.Series([None] * rows, dtype=object),
        }
    )
    path = str(tmp_path / "f.parquet")
    pdf.to_parquet(path)
    got = read_parquet(path, engine=engine).to_pandas()
    want = pd.read_parquet(path)
    assert want["d"].dtype == object and want["d"].isna().all()
    # ember's object columns mark a missing value NaN (pandas' object ops do too), not None
    want["d"] = pd.Series([np.nan] * rows, dtype=object)
    pd.testing.assert_frame_equal(got, want)


def test_orc_roundtrip(tmp_path):
    pdf = pd.DataFrame(
        {"i": [1, 2, None], "s": ["a", None, "c"], "f": [0.5, 1.5, np.nan], "b": [True, False, True]}
    )
    path = str(tmp_path / "f.orc")
    write_orc(ember.from_pandas(pdf), path)
    pd.testing.assert_frame_equal(read_orc(path).to_pandas(), pd.read_orc(path))
    pd.testing.assert_frame_equal(read_orc(path, columns=["s"]).to_pandas(), pd.read_orc(path, columns=["s"]))


def test_batched_device_read_keeps_pandas_metadata(tmp_path, monkeypatch):
    """The GPU reader's batch-by-batch path (taken here with the host's arrays) types columns by the
    pandas metadata too: nullable Int64 with nulls stays Int64 (it read as Float64 on the H200)."""
    import ember.backend

    pdf = frame()
    path = str(tmp_path / "f.parquet")
    write_parquet(ember.from_pandas(pdf), path)
    monkeypatch.setattr(ember.backend, "current_device", lambda: "gpu")
    monkeypatch.setattr(parquet_module, "_local_files", lambda fs, files: False)
    got = read_parquet(path, batch_size=3).to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_parquet(path))


@pytest.mark.parametrize("batched", [False, True, "row_groups"], ids=["table", "batches", "row_groups"])
def test_categorical_row_groups_with_different_dictionaries(tmp_path, monkeypatch, batched):
    """Row groups written with their own dictionaries read as one categorical, as pandas reads them
    (the GPU's batch-by-batch path once concatenated them as plain strings); shared dictionaries too."""
    import pyarrow.parquet as pq

    import ember.backend

    path = str(tmp_path / "d.parquet")
    schema = pa.schema([("k", pa.dictionary(pa.int32(), pa.string())), ("v", pa.int64())])
    with pq.ParquetWriter(path, schema) as writer:
        for keys in (["a", "b", None], ["c", "a"], ["d", "d"]):
            table = pa.table({"k": pa.array(keys).dictionary_encode(), "v": range(len(keys))})
            writer.write_table(table.cast(schema))
    shared = str(tmp_path / "s.parquet")
    pd.DataFrame({"k": pd.Categorical(list("abcab") * 3)}).to_parquet(shared, row_group_size=4)
    if batched:  # the GPU's readers, run with host arrays
        monkeypatch.setattr(ember.backend, "current_device", lambda: "gpu")
    if batched is True:
        monkeypatch.setattr(parquet_module, "_local_files", lambda fs, files: False)
    for p in (path, shared):
        pd.testing.assert_frame_equal(read_parquet(p, batch_size=2).to_pandas(), pd.read_parquet(p))


def test_row_group_reader_with_host_arrays(tmp_path, monkeypatch):
    """The parallel row-group reader of local files (the GPU's path), run with host arrays: fixed-width
    columns through the slab, categoricals unified, nullable and string columns by the general path."""
    import ember.backend

    pdf = frame()
    path = str(tmp_path / "f.parquet")
    pdf.to_parquet(path, row_group_size=3)
    monkeypatch.setattr(ember.backend, "current_device", lambda: "gpu")
    pd.testing.assert_frame_equal(read_parquet(path).to_pandas(), pd.read_parquet(path))
    cols = list(pdf.columns[:3])
    pd.testing.assert_frame_equal(
        read_parquet(path, columns=cols).to_pandas(), pd.read_parquet(path, columns=cols)
    )


def test_row_group_reader_unifies_dictionaries_of_several_files(tmp_path, monkeypatch):
    """Files with their own categories (Dask writes one per partition), each over several row groups:
    one categorical whose categories come in Arrow's unified order, as pandas reads the list."""
    import ember.backend

    paths = []
    for i, cats in enumerate((["b", "a", "c"], ["d", "a"], ["c", "e", "b"])):
        values = pd.Categorical([cats[j % len(cats)] for j in range(10)], categories=cats)
        path = str(tmp_path / f"p{i}.parquet")
        pd.DataFrame({"k": values, "v": range(10)}).to_parquet(path, row_group_size=4)
        paths.append(path)
    monkeypatch.setattr(ember.backend, "current_device", lambda: "gpu")
    pd.testing.assert_frame_equal(read_parquet(paths).to_pandas(), pd.read_parquet(paths))

"""Parquet and CSV over s3:// against a real S3-compatible server on loopback (moto's server mode)."""

from __future__ import annotations

import socket

import numpy as np
import pandas as pd
import pytest

import ember
from ember.io import read_csv, read_parquet, write_csv, write_parquet

pytest.importorskip("moto.server")
pytest.importorskip("s3fs")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def s3():
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    opts = {
        "key": "testing",
        "secret": "testing",
        "client_kwargs": {"endpoint_url": endpoint, "region_name": "us-east-1"},
    }
    import boto3
    import s3fs

    boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        region_name="us-east-1",
    ).create_bucket(Bucket="ember-test")
    yield opts
    s3fs.S3FileSystem.clear_instance_cache()
    server.stop()


PDF = pd.DataFrame(
    {
        "a": np.arange(5),
        "b": [0.5, np.nan, 1.5, 2.5, 3.5],
        "s": ["x", None, "z", "w", "v"],
        "n": pd.array([1, None, 3, 4, 5], dtype="Int64"),
    }
)


def test_parquet_over_s3(s3):
    url = "s3://ember-test/data/f.parquet"
    write_parquet(ember.from_pandas(PDF), url, storage_options=s3)
    exp = pd.read_parquet(url, storage_options=s3)
    pd.testing.assert_frame_equal(exp, PDF)
    pd.testing.assert_frame_equal(read_parquet(url, storage_options=s3).to_pandas(), exp)
    pd.testing.assert_frame_equal(
        read_parquet(url, columns=["s"], filters=[("a", ">", 1)], storage_options=s3).to_pandas(),
        pd.read_parquet(url, columns=["s"], filters=[("a", ">", 1)], storage_options=s3),
    )


def test_parquet_dataset_over_s3(s3):
    root = "s3://ember-test/ds"
    write_parquet(
        ember.from_pandas(PDF.assign(g=["p", "q", "p", "q", "p"])),
        root,
        partition_cols=["g"],
        storage_options=s3,
    )
    got = read_parquet(root, storage_options=s3).to_pandas()
    exp = pd.read_parquet(root, storage_options=s3)
    pd.testing.assert_frame_equal(got, exp)
    glob = read_parquet("s3://ember-test/ds/g=p/*.parquet", storage_options=s3).to_pandas()
    assert len(glob) == 3


@pytest.mark.parametrize("name", ["f.csv", "f.csv.gz"])
def test_csv_over_s3(s3, name):
    url = f"s3://ember-test/csv/{name}"
    write_csv(ember.from_pandas(PDF), url, index=False, storage_options=s3)
    exp = pd.read_csv(url, storage_options=s3)
    pd.testing.assert_frame_equal(read_csv(url, storage_options=s3).to_pandas(), exp)
    chunks = list(read_csv(url, chunksize=2, storage_options=s3))
    assert sum(len(c) for c in chunks) == 5


def test_missing_object_over_s3(s3):
    with pytest.raises(FileNotFoundError, match="nope.parquet"):
        read_parquet("s3://ember-test/nope.parquet", storage_options=s3)
    with pytest.raises(FileNotFoundError, match="nope.csv"):
        read_csv("s3://ember-test/nope.csv", storage_options=s3)


def test_memory_filesystem():
    write_csv(ember.from_pandas(PDF), "memory://ember/f.csv", index=False)
    pd.testing.assert_frame_equal(
        read_csv("memory://ember/f.csv").to_pandas(), pd.read_csv("memory://ember/f.csv")
    )

"""ember partitions on real distributed clusters of worker processes (LocalGPUCluster on loopback; CPU
workers on a machine without GPU): parity with pandas-backed Dask, a worker killed mid-computation,
device -> host -> disk spilling under small limits, and task exceptions reaching the client."""

from __future__ import annotations

import os
import signal
import time
import warnings

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import ember.dask  # noqa: F401
from ember.frame import DataFrame

from .conftest import assert_same, make_frame


@pytest.fixture(scope="module")
def data():
    pdf = make_frame(3000, seed=3)
    right = pd.DataFrame({"a": np.arange(6), "z": np.arange(6) * 1.5})
    return pdf, right


def _both(data, nparts=6):
    pdf, right = data
    p, r = dd.from_pandas(pdf, npartitions=nparts), dd.from_pandas(right, npartitions=2)
    return p, r, p.to_backend("ember"), r.to_backend("ember")


def test_cluster_workers_and_buffers(client):
    info = client.run(lambda dask_worker: type(dask_worker.data).__name__)
    assert len(info) == 2 and set(info.values()) == {"DeviceHostDiskBuffer"}
    devices = client.run(lambda: os.environ.get("EMBER_DEVICE"))
    assert set(devices.values()) <= {"cpu", "gpu"}


@pytest.mark.parametrize(
    "op",
    [
        "groupby",
        "merge_p2p",
        "merge_tasks",
        "sort_values",
        "set_index_p2p",
        "drop_duplicates",
        "value_counts",
    ],
)
def test_parity_distributed(client, data, op):
    p, r, e, er = _both(data)
    fn = {
        "groupby": lambda d, r: d.groupby(["a", "s"]).agg({"b": "sum", "i": ["min", "count"]}),
        "merge_p2p": lambda d, r: d.merge(r, on="a", shuffle_method="p2p", broadcast=False),
        "merge_tasks": lambda d, r: d.merge(r, on="a", how="left", shuffle_method="tasks", broadcast=False),
        "sort_values": lambda d, r: d.sort_values("b"),
        "set_index_p2p": lambda d, r: d.set_index("i", shuffle_method="p2p"),
        "drop_duplicates": lambda d, r: d.drop_duplicates(
            subset=["a", "s"], shuffle_method="p2p", split_out=3
        ),
        "value_counts": lambda d, r: d.s.value_counts(),
    }[op]
    exp = fn(p, r).compute()
    got = fn(e, er).compute()
    assert type(got).__module__.startswith("ember")
    assert_same(got, exp, ignore_index=op.startswith("merge"))


def test_sorted_partitions_are_sorted(client, data):
    _, _, e, _ = _both(data)
    s = e.sort_values("i").i.compute().to_pandas()
    assert s.is_monotonic_increasing


def test_task_exception_reaches_client(client, data):
    _, _, e, _ = _both(data)

    class CustomError(ValueError):
        pass

    def boom(df):
        if len(df) and int(df["i"].max()) > -1000:
            raise CustomError("boom from partition")
        return df

    with pytest.raises(CustomError, match="boom from partition"):
        e.map_partitions(boom, meta=e._meta).compute()


def _slow(df):
    time.sleep(0.3)
    return df


def test_worker_killed_mid_computation(client, data):
    pdf, _ = data
    _, _, e, _ = _both(data, nparts=12)
    fut = client.compute(e.map_partitions(_slow, meta=e._meta).groupby("a").b.sum())
    time.sleep(1.0)
    victim = sorted(client.scheduler_info()["workers"])[0]
    pid = client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)  # the worker process this test's cluster started
    result = fut.result(timeout=120)
    assert_same(result, pdf.groupby("a").b.sum())
    client.wait_for_workers(2, timeout=60)


def test_spilling_to_host_and_disk(tmp_path):
    from distributed import Client, wait

    from ember.dask import LocalGPUCluster

    pdf = make_frame(20000, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        cluster = LocalGPUCluster(
            n_workers=1,
            device_memory_limit="150kB",
            host_memory_limit="300kB",
            local_directory=str(tmp_path),
            dashboard_address=None,
        )
    with cluster, Client(cluster) as client:
        e = dd.from_pandas(pdf, npartitions=20).to_backend("ember").persist()
        wait(e)
        stats = client.run(
            lambda dask_worker: (
                dask_worker.data.spilled_to_host,
                dask_worker.data.spilled_to_disk,
                len(dask_worker.data.disk),
            )
        )
        ((to_host, to_disk, on_disk),) = stats.values()
        assert to_host > 0 and to_disk > 0 and on_disk > 0
        assert_same(e.groupby("s").b.sum().compute(), pdf.groupby("s").b.sum())
        got = e.compute()
        assert isinstance(got, DataFrame)
        pd.testing.assert_frame_equal(got.to_pandas(), pdf)


def test_in_process_cluster():
    """``processes=False``: one worker in this process (in-memory comm); results come back as the
    worker's own ember objects, equal to pandas'. More workers or chosen GPUs are refused."""
    from distributed import Client

    from ember.dask import LocalGPUCluster

    pdf = make_frame(2000, seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        cluster = LocalGPUCluster(processes=False, dashboard_address=None)
    with cluster, Client(cluster) as client:
        assert cluster.scheduler_address.startswith("inproc://")
        workers = client.run(lambda dask_worker: (os.getpid(), type(dask_worker.data).__name__))
        assert list(workers.values()) == [(os.getpid(), "DeviceHostDiskBuffer")]
        e = dd.from_pandas(pdf, npartitions=4).to_backend("ember")
        got = e.groupby("s").agg({"b": "sum", "i": "mean"}).compute()
        assert isinstance(got, DataFrame)
        assert_same(got, pdf.groupby("s").agg({"b": "sum", "i": "mean"}))
    for bad in ({"n_workers": 2}, {"CUDA_VISIBLE_DEVICES": "0"}):
        with pytest.raises(NotImplementedError, match="processes=False"):
            LocalGPUCluster(processes=False, **bad)


def test_ember_shuffles_default_to_tasks(client, data):
    """With a distributed client Dask's default shuffle is P2P (host Arrow buffers and disk); ember
    collections shuffle by tasks unless a method is given or configured. Results equal pandas'."""
    import dask

    pdf, right = data
    left = dd.from_pandas(pdf, npartitions=4).to_backend("ember")
    other = dd.from_pandas(pdf[["a", "b"]].rename(columns={"b": "b2"}), npartitions=3).to_backend("ember")

    def joins(expr_collection):
        return {type(e).__name__ for e in expr_collection.optimize().expr.walk()}

    assert "HashJoinP2P" not in joins(left.merge(other, on="a", broadcast=False))
    assert "HashJoinP2P" in joins(left.merge(other, on="a", broadcast=False, shuffle_method="p2p"))
    with dask.config.set({"dataframe.shuffle.method": "p2p"}):
        assert "HashJoinP2P" in joins(left.merge(other, on="a", broadcast=False))
    want = pdf.merge(pdf[["a", "b"]].rename(columns={"b": "b2"}), on="a")
    assert len(left.merge(other, on="a", broadcast=False)) == len(want)
    got = left.merge(other, on="a", broadcast=False).compute().to_pandas()
    cols = list(want.columns)
    pd.testing.assert_frame_equal(
        got.sort_values(cols).reset_index(drop=True), want.sort_values(cols).reset_index(drop=True)
    )

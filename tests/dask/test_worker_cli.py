"""``ember worker SCHEDULER_ADDRESS`` joins any Dask scheduler; the option helpers it shares with
LocalGPUCluster."""

from __future__ import annotations

import subprocess
import sys

import dask.dataframe as dd
import pandas as pd
import pytest

from ember.dask.cluster import rotated
from ember.dask.spill import DeviceHostDiskBuffer, parse_bytes_limit

from .conftest import assert_same, make_frame


def test_rotated_devices():
    assert [rotated(["0", "1", "2"], i) for i in range(4)] == ["0,1,2", "1,2,0", "2,0,1", "0,1,2"]


@pytest.mark.parametrize(
    ("limit", "total", "expected"),
    [
        ("80%", 1000, 800),
        (0.5, 1000, 500),
        ("2kB", None, 2000),
        (4096, None, 4096),
        (None, 10, None),
        (0, 10, None),
    ],
)
def test_parse_bytes_limit(limit, total, expected):
    assert parse_bytes_limit(limit, total) == expected


def test_buffer_tiers_roundtrip(tmp_path):
    import ember

    frames = {f"k{i}": ember.from_pandas(make_frame(200, seed=i)) for i in range(6)}
    buf = DeviceHostDiskBuffer(device_memory_limit=20_000, memory_limit=20_000, local_directory=str(tmp_path))
    for k, v in frames.items():
        buf[k] = v
    buf["scalar"] = 3
    assert buf.spilled_to_host > 0 and buf.spilled_to_disk > 0 and len(buf) == 7
    for k, v in frames.items():
        pd.testing.assert_frame_equal(buf[k].to_pandas(), v.to_pandas())
    assert buf["scalar"] == 3
    del buf["k0"]
    assert "k0" not in buf and len(buf) == 6
    assert buf.evict() > 0
    buf.close()


def test_ember_worker_joins_scheduler(tmp_path):
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=0, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ember",
                "worker",
                cluster.scheduler_address,
                "--nworkers",
                "1",
                "--local-directory",
                str(tmp_path),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            client.wait_for_workers(1, timeout=90)
            kinds = client.run(lambda dask_worker: type(dask_worker.data).__name__)
            assert set(kinds.values()) == {"DeviceHostDiskBuffer"}
            pdf = make_frame(500)
            e = dd.from_pandas(pdf, npartitions=3).to_backend("ember")
            assert_same(e.groupby("a").i.sum().compute(), pdf.groupby("a").i.sum())
        finally:
            proc.terminate()
            proc.wait(timeout=60)

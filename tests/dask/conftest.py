"""Shared fixtures: one small real cluster of worker processes on loopback for the module, and the
same data as pandas-backed and ember-backed Dask collections."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import dask

pytest.importorskip("distributed")


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    from ember.dask import LocalGPUCluster

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        c = LocalGPUCluster(
            n_workers=2,
            threads_per_worker=1,
            dashboard_address=None,
            local_directory=str(tmp_path_factory.mktemp("ember-dask")),
        )
    yield c
    c.close()


@pytest.fixture
def client(cluster):
    from distributed import Client

    with Client(cluster) as c:
        yield c


@pytest.fixture(autouse=True)
def _no_string_conversion():
    """pandas-backed Dask turns object strings into pyarrow strings; compare like with like."""
    with dask.config.set({"dataframe.convert-string": False}):
        yield


def make_frame(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "a": rng.integers(0, 6, n),
            "b": rng.random(n),
            "s": rng.choice(list("abcdefg"), n),
            "i": rng.integers(-50, 50, n).astype("int32"),
            "n": pd.array(rng.integers(0, 9, n), dtype="Int64"),
            "t": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 1000, n), unit="s"),
        }
    )
    df.loc[::7, "b"] = np.nan
    df.loc[::11, "n"] = pd.NA
    df.loc[::13, "s"] = None
    return df


def assert_same(got, exp, ignore_index: bool = False) -> None:
    """Compare an ember-backed result with pandas-backed Dask's, ignoring row order (Dask's row
    order across partitions is not part of the contract)."""
    got = got.to_pandas() if hasattr(got, "to_pandas") else got
    if ignore_index:  # hash-partitioned merges number their rows per partition
        exp, got = exp.reset_index(drop=True), got.reset_index(drop=True)
    if isinstance(exp, pd.DataFrame):
        if not ignore_index:
            exp, got = exp.reset_index(), got.reset_index()
        keys = list(exp.columns)
        exp = exp.sort_values(keys, kind="stable").reset_index(drop=True)
        got = got[keys].sort_values(keys, kind="stable").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, exp, check_dtype=False, check_index_type=False)
    elif isinstance(exp, pd.Series):
        exp = exp.reset_index().sort_values(list(exp.reset_index().columns), kind="stable")
        got = got.reset_index().sort_values(list(got.reset_index().columns), kind="stable")
        pd.testing.assert_frame_equal(
            got.reset_index(drop=True), exp.reset_index(drop=True), check_dtype=False
        )
    else:
        assert got == exp

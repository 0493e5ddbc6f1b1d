"""The parallel row-group reader of local Parquet files on the GPU against pandas.read_parquet."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ember as em

pytestmark = pytest.mark.gpu


def _frame(n: int, seed: int = 0) -> pd.DataFrame:
    r = np.random.default_rng(seed)
    ints = pd.array(r.integers(-5, 5, n), dtype="Int64")
    ints[r.random(n) < 0.1] = pd.NA
    return pd.DataFrame(
        {
            "i64": r.integers(-(2**40), 2**40, n),
            "i8": r.integers(-100, 100, n).astype(np.int8),
            "u32": r.integers(0, 2**31, n).astype(np.uint32),
            "f64": r.normal(size=n),
            "f32": r.normal(size=n).astype(np.float32),
            "flag": r.random(n) > 0.5,
            "ts": pd.date_range("2020-01-01", periods=n, freq="37s", tz="Europe/Berlin"),
            "dur": pd.to_timedelta(r.integers(0, 10**9, n), unit="us"),
            # row groups see the categories in different orders: the dictionaries must be unified
            "cat": pd.Categorical(r.choice(["x", "y", "z", "w"], n), categories=["w", "x", "y", "z"]),
            "text": r.choice(["a", "bb", "ccc"], n),
            "nullable": ints,
            "with_nan": np.where(r.random(n) < 0.2, np.nan, r.normal(size=n)),
        }
    )


@pytest.mark.parametrize("row_group_size", [7, 1000, 100_000])
def test_matches_pandas(tmp_path, row_group_size):
    df = _frame(5_003)
    path = tmp_path / "f.parquet"
    df.to_parquet(path, row_group_size=row_group_size)
    got = em.read_parquet(path)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_parquet(path))


def test_columns_index_and_several_files(tmp_path):
    a, b = _frame(300, 1).set_index("i64"), _frame(200, 2).set_index("i64")
    a.to_parquet(tmp_path / "a.parquet", row_group_size=64)
    b.to_parquet(tmp_path / "b.parquet", row_group_size=50)
    files = [tmp_path / "a.parquet", tmp_path / "b.parquet"]
    got = em.read_parquet(files, columns=["cat", "f64", "text"])
    exp = pd.read_parquet(files, columns=["cat", "f64", "text"])
    pd.testing.assert_frame_equal(got.to_pandas(), exp)


def test_categories_unified_in_arrow_order(tmp_path):
    path = tmp_path / "c.parquet"
    first = pa.table({"c": pa.array(["b", "a"]).dictionary_encode()})
    second = pa.table({"c": pa.array(["c", "a", "b"]).dictionary_encode()})
    with pq.ParquetWriter(path, first.schema) as w:
        w.write_table(first)
        w.write_table(second)
    got = em.read_parquet(path).to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_parquet(path))


def test_corrupt_file_names_it(tmp_path):
    path = tmp_path / "bad.parquet"
    _frame(100).to_parquet(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + b"\0" * 100 + data[-8:])
    with pytest.raises(Exception, match="bad.parquet"):
        em.read_parquet(path)

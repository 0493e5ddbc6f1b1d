"""The NumPy page decoder (the reference of the device decoder to come) against pyarrow's reader."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ember.io.parquet_pages import decode_hybrid, read_column_chunk

N = 3_001


def _required(table: pa.Table) -> pa.Table:
    return table.cast(pa.schema([f.with_nullable(False) for f in table.schema]))


def _chunk(path: str, row_group: int, j: int) -> tuple[bytes, object]:
    """A column chunk's raw bytes and its footer entry."""
    col = pq.ParquetFile(path).metadata.row_group(row_group).column(j)
    start = col.dictionary_page_offset if col.has_dictionary_page else col.data_page_offset
    with open(path, "rb") as f:
        f.seek(start)
        return f.read(col.total_compressed_size), col


def _table(nulls: bool) -> pa.Table:
    r = np.random.default_rng(5)

    def mask():
        return (r.random(N) < 0.2) if nulls else None

    words = np.array(["", "a", "bb", "ccc", "zzzz", "ünï"])
    return pa.table(
        {
            "i32": pa.array(r.integers(-1000, 1000, N).astype(np.int32), mask=mask()),
            "i64": pa.array(r.integers(-(2**60), 2**60, N), mask=mask()),
            "small": pa.array(r.integers(0, 7, N), mask=mask()),  # dictionary-friendly
            "f32": pa.array(r.normal(size=N).astype(np.float32), mask=mask()),
            "f64": pa.array(r.normal(size=N), mask=mask()),
            "flag": pa.array(r.random(N) > 0.5, mask=mask()),
            "text": pa.array(r.choice(words, N).tolist(), mask=mask()),
        }
    )


@pytest.mark.parametrize("codec", ["none", "snappy", "gzip", "zstd", "lz4", "brotli"])
@pytest.mark.parametrize("dictionary", [True, False])
@pytest.mark.parametrize("version", ["1.0", "2.0"])
@pytest.mark.parametrize("nulls", [False, True])
def test_chunks_match_pyarrow(tmp_path, codec, dictionary, version, nulls):
    table = _table(nulls)
    if not nulls:  # required columns: no definition levels at all
        table = _required(table)
    path = str(tmp_path / "p.parquet")
    pq.write_table(
        table,
        path,
        compression=codec,
        use_dictionary=dictionary,
        data_page_version=version,
        data_page_size=2048,  # several pages per chunk
        row_group_size=1_200,
    )
    meta = pq.ParquetFile(path).metadata
    for rg in range(meta.num_row_groups):
        expected = pq.ParquetFile(path).read_row_group(rg)
        for j, name in enumerate(table.column_names):
            values, validity = read_column_chunk(path, rg, j)
            want = expected.column(name).combine_chunks()
            got_valid = np.ones(len(want), dtype=bool) if validity is None else validity
            np.testing.assert_array_equal(got_valid, want.is_valid().to_numpy(zero_copy_only=False))
            present = want.drop_null()
            if isinstance(values, pa.Array):
                assert values.to_pylist() == present.cast(pa.large_binary()).to_pylist()
            else:
                np.testing.assert_array_equal(values, present.to_numpy(zero_copy_only=False))


def test_hybrid_runs_and_packed_groups():
    # an RLE run of 5 x value 3 (width 2), then one bit-packed group of 8 values 0..7 (width 3)
    rle = bytes([5 << 1, 3])
    packed_values = np.arange(8)
    bits = np.array([(v >> b) & 1 for v in packed_values for b in range(3)], dtype=np.uint8)
    packed = bytes([(1 << 1) | 1]) + np.packbits(bits, bitorder="little").tobytes()
    assert decode_hybrid(rle, 2, 5).tolist() == [3] * 5
    assert decode_hybrid(packed, 3, 8).tolist() == list(range(8))
    assert decode_hybrid(packed, 3, 6).tolist() == list(range(6))  # the last group is padded


def test_truncated_chunk_is_a_clear_error(tmp_path):
    path = str(tmp_path / "t.parquet")
    pq.write_table(_table(False), path, compression="snappy")
    chunk, meta = _chunk(path, 0, 0)
    from ember.io.parquet_pages import decode_chunk

    with pytest.raises(ValueError, match="Parquet"):
        decode_chunk(chunk[: len(chunk) // 2], meta.compression, meta.physical_type, 0)


@pytest.mark.parametrize("codec", ["none", "snappy", "zstd"])
@pytest.mark.parametrize("dictionary", [True, False])
@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_planned_decode_matches_pyarrow(tmp_path, codec, dictionary, version, xp):
    """A chunk planned for the device (its pages end to end + a page table), decoded by the page kernel
    on the GPU backend (its NumPy twin on the CPU), gives pyarrow's values: long RLE runs, bit-packed
    runs, and PLAIN pages where a dictionary outgrows its page."""
    from ember.backend import to_host
    from ember.io.parquet_pages import decode_plan, plan_chunk

    r = np.random.default_rng(9)
    n = 50_000
    table = pa.table(
        {
            "i64": r.integers(0, 1000, n),
            "runs": np.repeat(r.integers(0, 5, n // 100), 100),  # long RLE runs
            "wide": r.integers(-(2**62), 2**62, n),  # dictionary too big: PLAIN fallback pages
            "f32": r.integers(0, 9, n).astype(np.float32),
            "i32": r.integers(0, 3, n).astype(np.int32),
            "text": pa.array(r.choice(["x", "yy", "zzz"], n).tolist()),
        }
    )
    table = _required(table)
    path = str(tmp_path / "p.parquet")
    pq.write_table(
        table,
        path,
        compression=codec,
        use_dictionary=dictionary,
        data_page_version=version,
        data_page_size=8192,
        dictionary_pagesize_limit=65_536,
    )
    expected = pq.read_table(path)
    for j, name in enumerate(table.column_names):
        chunk, col = _chunk(path, 0, j)
        if name == "text" and not dictionary:  # PLAIN strings are not planned: a clear refusal
            with pytest.raises(NotImplementedError, match="BYTE_ARRAY"):
                plan_chunk(chunk, col.compression, col.physical_type)
            continue
        values, dictionary_values = decode_plan(plan_chunk(chunk, col.compression, col.physical_type), xp)
        want = expected.column(name).combine_chunks()
        if dictionary_values is not None:
            got = dictionary_values.take(pa.array(to_host(values)))
            assert got.to_pylist() == want.cast(pa.large_binary()).to_pylist()
        else:
            np.testing.assert_array_equal(to_host(values), want.to_numpy())


def test_corrupt_rle_page_is_a_clear_error(xp):
    from ember.backend.kernels.parquet import ParquetPageError, rle_indices

    # a width above 32; a run past the data; a run of value 9 in a dictionary of 5 (width 4)
    pages = [bytes([40, 3, 1]), bytes([3, 0x07, 1, 2]), bytes([4, 8 << 1, 9])]
    for page in pages:
        data = xp.asarray(np.frombuffer(page, np.uint8))
        one = xp.asarray(np.array([0], dtype=np.int64))
        with pytest.raises(ParquetPageError, match="corrupt|width"):
            rle_indices(data, one, xp.asarray(np.array([8], dtype=np.int64)), one * 0, 8, 5)

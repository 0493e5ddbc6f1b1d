"""The host page decoder against pyarrow's reader, and the page kernels against their host references."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ember as em
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


def _written(tmp_path, codec: str, dictionary: bool, version: str) -> tuple[str, pa.Table]:
    r = np.random.default_rng(9)
    n = 50_000
    table = pa.table(
        {
            "i64": r.integers(0, 1000, n),
            "runs": np.repeat(r.integers(0, 5, n // 100), 100),  # long RLE runs
            "wide": r.integers(-(2**62), 2**62, n),  # dictionary too big: PLAIN fallback pages
            "f32": r.integers(0, 9, n).astype(np.float32),
            "i32": r.integers(0, 3, n).astype(np.int32),
            "f64": np.repeat(r.normal(size=n // 50), 50),  # compressible: snappy copies
            "text": pa.array(r.choice(["x", "yy", "zzz"], n).tolist()),
        }
    )
    path = str(tmp_path / "p.parquet")
    pq.write_table(
        table,
        path,
        compression=codec,
        use_dictionary=dictionary,
        data_page_version=version,
        data_page_size=8192,
        dictionary_pagesize_limit=65_536,
        row_group_size=20_000,
    )
    return path, table


def _chunk_spans(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, list]:
    """(file bytes, data page start, chunk end, chunk start) of every column chunk of a file."""
    meta = pq.ParquetFile(path).metadata
    at, end, starts = [], [], []
    for i in range(meta.num_row_groups):
        for j in range(meta.num_columns):
            col = meta.row_group(i).column(j)
            start = col.dictionary_page_offset if col.has_dictionary_page else col.data_page_offset
            at.append(col.data_page_offset)
            end.append(start + col.total_compressed_size)
            starts.append(start)
    raw = np.fromfile(path, dtype=np.uint8)
    return raw, np.array(at), np.array(end), starts


@pytest.mark.parametrize("codec", ["none", "snappy"])
@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_page_walk_and_decompression_match_the_host_reference(tmp_path, codec, version, xp):
    """Every column chunk's page headers walked and its pages decompressed in one launch each (the
    kernels on the GPU backend, their references on the CPU) give the host page reader's pages
    (``read_pages``: its own header walk, pyarrow's decompression): values per page and bytes; on
    the GPU backend also exactly the references' table and buffers."""
    from ember.backend import asarray_on, to_host
    from ember.backend.kernels import parquet as kernels
    from ember.io.parquet_pages import DICTIONARY_PAGE, read_pages

    path, _ = _written(tmp_path, codec, True, version)
    raw, at, end, starts = _chunk_spans(path)
    table, chunk_of = kernels.walk_pages(asarray_on(raw, xp), at, end)
    f = dict(zip(kernels.PAGE_FIELDS, table))
    codec_of = np.full(table.shape[1], kernels.CODEC_SNAPPY if codec == "snappy" else kernels.CODEC_NONE)
    codec_of[(f["kind"] == 3) & (f["compressed"] == 0)] = kernels.CODEC_NONE
    levels = np.where(f["kind"] == 3, 2, 0)
    out_at = np.concatenate([[0], np.cumsum(f["out_size"])[:-1]])
    got = kernels.decompress_pages(asarray_on(raw, xp), table, codec_of, levels, out_at)
    data = to_host(got[0])
    name = "SNAPPY" if codec == "snappy" else "UNCOMPRESSED"
    for c, (start, stop) in enumerate(zip(starts, end)):
        pages = [p for p in read_pages(raw[start:stop].tobytes(), name) if p.kind != DICTIONARY_PAGE]
        mine = np.flatnonzero(chunk_of == c)
        assert [p.num_values for p in pages] == f["num_values"][mine].tolist()
        for page, p in zip(pages, mine):
            assert data[out_at[p] : out_at[p] + f["out_size"][p]].tobytes() == page.data
    if xp is not np:  # the kernels against their references, array by array
        want, want_chunk = kernels.walk_pages(raw, at, end)
        np.testing.assert_array_equal(table, want)
        np.testing.assert_array_equal(chunk_of, want_chunk)
        ref = kernels.decompress_pages(raw, table, codec_of, levels, out_at)
        total = int(out_at[-1] + f["out_size"][-1])
        np.testing.assert_array_equal(data[:total], ref[0][:total])
        for g, r in zip(got[1:], ref[1:]):
            np.testing.assert_array_equal(to_host(g), r)


@pytest.mark.parametrize("size", [0, 1, 59, 60, 300, 70_000, 300_000])
@pytest.mark.parametrize("pattern", ["random", "runs", "period3"])
def test_snappy_pages_match_pyarrow(size, pattern, xp):
    """Snappy literals of every length form (1 to 4 extra bytes), copies with 1-, 2- and 4-byte
    offsets, and copies that overlap their own output (a period shorter than the copy)."""
    from ember.backend import asarray_on, to_host
    from ember.backend.kernels import parquet as kernels

    r = np.random.default_rng(size)
    pages = []
    for k in range(3):
        if pattern == "random":
            page = r.integers(0, 256, size + k, dtype=np.uint8).tobytes()
        elif pattern == "runs":
            page = np.repeat(r.integers(0, 4, size // 97 + 1 + k, dtype=np.uint8), 97)[: size + k].tobytes()
        else:
            page = (b"abc" * (size // 3 + 2))[: size + k]
        pages.append((page, pa.compress(page, codec="snappy", asbytes=True)))
    buf = np.frombuffer(b"".join(c for _, c in pages), np.uint8)
    sizes = [len(c) for _, c in pages]
    out_size = np.array([len(p) for p, _ in pages])
    table = np.zeros((len(kernels.PAGE_FIELDS), len(pages)), dtype=np.int64)
    f = dict(zip(kernels.PAGE_FIELDS, table))
    f["in_at"][:] = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    f["in_size"][:] = sizes
    f["out_size"][:] = out_size
    out_at = np.concatenate([[0], np.cumsum(out_size)[:-1]]) + 5  # not aligned
    codec = np.full(len(pages), kernels.CODEC_SNAPPY)
    out, values_at, values_end = kernels.decompress_pages(
        asarray_on(buf, xp), table, codec, codec * 0, out_at
    )
    out = to_host(out)
    for (page, _), at in zip(pages, out_at):
        assert out[at : at + len(page)].tobytes() == page
    np.testing.assert_array_equal(to_host(values_at), out_at)
    np.testing.assert_array_equal(to_host(values_end), out_at + out_size)


def test_corrupt_snappy_and_headers_are_clear_errors(xp):
    from ember.backend import asarray_on
    from ember.backend.kernels import parquet as kernels
    from ember.backend.kernels.parquet import ParquetPageError

    page = np.frombuffer(pa.compress(b"abcd" * 500, codec="snappy", asbytes=True), np.uint8)
    table = np.zeros((len(kernels.PAGE_FIELDS), 1), dtype=np.int64)
    f = dict(zip(kernels.PAGE_FIELDS, table))
    f["in_size"][:] = len(page)
    f["out_size"][:] = 2000
    codec = np.array([kernels.CODEC_SNAPPY])
    for bad in (
        page[: len(page) // 2],
        np.concatenate([page[:1], [0xFF] * (len(page) - 1)]).astype(np.uint8),
    ):
        f["in_size"][:] = len(bad)
        with pytest.raises(ParquetPageError, match="compressed"):
            kernels.decompress_pages(asarray_on(bad, xp), table, codec, codec * 0, np.array([0]))
    f["in_size"][:] = len(page)
    f["out_size"][:] = 1999  # the header's size disagrees with the data
    with pytest.raises(ParquetPageError, match="compressed"):
        kernels.decompress_pages(asarray_on(page, xp), table, codec, codec * 0, np.array([0]))
    junk = np.full(64, 0xFF, np.uint8)
    with pytest.raises(ParquetPageError, match="header"):
        kernels.walk_pages(asarray_on(junk, xp), np.array([0]), np.array([64]))


@pytest.mark.parametrize("codec", ["none", "snappy"])
@pytest.mark.parametrize("dictionary", [True, False])
@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_device_decode_matches_pyarrow(tmp_path, codec, dictionary, version, xp):
    """Whole files through the page kernels (``read_parquet(engine="ember")``), against pyarrow:
    long RLE runs, bit-packed runs, PLAIN pages where a dictionary outgrows its page, both page
    versions, PLAIN strings."""
    import ember as em

    path, table = _written(tmp_path, codec, dictionary, version)
    got = em.read_parquet(path, engine="ember").to_pandas()
    want = pq.read_table(path).to_pandas()
    import pandas as pd

    pd.testing.assert_frame_equal(got, want)


def test_corrupt_rle_page_is_a_clear_error(xp):
    from ember.backend.kernels.parquet import ParquetPageError, rle_indices

    # a width above 32; a run past the data; a run of value 9 in a dictionary of 5 (width 4)
    pages = [bytes([40, 3, 1]), bytes([3, 0x07, 1, 2]), bytes([4, 8 << 1, 9])]
    for page in pages:
        data = xp.asarray(np.frombuffer(page, np.uint8))
        zero = xp.asarray(np.array([0], dtype=np.int64))
        end = xp.asarray(np.array([len(page)], dtype=np.int64))
        eight, five = (xp.asarray(np.array([v], dtype=np.int64)) for v in (8, 5))
        with pytest.raises(ParquetPageError, match="corrupt|width"):
            rle_indices(data, zero, end, eight, zero, zero, five, 8)


@pytest.mark.parametrize("codec", ["ZSTD", "GZIP", "BROTLI", "LZ4_RAW", "LZ4", "SNAPPY", "UNCOMPRESSED"])
@pytest.mark.parametrize("gap", [0, 3])
def test_decompress_into_fills_each_page_and_checks_sizes(codec, gap):
    """Pages decompressed into their places, next to one another (zstd and gzip pages, whose headers
    say their sizes, then in one read) or apart (a v2 page's levels between): a page size its bytes do
    not decompress to is a ValueError, not a page filled with the next page's bytes or padding."""
    from ember.io.parquet_pages import _CODECS, decompress_into

    rng = np.random.default_rng(3)
    pages = [rng.integers(0, 9, n, dtype=np.uint8) for n in (5_000, 0, 70_000, 1)]
    name = _CODECS.get(codec, "lz4_raw" if codec == "LZ4" else None)  # LZ4: a raw block, as written
    bodies = [memoryview(pa.compress(p, codec=name, asbytes=True) if name else p.tobytes()) for p in pages]

    def read(sizes):
        starts = np.concatenate([[0], np.cumsum(np.add(sizes, gap))[:-1]]).tolist()
        out = np.zeros(sum(sizes) + gap * len(sizes), np.uint8)
        decompress_into(codec, bodies, out, list(zip(starts, sizes)))
        return [out[a : a + n] for a, n in zip(starts, sizes)]

    for want, got in zip(pages, read([p.size for p in pages])):
        np.testing.assert_array_equal(got, want)
    if codec == "UNCOMPRESSED":
        return
    for wrong in (-1, 1):  # the third page's size off by one byte either way
        with pytest.raises((ValueError, OSError, pa.ArrowException)):
            read([p.size + (wrong if i == 2 else 0) for i, p in enumerate(pages)])


@pytest.mark.parametrize("codec", ["ZSTD", "GZIP"])
def test_pages_written_by_pyarrow_vouch_their_sizes(tmp_path, monkeypatch, codec):
    """The zstd and gzip pages pyarrow writes record their decompressed sizes (a zstd frame's content
    size, a gzip member's ISIZE), so the engine reads a run of them in one call; a wrong size is not
    vouched."""
    from ember.backend import nvcomp
    from ember.io import parquet_pages

    monkeypatch.setattr(nvcomp, "device_codecs", frozenset)  # the host's decompressor, even with nvCOMP
    said = parquet_pages._SIZE_SAID[codec]
    body = pa.compress(np.arange(3_000, dtype=np.int64), codec=codec.lower(), asbytes=True)
    assert said(body, 24_000) and not said(body, 24_001) and not said(body[:5], 24_000)
    seen = []
    monkeypatch.setitem(parquet_pages._SIZE_SAID, codec, lambda b, n: seen.append(said(b, n)) or seen[-1])
    df = pd.DataFrame({"a": np.arange(50_000), "b": np.random.default_rng(0).random(50_000)})
    df.to_parquet(tmp_path / "f.parquet", compression=codec.lower(), data_page_size=20_000)
    got = em.read_parquet(tmp_path / "f.parquet", engine="ember").to_pandas()
    pd.testing.assert_frame_equal(got, df)
    assert len(seen) > 4 and all(seen)


def test_a_page_header_field_of_the_wrong_thrift_type_is_a_clean_error():
    """The host page walk (the kernels' reference) refuses a header whose field holds a struct where
    an integer belongs, as a ParquetPageError (was a TypeError out of NumPy)."""
    from ember.backend.kernels.parquet import ParquetPageError, walk_pages

    # compact protocol: field 1 (page type) an empty struct instead of an i32; fields 2 and 3 (sizes)
    # i32 4; the header's end; then the page's 4 bytes
    page = bytes([0x1C, 0x00, 0x15, 0x08, 0x15, 0x08, 0x00]) + b"\x00" * 4
    with pytest.raises(ParquetPageError, match="corrupt page header"):
        walk_pages(np.frombuffer(page, np.uint8), np.array([0]), np.array([len(page)]))


def test_zstd_frame_headers_checked_at_once_agree_with_one_by_one():
    """``zstd_frames_say`` (the filter in front of nvCOMP) on intact, mutated, truncated and random
    page starts, and on right and wrong sizes: the same verdicts as the per-page ``_zstd_says``."""
    from ember.io.parquet_pages import _zstd_says, zstd_frames_say

    rng = np.random.default_rng(0)
    bodies, sizes = [], []
    for i in range(400):
        n = int(rng.integers(0, 70_000))
        body = pa.compress(rng.integers(0, 3, n, dtype=np.uint8).tobytes(), codec="zstd", asbytes=True)
        if i % 4 == 1:
            mutated = bytearray(body)
            mutated[int(rng.integers(0, min(len(body), 12)))] ^= int(rng.integers(1, 256))
            body = bytes(mutated)
        elif i % 4 == 2:
            body = rng.bytes(int(rng.integers(0, 30)))
        elif i % 4 == 3:
            body = body[: int(rng.integers(0, 12))]
        bodies.append(body)
        sizes.append(n + (i % 7 == 0))
    heads = np.zeros((len(bodies), 18), dtype=np.uint8)
    for i, body in enumerate(bodies):
        heads[i, : min(len(body), 18)] = np.frombuffer(body[:18], np.uint8)
    got = zstd_frames_say(heads, np.array([len(b) for b in bodies]), np.array(sizes))
    expected = np.array([_zstd_says(b, s) for b, s in zip(bodies, sizes)])
    np.testing.assert_array_equal(got, expected)
    assert 50 < expected.sum() < 350


@pytest.mark.parametrize("widths", ["mixed", "one", "empty"])
def test_plain_byte_arrays_of_any_widths(widths):
    """PLAIN byte arrays (a 4-byte length, then the bytes): values of mixed widths (walked), of one
    width (read as records), all empty; after a few bytes of something else; a page cut short is a
    clear error."""
    import struct

    from ember.backend.kernels.parquet import ParquetPageError
    from ember.io.parquet_pages import plain_values

    r = np.random.default_rng(len(widths))
    sizes = {"mixed": r.integers(0, 30, 500), "one": np.full(500, 7), "empty": np.zeros(500, int)}[widths]
    values = [bytes(r.integers(32, 127, k).astype(np.uint8)) for k in sizes]
    body = b"head" + b"".join(struct.pack("<I", len(v)) + v for v in values)
    got = plain_values(body, "BYTE_ARRAY", len(values), 4)
    assert got.to_pylist() == values
    if widths == "mixed":
        with pytest.raises(ParquetPageError, match="run past the page"):
            plain_values(body[:-3], "BYTE_ARRAY", len(values), 4)

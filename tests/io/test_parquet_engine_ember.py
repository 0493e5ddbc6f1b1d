"""read_parquet(engine="ember"): ember's own page decoder against pandas.read_parquet (both backends)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ember as em
from ember.io.parquet import ParquetError


def _frame(n: int, seed: int = 0) -> pd.DataFrame:
    r = np.random.default_rng(seed)
    nullable = pd.array(r.integers(0, 9, n), dtype="Int64")
    nullable[r.random(n) < 0.1] = pd.NA
    return pd.DataFrame(
        {
            "id1": pd.Categorical(r.choice([f"id{i:03d}" for i in range(1, 101)], n)),
            "id4": r.integers(1, 101, n),
            "i32": r.integers(-5, 5, n).astype(np.int32),
            "v3": np.round(r.random(n) * 100, 6),
            "f32": r.normal(size=n).astype(np.float32),
            "text": r.choice(["a", "bb", "ccc"], n),  # plain strings: pyarrow reads them
            "nullable": nullable,  # nulls: pyarrow reads it
            "ts": pd.date_range("2021-01-01", periods=n, freq="min"),  # timestamps: pyarrow
            "wide": r.integers(-(2**62), 2**62, n),  # its dictionary overflows: PLAIN pages
        }
    )


@pytest.mark.parametrize("codec", ["snappy", "zstd", "gzip", None])
@pytest.mark.parametrize("row_group_size", [1_000, 100_000])
def test_matches_pandas(tmp_path, codec, row_group_size):
    df = _frame(20_000)
    path = tmp_path / "f.parquet"
    df.to_parquet(path, compression=codec, row_group_size=row_group_size)
    got = em.read_parquet(path, engine="ember").to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_parquet(path))


def test_columns_index_and_files_with_their_own_categories(tmp_path):
    parts = [_frame(3_000, seed).set_index("id4") for seed in (1, 2)]
    parts[1]["id1"] = pd.Categorical(
        parts[1]["id1"].astype(str),
        categories=["id050", "id007"]
        + [c for c in parts[1]["id1"].cat.categories if c not in ("id050", "id007")],
    )
    files = []
    for i, part in enumerate(parts):
        files.append(tmp_path / f"p{i}.parquet")
        part.to_parquet(files[-1], row_group_size=700)
    cols = ["id1", "v3", "nullable"]
    got = em.read_parquet(files, columns=cols, engine="ember").to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_parquet(files, columns=cols))


def test_unsupported_sources_say_so(tmp_path):
    path = tmp_path / "f.parquet"
    _frame(100).to_parquet(path)
    with pytest.raises(NotImplementedError, match="engine='ember'"):
        em.read_parquet(path, engine="ember", filters=[("id4", ">", 3)])
    with open(path, "rb") as f, pytest.raises(NotImplementedError, match="engine='ember'"):
        em.read_parquet(f, engine="ember")


@pytest.mark.parametrize("where", [0.1, 0.3, 0.5, 0.7, 0.85])
def test_corrupt_bytes_fail_cleanly_or_read_as_pyarrow_reads(tmp_path, where):
    """Parquet has no checksums: bytes changed in a page's values read as other values (pyarrow reads
    the same), bytes changed in a header or in encoded runs give an error naming the file. Never a
    crash, never an answer pyarrow does not give."""
    path = tmp_path / "bad.parquet"
    _frame(5_000).drop(columns=["ts"]).to_parquet(path, compression=None, row_group_size=1_000)
    data = bytearray(path.read_bytes())
    at = int(len(data) * where)
    data[at : at + 24] = b"\xff" * 24
    path.write_bytes(bytes(data))
    try:
        expected = pd.read_parquet(path)
    except Exception:
        with pytest.raises((ParquetError, NotImplementedError, OSError)):
            em.read_parquet(path, engine="ember")
        return
    try:
        got = em.read_parquet(path, engine="ember").to_pandas()
    except ParquetError as exc:  # ember's decoder checks what pyarrow let through (run bounds, counts)
        assert "bad.parquet" in str(exc)
        return
    pd.testing.assert_frame_equal(got, expected)


@pytest.mark.parametrize("codec", [None, "snappy", "zstd", "gzip", "brotli"])
def test_random_mutations_fail_cleanly(tmp_path, codec):
    """Random bytes written over a valid file: an error naming the file, or pyarrow's own answer."""
    path = tmp_path / "m.parquet"
    _frame(2_000).drop(columns=["ts"]).to_parquet(path, compression=codec, row_group_size=500)
    original = path.read_bytes()
    r = np.random.default_rng(11)
    for _ in range(40):
        data = bytearray(original)
        at, size = int(r.integers(4, len(data) - 8)), int(r.integers(1, 16))
        data[at : at + size] = r.integers(0, 256, size, dtype=np.uint8).tobytes()
        path.write_bytes(bytes(data))
        try:
            expected = pd.read_parquet(path)
        except Exception:
            expected = None
        try:
            got = em.read_parquet(path, engine="ember").to_pandas()
        except (ParquetError, NotImplementedError, OSError):
            continue
        assert expected is not None, f"ember read bytes pyarrow refuses (mutation at {at})"
        pd.testing.assert_frame_equal(got, expected)


def test_types_left_to_pyarrow_read_as_the_default_engine(tmp_path):
    """Columns the page decoder does not cover (small and unsigned ints, bools, dates, categoricals of
    numbers, timezone-aware times) go through pyarrow: the default engine's frame."""
    import datetime

    r = np.random.default_rng(3)
    n = 500
    df = pd.DataFrame(
        {
            "i8": r.integers(-100, 100, n).astype(np.int8),
            "u32": r.integers(0, 2**31, n).astype(np.uint32),
            "flag": r.random(n) > 0.5,
            "day": [datetime.date(2020, 1, 1 + i % 28) for i in range(n)],
            "cat_num": pd.Categorical(r.integers(0, 5, n)),
            "tz": pd.date_range("2022-03-01", periods=n, freq="h", tz="Asia/Tokyo"),
            "f64": r.normal(size=n),
        }
    )
    path = tmp_path / "types.parquet"
    df.to_parquet(path)
    dates = {"to_pandas_kwargs": {"date_as_object": False}}  # pandas' datetime64[ms] dates
    got = em.read_parquet(path, engine="ember", **dates).to_pandas()
    pd.testing.assert_frame_equal(got, em.read_parquet(path, **dates).to_pandas())
    pd.testing.assert_frame_equal(got, pd.read_parquet(path, **dates))


@pytest.mark.parametrize("version", ["1.0", "2.6"])
@pytest.mark.parametrize("coerce", [None, "ms", "us"])
def test_timestamps_and_durations_match_pyarrow(tmp_path, version, coerce):
    """Timestamps (naive, tz-aware, each unit) and durations: int64 ticks the kernels decode when the
    file stores them in the Arrow type's unit; a file that coerced them to another unit is read by
    pyarrow's decode, which converts. Either way, pyarrow's frame."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = 3_000
    start = np.datetime64("2021-01-01T00:00:00", "ns")
    ticks = start + np.arange(n) * np.timedelta64(1_000_001_000, "ns")
    table = pa.table(
        {
            "ns": pa.array(ticks, pa.timestamp("ns")),
            "us_tz": pa.array(ticks.astype("datetime64[us]"), pa.timestamp("us", tz="Europe/Paris")),
            "ms": pa.array(ticks.astype("datetime64[ms]"), pa.timestamp("ms")),
            "td": pa.array(np.arange(n) * np.timedelta64(7, "s"), pa.duration("s")),
            "i": np.arange(n),
        }
    )
    path = tmp_path / "t.parquet"
    pq.write_table(
        table,
        path,
        version=version,
        coerce_timestamps=coerce,
        row_group_size=1_000,
        allow_truncated_timestamps=True,
    )
    got = em.read_parquet(path, engine="ember").to_pandas()
    pd.testing.assert_frame_equal(got, pq.read_table(path).to_pandas())


@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
@pytest.mark.parametrize("codec", ["snappy", None, "zstd"])
def test_columns_with_nulls_match_pandas(tmp_path, page_version, codec):
    """Nulls through the page kernels: definition levels decoded, the present values decoded compactly
    and spread to their rows: NaN floats (pandas' reading of a null float), nullable Int64, NaT,
    missing categories, a column of nulls only, PLAIN pages with nulls, small pages."""
    r = np.random.default_rng(11)
    n = 6_000
    floats = r.random(n)
    floats[r.random(n) < 0.2] = np.nan
    wide = r.random(n) * 1e6  # dictionary overflow: PLAIN pages with nulls
    wide[r.random(n) < 0.3] = np.nan
    ints = pd.array(r.integers(0, 9, n), dtype="Int64")
    ints[r.random(n) < 0.1] = pd.NA
    stamps = pd.Series(pd.date_range("2021-01-01", periods=n, freq="min"))
    stamps[r.random(n) < 0.1] = pd.NaT
    labels = pd.Categorical(r.choice(["a", "bb", "ccc"], n))
    labels[r.random(n) < 0.1] = np.nan
    df = pd.DataFrame(
        {
            "f": floats,
            "f32": floats.astype(np.float32),
            "wide": wide,
            "i": ints,
            "ts": stamps,
            "cat": labels,
            "none": np.full(n, np.nan),
            "first_rows_null": np.where(np.arange(n) < 2_500, np.nan, 1.0),
        }
    )
    path = tmp_path / "nulls.parquet"
    df.to_parquet(
        path, compression=codec, data_page_version=page_version, row_group_size=1_200, data_page_size=2_000
    )
    got = em.read_parquet(path, engine="ember").to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_parquet(path))


def test_plain_integers_with_nulls_read_as_nan_floats(tmp_path):
    """A file without pandas' metadata: int columns with nulls read as float64 NaN, as pandas reads."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"i": pa.array([1, None, 3, None], pa.int64()), "j": pa.array([1, 2, 3, 4], pa.int32())})
    path = tmp_path / "plain.parquet"
    pq.write_table(table, path)
    for engine in ("auto", "ember"):
        pd.testing.assert_frame_equal(em.read_parquet(path, engine=engine).to_pandas(), pd.read_parquet(path))


def test_a_footer_whose_chunk_type_disagrees_is_an_error_not_an_abort(tmp_path):
    """pyarrow aborts the process reading the statistics of a column chunk whose type disagrees with
    the schema's (an uncaught C++ exception): the reader checks the types first."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "f.parquet"
    table = pa.table({"a": np.arange(500), "b": np.arange(500, dtype=np.float32)})
    pq.write_table(table, path, row_group_size=200)  # no pandas metadata: a short footer
    good = path.read_bytes()
    footer = int.from_bytes(good[-8:-4], "little")
    r = np.random.default_rng(4)
    for _ in range(5_000):  # mutate footer bytes until a chunk's type disagrees with its schema
        buf = bytearray(good)
        buf[len(buf) - 8 - int(r.integers(1, footer))] = int(r.integers(0, 256))
        path.write_bytes(bytes(buf))
        try:
            meta = pq.ParquetFile(path).metadata
            cols = [
                (meta.row_group(i).column(j), meta.schema.column(j))
                for i in range(meta.num_row_groups)
                for j in range(meta.num_columns)
            ]
        except Exception:
            continue
        if any(c.physical_type != d.physical_type for c, d in cols):
            break
    else:
        pytest.skip("no mutation made a chunk's type disagree")
    with pytest.raises(ParquetError, match="disagree with its schema"):
        em.read_parquet(path, engine="ember")


def test_narrow_unsigned_ints_and_dates_match_the_default_engine(tmp_path):
    """int8 / int16 / uint8-64 held in int32 / int64 pages, date32 days, with and without nulls: the
    page kernels give the default engine's frame and pandas' (dates refused, as pandas gives
    datetime.date objects; datetime64[ms] with ``date_as_object=False``, as pandas)."""
    import datetime

    import pyarrow as pa
    import pyarrow.parquet as pq

    r = np.random.default_rng(2)
    n = 4_000
    holes = r.random(n) < 0.1
    days = [datetime.date(2020, 1, 1) + datetime.timedelta(days=int(d)) for d in r.integers(0, 900, n)]
    table = pa.table(
        {
            "i8": pa.array(r.integers(-128, 128, n).astype(np.int8)),
            "i16": pa.array(r.integers(-(2**15), 2**15, n).astype(np.int16)),
            "u8": pa.array(r.integers(0, 256, n).astype(np.uint8)),
            "u16": pa.array(r.integers(0, 2**16, n).astype(np.uint16)),
            "u32": pa.array(r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)),
            "u64": pa.array(r.integers(0, 2**63, n, dtype=np.uint64) * 2 + 1),
            "i16_nulls": pa.array(r.integers(-5, 5, n).astype(np.int16), mask=holes),
            "date": pa.array(days, pa.date32()),
            "date_nulls": pa.array(days, pa.date32(), mask=holes),
        }
    )
    path = tmp_path / "narrow.parquet"
    pq.write_table(table, path, row_group_size=1_500, data_page_size=1_024)
    for engine in ("ember", "pyarrow"):  # pandas: datetime.date objects, which ember refuses
        with pytest.raises(NotImplementedError, match="datetime.date objects"):
            em.read_parquet(path, engine=engine)
    dates = {"to_pandas_kwargs": {"date_as_object": False}}  # datetime64[ms], as pandas then gives
    got = em.read_parquet(path, engine="ember", **dates).to_pandas()
    pd.testing.assert_frame_equal(got, em.read_parquet(path, engine="pyarrow", **dates).to_pandas())
    pd.testing.assert_frame_equal(got, pd.read_parquet(path, **dates))


@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
@pytest.mark.parametrize("dictionary_limit", [1 << 20, 2_000])
def test_string_columns_match_pandas(tmp_path, page_version, dictionary_limit):
    """String (not categorical) columns from their dictionary pages: each row group's dictionary in
    its own first-seen order (codes remapped to the union, nulls kept), empty and non-ASCII strings;
    a dictionary that overflows its page leaves PLAIN pages: that column is read by pyarrow's decode."""
    r = np.random.default_rng(1)
    n = 5_000
    words = pd.Series(r.choice(["a", "bb", "ccc", "ünï", ""], n), dtype=object)
    with_nulls = words.copy()
    with_nulls[r.random(n) < 0.2] = None
    df = pd.DataFrame(
        {
            "words": words,
            "with_nulls": with_nulls,
            "keys": [f"key{i:08d}" for i in r.integers(0, 10**7, n)],
            "str": words.astype("str"),
            "cat": pd.Categorical(with_nulls),
        }
    )
    path = tmp_path / "strings.parquet"
    df.to_parquet(
        path, row_group_size=1_500, data_page_version=page_version, dictionary_pagesize_limit=dictionary_limit
    )
    pd.testing.assert_frame_equal(em.read_parquet(path, engine="ember").to_pandas(), pd.read_parquet(path))


@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
@pytest.mark.parametrize("codec", ["snappy", None, "gzip"])
def test_booleans_match_pandas(tmp_path, page_version, codec):
    """Booleans: PLAIN bits (v1) and the RLE hybrid of v2 pages, several small pages and row groups,
    runs and random bits, a nullable boolean column with missing values."""
    r = np.random.default_rng(5)
    n = 9_001
    flags = pd.array(r.random(n) < 0.5, dtype="boolean")
    flags[r.random(n) < 0.15] = pd.NA
    df = pd.DataFrame(
        {
            "bits": r.random(n) < 0.3,
            "runs": np.repeat(r.random(n // 50 + 1) < 0.5, 50)[:n],
            "all_true": np.ones(n, dtype=bool),
            "nullable": flags,
        }
    )
    path = tmp_path / "bools.parquet"
    df.to_parquet(
        path, compression=codec, data_page_version=page_version, row_group_size=4_000, data_page_size=300
    )
    pd.testing.assert_frame_equal(em.read_parquet(path, engine="ember").to_pandas(), pd.read_parquet(path))


def test_a_few_columns_read_only_their_chunks(tmp_path, monkeypatch):
    """Columns picked from a wide file: their chunks' bytes are read (neighbours within a megabyte
    share a read), not the file; the frame is pandas'."""
    from ember.backend import files

    r = np.random.default_rng(8)
    n = 200_000
    df = pd.DataFrame({f"c{i}": r.random(n) for i in range(12)})
    path = tmp_path / "wide.parquet"
    df.to_parquet(path, row_group_size=50_000)
    read = []
    real = files.read_into
    monkeypatch.setattr(
        files,
        "read_into",
        lambda p, offset, size, *a, **k: read.append(size) or real(p, offset, size, *a, **k),
    )
    got = em.read_parquet(path, columns=["c3", "c9"], engine="ember").to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_parquet(path, columns=["c3", "c9"]))
    assert sum(read) < path.stat().st_size / 4


@pytest.mark.parametrize("codec", ["zstd", "gzip", "brotli", "lz4"])
@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
def test_host_codecs_feed_the_page_kernels(tmp_path, monkeypatch, codec, page_version):
    """Pages of codecs without a device decompressor are decompressed on the host (runs of pages on a
    pool of threads, each run up in a pinned buffer: small here, so the ring of buffers wraps and some
    pages are longer than one) and go through the same kernels: every column decoded, pandas' frame."""
    from ember.backend import files
    from ember.io import parquet_decode

    decoded = []
    real = parquet_decode.column_values

    def spy(k, c, *args, **kwargs):
        out = real(k, c, *args, **kwargs)
        decoded.append(c.name)
        return out

    df = _frame(4_000).drop(columns=["nullable"])
    path = tmp_path / "codec.parquet"
    df.to_parquet(path, compression=codec, row_group_size=1_500, data_page_version=page_version)
    monkeypatch.setattr(parquet_decode, "column_values", spy)
    monkeypatch.setattr(files, "FILE_PIECE", 2048)
    monkeypatch.setattr(files, "FILE_BUFFERS", 3)
    got = em.read_parquet(path, engine="ember").to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_parquet(path))
    assert set(decoded) >= {"id1", "id4", "i32", "v3", "f32", "text", "ts", "wide"}


@pytest.mark.parametrize("codec", ["zstd", "gzip", "brotli", "snappy"])
def test_highly_compressible_pages(tmp_path, codec):
    """Constant PLAIN columns compress far beyond snappy's ~21x under zstd / gzip / brotli: a page's
    sizes are checked against its chunk's uncompressed total, not snappy's bound."""
    n = 200_000
    df = pd.DataFrame({"zeros": np.zeros(n), "ones": np.ones(n, dtype=np.int64)})
    path = tmp_path / "constant.parquet"
    df.to_parquet(path, compression=codec, use_dictionary=False)
    pd.testing.assert_frame_equal(em.read_parquet(path, engine="ember").to_pandas(), pd.read_parquet(path))


@pytest.mark.parametrize("engine", ["ember", "pyarrow", "auto"])
def test_an_empty_row_group_between_others(tmp_path, engine):
    """A writer's empty row group (pyarrow gives its chunks a data page offset before the dictionary
    page's) is skipped, not taken for a corrupt footer."""
    df = pd.DataFrame({"k": pd.Categorical(["a", "b", "a"]), "v": [1.5, 2.5, np.nan], "i": [1, 2, 3]})
    table = pa.Table.from_pandas(df, preserve_index=False)
    path = tmp_path / "empty_group.parquet"
    with pq.ParquetWriter(path, table.schema) as writer:
        writer.write_table(table.slice(0, 0))
        writer.write_table(table)
        writer.write_table(table.slice(0, 0))
    assert pq.ParquetFile(path).metadata.num_row_groups == 3
    pd.testing.assert_frame_equal(em.read_parquet(path, engine=engine).to_pandas(), pd.read_parquet(path))


@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
def test_a_file_without_statistics_keeps_int_and_bool_columns_without_nulls(tmp_path, page_version):
    """Without statistics the footer cannot vouch a column null-free: its definition levels are
    decoded, and an int or bool column that holds no null stays int / bool as pandas reads it (one
    with a null becomes what pandas makes of it)."""
    n = 3_000
    r = np.random.default_rng(4)
    df = pd.DataFrame(
        {
            "i32": r.integers(-5, 5, n).astype(np.int32),
            "i64": r.integers(0, 10**12, n),
            "u16": r.integers(0, 60_000, n).astype(np.uint16),
            "b": r.random(n) < 0.5,
            "f": r.random(n),
            "holes": pd.array(np.where(r.random(n) < 0.1, None, r.integers(0, 9, n)), dtype="Int64"),
        }
    )
    path = tmp_path / "nostats.parquet"
    df.to_parquet(path, write_statistics=False, row_group_size=1_000, data_page_version=page_version)
    for engine in ("ember", "auto"):
        pd.testing.assert_frame_equal(em.read_parquet(path, engine=engine).to_pandas(), pd.read_parquet(path))
    # no pandas metadata: an int column with a null reads as float64 with NaN, one without as int64
    table = pa.table({"some": pa.array([1, None, 3] * 500, pa.int64()), "none": pa.array([1, 2, 3] * 500)})
    pq.write_table(table, path, write_statistics=False, data_page_version=page_version)
    pd.testing.assert_frame_equal(em.read_parquet(path, engine="ember").to_pandas(), pd.read_parquet(path))


def test_a_categorical_dictionary_repeating_a_value_is_an_error(tmp_path):
    """Corrupt bytes can turn one dictionary entry into another (zstd without its checksum inflates
    them silently): categories would repeat, which pandas cannot hold, so the read names the file."""
    df = pd.DataFrame({"k": pd.Categorical(["first-a", "first-b"] * 50), "v": np.arange(100)})
    path = tmp_path / "repeat.parquet"
    df.to_parquet(path, compression=None)
    raw = path.read_bytes()
    at = raw.index(b"first-b")  # its first place: the dictionary page (statistics come later)
    assert at < raw.index(b"PAR1", 4) and at < 100
    path.write_bytes(raw.replace(b"first-b", b"first-a", 1))
    with pytest.raises(ParquetError, match="repeat.parquet.*repeats a value"):
        em.read_parquet(path, engine="ember")


@pytest.mark.parametrize(
    ("values", "repeats"),
    [
        ([], False),
        (["a"], False),
        (["a", "b", "c"], False),  # sorted: neighbours compared only
        (["c", "a", "b"], False),  # unsorted: hashed
        (["a", "b", "b"], True),
        (["b", "a", "b"], True),
    ],
)
def test_dictionary_repeats_a_value(values, repeats):
    from ember.io.parquet_decode import _repeats

    assert _repeats(pa.array(values, pa.large_binary())) is repeats


def test_once_computes_each_key_once_and_never_blocks_the_others():
    """The first thread to ask computes; another asking meanwhile gets its Future at once (pool threads
    never wait on each other) and ``_settled`` gives the value, or the error, it produced."""
    import threading
    from concurrent.futures import Future

    from ember.io.parquet_decode import _Once, _settled

    once, started, release = _Once(), threading.Event(), threading.Event()
    calls = []

    def slow():
        calls.append(1)
        started.set()
        release.wait(5)
        return "value"

    page = bytes(range(256)) * 4
    worker = threading.Thread(target=lambda: once.get(0, page, slow))
    worker.start()
    started.wait(5)
    other = once.get(0, bytes(bytearray(page)), slow)  # equal bytes, another object
    assert isinstance(other, Future) and not other.done()
    release.set()
    worker.join()
    assert _settled(other) == "value" and calls == [1]
    assert _settled(once.get(0, page, slow)) == "value" and calls == [1]
    # same length and ends, other bytes in the middle; or another group: computed again
    middle = page[:500] + b"x" + page[501:]
    assert once.get(0, middle, lambda: "other") == "other"
    assert once.get(1, page, lambda: "group 1") == "group 1"

    def broken():
        raise ValueError("corrupt")

    with pytest.raises(ValueError, match="corrupt"):
        once.get(2, b"bad", broken)
    with pytest.raises(ValueError, match="corrupt"):
        _settled(once.get(2, b"bad", broken))

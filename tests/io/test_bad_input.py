"""Bad input gives a clear exception naming the file (and position where it applies), never a crash or a
silently wrong frame."""

from __future__ import annotations

import io
import sys

import pandas as pd
import pyarrow as pa
import pytest

import ember
from ember.io import read_csv, read_json, read_orc, read_parquet, write_csv, write_parquet


@pytest.mark.parametrize("engine", [None, "pyarrow", "c"])
def test_ragged_error_names_line(engine):
    data = b"a,b\n1,2\n3,4\n5,6,7\n"
    with pytest.raises(pd.errors.ParserError, match="Expected 2 fields in line 4, saw 3"):
        read_csv(io.BytesIO(data), engine=engine)


def test_ragged_rows_are_not_read_by_the_tokenizer():
    with pytest.raises(NotImplementedError, match="engine='ember'.*different numbers of fields"):
        read_csv(io.BytesIO(b"a,b\n1,2\n3,4\n5,6,7\n"), engine="ember")


def test_short_rows_are_padded_like_pandas():
    data = b"a,b,c\n1,2,3\n4\n"
    pd.testing.assert_frame_equal(read_csv(io.BytesIO(data)).to_pandas(), pd.read_csv(io.BytesIO(data)))


@pytest.mark.parametrize("data", [b"", b"\n\n", b"\r\n"])
def test_empty_file(tmp_path, data):
    p = tmp_path / "empty.csv"
    p.write_bytes(data)
    with pytest.raises(pd.errors.EmptyDataError):
        read_csv(str(p))


def test_missing_files(tmp_path):
    for fn, name in [
        (read_csv, "no.csv"),
        (read_parquet, "no.parquet"),
        (read_json, "no.json"),
        (read_orc, "no.orc"),
    ]:
        with pytest.raises(FileNotFoundError, match=name):
            fn(str(tmp_path / name))
    with pytest.raises(FileNotFoundError, match="nothing"):
        read_parquet(str(tmp_path / "nothing*.parquet"))


def test_truncated_and_corrupt_parquet(tmp_path):
    good = tmp_path / "good.parquet"
    pd.DataFrame({"a": range(100), "s": ["x"] * 100}).to_parquet(good)
    raw = good.read_bytes()
    for name, data in [
        ("trunc.parquet", raw[: len(raw) // 2]),
        ("garbage.parquet", b"not parquet at all"),
        ("nofooter.parquet", raw[:-8]),
        ("flipped.parquet", raw[:40] + bytes(40) + raw[80:]),
    ]:
        p = tmp_path / name
        p.write_bytes(data)
        try:
            read_parquet(str(p))
        except pa.ArrowInvalid as exc:
            assert name in str(exc)


def test_wrong_encoding_names_file_and_byte(tmp_path):
    p = tmp_path / "latin.csv"
    p.write_bytes("a,b\nx,Jos\u00e9\n".encode("latin-1"))
    with pytest.raises(UnicodeDecodeError, match=r"latin.csv at byte \d+"):
        read_csv(str(p))
    with pytest.raises(UnicodeDecodeError, match=r"latin.csv at byte \d+"):
        read_csv(str(p), engine="pyarrow")


def test_unterminated_quote():
    data = b'a,b\n1,"open\n2,3\n'
    with pytest.raises(pd.errors.ParserError):
        pd.read_csv(io.BytesIO(data))
    with pytest.raises(pd.errors.ParserError):
        read_csv(io.BytesIO(data))


def test_bad_options():
    with pytest.raises(ValueError, match="on_bad_lines"):
        read_csv(io.BytesIO(b"a\n1\n"), on_bad_lines="explode")
    with pytest.raises(ValueError, match="compression"):
        read_csv(io.BytesIO(b"a\n1\n"), compression="rar")
    with pytest.raises(NotImplementedError, match="engine='ember'"):
        read_csv(io.BytesIO(b"a\n1\n"), engine="ember", comment="#")
    with pytest.raises(NotImplementedError, match="header"):
        read_csv(io.BytesIO(b"a\n1\n"), header=[0, 1])


def test_corrupt_gzip_names_file(tmp_path):
    p = tmp_path / "bad.csv.gz"
    p.write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises((OSError, EOFError), match="bad.csv.gz"):
        read_csv(str(p))


def test_missing_zstandard_names_the_package(tmp_path, monkeypatch):
    path = tmp_path / "f.csv.zst"
    path.write_bytes(b"not read")
    monkeypatch.setitem(sys.modules, "zstandard", None)  # as if not installed
    with pytest.raises(ImportError, match="pip install zstandard"):
        write_csv(ember.from_pandas(pd.DataFrame({"a": [1]})), str(tmp_path / "out.csv.zst"))
    assert not (tmp_path / "out.csv.zst").exists()
    with pytest.raises(ImportError, match=r"f\.csv\.zst: zstd decompression .* pip install zstandard"):
        read_csv(str(path))


def test_local_parquet_needs_no_fsspec(tmp_path, monkeypatch):
    """fsspec is optional (pandas reads local files without it); only URLs need it."""
    pdf = pd.DataFrame({"g": ["a", "b", "a"], "v": [1, 2, 3]})
    monkeypatch.setitem(sys.modules, "fsspec", None)  # as if not installed
    write_parquet(ember.from_pandas(pdf), str(tmp_path / "f.parquet"))
    write_parquet(ember.from_pandas(pdf), str(tmp_path / "ds"), partition_cols=["g"])
    pd.testing.assert_frame_equal(read_parquet(str(tmp_path / "f.parquet")).to_pandas(), pdf)
    pd.testing.assert_frame_equal(
        read_parquet(str(tmp_path / "ds")).to_pandas(), pd.read_parquet(str(tmp_path / "ds"))
    )
    with pytest.raises(
        ImportError, match="s3:// URLs needs the optional package 'fsspec'.*pip install fsspec"
    ):
        read_parquet("s3://bucket/f.parquet")

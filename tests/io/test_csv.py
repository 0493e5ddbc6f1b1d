"""read_csv / write_csv against pandas on the same bytes, over the three parsers, plus the CUDA kernels'
logic checked on the CPU (csv.cu compiled as C++ with a one-thread-per-iteration launch emulation)."""

from __future__ import annotations

import ctypes
import io
import os
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

import ember
from ember.io import csv as csv_mod
from ember.io import csv_reference as ref
from ember.io import read_csv, write_csv

ENGINES = [None, "ember", "pyarrow", "c"]


def check(data: bytes, engine: str | None = None, **kw):
    got = read_csv(io.BytesIO(data), engine=engine, **kw)
    if engine is not None:  # the parser asked for by name gave the frame (pyarrow may defer to pandas')
        assert csv_mod.last_parser() in ({engine, "c"} if engine == "pyarrow" else {engine})
    exp = pd.read_csv(io.BytesIO(data), **kw)
    pd.testing.assert_frame_equal(got.to_pandas(), exp)


BASIC = b'a,b,c,d,e\n1,2.5,True,x,\n-3,1e5,false,"y,""z""\n",7\n\n4,NA,TRUE,,\r\n'


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "data",
    [
        b"c0\nTrue\n ",  # found by fuzzing: the last line a space, no newline after it
        b"c0\nx\n  \ny\n",
        b"c0\nx\n \t \r\ny\n",
        b"c0,c1\n1,2\n  \n3,4\n",
        b'c0\nx\n"  "\ny\n',  # quoted: a value
        b"c0\nx\n  a\n b \ny\n",  # spaces around a value: values
        b'c0\n"a\n  \nb"\nc\n',  # a line of spaces inside a quoted field
        b"  \nc0\nx\n",  # before the header
    ],
)
def test_a_line_of_spaces_only_is_blank_as_in_pandas(tmp_path, data, engine):
    """pandas skips a line of spaces and tabs only (unquoted), as it skips an empty one; the file's
    own path (read straight to the device on a GPU) and bytes in memory both."""
    check(data, engine)
    if engine in (None, "ember"):
        path = tmp_path / "spaces.csv"
        path.write_bytes(data)
        pd.testing.assert_frame_equal(read_csv(path, engine=engine).to_pandas(), pd.read_csv(path))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "data",
    [
        BASIC,
        b"a,b\n1,2\n3,4",  # no trailing newline
        b"a,b\r\n1,2\r\n3,4\r\n",  # CRLF
        b"\xef\xbb\xbfa,b\n1,x\n",  # BOM
        b"a\n1\n",  # one row one column
        b"i,f,s\n1,1.5,x\n,,\n3,-2e-3,\n",  # NaN vs null per type
        b"a,b\n,\n,\n",  # all missing -> float64
        b"a,b\nnan,NULL\n1.5,<NA>\n",
        b"x,y\n9007199254740993,0.1\n-9223372036854775807,1e308\n",
        b'q\n"with\nnewline"\n"comma, inside"\n"""quoted"""\n',
        b"a,b\nTrue,1\nFalse,0\n",
        b"a,b\ninf,-Infinity\n-inf,1\n",
        b"a;b\n1;2\n",
    ],
)
def test_read_csv_matches_pandas(data, engine):
    sep = ";" if b";" in data.split(b"\n")[0] else ","
    check(data, engine, sep=sep)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "kw",
    [
        dict(header=None),
        dict(names=["p", "q", "r", "s", "t"]),
        dict(names=["p", "q", "r", "s", "t"], header=0),
        dict(index_col=0),
        dict(index_col="c"),
        dict(index_col=["a", "c"]),
        dict(usecols=["a", "d"]),
        dict(usecols=[0, 2]),
        dict(nrows=1),
        dict(nrows=0),
        dict(na_values=["x"]),
        dict(na_values=["x"], keep_default_na=False),
        dict(true_values=["x"], false_values=["y"]),
    ],
)
def test_read_csv_options(kw, engine):
    check(BASIC, engine, **kw)


@pytest.mark.parametrize(
    "kw",
    [
        dict(dtype={"a": "int32", "b": "float32"}),
        dict(dtype={"a": "Int64", "d": "category"}),
        dict(dtype=str),
        dict(parse_dates=["t"]),
        dict(skiprows=1),
        dict(comment="#"),
        dict(decimal=","),
        dict(thousands="."),
        dict(quotechar="'"),
        dict(escapechar="\\"),
        dict(skip_blank_lines=False),
    ],
)
def test_read_csv_host_options(kw):
    data = {
        "decimal": b"a;b\n1,5;2\n",
        "thousands": b"a;b\n1.500;2\n",
        "comment": b"a,b\n1,2 # note\n# whole line\n3,4\n",
        "quotechar": b"a,b\n'x,y',1\n",
        "escapechar": b'a,b\n"x\\"y",1\n',
        "skiprows": b"junk\na,b\n1,2\n",
        "parse_dates": b"t,v\n2021-03-04,1\n2021-03-05 10:00,2\n",
    }
    key = next(iter(kw))
    body = data.get(key, b"a,b,d\n1,2.5,x\n3,4,y\n\n5,6,\n")
    sep = ";" if key in ("decimal", "thousands") else ","
    check(body, sep=sep, **kw)


def test_dates_stay_text_without_parse_dates():
    check(b"d,t\n2020-01-01,12:00\n2020-01-02,13:00:01\n")


def test_latin1_encoding():
    data = "name,v\nJosé,1\nMüller,2\n".encode("latin-1")
    check(data, encoding="latin-1")


@pytest.mark.parametrize(
    "codec,ext", [("gzip", ".gz"), ("bz2", ".bz2"), ("zstd", ".zst"), ("xz", ".xz"), ("zip", ".zip")]
)
def test_compression_roundtrip(tmp_path, codec, ext):
    if codec == "zstd":
        pytest.importorskip("zstandard")  # optional, for pandas as for ember
    pdf = pd.DataFrame({"a": [1, 2, 3], "b": ["x", None, "z"], "c": [0.5, np.nan, 1e10]})
    path = tmp_path / f"f.csv{ext}"
    write_csv(ember.from_pandas(pdf), str(path), index=False)
    exp = pd.read_csv(path)
    pd.testing.assert_frame_equal(read_csv(str(path)).to_pandas(), exp)
    pd.testing.assert_frame_equal(read_csv(str(path), compression=codec).to_pandas(), exp)
    pd.testing.assert_frame_equal(exp, pdf)


@pytest.mark.parametrize("chunksize", [1, 2, 3, 10])
def test_chunksize(chunksize):
    data = b"a,b\n1,x\n2,y\n\n3,1.5\n4,z\n5,\n"
    got = list(read_csv(io.BytesIO(data), chunksize=chunksize))
    exp = list(pd.read_csv(io.BytesIO(data), chunksize=chunksize))
    assert len(got) == len(exp)
    for g, e in zip(got, exp, strict=True):
        pd.testing.assert_frame_equal(g.to_pandas(), e)


def _chunk_file(tmp_path, rows: int = 300) -> tuple[bytes, str]:
    """Records of mixed lengths: quoted fields with newlines and commas, CRLF endings, blank lines, and
    one record far longer than the test's block size."""
    lines = [b"id,text,v\r\n"]
    for i in range(rows):
        text = b'"multi\nline, ""quoted"""' if i % 7 == 0 else (b"x" * 500 if i == 150 else b"plain")
        lines.append(b"%d,%s,%d.5\r\n" % (i, text, i))
        if i % 50 == 0:
            lines.append(b"\r\n")
    data = b"".join(lines)
    path = tmp_path / "big.csv.gz"
    import gzip

    path.write_bytes(gzip.compress(data))
    return data, str(path)


@pytest.mark.parametrize("chunksize", [1, 7, 64, 1000])
def test_chunksize_streams_blocks_smaller_than_records(tmp_path, monkeypatch, chunksize):
    """The file is read in blocks (here 64 bytes, smaller than some records) cut at record boundaries
    outside quotes; the chunks equal pandas' (a gzip file: the stream is decompressed as it is read)."""
    from ember.io.csv import CsvReader

    monkeypatch.setattr(CsvReader, "block_size", 64)
    data, path = _chunk_file(tmp_path)
    got = list(read_csv(path, chunksize=chunksize))
    exp = list(pd.read_csv(io.BytesIO(data), chunksize=chunksize))
    assert len(got) == len(exp)
    for g, e in zip(got, exp, strict=True):
        pd.testing.assert_frame_equal(g.to_pandas(), e)


def test_chunked_reader_nrows_header_only_and_empty(tmp_path, monkeypatch):
    from ember.io.csv import CsvReader

    monkeypatch.setattr(CsvReader, "block_size", 100)
    data, path = _chunk_file(tmp_path)
    got = [c.to_pandas() for c in read_csv(path, chunksize=40, nrows=95)]
    exp = list(pd.read_csv(io.BytesIO(data), chunksize=40, nrows=95))
    assert [len(c) for c in got] == [len(c) for c in exp] == [40, 40, 15]
    for g, e in zip(got, exp, strict=True):
        pd.testing.assert_frame_equal(g, e)
    only_header = [c.to_pandas() for c in read_csv(io.BytesIO(b"a,b\n"), chunksize=2)]
    pd.testing.assert_frame_equal(only_header[0], next(iter(pd.read_csv(io.BytesIO(b"a,b\n"), chunksize=2))))
    with pytest.raises(pd.errors.EmptyDataError):
        read_csv(io.BytesIO(b"\n\n"), chunksize=2)


def test_iterator_get_chunk():
    data = b"a\n1\n2\n3\n"
    reader = read_csv(io.BytesIO(data), iterator=True)
    exp = pd.read_csv(io.BytesIO(data), iterator=True)
    pd.testing.assert_frame_equal(reader.get_chunk(2).to_pandas(), exp.get_chunk(2))
    pd.testing.assert_frame_equal(reader.get_chunk(2).to_pandas(), exp.get_chunk(2))


@pytest.mark.parametrize("on_bad_lines", ["error", "warn", "skip"])
def test_ragged_rows(on_bad_lines):
    data = b"a,b\n1,2\n3,4,5\n6\n"
    if on_bad_lines == "error":
        with pytest.raises(pd.errors.ParserError, match="line 3"):
            read_csv(io.BytesIO(data), on_bad_lines=on_bad_lines)
        return
    ctx = pytest.warns(pd.errors.ParserWarning) if on_bad_lines == "warn" else _null()
    with ctx:
        got = read_csv(io.BytesIO(data), on_bad_lines=on_bad_lines)
    exp = pd.read_csv(io.BytesIO(data), on_bad_lines="skip")
    pd.testing.assert_frame_equal(got.to_pandas(), exp)


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


@pytest.mark.parametrize(
    "kw",
    [
        dict(),
        dict(index=False),
        dict(sep="|", na_rep="NULL"),
        dict(float_format="%.2f"),
        dict(header=False),
        dict(quoting=1),
        dict(date_format="%Y/%m/%d"),
    ],
)
def test_write_csv_matches_pandas(kw, tmp_path):
    pdf = pd.DataFrame(
        {
            "i": [1, 2, 3],
            "f": [1.25, np.nan, -3.5],
            "s": ["a,b", None, 'q"'],
            "t": pd.to_datetime(["2020-01-01", None, "2021-06-07"]),
            "n": pd.array([1, None, 3], dtype="Int64"),
            "b": [True, False, True],
        }
    )
    frame = ember.from_pandas(pdf)
    assert write_csv(frame, None, **kw) == pdf.to_csv(None, **kw)
    path = tmp_path / "out.csv"
    write_csv(frame, str(path), **kw)
    assert path.read_text() == pdf.to_csv(None, **kw)


def test_header_only_and_empty_columns():
    check(b"a,b\n")
    check(b"a,b\n", engine="ember")


# --- the tokenizer reference on its own ---------------------------------------------------------------
def test_tokenize_spans():
    buf = np.frombuffer(b'a,"b,c"\r\n\n1,""\n', np.uint8)
    tok = ref.tokenize(buf)
    assert tok.starts.tolist() == [[0, 2], [10, 12]]
    assert tok.ends.tolist() == [[1, 7], [11, 14]]


def test_ragged_is_unsupported():
    with pytest.raises(ref.Unsupported):
        ref.tokenize(np.frombuffer(b"a,b\n1\n", np.uint8))
    with pytest.raises(ref.Unsupported):
        ref.tokenize(np.frombuffer(b'a\n"open\n', np.uint8))


# --- csv.cu logic on the CPU -----------------------------------------------------------------------------
_STUB = r"""
#define __global__
#define __device__
#define __forceinline__ inline
struct emu_dim { unsigned long long x; };
static emu_dim blockIdx, blockDim, threadIdx;
static inline double __longlong_as_double(long long v) { double d; __builtin_memcpy(&d, &v, 8); return d; }
#include "CSV_CU"
#define LOOP(n, call) blockDim.x = 1; threadIdx.x = 0; for (long long t = 0; t < (n); ++t) { blockIdx.x = t; call; }
extern "C" void emu_count_quotes(const unsigned char* b, long long n, long long f, long long m, int* c) {
    LOOP(m, csv_count_quotes(b, n, f, m, c)) }
extern "C" void emu_count_boundaries(const unsigned char* b, long long n, int sep, const long long* qb,
                                     long long m, int* c) { LOOP(m, csv_count_boundaries(b, n, sep, qb, m, c)) }
extern "C" void emu_write_boundaries(const unsigned char* b, long long n, int sep, const long long* qb,
                                     const long long* ob, long long m, long long* pos, unsigned char* nl) {
    LOOP(m, csv_write_boundaries(b, n, sep, qb, ob, m, pos, nl)) }
extern "C" void emu_parse_fields(const unsigned char* b, const long long* s, const long long* e, long long m,
                                 const unsigned char* w, const int* wo, const unsigned char* wf, int nw,
                                 long long* iv, double* fv, unsigned char* fl) {
    LOOP(m, csv_parse_fields(b, s, e, m, w, wo, wf, nw, iv, fv, fl)) }
"""


@pytest.fixture(scope="module")
def emu(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler to emulate the CUDA kernels")
    import ember.backend.kernels as kpkg

    cu = os.path.join(list(kpkg.__path__)[0], "csv.cu")
    d = tmp_path_factory.mktemp("emu")
    src = d / "emu.cpp"
    src.write_text(_STUB.replace("CSV_CU", cu))
    lib = d / "emu.so"
    subprocess.run([cxx, "-O1", "-shared", "-fPIC", "-std=c++17", "-w", str(src), "-o", str(lib)], check=True)
    return ctypes.CDLL(str(lib))


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def emu_boundaries(lib, data: bytes, sep: int):
    n = len(data)
    nch = (n + 63) // 64
    buf = np.zeros(nch * 64 + 8, np.uint8)
    buf[:n] = np.frombuffer(data, np.uint8)
    qc = np.zeros(nch, np.int32)
    # two pieces, as the pinned upload launches them
    half = nch // 2
    lib.emu_count_quotes(
        _ptr(buf), ctypes.c_longlong(n), ctypes.c_longlong(0), ctypes.c_longlong(half), _ptr(qc)
    )
    lib.emu_count_quotes(
        _ptr(buf), ctypes.c_longlong(n), ctypes.c_longlong(half), ctypes.c_longlong(nch - half), _ptr(qc)
    )
    qb = (np.cumsum(qc, dtype=np.int64) - qc).astype(np.int64)
    bc = np.zeros(nch, np.int32)
    lib.emu_count_boundaries(
        _ptr(buf), ctypes.c_longlong(n), ctypes.c_int(sep), _ptr(qb), ctypes.c_longlong(nch), _ptr(bc)
    )
    ob = (np.cumsum(bc, dtype=np.int64) - bc).astype(np.int64)
    total = int(bc.sum())
    pos = np.zeros(total, np.int64)
    nl = np.zeros(total, np.uint8)
    lib.emu_write_boundaries(
        _ptr(buf),
        ctypes.c_longlong(n),
        ctypes.c_int(sep),
        _ptr(qb),
        _ptr(ob),
        ctypes.c_longlong(nch),
        _ptr(pos),
        _ptr(nl),
    )
    return buf, pos, nl.astype(bool), int(qc.sum())


def emu_parse(lib, buf, starts, ends, words: ref.Words):
    from ember.backend.kernels.csv import _word_table

    w, wo, wf = _word_table(words.na, words.true, words.false)
    starts, ends = np.ascontiguousarray(starts), np.ascontiguousarray(ends)
    m = starts.shape[0]
    iv, fv, fl = np.zeros(m, np.int64), np.zeros(m, np.float64), np.zeros(m, np.uint8)
    lib.emu_parse_fields(
        _ptr(buf),
        _ptr(starts),
        _ptr(ends),
        ctypes.c_longlong(m),
        _ptr(w),
        _ptr(wo),
        _ptr(wf),
        ctypes.c_int(len(wf)),
        _ptr(iv),
        _ptr(fv),
        _ptr(fl),
    )
    return iv, fv, fl


KERNEL_CASES = [
    BASIC,
    b'q,r\n"a""b",1\n"x\ny",2.50\n' * 40,
    b"x,y,z\n" + b"".join(f"{i},{i * 0.37:.6f},{-i}e{i % 30}\n".encode() for i in range(300)),
    b"a,b\n0.1234567890123456789,12345678901234567\n+5,-0\n.5,1.\ninf,-INF\nNaN,\n1e,e1\n--1,1-\n",
    b"a\nTrue\nfalse\nNA\n",
]


@pytest.mark.parametrize("data", KERNEL_CASES)
def test_kernels_match_reference(emu, data):
    buf, pos, nl, quotes = emu_boundaries(emu, data, ord(","))
    arr = np.frombuffer(data, np.uint8)
    rpos, rnl = ref._boundaries(arr, ord(","), np)
    kpos, knl = ref.close_boundaries(pos, nl, quotes, data[-1], len(data), np)
    np.testing.assert_array_equal(kpos, rpos)
    np.testing.assert_array_equal(knl, rnl)
    tok = ref.tokenize(arr, ord(","), (kpos, knl))
    words = ref.Words()
    for j in range(tok.n_columns):
        s, e = tok.starts[1:, j], tok.ends[1:, j]
        iv, fv, fl = emu_parse(emu, buf, s, e, words)
        riv, rfv, rfl, _ = ref.classify(arr, s, e, words)
        np.testing.assert_array_equal(fl, rfl)
        np.testing.assert_array_equal(iv, riv)
        np.testing.assert_array_equal(fv, rfv)


@pytest.mark.gpu
@pytest.mark.parametrize("data", KERNEL_CASES)
def test_gpu_path_matches_pandas(data):
    got = read_csv(io.BytesIO(data))
    assert all(c.on_device for c in got._columns.values())
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_csv(io.BytesIO(data)))


@pytest.mark.gpu
@pytest.mark.parametrize("data", KERNEL_CASES)
def test_gpu_kernels_match_reference(data):
    from ember.backend.kernels import csv as kernels

    buf, qc = kernels.upload_and_count_quotes(data)
    pos, nl, quotes = kernels.boundaries(buf, qc, ord(","))
    arr = np.frombuffer(data, np.uint8)
    rpos, rnl = ref._boundaries(arr, ord(","), np)
    kpos, knl = ref.close_boundaries(pos, nl, quotes, data[-1], len(data), ember.backend.xp())
    np.testing.assert_array_equal(kpos.get(), rpos)
    np.testing.assert_array_equal(knl.get(), rnl)
    tok = ref.tokenize(arr, ord(","))
    for j in range(tok.n_columns):
        s, e = tok.starts[1:, j], tok.ends[1:, j]
        cp = ember.backend.xp()
        iv, fv, fl = kernels.parse_fields(buf, cp.asarray(s), cp.asarray(e), *ref.Words().__dict__.values())
        riv, rfv, rfl, _ = ref.classify(arr, s, e, ref.Words())
        np.testing.assert_array_equal(fl.get(), rfl)
        np.testing.assert_array_equal(iv.get(), riv)
        np.testing.assert_array_equal(fv.get(), rfv)


@pytest.mark.parametrize("engine", ENGINES)
def test_whitespace_around_numbers(engine):
    """pandas reads " 1" as a number; ember's tokenizer leaves such columns to the host parsers (the
    automatic engine falls back, counted; engine="ember" says it does not read them)."""
    for data in (b'a,b\n 1,"2\n"\n3 ,x\n', b"a\n 1\n2 \n"):
        if engine == "ember":
            with pytest.raises(NotImplementedError, match="whitespace around values"):
                read_csv(io.BytesIO(data), engine=engine)
        else:
            check(data, engine)


@pytest.mark.parametrize(
    "data",
    [
        b"a,b\n 1,x\n2, y\n",
        b"a\n  \n 1\n",
        b"a,b\n x ,1\n y,2\n",
        b"a\n 1.5 \nNA\n",
        b"s,v\n  shipped ,1\nnew,2\n",
    ],
    ids=["padded_int", "blank_and_padded", "padded_words", "padded_float_na", "padded_status"],
)
def test_padded_fields_read_as_pandas(data):
    """pandas reads " 1" as a number and " shipped " as text; the Arrow path keeps words, defers numbers."""
    pd.testing.assert_frame_equal(read_csv(io.BytesIO(data)).to_pandas(), pd.read_csv(io.BytesIO(data)))


def _big_csv(rows: int, text: str = "plain") -> bytes:
    """A CSV of a few MB: ints, floats, NA, quoted fields holding separators, quotes and newlines."""
    rng = np.random.default_rng(rows)
    ints = rng.integers(-1000, 1000, rows)
    floats = np.round(rng.normal(size=rows), 4)
    words = np.array([text, f'"{text}, with ""quotes"""', f'"two\nlines {text}"', ""])[
        rng.integers(0, 4, rows)
    ]
    lines = [f"{i},{f},{w}" for i, f, w in zip(ints, floats, words, strict=True)]
    return ("a,b,c\n" + "\n".join(lines)).encode()  # no newline after the last record


@pytest.mark.parametrize("variant", ["plain", "bom", "crlf", "non-ascii", "trailing-newline", "ragged"])
def test_large_local_files_match_pandas(tmp_path, monkeypatch, variant):
    """Files of megabytes (on the GPU read from disk in pinned pieces; small pieces here, so the ring of
    buffers wraps): the same frame as pandas for each ending, encoding mark and dialect twist."""
    from ember.backend import files

    monkeypatch.setattr(files, "FILE_PIECE", 1 << 16)
    monkeypatch.setattr(files, "FILE_BUFFERS", 3)
    data = _big_csv(60_000, "naïve" if variant == "non-ascii" else "plain")
    if variant == "bom":
        data = b"\xef\xbb\xbf" + data
    elif variant == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif variant == "trailing-newline":
        data += b"\n"
    elif variant == "ragged":
        data += b"\n1,2,3,4"
    path = tmp_path / "big.csv"
    path.write_bytes(data)
    assert len(data) > 1 << 20
    on_gpu = ember.backend.current_device() == "gpu"
    calls = []
    if on_gpu:
        import ember.io.csv_gpu as csv_gpu

        direct = csv_gpu.read_file_gpu
        monkeypatch.setattr(csv_gpu, "read_file_gpu", lambda *a: calls.append(a) or direct(*a))
    if variant == "ragged":
        with pytest.raises(pd.errors.ParserError):
            pd.read_csv(path)
        with pytest.raises(pd.errors.ParserError, match="line"):
            read_csv(str(path))
        return
    got = read_csv(str(path))
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_csv(path))
    if on_gpu:  # the direct path ran (non-ASCII bytes then go the validated-buffer way)
        assert calls and all(c.on_device for c in got._columns.values())


def _mixed_csv(rows: int, text_late: bool) -> bytes:
    """Records with quoted separators / newlines / doubled quotes, CRLF, blank lines; column b holds ints
    early and floats late (pandas: float64); with ``text_late`` column c turns from numbers to text."""
    lines = ["a,b,c,d"]
    for i in range(rows):
        b = str(i) if i < rows // 2 else f"{i}.5"
        c = "x" if (text_late and i > rows - 3) else str(i % 7)
        d = ['"q, ""r""\nline"', "plain", "", '"na"'][i % 4]
        lines.append(f"{i},{b},{c},{d}")
        if i % 97 == 0:
            lines.append("")
    return ("\r\n".join(lines[:50]) + "\n" + "\n".join(lines[50:])).encode()


@pytest.mark.parametrize(
    "variant", ["plain", "text-late", "nrows", "names", "long-record", "ragged-middle", "open-quote"]
)
def test_csv_read_in_pieces_matches_pandas(tmp_path, monkeypatch, variant):
    """Files above the chunk size are parsed a piece at a time (cut at the last record of each piece,
    quoted newlines and CRLF across cuts); pieces typed int then float join as float, text in a late
    piece falls back to one pass: the same frame as pandas either way."""
    from ember.backend import files
    from ember.io import csv_gpu

    monkeypatch.setattr(csv_gpu, "CHUNK_BYTES", 1 << 14)
    monkeypatch.setattr(files, "FILE_PIECE", 1 << 12)
    rows = 40_000
    data = _mixed_csv(rows, text_late=variant == "text-late")
    if variant == "long-record":
        data += b"\n" + b"7,8.5,9," + b"z" * 50_000  # one record longer than three pieces, at EOF
    middle = data.index(b"\n", len(data) // 2) + 1
    if variant == "ragged-middle":
        data = data[:middle] + b"1,2,3,4,5\n" + data[middle:]
    if variant == "open-quote":
        data = data[:middle] + b'1,2,3,"never closed\n' + data[middle:]
    path = tmp_path / "pieces.csv"
    path.write_bytes(data)
    if variant in ("ragged-middle", "open-quote"):  # the tokenizer does not read these: pandas' parser
        reason = "different numbers of fields" if variant == "ragged-middle" else "quote"
        with pytest.raises(NotImplementedError, match=reason):
            read_csv(str(path), engine="ember")
        if variant == "ragged-middle":
            with pytest.raises(pd.errors.ParserError):
                pd.read_csv(path)
            with pytest.raises(pd.errors.ParserError):
                read_csv(str(path))
        else:  # pandas reads the quote as opening a field that takes the rest of the line
            pd.testing.assert_frame_equal(read_csv(str(path)).to_pandas(), pd.read_csv(path))
            assert csv_mod.last_parser() == "c"
        return
    kw: dict = {}
    if variant == "nrows":
        kw["nrows"] = 12_345
    if variant == "names":
        kw.update(header=None, names=["w", "x", "y", "z"])
    got = read_csv(str(path), engine="ember", **kw).to_pandas()
    pd.testing.assert_frame_equal(got, pd.read_csv(path, **kw))

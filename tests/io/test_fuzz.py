"""Fuzzing the CSV tokenizer and the Parquet path: random bytes and mutations of valid files give
either pandas' result or a clean exception, never a crash, a hang or a silently different frame."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ember.io import read_csv, read_parquet

CLEAN = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    UnicodeDecodeError,
    pd.errors.ParserError,
    pd.errors.EmptyDataError,
    NotImplementedError,
    OSError,
    EOFError,
    pa.ArrowException,
    OverflowError,
)

_cell = st.one_of(
    st.integers(-(2**62), 2**62).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["", "NA", "nan", "True", "false", "x", "a,b", 'q"q', "line\nbreak", "1e5", "-0", ".5"]),
    st.text(alphabet='abc,"\n 01.-e', max_size=6),
)


def _quote(v: str) -> str:
    return '"' + v.replace('"', '""') + '"' if any(c in v for c in ',"\n') else v


@st.composite
def csv_bytes(draw):
    ncols = draw(st.integers(1, 4))
    nrows = draw(st.integers(0, 6))
    head = ",".join(f"c{i}" for i in range(ncols))
    rows = [",".join(_quote(draw(_cell)) for _ in range(ncols)) for _ in range(nrows)]
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join([head, *rows]) + draw(st.sampled_from(["", end]))
    return text.encode()


def _compare(data: bytes, engine: str | None) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exp = pd.read_csv(io.BytesIO(data))
        except CLEAN:
            exp = None
        try:
            got = read_csv(io.BytesIO(data), engine=engine)
        except CLEAN:
            if exp is not None and engine != "ember":
                raise
            return
    if exp is not None:
        pd.testing.assert_frame_equal(got.to_pandas(), exp)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_bytes(), st.sampled_from([None, "ember"]))
def test_valid_csv_matches_pandas(data, engine):
    _compare(data, engine)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200), st.sampled_from([None, "ember", "pyarrow"]))
def test_random_bytes_clean(data, engine):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            read_csv(io.BytesIO(data), engine=engine)
        except CLEAN:
            pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_bytes(), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=4))
def test_mutated_csv_clean(data, edits):
    buf = bytearray(data)
    for pos, byte in edits:
        if buf:
            buf[pos % len(buf)] = byte
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            read_csv(io.BytesIO(bytes(buf)), engine="ember")
        except CLEAN:
            pass


@pytest.fixture(scope="module")
def parquet_bytes():
    out = io.BytesIO()
    pd.DataFrame(
        {"a": np.arange(50), "s": [f"v{i}" for i in range(50)], "f": np.linspace(0, 1, 50)}
    ).to_parquet(out, row_group_size=10, compression="snappy")
    return out.getvalue()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=6),
    st.integers(0, 10_000),
)
def test_mutated_parquet_clean(parquet_bytes, edits, cut):
    buf = bytearray(parquet_bytes)
    for pos, byte in edits:
        buf[pos % len(buf)] = byte
    buf = buf[: max(1, len(buf) - cut % 64)] if cut % 3 == 0 else buf
    try:
        read_parquet(io.BytesIO(bytes(buf)))
    except CLEAN:
        pass


@pytest.fixture(scope="module")
def parquet_for_kernels():
    """A file the page kernels decode (engine="ember"): dictionary-encoded ints and floats, PLAIN
    fallback pages, a categorical's string dictionary, booleans, nulls, a string column, several row
    groups and pages."""
    out = io.BytesIO()
    r = np.random.default_rng(3)
    pd.DataFrame(
        {
            "k": r.integers(0, 7, 400),
            "wide": r.integers(-(2**40), 2**40, 400),
            "f": r.random(400).astype(np.float32),
            "c": pd.Categorical(r.choice(["x", "yy", "zzz"], 400)),
            "b": r.random(400) < 0.5,
            "nulls": np.where(r.random(400) < 0.3, np.nan, r.random(400)),
            "s": r.choice(["p", "qq", ""], 400).astype(object),
            "plain": [("w" * int(k)) + str(k) for k in r.integers(0, 30, 400)],  # PLAIN byte arrays
        }
    ).to_parquet(
        out,
        row_group_size=150,
        compression="snappy",
        data_page_size=512,
        use_dictionary=["k", "wide", "f", "c", "s", "nulls"],
    )
    return out.getvalue()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.integers(0, 20_000), st.integers(0, 255)), min_size=1, max_size=6),
    st.integers(0, 10_000),
)
def test_mutated_parquet_through_the_page_kernels_clean(tmp_path, parquet_for_kernels, edits, cut):
    """Mutated files through ember's own page decoder: page headers, snappy data, RLE runs and
    dictionary pages damaged; only clean exceptions (or a frame)."""
    buf = bytearray(parquet_for_kernels)
    for pos, byte in edits:
        buf[pos % len(buf)] = byte
    _read_with_the_page_kernels(tmp_path, buf[: max(1, len(buf) - cut % 64)] if cut % 3 == 0 else buf)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(1, 5_000), st.integers(0, 255)), min_size=1, max_size=3))
def test_mutated_footers_through_the_page_kernels_clean(tmp_path, parquet_for_kernels, edits):
    """Bytes of the footer changed: codecs, types, offsets, sizes, statistics. pyarrow's metadata API
    aborts the process on some of these (an uncaught C++ exception); the device readers read the
    footer themselves: only clean exceptions (or a frame)."""
    buf = bytearray(parquet_for_kernels)
    footer = int.from_bytes(buf[-8:-4], "little")
    for back, byte in edits:
        buf[len(buf) - 8 - 1 - back % footer] = byte
    _read_with_the_page_kernels(tmp_path, buf)


def _read_with_the_page_kernels(tmp_path, buf: bytearray) -> None:
    """Read mutated file bytes with engine="ember": a frame or a clean exception, nothing else."""
    path = tmp_path / "mutated.parquet"
    path.write_bytes(bytes(buf))
    try:
        read_parquet(path, engine="ember")
    except CLEAN:
        pass

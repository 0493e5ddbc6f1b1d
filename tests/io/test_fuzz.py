"""Fuzzing the CSV tokenizer and the Parquet path: random bytes and mutations of valid files give
either pandas' result or a clean exception, never a crash, a hang or a silently different frame.

A clean exception is the one pandas raises for the same bytes (its type, or a subclass), or one of
ember's documented refusals (NotImplementedError); an exception from inside ember (TypeError, KeyError,
IndexError ...) where pandas reads the file, or raises something else, is a failure."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ember.io import csv as csv_mod
from ember.io import read_csv, read_parquet

# What a corrupt Parquet file may raise: pyarrow's errors and ember's documented ones (the same family
# pandas' read_parquet raises for such bytes; ember's page decoder names the damage in a ValueError).
PARQUET_CLEAN = (ValueError, OSError, EOFError, pa.ArrowException, NotImplementedError)


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - classified by the caller
            return None, exc


PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _check_against_pandas(data: bytes, engine: str | None) -> None:
    """ember's frame equals pandas' for the same bytes; where pandas raises, ember raises the same type;
    ember may refuse (NotImplementedError: engine="ember" for dialects its tokenizer leaves to the host
    parsers, any engine for pandas' object columns of Python ints)."""
    exp, exp_exc = _outcome(lambda: pd.read_csv(io.BytesIO(data)))
    got, got_exc = _outcome(lambda: read_csv(io.BytesIO(data), engine=engine))
    if not PANDAS_31 and b"\x00" in data:  # pandas 3.0 cuts a header name at a NUL byte; ember reads
        exp, exp_exc = _outcome(lambda: pd.read_csv(io.BytesIO(data.replace(b"\x00", b"\x01"))))  # as 3.1
        if exp is not None:
            exp = exp.rename(columns=lambda c: c.replace("\x01", "\x00") if isinstance(c, str) else c)
            exp = exp.replace("\x01", "\x00", regex=True)
    if got_exc is not None:
        if isinstance(got_exc, UnicodeDecodeError) and not _is_utf8(data):
            return  # ember's documented error for bytes that are not UTF-8 (pandas may report another)
        if isinstance(got_exc, NotImplementedError):
            if engine is None and exp is not None:  # the automatic engine refuses only object ints
                assert (exp.dtypes == object).any(), got_exc
            return
        if exp_exc is None or not isinstance(got_exc, type(exp_exc)):
            raise AssertionError(f"pandas: {exp_exc!r}; ember: {got_exc!r}") from got_exc
        return
    assert exp_exc is None, f"ember read bytes pandas rejects ({exp_exc!r})"
    if engine == "ember":
        assert csv_mod.last_parser() == "ember"
    pd.testing.assert_frame_equal(got.to_pandas(), exp)


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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_bytes(), st.sampled_from([None, "ember"]))
def test_valid_csv_matches_pandas(data, engine):
    _check_against_pandas(data, engine)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200), st.sampled_from([None, "ember", "pyarrow"]))
def test_random_bytes_clean(data, engine):
    _check_against_pandas(data, engine)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_bytes(), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=4))
def test_mutated_csv_clean(data, edits):
    buf = bytearray(data)
    for pos, byte in edits:
        if buf:
            buf[pos % len(buf)] = byte
    _check_against_pandas(bytes(buf), "ember")


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
    _parquet_against_pandas(bytes(buf), lambda: read_parquet(io.BytesIO(bytes(buf))))


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
    _parquet_against_pandas(bytes(buf), lambda: read_parquet(path, engine="ember"))


def _parquet_against_pandas(data: bytes, read) -> None:
    """A frame pandas also reads (equal where pandas' own read succeeds), or a clean exception."""
    got, got_exc = _outcome(read)
    if got_exc is not None:
        if not isinstance(got_exc, PARQUET_CLEAN):
            raise AssertionError(f"ember raised {got_exc!r} from inside its reader") from got_exc
        return
    exp, exp_exc = _outcome(lambda: pd.read_parquet(io.BytesIO(data)))
    if exp_exc is None:
        pd.testing.assert_frame_equal(got.to_pandas(), exp)

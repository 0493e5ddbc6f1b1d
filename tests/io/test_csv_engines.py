"""Which parser read_csv ran: an explicit engine="ember" runs ember's tokenizer or raises
NotImplementedError (never pyarrow or pandas behind the caller's back); the automatic engine may fall
back to the next parser, and each fallback is counted (``parser_report``) and logged."""

from __future__ import annotations

import io
import logging

import pandas as pd
import pytest

import ember
from ember.io import csv as csv_mod
from ember.io import read_csv

PLAIN = b"a,b,c\n1,2.5,x\n3,,y\n"

# input the tokenizer leaves to the host parsers, with the reason it gives
NOT_TOKENIZED = {
    "ragged": (b"a,b\n1,2\n3,4,5\n", "different numbers of fields"),
    "padded-numbers": (b"a\n 1\n2 \n", "whitespace around values"),
    "quote-inside-field": (b'a,b\nx"1,2"y,3\n', "quote inside an unquoted field"),
    "lone-cr": (b"a\r1\r2\n", "carriage return"),
    "unterminated-quote": (b'a\n"open\n', "EOF inside a quoted field"),
}


def _frame(data: bytes, engine=None, **kw):
    return read_csv(io.BytesIO(data), engine=engine, **kw)


@pytest.mark.parametrize("engine", ["ember", "pyarrow", "c", "python"])
def test_named_engine_runs(engine):
    got = _frame(PLAIN, engine)
    assert csv_mod.last_parser() == engine
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_csv(io.BytesIO(PLAIN)))


def test_ember_engine_counts_its_frames():
    before = csv_mod.parser_report().get("ember", 0)
    _frame(PLAIN, "ember")
    _frame(PLAIN, "ember", nrows=1)
    assert csv_mod.parser_report()["ember"] == before + 2


@pytest.mark.parametrize("name", list(NOT_TOKENIZED))
def test_ember_engine_raises_instead_of_falling_back(name):
    data, reason = NOT_TOKENIZED[name]
    before = csv_mod.parser_report()
    with pytest.raises(NotImplementedError, match=f"engine='ember'.*{reason}"):
        _frame(data, "ember")
    after = csv_mod.parser_report()
    assert {k: v for k, v in after.items() if k not in ("ember",)} == {
        k: v for k, v in before.items() if k not in ("ember",)
    }  # nothing else ran


@pytest.mark.parametrize("name", list(NOT_TOKENIZED))
def test_automatic_engine_gives_pandas_answer_or_error(name):
    data, _ = NOT_TOKENIZED[name]
    try:
        exp = pd.read_csv(io.BytesIO(data))
    except pd.errors.ParserError as exc:
        with pytest.raises(type(exc)):
            _frame(data)
        return
    pd.testing.assert_frame_equal(_frame(data).to_pandas(), exp)
    assert csv_mod.last_parser() in ("pyarrow", "c")


def test_automatic_engine_fallback_is_counted_and_logged(caplog):
    data = b"a,b,c\n1,2,3\n4\n"  # pandas pads a short row, pyarrow rejects it: pandas' parser takes over
    before = csv_mod.parser_report().get("pyarrow->c", 0)
    with caplog.at_level(logging.INFO, logger="ember.io.csv"):
        got = _frame(data)
    assert csv_mod.last_parser() == "c"
    assert csv_mod.parser_report()["pyarrow->c"] == before + 1
    assert any("pyarrow->c" in r.getMessage() for r in caplog.records if r.name == "ember.io.csv")
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_csv(io.BytesIO(data)))


def test_chunks_of_an_ember_read_are_ember_frames():
    data = b"a,b\n" + b"".join(b"%d,%d.5\n" % (i, i) for i in range(10))
    before = csv_mod.parser_report().get("ember", 0)
    chunks = list(read_csv(io.BytesIO(data), engine="ember", chunksize=4))
    assert csv_mod.parser_report()["ember"] == before + len(chunks) == before + 3
    exp = pd.concat(pd.read_csv(io.BytesIO(data), chunksize=4))
    pd.testing.assert_frame_equal(pd.concat([c.to_pandas() for c in chunks]), exp)


@pytest.mark.gpu
def test_gpu_automatic_engine_runs_the_tokenizer_and_counts_its_fallbacks(tmp_path, caplog):
    assert ember.backend.current_device() == "gpu"
    _frame(PLAIN)
    assert csv_mod.last_parser() == "ember"
    data, _ = NOT_TOKENIZED["padded-numbers"]
    before = csv_mod.parser_report().get("ember->host", 0)
    with caplog.at_level(logging.INFO, logger="ember.io.csv"):
        got = _frame(data)
    assert csv_mod.parser_report()["ember->host"] == before + 1
    assert any("ember->host" in r.getMessage() for r in caplog.records)
    assert csv_mod.last_parser() in ("pyarrow", "c")
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_csv(io.BytesIO(data)))

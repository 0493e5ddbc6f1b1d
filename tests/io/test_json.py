"""read_json / write_json against pandas. ember's read_json parses with pandas' parser on the host:
these tests check ember's wrapper around it (paths, compression, file objects, orients passed through,
the conversion of pandas' frame into ember columns, error messages naming the file), not a JSON parser
of ember's own."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import ember
from ember.io import read_json, write_json

PDF = pd.DataFrame({"a": [1, 2, 3], "f": [0.5, np.nan, 2.0], "s": ["x", None, "z"], "b": [True, False, True]})


@pytest.mark.parametrize("orient", ["records", "split", "index", "columns", "values", "table"])
def test_orients_roundtrip(tmp_path, orient):
    path = str(tmp_path / "f.json")
    write_json(ember.from_pandas(PDF), path, orient=orient)
    assert open(path).read() == PDF.to_json(orient=orient)
    pd.testing.assert_frame_equal(
        read_json(path, orient=orient).to_pandas(), pd.read_json(path, orient=orient)
    )


def test_lines_and_compression(tmp_path):
    path = str(tmp_path / "f.jsonl.gz")
    write_json(ember.from_pandas(PDF), path, orient="records", lines=True)
    pd.testing.assert_frame_equal(read_json(path, lines=True).to_pandas(), pd.read_json(path, lines=True))
    pd.testing.assert_frame_equal(
        read_json(path, lines=True, nrows=2).to_pandas(), pd.read_json(path, lines=True, nrows=2)
    )


def test_file_object_and_text():
    text = PDF.to_json(orient="records")
    pd.testing.assert_frame_equal(read_json(io.StringIO(text)).to_pandas(), pd.read_json(io.StringIO(text)))
    assert write_json(ember.from_pandas(PDF), orient="records") == text


def test_dates():
    text = '[{"t": "2020-01-01T00:00:00.000", "v": 1}, {"t": "2021-05-06T00:00:00.000", "v": null}]'
    pd.testing.assert_frame_equal(read_json(io.StringIO(text)).to_pandas(), pd.read_json(io.StringIO(text)))


def test_empty_and_invalid(tmp_path):
    p = tmp_path / "e.json"
    p.write_text("")
    with pytest.raises(ValueError, match="e.json"):
        read_json(str(p))
    p.write_text("{not json")
    with pytest.raises(ValueError, match="e.json"):
        read_json(str(p))

"""to_string / to_html / to_markdown / to_latex / info, and Series.to_csv / to_json: pandas' text."""

import io

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

PDF = pd.DataFrame(
    {
        "a": [1, 2, 3],
        "b": ["x", None, "z"],
        "c": [1.5, np.nan, 3.25],
        "d": pd.to_datetime(["2020", None, "2021"]),
    },
    index=pd.Index([10, 20, 30], name="i"),
)


@pytest.mark.parametrize(
    "render",
    [
        lambda o: o.to_string(),
        lambda o: o.to_string(index=False, na_rep="-"),
        lambda o: o.to_string(max_rows=2),
    ],
)
@pytest.mark.parametrize("pick", [lambda d: d, lambda d: d["c"]], ids=["frame", "series"])
def test_to_string_as_pandas(render, pick):
    assert render(pick(em.from_pandas(PDF))) == render(pick(PDF))


def test_to_html_as_pandas():
    assert em.from_pandas(PDF).to_html() == PDF.to_html()
    assert em.from_pandas(PDF).to_html(columns=["a"], border=0) == PDF.to_html(columns=["a"], border=0)


@pytest.mark.parametrize("kwargs", [{}, {"orient": "records"}, {"orient": "split", "date_format": "iso"}])
def test_series_to_json_as_pandas(kwargs):
    for name in PDF.columns:
        assert em.from_pandas(PDF)[name].to_json(**kwargs) == PDF[name].to_json(**kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"header": False}, {"index": False, "na_rep": "NA"}])
def test_series_to_csv_as_pandas(kwargs, tmp_path):
    for name in PDF.columns:
        assert em.from_pandas(PDF)[name].to_csv(**kwargs) == PDF[name].to_csv(**kwargs)
    em.from_pandas(PDF)["b"].to_csv(tmp_path / "b.csv", **kwargs)
    assert (tmp_path / "b.csv").read_text() == PDF["b"].to_csv(**kwargs)


@pytest.mark.parametrize("pick", [lambda d: d, lambda d: d["b"]], ids=["frame", "series"])
@pytest.mark.parametrize("kwargs", [{}, {"memory_usage": "deep"}, {"verbose": False}])
def test_info_as_pandas(pick, kwargs):
    got, want = io.StringIO(), io.StringIO()
    pick(em.from_pandas(PDF)).info(buf=got, **kwargs)
    pick(PDF).info(buf=want, **kwargs)
    assert got.getvalue() == want.getvalue()


def test_from_arrow_classmethods():
    import pyarrow as pa

    table = pa.table({"a": [1, 2], "b": ["x", None]})
    assert_eq(em.DataFrame.from_arrow(table), table.to_pandas())
    assert_eq(em.Series.from_arrow(pa.array([1, None])), pd.Series([1.0, None]))

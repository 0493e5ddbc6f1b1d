"""DataFrame.describe(include=, exclude=): the numbers; other selections are refused."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

FRAME = pd.DataFrame(
    {
        "i": [1, 2, 3, 4],
        "f": [0.5, np.nan, 2.0, 1.0],
        "b": [True, False, True, True],
        "s": ["a", "b", "a", "c"],
        "t": pd.to_datetime(["2020-01-01", "2021-01-01", None, "2022-01-01"]),
    }
)


@pytest.mark.parametrize("include", [np.number, [np.number], "number", ["number"]])
def test_describe_include_numbers(include):
    assert_eq(em.from_pandas(FRAME).describe(include=include), FRAME.describe(include=include))


def test_describe_include_numbers_percentiles():
    expected = FRAME.describe(include=[np.number], percentiles=[0.1, 0.9])
    assert_eq(em.from_pandas(FRAME).describe(include=[np.number], percentiles=[0.1, 0.9]), expected)


@pytest.mark.parametrize(
    "kwargs",
    [{"include": "all"}, {"include": ["object"]}, {"include": ["category"]}, {"exclude": [np.number]}],
)
def test_describe_other_selections_as_pandas_or_refused(kwargs):
    try:
        want = FRAME.describe(**kwargs)
    except ValueError:  # e.g. no column of the kind included
        with pytest.raises(ValueError):
            em.from_pandas(FRAME).describe(**kwargs)
        return
    try:
        got = em.from_pandas(FRAME).describe(**kwargs)
    except NotImplementedError:  # pandas' summaries mixing counts with strings: no ember column
        return
    assert_eq(got, want)


@pytest.mark.parametrize("percentiles", [[0.1, 0.9], [0.3333, 0.5], [0.05], []])
def test_describe_percentiles_labels(percentiles):
    pdf = FRAME[["i", "f"]]
    assert_eq(em.from_pandas(pdf).describe(percentiles=percentiles), pdf.describe(percentiles=percentiles))

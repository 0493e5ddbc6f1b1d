"""DataFrame.assign / __setitem__ with a dict (read as a Series aligned on the labels) and pandas'
pd.col expressions."""

import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq

DF = pd.DataFrame({"temp_c": [17.0, 25.0]}, index=["Portland", "Berkeley"])


@pytest.mark.parametrize(
    "value",
    [{"Portland": 290.15, "Berkeley": 298.15, "Seattle": 285.0}, {"Portland": 1}, {}, {"x": "a"}],
)
def test_dict_value_as_pandas(value):
    assert_eq(em.from_pandas(DF).assign(k=value), DF.assign(k=value))
    got, want = em.from_pandas(DF), DF.copy()
    got["z"], want["z"] = value, value
    assert_eq(got, want)


@pytest.mark.skipif(not PANDAS_31, reason="pd.col is new in pandas 3.1")
def test_col_expression():
    expr = pd.col("temp_c") * 9 / 5 + 32
    assert_eq(em.from_pandas(DF).assign(temp_f=expr), DF.assign(temp_f=expr))

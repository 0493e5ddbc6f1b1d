"""fillna(Series) and Series.where(cond, Series) of number / bool columns: the result dtype pandas'
Block.where (NumPy columns) and masked setitem (Int64 / Float64 / boolean) give, or their errors."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

COLUMNS = {
    "float64": pd.Series([np.nan, 1.0, np.nan]),
    "float32": pd.Series([np.nan, 1.0, np.nan], dtype="float32"),
    "Int64": pd.Series([None, 1, None], dtype="Int64"),
    "UInt8": pd.Series([None, 1, None], dtype="UInt8"),
    "Float64": pd.Series([None, 1.0, None], dtype="Float64"),
    "Float32": pd.Series([None, 1.0, None], dtype="Float32"),
    "boolean": pd.Series([None, True, None], dtype="boolean"),
}
# NumPy columns without missing values, for where (fillna leaves them as they are)
WHERE_ONLY = {
    "int64": pd.Series([1, 2, 3]),
    "uint8": pd.Series([1, 2, 3], dtype="uint8"),
    "bool": pd.Series([True, False, True]),
}
VALUES = {
    "bool": pd.Series([True, False, True]),
    "boolean": pd.Series([True, False, True], dtype="boolean"),
    "boolean NA": pd.Series([None, False, True], dtype="boolean"),
    "Int64": pd.Series([1, 2, 3], dtype="Int64"),
    "Int64 NA kept": pd.Series([1, None, 3], dtype="Int64"),
    "Int64 NA taken": pd.Series([None, 2, 3], dtype="Int64"),
    "Int8": pd.Series([1, 2, 3], dtype="Int8"),
    "Int8 NA": pd.Series([1, None, 3], dtype="Int8"),
    "int64": pd.Series([1, 2, 3]),
    "int64 big": pd.Series([2**60 + 1, 2, 3]),
    "uint8": pd.Series([1, 2, 3], dtype="uint8"),
    "float64": pd.Series([1.5, 2, 3.0]),
    "float64 whole": pd.Series([1.0, 2, 3.0]),
    "float64 tenth": pd.Series([0.1, 2, 3.0]),
    "float64 NaN": pd.Series([np.nan, 2, 3.0]),
    "float32": pd.Series([1.5, 2, 3], dtype="float32"),
    "Float64": pd.Series([1.5, 2, 3], dtype="Float64"),
    "Float64 whole": pd.Series([1.0, 2, 3], dtype="Float64"),
    "Float64 tenth": pd.Series([0.1, 2, 3], dtype="Float64"),
    "Float64 NA kept": pd.Series([1.5, None, 3], dtype="Float64"),
    "Float32": pd.Series([1.5, 2, 3], dtype="Float32"),
}


def _compare(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = call(pd, lambda s: s)
        except (TypeError, ValueError) as exc:
            with pytest.raises((type(exc), NotImplementedError)):
                call(em, em.from_pandas)
            return
    if want.dtype == object:  # pandas upcasts to object: ember refuses rather than guess
        with pytest.raises(NotImplementedError):
            call(em, em.from_pandas)
        return
    assert_eq(call(em, em.from_pandas), want)


@pytest.mark.parametrize("value", list(VALUES))
@pytest.mark.parametrize("column", list(COLUMNS))
def test_fillna_from_a_column(column, value):
    _compare(lambda lib, conv: conv(COLUMNS[column]).fillna(conv(VALUES[value])))


@pytest.mark.parametrize("value", list(VALUES))
@pytest.mark.parametrize("column", list(COLUMNS) + list(WHERE_ONLY))
def test_where_with_a_column_other(column, value):
    col = {**COLUMNS, **WHERE_ONLY}[column]
    cond = pd.Series([False, True, False])
    _compare(lambda lib, conv: conv(col).where(conv(cond), conv(VALUES[value])))


@pytest.mark.parametrize("value", list(VALUES))
@pytest.mark.parametrize("column", list(COLUMNS) + list(WHERE_ONLY))
def test_where_keeping_every_row_keeps_the_dtype(column, value):
    col = {**COLUMNS, **WHERE_ONLY}[column]
    cond = pd.Series([True, True, True])
    _compare(lambda lib, conv: conv(col).where(conv(cond), conv(VALUES[value])))

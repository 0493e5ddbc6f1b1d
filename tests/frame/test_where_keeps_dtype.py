"""Series.where / mask with a Series of other values: the dtype pandas' Block.where keeps (no row
replaced, or every value of ``other`` held) or changes to."""

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

DTYPES = ["int8", "int32", "int64", "uint8", "uint32", "uint64", "float32", "float64"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("other_dtype", DTYPES)
@pytest.mark.parametrize("values", [[5, 6, 7], [5, -6, 7], [5, 600, 7], [5.5, 6, 7]], ids=str)
@pytest.mark.parametrize("cond", [[True, False, True], [True, True, True], [False, False, False]], ids=str)
@pytest.mark.parametrize("method", ["where", "mask"])
def test_where_dtype_as_pandas(dtype, other_dtype, values, cond, method):
    s = pd.Series([1, 2, 3], dtype=dtype)
    other = pd.Series(values).astype(other_dtype)
    want = getattr(s, method)(cond, other)
    assert_eq(getattr(em.from_pandas(s), method)(cond, em.from_pandas(other)), want)

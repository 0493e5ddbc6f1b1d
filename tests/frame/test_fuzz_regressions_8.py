"""Divergences the differential fuzzer found: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.mark.parametrize(
    "dtype", ["int64[pyarrow]", "bool[pyarrow]", "double[pyarrow]", "large_string[pyarrow]"]
)
def test_pyarrow_typed_columns_are_refused_not_retyped(dtype):
    values = [True, None] if dtype.startswith("bool") else ["a", None] if "string" in dtype else [1, None]
    s = pd.Series(values, dtype=dtype)
    with pytest.raises(NotImplementedError, match="ArrowDtype"):
        em.from_pandas(s)
    with pytest.raises(NotImplementedError, match="ArrowDtype"):
        em.from_pandas(pd.DataFrame({"a": s}))


@pytest.mark.parametrize("key", [np.True_, True, np.False_])
def test_numpy_bool_scalar_is_a_label_not_a_mask(key):
    pdf = pd.DataFrame({"x": [1, 2], "y": [3, 4]})
    pdf.columns = pd.Index([False, True], dtype="boolean")
    df = em.from_pandas(pdf)
    assert_eq(df[key], pdf[key])
    ps = pd.Series([1, 2], index=[False, True])
    s = em.from_pandas(ps)
    assert s[key] == ps[key]
    assert s.loc[key] == ps.loc[key]


def test_numpy_bool_scalar_missing_label_raises_keyerror():
    ps = pd.Series([1, 2])
    s = em.from_pandas(ps)
    with pytest.raises(KeyError):
        ps[np.True_]
    with pytest.raises(KeyError):
        s[np.True_]

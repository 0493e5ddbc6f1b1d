"""Groupby results as pandas 3 (dtypes of empty and object-string results, skew) and setitem on data
built with ``copy=False`` (pandas writes through to the user's array; ember refuses)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def test_setitem_on_copy_false_series_refuses_write_through():
    r = np.array([1, 2])
    s = pd.Series(r, copy=False)
    s.iloc[0] = 999
    assert r[0] == 999  # pandas writes through to the array
    r = np.array([1, 2])
    es = em.Series(r, copy=False)
    with pytest.raises(NotImplementedError, match="copy=False"):
        es.iloc[0] = 999
    with pytest.raises(NotImplementedError, match="copy=False"):
        es[0] = 999
    assert r[0] == 1


def test_setitem_on_copy_false_frame_refuses_write_through():
    r = np.array([1, 2])
    df = pd.DataFrame({"a": r, "b": [1.0, 2.0]}, copy=False)
    df.iloc[0, 0] = 999
    assert r[0] == 999
    r = np.array([1, 2])
    edf = em.DataFrame({"a": r, "b": [1.0, 2.0]}, copy=False)
    with pytest.raises(NotImplementedError, match="copy=False"):
        edf.iloc[0, 0] = 999


def test_setitem_after_copy_is_allowed():
    r = np.array([1, 2])
    es = em.Series(r)  # copies, as pandas' default
    es.iloc[0] = 999
    s = pd.Series(r)
    s.iloc[0] = 999
    assert_eq(es, s)
    assert r[0] == 1

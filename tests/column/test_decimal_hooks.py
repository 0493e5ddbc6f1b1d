"""Decimal columns through the shared operations: unary minus / abs, astype(float), and the
refusals where pandas computes with each Decimal object (round, nlargest's TypeError, merge keys)."""

from __future__ import annotations

import decimal

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

D = decimal.Decimal
VALUES = [D("1.10"), D("-2.25"), D("3.00"), D("0.00")]


@pytest.mark.parametrize("op", [lambda s: -s, abs, lambda s: s.astype(float), lambda s: s.astype("float32")])
def test_unary_and_float_casts_match_pandas(op) -> None:
    s = pd.Series(VALUES)
    assert_eq(op(em.from_pandas(s)), op(s))


def test_unary_of_none_raises_as_pandas() -> None:
    s = pd.Series([D("1.10"), None])
    for op in (lambda x: -x, abs):
        with pytest.raises(TypeError):
            op(s)
        with pytest.raises(TypeError):
            op(em.from_pandas(s))


@pytest.mark.parametrize("method", ["nlargest", "nsmallest"])
def test_nlargest_raises_as_pandas(method: str) -> None:
    s = pd.Series(VALUES)
    with pytest.raises(TypeError, match="dtype object"):
        getattr(s, method)(2)
    with pytest.raises(TypeError, match="dtype object"):
        getattr(em.from_pandas(s), method)(2)


def test_round_and_int_casts_refused_frame_round_skips() -> None:
    s = pd.Series(VALUES)
    e = em.from_pandas(s)
    with pytest.raises(NotImplementedError):
        e.round()
    with pytest.raises(NotImplementedError):
        e.astype(np.int64)
    df = pd.DataFrame({"p": s, "f": [1.26, 2.5, 3.5, 0.1]})
    assert_eq(em.from_pandas(df).round(1), df.round(1))  # pandas leaves object columns as they are


def test_merge_on_decimal_keys_refused() -> None:
    df = pd.DataFrame({"k": VALUES, "v": range(4)})
    e = em.from_pandas(df)
    with pytest.raises(NotImplementedError, match="Decimal"):
        e.merge(e, on="k")
    assert_eq(e.merge(e, on="v"), df.merge(df, on="v"))  # decimals as payload still merge

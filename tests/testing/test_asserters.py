"""ember.testing: assert_eq accepts what matches pandas and rejects what does not; the strategies draw
the dtypes they promise, with missing values where the dtype can hold them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.column import from_pandas
from ember.testing import assert_eq
from ember.testing import strategies as est


class FakeEmber:
    """Anything with to_pandas() counts as an ember object."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def to_pandas(self) -> Any:
        return self.obj


def test_series_frame_index() -> None:
    s = pd.Series([1.0, np.nan], name="a")
    assert_eq(FakeEmber(s.copy()), s)
    assert_eq(from_pandas(s, np).to_pandas(name="a"), s)
    df = pd.DataFrame({"a": [1, 2], "b": ["x", None]})
    assert_eq(FakeEmber(df.copy()), df)
    assert_eq(FakeEmber(pd.Index([1, 2], name="i")), pd.Index([1, 2], name="i"))
    with pytest.raises(AssertionError):
        assert_eq(FakeEmber(s.astype("float32")), s)
    assert_eq(FakeEmber(s.astype("float32")), s, check_dtype=False)
    with pytest.raises(AssertionError):
        assert_eq(FakeEmber(df[["b", "a"]]), df)
    with pytest.raises(AssertionError, match="expected two"):
        assert_eq(FakeEmber(df), s)


def test_column_is_converted() -> None:
    s = pd.Series([1, None], dtype="Int64")
    assert_eq(from_pandas(s, np), s)


def test_float_tolerance_passes_through() -> None:
    s = pd.Series([1.0, 2.0])
    assert_eq(FakeEmber(s + 1e-9), s)
    with pytest.raises(AssertionError):
        assert_eq(FakeEmber(s + 1e-9), s, check_exact=True)
    assert_eq(FakeEmber(s * 1.01), s, rtol=0.02)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (1.0, 1.0 + 1e-12),
        (np.float32(0.1), 0.1),
        (np.nan, float("nan")),
        (pd.NA, pd.NA),
        (pd.NaT, np.datetime64("NaT")),
        (None, None),
        (3, np.int64(3)),
        (np.iinfo(np.int64).max, np.iinfo(np.int64).max),
        ("日本", "日本"),
        (True, np.True_),
        (pd.Timestamp("2020-01-01"), pd.Timestamp("2020-01-01")),
        (float("inf"), np.inf),
        ((1, 2.0), (1, 2.0)),
    ],
    ids=repr,
)
def test_scalars_equal(left: Any, right: Any) -> None:
    assert_eq(left, right)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (1.0, 1.1),
        (np.nan, 1.0),
        (np.nan, pd.NA),
        (pd.NA, None),
        (True, 1),
        ("1", 1),
        (np.iinfo(np.int64).max, np.iinfo(np.int64).max - 1),
        (float("inf"), -float("inf")),
        ((1, 2), (1, 2, 3)),
    ],
    ids=repr,
)
def test_scalars_differ(left: Any, right: Any) -> None:
    with pytest.raises(AssertionError):
        assert_eq(left, right)


def test_missing_kinds_with_check_dtype_off() -> None:
    assert_eq(np.nan, pd.NA, check_dtype=False)
    assert_eq(True, 1, check_dtype=False)


def test_arrays() -> None:
    assert_eq(np.array([1.0, np.nan]), np.array([1.0, np.nan]))
    assert_eq(np.array(["a", np.nan], dtype=object), np.array(["a", None], dtype=object))
    with pytest.raises(AssertionError):
        assert_eq(np.array([1, 2]), np.array([1.0, 2.0]))
    with pytest.raises(AssertionError):
        assert_eq(np.array(["a", np.nan], dtype=object), np.array(["a", "b"], dtype=object))


@settings(max_examples=20, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("dtype", est.ALL_DTYPES)
def test_series_strategy_dtypes(dtype: str, data: Any) -> None:
    s = data.draw(est.series_strategy(dtype, max_size=10, name="v"))
    assert s.name == "v" and len(s) <= 10
    if dtype not in ("str", "category"):
        assert s.dtype == pd.api.types.pandas_dtype(dtype)
    if dtype == "category":
        assert isinstance(s.dtype, pd.CategoricalDtype)
    if dtype == "str":
        assert s.dtype == pd.Series(["a"]).dtype
    if not est.can_hold_missing(dtype):
        assert not s.isna().any()


def test_strategies_draw_nulls_and_non_ascii() -> None:
    seen = {"null": False, "non_ascii": False}

    @settings(max_examples=200, deadline=None)
    @given(est.series_strategy("str", min_size=5))
    def check(s: pd.Series) -> None:
        seen["null"] |= bool(s.isna().any())
        seen["non_ascii"] |= any(isinstance(v, str) and not v.isascii() for v in s)

    check()
    assert seen == {"null": True, "non_ascii": True}


def test_nulls_off_and_fixed_size() -> None:
    @settings(max_examples=20, deadline=None)
    @given(
        est.series_strategy("Int64", size=7, nulls=False), est.series_strategy("category", categories=[1, 2])
    )
    def check(s: pd.Series, c: pd.Series) -> None:
        assert len(s) == 7 and not s.isna().any()
        assert list(c.cat.categories) == [1, 2]

    check()


def test_frame_strategy() -> None:
    @settings(max_examples=20, deadline=None)
    @given(
        est.frame_strategy({"k": "int8", "s": "str", "t": "datetime64[us]"}, min_size=1, max_size=5),
        est.frame_strategy(["float64", "boolean"], elements={"c0": st.floats(0, 1)}),
    )
    def check(df: pd.DataFrame, df2: pd.DataFrame) -> None:
        assert list(df.columns) == ["k", "s", "t"] and 1 <= len(df) <= 5
        assert df["k"].dtype == np.int8 and df["t"].dtype == "datetime64[us]"
        assert list(df2.columns) == ["c0", "c1"]
        assert ((df2["c0"] >= 0) & (df2["c0"] <= 1) | df2["c0"].isna()).all()

    check()


def test_unknown_dtype() -> None:
    with pytest.raises(ValueError, match="unknown dtype"):
        est.series_strategy("complex128")

"""Reductions as the differential fuzzer found them (result labels, dtypes of float32 / masked data,
large integers, NaN values of masked floats): pandas' answer computed with the installed pandas."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _same_scalar(got, want):
    if want is pd.NA or want is pd.NaT:
        assert got is want, (got, want)
    elif isinstance(want, float) and np.isnan(want):
        assert isinstance(got, (float, np.floating)) and np.isnan(got), (got, want)
        assert type(got) is type(want), (got, want)
    else:
        assert got == want, (got, want)
        assert type(got) is type(want), (got, want)


def _check(fn, pdobj):
    """ember answers as pandas does, or raises pandas' exception type."""
    emobj = em.from_pandas(pdobj)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = fn(pdobj)
        except Exception as exc:  # noqa: BLE001 - ember must raise pandas' exception type
            with pytest.raises(type(exc)):
                fn(emobj)
            return
        got = fn(emobj)
    if isinstance(want, (pd.Series, pd.DataFrame)):
        assert_eq(got, want)
    else:
        _same_scalar(got, want)


# --- the result index is the frame's column axis: its name(s) and dtype --------------------------

FRAME_OPS = ["sum", "prod", "mean", "median", "min", "max", "std", "var", "sem", "count", "nunique",
             "any", "all", "skew", "kurt", "idxmin", "idxmax", "quantile"]  # fmt: skip


def _pivot_uint8():
    df = pd.DataFrame({"b": pd.Series([42], dtype="UInt8"), "c": pd.Series([3], dtype="int64")})
    df = df.set_axis(pd.RangeIndex(11, 12, 1))
    return df.pivot_table(values="b", index="c", columns="b", fill_value=0, dropna=True, observed=True)


@pytest.mark.parametrize("op", FRAME_OPS)
def test_pivot_columns_name_and_dtype_label_the_result(op):
    _check(lambda d: getattr(d, op)(), _pivot_uint8())


@pytest.mark.parametrize("op", FRAME_OPS)
@pytest.mark.parametrize(
    "columns",
    [
        pd.Index(["x", "y"], name="nm"),
        pd.Index([3, 4], dtype="uint8", name="u"),
        pd.RangeIndex(2, name="r"),
        pd.Index([pd.Timestamp("2020-01-01"), pd.Timestamp("2020-02-01")], name="t"),
        pd.MultiIndex.from_tuples([("a", 1), ("a", 2)], names=["k", "n"]),
    ],
)
def test_named_column_axis_labels_every_reduction(op, columns):
    df = pd.DataFrame({"p": [1.0, 2.0, 4.0], "q": [3.0, 1.0, 2.0]}).set_axis(columns, axis=1)
    _check(lambda d: getattr(d, op)(), df)


@pytest.mark.parametrize("op", ["sum", "min", "count", "nunique", "mean"])
def test_named_column_axis_no_column_left(op):
    df = pd.DataFrame({"s": ["a", "b"]}).set_axis(pd.Index(["s"], name="nm"), axis=1)
    _check(lambda d: getattr(d, op)(numeric_only=True) if op != "nunique" else d[[]].nunique(), df)


def test_nunique_of_pivot_reset_index_keeps_the_axis_name():
    df = pd.DataFrame(
        {
            "b": pd.Series([None, None, None], dtype="boolean"),
            "e": pd.Series([False, True, False], dtype="bool"),
            "e_o": pd.Series([1, 2, 3], dtype="int64"),
        }
    )
    r = df.pivot_table(values="e_o", index="e", columns="b", aggfunc="max", observed=True, dropna=False)
    _check(lambda d: d.reset_index()[["e"]].nunique(axis=0), r)


@pytest.mark.parametrize("q", [0.5, [0.5, 0.25]])
@pytest.mark.parametrize(
    "df",
    [
        pd.DataFrame({"a": pd.array([1, 2], dtype="Int64")}),
        pd.DataFrame({"a": pd.array([1, 2], dtype="Int64"), "b": [1.0, 2.0]}),
        pd.DataFrame({"a": pd.array([None, None], dtype="Int64"), "b": [1.0, 2.0]}),
        pd.DataFrame({"a": pd.array([None, None], dtype="Float32")}),
        pd.DataFrame({"a": pd.array([None, None], dtype="Int8")}),
        pd.DataFrame({"a": pd.array([1, 2], dtype="UInt8"), "b": pd.array([1, 2], dtype="Float32")}),
        pd.DataFrame({"a": pd.array([], dtype="UInt8"), "b": pd.array([], dtype="Float32")}),
        pd.DataFrame({"a": pd.array([None, None], dtype="Int8"), "b": pd.array([1, 2], dtype="float32")}),
        pd.DataFrame({"a": pd.array([None, None], dtype="Int8"), "b": pd.array([None, 2], dtype="Float32")}),
    ],
)
def test_quantile_of_masked_columns_is_masked(df, q):
    _check(lambda d: d.quantile(q), df)

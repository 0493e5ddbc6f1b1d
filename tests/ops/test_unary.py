"""negate / invert / absolute / round_ / clip / apply_ufunc / isin / between / map_values / astype vs pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ember.column import from_pandas
from ember.ops.unary import (
    absolute,
    apply_ufunc,
    astype,
    between,
    clip,
    invert,
    isin,
    map_values,
    negate,
    round_,
)

F = pd.Series([1.26, np.nan, -2.5, 3])
INT64 = pd.Series([1, None, -3], dtype="Int64")
I8 = pd.Series([1, -2, 3], dtype="int8")
B = pd.Series([True, False])
S = pd.Series(["a", None, "bb", "c"])
DT = pd.Series(pd.to_datetime(["2020-01-01", None, "2020-03-01"]))
TD = pd.Series(pd.to_timedelta([1, -2, None], unit="s"))
CAT = pd.Series(pd.Categorical(["a", None, "b"]))


def check(got, expected):
    pd.testing.assert_series_equal(got.to_pandas(), expected, check_names=False)


@pytest.mark.parametrize("s", [F, INT64, I8, TD], ids=["float", "Int64", "int8", "timedelta"])
def test_negate_abs(s, xp):
    check(negate(from_pandas(s, xp)), -s)
    check(absolute(from_pandas(s, xp)), abs(s))


@pytest.mark.parametrize("s", [INT64, I8, B, pd.Series([True, None], dtype="boolean")], ids=str)
def test_invert(s, xp):
    check(invert(from_pandas(s, xp)), ~s)


def test_bool_negate_is_not(xp):
    check(negate(from_pandas(B, xp)), -B)


def test_round(xp):
    check(round_(from_pandas(F, xp), 1), F.round(1))
    check(round_(from_pandas(I8, xp), -1), I8.round(-1))
    check(round_(from_pandas(INT64, xp)), INT64.round())


def test_clip(xp):
    check(clip(from_pandas(F, xp), 0, 2), F.clip(0, 2))
    check(clip(from_pandas(I8, xp), 0.5, None), I8.clip(0.5))
    check(clip(from_pandas(INT64, xp), 0, 2), INT64.clip(0, 2))
    check(clip(from_pandas(DT, xp), pd.Timestamp("2020-02-01")), DT.clip(pd.Timestamp("2020-02-01")))


@pytest.mark.parametrize("ufunc", [np.sin, np.exp, np.sqrt, np.log1p, np.isnan], ids=lambda u: u.__name__)
@pytest.mark.parametrize("s", [F, INT64, I8], ids=["float", "Int64", "int8"])
def test_unary_ufuncs(ufunc, s, xp):
    with np.errstate(all="ignore"):
        check(apply_ufunc(ufunc, from_pandas(s, xp)), ufunc(s))


def test_binary_and_multi_output_ufuncs(xp):
    rev = F[::-1].reset_index(drop=True)
    check(apply_ufunc(np.add, from_pandas(F, xp), 2), np.add(F, 2))
    check(apply_ufunc(np.subtract, 2, from_pandas(F, xp)), np.subtract(2, F))
    check(apply_ufunc(np.maximum, from_pandas(F, xp), from_pandas(rev, xp)), np.maximum(F, rev))
    frac, whole = apply_ufunc(np.modf, from_pandas(F, xp))
    efrac, ewhole = np.modf(F)
    check(frac, efrac)
    check(whole, ewhole)


@pytest.mark.parametrize(
    ("s", "values"),
    [
        (F, [1.26, 3, np.nan]), (F, [3]), (INT64, [1, None]), (INT64, [-3]), (I8, [1, 3.0, "a"]),
        (S, ["a", "c", "zz"]), (S, ["a", None]), (S, []), (DT, [pd.Timestamp("2020-01-01"), "2020-03-01"]),
        (DT, [pd.NaT]), (CAT, ["b"]), (pd.Series([], dtype=float), [1]), (I8, {1, 3}), (I8, np.array([3])),
    ],
)  # fmt: skip
def test_isin(s, values, xp):
    check(isin(from_pandas(s, xp), values), s.isin(values))


def test_isin_scalar_raises(xp):
    with pytest.raises(TypeError):
        isin(from_pandas(I8, xp), 1)


@pytest.mark.parametrize("inclusive", ["both", "neither", "left", "right"])
def test_between(inclusive, xp):
    check(between(from_pandas(F, xp), -2.5, 1.26, inclusive), F.between(-2.5, 1.26, inclusive))
    check(
        between(from_pandas(DT, xp), "2019-12-31", "2020-01-01", inclusive),
        DT.between("2019-12-31", "2020-01-01", inclusive),
    )


@pytest.mark.parametrize(
    ("s", "mapping"),
    [
        (I8, {1: "one", 3: "three"}), (I8, {1: 10, -2: 20, 3: 30}), (I8, {1: 10}), (S, {"a": 1, "bb": 2}),
        (F, {1.26: "x"}), (CAT, {"a": 1.5}),
    ],
)  # fmt: skip
def test_map_values(s, mapping, xp):
    check(map_values(from_pandas(s, xp), mapping), s.map(mapping))


@pytest.mark.parametrize(
    ("s", "dtype"),
    [
        (I8, "float32"), (I8, "int64"), (F, "Float64"), (INT64, "float64"), (INT64, "Float64"), (I8, "Int64"),
        (B, "boolean"), (pd.Series([1.0, 2.0]), "Int8"), (DT, "datetime64[s]"), (DT, "int64"),
        (I8, "category"), (F, "category"), (S, "category"), (I8, str), (F, "string"), (pd.Series(["1", "2"]), "int64"),
        (TD, "timedelta64[ms]"), (I8, bool), (pd.Series([0.0, 1.5]), bool),
    ],
)  # fmt: skip
def test_astype(s, dtype, xp):
    check(astype(from_pandas(s, xp), dtype), s.astype(dtype))


@pytest.mark.parametrize(("s", "dtype"), [(F, "int64"), (INT64, "int64"), (pd.Series([1.5]), "Int64")])
def test_astype_errors(s, dtype, xp):
    with pytest.raises(Exception) as pandas_err:
        s.astype(dtype)
    with pytest.raises(type(pandas_err.value)):
        astype(from_pandas(s, xp), dtype)

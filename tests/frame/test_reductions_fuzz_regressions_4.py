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


# --- float32 results: pandas keeps float32 where the rows' common dtype is float32 -------------

F32_FRAMES = {
    "f32": pd.DataFrame({"a": np.array([1.5, np.nan, 2.0], dtype="float32")}),
    "f32+u8": pd.DataFrame({"a": np.array([1.5, np.nan, 2.0], dtype="float32"), "b": np.array([1, 2, 3], dtype="uint8")}),
    "f32+i64": pd.DataFrame({"a": np.array([1.5, np.nan, 2.0], dtype="float32"), "b": np.array([1, 2, 3], dtype="int64")}),
    "f32+F32": pd.DataFrame({"a": np.array([1.5, np.nan, 2.0], dtype="float32"), "b": pd.array([1, None, 3], dtype="Float32")}),
    "f32 all nan": pd.DataFrame({"a": np.array([np.nan, np.nan], dtype="float32")}),
    "no rows f32": pd.DataFrame({"a": np.array([], dtype="float32")}),
    "no rows u8+f32": pd.DataFrame({"b": pd.Series([], dtype="uint8"), "a": pd.Series([], dtype="float32")}),
    "no rows i16+f32": pd.DataFrame({"b": pd.Series([], dtype="int16"), "a": pd.Series([], dtype="float32")}),
    "no rows Float32": pd.DataFrame({"b": pd.Series([], dtype="Float32")}),
}  # fmt: skip


@pytest.mark.parametrize("name", list(F32_FRAMES))
@pytest.mark.parametrize("op", ["sum", "prod", "mean", "median", "min", "max", "std", "var", "sem"])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("skipna", [True, False])
def test_float32_reductions_keep_pandas_dtype(name, op, axis, skipna):
    _check(lambda d: getattr(d, op)(axis=axis, skipna=skipna), F32_FRAMES[name])


@pytest.mark.parametrize("name", list(F32_FRAMES))
@pytest.mark.parametrize("op", ["sum", "prod"])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("min_count", [1, 3])
def test_float32_sum_min_count(name, op, axis, min_count):
    _check(lambda d: getattr(d, op)(axis=axis, min_count=min_count), F32_FRAMES[name])


@pytest.mark.parametrize("name", [k for k in F32_FRAMES if "F32" not in k])
def test_nunique_axis1(name):
    _check(lambda d: d.nunique(axis=1), F32_FRAMES[name])


def test_sem_axis1_of_no_rows_is_float64():
    df = pd.DataFrame({"b": pd.Series([], dtype="uint8"), "a": pd.Series([], dtype="float32")})
    _check(lambda d: d[["b", "a"]].sem(axis=1), df)


# --- large integers: pandas' accumulation (float64 for a mean, masked: NumPy's where= reduction) --

BIG = [1, 5, -9223372036854775808, -1, None, 9223372036854775807, -1]


@pytest.mark.parametrize("dtype", ["Int64", "int64", "float64"])
@pytest.mark.parametrize("op", ["sum", "mean", "prod", "min", "max"])
@pytest.mark.parametrize("drop", [True, False])
def test_sum_mean_of_int64_extremes(dtype, op, drop, backend):
    if backend == "gpu" and (op == "mean" or (op == "sum" and dtype == "float64")):
        # values of 2**63 cancel in float64: the answer is the order of additions, NumPy's pairwise
        # one on the host, CuPy's tree on the device (neither the exact sum)
        pytest.skip("float64 cancellation of int64 extremes: the summation order decides")
    s = pd.Series(BIG, dtype="Int64", name="a")
    if drop or dtype != "Int64":
        s = s.dropna()
    s = s.astype(dtype)
    _check(lambda d: getattr(d, op)(), s)
    _check(lambda d: getattr(d.to_frame(), op)(), s)


# --- NaN values held by a masked float column: values, not missing ------------------------------


def _float_array(data, mask, dtype="Float64"):
    values = np.array(data, dtype=dtype.lower())
    return pd.Series(pd.arrays.FloatingArray(values, np.array(mask, dtype=bool)))


NAN_VALUED = [
    _float_array([np.nan, 1.0, 2.0], [0, 0, 1]),
    _float_array([1.0, np.nan, 2.0], [0, 0, 0]),
    _float_array([np.nan, np.nan], [0, 0]),
    _float_array([np.nan, 3.0], [1, 0]),
    _float_array([2.0, np.nan, np.inf], [0, 0, 0], "Float32"),
]


@pytest.mark.parametrize("i", range(len(NAN_VALUED)))
@pytest.mark.parametrize(
    "op",
    ["sum", "mean", "min", "max", "std", "var", "sem", "idxmin", "idxmax", "median", "prod", "any", "all"],
)
@pytest.mark.parametrize("skipna", [True, False])
def test_nan_values_of_masked_floats(i, op, skipna):
    s = NAN_VALUED[i]
    _check(lambda d: getattr(d, op)(skipna=skipna), s)
    _check(lambda d: getattr(d, op)(skipna=skipna), pd.DataFrame({"a": s, "b": [1.0] * len(s)}))


@pytest.mark.parametrize("i", range(len(NAN_VALUED)))
@pytest.mark.parametrize("op", ["count", "nunique"])
def test_nan_values_of_masked_floats_count(i, op):
    s = NAN_VALUED[i]
    _check(lambda d: getattr(d, op)(), s)
    _check(lambda d: getattr(d, op)(), pd.DataFrame({"a": s}))


# --- masked row reductions: a NaN result (inf - inf) is NA --------------------------------------

ROW_FRAMES = [
    pd.DataFrame({"b": np.array([-np.inf, 1.0], dtype="float32"), "a": pd.array([2, 3], dtype="Int64")}),
    pd.DataFrame({"b": [np.inf, 1.0], "a": pd.array([-np.inf, None], dtype="Float64")}),
    pd.DataFrame({"b": [np.inf, 0.0], "a": pd.array([0, None], dtype="Int64")}),
]


@pytest.mark.parametrize("i", range(len(ROW_FRAMES)))
@pytest.mark.parametrize("op", ["sum", "prod", "mean", "median", "min", "max", "std", "var", "sem"])
@pytest.mark.parametrize("skipna", [True, False])
def test_masked_row_reduction_nan_is_na(i, op, skipna):
    _check(lambda d: getattr(d, op)(axis=1, skipna=skipna), ROW_FRAMES[i])


def test_var_axis1_after_join_of_float32_inf_and_int64():
    df = pd.DataFrame({"b": pd.Series(["0 days 01:00:00"], dtype="timedelta64[s]")}).set_axis(
        pd.Index(["r1"], dtype="str")
    )
    o1 = pd.DataFrame(
        {"b_o": pd.Series([-np.inf], dtype="float32"), "a_o": pd.Series([2], dtype="Int64")}
    ).set_axis(pd.Index(["r1"], dtype="str"))
    _check(
        lambda d: (
            d.drop(columns=["b"])
            .join(o1 if isinstance(d, pd.DataFrame) else em.from_pandas(o1), how="inner")
            .var(axis=1)
        ),
        df,
    )


# --- DataFrame.idxmax of a masked boolean column ------------------------------------------------


@pytest.mark.parametrize(
    "values", [[None, False, True], [False, None, True], [None, True, False], [True, None, False]]
)
def test_frame_idxmax_of_masked_bools_is_the_series_answer(values):
    """pandas' DataFrame.idxmax runs nanargmax over the boolean data with its NA filled by -inf
    (True): an NA before the first True makes it answer the first valid position, a False
    (pandas' Series.idxmax answers the True). ember gives the Series' answer for both."""
    s = pd.Series(values, dtype="boolean")
    got = em.from_pandas(s.to_frame("d")).idxmax()
    assert got.to_pandas().tolist() == [s.idxmax()]
    assert_eq(em.from_pandas(s.to_frame("d")).idxmin(), s.to_frame("d").idxmin())

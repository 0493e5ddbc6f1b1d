"""Divergences the differential fuzzer found: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
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


@pytest.mark.parametrize("labels", [[3, 0, 2, 2, 0], [0, 2, 3], [0, 1, 2], [0, 2, 4], [5]], ids=str)
@pytest.mark.parametrize("how", ["outer", "inner", "left", "right"])
def test_join_of_an_empty_range_indexed_frame_with_int32_labels(labels, how):
    """pandas joins an increasing arithmetic sequence beside a RangeIndex as a range (int64 labels),
    other int32 labels as they are."""
    empty = pd.DataFrame({"a": pd.Series([], dtype="float64")})
    full = pd.DataFrame({"d": range(len(labels))}, index=pd.Index(labels, dtype="int32"))
    for a, b in ((empty, full), (full, empty)):
        assert_eq(em.from_pandas(a).join(em.from_pandas(b), how=how), a.join(b, how=how))


SKEW_KURT_DATA = {
    "thirteenths": np.full(13, 1 / 13),
    "nearly equal": np.array([0.1] * 7 + [0.1 + 1e-17]),
    "one ulp apart": np.array([1.0, 1.0, 1.0, 1.0 + 2**-52]),
    "equal": np.array([3.3] * 5),
    "huge equal": np.array([1e300] * 4),
    "one differs": np.array([0.1, 0.2, 0.1, 0.1]),
    "equal with NaN": np.array([1.0, np.nan, 1.0, 1.0, 1.0]),
    "normal": np.random.default_rng(0).normal(size=50),
    "offset": np.random.default_rng(1).normal(size=50) * 1e6 + 1e9,
}


@pytest.mark.parametrize("op", ["skew", "kurt"])
@pytest.mark.parametrize("name", list(SKEW_KURT_DATA))
def test_skew_kurt_of_equal_and_nearly_equal_values(name, op, backend):
    if name == "thirteenths" and backend == "gpu" and not PANDAS_31:
        pytest.skip(
            "pandas 3.0 calls values constant by a rounding-noise tolerance: the summation order decides"
        )
    s = pd.Series(SKEW_KURT_DATA[name])
    assert_eq(getattr(em.from_pandas(s), op)(), getattr(s, op)())
    frame = s.to_frame().T
    assert_eq(getattr(em.from_pandas(frame), op)(axis=1), getattr(frame, op)(axis=1))


@pytest.mark.parametrize("op", ["__and__", "__or__", "__xor__", "__rand__", "__ror__"])
@pytest.mark.parametrize(
    "objects",
    [
        pd.Series([True, None, False, None], dtype=object),
        pd.Series([True, np.nan, False, True], dtype=object),
        pd.Series([True, pd.NA, False, pd.NA], dtype=object),
        pd.Series([True, None, False], dtype=object, index=[0, 1, 5]),
    ],
    ids=["None", "NaN", "NA", "None other labels"],
)
def test_logical_ops_of_masked_bools_with_object_bools_read_the_markers(objects, op):
    """pandas' BooleanArray reads an object operand as bool(value): None False, NaN True, NA raises."""
    masked = pd.Series([True, None, False, None], dtype="boolean")
    for a, b in ((masked, objects), (objects, masked)):
        try:
            want = getattr(a, op)(b)
        except TypeError:
            with pytest.raises(TypeError):
                getattr(em.from_pandas(a), op)(em.from_pandas(b))
            continue
        assert_eq(getattr(em.from_pandas(a), op)(em.from_pandas(b)), want)
        fa, fb = a.to_frame("x"), b.to_frame("x")
        assert_eq(getattr(em.from_pandas(fa), op)(em.from_pandas(fb)), getattr(fa, op)(fb))


def test_nan_column_label_found_whichever_nan_object():
    pdf = pd.DataFrame([[1.0, 2.0]], columns=pd.Index([3.0, float("nan")]))
    df = em.from_pandas(pdf)
    for key in (np.nan, float("nan"), np.float64("nan")):
        assert_eq(df[key], pdf[key])
        assert_eq(df[[3.0, key]], pdf[[3.0, key]])
        assert (key in df) == (key in pdf)


@pytest.mark.parametrize("other", [pd.Series(["B", "10", ""], dtype=object), pd.Series(["B", "10", ""])])
def test_combine_first_of_bools_with_strings_is_refused(other):
    """pandas makes an object column mixing bools and strings: ember refuses it clearly."""
    s = pd.Series([np.nan, False, False], dtype=object)
    with pytest.raises(NotImplementedError):
        em.from_pandas(s).combine_first(em.from_pandas(other))


def test_str_methods_ember_lacks_are_not_implemented_not_missing():
    s = em.Series(["abc", None])
    with pytest.raises(NotImplementedError):
        s.str.join("-")
    with pytest.raises(AttributeError):
        s.str.no_such_method  # noqa: B018


@pytest.mark.parametrize("values", [["a", np.nan], [np.nan], [np.nan, np.nan], ["ab"], []], ids=str)
@pytest.mark.parametrize("i", [0, 5])
def test_str_get_of_object_columns_keeps_pandas_dtype(values, i):
    """A column of missing values only stays object; strings with no character there give float64."""
    s = pd.Series(values, dtype=object)
    assert_eq(em.from_pandas(s).str.get(i), s.str.get(i))


def test_fillna_of_int64_extremes_from_uint64_keeps_the_values():
    s = pd.Series([2**63 - 1, None], dtype="Int64")
    other = pd.Series([], dtype="uint64", index=pd.DatetimeIndex([], dtype="datetime64[s]"))
    assert_eq(em.from_pandas(s).fillna(em.from_pandas(other)), s.fillna(other))
    big = pd.Series([1, 2, 2**64 - 1], dtype="uint64")
    s = pd.Series([2**63 - 1, None, 5], dtype="Int64")
    cond = pd.Series([True, False, True])
    assert_eq(em.from_pandas(s).where(em.from_pandas(cond), em.from_pandas(big)), s.where(cond, big))


@pytest.mark.parametrize(
    "values, periods", [(["日本"], 1), (["ab"], 5), (["a", "b"], 1), (["a", None, "b"], 2)]
)
def test_pct_change_of_object_columns(values, periods):
    s = pd.Series(values, dtype=object)
    try:
        want = s.pct_change(periods)
    except TypeError:
        with pytest.raises(TypeError):
            em.from_pandas(s).pct_change(periods)
        return
    assert_eq(em.from_pandas(s).pct_change(periods), want)
    assert_eq(em.from_pandas(s.to_frame()).pct_change(periods), s.to_frame().pct_change(periods))


@pytest.mark.parametrize("op", ["median", "mean", "sum", "std", "var", "min", "max", "prod", "sem"])
def test_groupby_nan_results_of_masked_floats_are_na(op):
    """inf - inf and inf * 0 in a Float64 group: pandas gives <NA>, not a NaN value."""
    s = pd.Series([-np.inf, np.inf, 1.0, np.inf, 0.0], dtype="Float64")
    key = pd.Series([1, 1, 2, 3, 3])
    assert_eq(getattr(em.from_pandas(s).groupby(em.from_pandas(key)), op)(), getattr(s.groupby(key), op)())


@pytest.mark.parametrize("dtype", ["str", object])
def test_concat_after_an_empty_tail_of_strings(dtype):
    s = pd.Series(["ab", "cd", "e"], dtype=dtype)
    e = em.from_pandas(s)
    assert_eq(em.concat([e.tail(0), e]), pd.concat([s.tail(0), s]))
    assert_eq(em.concat([e.iloc[3:], e.iloc[1:2]]), pd.concat([s.iloc[3:], s.iloc[1:2]]))


def test_count_of_a_list_column():
    s = pd.Series(["a b", None, "c"]).str.split()
    assert em.from_pandas(pd.Series(["a b", None, "c"])).str.split().count() == s.count()


@pytest.mark.parametrize("op", ["cummin", "cummax", "cumsum", "min", "max", "sum"])
@pytest.mark.parametrize("values", [[], ["a b", "c"]], ids=["empty", "lists"])
def test_reductions_and_scans_of_list_columns_are_refused_clearly(op, values):
    """pandas compares / adds Python lists row by row; ember refuses with NotImplementedError."""
    s = em.from_pandas(pd.Series(values, dtype=object)).str.split()
    with pytest.raises(NotImplementedError):
        getattr(s, op)()


@pytest.mark.parametrize("method", ["nlargest", "nsmallest"])
def test_nlargest_by_a_timestamp_column_label(method):
    pdf = (
        pd.DataFrame({"a": [10, 3]})
        .set_axis(pd.DatetimeIndex(["2024-01-01 01:00", "2024-01-02"], name="idx"))
        .T
    )
    key = pd.Timestamp("2024-01-01 01:00")
    assert_eq(getattr(em.from_pandas(pdf), method)(1, key), getattr(pdf, method)(1, key))
    both = pd.DataFrame({"a": [3, 1, 2], "b": [1, 2, 3]})
    with pytest.raises(KeyError):  # a tuple is one label
        getattr(both, method)(2, ("a", "b"))
    with pytest.raises(KeyError):
        getattr(em.from_pandas(both), method)(2, ("a", "b"))


@pytest.mark.parametrize(
    "other",
    [
        pd.Series([None, "z", None], dtype="string"),
        pd.Series(["z", np.nan, np.nan], dtype=object),
        pd.Series(["z", None, None], dtype=object),
        pd.Series(["z", None, None], dtype="str"),
    ],
    ids=["string NA", "object NaN", "object None", "str"],
)
def test_object_string_fills_keep_the_missing_value_of_their_source(other):
    """pandas keeps each row's own missing value: a row taken from ``other`` shows other's."""
    s = pd.Series(["a", None, "b"], dtype=object)
    cond = pd.Series([True, False, True])
    assert_eq(em.from_pandas(s).where(em.from_pandas(cond), em.from_pandas(other)), s.where(cond, other))
    assert_eq(em.from_pandas(s).fillna(em.from_pandas(other)), s.fillna(other))
    got = em.from_pandas(s).fillna(em.from_pandas(other)).to_pandas()
    assert [type(v) for v in got] == [type(v) for v in s.fillna(other)]


@pytest.mark.parametrize(
    "labels", [["index", 0], ["index", "x"], [1, 0]], ids=["str and int", "object strings", "object ints"]
)
def test_melt_variable_column_keeps_the_column_axis_dtype(labels):
    """pandas repeats the labels' own array: labels held as object give an object variable column."""
    pdf = pd.DataFrame([["e", 0]])
    pdf.columns = pd.Index(labels, dtype=object)
    ids = ["index"] if "index" in labels else None
    want = pdf.melt(id_vars=ids)
    if not all(isinstance(v, str) for v in want["variable"]):  # object ints: ember refuses them
        with pytest.raises(NotImplementedError):
            em.from_pandas(pdf).melt(id_vars=ids)
        return
    assert_eq(em.from_pandas(pdf).melt(id_vars=ids), want)


@pytest.mark.parametrize("method", ["len", "count", "find", "rfind"])
@pytest.mark.parametrize("missing", [pd.NA, None, np.nan], ids=["NA", "None", "NaN"])
def test_str_numbers_of_object_columns_follow_the_missing_value(method, missing):
    """pandas gives float64 beside None / NaN, an object column of ints beside pd.NA (refused)."""
    s = pd.Series(["ab", missing, "c"], dtype=object)
    call = (
        (lambda x: getattr(x.str, method)()) if method == "len" else (lambda x: getattr(x.str, method)("a"))
    )
    want = call(s)
    if want.dtype == object:
        with pytest.raises(NotImplementedError):
            call(em.from_pandas(s))
    else:
        assert_eq(call(em.from_pandas(s)), want)


@pytest.mark.parametrize(
    "divisor",
    [
        3,
        np.int64(3),
        3.0,
        2.5,
        -3,
        0,
        0.0,
        [3, 3, 3, 0],
        [3.0, 3, 3, 3],
        ("Int64", [3, None, 3, 3]),
        ("uint8", [3] * 4),
    ],
    ids=str,
)
def test_timedeltas_divided_by_integers_truncate_as_numpy(divisor):
    """NumPy divides timedelta ticks by integers as integers (toward zero), by floats through float64."""
    s = pd.Series([pd.Timedelta(31536007000000000), pd.Timedelta(-8), pd.NaT, pd.Timedelta(7)])
    if isinstance(divisor, tuple):
        divisor = pd.Series(divisor[1], dtype=divisor[0])
    elif isinstance(divisor, list):
        divisor = pd.Series(divisor)
    other = em.from_pandas(divisor) if isinstance(divisor, pd.Series) else divisor
    assert_eq(em.from_pandas(s) / other, s / divisor)

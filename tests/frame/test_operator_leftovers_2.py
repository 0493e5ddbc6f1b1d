"""Operators and fills: cases where ember gave an answer of its own (or raised) where pandas answers
or raises. Each case runs the same code on pandas and on ember: ember gives pandas' result or raises
pandas' exception type."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _check(case):
    """ember's result equals pandas', or both raise the same builtin exception type."""
    try:
        expected, error = case(pd), None
    except Exception as exc:  # noqa: BLE001 - pandas' exception type is the expectation
        expected, error = None, exc
    if error is not None:
        builtin = next(t for t in type(error).__mro__ if t.__module__ == "builtins")
        with pytest.raises(builtin):
            case(em)
        return
    assert_eq(case(em), expected)


def _s(lib, *args, **kwargs):
    return lib.Series(*args, **kwargs) if lib is pd else em.from_pandas(pd.Series(*args, **kwargs))


def _df(lib, *args, **kwargs):
    return lib.DataFrame(*args, **kwargs) if lib is pd else em.from_pandas(pd.DataFrame(*args, **kwargs))


@pytest.mark.parametrize("op", ["floordiv", "mod", "rfloordiv", "rmod"])
@pytest.mark.parametrize("dtype", ["uint8", "int64", "int32"])
def test_series_flex_int_division_by_zero_keeps_numpy_dtype(op, dtype):
    # pandas' Series flex methods apply NumPy's operator to the aligned arrays: x // 0 is 0
    def case(lib):
        a = _s(lib, [1, 42, 0, 3, 100], dtype=dtype)
        b = _s(lib, [100, 2, 0, 0, 7], dtype=dtype)
        return getattr(a, op)(b)

    _check(case)


@pytest.mark.parametrize("op", ["floordiv", "mod"])
def test_series_flex_int_division_misaligned(op):
    def case(lib):
        a = _s(lib, [1, 42, 3], dtype="uint8", index=[0, 1, 2])
        b = _s(lib, [0, 2, 0], dtype="uint8", index=[1, 2, 3])
        return getattr(a, op)(b)

    _check(case)


@pytest.mark.parametrize("op", ["__floordiv__", "__mod__"])
def test_series_int_division_operator_still_fills(op):
    def case(lib):
        a = _s(lib, [1, 42, 3], dtype="uint8")
        b = _s(lib, [100, 2, 0], dtype="uint8")
        return getattr(a, op)(b)

    _check(case)


_LOGIC_OPERANDS = {
    "bool": ([True, False, True], "bool", None),
    "bool_other_labels": ([True, True], "bool", [1, 5]),
    "int_other_labels": ([1, 0, 3, 4], "int64", [1, 2, 3, 4]),
    "int_more_labels": ([1, 0, 3, 5], "int64", None),
    "uint8_other_labels": ([1, 0, 3], "uint8", [1, 2, 3]),
    "float": ([1.0, 0.0, 3.0], "float64", None),
    "float_other_labels": ([1.0, 0.0, 3.0], "float64", [5, 6, 7]),
    "float_all_nan": ([None, None, None], "float64", [2, 1, 0]),
    "int_reordered": ([1, 0, 3], "int64", [2, 1, 0]),
}


@pytest.mark.parametrize("op", ["__and__", "__or__", "__xor__"])
@pytest.mark.parametrize("right", list(_LOGIC_OPERANDS))
@pytest.mark.parametrize("left", list(_LOGIC_OPERANDS))
def test_series_logical_float_operands(left, right, op):
    # pandas applies Python's operator where a float meets a value (TypeError); an int Series
    # meets a bool Series' missing labels as False
    def case(lib):
        (lv, ld, li), (rv, rd, ri) = _LOGIC_OPERANDS[left], _LOGIC_OPERANDS[right]
        return getattr(_s(lib, lv, dtype=ld, index=li), op)(_s(lib, rv, dtype=rd, index=ri))

    _check(case)


def _all_missing_objects(lib, kind):
    if kind == "bool_reindexed":  # a bool column given missing rows: pandas' object True/False/NaN
        s = pd.Series([True, False]).reindex([5, 6])
    else:
        s = pd.Series([np.nan, None], dtype=object)
    return s if lib is pd else em.from_pandas(s)


@pytest.mark.parametrize("scalar", [1, 1.5, True, "x"])
@pytest.mark.parametrize("op", ["add", "radd", "sub", "mul", "truediv", "floordiv", "mod", "lt", "ge"])
@pytest.mark.parametrize("kind", ["bool_reindexed", "object_nan"])
def test_all_missing_object_column_with_scalar(kind, op, scalar):
    # pandas skips missing objects: an object column of NaN (an ordering comparison is False)
    _check(lambda lib: getattr(_all_missing_objects(lib, kind), op)(scalar))


def test_frame_add_str_after_right_merge():
    left = pd.DataFrame({"b": [100, 3], "e": [False, True]})
    right = pd.DataFrame({"b_k": [-7, 5]})

    def case(lib):
        lf, rf = (left, right) if lib is pd else (em.from_pandas(left), em.from_pandas(right))
        merged = lf.merge(rf, how="right", left_on=["b"], right_on=["b_k"])
        return merged[["e"]].add("日本")

    _check(case)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv", "radd"])
def test_bool_column_with_missing_rows_arithmetic_is_refused(op):
    # pandas computes Python objects (True + 1 is 2, object dtype): ember refuses
    s = pd.Series([True, False]).reindex([0, 1, 2])
    with pytest.raises(NotImplementedError):
        getattr(em.from_pandas(s), op)(1)
    assert getattr(s, op)(1).dtype == object


_LABELS = [
    list("abc"),
    [0, 1],
    ["b", "a", 0],
    [1, "c"],
    ["a", 1],
    ["c", 0],
    ["x", None],
    [2.5, "z"],
    ["c", "a"],
]


@pytest.mark.parametrize("right", _LABELS, ids=str)
@pytest.mark.parametrize("left", _LABELS, ids=str)
def test_unsortable_column_labels_union_order(left, right):
    # pandas merges two sorted sides and, failing, keeps the order of appearance; else its safe sort
    def frame(lib, cols):
        df = pd.DataFrame([[1] * len(cols)], columns=cols)
        return df if lib is pd else em.from_pandas(df)

    def series(lib, labels):
        s = pd.Series([1.0] * len(labels), index=labels)
        return s if lib is pd else em.from_pandas(s)

    try:
        frame(em, left), frame(em, right), series(em, right)
    except NotImplementedError:
        pytest.skip("ember does not hold these labels")
    _check(lambda lib: frame(lib, left).mul(series(lib, right)))
    _check(lambda lib: frame(lib, left).add(frame(lib, right)))


def _td(lib):
    s = pd.Series(pd.to_timedelta([1, 2, None], unit="s"))
    return s if lib is pd else em.from_pandas(s)


@pytest.mark.parametrize("op", ["truediv", "floordiv", "mod", "rtruediv", "rfloordiv", "rmod"])
def test_timedelta_column_by_object_strings_raises_valueerror(op):
    # pandas parses the objects as timedeltas: ValueError where one does not parse
    def case(lib):
        s = pd.Series(["a", "b", None], dtype=object)
        return getattr(_td(lib), op)(s if lib is pd else em.from_pandas(s))

    _check(case)


@pytest.mark.parametrize("op", ["truediv", "floordiv"])
def test_timedelta_column_by_timedelta_strings_is_refused(op):
    s = pd.Series(["1s", "2s", None], dtype=object)
    assert getattr(_td(pd), op)(s).dtype == object
    with pytest.raises(NotImplementedError):
        getattr(_td(em), op)(em.from_pandas(s))


@pytest.mark.parametrize("value", ["a", "1s", "", "NaT", "2020-01-01", "2020-01-01 00:00+01:00"])
@pytest.mark.parametrize("op", ["eq", "ne", "lt", "ge"])
@pytest.mark.parametrize("kind", ["timedelta", "datetime", "datetime_utc"])
def test_time_column_compared_with_string(kind, op, value):
    # a string that parses to no comparable time: unequal, ordering raises TypeError
    def case(lib):
        if kind == "timedelta":
            return getattr(_td(lib), op)(value)
        s = pd.Series(pd.to_datetime(["2020-01-01", None]))
        s = s.dt.tz_localize("UTC") if kind == "datetime_utc" else s
        return getattr(s if lib is pd else em.from_pandas(s), op)(value)

    _check(case)


@pytest.mark.parametrize("dtype", [object, "str"])
def test_time_column_compared_with_time_strings_is_refused(dtype):
    s = pd.Series(["1s", "3s", None], dtype=dtype)
    assert _td(pd).eq(s).tolist() == [True, False, False]
    with pytest.raises(NotImplementedError):
        _td(em).eq(em.from_pandas(s))


_FILL_VALUES = [np.int64(1000), 1000, np.int16(-200), np.uint64(2**63), 2**70, np.float64(1e40), 1e19, 2**63]


def _filled(lib, dtype, value, how):
    s = pd.Series([1, None, 3], dtype=dtype) if dtype != "int8" else pd.Series([1, 2, 3], dtype="int8")
    s = s if lib is pd else em.from_pandas(s)
    if how == "fillna":
        return s.fillna(value)
    if how == "where":
        return s.where(s != 3, value)
    s = s.copy()
    if how == "setitem":
        s[1] = value
    else:
        s.iloc[[1]] = value
    return s


@pytest.mark.parametrize("how", ["fillna", "where", "setitem", "iloc"])
@pytest.mark.parametrize("value", _FILL_VALUES, ids=repr)
@pytest.mark.parametrize("dtype", ["Int8", "UInt8", "Int16", "int8", "Float32"])
def test_out_of_range_fill_values(dtype, value, how):
    # pandas' answer, its error, or NotImplementedError where pandas wraps or fails internally
    try:
        expected, error = _filled(pd, dtype, value, how), None
    except Exception as exc:  # noqa: BLE001 - pandas' exception type is the expectation
        expected, error = None, exc
    try:
        got = _filled(em, dtype, value, how)
    except NotImplementedError:
        return
    except Exception as exc:  # noqa: BLE001
        assert error is not None, f"ember raised {exc!r}, pandas answered"
        builtin = next(t for t in type(error).__mro__ if t.__module__ == "builtins")
        assert isinstance(exc, builtin), f"ember raised {exc!r}, pandas {error!r}"
        return
    assert error is None, f"ember answered, pandas raised {error!r}"
    assert_eq(got, expected)


_FILL_LEFTS = {
    "int8": ([42], "int8"),
    "float32_nan": ([1.0, None, 3.0], "float32"),
    "float64": ([1.0, 2.0, 3.0], "float64"),
    "Int8": ([1, None, 3], "Int8"),
    "str_empty": ([], "str"),
}
_FILL_RIGHTS = {
    "int8_empty": ([], "int8", []),
    "float_exact": ([1.5, 2.5, 4.0], "float64", None),
    "float_inexact": ([0.1, 0.2, 0.3], "float64", None),
    "int_large": ([5, 600, 7], "int64", None),
    "Int64": ([1, None, 7], "Int64", None),
    "duplicate_labels": ([None, "10"], object, [1, 1]),
}


@pytest.mark.parametrize("how", ["fillna"])
@pytest.mark.parametrize("right", list(_FILL_RIGHTS))
@pytest.mark.parametrize("left", list(_FILL_LEFTS))
def test_fill_from_series_dtype(left, right, how):
    # pandas keeps the column's dtype where it holds the values (float32: exactly; masked ints: the
    # values it takes), fills nothing where nothing is missing, and cannot reindex duplicate labels
    lv, ld = _FILL_LEFTS[left]
    rv, rd, ri = _FILL_RIGHTS[right]

    def case(lib):
        a = _s(lib, lv, dtype=ld)
        b = _s(lib, rv, dtype=rd, index=ri)
        return a.fillna(b) if how == "fillna" else a.where(a != 3, b)

    if how == "where" and right == "duplicate_labels":
        pytest.skip("fillna's reindex")
    try:
        case(em)
    except NotImplementedError:
        return
    except Exception:  # noqa: BLE001 - compared with pandas' exception below
        pass
    _check(case)


_OTHERS = {
    "float32": [0.0, np.nan],
    "int64": [1, 2],
    "bool": [True, False],
    "Float64": [1.0, None],
    "Int64": [1, 2],
    "boolean": [True, None],
    "datetime64[ns]": ["2020-01-01", None],
    "str": ["a", None],
    "category": ["a", "b"],
    "object": ["a", "b"],
}


@pytest.mark.parametrize("marker", [None, np.nan, pd.NA, pd.NaT])
@pytest.mark.parametrize("dtype", list(_OTHERS))
@pytest.mark.parametrize("op", ["eq", "ne", "lt", "ge"])
@pytest.mark.parametrize("objects_left", [True, False])
def test_comparison_with_object_column_of_missing_values(marker, dtype, op, objects_left):
    # pandas makes its own missing value of the objects, skips them, or meets them in Python's
    # operators row by row (pd.NA raises, None / NaT raise for ordering, NaN orders False)
    def case(lib):
        x = _s(lib, _OTHERS[dtype], dtype=dtype)
        o = _s(lib, [marker, marker], dtype=object)
        a, b = (o, x) if objects_left else (x, o)
        return getattr(a, f"__{op}__")(b)

    _check(case)

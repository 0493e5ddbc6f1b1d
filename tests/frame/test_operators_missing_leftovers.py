"""Operators, missing values, setitem and reindex: cases where ember gave an answer of its own (or
raised) where pandas answers or raises. Each case runs the same code on pandas and on ember: ember
gives pandas' result, raises pandas' exception type, or (where a case says so) NotImplementedError."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq


def _check(case, refuse=False):
    """ember's result equals pandas', or both raise the same exception type; with ``refuse`` ember
    raises NotImplementedError (pandas fails with an internal error there)."""
    try:
        expected, error = case(pd), None
    except Exception as exc:  # noqa: BLE001 - pandas' exception type is the expectation
        expected, error = None, exc
    if refuse:
        with pytest.raises(NotImplementedError):
            case(em)
        return
    if error is not None:  # NumPy's UFuncTypeError is a TypeError: the builtin type is expected
        builtin = next(t for t in type(error).__mro__ if t.__module__ == "builtins")
        with pytest.raises(builtin):
            case(em)
        return
    assert_eq(case(em), expected)


def _obj(m, data, index=None):
    return m.Series(data, index=index, dtype=object)


# --- Series flex methods of object data: Python's operator row by row ----------------------------

OBJECT_FLEX = {
    "none_beside_str_add": lambda m: _obj(m, [None, "B"]).add(_obj(m, ["b", None])),
    "none_beside_str_lt": lambda m: _obj(m, [None, "B"]).lt(_obj(m, ["b", None])),
    "nan_beside_str_add": lambda m: _obj(m, [np.nan, "B"]).add(_obj(m, ["b", np.nan])),
    "nan_beside_str_ge": lambda m: _obj(m, [np.nan, "B"]).ge(_obj(m, ["b", np.nan])),
    "nan_beside_nan_add": lambda m: _obj(m, [np.nan, "a"]).add(_obj(m, [np.nan, "b"])),
    "nan_beside_nan_lt": lambda m: _obj(m, [np.nan, "a"]).lt(_obj(m, [np.nan, "b"])),
    "none_beside_none_add": lambda m: _obj(m, [None, "a"]).add(_obj(m, [None, "b"])),
    "none_beside_none_radd": lambda m: _obj(m, [None, "a"]).radd(_obj(m, [None, "b"])),
    "none_eq_none": lambda m: _obj(m, [None, "a", "c"]).eq(_obj(m, [None, "b", None])),
    "none_ne_none": lambda m: _obj(m, [None, "a", "c"]).ne(_obj(m, [None, "b", None])),
    "nan_eq_nan": lambda m: _obj(m, [np.nan, "a"]).eq(_obj(m, [np.nan, "a"])),
    "str_beside_float_nan": lambda m: _obj(m, ["a", "b"]).lt(m.Series([np.nan, 1.0])),
    "fill_value_fills_one_side": lambda m: _obj(m, [None, "B"]).add(_obj(m, ["b", None]), fill_value="z"),
    "fill_value_both_none": lambda m: _obj(m, [None, "B"]).add(_obj(m, [None, "c"]), fill_value="z"),
    "list_other": lambda m: _obj(m, [None, "a"]).add(["x", "y"]),
    "list_other_eq_none": lambda m: _obj(m, [None, "a"]).eq([None, "a"]),
    # the operators (not flex methods) skip missing values
    "operator_add": lambda m: _obj(m, [None, "B", "c"]) + _obj(m, ["b", None, "d"]),
    "operator_lt": lambda m: _obj(m, [None, "B", "c"]) < _obj(m, ["b", None, "d"]),
    "operator_eq_none": lambda m: _obj(m, [None, "a"]) == _obj(m, [None, "a"]),
    # alignment builds new Series from the object arrays: pandas infers its str dtype
    "aligned_add": lambda m: _obj(m, ["a", "b", "c"]).add(_obj(m, ["x", "y"], [1, 2])),
    "aligned_operator": lambda m: _obj(m, ["a", "b", "c"]) + _obj(m, ["x", "y"], [1, 2]),
    "aligned_none": lambda m: _obj(m, [None, "a", "b"]).add(_obj(m, ["x", "y"], [1, 2])),
    "aligned_fill": lambda m: _obj(m, [None, "a", "b"]).add(_obj(m, ["x", "y"], [1, 2]), fill_value="q"),
    "aligned_int_labels_kept": lambda m: _obj(m, [None, "a", "b"], [0, 1, 2]).add(
        _obj(m, ["x", "y"], [1, 2]), fill_value="q"
    ),
    "aligned_lt": lambda m: _obj(m, ["a", "b", None], [0, 1, 2]).lt(_obj(m, ["x", None, "z"], [2, 1, 0])),
    "aligned_all_missing_stays_object": lambda m: _obj(m, [None, None], [0, 1]).eq(_obj(m, [None], [1])),
    "frame_flex_skips_missing": lambda m: m.DataFrame({"x": _obj(m, [None, "B"])}).add(
        m.DataFrame({"x": _obj(m, ["b", None])})
    ),
}


@pytest.mark.parametrize("name", sorted(OBJECT_FLEX))
def test_object_flex_methods(name):
    _check(OBJECT_FLEX[name])


# --- masked numbers and strings beside timedeltas --------------------------------------------------


def _td(m):
    return m.Series(pd.to_timedelta(["1D", None, "1D", "-1D"]))


MASKED_TD = {
    f"{dtype}_{op}": (
        lambda m, d=dtype, o=op: getattr(m.Series([86400000000, 1, None, 5], dtype=d), o)(_td(m))
    )
    for dtype in ("Int64", "Int8", "UInt16", "Float64")
    for op in ("lt", "le", "gt", "ge", "eq", "ne", "__lt__", "__eq__")
}
MASKED_TD["boolean_lt"] = lambda m: m.Series([True, False, None, True], dtype="boolean") < _td(m)
MASKED_TD["boolean_eq"] = lambda m: m.Series([True, False, None, True], dtype="boolean") == _td(m)
MASKED_TD["td_lt_int64"] = lambda m: _td(m) < m.Series([1, 2, None, 3], dtype="Int64")


@pytest.mark.parametrize("name", sorted(MASKED_TD))
def test_masked_beside_timedeltas(name):
    _check(MASKED_TD[name])


@pytest.mark.parametrize("dtype", ["str", "string"])
@pytest.mark.parametrize("op", ["eq", "lt", "add", "radd", "sub", "mul"])
def test_strings_beside_timedeltas_refused(dtype, op):
    # pandas fails building its string array from the timedeltas (ValueError)
    _check(lambda m: getattr(m.Series(["a", None, "1 day", "x"], dtype=dtype), op)(_td(m)), refuse=True)


@pytest.mark.parametrize("op", ["add", "sub", "truediv", "__add__"])
def test_timedeltas_arithmetic_with_strings_refused(op):
    _check(lambda m: getattr(_td(m), op)(m.Series(["a", None, "1 day", "x"])), refuse=True)


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "pow", "__eq__"])
def test_timedeltas_beside_strings_as_pandas(op):
    _check(lambda m: getattr(_td(m), op)(m.Series(["a", None, "1 day", "x"])))


# --- fill_value into masked columns: pandas' setitem check ----------------------------------------


def _b(m):
    return m.Series([True, None, False], dtype="boolean")


def _f(m):
    return m.Series([1.0, None, None])


FILL_MASKED = {
    "bool_add_fill0": lambda m: _b(m).add(_f(m), fill_value=0),
    "float_add_bool_fill0": lambda m: _f(m).add(_b(m), fill_value=0),
    "bool_fill_1_0": lambda m: _f(m).add(_b(m), fill_value=1.0),
    "bool_eq_fill_true": lambda m: _b(m).eq(_b(m), fill_value=True),
    "frame_bool_fill0": lambda m: m.DataFrame({"a": _f(m)}).add(m.DataFrame({"a": _b(m)}), fill_value=0),
    "frame_missing_column": lambda m: m.DataFrame({"a": _f(m)}).add(m.DataFrame({"b": _b(m)}), fill_value=0),
    "frame_other_rows": lambda m: m.DataFrame({"a": _b(m)}).add(
        m.DataFrame({"a": _f(m)}, index=[0, 1, 5]), fill_value=0
    ),
    "int64_fill_half": lambda m: m.Series([1, None, 2], dtype="Int64").add(_f(m), fill_value=0.5),
    "int64_fill_1_0": lambda m: m.Series([1, None, 2], dtype="Int64").add(_f(m), fill_value=1.0),
    "int64_fill_true": lambda m: m.Series([1, None, 2], dtype="Int64").add(_f(m), fill_value=True),
    "float64_fill_true": lambda m: m.Series([1, None, 2], dtype="Float64").add(_f(m), fill_value=True),
    "float64_fill_str": lambda m: m.Series([1, None, 2], dtype="Float64").add(_f(m), fill_value="a"),
    "int8_fill_out_of_range": lambda m: m.Series([1, None, 2], dtype="Int8").add(_f(m), fill_value=1000),
    "uint8_fill_negative": lambda m: m.Series([1, None, 2], dtype="UInt8").add(_f(m), fill_value=-1),
}


@pytest.mark.parametrize("name", sorted(FILL_MASKED))
def test_fill_value_into_masked_columns(name):
    _check(FILL_MASKED[name])


# --- shift(fill_value=) of masked columns: NumPy's setitem into the data ---------------------------


@pytest.mark.parametrize("dtype", ["Int64", "Int8", "UInt8", "boolean", "Float32", "Float64"])
@pytest.mark.parametrize("value", [2.5, -1.7, 300, -1, True, "a", np.nan])
@pytest.mark.parametrize("periods", [1, -2, 5])
def test_masked_shift_fill_value(dtype, value, periods):
    _check(lambda m: m.Series([1, 0, None], dtype=dtype).shift(periods, fill_value=value))


def test_frame_shift_fill_value_masked():
    _check(
        lambda m: m.DataFrame({"a": m.Series([1, 2, None], dtype="Int64"), "b": [1.0, 2, 3]}).shift(
            1, fill_value=2.5
        )
    )


# --- the NA block of labels one frame lacks: masked columns count as their NumPy type --------------


@pytest.mark.parametrize("n", [0, 2])
@pytest.mark.parametrize("shared", [["b", "c"], ["a"], ["c", "d"]])
@pytest.mark.parametrize("op", ["truediv", "add", "radd"])
def test_frame_arithmetic_absent_columns_dtype(n, shared, op):
    def case(m):
        left = m.DataFrame(
            {"a": m.Series([1.5] * n, dtype="float32"), "b": m.Series([2.5] * n, dtype="float32")}
        )
        right = m.DataFrame({k: m.Series([1] * n, dtype=d) for k, d in zip(shared, ["UInt8", "Float64"])})
        return getattr(left, op)(right)

    _check(case)


@pytest.mark.parametrize(
    "dtypes", [("Float32", "float32"), ("Float32", "Int16"), ("Float32", "Int32"), ("Int64",)]
)
def test_frame_arithmetic_absent_columns_masked_dtypes(dtypes):
    def case(m):
        left = m.DataFrame({f"x{i}": m.Series([1, 2], dtype=d) for i, d in enumerate(dtypes)})
        return left.add(m.DataFrame({"x0": m.Series([1.0, 2.0], dtype="float32"), "z": [1.0, 2.0]}))

    _check(case)


# --- fillna / where with a value of another kind where no row is replaced: pandas' no-op ----------

NOOP_FILL = {
    "empty_categorical_frame": lambda m: m.DataFrame({"c": m.Series([], dtype="category")}).fillna(0),
    "empty_str_frame": lambda m: m.DataFrame({"c": m.Series([], dtype="str")}).fillna(0),
    "str_without_missing": lambda m: m.Series(["a", "b"]).fillna(0),
    "str_where_all_kept": lambda m: m.Series(["a", None]).where(m.Series([True, True]), 0),
}


@pytest.mark.parametrize("name", sorted(NOOP_FILL))
def test_fill_of_another_kind_without_missing_rows(name):
    _check(NOOP_FILL[name])


# --- setitem of new columns: every row is the column pandas' df[name] = value makes -----------------

ALL = slice(None)
NEW_COLUMN = {
    "all_rows_int": ((ALL, "z"), 1),
    "all_rows_float": ((ALL, "z"), 1.5),
    "all_rows_str": ((ALL, "z"), "x"),
    "all_rows_bool": ((ALL, "z"), True),
    "all_rows_none": ((ALL, "z"), None),
    "all_rows_list": ((ALL, "z"), [1, 2]),
    "all_rows_array": ((ALL, "z"), np.array([1, 2])),
    "all_rows_list_with_none": ((ALL, "z"), [1, None]),
    "all_rows_masked": ((ALL, "z"), pd.array([1, None], dtype="Int64")),
    "all_rows_series_other_order": ((ALL, "z"), "series"),
    "all_rows_series_other_labels": ((ALL, "z"), "series_missing"),
    "list_new_labels": ((ALL, ["y", "z"]), 1),
    "list_old_and_new": ((ALL, ["a", "z"]), 1),
    "list_old_and_new_float": ((ALL, ["a", "z"]), 1.5),
    "list_row_values": ((ALL, ["y", "z"]), [1, 2.5]),
    "list_some_rows": (([0], ["y", "z"]), 1),
    "list_every_row_by_label": (([0, 1], ["y", "z"]), 1),
    "rows_by_label_array": (([0, 1], "z"), np.array([1, 2])),
    "one_row": ((0, "z"), 1),
    "one_row_str": ((0, "z"), "x"),
}


@pytest.mark.parametrize("name", sorted(NEW_COLUMN))
def test_loc_setitem_new_column(name):
    key, value = NEW_COLUMN[name]

    def case(m):
        d = m.DataFrame({"a": [1, 3]})
        v = value
        if isinstance(value, str) and value.startswith("series"):
            v = m.Series([5, 6], index=[1, 0] if value == "series" else [1, 7])
        d.loc[key] = v
        return d

    _check(case)


@pytest.mark.parametrize("value", ["series", "empty_list"])
def test_setitem_column_dtype(value):
    def case(m):
        if value == "series":
            d = m.DataFrame({"a": [1, 3]})
            d["z"] = m.Series([5, 6], index=[1, 0])
        else:
            d = m.DataFrame({"a": m.Series([], dtype="int64")})
            d["z"] = []
        return d

    _check(case)


# --- reindex: the dtype of new columns and of filled rows ------------------------------------------

REINDEX_DTYPES = ["float32", "Float32", "Int64", "int8", "uint8", "bool", "str", "float64"]


def _frame_of(m, dtypes, n):
    return m.DataFrame(
        {f"c{i}": m.Series(["1"] * n if t == "str" else [1] * n, dtype=t) for i, t in enumerate(dtypes)}
    )


@pytest.mark.parametrize(
    "dtypes", [(t,) for t in REINDEX_DTYPES] + [("float32", "int8"), ("Float32", "float32")]
)
@pytest.mark.parametrize("n", [0, 2])
@pytest.mark.parametrize("fill_value", [None, 0, 1.5, 300])
@pytest.mark.parametrize("axes", ["columns", "rows", "both", "both_rows_kept"])
def test_reindex_new_labels_dtype(dtypes, n, fill_value, axes):
    index = {"columns": None, "rows": [0, 5], "both": [0, 5], "both_rows_kept": [0, 1][:n]}[axes]
    columns = None if axes == "rows" else ["c0", "zz"]
    try:
        _frame_of(pd, dtypes, n).reindex(index=index, columns=columns, fill_value=fill_value)
    except Exception:  # noqa: BLE001 - pandas' own failures (KeyError of masked fills) are not compared
        return
    try:
        got = _frame_of(em, dtypes, n).reindex(index=index, columns=columns, fill_value=fill_value)
    except NotImplementedError:  # pandas makes object columns there
        assert dtypes[0] == "bool" or fill_value is not None
        return
    assert_eq(got, _frame_of(pd, dtypes, n).reindex(index=index, columns=columns, fill_value=fill_value))


def test_series_reindex_fill_value_promotes():
    _check(lambda m: m.Series([1, 2], dtype="int8").reindex([0, 5], fill_value=300))


# --- frames of no columns ------------------------------------------------------------------------

NO_COLUMNS = {
    "drop_duplicates": lambda d: d[[]].drop_duplicates(),
    "drop_duplicates_ignore_index": lambda d: d[[]].drop_duplicates(ignore_index=True),
    "duplicated": lambda d: d[[]].duplicated(),
    "duplicated_subset_empty": lambda d: d.duplicated(subset=[]),
    "dropna": lambda d: d[[]].dropna(),
    "dropna_all": lambda d: d[[]].dropna(how="all"),
    "agg_list": lambda d: d[[]].agg(["sum"]),
    "agg_list_two": lambda d: d[[]].agg(["sum", "mean"]),
    "agg_empty_dict": lambda d: d.agg({}),
    "nlargest_no_columns": lambda d: d[[]].nlargest(1, []),
    "nlargest_empty_list": lambda d: d.nlargest(1, []),
    "nsmallest_empty_list": lambda d: d.nsmallest(2, []),
}


# pandas < 3.1 answers these otherwise: agg of a list / an empty dict raises ValueError ("No objects to
# concatenate"), duplicated gives an empty Series instead of one False per row; ember follows 3.1
_NO_COLUMNS_30_DIFFERS = {
    "agg_empty_dict": "raises ValueError",
    "agg_list": "raises ValueError",
    "agg_list_two": "raises ValueError",
    "duplicated": "gives an empty Series, not one False per row",
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name,
            marks=pytest.mark.xfail(
                not PANDAS_31 and name in _NO_COLUMNS_30_DIFFERS,
                reason=f"pandas < 3.1 {_NO_COLUMNS_30_DIFFERS.get(name)}; ember follows 3.1",
                strict=True,
            ),
        )
        for name in sorted(NO_COLUMNS)
    ],
)
def test_frame_of_no_columns(name):
    _check(lambda m: NO_COLUMNS[name](m.DataFrame({"a": [1, 1, 2], "b": [1.0, None, 3]})))


# --- the column axis' name after frame operators on other labels ---------------------------------

AXIS_COLUMNS = {
    "str": pd.Index(["a", "b", "c"], name="idx"),
    "int": pd.Index([0, 1, 2], name="idx"),
    "range": pd.RangeIndex(3, name="idx"),
}
OTHER_LABELS = {
    "subset_unnamed": pd.Index(["b"]),
    "new_label": pd.Index(["z"]),
    "ints": pd.Index([0, 1]),
    "ints_named_other": pd.Index([0, 1], name="o"),
    "range_subset": pd.RangeIndex(2),
}


@pytest.mark.parametrize("cols", sorted(AXIS_COLUMNS))
@pytest.mark.parametrize("other", sorted(OTHER_LABELS))
@pytest.mark.parametrize("op", ["series_mul", "frame_truediv", "frame_add_fill", "frame_eq"])
def test_column_axis_name_after_operators(cols, other, op):
    columns, labels = AXIS_COLUMNS[cols], OTHER_LABELS[other]
    if {type(x) for x in columns} != {type(x) for x in labels}:
        pytest.skip("labels of two kinds: the column order of their union is another family")

    def case(m):
        df = m.DataFrame(pd.DataFrame([[1.0, 2.0, 3.0]], columns=columns))
        if op == "series_mul":
            return df.mul(m.Series(pd.Series([2.0] * len(labels), index=labels)))
        o = m.DataFrame(pd.DataFrame([[2.0] * len(labels)], columns=labels))
        return {
            "frame_truediv": df.truediv,
            "frame_add_fill": lambda x: df.add(x, fill_value=0),
            "frame_eq": df.eq,
        }[op](o)

    _check(case)


def test_column_axis_name_range_beside_ints_of_empty_rows():
    def case(m):
        df = m.DataFrame(pd.DataFrame([[1.0, 2, 3, 4]], columns=pd.RangeIndex(0, 4, name="idx"), index=["d"]))
        o = m.DataFrame(
            pd.DataFrame({0: pd.Series([], dtype="Int32"), 1: pd.Series([], dtype="float32")}).set_axis(
                pd.Index([], dtype="float64")
            )
        )
        return df.truediv(o, fill_value=0)

    _check(case)


# --- .dt fields of data with a mask but no NaT: pandas' integers -----------------------------------


@pytest.mark.parametrize("field", ["minute", "year", "dayofweek", "days_in_month"])
def test_dt_field_without_nat_is_int(field):
    def case(m):
        s = m.Series(pd.to_datetime([None, "2020-01-01 00:01:00", "2020-01-01 00:01:00"]))
        return getattr(s.dropna().dt, field)

    _check(case)


@pytest.mark.parametrize("field", ["days", "seconds", "components"])
def test_td_field_without_nat_is_int(field):
    _check(lambda m: getattr(m.Series(pd.to_timedelta([None, "1D 2s", "3s"])).dropna().dt, field))

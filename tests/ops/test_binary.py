"""binary_op against pandas: dtypes, missing values, errors, strings, datetimes, categoricals."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.column import from_pandas
from ember.ops.binary import binary_op

ARITH = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow"]
RARITH = ["radd", "rsub", "rmul", "rtruediv", "rfloordiv", "rmod", "rpow"]
CMP = ["eq", "ne", "lt", "le", "gt", "ge"]
LOGIC = ["and_", "or_", "xor", "rand_", "ror_", "rxor"]
_PY = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "truediv": lambda a, b: a / b, "floordiv": lambda a, b: a // b, "mod": lambda a, b: a % b,
    "pow": lambda a, b: a ** b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
    "and_": lambda a, b: a & b, "or_": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
}  # fmt: skip


def pandas_op(a, b, op):
    """What pandas gives for ``a <op> b`` (``r<op>``: ``b <op> a``)."""
    if op.startswith("r") and op[1:] in _PY:
        return _PY[op[1:]](b, a)
    return _PY[op](a, b)


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - the type is compared
            return None, exc


def check(ps, other, op, xp, *, check_dtype=True, other_is_col=True):
    left = from_pandas(ps, xp)
    right = from_pandas(other, xp) if other_is_col else other
    expected, perr = _outcome(lambda: pandas_op(ps, other, op))
    got, eerr = _outcome(lambda: binary_op(left, right, op))
    if perr is not None:
        assert eerr is not None, f"pandas raised {perr!r}, ember returned {got.to_pandas()!r}"
        assert isinstance(eerr, (type(perr), TypeError, ValueError)), (perr, eerr)
        return
    assert eerr is None, f"ember raised {eerr!r}; pandas gave {expected!r}"
    result = got.to_pandas()
    expected = expected.reset_index(drop=True)
    if isinstance(expected.dtype, pd.ArrowDtype):  # pandas 3 'string' comparisons: bool[pyarrow]
        expected = expected.astype("boolean")
        check_dtype = True
    pd.testing.assert_series_equal(result, expected, check_names=False, check_dtype=check_dtype)


NUMERIC = {
    "int64": pd.Series([3, -7, 0, 12, 5, -1], dtype="int64"),
    "int8": pd.Series([3, -7, 0, 12, 5, -1], dtype="int8"),
    "uint8": pd.Series([3, 7, 0, 12, 5, 1], dtype="uint8"),
    "int32": pd.Series([2, -4, 9, 0, 1, 3], dtype="int32"),
    "float64": pd.Series([1.5, np.nan, -2.25, 0.0, np.inf, 3.0]),
    "float32": pd.Series([1.5, np.nan, -2.25, 0.0, 7.0, 3.0], dtype="float32"),
    "bool": pd.Series([True, False, True, False, True, True]),
    "Int64": pd.Series([3, None, 0, -12, 5, 2], dtype="Int64"),
    "Float64": pd.Series([1.5, None, -2.0, 0.0, 4.0, 0.5], dtype="Float64"),
    "boolean": pd.Series([True, None, False, True, None, False], dtype="boolean"),
}
PAIRS = [
    ("int64", "int64"), ("int64", "float64"), ("int8", "int64"), ("uint8", "int8"), ("int32", "int32"),
    ("float32", "float32"), ("float32", "int64"), ("float64", "float64"), ("bool", "bool"),
    ("bool", "int64"), ("Int64", "Int64"), ("Int64", "int64"), ("Int64", "float64"), ("Float64", "Int64"),
    ("boolean", "boolean"), ("boolean", "bool"),
]  # fmt: skip


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]}-{p[1]}")
@pytest.mark.parametrize("op", ARITH + CMP)
def test_numeric_columns(pair, op, xp):
    a, b = NUMERIC[pair[0]], NUMERIC[pair[1]]
    check(a, b, op, xp)


@pytest.mark.parametrize(
    "pair",
    [
        ("int64", "int64"),
        ("int8", "int64"),
        ("bool", "bool"),
        ("boolean", "boolean"),
        ("boolean", "bool"),
        ("Int64", "Int64"),
    ],
    ids=str,
)
@pytest.mark.parametrize("op", ["and_", "or_", "xor"])
def test_logical_columns(pair, op, xp):
    check(NUMERIC[pair[0]], NUMERIC[pair[1]], op, xp)


SCALARS = [2, -3, 0, 2.5, np.nan, True, np.int8(3), np.float32(1.5), np.float64(0.5)]


@pytest.mark.parametrize("name", list(NUMERIC))
@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("op", ARITH + RARITH + CMP)
def test_numeric_scalars(name, scalar, op, xp):
    check(NUMERIC[name], scalar, op, xp, other_is_col=False)


@pytest.mark.parametrize("name", ["int64", "bool", "boolean", "Int64"])
@pytest.mark.parametrize("scalar", [True, False, 1, 6])
@pytest.mark.parametrize("op", LOGIC)
def test_logical_scalars(name, scalar, op, xp):
    check(NUMERIC[name], scalar, op, xp, other_is_col=False)


def test_device_scalar_keeps_a_bool_a_bool():
    """CuPy gets Python scalars pinned to a NumPy type; a bool stays a bool there, as the CPU path sees
    it (pinned to the column's int64, Int64 | True was Int64 on the GPU where pandas gives boolean)."""
    from ember.ops.binary import _device_scalar

    not_numpy = object()  # any array module other than NumPy takes the pinning path
    for dtype in ("int64", "uint8", "int8", "float32", "bool"):
        for op in ("or_", "and_", "xor", "add", "mul", "floordiv"):
            for value in (True, False):
                got = _device_scalar(not_numpy, np.dtype(dtype), value, op)
                assert type(got) is np.bool_ and bool(got) is value, (dtype, op, value, got)


def test_kleene_with_na_scalar(xp):
    s = pd.Series([True, None, False], dtype="boolean")
    for op in ("and_", "or_", "xor"):
        check(s, pd.NA, op, xp, other_is_col=False)
    check(pd.Series([1, None], dtype="Int64"), pd.NA, "add", xp, other_is_col=False)
    check(pd.Series([1, None], dtype="Int64"), pd.NA, "eq", xp, other_is_col=False)


def test_int_division_by_zero(xp):
    a = pd.Series([1, 0, -1, 7])
    b = pd.Series([0, 0, 0, 2])
    for op in ("floordiv", "mod", "truediv", "rfloordiv", "rmod"):
        check(a, b, op, xp)
        check(a, 0, op, xp, other_is_col=False)
    check(pd.Series([1, 0, -1], dtype="Int64"), 0, "floordiv", xp, other_is_col=False)
    check(pd.Series([1, 0, -1], dtype="Int64"), 0, "truediv", xp, other_is_col=False)


def test_weak_scalars_keep_dtype(xp):
    out = binary_op(from_pandas(pd.Series([1, 2], dtype="int8"), xp), 1, "add")
    assert out.dtype == np.dtype("int8")
    out = binary_op(from_pandas(pd.Series([1.0, 2.0], dtype="float32"), xp), 2.5, "mul")
    assert out.dtype == np.dtype("float32")
    # pandas takes NumPy scalars as Python scalars too
    out = binary_op(from_pandas(pd.Series([1, 2], dtype="int8"), xp), np.int64(1), "add")
    assert out.dtype == np.dtype("int8")
    out = binary_op(from_pandas(pd.Series([1, 2], dtype="float32"), xp), np.float64(0.5), "add")
    assert out.dtype == np.dtype("float32")


def test_errors_like_pandas(xp):
    with pytest.raises(TypeError, match=r"unsupported operand|not supported for dtype 'str'"):
        binary_op(from_pandas(pd.Series(["a", "b"]), xp), 1, "add")
    with pytest.raises(TypeError):
        binary_op(from_pandas(pd.Series([True]), xp), from_pandas(pd.Series([True]), xp), "sub")
    with pytest.raises(NotImplementedError):
        binary_op(from_pandas(pd.Series([True]), xp), from_pandas(pd.Series([True]), xp), "truediv")
    with pytest.raises(ValueError, match="negative integer powers"):
        binary_op(from_pandas(pd.Series([2, 2]), xp), -1, "pow")
    with pytest.raises(TypeError):
        binary_op(from_pandas(pd.Series([1, 2]), xp), "a", "lt")
    with pytest.raises(ValueError, match="unknown binary operator"):
        binary_op(from_pandas(pd.Series([1, 2]), xp), 1, "matmul")


def test_missing_int_mask_is_float_nan(xp):
    """A numpy int column with a mask (from a join) behaves as pandas' float64 column with NaN."""
    from ember.column import NumericColumn

    base = from_pandas(pd.Series([1, 2, 3]), xp)
    masked = NumericColumn(base.data, xp.asarray([True, False, True]))
    out = binary_op(masked, 1, "add").to_pandas()
    pd.testing.assert_series_equal(out, pd.Series([2.0, np.nan, 4.0]))
    out = binary_op(masked, 2, "eq").to_pandas()
    pd.testing.assert_series_equal(out, pd.Series([False, False, False]))


# --- strings -------------------------------------------------------------------------------------------

STRS = {
    "str": pd.Series(["apple", "b", None, "", "Zeta", "é", "ab", "a\x00", "abc"]),
    "str2": pd.Series(["apple", "a", "x", "", "zeta", "e", "abc", "a", None]),
    "string": pd.Series(["apple", "b", None, "", "Zeta", "é", "ab", "a\x00", "abc"], dtype="string"),
    "object": pd.Series(["apple", "b", "c", "", "Zeta", "é", "ab", "a\x00", "abc"], dtype=object),
}


@pytest.mark.parametrize("op", CMP + ["add"])
@pytest.mark.parametrize(
    "pair", [("str", "str2"), ("str", "str"), ("string", "str2"), ("object", "str2")], ids=str
)
def test_string_columns(pair, op, xp):
    check(STRS[pair[0]], STRS[pair[1]], op, xp)


@pytest.mark.parametrize("op", CMP + ["add", "radd"])
@pytest.mark.parametrize("scalar", ["ab", "", "é", "zzz", "apple"])
@pytest.mark.parametrize("name", ["str", "string"])
def test_string_scalars(name, scalar, op, xp):
    check(STRS[name], scalar, op, xp, other_is_col=False)


def test_string_errors(xp):
    col = from_pandas(STRS["str"], xp)
    for op in ("sub", "mul", "truediv"):
        with pytest.raises(TypeError):
            binary_op(col, "a", op)
    with pytest.raises(TypeError):
        binary_op(col, 1, "lt")
    assert not binary_op(col, 1, "eq").to_pandas().any()


def test_string_compare_long_shared_prefix(xp):
    a = pd.Series(["x" * 50 + "a", "x" * 50, "x" * 51, "y", "x" * 49 + "z" + "a"])
    b = pd.Series(["x" * 50 + "b", "x" * 50, "x" * 50, "x" * 60, "x" * 50])
    for op in CMP:
        check(a, b, op, xp)


# --- datetimes and timedeltas ---------------------------------------------------------------------------

DT = pd.Series(
    pd.to_datetime(
        ["2020-01-01", "2020-01-02 12:00", None, "1969-12-31 23:59:59.5", "2021-06-01"], format="mixed"
    )
)
DT_S = pd.Series(pd.to_datetime(["2020-01-01", "2020-01-03", "2020-01-01", None, "2021-01-01"]).as_unit("s"))
DT_TZ = pd.Series(
    pd.to_datetime(
        ["2020-01-01", "2020-01-02 12:00", None, "2020-03-01", "2021-06-01"], format="mixed"
    ).tz_localize("US/Eastern")
)
TD = pd.Series(pd.to_timedelta(["1D", "-3h", None, "1s", "0s"]))
TD_NS = pd.Series(pd.to_timedelta([-3, 3, 5, None, 7], unit="ns"))


@pytest.mark.parametrize("op", ["sub"] + CMP)
@pytest.mark.parametrize("pair", [(DT, DT_S), (DT_S, DT), (DT_TZ, DT_TZ)], ids=["us-s", "s-us", "tz"])
def test_datetime_columns(pair, op, xp):
    check(pair[0], pair[1], op, xp)


@pytest.mark.parametrize("op", ["add", "sub", "radd"])
@pytest.mark.parametrize("base", [DT, DT_S, DT_TZ], ids=["us", "s", "tz"])
def test_datetime_plus_timedelta(base, op, xp):
    check(base, TD, op, xp)
    for scalar in (pd.Timedelta("1D"), np.timedelta64(1, "ms"), pd.Timedelta(1, "ns")):
        check(base, scalar, op, xp, other_is_col=False)


@pytest.mark.parametrize("op", CMP)
@pytest.mark.parametrize(
    "scalar",
    [
        pd.Timestamp("2020-01-02"),
        np.datetime64("2020-01-01T00:00:00.5"),
        "2020-01-02",
        "2019",
        pd.Timestamp("2020-01-01 00:00:00.000000001"),
        pd.Timestamp("2020-01-02", tz="UTC"),
    ],
    ids=repr,
)
@pytest.mark.parametrize("base", [DT, DT_S, DT_TZ], ids=["us", "s", "tz"])
def test_datetime_scalar_compare(base, scalar, op, xp):
    check(base, scalar, op, xp, other_is_col=False)


def test_datetime_scalar_sub(xp):
    check(DT, pd.Timestamp("2020-01-01"), "sub", xp, other_is_col=False)
    check(DT_S, pd.Timestamp("2020-01-01"), "rsub", xp, other_is_col=False)
    check(DT, pd.Timestamp("2020-01-01", tz="UTC"), "sub", xp, other_is_col=False)
    check(DT, 1, "add", xp, other_is_col=False)
    check(DT, DT, "add", xp)


@pytest.mark.parametrize("op", ["add", "sub", "truediv", "floordiv", "mod"] + CMP)
def test_timedelta_columns(op, xp):
    check(TD, pd.Series(pd.to_timedelta(["7h", "1h", "1h", None, "2s"])), op, xp)
    check(TD_NS, TD_NS, op, xp)


@pytest.mark.parametrize("op", ["mul", "truediv", "floordiv", "rmul"])
@pytest.mark.parametrize("scalar", [2, 0.5, 1.5, -3], ids=repr)
def test_timedelta_numbers(op, scalar, xp):
    check(TD_NS, scalar, op, xp, other_is_col=False)
    check(TD, scalar, op, xp, other_is_col=False)


def test_timedelta_misc(xp):
    check(TD, pd.Series([1.5, np.nan, 2.0, 1.0, 3.0]), "mul", xp)
    check(pd.Series([1, 2, 3, 4, 5]), TD, "mul", xp)
    check(TD, pd.Timedelta("12h"), "gt", xp, other_is_col=False)
    check(TD, "12h", "lt", xp, other_is_col=False)
    check(TD, pd.Timedelta("1h"), "truediv", xp, other_is_col=False)
    check(TD, pd.Timestamp("2020-01-01"), "add", xp, other_is_col=False)
    check(TD, DT, "add", xp)
    check(TD_NS, 2, "rtruediv", xp, other_is_col=False)


# --- categoricals ------------------------------------------------------------------------------------------

CAT = pd.Series(pd.Categorical(["a", "b", None, "c", "a"], categories=["c", "b", "a"]))
OCAT = pd.Series(
    pd.Categorical(["lo", "hi", None, "mid", "lo"], categories=["lo", "mid", "hi"], ordered=True)
)


@pytest.mark.parametrize("op", CMP)
@pytest.mark.parametrize("scalar", ["a", "b", "zz"])
def test_categorical_scalar(op, scalar, xp):
    check(CAT, scalar, op, xp, other_is_col=False)


@pytest.mark.parametrize("op", CMP)
@pytest.mark.parametrize("scalar", ["lo", "mid", "nope"])
def test_ordered_categorical_scalar(op, scalar, xp):
    check(OCAT, scalar, op, xp, other_is_col=False)


def test_categorical_columns(xp):
    other = pd.Series(pd.Categorical(["a", "a", "b", None, "a"], categories=["c", "b", "a"]))
    for op in ("eq", "ne"):
        check(CAT, other, op, xp)
    check(CAT, pd.Series(pd.Categorical(["a"] * 5)), "eq", xp)
    check(CAT, "x", "add", xp, other_is_col=False)


# --- property tests ------------------------------------------------------------------------------------------

_INT = st.one_of(st.none(), st.integers(-50, 50))
_FLOAT = st.one_of(st.none(), st.just(np.nan), st.floats(-1e6, 1e6, width=64))


@st.composite
def numeric_pairs(draw):
    n = draw(st.integers(0, 12))
    kinds = draw(
        st.sampled_from(
            [
                ("int64", "int64"),
                ("float64", "int64"),
                ("Int64", "Int64"),
                ("Float64", "float64"),
                ("Int64", "float64"),
                ("int64", "Float64"),
            ]
        )
    )
    out = []
    for kind in kinds:
        if kind.lower().startswith("int"):
            vals = draw(st.lists(_INT if kind == "Int64" else st.integers(-50, 50), min_size=n, max_size=n))
        else:
            vals = draw(st.lists(_FLOAT, min_size=n, max_size=n))
        out.append(pd.Series(vals, dtype=kind) if kind != "float64" else pd.Series(vals, dtype="float64"))
    return out


@settings(max_examples=150, deadline=None)
@given(numeric_pairs(), st.sampled_from(ARITH + RARITH + CMP))
def test_property_numeric(pair, op):
    a, b = pair
    if op in ("pow", "rpow"):  # keep powers small and non-negative for ints
        a, b = a.abs() % 4, b.abs() % 4
    check(a, b, op, np)


_TEXT = st.text(alphabet=st.sampled_from(list("ab\x00éz€𝄞")), max_size=6)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.one_of(st.none(), _TEXT), st.one_of(st.none(), _TEXT)), max_size=10),
    st.sampled_from(CMP + ["add"]),
)
def test_property_strings(rows, op):
    a = pd.Series([r[0] for r in rows], dtype="str")
    b = pd.Series([r[1] for r in rows], dtype="str")
    check(a, b, op, np)


@pytest.mark.parametrize("op", ["__floordiv__", "__mod__", "__rfloordiv__", "__rmod__"])
@pytest.mark.parametrize(
    "other",
    [
        [0, 1, 2, 3],
        [2, 2, 2, 2],
        "Int64",
        0,
        2,
        [0.0, 1.0, 2.0, 0.0],
    ],
    ids=str,
)
def test_masked_boolean_division_by_zero_as_pandas(op, other) -> None:
    """pandas divides a masked boolean and integers as floats when a divisor is zero (x // 0 inf,
    0 // 0 and x % 0 missing), except x % False and a masked integer dividend (0)."""
    import warnings

    import ember as em

    b = pd.Series(pd.array([True, False, None, True], dtype="boolean"))
    if other == "Int64":
        other = pd.Series(pd.array([0, 1, None, 2], dtype="Int64"))
    elif isinstance(other, list):
        other = pd.Series(other)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(b, op)(other)
    theirs = em.from_pandas(other) if isinstance(other, pd.Series) else other
    got = getattr(em.from_pandas(b), op)(theirs).to_pandas()
    pd.testing.assert_series_equal(got, want)

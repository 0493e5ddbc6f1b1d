"""Binary operators, comparisons, where / mask, fillna and clip against pandas: families of
divergences the differential fuzzer found (each test computes pandas' answer with the installed pandas)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


def _outcome(fn):
    """('ok', result) or ('raises', exception type)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", fn()
    except Exception as exc:  # noqa: BLE001 - the exception type is what is compared
        return "raises", type(exc)


def check_same(pandas_fn, ember_fn):
    """ember gives pandas' result, raises pandas' exception type, or raises NotImplementedError."""
    pkind, pres = _outcome(pandas_fn)
    ekind, eres = _outcome(ember_fn)
    if ekind == "raises" and issubclass(eres, NotImplementedError):
        return
    if pkind == "raises":
        assert ekind == "raises", f"pandas raises {pres.__name__}, ember answers {eres!r}"
        assert issubclass(eres, pres), f"pandas raises {pres.__name__}, ember {eres.__name__}"
        return
    assert ekind == "ok", f"ember raises {eres.__name__}, pandas answers {pres!r}"
    assert_eq(eres, pres)


# --- & | ^ -------------------------------------------------------------------------------------------

LOGICAL_OPERANDS = {
    "bool": [True, False, True, False],
    "boolean": pd.array([True, False, None, True], dtype="boolean"),
    "boolean_full": pd.array([True, False, True, True], dtype="boolean"),
    "int64": [1, 0, 2, 3],
    "Int64": pd.array([1, None, 2, 0], dtype="Int64"),
    "Int64_full": pd.array([1, 0, 2, 0], dtype="Int64"),
    "float64": [1.0, 0.0, np.nan, 2.5],
    "Float64": pd.array([1.0, None, 0.0, 2.5], dtype="Float64"),
    "Float64_full": pd.array([1.0, 0.0, 0.0, 2.5], dtype="Float64"),
}


@pytest.mark.parametrize("op", ["__and__", "__or__", "__xor__"])
@pytest.mark.parametrize("left,right", list(itertools.product(LOGICAL_OPERANDS, LOGICAL_OPERANDS)))
def test_logical_operands_cast_as_pandas(left, right, op):
    # a masked boolean takes the other operand by truthiness (pandas' ValueError where it holds NA);
    # a NumPy bool takes floats by truthiness with NaN as False (were bitwise ints or NumPy's TypeError)
    a, b = pd.Series(LOGICAL_OPERANDS[left]), pd.Series(LOGICAL_OPERANDS[right])
    check_same(
        lambda: getattr(a, op)(b),
        lambda: getattr(em.from_pandas(a), op)(em.from_pandas(b)),
    )


@pytest.mark.parametrize("scalar", [pd.NA, np.int64(3), True, 2])
@pytest.mark.parametrize("dtype", ["bool", "int64", "uint8", "float64"])
def test_logical_numpy_column_with_scalar(dtype, scalar):
    # NumPy data & NA is all False; a NumPy integer scalar promotes as a typed value (uint8 & int64)
    s = pd.Series([1, 0, 2, 3]).astype(dtype)
    for op in ("__and__", "__or__", "__xor__"):
        check_same(lambda op=op: getattr(s, op)(scalar), lambda op=op: getattr(em.from_pandas(s), op)(scalar))


def test_logical_frame_with_series_on_other_labels():
    df = pd.DataFrame({"a": pd.Series([], dtype="bool")})
    other = pd.Series([], dtype="int64", index=pd.RangeIndex(0, 0, 1, name="idx"), name="a")
    check_same(lambda: df & other, lambda: em.from_pandas(df) & em.from_pandas(other))
    s = pd.Series([True], name="a")
    o = pd.Series([], dtype="int64", index=pd.Index([], dtype="float64"), name="a")
    check_same(lambda: s ^ o, lambda: em.from_pandas(s) ^ em.from_pandas(o))


# --- alignment's labels ------------------------------------------------------------------------------

_INDEXES = [
    pd.RangeIndex(7, 8, name="idx"),
    pd.RangeIndex(0, 3, name="x"),
    pd.RangeIndex(5, 0, -2, name="x"),
    pd.Index([-3]),
    pd.Index([1, 2], name="y"),
    pd.Index([1, 5, 7], name="y"),
    pd.Index([1, 2], dtype="int32", name="y"),
    pd.Index([1.0, 2.0], name="y"),
    pd.Index([0.0], name="z"),
]


@pytest.mark.parametrize("a,b", list(itertools.product(_INDEXES, _INDEXES)))
def test_aligned_labels_name_and_dtype(a, b):
    # a RangeIndex joined with evenly spaced labels takes the union's name (shared or None); a Series
    # keeps its own labels (and their dtype) where the other's are among them
    sa, sb = pd.Series(1.0, index=a), pd.Series(2.0, index=b)
    check_same(lambda: sa + sb, lambda: em.from_pandas(sa) + em.from_pandas(sb))


def test_series_keeps_own_int_labels_beside_float_subset():
    a = pd.Series(pd.to_timedelta(["31D", "1min"]).astype("timedelta64[s]"), name="a")
    b = pd.Series(
        pd.to_timedelta(["1s"]).astype("timedelta64[s]"), index=pd.Index([1.0], name="idx"), name="a"
    )
    check_same(lambda: a - b, lambda: em.from_pandas(a) - em.from_pandas(b))


# --- division ----------------------------------------------------------------------------------------


def test_masked_bool_floordiv_mod_by_ints_have_no_negative_zero():
    # pandas divides as integers, then fills the zero divisors: 0 // -1 is 0.0 (was -0.0, so 3 / r
    # gave -inf where pandas gives inf)
    a = pd.Series([False, True, False, True, None], dtype="boolean")
    b = pd.Series([-1, 0, -2, -1, 3], dtype="Int64")
    for op in ("__floordiv__", "__mod__"):
        p = getattr(a, op)(b)
        e = getattr(em.from_pandas(a), op)(em.from_pandas(b))
        assert_eq(e, p)
        assert_eq(3 / e, 3 / p)


# --- where / mask / fillna / clip of numbers: pandas' Block.where rules ------------------------------

WHERE_COLUMNS = {
    "int8": pd.Series([1, 5, -3], dtype="int8"),
    "uint8": pd.Series([1, 5, 3], dtype="uint8"),
    "uint64": pd.Series([1, 5, 3], dtype="uint64"),
    "float32": pd.Series([1, 5, np.nan], dtype="float32"),
    "bool": pd.Series([True, False, True]),
    "Int8": pd.Series([1, None, 5], dtype="Int8"),
    "UInt8": pd.Series([1, None, 5], dtype="UInt8"),
    "Float64": pd.Series([1.5, None, 5], dtype="Float64"),
    "boolean": pd.Series([True, None, False], dtype="boolean"),
}
WHERE_VALUES = [-1, 300, 2.5, 2.0, np.nan, True, 1e40, np.int64(-1), 2**40, -1.0]


@pytest.mark.parametrize("value", WHERE_VALUES, ids=repr)
@pytest.mark.parametrize("name", list(WHERE_COLUMNS))
def test_where_mask_fillna_clip_scalar(name, value):
    # a value the dtype holds keeps it; else a NumPy column takes pandas' common type (uint8 with -1:
    # int16, was wrapped to 255) and a masked one raises pandas' error; no row replaced: dtype kept
    s = WHERE_COLUMNS[name]
    es = em.from_pandas(s)
    some = s.notna() & pd.Series([True, False, True])
    for cond in (some, pd.Series([True, True, True])):
        ec = em.from_pandas(cond)
        check_same(lambda c=cond: s.where(c, value), lambda c=ec: es.where(c, value))
        check_same(lambda c=cond: s.mask(~c, value), lambda c=ec: es.mask(~c, value))
    check_same(lambda: s.fillna(value), lambda: es.fillna(value))
    check_same(lambda: s.clip(lower=value), lambda: es.clip(lower=value))
    check_same(lambda: s.clip(upper=value), lambda: es.clip(upper=value))


def test_frame_where_mask_clip_from_fuzzer():
    df = pd.DataFrame({"a": pd.Series([None], dtype="UInt8")})
    check_same(lambda: df.where(df <= 7, -1), lambda: em.from_pandas(df).where(em.from_pandas(df) <= 7, -1))
    df = pd.DataFrame({"b": pd.Series([5], dtype="uint8"), "e": pd.Series([1], dtype="int8")})
    check_same(lambda: df.where(df == 1, -1), lambda: em.from_pandas(df).where(em.from_pandas(df) == 1, -1))
    df = pd.DataFrame({"d": pd.Series([3], dtype="uint64"), "e": pd.Series([0], dtype="int32")})
    check_same(lambda: df.mask(df >= 1, -1), lambda: em.from_pandas(df).mask(em.from_pandas(df) >= 1, -1))
    df = pd.DataFrame({"e": pd.Series([7.0], dtype="Float64"), "i": pd.Series([7], dtype="Int64")})
    check_same(
        lambda: df.where(df != 7, np.nan), lambda: em.from_pandas(df).where(em.from_pandas(df) != 7, np.nan)
    )
    df = pd.DataFrame({"c": pd.Series([10], dtype="Int32")})
    check_same(lambda: df.clip(None, 5.5), lambda: em.from_pandas(df).clip(None, 5.5))
    df = pd.DataFrame({"b": pd.Series([], dtype="UInt8"), "u": pd.Series([], dtype="uint64")})
    check_same(lambda: df.clip(-1, 5.5), lambda: em.from_pandas(df).clip(-1, 5.5))
    s = pd.Series([], dtype="int32")
    check_same(lambda: s.clip(upper=2.5), lambda: em.from_pandas(s).clip(upper=2.5))


# --- isin / map(dict) --------------------------------------------------------------------------------

ISIN_COLUMNS = [
    pd.Series([None, True], dtype="boolean"),
    pd.Series([None, 1], dtype="Int64"),
    pd.Series([np.nan, 1.0]),
    pd.Series(["2020-01-01 00:00:00+00:00", None], dtype="datetime64[ms, UTC]"),
    pd.Series(["2020-01-01", None], dtype="datetime64[s]"),
    pd.Series(["1h", "1D", None], dtype="timedelta64[s]"),
]


def _finer_than_the_column(col, values):
    kind = {"M": pd.Timestamp, "m": pd.Timedelta}.get(col.dtype.kind)
    if kind is None or not isinstance(values, list):
        return False
    unit = np.datetime_data(getattr(col.dtype, "base", col.dtype))[0]
    naive = getattr(col.dtype, "tz", None) is None
    same_kind = [v for v in values if isinstance(v, kind) and (getattr(v, "tz", None) is None) == naive]
    return any(v != v.floor(unit) for v in same_kind)


ISIN_VALUES = [
    pd.Series([None], dtype="boolean"),
    [pd.NA],
    [None],
    [np.nan],
    pd.Series([None], dtype="Int64"),
    pd.Series([1.0, None], dtype="Float64"),
    [pd.Timestamp("2020-01-01", tz="UTC")],
    [pd.Timestamp("2020-01-01")],
    [pd.Timestamp("2020-01-01 00:00:00.000001")],
    [pd.Timedelta("1h")],
    [pd.Timedelta("1h") + pd.Timedelta(1, "ns")],
    [pd.NaT],
    pd.Series(["2020-01-01", None], dtype="datetime64[ns]"),
]


@pytest.mark.parametrize("values", ISIN_VALUES, ids=repr)
@pytest.mark.parametrize("col", ISIN_COLUMNS, ids=lambda s: str(s.dtype))
def test_isin_matches_pandas(col, values, request):
    if not PANDAS_31 and _finer_than_the_column(col, values):
        # pandas 3.0 casts the value to the column's unit first (truncating it: a match); 3.1 does not
        reason = "pandas < 3.1 truncates a finer value to the column's unit"
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
    # keys of a finer unit than the column (Timestamp('2020-01-01') is 'us') were skipped; a tz-naive
    # key matched tz-aware data; missing rows matched None / NA (pandas: NaN for floats, NaT for times,
    # pd.NA objects for masked data)
    for v in (values, em.from_pandas(values)) if isinstance(values, pd.Series) else (values,):
        check_same(lambda v=v: col.isin(values), lambda v=v: em.from_pandas(col).isin(v))


def test_map_dict_with_timedelta_keys_of_another_unit():
    s = pd.Series(["0 days 01:00:00", "1 days 00:00:00"], dtype="timedelta64[s]", index=pd.RangeIndex(1, 3))
    mapping = {pd.Timedelta("0 days 01:00:00"): 2, pd.Timedelta("-1 days +23:59:59"): 1}
    check_same(lambda: s.map(mapping), lambda: em.from_pandas(s).map(mapping))


# --- a frame // and % a scalar or a row: pandas computes a block (the int columns of a dtype) at once --


@pytest.mark.parametrize(
    "fn",
    [
        lambda d: 10 // d,
        lambda d: 100 % d,
        lambda d: d // 0,
        lambda d: d % 0,
        lambda d: d.rfloordiv(10),
        lambda d: d[["y", "z"]] // 0,
        lambda d: d.floordiv(2),
        lambda d: [10, 20, 1, 1, 1, 1] // d,
        lambda d: d.rmod([1000, 2000, 1, 1, 1, 1], axis="columns"),
    ],
)
def test_frame_division_by_zero_upcasts_the_whole_int_block(fn):
    df = pd.DataFrame(
        {
            "x": [0, 3],
            "y": [360, 180],
            "z": pd.Series([1, 2], dtype="int32"),
            "w": pd.Series([0, 2], dtype="uint8"),
            "f": [1.0, 2.0],
            "b": [True, False],
        }
    )
    check_same(lambda: fn(df), lambda: fn(em.from_pandas(df)))


def test_fillna_with_a_finer_time_is_refused_not_truncated():
    # Timedelta('1ms') into timedelta64[s] was truncated to 0 days (pandas changes the unit)
    s = pd.Series([None, pd.Timedelta("1s")], dtype="timedelta64[s]")
    check_same(lambda: s.fillna(pd.Timedelta("1ms")), lambda: em.from_pandas(s).fillna(pd.Timedelta("1ms")))
    check_same(lambda: s.fillna(pd.Timedelta("2s")), lambda: em.from_pandas(s).fillna(pd.Timedelta("2s")))
    d = pd.Series([None], dtype="datetime64[s]")
    value = pd.Timestamp("2020-01-01 00:00:00.5")
    check_same(lambda: d.fillna(value), lambda: em.from_pandas(d).fillna(value))

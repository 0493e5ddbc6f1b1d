"""Regressions of reductions, groupby, reshaping, joins and selections that the differential fuzzer
and pandas' docstring examples found: each case compares ember with pandas' own answer (or checks
that ember raises pandas' exception, or NotImplementedError)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


def pandas_30_differs(request, reason, when=True):
    """Under pandas 3.0 (the GPU host's) this case must fail: pandas 3.0 answers it wrongly or raises,
    ember gives pandas 3.1's answer, which the same test checks under 3.1 (a strict xfail)."""
    if when and not PANDAS_31:
        request.applymarker(pytest.mark.xfail(reason=f"pandas < 3.1: {reason}", strict=True))


def _both(fn, *frames):
    """(pandas' result or exception, ember's result or exception) of ``fn`` on the frames."""
    try:
        p = fn(*frames)
    except Exception as exc:  # noqa: BLE001
        p = exc
    try:
        e = fn(*[em.from_pandas(f) for f in frames])
    except Exception as exc:  # noqa: BLE001
        e = exc
    return p, e


def check(fn, *frames, convert=None, **kw):
    """ember gives pandas' result, pandas' exception type, or NotImplementedError (``convert`` takes
    pandas' result to the one ember gives, where only the version of pandas differs)."""
    p, e = _both(fn, *frames)
    if convert is not None and not isinstance(p, Exception):
        p = convert(p)
    if isinstance(p, Exception):
        assert isinstance(e, (type(p), NotImplementedError)), (p, e)
        return
    if isinstance(e, NotImplementedError):
        return
    if isinstance(e, Exception):
        raise e
    assert_eq(e, p, **kw)


def check_answers(fn, *frames, **kw):
    """ember gives pandas' result (no refusal)."""
    p, e = _both(fn, *frames)
    if isinstance(e, Exception):
        raise e
    assert_eq(e, p, **kw)


# --- merge(how='left_anti' / 'right_anti') -----------------------------------------------------------

_L = pd.DataFrame({"k": [1, 2, 3, 2], "a": [1.0, 2, 3, 4]}, index=[10, 11, 12, 13])
_RIGHTS = [
    pd.DataFrame({"k": [2, 1, 3, 5], "b": [1, 2, 3, 4]}, index=[7, 8, 9, 6]),
    pd.DataFrame({"k": [2, 2, 2, 5], "b": ["x", "y", None, "z"]}),
    pd.DataFrame({"k": pd.Series([], dtype="int64"), "b": pd.Series([], dtype="float32")}),
]


@pytest.mark.parametrize("how", ["left_anti", "right_anti"])
@pytest.mark.parametrize("r", range(len(_RIGHTS)))
@pytest.mark.parametrize(
    "kw",
    [
        {"on": "k"},
        {"on": "k", "sort": True},
        {"on": "k", "indicator": True},
        {"left_index": True, "right_index": True},
        {"left_on": "a", "right_on": "k"},
    ],
)
def test_merge_anti_joins_as_pandas(how, r, kw):
    check_answers(lambda a, b: a.merge(b, how=how, **kw), _L, _RIGHTS[r])


# --- DataFrame reductions: dtypes of the result, which columns pandas refuses, axis=1 ------------------

_KINDS = {
    "dt": pd.Series(pd.to_datetime(["2020-01-01", "2020-01-03", None])),
    "dtz": pd.Series(pd.to_datetime(["2020-01-01", "2020-01-03", None])).dt.tz_localize("UTC"),
    "td": pd.Series(pd.to_timedelta(["1D", "2D", None])),
    "str": pd.Series(["a", "b", None], dtype="str"),
    "string": pd.Series(["a", "b", None], dtype="string"),
    "obj": pd.Series(["a", "b", None], dtype=object),
    "cat": pd.Series(["a", "b", None], dtype="category"),
    "f32": pd.Series([1, 2, None], dtype="float32"),
    "f32nan": pd.Series([np.nan], dtype="float32"),
    "Int32na": pd.Series([None], dtype="Int32"),
    "Float64na": pd.Series([None], dtype="Float64"),
}
_OPS = ["sum", "prod", "mean", "median", "min", "max", "std", "var", "sem", "count", "nunique", "any", "all"]


@pytest.mark.parametrize("op", _OPS)
@pytest.mark.parametrize("kind", list(_KINDS))
@pytest.mark.parametrize("empty", [False, True])
@pytest.mark.parametrize("skipna", [True, False])
def test_frame_reduction_of_one_kind(op, kind, empty, skipna, request):
    # pandas 3.0: min / max of objects with a missing value raise TypeError (comparing it); any / all
    # of all-missing masked columns with skipna=False raise casting NA to bool
    obj_minmax = kind == "obj" and op in ("min", "max") and not empty
    masked_any_all = kind in ("Int32na", "Float64na") and op in ("any", "all") and not skipna and not empty
    pandas_30_differs(request, "raises where 3.1 answers", obj_minmax or masked_any_all)
    s = _KINDS[kind]
    df = pd.DataFrame({"x": s.iloc[:0] if empty else s})
    kw = {} if op in ("count", "nunique") else {"skipna": skipna}
    convert = None
    if not PANDAS_31 and not empty and not skipna and (op, kind) in _F32_AS_F64:
        convert = _as_float32  # pandas 3.0 gives float64 here; 3.1, and ember, keep float32
    check(lambda d: getattr(d, op)(**kw), df, convert=convert)


_F32_AS_F64 = {("median", "f32"), ("median", "f32nan"), ("sem", "f32nan")}


def _as_float32(res):
    return res.astype("float32") if isinstance(res, pd.Series) and res.dtype == "float64" else res


@pytest.mark.parametrize("op", ["sum", "mean", "median", "std", "min", "max"])
def test_frame_reduction_masked_all_missing_beside_float32(op):
    df = pd.DataFrame({"d": pd.Series([3.0], dtype="float32"), "a": pd.Series([None], dtype="Int64")})
    check_answers(lambda d: getattr(d, op)(numeric_only=True), df)


@pytest.mark.parametrize("op", ["sum", "mean", "median", "std", "var", "min", "max", "prod", "sem"])
def test_frame_reduction_with_no_column_left(op):
    """numeric_only drops every column: pandas' empty float64 Series labelled like the columns."""
    df = pd.DataFrame({"a": pd.Series([], dtype="timedelta64[s]"), "b": pd.Series([], dtype="str")})
    check_answers(lambda d: getattr(d, op)(numeric_only=True), df)


@pytest.mark.parametrize(
    "op", ["sum", "prod", "mean", "median", "min", "max", "std", "var", "count", "any", "all"]
)
def test_frame_row_reduction_with_no_columns(op):
    df = pd.DataFrame({"b": pd.Series(["x", "y"], dtype="str")}, index=[3, 4])
    kw = {"bool_only": True} if op in ("any", "all") else {"numeric_only": True}
    check_answers(lambda d: getattr(d, op)(axis=1, **kw), df)


@pytest.mark.parametrize(
    "data",
    [
        {"a": pd.Series(["x", None], dtype=object), "b": pd.to_datetime(["2020", None])},
        {"a": pd.Series([], dtype=object)},
        {"a": pd.Series(["x", None], dtype="str"), "b": [1.0, np.nan]},
    ],
)
def test_frame_count_across_columns_of_any_dtype(data):
    check_answers(lambda d: d.count(axis=1), pd.DataFrame(data))


@pytest.mark.parametrize("op", ["any", "all", "max", "median", "sum"])
def test_frame_row_reduction_of_non_numeric_columns_answers_or_refuses(op):
    df = pd.DataFrame({"b": pd.Series(["x", ""], dtype="string"), "t": pd.to_timedelta([0, 1], unit="s")})
    check(lambda d: getattr(d, op)(axis=1), df)


@pytest.mark.parametrize("op", ["sum", "mean", "median", "min", "std", "var"])
def test_frame_row_reduction_of_float32_stays_float32(op):
    df = pd.DataFrame(
        {"a": np.array([1, 2, np.nan], dtype="float32"), "b": np.array([1, 5, 2], dtype="int8")}
    )
    check_answers(lambda d: getattr(d, op)(axis=1), df)
    check_answers(lambda d: getattr(d, op)(axis=1), df[["a"]].iloc[:1])


@pytest.mark.parametrize("op", ["idxmax", "idxmin"])
@pytest.mark.parametrize("cols", [["a", "b", "c"], ["b"]])
@pytest.mark.parametrize("numeric_only", [True, False])
def test_frame_idxmax_numeric_only(op, cols, numeric_only):
    df = pd.DataFrame({"a": [1, 3], "b": ["x", "y"], "c": pd.to_datetime(["2020", "2021"])}, index=[5, 6])
    check_answers(lambda d: getattr(d[cols], op)(numeric_only=numeric_only), df)


# --- Series reductions: scalar types, strings --------------------------------------------------------

_SERIES = [
    pd.Series([1, 0]),
    pd.Series([True, False]),
    pd.Series([1.0, np.nan]),
    pd.Series([], dtype=float),
    pd.Series([1, None], dtype="Int64"),
    pd.Series(pd.to_timedelta([1, 0])),
    pd.Series([], dtype=object),
    pd.Series(["a", "b"], dtype=object),
    pd.Series(["a", None], dtype=object),
    pd.Series([None, "abc"], dtype=object),
    pd.Series(["a", ""], dtype="str"),
    pd.Series([], dtype="str"),
    pd.Series([None], dtype="str"),
    pd.Series([], dtype="string"),
    pd.Series([None], dtype="string"),
    pd.Series(["a", None], dtype="string"),
]


@pytest.mark.parametrize("op", ["sum", "min", "max", "any", "all"])
@pytest.mark.parametrize("i", range(len(_SERIES)))
@pytest.mark.parametrize("skipna", [True, False])
def test_series_reduction_value_and_type(op, i, skipna, request):
    # pandas 3.0: min / max of objects with a missing value raise TypeError (comparing it)
    pandas_30_differs(request, "min / max of objects with None raise", op in ("min", "max") and i in (8, 9))
    s = _SERIES[i]
    p, e = _both(lambda x: getattr(x, op)(skipna=skipna), s)
    if isinstance(p, Exception):
        assert isinstance(e, (type(p), NotImplementedError)), (p, e)
        return
    if isinstance(e, NotImplementedError):
        return
    if isinstance(e, Exception):
        raise e
    assert type(e) is type(p), (p, e)
    assert_eq(e, p)


# --- groupby ------------------------------------------------------------------------------------------

_GKINDS = {
    "str": pd.Series(["a", "b", None, "c"], dtype="str"),
    "dt": pd.Series(pd.to_datetime(["2020-01-01", "2020-01-03", None, "2020-01-02"])),
    "td": pd.Series(pd.to_timedelta(["1D", "2D", None, "3D"])),
    "cat": pd.Series(["a", "b", None, "a"], dtype="category"),
}


@pytest.mark.parametrize("kind", list(_GKINDS))
@pytest.mark.parametrize("op", ["any", "all", "std", "sem", "var", "prod", "mean", "cumsum", "diff"])
def test_groupby_op_of_non_numeric_values_answers_or_refuses(kind, op):
    """ember answers as pandas, raises pandas' TypeError, or NotImplementedError where pandas answers."""
    df = pd.DataFrame({"g": [1, 1, 2, 2], "x": _GKINDS[kind]})
    check(lambda d: getattr(d.groupby("g"), op)(), df)
    check(lambda d: getattr(d.groupby("g")["x"], op)(), df)


@pytest.mark.parametrize("op", ["first", "last", "min", "max"])
@pytest.mark.parametrize("min_count", [-1, 0, 1, 2, 3])
def test_groupby_min_count(op, min_count, request):
    # pandas 3.0 ignores min_count in min / max of an object column
    pandas_30_differs(request, "min_count ignored for objects", op in ("min", "max") and min_count in (2, 3))
    df = pd.DataFrame(
        {
            "A": [1, 1, 3],
            "B": [None, 5, 6],
            "C": [1, 2, 3],
            "D": ["x", None, "y"],
            "E": pd.array([1, None, 2], dtype="Int64"),
            "F": pd.to_datetime(["2020", None, "2021"]),
        }
    )
    check_answers(lambda d: getattr(d.groupby("A"), op)(min_count=min_count), df)
    check_answers(lambda d: getattr(d.groupby("A")["D"], op)(min_count=min_count), df)


@pytest.mark.parametrize(
    "x", [[1.0, np.nan, np.nan], [1.0, np.nan, 3.0], [1.0, 2.0, 3.0]], ids=["all_na_group", "one_na", "none"]
)
@pytest.mark.parametrize("skipna", [True, False])
@pytest.mark.parametrize("op", ["idxmax", "idxmin"])
def test_groupby_idxmax_of_missing_values_raises_as_pandas(x, skipna, op, request):
    # pandas 3.0's groupby idxmax / idxmin(skipna=False) of groups without NaN are NaN
    pandas_30_differs(request, "skipna=False gives NaN", not skipna and not np.isnan(x).any())
    df = pd.DataFrame({"g": [1, 1, 2], "x": x}, index=[5, 6, 7])
    for f in (lambda d: getattr(d.groupby("g"), op)(skipna=skipna), lambda d: d.groupby("g").agg(op)):
        p, e = _both(f, df)
        if isinstance(p, Exception):
            assert type(e) is type(p) and str(e) == str(p), (p, e)
        else:
            assert_eq(e, p)


def test_groupby_key_both_index_level_and_column_raises():
    df = pd.DataFrame({"a": [1, 1, 2], "b": [1.0, 2, 3]}).set_index(pd.Index([0, 1, 2], name="a"))
    p, e = _both(lambda d: d.groupby("a").sum(), df)
    assert isinstance(p, ValueError) and isinstance(e, ValueError), (p, e)


@pytest.mark.parametrize("group_keys", [False, True])
def test_groupby_apply_group_is_named_by_its_key(group_keys):
    s = pd.Series([0, 1, 2], index=["a", "a", "b"], name="v")
    check_answers(
        lambda x: x.groupby(x.index, group_keys=group_keys).apply(
            lambda g: g * 2 if g.name == "a" else g / 2
        ),
        s,
    )
    check_answers(lambda x: x.groupby(x.index).apply(lambda g: g.name), s)
    check_answers(lambda x: x.groupby(x.index).apply(lambda g: g.rename("z")), s)
    df = pd.DataFrame({"k": [1, 1, 2], "v": [1, 2, 3]})
    check_answers(lambda d: d.groupby("k")["v"].apply(lambda g: g * g.name), df)


# --- iloc's column part ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        (slice(None), [True, False, True]),
        ([True, False], [False, True, True]),
        (slice(None), np.array([True, False, True])),
        (slice(None), [True, False]),
        (slice(None), [2, 0]),
        (slice(None), [-1]),
        (slice(None), [3]),
        (slice(None), 1),
    ],
)
def test_iloc_columns_by_mask_and_positions(key):
    df = pd.DataFrame({"a": [1, 2], "b": [3.0, 4], "c": ["x", "y"]})
    check(lambda d: d.iloc[key], df)


# --- timedelta sum beyond int64 --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ticks",
    [[2**62, 2**62], [2**62, 2**62 - 1, -5], [-(2**62)] * 3, [1, 2], [2**62, -(2**62), 2**62]],
)
@pytest.mark.parametrize("frame", [False, True])
def test_timedelta_sum_overflow_raises_as_pandas(ticks, frame, request):
    # pandas 3.0 gives NaT or a wrapped sum where the sum reaches 2**63 in float64 (2**63 - 6 too),
    # except a Series' negative one: ValueError there (as ember under pandas 3.0; 3.1's
    # OutOfBoundsTimedelta)
    reaches = abs(sum(float(t) for t in ticks)) >= 2.0**63
    pandas_30_differs(request, "NaT or a wrapped sum", reaches and (frame or ticks[0] > 0))
    s = pd.Series(np.array(ticks, dtype="m8[ns]"))
    obj = s.to_frame() if frame else s
    p, e = _both(lambda x: x.sum(), obj)
    if isinstance(p, Exception):
        assert type(e) is type(p), (p, e)
    else:
        assert_eq(e, p)

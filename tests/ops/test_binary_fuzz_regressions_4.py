"""Binary operators against pandas: object columns of bools beside strings and times, 'string' data
beside missing objects, MultiIndex labels holding missing values, categorical labels beside empty
ones, labels of two dtypes, missing objects in arithmetic, object strings beside an empty Series."""

from __future__ import annotations

import operator

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

T = pd.Timestamp


def _both(fn, *objs):
    """ember's and pandas' answers (a result, or the exception raised)."""
    out = []
    for args in (objs, [em.from_pandas(o) for o in objs]):
        try:
            out.append(fn(*args))
        except Exception as exc:  # noqa: BLE001 - compared below
            out.append(exc)
    return out


def check(fn, *objs, refusal_ok=False):
    """ember's answer is pandas' (or its exception type; ``refusal_ok``: or a NotImplementedError)."""
    expected, got = _both(fn, *objs)
    if refusal_ok and isinstance(got, NotImplementedError):
        return
    if isinstance(expected, Exception):
        assert isinstance(got, type(expected)), f"pandas {expected!r}, ember {got!r}"
        assert not isinstance(got, NotImplementedError)
        return
    if isinstance(got, Exception):
        raise got
    if str(expected.dtype) == "bool[pyarrow]" and str(got.dtype) == "boolean":
        expected = expected.astype("boolean")  # ember keeps 'boolean' for 'string' comparisons
    assert_eq(got, expected)


OBJ_BOOLS = {
    "some": [True, np.nan, False],
    "sparse": [np.nan, True, np.nan],
}
OTHERS = {
    "objstr": pd.Series(["a", None, "b"], dtype="object"),
    "objstr_sparse": pd.Series([" x ", np.nan, np.nan], dtype="object"),
    "dt": pd.Series([T("2020-01-01"), None, T("2021-01-01")], dtype="datetime64[ns]"),
    "dts": pd.Series([T("2020-01-01"), T("2020-01-02"), None], dtype="datetime64[s]"),
    "dttz": pd.Series([T("2020-01-01"), None, T("2021-01-01")]).dt.tz_localize("Europe/Berlin"),
    "td": pd.Series([pd.Timedelta(1, "h"), None, pd.Timedelta(2, "h")], dtype="timedelta64[ns]"),
    "nat": pd.Series([None] * 3, dtype="datetime64[ns]"),
    "string": pd.Series(["a", None, "b"], dtype="string"),
    "str": pd.Series(["a", None, "b"], dtype="str"),
    "int": pd.Series([1, 2, 3]),
    "Int64": pd.Series([1, None, 3], dtype="Int64"),
    "cat": pd.Series(pd.Categorical(["a", None, "b"])),
}
CMPS = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@pytest.mark.parametrize("op", CMPS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("other", list(OTHERS))
@pytest.mark.parametrize("bools", list(OBJ_BOOLS))
@pytest.mark.parametrize("n", [3, 1, 0])
def test_object_bools_compared_with_other_kinds(bools, other, op, n):
    """An object column of bools ordered beside object strings or times: pandas compares the
    objects row by row (TypeError where both hold a value, else all False). Columns of two kinds
    and no rows may be refused (pandas answers case by case)."""
    a = pd.Series(OBJ_BOOLS[bools], dtype="object").iloc[:n]
    b = OTHERS[other].iloc[:n]
    check(op, a, b, refusal_ok=n == 0)
    check(op, b, a, refusal_ok=n == 0)


def test_merge_outer_object_bools_beside_object_strings():
    df = pd.DataFrame({"d": pd.Series([None], dtype="Float64"), "e": pd.Series([" x "], dtype="object")})
    o1 = pd.DataFrame({"e": pd.Series([True], dtype="bool"), "d": pd.Series([-7], dtype="int64")}).set_axis(
        pd.Index(["b"], dtype="str")
    )

    def fn(x, y):
        r = x.merge(y, how="outer", on="d", sort=True)
        return r["e_x"] < r["e_y"]

    check(fn, df, o1)


@pytest.mark.parametrize("op", ["lt", "eq", "ne", "ge"])
@pytest.mark.parametrize("flip", [False, True])
def test_string_beside_missing_object_bools(op, flip):
    """'string' data beside an object column of missing values (alignment of a bool Series): pandas
    reads the objects as Arrow's nulls, all missing."""
    s = pd.Series(["a"], dtype="string", index=pd.Index(["B"], dtype="str"), name="s")
    b = (pd.Series([], dtype="int8") != 3).shift(-1)

    def fn(x, y):
        return getattr(y, op)(x) if flip else getattr(x, op)(y)

    check(fn, b, s)


def test_lt_of_shifted_bools_beside_string():
    df = pd.Series([], dtype="int8")
    o1 = pd.Series(["a"], dtype="string", index=pd.Index(["B"], dtype="str"), name="s")
    check(lambda x, y: (x != 3).shift(-1).lt(y), df, o1)


# --- MultiIndex labels holding missing values --------------------------------------------------------


def test_eq_value_counts_beside_tuples_of_other_unit():
    df = pd.DataFrame({"b": pd.Series(["2020-01-01 00:01:00", None, "2020-12-31"], dtype="datetime64[s]")})
    o2 = pd.Series(
        [255, 42, 42],
        dtype="uint8",
        index=pd.Index([(T("2020-01-01 00:01:00"),), (pd.NaT,), (T("2020-12-31"),)], dtype="object"),
    )
    check(lambda x, y: x.value_counts(normalize=True, dropna=False) == y, df, o2)


def test_gt_value_counts_beside_tuples_holding_nat():
    df = pd.DataFrame(
        {
            "b": pd.Series(
                ["2020-01-01 01:00:00", None, "2020-01-01", "2020-01-01 00:00:07", "1900-01-01", None],
                dtype="datetime64[ns]",
            )
        }
    )
    o1 = pd.Series(
        [None, None, -1.0, None, -3.25],
        dtype="Float64",
        index=pd.Index(
            [
                (pd.NaT,),
                (T("2020-01-01"),),
                (T("2020-01-01 01:00:00"),),
                (T("2020-01-01 00:00:07"),),
                (T("1900-01-01"),),
            ],
            dtype="object",
        ),
    )
    check(lambda x, y: x.value_counts(dropna=False) > y, df, o1)


def test_ge_value_counts_of_timedeltas_beside_tuples():
    td = ["-1 days", "0 days 00:00:07", None, "365 days", "0 days 00:00:07", None]
    df = pd.DataFrame({"d": pd.Series(td, dtype="timedelta64[ns]")})
    o1 = pd.Series(
        [2, 5, 1, 1],
        dtype="Int64",
        index=pd.Index(
            [(pd.Timedelta("7s"),), (pd.NaT,), (pd.Timedelta("365 days"),), (pd.Timedelta("-1 days"),)],
            dtype="object",
        ),
        name="s",
    )
    check(lambda x, y: x.value_counts(subset=["d"], dropna=False) >= y, df, o1)


def test_eq_value_counts_of_masked_na_beside_tuple():
    df = pd.DataFrame({"b": pd.Series([None], dtype="Int32")})
    o1 = pd.Series([True], dtype="bool", index=pd.Index([(pd.NA,)], dtype="object"), name="s")
    check(lambda x, y: x.value_counts(subset=["b"], dropna=False) == y, df, o1)


def test_eq_multiindex_other_order_raises():
    a = pd.Series([1, 2], index=pd.MultiIndex.from_arrays([[1, None]]))
    b = pd.Series([1, 2], index=pd.MultiIndex.from_arrays([[None, 1]]))
    check(operator.eq, a, b)


# --- categorical labels beside labels of no rows -----------------------------------------------------


@pytest.mark.parametrize(
    "values, categories",
    [
        (["b", "a", None], ["b", "a"]),
        ([None, "a", "b"], ["b", "a"]),
        ([None, "b", "a"], ["b", "a"]),
        (["b", "a"], ["a", "b"]),
        (["a", "日本"], ["a", "b", "ç", "日本", ""]),
    ],
)
@pytest.mark.parametrize("op", ["add_fill", "radd_fill", "xor", "sub_fill"])
def test_categorical_labels_beside_empty_labels(values, categories, op):
    """pandas joins labels beside labels of no rows in their order when they are monotonic by the
    categories' codes (unordered too), else sorted."""
    idx = pd.CategoricalIndex(values, categories=categories, name="s")
    if op == "xor":
        s = pd.Series([True] * len(values), index=idx)
        other = pd.Series([], dtype="int64", index=pd.Index([], dtype="str"))
        check(operator.xor, s, other)
        return
    s = pd.Series(range(len(values)), index=idx)
    other = pd.Series([], dtype="Int64", index=pd.Index([], dtype="str"))
    fns = {
        "add_fill": lambda x, y: x.add(y, fill_value=0),
        "radd_fill": lambda x, y: y.add(x, fill_value=0),
        "sub_fill": lambda x, y: x.sub(y, fill_value=1),
    }
    check(fns[op], s, other)


def test_groupby_size_sub_empty_labels_fill_value():
    cats = ["a", "b", "ç", "日本", ""]
    df = pd.DataFrame(
        {
            "a": pd.Categorical(["日本", "a"], categories=cats),
            "d": pd.Categorical(["日本", ""], categories=cats),
        }
    )
    o1 = pd.Series([], dtype="Int64", index=pd.Index([], dtype="str"))
    check(lambda x, y: x.groupby("a", sort=False)[["d"]].size().sub(y, fill_value=1), df, o1)


def test_groupby_all_xor_empty_labels():
    s = pd.Series(pd.Categorical(["日本", "a"], categories=["a", "b", "ç", "日本", ""]), name="s")
    o1 = pd.Series([], dtype="int64", index=pd.Index([], dtype="str"))
    check(lambda x, y: x.groupby(x, sort=True).all() ^ y, s, o1)


# --- labels of two dtypes ----------------------------------------------------------------------------

Idx = pd.Index


@pytest.mark.parametrize(
    "left, right",
    [
        (pd.RangeIndex(2), Idx([1.0, 0.0])),
        (pd.RangeIndex(2), Idx([0.0, 1.0])),
        (Idx([0, 1], name="a"), Idx([0.0])),
        (Idx([0, 1], name="a"), Idx([1.0, 0.0])),
        (Idx([1, 0], name="a"), Idx([1.0, 0.0])),
        (Idx([0, 0, 1]), Idx([1.0, 0.0])),
        (Idx([0, 0, 1]), Idx([0.0, 0.0, 1.0])),
        (Idx([0, 0, 1]), Idx([0.0, 1.0])),
        (Idx([0, 1], dtype="int32"), Idx([1, 0])),
        (Idx([0, 1], dtype="int32"), Idx([0, 1])),
    ],
)
@pytest.mark.parametrize("op", ["add", "sub"])
def test_labels_of_two_dtypes_keep_left_only_when_joined_in_place(left, right, op):
    """pandas keeps the left labels only where its join needs no left indexer (equal labels, or
    both increasing): otherwise the union in the common dtype."""
    a = pd.Series(range(len(left)), index=left)
    b = pd.Series(range(len(right)), index=right)
    check(lambda x, y: getattr(x, op)(y), a, b)


def test_datetime_tz_add_timedeltas_on_unordered_float_labels():
    a = pd.Series(
        ["2020-01-01 01:00:00.5+01:00", "2020-01-01 01:00:01+01:00"], dtype="datetime64[ns, Europe/Berlin]"
    )
    b = pd.Series(["1h", "1h"], dtype="timedelta64[ns]", index=pd.Index([1.0, 0.0]))
    check(lambda x, y: x.add(y), a, b)


# --- object columns of missing values in arithmetic --------------------------------------------------


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize(
    "op", ["mul", "add", "sub", "truediv", "rsub", "radd", "rtruediv", "floordiv", "mod", "rmod", "rfloordiv"]
)
@pytest.mark.parametrize("value", [0, 2, 1.5, True, False, 0.0])
def test_object_na_from_isdigit_with_scalar(n, op, value):
    """An object column of pd.NA (str.isdigit of missing objects): Python's operator on pd.NA (NA
    stays NA; pandas' zero-division fill of // and % raises its TypeError)."""
    s = pd.Series([None] * n, dtype="Int32", name="s")
    check(lambda x: getattr(x.astype("object").str.isdigit(), op)(value), s)


# --- object strings beside a Series of no rows -------------------------------------------------------


@pytest.mark.parametrize(
    "left, right, right_index",
    [
        ([], ["AB"], range(43, 46, 3)),
        (["x"], [], None),
        (["a"], ["AB"], None),
        (["a", None], ["AB"], None),
        (["b", "a"], [], []),
        ([], ["b", "a"], [3, 1]),
        ([], ["b", "a"], [1, 3]),
    ],
)
@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("flex", [False, True])
def test_object_strings_beside_empty_keep_object(left, right, right_index, flip, flex):
    l_ = pd.Series(left, dtype="object")
    index = right_index if right_index is not None else range(5, 5 + len(right))
    r_ = pd.Series(right, dtype="object", index=index)

    def fn(x, y):
        x, y = (y, x) if flip else (x, y)
        return x.add(y, fill_value="b") if flex else x + y

    check(fn, l_, r_)


def test_empty_object_sum_add_fill_value():
    df = pd.DataFrame({"e": pd.Series([], dtype="float32"), "b": pd.Series([], dtype="object")})
    o1 = pd.Series(["AB"], dtype="object", index=pd.RangeIndex(43, 46, 3, name="idx"))
    check(lambda x, y: (x["b"] + x["e"]).add(y, fill_value="b"), df, o1)


# --- masked columns ordered beside categoricals of strings ------------------------------------------


@pytest.mark.parametrize(
    "dtype, values",
    [("boolean", [True, None]), ("Int64", [1, None]), ("Float64", [1.5, None]), ("UInt8", [1, None])],
)
@pytest.mark.parametrize("cat_values", [[None, None], ["a", None], ["a", "b"], [None, "a"]])
@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("op", [operator.lt, operator.ge], ids=lambda f: f.__name__)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_masked_ordered_beside_categorical_strings(dtype, values, cat_values, ordered, op):
    """pandas compares a masked column's values with the categorical's objects row by row: a str
    raises Python's TypeError; a categorical of missing values only gives all missing."""
    m = pd.Series(values, dtype=dtype)
    c = pd.Series(pd.Categorical(cat_values, categories=["a", "b"], ordered=ordered))
    check(op, m, c)
    check(op, c, m)


def test_boolean_lt_categorical_of_missing_values():
    df = pd.DataFrame(
        {"c": pd.Series([True], dtype="boolean"), "d": pd.Categorical([None], categories=["a", "b", "ç"])}
    )
    check(lambda x: x["c"] < x["d"], df)


@pytest.mark.parametrize("dtype", ["datetime64[s]", "datetime64[ns, UTC]", "timedelta64[ns]"])
@pytest.mark.parametrize("cat_values", [[None, None], ["a", None]])
@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("n", [2, 0])
def test_times_ordered_beside_categorical_strings(dtype, cat_values, ordered, n):
    """Times ordered beside a categorical of missing values only: pandas reads them as NaT (all
    False); a value raises."""
    value = (
        pd.Timedelta(1, "s")
        if dtype.startswith("timedelta")
        else T("2020-01-01", tz="UTC" if "UTC" in dtype else None)
    )
    t = pd.Series([value, None]).astype(dtype).iloc[:n]
    c = pd.Series(pd.Categorical(cat_values, categories=["a", "b"], ordered=ordered)).iloc[:n]
    check(operator.lt, t, c, refusal_ok=n == 0)
    check(operator.ge, c, t, refusal_ok=n == 0)

"""join_indices / semi_anti_indices / cross_indices / check_validate against pandas.merge.

The expected row order is read back from pandas: both frames carry row-number columns, pandas merges
them, and the row numbers of its result (NaN -> -1) are the indices ember must produce.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ember.backend import to_host
from ember.column import from_pandas
from ember.ops.join import check_validate, cross_indices, join_indices, semi_anti_indices

HOWS = ["inner", "left", "right", "outer"]
PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


def _frame(cols: dict) -> pd.DataFrame:
    return pd.DataFrame(
        {
            k: pd.Series(v) if not isinstance(v, pd.Series) else v.reset_index(drop=True)
            for k, v in cols.items()
        }
    )


def pandas_indices(left: pd.DataFrame, right: pd.DataFrame, on: list[str], how: str, sort: bool = False):
    """The (left rows, right rows) of pandas' merge, -1 for a missing side."""
    lf = left.assign(__l=np.arange(len(left)))
    rf = right.assign(__r=np.arange(len(right)))
    m = lf.merge(rf, on=on, how=how, sort=sort)
    if how == "inner" and not sort and not PANDAS_31:  # pandas 3.0 does not always keep the left rows'
        m = m.sort_values(["__l", "__r"], kind="stable")  # order (nor the right's within a key); 3.1 does
    return (m["__l"].fillna(-1).to_numpy().astype(np.int64), m["__r"].fillna(-1).to_numpy().astype(np.int64))


def ember_indices(left: pd.DataFrame, right: pd.DataFrame, on: list[str], how: str, xp, sort: bool = False):
    lk = [from_pandas(left[c], xp) for c in on]
    rk = [from_pandas(right[c], xp) for c in on]
    li, ri = join_indices(lk, rk, how, sort=sort, names=on)
    return to_host(li), to_host(ri)


def check(left, right, how, xp, sort=False, on=("k",)):
    left = left if isinstance(left, pd.DataFrame) else _frame({"k": left})
    right = right if isinstance(right, pd.DataFrame) else _frame({"k": right})
    on = list(on)
    el, er = pandas_indices(left, right, on, how, sort)
    gl, gr = ember_indices(left, right, on, how, xp, sort)
    assert gl.dtype == np.int64 and gr.dtype == np.int64
    np.testing.assert_array_equal(gl, el, err_msg=f"left rows, how={how} sort={sort}")
    np.testing.assert_array_equal(gr, er, err_msg=f"right rows, how={how} sort={sort}")


ALL = pytest.mark.parametrize("how,sort", [(h, s) for h in HOWS for s in (False, True)])


# --- orders and multiplicities -----------------------------------------------------------------------


@ALL
def test_duplicates_on_both_sides(how, sort, xp):
    check([3, 1, 3, 2, 5, 1], [1, 3, 3, 4, 1, 6], how, xp, sort)


@ALL
def test_unique_keys(how, sort, xp):
    check([4, 2, 9, 7], [7, 4, 8, 1, 2], how, xp, sort)


@ALL
def test_monotonic_keys(how, sort, xp):
    check([1, 1, 2, 3, 5], [1, 2, 2, 4, 5], how, xp, sort)


@ALL
def test_no_matches(how, sort, xp):
    check([1, 2, 3], [4, 5], how, xp, sort)


@ALL
@pytest.mark.parametrize("side", ["left", "right", "both"])
def test_empty_sides(how, sort, side, xp):
    left = pd.Series([3, 1, 2, 1], dtype="int64")
    right = pd.Series([2, 5, 2], dtype="int64")
    if side in ("left", "both"):
        left = left.iloc[:0]
    if side in ("right", "both"):
        right = right.iloc[:0]
    check(left, right, how, xp, sort)


@ALL
def test_empty_side_of_other_dtype(how, sort, xp):
    check(pd.Series([], dtype="float64"), pd.Series(["b", "a", None, "b"]), how, xp, sort)
    check(pd.Series([2, 1, 2]), pd.Series([], dtype="str"), how, xp, sort)


@ALL
def test_one_row(how, sort, xp):
    check([1], [1], how, xp, sort)
    check([1], [2], how, xp, sort)


# --- null keys -----------------------------------------------------------------------------------------


@ALL
def test_nan_keys_match_each_other(how, sort, xp):
    check([2.0, np.nan, 2.0, 3.0, np.nan], [1.0, np.nan, 2.0, 2.0, 4.0, np.nan], how, xp, sort)


@ALL
def test_nullable_int_keys(how, sort, xp):
    left = pd.Series([2, None, 2, 3, None], dtype="Int64")
    right = pd.Series([1, None, 2, 2, 4, None], dtype="Int64")
    check(left, right, how, xp, sort)


@ALL
def test_nan_matches_na_across_float_and_nullable(how, sort, xp):
    check(pd.Series([1.0, np.nan, 2.0]), pd.Series([None, 1, 2, None], dtype="Int64"), how, xp, sort)


@ALL
def test_string_keys_with_nulls(how, sort, xp):
    left = pd.Series(["b", None, "b", "c", None, "é", "a"])
    right = pd.Series(["a", None, "b", "b", "d", np.nan, "é", ""])
    check(left, right, how, xp, sort)


@ALL
@pytest.mark.parametrize("dtype", ["str", "string", "object"])
def test_string_dtypes(how, sort, dtype, xp):
    left = pd.Series(["apple", "b", "apple", "zz", "ab"], dtype=dtype)
    right = pd.Series(["ab", "apple", "abc", "zz", "apple"], dtype=dtype)
    check(left, right, how, xp, sort)


@ALL
def test_all_null_keys(how, sort, xp):
    check(pd.Series([np.nan, np.nan]), pd.Series([np.nan, 1.0, np.nan]), how, xp, sort)


# --- dtypes --------------------------------------------------------------------------------------------


@ALL
@pytest.mark.parametrize(
    "ldt,rdt",
    [
        ("int8", "int64"),
        ("int16", "uint32"),
        ("uint8", "uint64"),
        ("int64", "float64"),
        ("float32", "float64"),
        ("int32", "float32"),
        ("bool", "bool"),
        ("uint64", "int64"),
    ],
)
def test_numeric_dtype_pairs(how, sort, ldt, rdt, xp):
    left = pd.Series([3, 1, 0, 3, 2]).astype(ldt)
    right = pd.Series([1, 0, 3, 5, 1]).astype(rdt)
    check(left, right, how, xp, sort)


@ALL
def test_int64_extremes(how, sort, xp):
    big = np.iinfo(np.int64)
    check(pd.Series([big.max, big.min, 0, big.max]), pd.Series([big.max, 0, big.min]), how, xp, sort)
    left = pd.Series([big.max, None, 1], dtype="Int64")
    check(left, pd.Series([None, big.max, 1], dtype="Int64"), how, xp, sort)


@ALL
def test_float_infinities_and_nan(how, sort, xp):
    check([np.inf, np.nan, -np.inf, np.inf], [np.nan, np.inf, 0.0, -0.0], how, xp, sort)


@ALL
def test_nullable_boolean(how, sort, xp):
    check(
        pd.Series([True, None, False, True], dtype="boolean"),
        pd.Series([False, True, None], dtype="boolean"),
        how,
        xp,
        sort,
    )


@ALL
def test_datetime_keys(how, sort, xp):
    left = pd.Series(pd.to_datetime(["2024-01-02", None, "2023-05-01", "2024-01-02"]))
    right = pd.Series(pd.to_datetime(["2023-05-01", "2024-01-02", None, "2030-01-01"]))
    check(left, right, how, xp, sort)


@ALL
def test_datetime_keys_of_different_units(how, sort, xp):
    left = pd.Series(
        pd.to_datetime(["2024-01-02 00:00:00", "2023-05-01 00:00:00", "2024-01-02 00:00:01"])
    ).astype("datetime64[s]")
    right = pd.Series(
        pd.to_datetime(["2023-05-01 00:00:00", "2024-01-02 00:00:00", "2024-01-02 00:00:01"])
    ).astype("datetime64[ns]")
    check(left, right, how, xp, sort)


@ALL
def test_tz_aware_keys(how, sort, xp):
    base = pd.Series(pd.to_datetime(["2024-01-02 10:00", "2024-01-02 12:00", None])).dt.tz_localize("UTC")
    check(base, base.iloc[::-1].dt.tz_convert("US/Eastern"), how, xp, sort)


@ALL
def test_timedelta_keys(how, sort, xp):
    check(
        pd.to_timedelta(pd.Series(["1s", None, "2s", "1s"])),
        pd.to_timedelta(pd.Series(["2s", "1s", None])),
        how,
        xp,
        sort,
    )


@ALL
def test_categorical_keys_same_categories(how, sort, xp):
    dt = pd.CategoricalDtype(["z", "a", "m"])
    check(
        pd.Series(["a", None, "z", "m"], dtype=dt),
        pd.Series(["m", None, "z", "a", "a"], dtype=dt),
        how,
        xp,
        sort,
    )


@ALL
def test_categorical_keys_permuted_categories(how, sort, xp):
    left = pd.Series(["a", "b", None, "c"], dtype=pd.CategoricalDtype(["c", "b", "a"]))
    right = pd.Series(["b", "a", "c", None], dtype=pd.CategoricalDtype(["a", "b", "c"]))
    check(left, right, how, xp, sort)


@ALL
def test_categorical_against_strings(how, sort, xp):
    left = pd.Series(["a", "b", None, "c"], dtype="category")
    check(left, pd.Series(["c", "a", "d", "a"]), how, xp, sort)


@ALL
def test_categorical_keys_different_categories(how, sort, xp):
    left = pd.Series(["a", "b", "c"], dtype=pd.CategoricalDtype(["a", "b", "c"]))
    # codes not monotonic on purpose: when both sides' codes are monotonic, pandas joins the
    # CategoricalIndexes by code and a right join with sort=True comes out in right order (a quirk)
    right = pd.Series(["d", "c", "a", "c"], dtype=pd.CategoricalDtype(["c", "d", "a"]))
    check(left, right, how, xp, sort)


@ALL
@pytest.mark.parametrize(
    "left,right",
    [
        (  # nulls on both sides (they match each other) and unused categories
            pd.Series(["b", None, "x", "b", None], dtype=pd.CategoricalDtype(["x", "b", "unused"])),
            pd.Series([None, "b", "q", "x"], dtype=pd.CategoricalDtype(["q", "b", "x", "zz"])),
        ),
        (  # integer categories compare by value
            pd.Series([3, 1, 1, 3], dtype=pd.CategoricalDtype([3, 1, 7])),
            pd.Series([1, 3, 9, 1], dtype=pd.CategoricalDtype([9, 1, 3])),
        ),
        (  # no categories on one side: every key missing
            pd.Series([None, None], dtype=pd.CategoricalDtype(["a"])),
            pd.Series([None], dtype=pd.CategoricalDtype([])).astype(pd.CategoricalDtype(["c", "d"])),
        ),
    ],
    ids=["nulls_unused", "int_categories", "all_missing"],
)
def test_categorical_keys_different_categories_by_value(left, right, how, sort, xp):
    check(left, right, how, xp, sort)


# --- several keys ----------------------------------------------------------------------------------


@ALL
def test_multi_key(how, sort, xp):
    left = _frame({"a": [1, 1, 2, 2, np.nan, 1], "b": ["x", "y", "x", None, "x", "x"]})
    right = _frame({"a": [2, 1, 1, np.nan, 2, 1], "b": ["x", "x", "x", "x", None, "z"]})
    check(left, right, how, xp, sort, on=("a", "b"))


@ALL
def test_multi_key_three_columns(how, sort, xp):
    rng = np.random.default_rng(7)

    def mk(n):
        return _frame(
            {
                "a": rng.integers(0, 3, n).astype("int8"),
                "b": pd.Series(pd.to_datetime(rng.integers(0, 2, n), unit="D")),
                "c": pd.Series(rng.integers(0, 2, n)).astype("Int64"),
            }
        )

    check(mk(30), mk(25), how, xp, sort, on=("a", "b", "c"))


# --- dtype errors and warnings -------------------------------------------------------------------------


def _pandas_error(left, right, on):
    with pytest.raises(ValueError) as info:
        pd.merge(_frame({on: left}), _frame({on: right}), on=on)
    return str(info.value)


@pytest.mark.parametrize(
    "left,right",
    [
        (pd.Series([1, 2]), pd.Series(["1", "2"])),
        (pd.Series(["a"]), pd.Series([1.5])),
        (pd.Series(pd.to_datetime(["2024-01-01"])), pd.Series([1])),
        (pd.Series([1]), pd.Series(pd.to_datetime(["2024-01-01"]))),
        (pd.Series(pd.to_datetime(["2024-01-01"])), pd.Series(pd.to_timedelta(["1s"]))),
        (
            pd.Series(pd.to_datetime(["2024-01-01"])),
            pd.Series(pd.to_datetime(["2024-01-01"])).dt.tz_localize("UTC"),
        ),
    ],
)
def test_incompatible_keys_raise_like_pandas(left, right, xp):
    expected = _pandas_error(left, right, "k")
    with pytest.raises(ValueError) as info:
        join_indices([from_pandas(left, xp)], [from_pandas(right, xp)], "inner", names=["k"])
    assert str(info.value) == expected


def test_int_float_warning(xp):
    left, right = pd.Series([1, 2]), pd.Series([1.5, 2.0])
    with pytest.warns(UserWarning, match="float values are not equal to their int representation"):
        pd.merge(_frame({"k": left}), _frame({"k": right}), on="k")
    with pytest.warns(UserWarning, match="float values are not equal to their int representation"):
        join_indices([from_pandas(left, xp)], [from_pandas(right, xp)], "inner")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        join_indices([from_pandas(left, xp)], [from_pandas(pd.Series([1.0, np.nan]), xp)], "inner")


def test_bad_how_and_key_counts(xp):
    k = [from_pandas(pd.Series([1]), xp)]
    with pytest.raises(ValueError, match="how must be one of"):
        join_indices(k, k, "cross")
    with pytest.raises(ValueError, match="len\\(right_on\\) must equal len\\(left_on\\)"):
        join_indices(k, k + k, "inner")


# --- semi / anti / cross -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "left,right",
    [
        ([3, 1, 2, np.nan, 1], [1, 1, np.nan]),
        ([3, 1, 2], [4]),
        (["a", None, "b", "a"], ["a", None]),
        ([], [1.0]),
        ([1.0, 2.0], []),
    ],
)
def test_semi_and_anti(left, right, xp):
    ls, rs = (
        pd.Series(left, dtype=None if left else "float64"),
        pd.Series(right, dtype=None if right else "float64"),
    )
    lk, rk = [from_pandas(ls, xp)], [from_pandas(rs, xp)]
    semi = to_host(semi_anti_indices(lk, rk, anti=False))
    anti = to_host(semi_anti_indices(lk, rk, anti=True))
    np.testing.assert_array_equal(semi, np.flatnonzero(ls.isin(rs).to_numpy()))
    el, _ = pandas_indices(_frame({"k": ls}), _frame({"k": rs}), ["k"], "left_anti")
    np.testing.assert_array_equal(anti, el)
    assert semi.dtype == np.int64 and anti.dtype == np.int64


@pytest.mark.parametrize("nl,nr", [(3, 2), (0, 4), (4, 0), (1, 1), (0, 0)])
def test_cross(nl, nr, xp):
    left, right = _frame({"a": np.arange(nl)}), _frame({"b": np.arange(nr)})
    m = left.assign(__l=np.arange(nl)).merge(right.assign(__r=np.arange(nr)), how="cross")
    li, ri = cross_indices(nl, nr, xp)
    np.testing.assert_array_equal(to_host(li), m["__l"].to_numpy())
    np.testing.assert_array_equal(to_host(ri), m["__r"].to_numpy())


# --- validate ------------------------------------------------------------------------------------------


VALIDATE_CASES = [
    ([1, 2, 3], [1, 2, 3]),
    ([1, 1, 2], [1, 2, 3]),
    ([1, 2, 3], [3, 3, 2]),
    ([1, 1, 2, 2], [2, 2, 1, 1]),
    ([1.0, np.nan, np.nan], [1.0, np.nan]),
    ([1.0, np.nan], [np.nan, 2.0, np.nan]),
    (["a", "b", None], ["b", None, None]),
]


@pytest.mark.parametrize(
    "validate",
    ["one_to_one", "1:1", "one_to_many", "1:m", "many_to_one", "m:1", "many_to_many", "m:m", None, "bogus"],
)
@pytest.mark.parametrize("left,right", VALIDATE_CASES)
def test_validate_like_pandas(left, right, validate, xp):
    lf, rf = _frame({"k": left}), _frame({"k": right})
    expected = None
    try:
        pd.merge(lf, rf, on="k", validate=validate)
    except ValueError as exc:  # MergeError is a ValueError
        expected = exc
    lk, rk = [from_pandas(lf["k"], xp)], [from_pandas(rf["k"], xp)]
    if expected is None:
        check_validate(lk, rk, validate, ["k"], ["k"])
        return
    with pytest.raises(type(expected)) as info:
        check_validate(lk, rk, validate, ["k"], ["k"])
    assert str(info.value) == str(expected)


def test_validate_multi_key(xp):
    lf = _frame({"a": [1, 1, 2], "b": ["x", "x", "y"]})
    rf = _frame({"a": [1, 1, 2], "b": ["x", "y", "y"]})
    with pytest.raises(pd.errors.MergeError) as expected:
        pd.merge(lf, rf, on=["a", "b"], validate="1:1")
    lk = [from_pandas(lf[c], xp) for c in "ab"]
    rk = [from_pandas(rf[c], xp) for c in "ab"]
    with pytest.raises(pd.errors.MergeError, match=re.escape(str(expected.value))):
        check_validate(lk, rk, "1:1", ["a", "b"], ["a", "b"])
    check_validate(rk, rk, "one_to_one")


# --- properties ----------------------------------------------------------------------------------------


_int_keys = st.lists(st.one_of(st.none(), st.integers(-2, 3)), max_size=12)
# pandas 3.0's merge cuts string keys at a NUL byte (and raises on "a" beside "a\x00"); 3.1 does not
_STR_WORDS = ["", "a", "ab", "b", "ß"] + (["a\x00"] if PANDAS_31 else [])
_str_keys = st.lists(st.one_of(st.none(), st.sampled_from(_STR_WORDS)), max_size=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(left=_int_keys, right=_int_keys, how=st.sampled_from(HOWS), sort=st.booleans(), as_float=st.booleans())
def test_property_int_keys(left, right, how, sort, as_float, xp):
    dtype = "float64" if as_float else "Int64"
    check(pd.Series(left, dtype=dtype), pd.Series(right, dtype=dtype), how, xp, sort)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(left=_str_keys, right=_str_keys, how=st.sampled_from(HOWS), sort=st.booleans())
def test_property_string_keys(left, right, how, sort, xp):
    check(pd.Series(left, dtype="str"), pd.Series(right, dtype="str"), how, xp, sort)


_pairs = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(0, 2)), st.sampled_from(["x", "y", None])), max_size=10
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(left=_pairs, right=_pairs, how=st.sampled_from(HOWS), sort=st.booleans())
def test_property_multi_key(left, right, how, sort, xp):
    def frame(rows):
        a = pd.Series([r[0] for r in rows], dtype="float64")
        b = pd.Series([r[1] for r in rows], dtype="str")
        return _frame({"a": a, "b": b})

    check(frame(left), frame(right), how, xp, sort, on=("a", "b"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(left=_int_keys, right=_int_keys)
def test_property_semi_anti(left, right, xp):
    ls, rs = pd.Series(left, dtype="float64"), pd.Series(right, dtype="float64")
    semi = to_host(semi_anti_indices([from_pandas(ls, xp)], [from_pandas(rs, xp)], anti=False))
    anti = to_host(semi_anti_indices([from_pandas(ls, xp)], [from_pandas(rs, xp)], anti=True))
    isin = ls.isin(rs).to_numpy()
    np.testing.assert_array_equal(semi, np.flatnonzero(isin))
    np.testing.assert_array_equal(anti, np.flatnonzero(~isin))


@ALL
def test_timedelta_keys_of_different_units(how, sort, xp):
    # pandas compares these as objects: NaT is a null there and sorts last (same-unit NaT sorts first)
    left = pd.to_timedelta(pd.Series(["1s", None, "2s", "1s"])).astype("timedelta64[s]")
    right = pd.to_timedelta(pd.Series(["2s", "1s", None, "0s"])).astype("timedelta64[ms]")
    check(left, right, how, xp, sort)

"""Divergences the differential fuzzer drew (seed 302), each against pandas on the shrunk input and
its neighbours."""

from __future__ import annotations

import operator

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq


def test_idxmin_axis1_of_object_string_labels_infers_str() -> None:
    df = pd.DataFrame({"index": [1, 2], "b": [0, 5]})
    df.columns = pd.Index(["index", "b"], dtype=object)
    for op in ("idxmin", "idxmax"):
        assert_eq(getattr(em.from_pandas(df), op)(axis=1), getattr(df, op)(axis=1))


@pytest.mark.parametrize(
    "right",
    [
        pd.Index([0], dtype=object),
        pd.Index([], dtype=object),
        pd.Index([], dtype="int64"),
        pd.Index([0.0]),
        pd.Index([1], dtype="int32"),
        pd.RangeIndex(1),
    ],
    ids=repr,
)
def test_frame_arithmetic_column_labels_take_the_union_type(right: pd.Index) -> None:
    left = pd.DataFrame([[1.0, 2.0, 3.0]], columns=pd.RangeIndex(3))
    other = (
        pd.DataFrame([[1.0] * len(right)], columns=right)
        if len(right)
        else pd.DataFrame(index=[0], columns=right)
    )
    el, er = em.from_pandas(left), em.from_pandas(other)
    assert_eq(el + er, left + other)
    assert_eq(el.truediv(er, fill_value=1.5), left.truediv(other, fill_value=1.5))


def test_nan_column_labels_align_with_each_other() -> None:
    df = pd.DataFrame({"a": [np.nan], "c": pd.Series([5], dtype="uint64")})
    other = pd.DataFrame({np.nan: pd.Series([], dtype="UInt8")}).set_axis(pd.Index([], dtype="str"))
    left = df.groupby(["a"], dropna=False).agg("nunique")[["c"]].T[[np.nan]]
    eleft = em.from_pandas(df).groupby(["a"], dropna=False).agg("nunique")[["c"]].T[[np.nan]]
    for op in ("lt", "add", "eq", "mul"):
        assert_eq(getattr(eleft, op)(em.from_pandas(other)), getattr(left, op)(other))
    assert_eq(eleft.add(em.from_pandas(other), fill_value=1), left.add(other, fill_value=1))


def test_an_empty_selection_of_a_range_keeps_a_range() -> None:
    # pandas' RangeIndex survives an empty take, which decides the type of later label joins
    df = pd.DataFrame(
        {"d": pd.Series([3], dtype="int8"), "c": pd.Series([None], dtype="Int32")}, index=pd.RangeIndex(2, 3)
    )
    other = pd.DataFrame({"b": pd.Series([], dtype="datetime64[ms, UTC]")}).set_axis(
        pd.Index([], dtype="str")
    )
    e = em.from_pandas(df)
    picked, epicked = df[df["c"] < 3][["d"]].T, e[e["c"] < 3][["d"]].T
    assert_eq(epicked.columns, picked.columns, check_exact=True)
    for kw in ({"ignore_index": True}, {}):
        got = em.concat([epicked, em.from_pandas(other)], axis=0, join="inner", **kw)
        assert_eq(
            got.columns, pd.concat([picked, other], axis=0, join="inner", **kw).columns, check_exact=True
        )


@pytest.mark.parametrize("count", [0, 2])
def test_repeat_of_a_range_is_a_plain_index(count: int) -> None:
    idx = pd.RangeIndex(2, 5, name="r")
    assert_eq(em.from_pandas(pd.Series(range(3), index=idx)).index.repeat(count), idx.repeat(count))


CATEGORICALS = {
    "bool NA": pd.Series([True, None], dtype="boolean").astype("category"),
    "bool": pd.Series([True, False]).astype("category"),
    "float": pd.Series([np.inf, 1.0], dtype="float32").astype("category"),
    "float nan": pd.Series([np.nan, 1.0]).astype("category"),
    "str": pd.Series(["a", None]).astype("category"),
    "time strings": pd.Series(["2020-01-01", ""]).astype("category"),
}
VALUES = {
    "string NA": pd.Series([None, "a"], dtype="string"),
    "str nan": pd.Series([None, "a"], dtype="str"),
    "Int64 NA": pd.Series([None, 1], dtype="Int64"),
    "boolean NA": pd.Series([None, True], dtype="boolean"),
    "timedelta": pd.Series(pd.to_timedelta(["1s", None])),
    "datetime": pd.Series(pd.to_datetime(["2020", None])),
    "float": pd.Series([1.0, np.nan]),
    "bool": pd.Series([True, False]),
}


def _same_or_refused(op, a: pd.Series, b: pd.Series) -> None:
    try:
        want, raised = op(a, b), None
    except TypeError as exc:
        want, raised = None, exc
    try:
        got = op(em.from_pandas(a), em.from_pandas(b))
    except NotImplementedError:
        return  # a clear refusal
    except TypeError:
        assert raised is not None
        return
    assert raised is None, f"pandas raises {raised!r}"
    if str(want.dtype) == "bool[pyarrow]":  # deliberate: ember's 'string' comparisons give 'boolean'
        want = want.astype("boolean")
    assert_eq(got, want)


@pytest.mark.parametrize("cat", list(CATEGORICALS))
@pytest.mark.parametrize("values", list(VALUES))
@pytest.mark.parametrize("op", [operator.eq, operator.ne, operator.lt], ids=["eq", "ne", "lt"])
def test_categorical_compared_with_values(cat: str, values: str, op) -> None:
    _same_or_refused(op, CATEGORICALS[cat], VALUES[values])
    _same_or_refused(op, VALUES[values], CATEGORICALS[cat])


def test_times_ordered_against_parseable_categorical_strings_refused() -> None:
    df = pd.DataFrame(
        {
            "d": pd.Categorical([""], categories=["a", ""]),
            "b": pd.Series(["2020-01-01"], dtype="datetime64[ms]"),
        }
    )
    assert not (df["b"] < df["d"]).any()  # pandas parses '' as NaT
    e = em.from_pandas(df)
    with pytest.raises(NotImplementedError):
        _ = e["b"] < e["d"]


def test_categoricals_equal_up_to_the_categories_dtype_compare() -> None:
    # pandas matches categories by the hash of their values: 'string' and 'str' categories match
    cats = ["a", "b", "ç", "日本", ""]
    left = (
        pd.Series(pd.Categorical(["b", "", "ç", "日本", "a"], categories=cats))
        .astype("string")
        .astype("category")
    )
    right = pd.Series(pd.Categorical(["", "b", "ç", "日本", "a"], categories=cats))
    assert_eq(em.from_pandas(left) == em.from_pandas(right), left == right)
    ints, floats = pd.Series(pd.Categorical([1, 2])), pd.Series(pd.Categorical([1.0, 2.0]))
    with pytest.raises(TypeError, match="categories"):
        _ = ints == floats
    with pytest.raises(TypeError, match="categories"):
        _ = em.from_pandas(ints) == em.from_pandas(floats)


@pytest.mark.parametrize("keys", [[], ["a", "b"], ["a", "a"]])
def test_group_results_of_strings_beside_nat_stay_object(keys: list) -> None:
    # pandas infers 'mixed' (object) from strings beside NaT objects, 'str' beside None / NaN
    df = pd.DataFrame({"c": pd.Series([None, None], dtype="timedelta64[s]"), "e": pd.Categorical(["ç", "a"])})
    df2 = pd.DataFrame({"c": [np.nan, np.nan], "e": ["x", "y"]})
    for frame in (df, df2):
        row, erow = frame.iloc[0], em.from_pandas(frame).iloc[0]
        by = pd.Series(keys, index=row.index[: len(keys)], dtype="str")
        try:
            want = row.groupby(by).max()
        except TypeError:  # pandas 3.0 orders NaN against a string here; 3.1 skips it
            assert not PANDAS_31
            continue
        assert_eq(erow.groupby(em.from_pandas(by)).max(), want)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("op", ["std", "sem", "var"])
def test_float32_spread_rounds_as_pandas(seed: int, op: str) -> None:
    # pandas rounds the variance to float32, then takes the square roots in float32: exactly equal
    rng = np.random.default_rng(seed)
    s = pd.Series(
        (rng.standard_normal(int(rng.integers(1, 9))) * 10.0 ** rng.integers(-3, 8)).astype(np.float32)
    )
    for ddof in (0, 1):
        got, want = getattr(em.from_pandas(s), op)(ddof=ddof), getattr(s, op)(ddof=ddof)
        assert (np.isnan(got) and np.isnan(want)) or (got == want and type(got) is type(want))
    assert_eq(em.from_pandas(s.to_frame())[[0]].sem(), s.to_frame()[[0]].sem(), check_exact=True)


@pytest.mark.parametrize(
    "dtypes",
    [
        ("float32", "UInt8"),
        ("Float32", "Float32"),
        ("float32", "float32"),
        ("Int8", "UInt8"),
        ("int8", "Float32"),
    ],
)
@pytest.mark.parametrize("op", ["std", "var", "sem", "mean", "median", "sum"])
def test_row_reductions_of_no_rows_take_pandas_dtype(dtypes: tuple, op: str) -> None:
    df = pd.DataFrame({"d": pd.Series([], dtype=dtypes[0]), "b": pd.Series([], dtype=dtypes[1])})
    assert_eq(getattr(em.from_pandas(df), op)(axis=1), getattr(df, op)(axis=1))


VALUE_COUNT_FRAME = pd.DataFrame(
    {
        "d": pd.Series([None, 1.5, 1.5], dtype="Float64"),
        "f": [np.nan, 1.0, 2.0],
        "k": [1, 1, 2],
        "i": pd.Series([None, 1, 2], dtype="Int64"),
        "s": pd.Series([None, "a", "b"], dtype="str"),
        "b": pd.Series([None, True, False], dtype="boolean"),
        "t": pd.to_datetime([None, "2020", "2021"]),
    }
)


@pytest.mark.parametrize(
    "subset", [["d"], ["f"], ["d", "k"], ["i"], ["s"], ["b"], ["t"], ["i", "k"], "i", "b"]
)
@pytest.mark.parametrize(
    "kw", [{"dropna": False}, {"dropna": False, "sort": False}, {"ascending": True, "dropna": False}]
)
@pytest.mark.parametrize("reverse", [False, True])
def test_frame_value_counts_of_missing_keys(subset, kw: dict, reverse: bool) -> None:
    # one key: pandas codes its missing value -1 (a label lookup gives NaN), counted where it appears
    df = VALUE_COUNT_FRAME.iloc[::-1] if reverse else VALUE_COUNT_FRAME
    want = df.value_counts(subset=subset, **kw)
    got = em.from_pandas(df).value_counts(subset=subset, **kw)
    assert_eq(got, want)
    assert repr(got.idxmin()) == repr(want.idxmin())
    assert repr(got.index[0]) == repr(want.index[0])


@pytest.mark.parametrize("dtype", ["string", "str", object])
@pytest.mark.parametrize(
    "cond", [[True, True, False], [False, True, True], [True] * 3, [False] * 3, [False, True, False]]
)
@pytest.mark.parametrize("op", ["where", "mask"])
def test_where_of_list_cells_fills_nan_and_keeps_own_missing(dtype, cond: list, op: str) -> None:
    source = pd.Series(["ç", "ab", None], dtype=dtype)
    lists, elists = source.str.split("b"), em.from_pandas(source).str.split("b")
    c = pd.Series(cond)
    try:
        got = getattr(elists, op)(em.from_pandas(c))
    except NotImplementedError:  # NaN beside the column's own missing value: refused
        return
    assert_eq(got, getattr(lists, op)(c))


@pytest.mark.parametrize("values", [[None], [None, None], [np.nan, None], [None, "a"], []])
@pytest.mark.parametrize("subset", [None, ["c"], "c"])
@pytest.mark.parametrize("kw", [{"dropna": False}, {"dropna": True}, {"dropna": False, "normalize": True}])
def test_frame_value_counts_of_an_object_key_of_missing_values(values: list, subset, kw: dict) -> None:
    # pandas' groupby key of only missing object values is float64 NaN (empty: object)
    df = pd.DataFrame({"c": pd.Series(values, dtype=object), "v": range(len(values))})
    assert_eq(em.from_pandas(df).value_counts(subset=subset, **kw), df.value_counts(subset=subset, **kw))


@pytest.mark.parametrize("seed", range(20))
def test_rolling_median_is_the_mean_of_the_middle_values(seed: int) -> None:
    # pandas: (a + b) / 2, not a + (b - a) / 2 (they differ in the last bit)
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(int(rng.integers(1, 12))) * 10.0 ** rng.integers(-3, 4)
    for dtype in ("float64", "Float64"):
        s = pd.Series(values, dtype=dtype)
        e = em.from_pandas(s)
        for window in (2, 4):
            got, want = e.rolling(window, min_periods=1).median(), s.rolling(window, min_periods=1).median()
            assert got.to_pandas().astype(str).tolist() == want.astype(str).tolist()
        assert (
            e.expanding().median().to_pandas().astype(str).tolist()
            == s.expanding().median().astype(str).tolist()
        )


def test_labels_taken_from_a_range_join_as_ranges() -> None:
    # pandas keeps a RangeIndex where taken labels are evenly spaced: a join with another range of
    # another name is then unnamed
    df = pd.DataFrame({"d": pd.Series([0, 0], dtype="uint64")}, index=pd.RangeIndex(0, 2, name="idx"))
    other = pd.DataFrame({"d": pd.Series([100], dtype="Int32")}, index=pd.RangeIndex(9, 10))
    picked, epicked = df.drop_duplicates(keep="last"), em.from_pandas(df).drop_duplicates(keep="last")
    assert_eq(epicked.index.to_pandas(), picked.index, check_exact=True)
    assert_eq(epicked - em.from_pandas(other), picked - other)
    rows = pd.DataFrame({"v": range(6)}, index=pd.RangeIndex(6, name="r"))
    for take in ([0, 2, 4], [5, 3], [1], [0, 1, 3]):
        want, got = rows.iloc[take], em.from_pandas(rows).iloc[take]
        assert type(got.index.to_pandas()) is type(want.index)
        assert_eq(
            got + em.from_pandas(other.rename(columns={"d": "v"})), want + other.rename(columns={"d": "v"})
        )


BIG = 2**63 - 1


@pytest.mark.parametrize(
    "values",
    [[BIG, None], [BIG], [2**53 + 1, None], [5, None], [5, 1.5]],
    ids=str,
)
@pytest.mark.parametrize("dtype", ["Int64", "int64", "uint64"])
def test_isin_of_integers_beyond_2_53_beside_floats_refused(values: list, dtype: str) -> None:
    left = pd.Series([BIG, 2**53 + 1, 5], dtype=dtype)
    for other in (pd.Series(values, dtype="Int64" if 1.5 not in values else "float"), values):
        try:
            got = em.from_pandas(left).isin(em.from_pandas(other) if isinstance(other, pd.Series) else other)
        except NotImplementedError:
            continue
        assert_eq(got, left.isin(other))


@pytest.mark.parametrize(
    "cats, values",
    [
        (["a", "b", "c"], ["b", None, "a", "b"]),
        (pd.to_datetime(["2020", "2021"]), [pd.NaT, pd.Timestamp("2021"), pd.NaT, pd.Timestamp("2020")]),
        (pd.DatetimeIndex([]), [pd.NaT] * 4),
    ],
)
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("keys", [["e", "k"], ["k", "e"], ["k"]])
def test_groupby_missing_categorical_key_is_a_level_value(cats, values: list, sort: bool, keys: list) -> None:
    # pandas' level holds the missing key itself ((1, NaT), not the NaN of a missing code)
    df = pd.DataFrame({"k": pd.Categorical(values, categories=cats), "e": [1, 1, 2, 1], "v": [1, 2, 3, 4]})
    want = df.groupby(keys, sort=sort, dropna=False, observed=True).v.max()
    got = em.from_pandas(df).groupby(keys, sort=sort, dropna=False, observed=True).v.max()
    assert_eq(got, want)
    assert [repr(label) for label in got.index.to_pandas()] == [repr(label) for label in want.index]


@pytest.mark.parametrize(
    "values",
    [[True, None], [True, np.nan], [False, np.nan], [False, None], [True, pd.NA], [np.nan], [None]],
    ids=str,
)
@pytest.mark.parametrize("op", ["any", "all"])
def test_any_all_without_skipna_take_each_object_marker_truth(values: list, op: str) -> None:
    # pandas: NaN / NaT are true, None false, pd.NA raises
    s = pd.Series(values, dtype=object)
    for obj in (s, s.to_frame("a")):
        try:
            want = getattr(obj, op)(skipna=False)
        except TypeError:
            with pytest.raises((TypeError, NotImplementedError)):
                getattr(em.from_pandas(obj), op)(skipna=False)
            continue
        try:
            got = getattr(em.from_pandas(obj), op)(skipna=False)
        except NotImplementedError:
            continue
        assert_eq(got, want)


@pytest.mark.parametrize(
    "times",
    [
        pd.Series([None, "2020-01-01"], dtype="datetime64[us]"),
        pd.Series(["2019-01-01", "2021-01-01"], dtype="datetime64[us]"),
        pd.to_timedelta(pd.Series(["1s", None])),
    ],
)
@pytest.mark.parametrize("op", [operator.lt, operator.ge])
def test_times_ordered_against_a_categorical_of_times(times: pd.Series, op) -> None:
    cat = times.astype("category")
    for left in (
        pd.Series(["2020-02-01", None], dtype="datetime64[us]"),
        pd.to_timedelta(pd.Series(["2s", "0s"])),
    ):
        _same_or_refused(op, left, cat)


@pytest.mark.parametrize(
    "other",
    [
        pd.RangeIndex(0, 1),
        pd.RangeIndex(5, 6),
        pd.RangeIndex(-1, 1),
        pd.Index([0], dtype="int64"),
        pd.Index([0], dtype="uint8"),
    ],
    ids=repr,
)
def test_small_int_labels_beside_a_range_unite_as_int64(other: pd.Index) -> None:
    a = pd.Series([1, 2], index=pd.Index([-1, 0], dtype="int8"))
    b = pd.Series([1.0] * len(other), index=other)
    for f in (
        lambda x, y: x + y,
        lambda x, y: y + x,
        lambda x, y: x.ge(y),
        lambda x, y: x.add(y, fill_value=0),
    ):
        assert_eq(f(em.from_pandas(a), em.from_pandas(b)), f(a, b))


@pytest.mark.parametrize(
    "values", [[True, None], [True, np.nan, False], [None, "a", np.nan], [True, False], []], ids=str
)
@pytest.mark.parametrize("subset", [None, ["c"], "c", ["c", "v"]])
@pytest.mark.parametrize("dropna", [False, True])
def test_frame_value_counts_of_object_bool_keys(values: list, subset, dropna: bool) -> None:
    df = pd.DataFrame({"c": pd.Series(values, dtype=object), "v": range(len(values))})
    try:
        got = em.from_pandas(df).value_counts(subset=subset, dropna=dropna)
    except NotImplementedError:
        return
    want = df.value_counts(subset=subset, dropna=dropna)
    assert_eq(got, want)
    assert [repr(label) for label in got.index.to_pandas()] == [repr(label) for label in want.index]


def test_str_cat_of_strings_beside_nat_raises_as_pandas() -> None:
    df = pd.DataFrame(
        {"e": pd.Series(["abc", "b"], dtype=object), "c": pd.Series([None, None], dtype="timedelta64[ns]")}
    )
    row, erow = df.iloc[1], em.from_pandas(df).iloc[1]
    with pytest.raises(TypeError, match="mixed"):
        row.str.cat(sep="-")
    with pytest.raises(TypeError, match="mixed"):
        erow.str.cat(sep="-")


@pytest.mark.parametrize("d", [[None, "a"], [None, None]], ids=str)
@pytest.mark.parametrize("e", [[None, "b"], [None, None]], ids=str)
@pytest.mark.parametrize(
    "dtypes", [("object", "string"), ("object", "object"), ("string", "object"), ("object", "str")]
)
def test_melt_of_object_strings_as_pandas_or_refused(d: list, e: list, dtypes: tuple) -> None:
    df = pd.DataFrame({"c": [1, 2], "d": pd.Series(d, dtype=dtypes[0]), "e": pd.Series(e, dtype=dtypes[1])})
    try:
        got = em.from_pandas(df).melt(id_vars=["c"])
    except NotImplementedError:
        return
    want = df.melt(id_vars=["c"])
    assert_eq(got, want)
    assert [repr(v) for v in got.to_pandas()["value"]] == [repr(v) for v in want["value"]]


@pytest.mark.parametrize("values", [["ç"], [None], []], ids=str)
def test_map_of_list_cells_with_a_dict_raises_as_pandas(values: list) -> None:
    source = pd.Series(values, dtype="string")
    lists, elists = source.str.split("b"), em.from_pandas(source).str.split("b")
    try:
        want = lists.map({"a": 1})
    except TypeError:
        with pytest.raises(TypeError, match="unhashable"):
            elists.map({"a": 1})
        return
    assert_eq(elists.map({"a": 1}), want)


@pytest.mark.parametrize("dropna", [True, False])
def test_frame_value_counts_of_string_keys_with_no_group_left(dropna: bool) -> None:
    df = pd.DataFrame({"d": pd.Series([None], dtype="boolean"), "a": pd.Series(["10"], dtype="object")})
    assert_eq(em.from_pandas(df).value_counts(dropna=dropna), df.value_counts(dropna=dropna))


@pytest.mark.parametrize("values", [[None, None], [True, None], [np.nan]], ids=str)
def test_frame_value_counts_of_object_bools_with_no_group_left(values: list) -> None:
    # the object bool key (missing rows from a join) of an empty result: object if it held no value
    df = pd.DataFrame(
        {"a": pd.Series([True] + [False] * (len(values) - 1)).astype(object), "k": [1.0] * len(values)}
    )
    df["a"] = (
        pd.Series(values, dtype=object)
        if values[0] is not True
        else df["a"].where([True, False][: len(values)])
    )
    df["k"] = np.nan
    try:
        got = em.from_pandas(df).value_counts()
    except NotImplementedError:
        return
    assert_eq(got, df.value_counts())

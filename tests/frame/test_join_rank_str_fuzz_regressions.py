"""Regressions of joins, rank / shift / unique / value_counts, the .str methods and reshaping that the
differential fuzzer found: each case compares ember with pandas' own answer (or checks that ember
raises pandas' exception type, or NotImplementedError)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


# Tests whose expectation pandas 3.0 computes otherwise (merge keys of datetimes in two units or zones
# take the left key's dtype there; a str index joined with an int index keeps its own labels):
# ember follows pandas 3.1. Measured with pandas 3.0.6; strict, so a change on either side shows.
PANDAS30_DIFFERS = {
    "test_join_str_and_int_indexes_answers[left]",
    "test_join_str_and_int_indexes_answers[right]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us--inner]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us--left]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us-left-inner]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us-left-left]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us-right-inner]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us-right-right]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us-both-inner]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us-both-left]",
    "test_merge_keys_of_two_dtypes[dt_s-dt_us-both-right]",
    "test_merge_keys_of_two_dtypes[dt_us-dt_s-left-inner]",
    "test_merge_keys_of_two_dtypes[dt_us-dt_s-left-left]",
    "test_merge_keys_of_two_dtypes[dt_us-dt_s-right-inner]",
    "test_merge_keys_of_two_dtypes[dt_us-dt_s-right-right]",
    "test_merge_keys_of_two_dtypes[dt_us-dt_s-both-inner]",
    "test_merge_keys_of_two_dtypes[dt_us-dt_s-both-left]",
    "test_merge_keys_of_two_dtypes[dt_us-dt_s-both-right]",
    "test_merge_keys_of_two_dtypes[dt_utc-dt_berlin--inner]",
    "test_merge_keys_of_two_dtypes[dt_utc-dt_berlin-left-inner]",
    "test_merge_keys_of_two_dtypes[dt_utc-dt_berlin-left-left]",
    "test_merge_keys_of_two_dtypes[dt_utc-dt_berlin-right-inner]",
    "test_merge_keys_of_two_dtypes[dt_utc-dt_berlin-right-right]",
    "test_merge_keys_of_two_dtypes[dt_utc-dt_berlin-both-inner]",
    "test_merge_keys_of_two_dtypes[dt_utc-dt_berlin-both-left]",
    "test_merge_keys_of_two_dtypes[dt_utc-dt_berlin-both-right]",
}


@pytest.fixture(autouse=True)
def _pandas30_differs(request):
    if not PANDAS_31 and request.node.name in PANDAS30_DIFFERS:
        request.applymarker(pytest.mark.xfail(reason="pandas < 3.1 lays this out otherwise", strict=True))


def _run(fn, *objs):
    try:
        return fn(*objs), None
    except Exception as exc:  # noqa: BLE001
        return None, exc


def check(fn, *objs, **kw):
    """ember gives pandas' result, raises pandas' exception type, or NotImplementedError."""
    p, pe = _run(fn, *objs)
    e, ee = _run(fn, *[em.from_pandas(o) for o in objs])
    if pe is not None:
        assert ee is not None, f"pandas raises {pe!r}, ember answers {e!r}"
        assert isinstance(ee, (type(pe), NotImplementedError)), f"pandas raises {pe!r}, ember {ee!r}"
        return
    if isinstance(ee, NotImplementedError):
        return
    if ee is not None:
        raise ee
    kw.setdefault("check_index_type", "equiv")
    got = e.to_pandas()
    if isinstance(p, pd.DataFrame):
        pd.testing.assert_frame_equal(got, p, **kw)
    elif isinstance(p, pd.Series):
        pd.testing.assert_series_equal(got, p, **kw)
    else:
        pd.testing.assert_index_equal(got, p, exact=kw["check_index_type"])


def answered(fn, *objs):
    """ember answers (no exception at all)."""
    fn(*[em.from_pandas(o) for o in objs])


# --- joins on two indexes of different dtypes (pandas' Index.join) -----------------------------------

INDEXES = {
    "int64": pd.Index([3, 1, 3, 2], dtype="int64"),
    "range": pd.RangeIndex(3, 0, -1, name="r"),
    "uint8": pd.Index([3, 1], dtype="uint8"),
    "uint64": pd.Index([1, 2], dtype="uint64"),
    "float64": pd.Index([2.0, 1.0, 2.5]),
    "float32": pd.Index([2.0, 1.0], dtype="float32"),
    "Int64": pd.Index([2, 1], dtype="Int64"),
    "Float64": pd.Index([2.0, 1.5], dtype="Float64"),
    "bool": pd.Index([True, False, True]),
    "str": pd.Index(["b", "a", "b"], dtype="str"),
    "string": pd.Index(["a", "c"], dtype="string"),
    "object": pd.Index(["c", "a"], dtype="object"),
    "dt_ns": pd.DatetimeIndex(["2020-01-02", "2020-01-01", None], dtype="datetime64[ns]"),
    "dt_s": pd.DatetimeIndex(["2020-01-01", "2020-01-03"], dtype="datetime64[s]"),
    "dt_utc": pd.DatetimeIndex(["2020-01-02", "2020-01-01"], dtype="datetime64[ns, UTC]"),
    "dt_berlin": pd.DatetimeIndex(["2020-01-01 01:00", "2020-01-02"], dtype="datetime64[ms, Europe/Berlin]"),
    "td_s": pd.TimedeltaIndex(["3D", "1D"], dtype="timedelta64[s]"),
    "cat": pd.CategoricalIndex(["b", "a", "b"]),
    "catint": pd.CategoricalIndex([2, 1]),
    "empty_int": pd.Index([], dtype="int64"),
    "empty_float": pd.Index([], dtype="float64", name="idx"),
    "empty_range": pd.RangeIndex(0, 0, name="idx"),
}
PAIRS = [
    ("str", "int64"),
    ("int64", "str"),
    ("dt_ns", "int64"),
    ("range", "dt_ns"),
    ("str", "float64"),
    ("td_s", "str"),
    ("dt_berlin", "str"),
    ("int64", "float64"),
    ("float32", "int64"),
    ("Int64", "Float64"),
    ("float64", "Float64"),
    ("uint64", "int64"),
    ("uint8", "int64"),
    ("int64", "uint64"),
    ("bool", "int64"),
    ("bool", "str"),
    ("str", "object"),
    ("cat", "object"),
    ("cat", "str"),
    ("catint", "int64"),
    ("catint", "str"),
    ("dt_ns", "dt_s"),
    ("dt_berlin", "dt_utc"),
    ("dt_ns", "dt_utc"),
    ("dt_ns", "dt_ns"),
    ("range", "empty_float"),
    ("empty_range", "empty_int"),
    ("empty_int", "str"),
    ("float64", "empty_range"),
]


# (left, right, how) whose left / right join pandas 3.0 lays out otherwise (its labels and dtypes
# differ from 3.1's common-dtype rule, which ember follows); measured with pandas 3.0.6
PANDAS30_JOIN_DIFFERS = {
    ("Int64", "Float64", "left"),
    ("bool", "int64", "left"),
    ("bool", "int64", "right"),
    ("bool", "str", "left"),
    ("bool", "str", "right"),
    ("cat", "object", "left"),
    ("cat", "str", "left"),
    ("catint", "int64", "left"),
    ("catint", "str", "left"),
    ("catint", "str", "right"),
    ("dt_berlin", "dt_utc", "left"),
    ("dt_berlin", "str", "left"),
    ("dt_berlin", "str", "right"),
    ("dt_ns", "dt_s", "right"),
    ("dt_ns", "int64", "left"),
    ("dt_ns", "int64", "right"),
    ("float32", "int64", "left"),
    ("float32", "int64", "right"),
    ("float64", "Float64", "left"),
    ("int64", "float64", "left"),
    ("int64", "str", "left"),
    ("int64", "str", "right"),
    ("int64", "uint64", "left"),
    ("int64", "uint64", "right"),
    ("range", "dt_ns", "left"),
    ("range", "dt_ns", "right"),
    ("str", "float64", "left"),
    ("str", "float64", "right"),
    ("str", "int64", "left"),
    ("str", "int64", "right"),
    ("str", "object", "left"),
    ("td_s", "str", "left"),
    ("td_s", "str", "right"),
}


@pytest.mark.parametrize("how", ["left", "right", "inner", "outer"])
@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_join_indexes_of_other_dtypes(request, a, b, how, sort):
    ia, ib = INDEXES[a], INDEXES[b]
    if not PANDAS_31 and (a, b, how) in PANDAS30_JOIN_DIFFERS:
        request.applymarker(pytest.mark.xfail(reason="pandas < 3.1: another layout of the join", strict=True))
    left = pd.DataFrame({"x": range(len(ia))}, index=ia)
    right = pd.DataFrame({"y": range(len(ib))}, index=ib.rename("n") if len(ib) else ib)
    check(lambda a, b: a.join(b, how=how, sort=sort), left, right)
    check(lambda a, b: a.merge(b, how=how, sort=sort, left_index=True, right_index=True), left, right)


@pytest.mark.parametrize("how", ["left", "right", "inner"])
def test_join_str_and_int_indexes_answers(how):
    left = pd.DataFrame({"a": [1]}, index=pd.Index(["x"], dtype="str"))
    right = pd.DataFrame({"b": [2.5]}, index=pd.Index([1], dtype="int64"))
    answered(lambda a, b: a.join(b, how=how), left, right)
    check(lambda a, b: a.join(b, how=how), left, right)


def test_merge_dtype_error_names_the_key():
    left = pd.DataFrame({"a": ["x"], "k": [1]})
    right = pd.DataFrame({"b": [1], "k2": [1]})
    with pytest.raises(ValueError, match="for key 'a'"):
        em.from_pandas(left).merge(em.from_pandas(right), left_on="a", right_on="b")
    with pytest.raises(ValueError, match="for key 'a'"):
        left.merge(right, left_on="a", right_on="b")


# --- merge keys of two dtypes: the key columns' dtypes -----------------------------------------------

KEYS = {
    "str": pd.Series(["a", "b"], dtype="str"),
    "string": pd.Series(["b", "c"], dtype="string"),
    "object": pd.Series(["a", "c"], dtype="object"),
    "bool": pd.Series([True, False]),
    "int64": pd.Series([1, 5]),
    "Int64": pd.Series([1, 5], dtype="Int64"),
    "boolean": pd.Series([True, None], dtype="boolean"),
    "float32": pd.Series([1.0, 0.5], dtype="float32"),
    "dt_s": pd.Series(pd.to_datetime(["2020-01-01", "2020-01-03"])).astype("datetime64[s]"),
    "dt_us": pd.Series(pd.to_datetime(["2020-01-01", "2020-01-02"])).astype("datetime64[us]"),
    "dt_utc": pd.Series(pd.to_datetime(["2020-01-01"] * 2).tz_localize("UTC")).astype("datetime64[ms, UTC]"),
    "dt_berlin": pd.Series(pd.to_datetime(["2020-01-01"] * 2).tz_localize("Europe/Berlin")),
    "td_ns": pd.Series(pd.to_timedelta([1, 2], unit="D")),
    "td_s": pd.Series(pd.to_timedelta([1, 3], unit="D")).astype("timedelta64[s]"),
    "cat": pd.Series(pd.Categorical(["a", "b"])),
    "catdt": pd.Series(pd.to_datetime(["2020-01-01", "2020-01-02"])).astype("category"),
}
KEY_PAIRS = [
    ("str", "string"),
    ("string", "str"),
    ("str", "object"),
    ("bool", "int64"),
    ("boolean", "Int64"),
    ("int64", "float32"),
    ("dt_s", "dt_us"),
    ("dt_us", "dt_s"),
    ("dt_utc", "dt_berlin"),
    ("td_ns", "td_s"),
    ("cat", "int64"),
    ("catdt", "cat"),
    ("cat", "string"),
]


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
@pytest.mark.parametrize("empty", ["", "left", "right", "both"])
@pytest.mark.parametrize(("a", "b"), KEY_PAIRS, ids=[f"{a}-{b}" for a, b in KEY_PAIRS])
def test_merge_keys_of_two_dtypes(a, b, how, empty):
    left = pd.DataFrame({"k": KEYS[a], "x": [1, 2]})
    right = pd.DataFrame({"k": KEYS[b], "y": [3, 4]})
    if empty in ("left", "both"):
        left = left.iloc[:0]
    if empty in ("right", "both"):
        right = right.iloc[:0]
    check(lambda p, q: p.merge(q, on="k", how=how), left, right)
    check(lambda p, q: p.merge(q.rename(columns={"k": "j"}), left_on="k", right_on="j", how=how), left, right)


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
@pytest.mark.parametrize("left_rows", [0, 1])
def test_join_on_a_column_index_of_an_empty_side(how, left_rows):
    left = pd.DataFrame({"b": pd.Series([7.0], dtype="float32")[:left_rows]}).set_axis(
        pd.Index([1.5], dtype="float64", name="idx")[:left_rows]
    )
    right = pd.DataFrame({"c": [True]}).set_axis(pd.Index([7.0], dtype="float32"))
    check(lambda a, b: a.join(b, on="b", how=how), left, right)
    check(lambda a, b: a.join(b.iloc[:0], on="b", how=how), left, right)


@pytest.mark.parametrize("how", ["inner", "right"])
def test_merge_key_both_index_level_and_column_raises(how):
    left = pd.DataFrame({"a": [1, 2]}).set_index(pd.Index([1, 2], name="a"))
    right = pd.DataFrame({"a": [1], "b": [2]})
    check(lambda a, b: a.merge(b, on="a", how=how), left, right)
    check(lambda a, b: a.join(b.set_index("a"), on="a", how=how), left, right)
    with pytest.raises(ValueError, match="both an index level and a column label"):
        em.from_pandas(left).merge(em.from_pandas(right), on="a", how=how)


# --- rank ----------------------------------------------------------------------------------------------

RANKED = {
    "unordered": pd.Series(pd.Categorical(["b", "", None, "b"], categories=["a", "b", "ç", "日本", ""])),
    "ordered": pd.Series(pd.Categorical(["b", "", "a"], categories=["b", "a", ""], ordered=True)),
    "int_categories": pd.Series(pd.Categorical([3, 1, None], categories=[3, 2, 1])),
    "string": pd.Series(["b", "a", None, "a"], dtype="string"),
    "empty_string": pd.Series([], dtype="string"),
}


@pytest.mark.parametrize("method", ["average", "min", "dense"])
@pytest.mark.parametrize("na_option", ["keep", "bottom"])
@pytest.mark.parametrize("pct", [False, True])
@pytest.mark.parametrize("frame", [False, True])
@pytest.mark.parametrize("name", list(RANKED))
def test_rank_of_categoricals_and_strings(name, method, na_option, pct, frame):
    s = RANKED[name]
    obj = s.to_frame("c") if frame else s
    check(lambda o: o.rank(method=method, na_option=na_option, pct=pct), obj)


# --- .str results: NaN-holding dtypes only where a row is missing; list values ------------------------


@pytest.mark.parametrize("dtype", ["str", "object", "string"])
@pytest.mark.parametrize(
    "method",
    [
        lambda s: s.str.count("a"),
        lambda s: s.str.match("a"),
        lambda s: s.str.fullmatch("a+"),
        lambda s: s.str.contains("a"),
        lambda s: s.str.len(),
        lambda s: s.str.split("b"),
        lambda s: s.str.findall("a"),
    ],
)
@pytest.mark.parametrize("values", [[None, "a", "ab"], [None], []])
def test_str_results_after_the_missing_rows_are_filtered_out(values, method, dtype):
    s = pd.Series(values, dtype=dtype)
    check(lambda x: method(x[x.notna()]), s)
    check(method, s)


def test_list_values_do_not_reach_sorting_or_the_string_methods():
    s = pd.Series([None, "ab"], dtype="string").str.split("b")
    es = em.from_pandas(pd.Series([None, "ab"], dtype="string")).str.split("b")
    for fn in (lambda x: x.duplicated(keep="last"), lambda x: x.str.swapcase()):
        with pytest.raises(NotImplementedError):
            fn(es)
        fn(s)  # pandas answers


# --- melt: the value column in pandas' common dtype ------------------------------------------------------

MELTED = {
    "int64": pd.Series([1, 2]),
    "Int32": pd.Series([42, None], dtype="Int32"),
    "float32": pd.Series([np.nan, 1.5], dtype="float32"),
    "boolean": pd.Series([True, None], dtype="boolean"),
    "uint64": pd.Series([1, 2], dtype="uint64"),
    "str": pd.Series(["a", None], dtype="str"),
    "string": pd.Series(["b", None], dtype="string"),
    "object": pd.Series(["c", None], dtype=object),
    "td": pd.Series(pd.to_timedelta([1, None], unit="s")),
}
MELT_PAIRS = [
    ("Int32", "float32"),
    ("boolean", "uint64"),
    ("boolean", "str"),
    ("td", "boolean"),
    ("str", "object"),
    ("string", "object"),
    ("object", "object"),
    ("str", "string"),
    ("int64", "float32"),
]


@pytest.mark.parametrize("rows", [2, 0])
@pytest.mark.parametrize(("a", "b"), MELT_PAIRS, ids=[f"{a}-{b}" for a, b in MELT_PAIRS])
def test_melt_value_column_dtype(a, b, rows):
    df = pd.DataFrame({"x": MELTED[a], "y": MELTED[b]}).iloc[:rows]
    check(lambda f: f.melt(), df)
    check(lambda f: f.assign(i=np.arange(rows)).melt(id_vars=["i"]), df)


# --- set_index, sort_values -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint16", "float32", "Int32"])
@pytest.mark.parametrize("values", [[1, 100], [2, 0, 1, 10], [3, 2, 1], [5], [], [1, 1], [0, 2, 4, 6]])
@pytest.mark.parametrize("drop", [True, False])
def test_set_index_of_ints_in_steps_is_a_range(dtype, values, drop):
    df = pd.DataFrame({"a": pd.Series(values, dtype=dtype), "b": range(len(values))})
    check(lambda f: f.set_index("a", drop=drop), df, check_index_type=True)
    check(lambda f: f.set_index(["a", "b"], drop=drop), df)


@pytest.mark.parametrize("values", [["b", None], ["b", "a"], [None, None, "a"], ["a", "a"], [None]])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["first", "last"])
def test_sort_values_of_object_strings(values, ascending, na_position):
    s = pd.Series(values, dtype=object)
    check(lambda x: x.sort_values(ascending=ascending, na_position=na_position, ignore_index=True), s)


@pytest.mark.parametrize("by", ["i", ["b", "i"], "a"])
def test_sort_values_by_an_index_level(by):
    df = pd.DataFrame({"a": [3, 1, 2], "b": [1, 1, 0]}, index=pd.Index([5, 4, 6], name="i"))
    check(lambda f: f.sort_values(by), df)
    check(lambda f: f.set_index("a", drop=False).sort_values(by), df)


# --- value_counts, drop_duplicates ------------------------------------------------------------------------


@pytest.mark.parametrize("values", [[""], ["ç", None], [" x ", "a", " x "]])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("subset", [None, ["b"], "b"])
def test_frame_value_counts_of_object_strings(values, dropna, subset):
    df = pd.DataFrame({"b": pd.Series(values, dtype="object")})
    check(lambda f: f.value_counts(subset=subset, dropna=dropna), df)
    check(lambda f: f.assign(e=pd.Series([None] * len(values), dtype="datetime64[s]")).value_counts(), df)


@pytest.mark.parametrize("frame", [False, True])
def test_value_counts_normalize_of_no_rows_is_nan(frame):
    s = pd.Series(pd.Categorical([], categories=["a", "b"]), name="b")
    check(lambda x: x.value_counts(normalize=True), s.to_frame() if frame else s)


def test_value_counts_key_both_level_and_column_raises():
    df = pd.DataFrame({"e": [1.5, 2.5]}).set_index(pd.Index([1.5, 2.5], name="e"))
    check(lambda f: f.value_counts(subset=["e"]), df)


@pytest.mark.parametrize(
    "index",
    [pd.Index([], dtype="str"), pd.DatetimeIndex([], dtype="datetime64[ns]"), pd.Index([], dtype="int64")],
)
def test_drop_duplicates_of_no_rows_keeps_the_index(index):
    df = pd.DataFrame({"e": pd.Series([], dtype="Int32")}).set_axis(index)
    check(lambda f: f.drop_duplicates(ignore_index=True), df)


@pytest.mark.parametrize("dtype", ["Int64", "Float64", "boolean", "UInt8"])
@pytest.mark.parametrize("values", [[], [1, 1, 0], [1, None, 1]])
def test_unique_of_masked_data_is_pandas_extension_array(values, dtype):
    s = pd.Series(values, dtype=dtype)
    got, want = em.from_pandas(s).unique(), s.unique()
    assert type(got) is type(want)
    pd.testing.assert_extension_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["Int64", "UInt8", "Int8"])
@pytest.mark.parametrize("fill_value", [2.5, -2.5, 300.7, 1e30, 2])
def test_shift_of_masked_ints_with_a_float_fill_value(dtype, fill_value):
    check(lambda s: s.shift(1, fill_value=fill_value), pd.Series([None, 3], dtype=dtype))


# --- pivot_table ------------------------------------------------------------------------------------------

PIVOTED = pd.DataFrame(
    {
        "d": pd.Series([1, 2, 1], dtype="uint8"),
        "e": [1.0, 2.0, 3.0],
        "c": ["x", "y", "x"],
        "t": pd.to_timedelta([1, 2, 1], unit="s"),
        "i": pd.Series([5, None, 5], dtype="Int64"),
    }
)
PIVOT_ARGS = [
    {"values": "d", "index": "d"},
    {"values": "d", "index": "c", "columns": "d"},
    {"values": "e", "index": "c", "columns": "t"},
    {"values": "e", "index": "c", "columns": "i"},
    {"values": "e", "index": "c", "columns": "d", "aggfunc": "min", "fill_value": 0},
    {"values": ["e"], "index": "c", "aggfunc": "size"},
    {"values": "e", "index": "c", "columns": "d", "aggfunc": "size", "margins": True},
    {"values": "e", "index": "c", "margins": True},
]


@pytest.mark.parametrize("rows", [3, 0])
@pytest.mark.parametrize("kwargs", PIVOT_ARGS, ids=[str(i) for i in range(len(PIVOT_ARGS))])
@pytest.mark.parametrize("cols", [["d", "e", "c"], ["d", "e", "c", "t", "i"]], ids=["few", "all"])
def test_pivot_table_labels_and_errors(kwargs, rows, cols):
    check(
        lambda f: f.pivot_table(**kwargs),
        PIVOTED[cols].iloc[:rows] if set(cols) >= _keys(kwargs) else PIVOTED.iloc[:rows],
    )


def _keys(kwargs):
    return {k for name in ("values", "index", "columns") for k in np.atleast_1d(kwargs.get(name, []))}


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
@pytest.mark.parametrize("names", [(0, "k"), ("k", 1), (0, 1), (2.5, "k")])
@pytest.mark.parametrize("key", ["float", "int", "str"])
def test_merge_left_on_right_on_unnamed_keys_fill_the_left_key(key, names, how):
    values = {"float": [0.5, 2.0, np.nan], "int": [1, 2, 3], "str": ["a", "b", None]}[key]
    left = pd.DataFrame({names[0]: values, "x": [1, 2, 3]})
    right = pd.DataFrame({names[1]: values[::-1][:2] + ["z" if key == "str" else 9], "y": [4, 5, 6]})
    check(lambda a, b: a.merge(b, how=how, left_on=names[0], right_on=names[1]), left, right)


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
@pytest.mark.parametrize(
    ("a", "b"), [("string", "str"), ("str", "string"), ("string", "object"), ("object", "str")]
)
def test_merge_string_keys_of_two_dtypes_keep_their_missing_values(a, b, how):
    left = pd.DataFrame({"e": pd.Series([None, "ab"], dtype=a), "x": [1, 2]})
    right = pd.DataFrame({"e": pd.Series(["ab", None, "zz"], dtype=b), "y": [1, 2, 3]})
    check(lambda p, q: p.merge(q, how=how, on="e"), left, right)


@pytest.mark.parametrize("method", ["upper", "swapcase", "strip"])
def test_str_of_object_data_keeps_its_missing_value(method):
    s = pd.Series(["ç", None, "AB"], dtype="string")
    check(lambda x: getattr(x.astype("object").str, method)(), s)


def test_merge_object_column_holding_none_beside_unmatched_rows_is_refused():
    left = pd.DataFrame({"d": pd.Series(["ç", None, "a"], dtype="object"), "e": ["x", "ab", "z"]})
    right = pd.DataFrame({"e": ["ab", "q"], "f": [1, 2]})
    check(lambda a, b: a.merge(b, how="right", on="e"), left, right)
    with pytest.raises(NotImplementedError):
        em.from_pandas(left).merge(em.from_pandas(right), how="right", on="e")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"values": "c", "index": "e", "columns": "c", "aggfunc": "size", "dropna": False},
        {"values": "i", "index": "e", "columns": "c", "aggfunc": "size"},
        {"values": ["i", "c"], "index": "e", "columns": "c", "aggfunc": "size"},
        {"values": "i", "index": "e", "margins": True},
    ],
)
def test_pivot_table_size_of_masked_values_and_margins_of_no_group(kwargs):
    df = pd.DataFrame(
        {
            "c": pd.Series([True, None, False, None, True, False], dtype="boolean"),
            "e": pd.Series([None, None, "10", "a_b", "10", ""], dtype="string"),
            "i": pd.Series([1, 2, 3, 4, 5, 6], dtype="Int64"),
        }
    )
    check(lambda f: f.pivot_table(**kwargs), df)
    check(lambda f: f.assign(e=pd.Series([None] * 6, dtype="str")).pivot_table(**kwargs), df)


@pytest.mark.parametrize("method", ["rstrip", "lstrip", "strip"])
@pytest.mark.parametrize("to_strip", [None, "b", " b", "日"])
@pytest.mark.parametrize("dtype", ["string", "str", "object"])
def test_strip_of_rows_made_only_of_stripped_characters(method, to_strip, dtype):
    s = pd.Series(["B", "日本", "ab", "b", "ç", "", "bb", "bab", " b ", "  ", None, "日"], dtype=dtype)
    check(lambda x: getattr(x.str, method)(to_strip), s)


@pytest.mark.parametrize("how", ["left_anti", "right_anti"])
@pytest.mark.parametrize("sort", [False, True])
def test_anti_joins_build_their_columns_from_the_rows_kept(request, how, sort):
    if not PANDAS_31:
        pytest.skip("pandas < 3.1 has no anti joins: no reference to compare with")
    cats = ["a", "b", "ç", "日本", ""]
    right = pd.DataFrame(
        {"b": [1.0, np.inf, np.nan, 1.0], "e": pd.Categorical(["a", None, None, "a"], categories=cats)}
    )
    for left in (
        pd.DataFrame({"e": pd.Categorical([None], categories=["b"]), "x": [1]}),
        pd.DataFrame({"e": pd.Categorical([], categories=[]), "x": pd.Series([], dtype="int64")}),
        pd.DataFrame({"e": pd.Categorical(["a", "b", None], categories=cats), "x": [1, 2, 3]}),
    ):
        check(lambda a, b: a.merge(b, how=how, on="e", sort=sort), left, right)
        check(lambda a, b: b.merge(a, how=how, on="e", sort=sort), left, right)


RIGHT_INDEXES = [
    pd.Index([1], name="a"),
    pd.Index([1]),
    pd.MultiIndex.from_arrays([[1], [3]], names=["a", "b"]),
    pd.MultiIndex.from_arrays([[1], [3]]),
    pd.MultiIndex.from_arrays([[1], [3]], names=["b", "a"]),
    pd.MultiIndex.from_arrays([[9, 1], [9, 3]], names=["a", "b"]),
]


@pytest.mark.parametrize("how", ["inner", "outer", "left", "right"])
@pytest.mark.parametrize("index", RIGHT_INDEXES, ids=[str(i) for i in range(len(RIGHT_INDEXES))])
def test_join_multiindexes_by_level_names(index, how):
    left = pd.DataFrame({"x": [1, 2]}, index=pd.MultiIndex.from_arrays([[1, 2], [3, 4]], names=["a", "b"]))
    right = pd.DataFrame({"y": range(len(index))}, index=index)
    check(lambda a, b: a.join(b, how=how), left, right)
    check(lambda a, b: b.join(a, how=how), left, right)

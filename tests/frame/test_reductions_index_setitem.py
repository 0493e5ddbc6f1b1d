"""Reductions over the whole frame, groupby keys, windows on decreasing indexes, Index.get_loc and
setitem with values a column cannot hold: each against pandas' own answer (or its error)."""

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


def _same_scalar(got, want):
    if want is pd.NA:
        assert got is pd.NA
        return
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, float) and np.isnan(want):
        assert np.isnan(got)
    else:
        assert got == want


def _raises_like(f_pd, f_em):
    """ember raises what pandas raises (or refuses with NotImplementedError)."""
    with pytest.raises(Exception) as pd_err:
        f_pd(pd)
    with pytest.raises(Exception) as em_err:
        f_em(em)
    assert isinstance(em_err.value, (pd_err.type, NotImplementedError)), (em_err.value, pd_err.value)


# --- axis=None reductions ------------------------------------------------------------------------
FRAMES = {
    "bool": {"a": [True, False], "b": [True, True]},
    "int_float": {"a": [1, 2], "b": [1.5, 2.0]},
    "int32": {"a": np.array([1, 2], dtype="int32"), "b": np.array([3, 4], dtype="int32")},
    "nan": {"a": [1.0, np.nan], "b": [np.nan, np.nan]},
    "masked_float": {"a": pd.array([1, None]), "b": [1.5, 2.0]},
    "masked": {"a": pd.array([1, None]), "b": pd.array([1, 2])},
    "all_na": {"a": pd.array([None, None], dtype="Int64")},
    "bool_na": {"a": pd.array([True, None]), "b": [True, True]},
}


@pytest.mark.parametrize("name", sorted(FRAMES))
@pytest.mark.parametrize(
    "op", ["sum", "prod", "min", "max", "mean", "median", "std", "var", "sem", "any", "all"]
)
@pytest.mark.parametrize("skipna", [True, False])
def test_axis_none_is_one_scalar(name, op, skipna, request):
    undecided = name in ("all_na", "bool_na", "masked", "masked_float") and (op == "all" or name == "all_na")
    # pandas 3.0 raises casting its own missing result of any / all to bool; 3.1 answers NA
    pandas_30_differs(
        request, "any / all raise on a missing result", op in ("any", "all") and not skipna and undecided
    )
    pdf = pd.DataFrame(FRAMES[name])
    try:
        want = getattr(pdf, op)(axis=None, skipna=skipna)
        if not PANDAS_31 and op == "median" and type(want) is float:
            want = np.float64(want)  # pandas 3.0's NaN median is a Python float; 3.1's, and ember's, NumPy's
    except Exception as err:  # noqa: BLE001 - pandas refuses: ember must raise too
        with pytest.raises((type(err), NotImplementedError)):
            getattr(em.from_pandas(pdf), op)(axis=None, skipna=skipna)
        return
    got = getattr(em.from_pandas(pdf), op)(axis=None, skipna=skipna)
    _same_scalar(got, want)


def test_axis_none_bool_only_and_numeric_only():
    pdf = pd.DataFrame({"a": [1, 0], "b": ["x", ""], "c": [True, True], "d": pd.array([False, None])})
    df = em.from_pandas(pdf)
    for op in ("any", "all"):
        _same_scalar(getattr(df, op)(axis=None), getattr(pdf, op)(axis=None))
        _same_scalar(getattr(df, op)(axis=None, bool_only=True), getattr(pdf, op)(axis=None, bool_only=True))
        assert_eq(getattr(df, op)(bool_only=True), getattr(pdf, op)(bool_only=True))
        assert_eq(getattr(df, op)(axis=1, bool_only=True), getattr(pdf, op)(axis=1, bool_only=True))
        with pytest.raises(TypeError):
            getattr(df, op)(numeric_only=True)
    pdf = pd.DataFrame({"a": [1, 2], "b": ["x", "y"], "c": [1.5, 2.5]})
    df = em.from_pandas(pdf)
    for op in ("sum", "mean", "max"):
        _same_scalar(
            getattr(df, op)(axis=None, numeric_only=True), getattr(pdf, op)(axis=None, numeric_only=True)
        )
    _raises_like(
        lambda m: m.DataFrame({"a": [1]}).count(axis=None), lambda m: m.DataFrame({"a": [1]}).count(axis=None)
    )
    _raises_like(lambda m: m.DataFrame().sum(axis=None), lambda m: m.DataFrame().sum(axis=None))
    for op in ("count", "nunique", "idxmin", "idxmax"):
        _raises_like(
            lambda m, op=op: getattr(m.DataFrame({"a": [1]}), op)(axis=None),
            lambda m, op=op: getattr(m.DataFrame({"a": [1]}), op)(axis=None),
        )
    _same_scalar(em.DataFrame().all(axis=None), pd.DataFrame().all(axis=None))
    _same_scalar(em.DataFrame().any(axis=None), pd.DataFrame().any(axis=None))


def test_axis_none_strings():
    pdf = pd.DataFrame({"a": ["x", "y"], "b": ["z", "w"]})
    df = em.from_pandas(pdf)
    for op in ("sum", "min", "max", "any", "all"):
        _same_scalar(getattr(df, op)(axis=None), getattr(pdf, op)(axis=None))


# --- reversed slices and windows on a decreasing index ---------------------------------------------
@pytest.mark.parametrize("index", [None, [10, 20, 30, 40, 50], list("abcde")])
@pytest.mark.parametrize(
    "key",
    [
        slice(None, None, -1),
        slice(3, None, -1),
        slice(None, 1, -1),
        slice(4, 0, -2),
        slice(1, 3, -1),
        slice(-7, None, -1),
        slice(-6, -9, -1),
        slice(-5, None, -2),
    ],
)
def test_reversed_iloc_slices(index, key):
    pdf = pd.DataFrame({"a": [1, 2, 1, 4, 5], "b": [1.0, 2, 3, 4, 5], "s": list("vwxyz")}, index=index)
    df = em.from_pandas(pdf)
    assert_eq(df.iloc[key], pdf.iloc[key])
    assert_eq(df["s"].iloc[key], pdf["s"].iloc[key])
    assert_eq(df["b"][key], pdf["b"][key])
    assert list(df.index[key].to_pandas()) == list(pdf.index[key])


def test_reversed_loc_slices():
    pdf = pd.DataFrame({"b": [1.0, 2, 3, 4, 5]}, index=list("abcde"))
    df = em.from_pandas(pdf)
    for key in [slice(None, None, -1), slice("d", None, -1), slice("e", "a", -2), slice("b", "d", 2)]:
        assert_eq(df.loc[key], pdf.loc[key])
        assert_eq(df["b"].loc[key], pdf["b"].loc[key])


@pytest.mark.parametrize("closed", [None, "left", "both", "neither"])
@pytest.mark.parametrize("agg", ["sum", "mean", "count", "max"])
def test_rolling_offset_on_decreasing_index(closed, agg):
    idx = pd.date_range("2020", periods=6, freq="s")
    pdf = pd.DataFrame({"x": [1.0, 2, np.nan, 4, 5, 6]}, index=idx).iloc[::-1]
    df = em.from_pandas(pdf)
    want = getattr(pdf.rolling("3s", closed=closed), agg)()
    assert_eq(getattr(df.rolling("3s", closed=closed), agg)(), want, check_freq=False)
    want = getattr(pdf["x"].rolling("3s", closed=closed), agg)()
    assert_eq(getattr(df["x"].rolling("3s", closed=closed), agg)(), want, check_freq=False)
    on = pdf.reset_index(names="t")
    want = getattr(on.rolling("3s", on="t", closed=closed), agg)()
    assert_eq(getattr(em.from_pandas(on).rolling("3s", on="t", closed=closed), agg)(), want)


def test_rolling_offset_on_unsorted_index_raises():
    idx = pd.date_range("2020", periods=4, freq="s")[[0, 2, 1, 3]]
    _raises_like(
        lambda m: m.DataFrame({"x": [1.0, 2, 3, 4]}, index=idx).rolling("2s").sum(),
        lambda m: m.DataFrame({"x": [1.0, 2, 3, 4]}, index=idx).rolling("2s").sum(),
    )


def test_searchsorted_of_a_scalar_is_a_numpy_integer():
    for side in ("left", "right"):
        want = pd.Series([1, 2, 4, 4, 7]).searchsorted(4, side=side)
        got = em.Series([1, 2, 4, 4, 7]).searchsorted(4, side=side)
        assert type(got) is type(want) and got == want, (got, want)


# --- groupby apply ----------------------------------------------------------------------------------
def _reverse(x):
    return x.iloc[::-1]


def _head1(x):
    return x.head(1)


@pytest.mark.parametrize("group_keys", [True, False])
@pytest.mark.parametrize("as_index", [True, False])
@pytest.mark.parametrize("select", [["B"], "B"])
@pytest.mark.parametrize("func", [lambda x: x * 2, _head1, _reverse])
@pytest.mark.parametrize(
    "data,index",
    [
        ({"A": [1, 2, 1], "B": [1.0, 2, 3]}, [10, 20, 30]),
        ({"A": [1, 2, 1, None], "B": [1.0, 2, 3, 4]}, [10, 10, 30, 40]),
        ({"A": [3, 2, 1, 3], "B": [1.0, 2, 3, 4]}, None),
    ],
)
def test_groupby_apply_group_keys(group_keys, as_index, select, func, data, index, request):
    # SeriesGroupBy.apply(as_index=False) of a result not shaped as the group: pandas 3.0 makes a frame
    # of keys (head) or raises (a reordered group); 3.1 gives the Series
    reshaped = select == "B" and not as_index and func in (_head1, _reverse)
    pandas_30_differs(request, "as_index=False reshapes the applied Series", reshaped)
    pdf = pd.DataFrame(data, index=index)
    want = pdf.groupby("A", group_keys=group_keys, as_index=as_index)[select].apply(func)
    got = em.from_pandas(pdf).groupby("A", group_keys=group_keys, as_index=as_index)[select].apply(func)
    assert_eq(got, want)


# --- setitem with values a column cannot hold ------------------------------------------------------
SERIES = {
    "int64": ([1, 2, 3], None),
    "int8": ([1, 2, 3], "int8"),
    "uint8": ([1, 2, 3], "uint8"),
    "float64": ([1.0, 2, 3], None),
    "float32": ([1.0, 2, 3], "float32"),
    "bool": ([True, False, True], None),
    "Int64": ([1, 2, 3], "Int64"),
    "Float64": ([1.0, 2, 3], "Float64"),
    "boolean": ([True, False, True], "boolean"),
    "str": (["a", "b", "c"], None),
    "datetime": (pd.date_range("2020", periods=3), None),
    "timedelta": (pd.to_timedelta([1, 2, 3], unit="s"), None),
}
SCALARS = [
    1.5,
    2.0,
    1,
    np.nan,
    None,
    "x",
    True,
    1000,
    -1,
    pd.NA,
    pd.NaT,
    pd.Timestamp("2021-01-01"),
    "2021-01-01",
]
SETTERS = {
    "iloc": lambda s, v: s.iloc.__setitem__(0, v),
    "loc": lambda s, v: s.loc.__setitem__(0, v),
    "item": lambda s, v: s.__setitem__(0, v),
    "mask": lambda s, v: s.__setitem__(np.array([False, True, False]), v),
    "slice": lambda s, v: s.iloc.__setitem__(slice(0, 2), v),
    "labels": lambda s, v: s.loc.__setitem__([0, 2], v),
}


def _check_setitem(make, setter, value, value_em=None):
    want = make(pd)
    try:
        setter(want, value)
    except Exception as err:  # noqa: BLE001 - pandas refuses: ember must raise the same
        got = make(em)
        with pytest.raises((type(err), NotImplementedError)):
            setter(got, value if value_em is None else value_em)
        return
    got = make(em)
    setter(got, value if value_em is None else value_em)
    assert_eq(got, want)


@pytest.mark.parametrize("kind", sorted(SERIES))
@pytest.mark.parametrize("setter", sorted(SETTERS))
@pytest.mark.parametrize("value", SCALARS, ids=repr)
def test_setitem_scalar_as_pandas(kind, setter, value):
    data, dtype = SERIES[kind]
    _check_setitem(lambda m: m.Series(data, dtype=dtype), SETTERS[setter], value)


ARRAYS = [
    [1.5, 2.5],
    [1.0, 2.0],
    np.array([1.0, np.nan]),
    np.array([1.0, 2.0]),
    np.array([np.nan, np.nan]),
    [1, 2],
    [True, False],
    ["x", "y"],
    [None, None],
    [1, None],
    np.array([1000, 1]),
    np.array([1, 2], dtype="int32"),
    np.array([1, -2]),
    np.array([True, False]),
    pd.array([1, None]),
    pd.array([True, None]),
    pd.array([1.5, None]),
]


@pytest.mark.parametrize("kind", sorted(SERIES))
@pytest.mark.parametrize("setter", ["slice", "labels", "mask2"])
@pytest.mark.parametrize("value", ARRAYS, ids=lambda v: repr(v).replace("\n", " "))
def test_setitem_values_as_pandas(kind, setter, value, request):
    # pandas 3.0's masked setitem casts bools into Int64 / Float64 (3.1: TypeError), raises ValueError
    # for strings there (3.1: TypeError), and takes numbers with a missing value into boolean
    lst = value if isinstance(value, list) else None
    old_rules = (kind in ("Int64", "Float64") and lst in ([True, False], ["x", "y"])) or (
        kind == "boolean" and (lst == [1, None] or _numbers_with_missing(value))
    )
    pandas_30_differs(request, "masked setitem casts otherwise", old_rules)
    data, dtype = SERIES[kind]
    setters = dict(SETTERS, mask2=lambda s, v: s.__setitem__(np.array([True, True, False]), v))
    value_em = (
        em.from_pandas(pd.Series(value)) if isinstance(value, pd.api.extensions.ExtensionArray) else None
    )
    _check_setitem(lambda m: m.Series(data, dtype=dtype), setters[setter], value, value_em)


def _numbers_with_missing(value):
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return bool(np.isnan(value).any() and not np.isnan(value).all())
    return isinstance(value, pd.arrays.IntegerArray) and bool(value.isna().any())


def _frame(m):
    return m.DataFrame({"a": [1, 2, 3], "b": [1.5, 2.5, 3.5], "s": ["x", "y", "z"]})


FRAME_SETS = {
    "loc_cell_float": lambda d: d.loc.__setitem__((0, "a"), 1.5),
    "loc_cell_whole": lambda d: d.loc.__setitem__((0, "a"), 2.0),
    "loc_cell_str": lambda d: d.loc.__setitem__((0, "b"), "q"),
    "iloc_cell": lambda d: d.iloc.__setitem__((0, 0), 1.5),
    "iloc_cell_none": lambda d: d.iloc.__setitem__((0, 0), None),
    "at": lambda d: d.at.__setitem__((0, "a"), 1.5),
    "iat": lambda d: d.iat.__setitem__((0, 0), 1.5),
    "mask_col": lambda d: d.loc.__setitem__((d["a"] > 1, "a"), 0.5),
    "row_list": lambda d: d.loc.__setitem__(0, [5, 6.5, "w"]),
    "row_list_lossy": lambda d: d.loc.__setitem__(0, [5.5, 6.5, "w"]),
    "row_list_iloc": lambda d: d.iloc.__setitem__(1, [5, 6.5, "w"]),
    "row_dict": lambda d: d.loc.__setitem__(0, {"a": 9, "b": 1.0, "s": "q"}),
    "row_scalar": lambda d: d.loc.__setitem__(0, 7),
    "rows_cols": lambda d: d.loc.__setitem__(([0, 1], ["a", "b"]), 9),
    "rows_cols_lossy": lambda d: d.loc.__setitem__(([0, 1], ["a", "b"]), 1.5),
    "rows_row": lambda d: d.loc.__setitem__([0, 1], [7, 8.5, "k"]),
    "whole_col": lambda d: d.loc.__setitem__((slice(None), "a"), 1.5),
    "new_col_number": lambda d: d.loc.__setitem__((0, "new"), 1.5),
    "new_col_str": lambda d: d.loc.__setitem__((0, "new"), "q"),
    "chained": lambda d: d["a"].__setitem__(0, 1.5),
    "wrong_len": lambda d: d.loc.__setitem__(0, [7, 8.5]),
}


@pytest.mark.parametrize("name", sorted(FRAME_SETS))
def test_frame_setitem_as_pandas(name):
    _check_setitem(_frame, lambda d, v: FRAME_SETS[name](d), None)


def test_frame_setitem_refused_leaves_frame_unchanged():
    df = _frame(em)
    with pytest.raises(TypeError):
        df.loc[0] = [7, 8.5, 3]  # 3 cannot go into the string column
    assert_eq(df, _frame(pd))


ENLARGE = {
    "frame_row": lambda d: d.loc.__setitem__(len(d), [7, 8.5, "k"]),
    "frame_row_lossy": lambda d: d.loc.__setitem__(3, [5.5, 6.5, "w"]),
    "frame_row_label": lambda d: d.loc.__setitem__(10, [5, 6.5, "w"]),
    "frame_row_dict": lambda d: d.loc.__setitem__(3, {"a": 1, "b": 2.0, "s": "t"}),
    "frame_cell": lambda d: d.loc.__setitem__((3, "a"), 1),
    "frame_cell_float": lambda d: d.loc.__setitem__((3, "a"), 1.5),
    "frame_cell_str": lambda d: d.loc.__setitem__((3, "s"), "q"),
    "frame_at": lambda d: d.at.__setitem__((3, "a"), 5),
    "frame_wrong_len": lambda d: d.loc.__setitem__(3, [7, 8.5]),
    "frame_iloc": lambda d: d.iloc.__setitem__(3, [7, 8.5, "k"]),
}


@pytest.mark.parametrize("name", sorted(ENLARGE))
def test_setting_with_enlargement(name):
    _check_setitem(_frame, lambda d, v: ENLARGE[name](d), None)


def test_series_setting_with_enlargement():
    _check_setitem(lambda m: m.Series([1, 2, 3], name="n"), lambda s, v: s.__setitem__(5, v), 4)
    _check_setitem(lambda m: m.Series([1, 2, 3]), lambda s, v: s.loc.__setitem__(3, v), 4.5)
    _check_setitem(
        lambda m: m.Series([1, 2, 3], index=list("abc")), lambda s, v: s.loc.__setitem__("d", v), 7
    )
    _check_setitem(lambda m: m.Series([1, 2, 3]), lambda s, v: s.iloc.__setitem__(3, v), 7)
    idx = pd.date_range("2020", periods=2)
    _check_setitem(
        lambda m: m.DataFrame({"a": [1, 2]}, index=idx),
        lambda d, v: d.loc.__setitem__(pd.Timestamp("2021"), v),
        5,
    )


# --- Index.get_loc -----------------------------------------------------------------------------------
def _same_loc(got, want):
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype and np.array_equal(got, want)
    elif isinstance(want, slice):
        assert isinstance(got, slice) and (got.start, got.stop, got.step) == (
            want.start,
            want.stop,
            want.step,
        )
    else:
        assert type(got) is int and got == want


GET_LOC_INDEXES = [
    list("abbc"),
    list("abcb"),
    list("cbba"),
    list("bbac"),
    [1, 2, 2, 3],
    [1.0, 2.0, 2.0, np.nan],
    [3, 2, 2, 1],
    [1, 1, 1],
    [1.0, np.nan, np.nan],
    ["a", None, None],
    [True, False, True],
    [0, 1],
]
GET_LOC_LABELS = ["b", 2, 2.0, 1, np.nan, None, True, 2.5, "a", 0, pd.NA, pd.NaT]


@pytest.mark.parametrize("values", GET_LOC_INDEXES, ids=repr)
@pytest.mark.parametrize("label", GET_LOC_LABELS, ids=repr)
def test_get_loc_as_pandas(values, label):
    try:
        want = pd.Index(values).get_loc(label)
    except Exception as err:  # noqa: BLE001
        with pytest.raises(type(err)):
            em.Index(values).get_loc(label)
        return
    _same_loc(em.Index(values).get_loc(label), want)


def test_get_loc_other_indexes():
    dt = pd.DatetimeIndex(["2020-01-01", "2020-01-02", "2020-01-02", None])
    got = em.from_pandas(pd.Series(0, index=dt)).index
    for label in ["2020-01-02", pd.Timestamp("2020-01-02"), np.datetime64("2020-01-01"), pd.NaT, None]:
        _same_loc(got.get_loc(label), dt.get_loc(label))
    with pytest.raises(KeyError):
        got.get_loc(pd.Timestamp("2019"))
    with pytest.raises(pd.errors.InvalidIndexError):
        em.Index([1, 2]).get_loc([2])
    for idx, labels in [
        (pd.RangeIndex(5), [3, 0]),
        (pd.MultiIndex.from_tuples([(1, "a"), (1, "b"), (2, "a")]), [1, (1, "b"), (2, "a")]),
        (pd.Index(pd.array([1, None, 3])), [pd.NA, 3]),
        (pd.Index([0.5, 1.5, 1.5]), [1.5, 0.5]),
    ]:
        got = em.from_pandas(pd.Series(range(len(idx)), index=idx)).index
        for label in labels:
            want = idx.get_loc(label)
            if isinstance(want, slice):
                want = slice(int(want.start), int(want.stop), want.step)
            _same_loc(got.get_loc(label), want)


@pytest.mark.parametrize("index", [list("abbc"), list("abcb"), list("bbac")])
def test_loc_repeated_label(index):
    pdf = pd.DataFrame({"x": [1, 2, 3, 4], "y": [1.0, 2, 3, 4]}, index=index)
    df = em.from_pandas(pdf)
    assert_eq(df.loc["b"], pdf.loc["b"])
    assert_eq(df["x"].loc["b"], pdf["x"].loc["b"])
    assert_eq(df.loc["b", "x"], pdf.loc["b", "x"])
    pdf.loc["b", "x"] = 9
    df.loc["b", "x"] = 9
    assert_eq(df, pdf)
    ps, es = pdf["y"].copy(), df["y"]
    ps["b"] = 0.5
    es["b"] = 0.5
    assert_eq(es, ps)


# --- value_counts subsets ---------------------------------------------------------------------------
@pytest.mark.parametrize("subset", ["col", ["col"], ["col", "b"], ["b", "col"], None, "b"], ids=repr)
@pytest.mark.parametrize("kw", [{}, {"normalize": True}, {"dropna": False}, {"sort": False}], ids=repr)
def test_frame_value_counts_subset(subset, kw):
    pdf = pd.DataFrame({"col": [1, 1, 2, None], "b": ["x", "y", "x", "x"]})
    assert_eq(em.from_pandas(pdf).value_counts(subset, **kw), pdf.value_counts(subset, **kw))
    assert_eq(em.from_pandas(pdf[["b"]]).value_counts(**kw), pdf[["b"]].value_counts(**kw))


@pytest.mark.parametrize("subset", ["zz", ["col", "zz"], ("col", "b"), []], ids=repr)
def test_frame_value_counts_bad_subset(subset):
    pdf = pd.DataFrame({"col": [1, 1, 2], "b": ["x", "y", "x"]})
    _raises_like(lambda m: pdf.value_counts(subset), lambda m: em.from_pandas(pdf).value_counts(subset))


# --- groupby keys -------------------------------------------------------------------------------------
def _s(m):
    return m.Series([1, 2, 3, 4], index=[10, 20, 30, 40])


def _d(m):
    return m.DataFrame({"a": [1, 2, 3, 4], "b": [1, 1, 2, 2]})


GROUP_KEYS = {
    "values_list": lambda m: _s(m).groupby([1, 1, 2, 2]).sum(),
    "values_array": lambda m: _s(m).groupby(np.array([1, 1, 2, 2])).sum(),
    "float_values": lambda m: _s(m).groupby([1.5, 1.5, 2, 2]).mean(),
    "str_values": lambda m: _s(m).groupby(["x", "y", "x", "y"]).mean(),
    "list_of_arrays": lambda m: _s(m).groupby([np.array([1, 1, 2, 2]), ["x", "y", "x", "y"]]).sum(),
    "frame_values_list": lambda m: _d(m).groupby([1, 1, 2, 2]).sum(),
    "frame_labels_not_all_columns": lambda m: _d(m).groupby(["a", "zz", "b", "b"]).sum(),
    "pandas_index": lambda m: _s(m).groupby(pd.Index([1, 1, 2, 2], name="nm")).sum(),
    "ember_index": lambda m: _s(m).groupby(m.Index([1, 1, 2, 2], name="nm")).sum(),
    "series_other_order": lambda m: (
        _s(m).groupby(m.Series(["a", "b", "a", "b"], index=[40, 30, 20, 10])).sum()
    ),
    "series_more_labels": lambda m: (
        _s(m).groupby(m.Series(list("abab") + ["c"], index=[40, 30, 20, 10, 50])).sum()
    ),
    "series_fewer_labels": lambda m: _s(m).groupby(m.Series(["a", "b"], index=[40, 30])).sum(),
    "pandas_series_other_order": lambda m: (
        _s(m).groupby(pd.Series(list("abab"), index=[40, 30, 20, 10])).sum()
    ),
    "index_level_name": lambda m: _d(m).set_index("b").groupby("b").sum(),
    "index_level_names_list": lambda m: _d(m).set_index("b").groupby(["b", "b", "b", "b"]).sum(),
    "multiindex_level_name": lambda m: _d(m).set_index(["a", "b"]).groupby("b").size(),
    "wrong_length": lambda m: _d(m).groupby([1, 1, 2]).sum(),
    "missing_column": lambda m: _d(m).groupby("zz").sum(),
}


@pytest.mark.parametrize("name", sorted(GROUP_KEYS))
def test_groupby_keys_as_pandas(name):
    try:
        want = GROUP_KEYS[name](pd)
    except Exception as err:  # noqa: BLE001
        with pytest.raises((type(err), NotImplementedError)):
            GROUP_KEYS[name](em)
        return
    assert_eq(GROUP_KEYS[name](em), want)


def test_groupby_function_key_refused():
    with pytest.raises(NotImplementedError):
        _s(em).groupby(lambda x: x > 20).sum()
    with pytest.raises(NotImplementedError):
        _s(em).groupby(["x", 1, "x", 1]).sum()


# --- an ember Series as labels ------------------------------------------------------------------------
SERIES_AS_INDEX = {
    "dates": lambda m: m.Series([1, 2, 3], index=m.Series(pd.date_range("2020", periods=3))),
    "dates_named": lambda m: m.Series([1, 2, 3], index=m.Series(pd.date_range("2020", periods=3), name="t")),
    "frame": lambda m: m.DataFrame(
        {"a": [1, 2, 3]}, index=m.Series(pd.date_range("2020", periods=3), name="t")
    ),
    "ints": lambda m: m.Series([1, 2, 3], index=m.Series([3, 1, 2])),
    "strings": lambda m: m.Series([1, 2], index=m.Series(["a", "b"], name="q")),
}


@pytest.mark.parametrize("name", sorted(SERIES_AS_INDEX))
def test_series_as_index(name):
    assert_eq(SERIES_AS_INDEX[name](em), SERIES_AS_INDEX[name](pd))


SERIES_VALUES = {
    "loc_labels": lambda m, s: s.loc.__setitem__([0, 1], m.Series([9, 8], index=[1, 0])),
    "iloc_positions": lambda m, s: s.iloc.__setitem__([0, 1], m.Series([9, 8], index=[1, 0])),
    "mask": lambda m, s: s.__setitem__(s > 1, m.Series([9.0, 8], index=[2, 5])),
    "loc_more_labels": lambda m, s: s.loc.__setitem__([0, 1], m.Series([9.0, 8, 7], index=[1, 0, 2])),
    "iloc_slice": lambda m, s: s.iloc.__setitem__(slice(0, 2), m.Series([9.0, 8])),
    "pandas_value": lambda m, s: s.loc.__setitem__([0, 1], pd.Series([9, 8], index=[1, 0])),
}


@pytest.mark.parametrize("name", sorted(SERIES_VALUES))
@pytest.mark.parametrize("data", [[1, 2, 3], [1.0, 2, 3]])
def test_setitem_series_value_aligned_as_pandas(name, data):
    _check_setitem(
        lambda m: m.Series(data),
        lambda s, v: SERIES_VALUES[name](em if isinstance(s, em.Series) else pd, s),
        None,
    )

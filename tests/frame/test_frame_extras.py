"""Long-tail DataFrame / Series methods (FrameExtras / SeriesExtras) against pandas: host conversions
(to_dict, to_records, itertuples, iterrows, items, array), flags, argsort, dot / @, mode, skew / kurt,
autocorr."""

from collections import OrderedDict, defaultdict

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq


@pytest.fixture
def pdf():
    return pd.DataFrame(
        {
            "i": [3, 1, 2, 3, 9, 1],
            "f": [1.5, np.nan, 3.0, 4.0, 5.0, 1.5],
            "b": [True, False, True, True, False, True],
            "s": ["x", "y", None, "x", "z", "y"],
            "m": pd.array([1, None, 4, 4, 2, 7], dtype="Int64"),
        },
        index=list("uvwxyz"),
    )


def _same_records(a, b):
    assert a.dtype == b.dtype
    assert len(a) == len(b)
    for ra, rb in zip(a.tolist(), b.tolist()):
        assert len(ra) == len(rb)
        for x, y in zip(ra, rb):
            assert (x != x and y != y) or x == y


# --- host conversions -----------------------------------------------------------------------------
@pytest.mark.parametrize("orient", ["dict", "list", "series", "split", "records", "index", "tight"])
def test_to_dict_orients(pdf, orient):
    p = pdf[["i", "s"]]
    got = em.from_pandas(p).to_dict(orient)
    want = p.to_dict(orient)
    if orient == "series":
        assert got.keys() == want.keys()
        for k in want:
            pd.testing.assert_series_equal(got[k], want[k])
    else:
        assert got == want


def test_to_dict_into(pdf):
    p = pdf[["i", "s"]]
    e = em.from_pandas(p)
    got = e.to_dict(into=OrderedDict)
    assert type(got) is OrderedDict and got == p.to_dict(into=OrderedDict)
    dd = defaultdict(list)
    got = e.to_dict("records", into=dd)
    assert got == p.to_dict("records", into=dd) and all(type(r) is defaultdict for r in got)
    assert e.to_dict(orient="split", index=False) == p.to_dict(orient="split", index=False)
    with pytest.raises(ValueError):
        e.to_dict("nope")
    with pytest.raises(TypeError):
        e.to_dict(into=defaultdict)  # pandas: an initialised defaultdict


def test_series_to_dict_items_keys(pdf):
    for col in ("i", "s", "m"):
        s = pdf[col]
        es = em.from_pandas(s)
        assert es.to_dict() == s.to_dict()
        assert type(es.to_dict(into=OrderedDict)) is OrderedDict
        assert list(es.items()) == list(s.items())
        assert_eq(es.keys(), s.keys())
    s = pd.Series([], dtype="float64")
    assert em.from_pandas(s).to_dict() == {}


def test_to_records(pdf):
    p = pdf[["i", "f", "b"]]
    e = em.from_pandas(p)
    _same_records(e.to_records(), p.to_records())
    _same_records(e.to_records(index=False), p.to_records(index=False))
    _same_records(e.to_records(column_dtypes={"i": "int32"}), p.to_records(column_dtypes={"i": "int32"}))
    _same_records(e.to_records(index_dtypes="<S2"), p.to_records(index_dtypes="<S2"))
    empty = p.iloc[:0]
    _same_records(em.from_pandas(empty).to_records(), empty.to_records())


def test_itertuples(pdf):
    p = pdf[["i", "s"]]
    e = em.from_pandas(p)
    assert list(e.itertuples()) == list(p.itertuples())
    assert list(e.itertuples(index=False)) == list(p.itertuples(index=False))
    got, want = list(e.itertuples(name="Row")), list(p.itertuples(name="Row"))
    assert got == want and type(got[0]).__name__ == "Row"
    assert list(e.itertuples(name=None)) == list(p.itertuples(name=None))


def test_iterrows(pdf):
    p = pdf[["i", "f"]]
    got = list(em.from_pandas(p).iterrows())
    want = list(p.iterrows())
    assert [k for k, _ in got] == [k for k, _ in want]
    for (_, r), (_, w) in zip(got, want):
        assert_eq(r, w)
    assert list(em.from_pandas(p.iloc[:0]).iterrows()) == []


def test_iterrows_mixed_row_refused(pdf):
    with pytest.raises(NotImplementedError):
        next(em.from_pandas(pdf[["i", "s"]]).iterrows())


def test_array(pdf):
    for col in ("i", "f", "b", "s", "m"):
        got, want = em.from_pandas(pdf[col]).array, pdf[col].array
        assert type(got) is type(want)
        pd.testing.assert_extension_array_equal(got, want)


# --- flags ----------------------------------------------------------------------------------------
def test_flags(pdf):
    for p in (pdf, pdf["i"]):
        e = em.from_pandas(p)
        assert e.flags.allows_duplicate_labels is p.flags.allows_duplicate_labels
        assert e.flags["allows_duplicate_labels"] is True
        assert repr(e.flags) == repr(p.flags)
        assert e.flags == p.flags
        e.flags.allows_duplicate_labels = True
        e.flags["allows_duplicate_labels"] = True
        assert_eq(e.set_flags(allows_duplicate_labels=True), p.set_flags(allows_duplicate_labels=True))
        assert_eq(e.set_flags(), p)
        with pytest.raises(NotImplementedError):
            e.flags.allows_duplicate_labels = False
        with pytest.raises(NotImplementedError):
            e.set_flags(allows_duplicate_labels=False)
        with pytest.raises(KeyError):
            e.flags["nope"]
        with pytest.raises(ValueError):
            e.flags["nope"] = True


# --- argsort --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "s",
    [
        pd.Series([3, 2, 1]),
        pd.Series([3.0, np.nan, 1.0, 2.0], index=list("abcd"), name="x"),
        pd.Series([3, None, 1], dtype="Int64"),
        pd.Series(["b", None, "a"]),
        pd.Series(pd.to_datetime(["2020-01-03", None, "2020-01-01"])),
        pd.Series([], dtype="float64"),
    ],
)
def test_argsort(s):
    assert_eq(em.from_pandas(s).argsort(), s.argsort())


def test_argsort_ties():
    s = pd.Series([2, 1, 2, 1, np.nan, 0])
    e = em.from_pandas(s)
    assert_eq(e.argsort(kind="stable"), s.argsort(kind="stable"))
    assert_eq(e.argsort(kind="mergesort"), s.argsort(kind="mergesort"))
    with pytest.raises(NotImplementedError):
        e.argsort()
    with pytest.raises(ValueError):
        e.argsort(axis=1)


# --- dot ------------------------------------------------------------------------------------------
@pytest.fixture
def mats():
    df = pd.DataFrame([[0, 1, -2, -1], [1, 1, 1, 1]], index=["r", "s"])
    other = pd.DataFrame([[0, 1], [1, 2], [-1, -1], [2, 0]], columns=["x", "y"])
    return df, other


def test_frame_dot(mats):
    df, other = mats
    e, eo = em.from_pandas(df), em.from_pandas(other)
    assert_eq(e.dot(eo), df.dot(other))
    assert_eq(e @ eo, df @ other)
    s = pd.Series([1, 1, 2, 1])
    assert_eq(e.dot(em.from_pandas(s)), df.dot(s))
    assert_eq(e.dot(other.to_numpy()), df.dot(other.to_numpy()))
    assert_eq(e.dot(s.to_numpy()), df.dot(s.to_numpy()))
    f = other.astype(float)
    f.iloc[0, 0] = np.nan
    assert_eq(e.dot(em.from_pandas(f)), df.dot(f))


def test_frame_dot_aligns_labels(mats):
    df, other = mats
    shuffled = other.iloc[[2, 0, 3, 1]]
    assert_eq(em.from_pandas(df).dot(em.from_pandas(shuffled)), df.dot(shuffled))
    named = pd.DataFrame({"b": [1.0, 2.0], "a": [3.0, 4.0]})
    right = pd.Series([10.0, 20.0], index=["a", "b"])
    assert_eq(em.from_pandas(named).dot(em.from_pandas(right)), named.dot(right))


def test_frame_dot_errors(mats):
    df, other = mats
    e = em.from_pandas(df)
    with pytest.raises(ValueError, match="not aligned"):
        e.dot(em.from_pandas(other.iloc[:3]))
    with pytest.raises(ValueError, match="shape mismatch"):
        e.dot(np.ones((3, 2)))
    masked = other.astype("Int64")
    with pytest.raises(NotImplementedError):
        e.dot(em.from_pandas(masked))
    with pytest.raises(NotImplementedError):
        em.from_pandas(pd.DataFrame({"a": ["x"]})).dot(np.ones(1))


def test_series_dot(mats):
    _, other = mats
    s = pd.Series([0, 1, 2, 3])
    t = pd.Series([-1, 2, -3, 4])
    es = em.from_pandas(s)
    got = es.dot(em.from_pandas(t))
    assert got == s.dot(t) and type(got) is type(s.dot(t))
    assert es @ em.from_pandas(t) == s @ t
    assert_eq(es.dot(em.from_pandas(other)), s.dot(other))
    np.testing.assert_array_equal(es.dot(other.to_numpy()), s.dot(other.to_numpy()))
    f = pd.Series([0.5, np.nan, 1.0, 2.0])
    assert np.isnan(em.from_pandas(f).dot(em.from_pandas(t)))
    with pytest.raises(ValueError, match="not aligned"):
        es.dot(em.from_pandas(t.iloc[:3]))
    with pytest.raises(Exception, match="shape mismatch"):
        es.dot(np.ones(3))


# --- mode -----------------------------------------------------------------------------------------
def test_mode(pdf):
    e = em.from_pandas(pdf)
    assert_eq(e.mode(), pdf.mode())
    assert_eq(e.mode(dropna=False), pdf.mode(dropna=False))
    assert_eq(e.mode(numeric_only=True), pdf.mode(numeric_only=True))
    t = pd.DataFrame(
        {
            "d": pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-01", None]),
            "c": pd.Categorical(["a", "b", "b", "a"]),
            "k": [1, 2, 3, 4],
        }
    )
    assert_eq(em.from_pandas(t).mode(), t.mode())


def test_mode_empty():
    for p in (pd.DataFrame({"a": [], "b": []}), pd.DataFrame(), pd.DataFrame(index=[1, 2])):
        assert_eq(em.from_pandas(p).mode(), p.mode())


def test_mode_axis1():
    p = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, 5.0, np.nan], "c": [2.0, 5.0, 3.0]})
    assert_eq(em.from_pandas(p).mode(axis=1), p.mode(axis=1))
    with pytest.raises(ValueError):
        em.from_pandas(p).mode(axis=2)


# --- skew / kurt ----------------------------------------------------------------------------------
MOMENT_SERIES = [
    pd.Series([1, 2, 3, 4, 9]),
    pd.Series([1.0, 2.0, np.nan, 5.0, 4.0, 11.0]),
    pd.Series([1, 2, 3.5, 5, 4], dtype="float32"),
    pd.Series([1, 2, None, 5, 7], dtype="Int64"),
    pd.Series([1, 2, None, 5, 4, 0.5], dtype="Float64"),
    pd.Series([1, 2, None], dtype="Int64"),
    pd.Series([True, False, True, True]),
    pd.Series([1e10, 1e10 + 1, 1e10 + 3, 1e10 + 7]),
    pd.Series([1.0, np.inf, 3.0, 4.0]),
    pd.Series([], dtype="float64"),
    pd.Series([1.0, 2.0]),
    pd.Series([1.0, 2.0, 4.0]),
]


def _same_scalar(got, want):
    if want is pd.NA:
        assert got is pd.NA
        return
    assert type(got) is type(want)
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(want, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("s", MOMENT_SERIES)
@pytest.mark.parametrize("op", ["skew", "kurt"])
@pytest.mark.parametrize("skipna", [True, False])
def test_series_moments(s, op, skipna):
    _same_scalar(getattr(em.from_pandas(s), op)(skipna=skipna), getattr(s, op)(skipna=skipna))


@pytest.mark.parametrize("dtype", ["int64", "float64", "Int64"])
def test_constant_moments(dtype):
    s = pd.Series([4, 4, 4, 4, 4], dtype=dtype)
    for op in ("skew", "kurt"):
        got, want = getattr(em.from_pandas(s), op)(), getattr(s, op)()
        _same_scalar(got, want)
        if PANDAS_31 and dtype != "Int64":
            assert np.isnan(got)


@pytest.mark.parametrize(
    "s",
    [
        pd.Series(["a", "b", "c"]),
        pd.Series(pd.to_datetime(["2020", "2021", "2022"])),
        pd.Series(list("abc"), dtype="category"),
    ],
)
def test_series_moments_refused(s):
    with pytest.raises(TypeError):
        em.from_pandas(s).skew()
    with pytest.raises(TypeError):
        em.from_pandas(s).kurt()


@pytest.mark.parametrize("op", ["skew", "kurt"])
def test_frame_moments(pdf, op):
    e = em.from_pandas(pdf)
    assert_eq(getattr(e, op)(numeric_only=True), getattr(pdf, op)(numeric_only=True))
    num = pdf[["i", "f"]]
    en = em.from_pandas(num)
    assert_eq(getattr(en, op)(), getattr(num, op)())
    assert_eq(getattr(en, op)(axis=1), getattr(num, op)(axis=1))
    assert_eq(getattr(en, op)(skipna=False), getattr(num, op)(skipna=False))
    _same_scalar(getattr(en, op)(axis=None), getattr(num, op)(axis=None))
    masked = pdf[["i", "m"]]
    assert_eq(getattr(em.from_pandas(masked), op)(), getattr(masked, op)())
    assert_eq(getattr(em.from_pandas(masked), op)(axis=1), getattr(masked, op)(axis=1))
    with pytest.raises(TypeError):
        getattr(e, op)()


def test_frame_moments_float32_and_empty():
    p = pd.DataFrame({"a": [1, 2, 4, 5, 9], "b": [1, 2, 3, 7, 0]}, dtype="float32")
    e = em.from_pandas(p)
    assert_eq(e.skew(), p.skew())
    assert_eq(e.kurt(axis=1), p.kurt(axis=1))
    _same_scalar(e.skew(axis=None), p.skew(axis=None))
    for q in (p.iloc[:0], pd.DataFrame(), p[[]]):
        assert_eq(em.from_pandas(q).skew(), q.skew())
        assert_eq(em.from_pandas(q).kurt(axis=1), q.kurt(axis=1))


def test_frame_moments_refused(pdf):
    with pytest.raises(NotImplementedError):
        em.from_pandas(pdf[["i", "b"]]).skew(axis=1)  # pandas: object rows
    with pytest.raises(ValueError):
        em.from_pandas(pdf[["i"]]).skew(axis=2)
    with pytest.raises(ValueError):
        em.from_pandas(pdf["i"]).skew(axis=1)


def test_round_builtin(pdf):
    p = pdf[["f"]] * 1.2345
    assert_eq(round(em.from_pandas(p), 2), round(p, 2))
    assert_eq(round(em.from_pandas(p["f"]), 1), round(p["f"], 1))


# --- autocorr -------------------------------------------------------------------------------------
@pytest.mark.parametrize("lag", [1, 2, -1, 0])
def test_autocorr(lag):
    s = pd.Series([0.25, 0.5, 0.2, -0.05, np.nan, 0.7])
    got, want = em.from_pandas(s).autocorr(lag), s.autocorr(lag)
    assert (np.isnan(got) and np.isnan(want)) or got == pytest.approx(want)
    assert np.isnan(em.from_pandas(pd.Series([1, 0, 0, 0])).autocorr())


# --- select (pandas 3.1) --------------------------------------------------------------------------
@pytest.fixture
def people():
    return pd.DataFrame(
        {"first_name": ["John", "Mary", None], "last_name": ["Doe", "Bo", "X"], "age": [20, 30, 41]}
    )


@pytest.mark.skipif(not PANDAS_31, reason="DataFrame.select is new in pandas 3.1")
@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("first_name", "age"), {}),
        ((["last_name", "age"],), {}),
        (("age",), {}),
        ((), {}),
        (("first_name", pd.col("age")), {"age_months": pd.col("age") * 12}),
        (("first_name",), {"age_months": pd.col("age") * 12, "age_days": pd.col("age_months") * 30}),
        ((), {"k": lambda d: d.age + 1, "j": 5}),
        ((pd.col("age").rename("a2"), "last_name"), {}),
    ],
)
def test_select(people, args, kwargs):
    assert_eq(em.from_pandas(people).select(*args, **kwargs), people.select(*args, **kwargs))


@pytest.mark.skipif(not PANDAS_31, reason="DataFrame.select is new in pandas 3.1")
def test_select_multiindex(people):
    p = people.copy()
    p.columns = pd.MultiIndex.from_tuples([("names", "first_name"), ("names", "last_name"), ("other", "age")])
    e = em.from_pandas(p)
    assert_eq(e.select("names"), p.select("names"))
    assert_eq(
        e.select(("names", "last_name"), ("other", "age")), p.select(("names", "last_name"), ("other", "age"))
    )
    assert_eq(e.select("other", ("names", "last_name")), p.select("other", ("names", "last_name")))
    with pytest.raises(TypeError):
        e.select(k=1)


@pytest.mark.skipif(not PANDAS_31, reason="DataFrame.select is new in pandas 3.1")
def test_select_errors(people):
    e = em.from_pandas(people)
    for args in [("zz",), ("age", "zz")]:
        with pytest.raises(KeyError) as got:
            e.select(*args)
        with pytest.raises(KeyError) as want:
            people.select(*args)
        assert str(got.value) == str(want.value)
    with pytest.raises(TypeError):
        e.select({"age"})
    with pytest.raises(TypeError):
        e.select(["age"], "first_name")
    with pytest.raises(TypeError):
        e.select(pd.col("age").rename(None))  # an unnamed Series
    with pytest.raises(NotImplementedError):
        e.select("age", "age")  # pandas: duplicate columns


def test_select_absent_before_31():
    if PANDAS_31:
        assert hasattr(em.DataFrame, "select")
    else:
        with pytest.raises(AttributeError):
            em.DataFrame.select  # noqa: B018


# --- asof -----------------------------------------------------------------------------------------
@pytest.fixture
def asof_frame():
    return pd.DataFrame(
        {
            "i": [1, 2, 3, 4],
            "f": [1.0, np.nan, 3.0, np.nan],
            "s": ["a", "b", None, "d"],
            "m": pd.array([1, None, 3, 4], dtype="Int64"),
            "d": pd.to_datetime(["2020", "2021", "2022", None]),
            "c": pd.Categorical(["x", "y", "x", "y"]),
        },
        index=[10, 20, 30, 40],
    )


@pytest.mark.parametrize("where", [[5, 25], [25, 31, 45], [10], [5], 25, 40, 45])
def test_frame_asof(asof_frame, where):
    e = em.from_pandas(asof_frame)
    for subset in (None, "f", ["i"], ["f", "m"]):
        want = asof_frame.asof(where, subset=subset)
        if isinstance(want, pd.Series) and want.dtype == object:
            with pytest.raises(NotImplementedError):  # an object row of mixed values
                e.asof(where, subset=subset)
            continue
        assert_eq(e.asof(where, subset=subset), want)


def test_frame_asof_before_start_and_all_missing(asof_frame):
    e = em.from_pandas(asof_frame)
    assert_eq(e.asof(5), asof_frame.asof(5))
    p = pd.DataFrame({"a": [np.nan, np.nan], "b": [1, 2]}, index=[1, 2])
    for where in ([0, 2], 2):
        assert_eq(em.from_pandas(p).asof(where), p.asof(where))


@pytest.mark.parametrize(
    "s",
    [
        pd.Series([1, 2, np.nan, 4], index=[10, 20, 30, 40]),
        pd.Series([np.nan, 2, np.nan, 4], index=[10, 20, 30, 40], name="x"),
        pd.Series(pd.array([None, 2, None, 4], dtype="Int64"), index=[10, 20, 30, 40]),
        pd.Series(["a", None, "c", "d"], index=[10, 20, 30, 40]),
        pd.Series([1, 2, 3, 4], index=[10, 20, 30, 40]),
    ],
)
@pytest.mark.parametrize("where", [5, 10, 20, 30, 45, [5, 20, 35], [30]])
def test_series_asof(s, where):
    got, want = em.from_pandas(s).asof(where), s.asof(where)
    if isinstance(want, pd.Series):
        assert_eq(got, want)
    elif pd.isna(want):
        assert pd.isna(got) and type(got) is type(want)
    else:
        assert got == want and type(got) is type(want)


def test_asof_dates_and_errors():
    idx = pd.DatetimeIndex(["2018-02-27 09:01:00", "2018-02-27 09:02:00", "2018-02-27 09:03:00"])
    p = pd.DataFrame({"a": [10.0, 20.0, np.nan], "b": [None, 40.0, 50.0]}, index=idx)
    e = em.from_pandas(p)
    where = pd.DatetimeIndex(["2018-02-27 09:03:30", "2018-02-27 09:04:30"])
    assert_eq(e.asof(where), p.asof(where))
    assert_eq(e.asof(where, subset=["a"]), p.asof(where, subset=["a"]))
    assert_eq(e["a"].asof("2018-02-27 09:02:30"), p["a"].asof("2018-02-27 09:02:30"))
    with pytest.raises(ValueError, match="sorted"):
        em.from_pandas(p.iloc[::-1]).asof(where)
    with pytest.raises(ValueError, match="subset"):
        e["a"].asof(where, subset="a")
    b = pd.DataFrame({"a": [True, False]}, index=[1, 2])
    with pytest.raises(TypeError):
        b.asof([0, 2])
    with pytest.raises(TypeError):
        em.from_pandas(b).asof([0, 2])
    assert_eq(em.from_pandas(b).asof([1, 2]), b.asof([1, 2]))


# --- between_time / at_time -----------------------------------------------------------------------
@pytest.mark.parametrize("tz", [None, "Europe/Paris"])
@pytest.mark.parametrize("unit", ["ns", "s"])
def test_between_time(tz, unit):
    idx = pd.date_range("2018-04-09", periods=12, freq="17min", tz=tz).as_unit(unit)
    p = pd.DataFrame({"A": range(12), "B": list("abcdefghijkl")}, index=idx)
    e = em.from_pandas(p)
    cases = [("0:15", "0:45"), ("0:45", "0:15"), ("0:17", "1:08"), ("1:00", "1:00")]
    for start, end in cases:
        for inclusive in ("both", "left", "right", "neither"):
            want = p.between_time(start, end, inclusive=inclusive)
            assert_eq(e.between_time(start, end, inclusive=inclusive), want, check_freq=False)
            assert_eq(e["A"].between_time(start, end, inclusive), want["A"], check_freq=False)
    with pytest.raises(ValueError):
        e.between_time("0:15", "0:45", inclusive="nope")


def test_at_time():
    idx = pd.DatetimeIndex(["2018-04-09 12:00", None, "2018-04-10 00:00", "2018-04-10 12:00:00.5"])
    p = pd.DataFrame({"A": [1, 2, 3, 4]}, index=idx)
    e = em.from_pandas(p)
    for t in ("12:00", "00:00", "12:00:00.5", pd.Timestamp("2000-01-01 12:00").time()):
        assert_eq(e.at_time(t), p.at_time(t), check_freq=False)
        assert_eq(e["A"].at_time(t), p["A"].at_time(t), check_freq=False)
    with pytest.raises(NotImplementedError):
        e.at_time("12:00", asof=True)


def test_time_filters_need_datetime_index():
    p = pd.DataFrame({"A": [1, 2]})
    e = em.from_pandas(p)
    with pytest.raises(TypeError, match="DatetimeIndex"):
        e.between_time("0:00", "1:00")
    with pytest.raises(TypeError, match="DatetimeIndex"):
        e["A"].at_time("0:00")
    with pytest.raises(ValueError):
        e["A"].at_time("0:00", axis=1)


# --- corrwith -------------------------------------------------------------------------------------
@pytest.fixture
def corr_pair():
    r = np.random.default_rng(0)
    a = pd.DataFrame(r.normal(size=(8, 3)), columns=list("xyz"))
    a.iloc[2, 0] = np.nan
    b = pd.DataFrame(r.normal(size=(8, 3)), columns=list("zwx"), index=range(7, -1, -1))
    b.iloc[3, 2] = np.nan
    return a, b


def test_corrwith_frames(corr_pair):
    a, b = corr_pair
    ea, eb = em.from_pandas(a), em.from_pandas(b)
    for kw in ({}, {"drop": True}, {"min_periods": 5}, {"numeric_only": True}):
        assert_eq(ea.corrwith(eb, **kw), a.corrwith(b, **kw))
    assert_eq(ea.corrwith(eb.iloc[:5]), a.corrwith(b.iloc[:5]))
    assert_eq(ea.corrwith(eb, axis=1), a.corrwith(b, axis=1))
    clean = a.fillna(0.5)
    assert_eq(
        em.from_pandas(clean).corrwith(em.from_pandas(clean[::-1]), method="spearman"),
        clean.corrwith(clean[::-1], method="spearman"),
    )


def test_corrwith_docstring_and_series(corr_pair):
    index = ["a", "b", "c", "d", "e"]
    columns = ["one", "two", "three", "four"]
    df1 = pd.DataFrame(np.arange(20).reshape(5, 4), index=index, columns=columns)
    df2 = pd.DataFrame(np.arange(16).reshape(4, 4), index=index[:4], columns=columns)
    e1, e2 = em.from_pandas(df1), em.from_pandas(df2)
    assert_eq(e1.corrwith(e2), df1.corrwith(df2))
    assert_eq(e2.corrwith(e1, axis=1), df2.corrwith(df1, axis=1))
    a, b = corr_pair
    assert_eq(em.from_pandas(a).corrwith(em.from_pandas(b["w"])), a.corrwith(b["w"]))
    assert_eq(
        em.from_pandas(a).corrwith(em.from_pandas(b["w"]), min_periods=8), a.corrwith(b["w"], min_periods=8)
    )


def test_corrwith_refused_and_errors(corr_pair):
    a, b = corr_pair
    ea, eb = em.from_pandas(a), em.from_pandas(b)
    with pytest.raises(ValueError, match="Invalid method"):
        ea.corrwith(eb, method="nope")
    with pytest.raises(NotImplementedError):
        ea.corrwith(eb, method=lambda x, y: 0.0)
    with pytest.raises(NotImplementedError):
        ea.corrwith(eb["w"], axis=1)
    mixed = a.assign(s=list("abcdefgh"))
    assert_eq(em.from_pandas(mixed).corrwith(eb), mixed.corrwith(b))  # 's' only on one side: NaN
    with pytest.raises(NotImplementedError):
        em.from_pandas(mixed).corrwith(em.from_pandas(b.assign(s=list("abcdefgh"))))
    assert_eq(em.from_pandas(mixed).corrwith(eb, numeric_only=True), mixed.corrwith(b, numeric_only=True))


# --- memory_usage ---------------------------------------------------------------------------------
@pytest.fixture
def sized():
    return pd.DataFrame(
        {
            "a": [1, 2, None],
            "m": pd.array([1, None, 3], dtype="Int64"),
            "b": pd.array([True, None, False], dtype="boolean"),
            "d": pd.to_datetime(["2020", None, "2021"]).tz_localize("UTC"),
            "t": pd.to_timedelta([1, 2, 3], unit="s"),
            "f": np.float32([1, 2, 3]),
            "i8": np.int8([1, 2, 3]),
            "bb": [True, False, True],
            "ii": [1, 2, 3],
        }
    )


@pytest.mark.parametrize("kw", [{}, {"index": False}, {"deep": True}])
def test_memory_usage(sized, kw):
    e = em.from_pandas(sized)
    assert_eq(e.memory_usage(**kw), sized.memory_usage(**kw))
    for c in sized:
        assert e[c].memory_usage(**kw) == sized[c].memory_usage(**kw)


def test_memory_usage_indexes_and_empty(sized):
    for p in (
        pd.DataFrame(),
        pd.DataFrame(index=[1, 2]),
        sized.set_index("d"),
        sized.set_index("m"),
        sized.iloc[:0],
    ):
        assert_eq(em.from_pandas(p).memory_usage(), p.memory_usage())


def test_memory_usage_refused(sized):
    for p in (pd.DataFrame({"s": ["a", "b"]}), pd.DataFrame({"c": pd.Categorical(["a", "b"])})):
        with pytest.raises(NotImplementedError):
            em.from_pandas(p).memory_usage()
    with pytest.raises(NotImplementedError):
        em.from_pandas(sized.set_index(["ii", "i8"])).memory_usage()
    assert_eq(
        em.from_pandas(sized.set_index(["ii", "i8"])).memory_usage(index=False),
        sized.set_index(["ii", "i8"]).memory_usage(index=False),
    )


# --- small attributes: T, axes, is_unique, monotonic, pop, repeat, divmod, isetitem ---------------
@pytest.mark.parametrize(
    "s",
    [
        pd.Series([1.0, np.nan, 3.0]),
        pd.Series([1, 2, 2]),
        pd.Series([3, 2, 1]),
        pd.Series([np.nan, np.nan]),
        pd.Series(pd.array([1, None, 3], dtype="Int64")),
        pd.Series(["a", "b", None]),
        pd.Series(["a", "b", "c"]),
        pd.Series(pd.to_datetime(["2020", "2021", "2021"])),
        pd.Series([], dtype="float64"),
    ],
)
def test_series_flags_of_values(s):
    e = em.from_pandas(s)
    assert e.is_unique == s.is_unique
    assert e.is_monotonic_increasing == s.is_monotonic_increasing
    assert e.is_monotonic_decreasing == s.is_monotonic_decreasing
    assert e.T is e


def test_frame_axes(pdf):
    got, want = em.from_pandas(pdf).axes, pdf.axes
    assert len(got) == 2
    assert_eq(got[0], want[0])
    pd.testing.assert_index_equal(got[1], want[1])


def test_series_pop():
    s = pd.Series(["a", "b", "c"], index=[1, 2, 2], name="x")
    e = em.from_pandas(s)
    assert_eq(e.pop(2), s.pop(2))
    assert_eq(e, s)
    assert e.pop(1) == s.pop(1)
    assert_eq(e, s)
    with pytest.raises(KeyError):
        e.pop(9)


def test_series_repeat():
    s = pd.Series(["a", None, "c"], index=[1, 2, 2], name="x")
    e = em.from_pandas(s)
    for reps in (2, 0, [1, 0, 3], np.array([2, 2, 2])):
        assert_eq(e.repeat(reps), s.repeat(reps))
    for bad in (-1, [1, 2], [1, -1, 1]):
        with pytest.raises(ValueError) as got:
            e.repeat(bad)
        with pytest.raises(ValueError) as want:
            s.repeat(bad)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError):
        e.repeat(2, axis=1)


def test_series_divmod():
    a = pd.Series([1, 1, 1, np.nan, -3, 0], index=list("abcdef"))
    b = pd.Series([1, np.nan, 1, np.nan, 0, 0], index=list("abdegf"))
    ints = pd.Series([5, -7, 0, 3])
    ea, eb, ei = em.from_pandas(a), em.from_pandas(b), em.from_pandas(ints)
    cases = [
        (ea.divmod(eb), a.divmod(b)),
        (ea.divmod(eb, fill_value=0), a.divmod(b, fill_value=0)),
        (ea.rdivmod(eb, fill_value=0), a.rdivmod(b, fill_value=0)),
        (divmod(ei, 2), divmod(ints, 2)),
        (divmod(ei, 0), divmod(ints, 0)),
        (divmod(7, ei), divmod(7, ints)),
        (ei.divmod(em.from_pandas(ints[::-1])), ints.divmod(ints[::-1])),
    ]
    for got, want in cases:
        assert isinstance(got, tuple) and len(got) == 2
        assert_eq(got[0], want[0])
        assert_eq(got[1], want[1])
    masked = em.from_pandas(pd.Series([1, None], dtype="Int64"))
    with pytest.raises(NotImplementedError):
        masked.divmod(2)
    with pytest.raises(NotImplementedError):
        ei.divmod(pd.NA)


def test_isetitem():
    p = pd.DataFrame({"A": [1, 2], "B": [3, 4]}, index=[10, 20])
    e = em.from_pandas(p)
    e.isetitem(1, [5, 6])
    p.isetitem(1, [5, 6])
    assert_eq(e, p)
    e.isetitem(0, em.from_pandas(pd.Series([1.5, 2.5], index=[20, 10])))
    p.isetitem(0, pd.Series([1.5, 2.5], index=[20, 10]))
    assert_eq(e, p)
    v = pd.DataFrame({"x": ["a", "b"], "y": [True, False]}, index=[10, 20])
    e.isetitem([1, 0], em.from_pandas(v))
    p.isetitem([1, 0], v)
    assert_eq(e, p)
    with pytest.raises(ValueError, match="positions"):
        e.isetitem([0], em.from_pandas(v))
    with pytest.raises(IndexError):
        e.isetitem(5, [1, 2])

"""Selection and assignment: [], attribute access, loc/iloc/at/iat, head/tail, setitem, drop ..."""

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.fixture
def pdf():
    return pd.DataFrame(
        {"x": [0.5, 1.5, np.nan, 3.5, 4.5], "y": [5, 4, 3, 2, 1], "s": list("abcde")},
        index=[10, 11, 12, 13, 14],
    )


def test_getitem_forms(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.x, pdf.x)
    assert_eq(df["y"], pdf["y"])
    assert_eq(df[["s", "x"]], pdf[["s", "x"]])
    assert_eq(df[df.y > 2], pdf[pdf.y > 2])
    assert_eq(df[1:3], pdf[1:3])


def test_loc_iloc_at_iat(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.iloc[1:4], pdf.iloc[1:4])
    assert_eq(df.iloc[[4, 0, 2]], pdf.iloc[[4, 0, 2]])
    assert_eq(df.iloc[-2:], pdf.iloc[-2:])
    assert_eq(df.loc[[12, 10]], pdf.loc[[12, 10]])
    assert_eq(df.loc[11:13], pdf.loc[11:13])
    assert_eq(df.loc[df.x > 1, ["x", "s"]], pdf.loc[pdf.x > 1, ["x", "s"]])
    assert_eq(df.loc[:, "y"], pdf.loc[:, "y"])
    assert df.at[12, "y"] == pdf.at[12, "y"]
    assert df.iat[3, 1] == pdf.iat[3, 1]
    assert df.x.iloc[0] == pdf.x.iloc[0]
    assert df.s.loc[14] == "e"
    with pytest.raises(KeyError):
        df.loc[[99]]
    with pytest.raises(IndexError):
        df.iloc[[7]]


def test_head_tail(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.head(2), pdf.head(2))
    assert_eq(df.tail(2), pdf.tail(2))
    assert_eq(df.x.head(), pdf.x.head())
    assert_eq(df.head(0), pdf.head(0))


def test_setitem_assign_insert_pop_drop(pdf):
    df, expected = em.from_pandas(pdf), pdf.copy()
    df["z"] = df.x * 2
    expected["z"] = expected.x * 2
    df["c"] = 7
    expected["c"] = 7
    df["y"] = [9, 8, 7, 6, 5]
    expected["y"] = [9, 8, 7, 6, 5]
    assert_eq(df, expected)
    assert_eq(df.assign(w=lambda d: d.y + 1, v=1), expected.assign(w=lambda d: d.y + 1, v=1))
    df.insert(0, "first", np.arange(5))
    expected.insert(0, "first", np.arange(5))
    assert_eq(df, expected)
    assert_eq(df.pop("c"), expected.pop("c"))
    assert_eq(df, expected)
    assert_eq(df.drop(columns=["z"]), expected.drop(columns=["z"]))
    assert_eq(df.drop(index=[11, 13]), expected.drop(index=[11, 13]))
    assert_eq(df.drop("s", axis=1), expected.drop("s", axis=1))
    with pytest.raises(KeyError):
        df.drop(columns=["nope"])


def test_loc_setitem_mask(pdf):
    df, expected = em.from_pandas(pdf), pdf.copy()
    df.loc[df.y > 2, "x"] = 0.0
    expected.loc[expected.y > 2, "x"] = 0.0
    assert_eq(df, expected)


def test_rename_copy_astype(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.rename(columns={"x": "xx"}), pdf.rename(columns={"x": "xx"}))
    assert_eq(df.rename(columns=str.upper), pdf.rename(columns=str.upper))
    assert_eq(df.astype({"y": "float32"}), pdf.astype({"y": "float32"}))
    assert_eq(df.y.astype("int32"), pdf.y.astype("int32"))
    c = df.copy()
    c["y"] = 0
    assert_eq(df, pdf)


def test_set_index_reset_index(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.set_index("s"), pdf.set_index("s"))
    assert_eq(df.reset_index(), pdf.reset_index())
    assert_eq(df.reset_index(drop=True), pdf.reset_index(drop=True))
    assert_eq(df.set_index(["s", "y"]), pdf.set_index(["s", "y"]))
    assert_eq(df.set_index(["s", "y"]).reset_index(), pdf.set_index(["s", "y"]).reset_index())


def test_query(pdf):
    df = em.from_pandas(pdf)
    limit = 2  # noqa: F841 - read by query("@limit")
    assert_eq(df.query("y > 2 and x < 4"), pdf.query("y > 2 and x < 4"))
    assert_eq(df.query("y >= @limit | s == 'e'"), pdf.query("y >= @limit | s == 'e'"))
    assert_eq(df.query("s in ['a', 'c']"), pdf.query("s in ['a', 'c']"))
    assert_eq(df.query("not (y > 2)"), pdf.query("not (y > 2)"))


def test_repr_small_and_truncated(pdf):
    df = em.from_pandas(pdf)
    assert repr(df) == repr(pdf)
    assert repr(df.x) == repr(pdf.x)
    big = em.DataFrame({"a": np.arange(1000), "b": np.arange(1000) * 0.5})
    text = repr(big)
    assert "[1000 rows x 2 columns]" in text and "..." in text and "999" in text
    assert "Length: 1000" in repr(big.a)
    assert "<table" in big._repr_html_()


def test_columns_setter_and_iteration(pdf):
    df = em.from_pandas(pdf)
    df.columns = ["a", "b", "c"]
    assert list(df) == ["a", "b", "c"]
    with pytest.raises(ValueError, match="Length mismatch"):
        df.columns = ["a"]


def test_take_positions(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.take([3, 0, -1]), pdf.take([3, 0, -1]))
    assert_eq(df.x.take([1, 1]), pdf.x.take([1, 1]))
    with pytest.raises(IndexError):
        df.take([10])


def test_loc_with_repeated_labels_and_wrong_types():
    ps = pd.Series([1, 2, 3, 4], index=["a", "b", "a", "c"])
    s = em.from_pandas(ps)
    assert_eq(s.loc[["a", "c"]], ps.loc[["a", "c"]])  # every row of a repeated label, in index order
    assert_eq(s.loc[["c", "b"]], ps.loc[["c", "b"]])
    with pytest.raises(KeyError, match="zz"):
        s.loc[["zz"]]
    with pytest.raises(KeyError):
        s.loc[[1]]


def test_scalar_labels_on_device_indexes():
    pdf = pd.DataFrame(
        {"x": [1.0, 2.0, 3.0]}, index=pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03"])
    )
    df = em.from_pandas(pdf)
    assert df.x.loc[pd.Timestamp("2020-01-02")] == 2.0
    assert_eq(df.loc[pd.Timestamp("2020-01-03")], pdf.loc[pd.Timestamp("2020-01-03")])
    ps = pd.Series([1, 2, 3], index=[1.5, np.nan, 2.5])
    assert em.from_pandas(ps).loc[np.nan] == ps.loc[np.nan]
    with pytest.raises(KeyError):
        df.loc[pd.Timestamp("1999-01-01")]


def test_label_slices_on_sorted_and_unsorted_indexes():
    pdf = pd.DataFrame({"x": np.arange(6.0)}, index=list("abcdef"))
    df = em.from_pandas(pdf)
    for sl in (slice("b", "d"), slice("bb", "dd"), slice(None, "c"), slice("e", None), slice("d", "b")):
        assert_eq(df.loc[sl], pdf.loc[sl])
    ts = pd.Series(
        np.arange(6),
        index=pd.to_datetime(
            ["2020-01-01", "2020-01-02", "2020-01-02 10:00", "2020-01-03", "2020-01-04", "2020-01-05"],
            format="ISO8601",
        ),
    )
    ets = em.from_pandas(ts)
    assert_eq(ets.loc["2020-01-02":"2020-01-03"], ts.loc["2020-01-02":"2020-01-03"])  # whole days
    assert_eq(ets.loc[pd.Timestamp("2020-01-02 05:00") :], ts.loc[pd.Timestamp("2020-01-02 05:00") :])
    unsorted = pd.Series([1, 2, 3], index=[3, 1, 2])
    assert_eq(em.from_pandas(unsorted).loc[1:2], unsorted.loc[1:2])


_INDEXES = [
    pd.to_timedelta([1, 2, 3], unit="s"),
    pd.to_datetime(["2020", "2021", "2022"]),
    pd.to_datetime(["2020", None, "2022"]),
    pd.Index([1.0, np.nan, 3.0]),
    pd.Index([1, 2, 3]),
    pd.Index([3, 2, 1]),
    pd.Index(["a", "b", "c"]),
]


@pytest.mark.parametrize("index", _INDEXES, ids=str)
@pytest.mark.parametrize(
    "sl", [slice(pd.NaT, None), slice(None, np.nan), slice(pd.NA, None), slice(pd.NaT, None, -1)], ids=str
)
def test_label_slices_with_missing_bounds(index, sl):
    """pandas' answer per index type: no rows, all rows, a TypeError or a KeyError."""
    ps = pd.Series([1, 2, 3], index=index)
    for obj in (ps, ps.to_frame()):
        try:
            want = obj.loc[sl]
        except (TypeError, KeyError) as err:
            with pytest.raises(type(err)):
                em.from_pandas(obj).loc[sl]
            continue
        assert_eq(em.from_pandas(obj).loc[sl], want)


def test_multiindex_slices_with_missing_bounds_are_refused():
    """pandas' rows depend on whether a level holds the NaT (as after groupby(dropna=False))."""
    pdf = pd.DataFrame({"d": pd.to_datetime(["2020-01-02"]), "b": pd.to_timedelta([None])})
    got = em.from_pandas(pdf).groupby(["b", "d"], dropna=False).all()
    bound = (pd.NaT, pd.Timestamp("2020-01-02"))
    for sl in (slice(bound, bound), slice(None, bound), slice(bound, None, -1)):
        with pytest.raises(NotImplementedError, match="missing value"):
            got.loc[sl]


def test_drop_repeated_labels_and_errors_ignore():
    pdf = pd.DataFrame({"x": [1, 2, 3, 4]}, index=["a", "b", "a", "c"])
    df = em.from_pandas(pdf)
    assert_eq(df.drop(index=["a"]), pdf.drop(index=["a"]))
    assert_eq(df.drop(index=["zz", "c"], errors="ignore"), pdf.drop(index=["zz", "c"], errors="ignore"))
    with pytest.raises(KeyError, match="not found in axis"):
        df.drop(index=["zz"])


def test_mask_keeping_every_row_shares_columns_and_stays_independent():
    """df[mask] with no row dropped reuses the (immutable) columns; writes to either frame stay apart."""
    pdf = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": ["x", "y", "z"]}, index=[10, 11, 12])
    df = em.from_pandas(pdf)
    kept = df[df["a"] > 0]
    assert kept._columns["a"] is df._columns["a"]
    kept["a"] = 0.0
    kept.loc[kept["b"] == "y", "b"] = "q"
    pd.testing.assert_frame_equal(df.to_pandas(), pdf)
    expected = pdf.copy()
    expected["a"] = 0.0
    expected.loc[expected["b"] == "y", "b"] = "q"
    pd.testing.assert_frame_equal(kept.to_pandas(), expected)
    s = df["a"][df["a"] > 0]
    pd.testing.assert_series_equal(s.to_pandas(), pdf["a"][pdf["a"] > 0])
    pd.testing.assert_frame_equal(
        df[df["a"] > 0].reset_index(drop=True).to_pandas(), pdf.reset_index(drop=True)
    )


GETTERS = {
    "df[callable] mask": lambda d: d[lambda f: f.y > 2],
    "df[callable] columns": lambda d: d[lambda f: ["s", "x"]],
    "s[callable]": lambda d: d.y[lambda s: s > 2],
    "loc[callable]": lambda d: d.loc[lambda f: f.y > 2],
    "loc[callable, cols]": lambda d: d.loc[lambda f: f.y > 2, ["x", "s"]],
    "loc[rows, callable]": lambda d: d.loc[:, lambda f: ["y"]],
    "loc[callable, callable]": lambda d: d.loc[lambda f: f.y < 4, lambda f: ["s"]],
    "iloc[callable]": lambda d: d.iloc[lambda f: [0, 2]],
    "iloc[callable, int]": lambda d: d.iloc[lambda f: [1, 3], 1],
    "s.loc[callable]": lambda d: d.x.loc[lambda s: s > 1],
    "s.iloc[callable]": lambda d: d.x.iloc[lambda s: [0, 4]],
    "chained": lambda d: d.assign(z=d.y * 2).loc[lambda f: f.z > 4, ["y", "z"]],
}


@pytest.mark.parametrize("how", list(GETTERS))
def test_callable_keys(pdf, how):
    """pandas calls a callable key (or each callable element of a tuple key) with the object."""
    assert_eq(GETTERS[how](em.from_pandas(pdf)), GETTERS[how](pdf))


SETTERS = {
    "loc[callable, col]": lambda d: d.loc.__setitem__((lambda f: f.y > 2, "x"), 0.0),
    "iloc[callable, int]": lambda d: d.iloc.__setitem__((lambda f: [0, 1], 1), 9),
    "df[callable]": lambda d: d.__setitem__(lambda f: "w", 1.5),
}


@pytest.mark.parametrize("how", list(SETTERS))
def test_callable_keys_in_assignment(pdf, how):
    df = em.from_pandas(pdf)
    expected = pdf.copy()
    SETTERS[how](df)
    SETTERS[how](expected)
    assert_eq(df, expected)


def test_series_setitem_with_callable_key(pdf):
    s, expected = em.from_pandas(pdf).y, pdf.y.copy()
    s[lambda v: v > 3] = 7
    expected[lambda v: v > 3] = 7
    assert_eq(s, expected)


HOURLY = pd.DataFrame(  # times without a freq (ember's indexes carry none)
    {"v": np.arange(12.0), "w": np.arange(12)},
    index=pd.DatetimeIndex(pd.date_range("2024-01-01", periods=12, freq="6h").to_numpy()),
)
DATE_KEYS = ["2024-01-02", "2024-01", "2024", "2024-01-02 06", "2024-01-02 06:00", "2025-01", "2024-01-01 03"]


@pytest.mark.parametrize("key", DATE_KEYS)
@pytest.mark.parametrize(
    "make",
    [lambda p: p, lambda p: p.v, lambda p: p.iloc[[5, 1, 8, 2]]],
    ids=["frame", "series", "unsorted"],
)
def test_partial_date_strings_select_a_period(make, key):
    """pandas' partial string indexing: a date string coarser than the index's times (a day on
    6-hourly times) selects the rows in that period; an exact one (an hour) is a label; a sorted
    index with nothing near the period raises KeyError."""
    pobj = make(HOURLY)
    try:
        want = pobj.loc[key]
    except KeyError:
        with pytest.raises(KeyError):
            make(em.from_pandas(HOURLY)).loc[key]
        return
    got = make(em.from_pandas(HOURLY)).loc[key]
    if isinstance(want, (pd.DataFrame, pd.Series)):
        assert_eq(got, want)
    else:
        assert got == want


def test_partial_date_strings_elsewhere():
    df = em.from_pandas(HOURLY)
    assert_eq(df.loc["2024-01-02", "v"], HOURLY.loc["2024-01-02", "v"])
    assert_eq(df.v["2024-01-02"], HOURLY.v["2024-01-02"])
    daily = HOURLY.set_axis(pd.DatetimeIndex(pd.date_range("2024-01-01", periods=12, freq="D").to_numpy()))
    assert_eq(em.from_pandas(daily).loc["2024-01-02"], daily.loc["2024-01-02"])  # a label: one row
    expected = HOURLY.copy()
    expected.loc["2024-01-02", "v"] = -1.0
    df.loc["2024-01-02", "v"] = -1.0
    assert_eq(df, expected)


@pytest.mark.parametrize(
    ("values", "labels"),
    [
        ([True, True, True, True], [0, 0, 1, 2]),
        ([False, True, True, False], [0, 0, 1, 2]),
        ([False, False, False, True], [0, 0, 1, 2]),
        ([True, False, False, False], [0, 1, 2, 2]),
        ([False, True, False], [0, 0, 1]),
    ],
)
@pytest.mark.parametrize("how", ["frame[]", "frame.loc", "series[]", "series.loc"])
def test_boolean_series_key_repeating_labels(values, labels, how):
    # pandas takes the key's values for every match of each row's label and selects the rows at the
    # True positions (past the last row: IndexError); [] of a frame takes all rows when all are True
    pdf = pd.DataFrame({"c": [1.0, 2.0, 3.0]}).iloc[: len(set(labels))]
    key = pd.Series(values, index=labels)

    def run(obj, k):
        target = obj if how.startswith("frame") else obj["c"]
        return target.loc[k] if how.endswith("loc") else target[k]

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = run(pdf, key)
    except IndexError:
        with pytest.raises(IndexError):
            run(em.from_pandas(pdf), em.from_pandas(key))
        return
    assert_eq(run(em.from_pandas(pdf), em.from_pandas(key)), want)

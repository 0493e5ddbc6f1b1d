"""Column labels (no column is ever dropped for a repeated label), construction from dicts / Series /
pandas, and the copy policy (ember objects share no memory with what users hold), against pandas."""

import decimal
import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _both(fn):
    """(pandas' result or exception, ember's result or exception) of ``fn(module)``."""
    out = []
    for m in (pd, em):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out.append(fn(m))
        except Exception as exc:  # noqa: BLE001 - compared below
            out.append(exc)
    return out


def _same(fn):
    expected, got = _both(fn)
    if isinstance(expected, Exception):
        assert isinstance(got, type(expected)), (expected, got)
    else:
        assert not isinstance(got, Exception), got
        assert_eq(got, expected)


def _refused(fn):
    """pandas makes duplicate column labels; ember refuses them (never drops a column)."""
    expected, got = _both(fn)
    assert not isinstance(expected, Exception), expected
    assert expected.columns.has_duplicates
    assert isinstance(got, NotImplementedError), got
    assert "duplicate column labels" in str(got)


# --- merge / join suffixes ---------------------------------------------------------------------


def _frame(m, index=None, **cols):
    return m.DataFrame(cols, index=index)


@pytest.mark.parametrize(
    "case",
    [
        lambda m: _frame(m, k=[1, 2], v=[1, 2], v_x=[3, 4]).merge(_frame(m, k=[1, 2], v=[5, 6]), on="k"),
        lambda m: _frame(m, k=[1], v=[1]).merge(_frame(m, k=[1], v=[5], v_x=[7]), on="k"),
        lambda m: _frame(m, k=[1], v=[1], v_y=[2]).merge(_frame(m, k=[1], v=[5]), on="k"),
        lambda m: _frame(m, a=[1], b=[1], a_x=[0]).merge(_frame(m, a=[1], b=[5]), left_on="a", right_on="b"),
        lambda m: _frame(m, v=[1]).merge(_frame(m, v=[5], v_x=[1]), how="cross"),
        lambda m: _frame(m, v=[1, 2], v_l=[3, 4]).join(_frame(m, v=[5, 6]), lsuffix="_l"),
    ],
)
def test_merge_suffix_collision_raises_merge_error(case):
    expected, got = _both(case)
    assert isinstance(expected, pd.errors.MergeError)
    assert isinstance(got, pd.errors.MergeError), got


@pytest.mark.parametrize(
    "case",
    [
        lambda m: _frame(m, k=[1], v=[1], k_x=[3]).merge(_frame(m, k=[1], v=[5]), on="k"),
        lambda m: _frame(m, a=[1], b=[1]).merge(_frame(m, a=[1], b=[1]), left_on="a", right_on="b"),
        lambda m: _frame(m, k=[1], v=[1]).merge(_frame(m, k=[1], v=[5]), on="k", suffixes=(None, "_y")),
        lambda m: _frame(m, k=[1], v=[1]).merge(_frame(m, k=[1], v=[5]), on="k", suffixes=(None, None)),
        lambda m: _frame(m, k=[1], _merge=[1]).merge(_frame(m, k=[1], v=[5]), on="k", indicator=True),
        lambda m: _frame(m, k=[1, 2]).merge(_frame(m, k=[1], v=[5]), on="k", how="left", indicator="src"),
        lambda m: _frame(m, k=[0], v=[1]).join(_frame(m, k=[5], v=[6]), on="k", rsuffix="_r"),
    ],
)
def test_merge_labels_as_pandas(case):
    _same(case)


def test_merge_equal_suffixes_refused():
    _refused(lambda m: _frame(m, k=[1], v=[1]).merge(_frame(m, k=[1], v=[5]), on="k", suffixes=("_a", "_a")))


@pytest.mark.parametrize("how", ["left", "right", "inner", "outer"])
def test_merge_column_key_with_index_key(how):
    """pandas fills the key column from both sides, or inserts it when a suffix renamed it."""
    _same(
        lambda m: _frame(m, k=[1, 0], v=[1, 2]).merge(
            _frame(m, [0, 5], w=[6, 7]), left_on="k", right_index=True, how=how
        )
    )
    _same(
        lambda m: _frame(m, [0, 5], w=[6, 7]).merge(
            _frame(m, k=[1, 0], v=[1, 2]), right_on="k", left_index=True, how=how
        )
    )
    _same(
        lambda m: _frame(m, k=[1, 0], v=[1, 2]).merge(
            _frame(m, k=[5, 4], v=[6, 7]), left_on="k", right_index=True, how=how
        )
    )
    _same(
        lambda m: _frame(m, k=[1, 0], v=[1, 2]).join(
            _frame(m, k=[5, 4], v=[6, 7]), on="k", how=how, lsuffix="_l", rsuffix="_r"
        )
    )


# --- every other path that names columns --------------------------------------------------------


def _set_columns(m):
    d = m.DataFrame({"a": [1], "b": [2]})
    d.columns = ["x", "x"]
    return d


def _insert(m):
    d = m.DataFrame({"col1": [1], "b": [2]})
    d.insert(0, "col1", [5], allow_duplicates=True)
    return d


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.DataFrame({"a": [1], "b": [2]}).rename(columns={"b": "a"}),
        lambda m: m.DataFrame({"a": [1], "b": [2]}).rename(columns=lambda k: "z"),
        _set_columns,
        lambda m: m.DataFrame({"a": [1], "b": [2]}).set_axis(["x", "x"], axis=1),
        _insert,
        lambda m: m.DataFrame([[1, 2]], columns=["a", "a"]),
        lambda m: m.DataFrame(np.ones((2, 2)), columns=["a", "a"]),
        lambda m: m.DataFrame({"a": [1]}, columns=["a", "a"]),
        lambda m: m.DataFrame(columns=["a", "a"]),
        lambda m: m.DataFrame({1: [1], "1": [2]}).add_prefix("x"),
        lambda m: m.DataFrame(pd.DataFrame([[1, 2]], columns=["a", "a"])),
    ],
)
def test_duplicate_labels_refused(case):
    _refused(case)


def test_from_pandas_and_arrow_with_duplicate_labels_refused():
    import pyarrow as pa

    with pytest.raises(NotImplementedError, match="duplicate column labels"):
        em.from_pandas(pd.DataFrame([[1, 2]], columns=["a", "a"]))
    table = pa.table([pa.array([1]), pa.array([2])], names=["a", "a"])
    with pytest.raises(NotImplementedError, match="duplicate column labels"):
        em.DataFrame(table)


def test_insert_existing_without_allow_duplicates():
    _same(lambda m: m.DataFrame({"a": [1]}).insert(0, "a", [2]))


def test_rename_onto_a_label_renamed_away_is_fine():
    _same(lambda m: m.DataFrame({"a": [1], "b": [2]}).rename(columns={"a": "b", "b": "a"}))


# --- construction -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.DataFrame({"A": {0: "a", 1: "b"}, "B": {0: 1, 1: 3}}),
        lambda m: m.DataFrame({"A": {0: "a", 1: "b"}, "B": {2: 1, 1: 3}}),
        lambda m: m.DataFrame({"A": {0: "a", 1: "b"}}, index=[1, 2]),
        lambda m: m.DataFrame({"A": {0: "a", 3: "b"}, "B": m.Series([1, 2], index=[2, 0])}),
        lambda m: m.DataFrame({"A": {0: "a", 1: "b"}, "B": [1, 2]}),
        lambda m: m.DataFrame({"a": m.Series([1, 2], index=[3, 1]), "b": m.Series([1, 2], index=[1, 2])}),
        lambda m: m.DataFrame({"a": m.Series([1, 2], index=[3, 1]), "b": m.Series([1, 2], index=[3, 1])}),
        lambda m: m.DataFrame(
            {"a": m.Series([1, 2], index=["b", "a"]), "b": m.Series([1, 2], index=["c", "a"])}
        ),
        lambda m: m.DataFrame({"a": m.Series([1, 2], index=[3, 1])}, index=[1, 5]),
        lambda m: m.DataFrame({"a": m.Series([1, 2], index=[0, 1])}, index=[0, 1]),
        lambda m: m.DataFrame({"a": m.Series([1, 2], index=[3, 1]), "b": [7, 8]}),
        lambda m: m.DataFrame({"a": m.Series([1, 2], index=[3, 1]), "b": [7, 8, 9]}),
        lambda m: m.DataFrame({"a": m.Series([1, 2], index=[1, 1]), "b": m.Series([1, 2], index=[1, 2])}),
        lambda m: m.DataFrame({"a": m.Series([1, 2], index=[3, 1]), "b": 5}),
        lambda m: m.DataFrame({"a": 1, "b": m.Series([1.0], index=[3])}, index=[3, 4]),
        lambda m: m.DataFrame({"a": [1, 2]}, columns=["a", "b"]),
        lambda m: m.DataFrame(columns=["a"], index=[0, 1]),
        lambda m: m.DataFrame(m.DataFrame({"a": [1, 2]}), index=[1, 0, 5]),
        lambda m: m.DataFrame(m.DataFrame({"a": [1, 2]}), columns=["a", "b"]),
        lambda m: m.DataFrame(m.Series([1, 2], name="x"), index=[1, 0, 5]),
        lambda m: m.DataFrame(m.Series([1, 2], name="x"), columns=["y"]),
        lambda m: m.DataFrame(m.Series([1, 2])),
        lambda m: m.Series(m.Series([1, 2], index=[0, 1]), index=[1, 0, 5]),
    ],
)
def test_construction_aligns_as_pandas(case):
    _same(case)


def test_construction_from_pandas_series_aligns():
    s = pd.Series([1, 2], index=[3, 1])
    assert_eq(em.DataFrame({"a": s, "b": [7, 8]}), pd.DataFrame({"a": s, "b": [7, 8]}))
    assert_eq(em.DataFrame({"a": s}, index=[1, 4]), pd.DataFrame({"a": s}, index=[1, 4]))
    assert_eq(
        em.DataFrame(pd.DataFrame({"a": [1, 2]}), index=[1, 2]),
        pd.DataFrame(pd.DataFrame({"a": [1, 2]}), index=[1, 2]),
    )
    assert_eq(em.Series(s, index=[1, 2]), pd.Series(s, index=[1, 2]))


# --- decimals and other objects ----------------------------------------------------------------


def test_decimal_values_build_decimal_columns():
    assert_eq(em.Series([decimal.Decimal("1.5")]), pd.Series([decimal.Decimal("1.5")]))
    assert_eq(em.from_pandas(pd.Series([decimal.Decimal("1.5")])), pd.Series([decimal.Decimal("1.5")]))
    assert_eq(
        em.DataFrame({"a": [decimal.Decimal("1.5"), None]}),
        pd.DataFrame({"a": [decimal.Decimal("1.5"), None]}),
    )
    with pytest.raises(NotImplementedError, match="exponent|scale"):  # 1.5 beside 1.50: refused
        em.Series([decimal.Decimal("1.5"), decimal.Decimal("1.50")])


def test_objects_pandas_keeps_as_objects_refused_clearly():
    import datetime

    tzs = [datetime.UTC, datetime.timezone(datetime.timedelta(hours=1))]
    values = [datetime.datetime(2020, 1, 1, tzinfo=tz) for tz in tzs]
    assert pd.Series(values).dtype == object
    with pytest.raises((NotImplementedError, TypeError)):
        em.Series(values)


# --- the copy policy ----------------------------------------------------------------------------


def test_construction_copies_user_arrays():
    arr = np.arange(3.0)
    expected = pd.Series(arr.copy(), name="a")
    df, s, idx = em.DataFrame({"a": arr}), em.Series(arr, name="a"), em.Index(arr)
    df2 = em.DataFrame(arr.reshape(3, 1))
    frame = em.DataFrame({"x": [1, 2, 3]})
    frame["a"] = arr
    arr[0] = 99
    assert_eq(df["a"], expected)
    assert_eq(s, expected)
    assert_eq(idx, pd.Index(expected.to_numpy()))
    assert_eq(df2[0], expected.rename(0))
    assert_eq(frame["a"], expected)


@pytest.mark.parametrize(
    "values",
    [
        [1.0, 2.0],
        pd.array([1, None], dtype="Int64"),
        pd.date_range("2020", periods=2, tz="UTC"),
        pd.Categorical(["a", "b"]),
        pd.to_timedelta([1, 2], unit="s"),
    ],
)
def test_from_pandas_does_not_share_the_source(values):
    source = pd.DataFrame({"a": values})
    expected = source.copy()
    frame = em.from_pandas(source)
    series = em.from_pandas(source["a"].copy())
    pandas_series = source["a"]
    source.iloc[0, 0] = source.iloc[1, 0]
    pandas_series.iloc[0] = pandas_series.iloc[1]
    assert_eq(frame, expected)
    assert_eq(series, expected["a"])


def test_to_pandas_is_writable_and_owned():
    df = em.DataFrame({"a": [1, 2], "b": [1.5, 2.5]})
    pdf = df.to_pandas()
    pdf.loc[0, "a"] = 9
    pdf.loc[0, "b"] = 9.5
    assert_eq(df, pd.DataFrame({"a": [1, 2], "b": [1.5, 2.5]}))
    s = em.Series([1.0, 2.0])
    ps = s.to_pandas()
    ps.iloc[0] = 7.0
    assert_eq(s, pd.Series([1.0, 2.0]))
    # and a later change of the user's source array reaches no earlier to_pandas result
    arr = np.arange(2.0)
    out = em.Series(arr).to_pandas()
    arr[0] = 5
    assert out.iloc[0] == 0.0


def test_to_numpy_as_pandas():
    """pandas 3 hands out a read-only view; ember too where the array is its own memory (on the GPU
    the transfer is a new array): writing into what to_numpy gave never changes the Series."""
    ps, s = pd.Series([1.0, 2.0]), em.Series([1.0, 2.0])
    view = s.to_numpy()
    np.testing.assert_array_equal(view, ps.to_numpy())
    if view.flags.writeable:
        view[0] = 5.0
    else:
        with pytest.raises(ValueError):
            view[0] = 5.0
    writable = s.to_numpy(copy=True)
    assert writable.flags.writeable == ps.to_numpy(copy=True).flags.writeable
    writable[0] = 5.0
    assert_eq(s, ps)


def _df(m):
    return m.DataFrame({"a": [1, 2], "b": [3, 4]})


@pytest.mark.parametrize(
    "case",
    [
        lambda m: _df(m)[["a", "a"]],
        lambda m: _df(m).loc[:, ["a", "a"]],
        lambda m: _df(m).iloc[:, [0, 0]],
        lambda m: _df(m).reindex(columns=["a", "a"]),
        lambda m: m.concat([m.Series([1], name="a"), m.Series([2], name="a")], axis=1),
        lambda m: m.concat([m.DataFrame({0: [1]}), m.Series([2])], axis=1),
        lambda m: m.get_dummies(m.DataFrame({"a": ["x", "y"], "a_x": [1, 2]}), columns=["a"]),
    ],
)
def test_selection_and_combination_with_repeated_labels_refused(case):
    _refused(case)


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.concat([m.DataFrame({"x": [1]}), m.Series([2]), m.Series([3])], axis=1),
        lambda m: m.concat([m.Series([2]), m.Series([3], name="a"), m.Series([4])], axis=1),
        lambda m: m.DataFrame(
            {"v": [1]}, index=pd.MultiIndex.from_tuples([(1, 2)], names=["a", "a"])
        ).reset_index(),
    ],
)
def test_combination_labels_as_pandas(case):
    _same(case)


def test_values_of_a_series_built_from_an_array_is_read_only():
    s = em.Series(np.arange(3.0))
    values = s.values
    if isinstance(values, np.ndarray):  # the CPU backend (CuPy arrays have no read-only flag)
        assert values.flags.writeable == pd.Series(np.arange(3.0)).values.flags.writeable
        with pytest.raises(ValueError):
            values[0] = 5.0
    assert_eq(s, pd.Series(np.arange(3.0)))

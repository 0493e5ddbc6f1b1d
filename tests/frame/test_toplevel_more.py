"""Top-level functions against pandas: crosstab (names, dropna, arrays), factorize, to_numeric,
wide_to_long."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _ember(x):
    if isinstance(x, (pd.Series, pd.DataFrame, pd.Index)):
        return em.from_pandas(x)
    if isinstance(x, list) and x and isinstance(x[0], pd.Series):
        return [_ember(y) for y in x]
    return x


def _both(fn, *args, **kwargs) -> None:
    """fn of pandas objects and of their ember copies: equal results, or the same exception type."""
    try:
        expected = fn(pd, *args, **kwargs)
    except Exception as e:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises(type(e)):
            fn(em, *[_ember(a) for a in args], **{k: _ember(v) for k, v in kwargs.items()})
        return
    result = fn(em, *[_ember(a) for a in args], **{k: _ember(v) for k, v in kwargs.items()})
    if isinstance(expected, tuple):
        for r, p in zip(result, expected, strict=True):
            _equal(r, p)
    else:
        _equal(result, expected)


def _equal(result, expected) -> None:
    if isinstance(expected, np.ndarray):
        assert isinstance(result, np.ndarray)
        assert result.dtype == expected.dtype
        np.testing.assert_array_equal(result, expected)
    else:
        assert_eq(result, expected)


# --- crosstab ------------------------------------------------------------------------------------------

A = np.array(["foo", "foo", "foo", "foo", "bar", "bar", "bar", "bar", "foo", "foo", "foo"], dtype=object)
B = np.array(["one", "one", "one", "two", "one", "one", "one", "two", "two", "two", "one"], dtype=object)
C = np.array(["dull", "dull", "shiny", "dull", "dull", "shiny", "shiny", "dull", "shiny", "shiny", "shiny"])
VALS = np.arange(1, 12)


def crosstab(ns, *args, **kwargs):
    return ns.crosstab(*args, **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"rownames": ["a"], "colnames": ["b"]},
        {"margins": True, "margins_name": "Tot"},
        {"normalize": "index"},
        {"normalize": True, "margins": True},
        {"values": VALS, "aggfunc": "sum", "rownames": ["a"], "colnames": ["b"]},
        {"values": VALS, "aggfunc": "mean", "margins": True},
        {"rownames": ["x", "y"]},  # AssertionError, as pandas
        {"values": VALS},  # ValueError
    ],
)
def test_crosstab_arrays(kwargs):
    _both(crosstab, A, B, **kwargs)
    _both(crosstab, list(A), list(B), **kwargs)


def test_crosstab_several_column_keys():
    _both(crosstab, A, [B, C], rownames=["a"], colnames=["b", "c"])
    _both(crosstab, A, [B, C])
    _both(crosstab, [A, B], C, colnames=["c"])


S1 = pd.Series(["x", "y", None, "x", "y"], name="k", index=[3, 4, 5, 6, 7])
S2 = pd.Series(["p", None, "q", "q", "p"], name="k2", index=[3, 4, 5, 6, 7])


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"dropna": False},
        {"rownames": ["a"], "colnames": ["a"]},
        {"values": pd.Series([1.0, 2, 3, np.nan, 5], index=[3, 4, 5, 6, 7]), "aggfunc": "mean"},
        {
            "values": pd.Series([1.0, 2, 3, np.nan, 5], index=[3, 4, 5, 6, 7]),
            "aggfunc": "max",
            "dropna": False,
        },
        {"normalize": "columns", "dropna": False},
    ],
)
def test_crosstab_series_with_missing_keys(kwargs):
    _both(crosstab, S1, S2, **kwargs)


@pytest.mark.parametrize(
    "index, columns",
    [
        (pd.Series([1, 2, 1, 3], name="n"), pd.Series([True, False, True, True])),
        (pd.Series([1.5, np.nan, 1.5, 2.0]), pd.Series(["a", "b", "b", "a"], dtype="string")),
        (pd.Series([1, None, 1, 2], dtype="Int64"), np.array([1, 2, 1, 2])),
        (
            pd.Series(pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-01", None])),
            pd.Series([1, 1, 2, 2]),
        ),
        (pd.Series(["a", "b", "a", "a"], dtype="category"), pd.Series([1, 1, 2, 2])),
    ],
)
def test_crosstab_dtypes(index, columns):
    _both(crosstab, index, columns)
    _both(crosstab, index, columns, dropna=index.dtype == "category")
    with pytest.raises(NotImplementedError):  # pivot_table: an 'All' label beside non-strings
        em.crosstab(_ember(index), _ember(columns), margins=True)


def test_crosstab_refusals():
    with pytest.raises(NotImplementedError):  # pandas aligns Series on their labels
        em.crosstab(_ember(S1), _ember(S2.set_axis([0, 1, 2, 3, 4])))
    with pytest.raises(NotImplementedError):  # pandas lists the unobserved categories
        em.crosstab(_ember(S1.astype("category")), _ember(S2), dropna=False)
    with pytest.raises(NotImplementedError):
        em.crosstab(_ember(S1), [_ember(S2), _ember(S2.rename("z"))], dropna=False)
    with pytest.raises(NotImplementedError):
        em.crosstab(_ember(pd.Series([], dtype="str")), _ember(pd.Series([], dtype="str")))
    with pytest.raises(NotImplementedError):
        em.crosstab(pd.Categorical(["a"]), pd.Categorical(["b"]))
    with pytest.raises(ValueError):
        em.crosstab(A, B[:3])


@pytest.mark.parametrize(
    "dtype", ["string", object, "str", pd.StringDtype("python"), pd.StringDtype("python", na_value=np.nan)]
)
@pytest.mark.parametrize("which", ["i", "c"])
@pytest.mark.parametrize("normalize", [False, "index", "columns", "all"])
def test_crosstab_margins_string_dtypes(dtype, which, normalize):
    df = pd.DataFrame({"i": ["x", "y", "x"], "c": ["a", "b", "b"]}).astype({which: dtype})
    if dtype is object or (isinstance(dtype, str) and dtype == "str"):
        _both(crosstab, df.i, df.c, margins=True, normalize=normalize)
        return
    with pytest.raises(NotImplementedError):  # pivot_table's margins give the axes 'str'
        em.crosstab(_ember(df.i), _ember(df.c), margins=True, normalize=normalize)


# --- factorize -----------------------------------------------------------------------------------------

FACTORIZE_KWARGS = [{}, {"sort": True}, {"use_na_sentinel": False}, {"sort": True, "use_na_sentinel": False}]


def _factorize_equal(result, expected) -> None:
    assert isinstance(result[0], np.ndarray) and result[0].dtype == expected[0].dtype
    np.testing.assert_array_equal(result[0], expected[0])
    _equal(result[1], expected[1])


@pytest.mark.parametrize(
    "obj",
    [
        pd.Index(["b", "a", None, "b"], name="x"),
        pd.Index([3, 1, 3]),
        pd.Index([1.5, np.nan, 1.5]),
        pd.Index([True, False, True]),
        pd.Index(pd.to_datetime(["2020", "NaT", "2020"]), name="d"),
        pd.Index([], dtype="str"),
        pd.Index([2, 1, None, 2], dtype="Int64", name="i"),
        pd.Series(["b", "a", None, "b"], index=[5, 6, 7, 8], name="s"),
        pd.Series([1, None, 1], dtype="Int64"),
        pd.Series([1.0, None, 2.5, 1.0], dtype="Float64"),
        pd.Series(pd.to_datetime(["2020", "NaT", "2020"])),
        pd.Series(["b", "a", "b"], dtype="category"),
    ],
    ids=repr,
)
@pytest.mark.parametrize("kwargs", FACTORIZE_KWARGS)
def test_factorize_series_and_index(obj, kwargs):
    _factorize_equal(em.from_pandas(obj).factorize(**kwargs), obj.factorize(**kwargs))
    _factorize_equal(em.factorize(em.from_pandas(obj), **kwargs), pd.factorize(obj, **kwargs))


@pytest.mark.parametrize(
    "values",
    [
        np.array([3, 1, 3, np.nan]),
        np.array(["b", "a", "b"]),
        np.array(["b", "b", "a", "c", "b"], dtype=object),
        np.array(["b", None, "a", "c", "b"], dtype=object),
        np.array([True, False, True]),
        np.array(["2020-01-01", "NaT", "2020-01-01"], dtype="M8[ns]"),
        np.array([], dtype=float),
        np.array([2, 1, 2], dtype="int8"),
    ],
    ids=repr,
)
@pytest.mark.parametrize("kwargs", [*FACTORIZE_KWARGS, {"size_hint": 10}])
def test_factorize_arrays(values, kwargs):
    result, expected = em.factorize(values, **kwargs), pd.factorize(values, **kwargs)
    assert isinstance(result[1], np.ndarray) and result[1].dtype == expected[1].dtype
    np.testing.assert_array_equal(result[0], expected[0])
    assert pd.isna(result[1]).tolist() == pd.isna(expected[1]).tolist()
    present = ~pd.isna(expected[1])
    np.testing.assert_array_equal(result[1][present], expected[1][present])


@pytest.mark.parametrize("values", [["b", "a", "b"], ("b", "a"), [1, 2, 1], "abc"])
def test_factorize_lists_raise_as_pandas(values):
    with pytest.raises(TypeError):
        pd.factorize(values)
    with pytest.raises(TypeError):
        em.factorize(values)


def test_factorize_refusals():
    with pytest.raises(NotImplementedError):
        em.factorize(em.from_pandas(pd.RangeIndex(3)))  # pandas: a RangeIndex of the uniques
    with pytest.raises(NotImplementedError):
        em.factorize(em.from_pandas(pd.MultiIndex.from_tuples([(1, "a")])))


# --- to_numeric ----------------------------------------------------------------------------------------

NUMERIC_CASES = [
    pd.Series([1, 2, 3]),
    pd.Series([1, -200, 3], index=["a", "b", "c"], name="n"),
    pd.Series([1, 70000]),
    pd.Series([2**40, 1]),
    pd.Series([], dtype="int64"),
    pd.Series([1.0, 2.0]),
    pd.Series([1.0, 2.5]),
    pd.Series([1.0, np.nan]),
    pd.Series([1.000000001, 2.0]),
    pd.Series([-1.000000001, 2.0]),
    pd.Series([1e10, 2.0]),
    pd.Series([0.1, 0.2]),
    pd.Series([1e300, 1]),
    pd.Series([np.inf, 1.0]),
    pd.Series([300.0, -5.0]),
    pd.Series([1, 2, 3], dtype="Int64"),
    pd.Series([1, None, 300], dtype="Int64"),
    pd.Series([None, None], dtype="Int64"),
    pd.Series([1.0, 2.1, 3.0], dtype="Float64"),
    pd.Series([1.0, None], dtype="Float64"),
    pd.Series([True, False]),
    pd.Series([True, None], dtype="boolean"),
    pd.Series([1, 2], dtype="uint64"),
    pd.Series([2**63 + 5, 2], dtype="uint64"),
    pd.Series([1, 2], dtype="int8"),
    pd.Series([1.5, 2], dtype="float32"),
    pd.Series([16777217, 1]),
    pd.Series([2**53 + 1, 1]),
    pd.Series(["1.0", "2", "-3"]),
    pd.Series([" 1", "2 ", " 3.5 "]),
    pd.Series(["1", None, "300"], dtype="string"),
    pd.Series(["apple", "1.0", "2"], dtype=object),
]
NUMERIC_KWARGS = [
    {"downcast": "integer"},
    {"downcast": "signed"},
    {"downcast": "unsigned"},
    {"downcast": "float"},
    {"downcast": "integer", "errors": "coerce"},
    {"downcast": "float", "errors": "coerce"},
    {"dtype_backend": "numpy_nullable"},
    {"downcast": "float", "dtype_backend": "numpy_nullable"},
    {"downcast": "bad"},  # ValueError
    {"dtype_backend": "x"},  # ValueError
    {"errors": "ignore"},  # ValueError
]


def to_numeric(ns, *args, **kwargs):
    return ns.to_numeric(*args, **kwargs)


@pytest.mark.parametrize("series", NUMERIC_CASES, ids=lambda s: f"{s.dtype}-{list(s)[:3]}")
@pytest.mark.parametrize("kwargs", NUMERIC_KWARGS)
def test_to_numeric(series, kwargs):
    if "dtype_backend" in kwargs and series.dtype == np.float64 and series.isna().any():
        pytest.skip("refused: test_to_numeric_refusals")
    _both(to_numeric, series, **kwargs)


def test_to_numeric_index_and_docstring_examples():
    _both(to_numeric, pd.Index(["1", "2", "3"], name="i"), downcast="integer")
    _both(to_numeric, pd.Series([1, 2, 3], dtype="Int64"), downcast="integer")
    _both(to_numeric, pd.Series([1.0, 2.1, 3.0], dtype="Float64"), downcast="float")


def test_to_numeric_refusals():
    with pytest.raises(NotImplementedError):  # pandas keeps NaN as a value of the masked floats
        em.to_numeric(em.from_pandas(pd.Series([1.0, np.nan])), dtype_backend="numpy_nullable")
    with pytest.raises(NotImplementedError):
        em.to_numeric(em.from_pandas(pd.Series([1, 2])), dtype_backend="pyarrow")


# --- wide_to_long --------------------------------------------------------------------------------------


def wide_to_long(ns, df, **kwargs):
    return ns.wide_to_long(df, **kwargs)


def _years_frame():
    rng = np.random.default_rng(123)
    df = pd.DataFrame(
        {
            "A1970": ["a", "b", "c"],
            "A1980": ["d", "e", "f"],
            "B1970": [2.5, 1.2, 0.7],
            "B1980": [3.2, 1.3, 0.1],
            "X": rng.standard_normal(3),
        }
    )
    df["id"] = df.index
    return df


FAMILIES = pd.DataFrame(
    {
        "famid": [1, 1, 1, 2, 2, 2, 3, 3, 3],
        "birth": [1, 2, 3, 1, 2, 3, 1, 2, 3],
        "ht1": [2.8, 2.9, 2.2, 2, 1.8, 1.9, 2.2, 2.3, 2.1],
        "ht2": [3.4, 3.8, 2.9, 3.2, 2.8, 2.4, 3.3, 3.4, 2.9],
    }
)
WEEKLY = pd.DataFrame(
    {
        "A(weekly)-2010": [0.5, 0.7, 0.6],
        "A(weekly)-2011": [0.5, 0.4, 0.9],
        "B(weekly)-2010": [0.1, 0.2, 0.8],
        "B(weekly)-2011": [0.9, 0.8, 0.9],
        "X": [0, 1, 1],
        "id": [7, 3, 5],
    }
)
MIXED = pd.DataFrame(
    {
        "id": ["u", "v", "w"],
        "when": pd.to_datetime(["2020-01-01", None, "2021-01-01"]),
        "flag": [True, False, True],
        "cat": pd.Series(["a", "b", "a"], dtype="category"),
        "v_x": [1, 2, 3],
        "v_y": [4, 5, None],
        "w_x": pd.Series([1, None, 3], dtype="Int64"),
        "w_y": pd.Series([1, 2, 3], dtype="Int64"),
    }
)
UNEVEN = pd.DataFrame({"id": [1, 2], "A1": [1.0, None], "A2": [3.0, 4.0], "B1": ["x", None]})


@pytest.mark.parametrize(
    "df, kwargs",
    [
        (_years_frame(), {"stubnames": ["A", "B"], "i": "id", "j": "year"}),
        (FAMILIES, {"stubnames": "ht", "i": ["famid", "birth"], "j": "age"}),
        (WEEKLY, {"stubnames": ["A(weekly)", "B(weekly)"], "i": "id", "j": "year", "sep": "-"}),
        (
            FAMILIES.rename(columns={"ht1": "ht_one", "ht2": "ht_two"}),
            {"stubnames": "ht", "i": ["famid", "birth"], "j": "age", "sep": "_", "suffix": r"\w+"},
        ),
        (MIXED, {"stubnames": ["v", "w"], "i": "id", "j": "s", "sep": "_", "suffix": r"\w"}),
        (MIXED, {"stubnames": ["v"], "i": ["id", "flag"], "j": "s", "sep": "_", "suffix": "[a-z]"}),
        (UNEVEN, {"stubnames": ["A"], "i": "id", "j": "t"}),
        (UNEVEN.iloc[:0], {"stubnames": ["A", "B"], "i": "id", "j": "t"}),
        (UNEVEN, {"stubnames": ["A1"], "i": "id", "j": "t"}),  # ValueError: a stub names a column
        (FAMILIES, {"stubnames": "ht", "i": ["famid"], "j": "age"}),  # ValueError: ids not unique
    ],
)
def test_wide_to_long(df, kwargs):
    _both(wide_to_long, df, **kwargs)


def test_wide_to_long_refusals():
    with pytest.raises(NotImplementedError):  # concat of the stubs' differing (i, j) rows
        em.wide_to_long(_ember(UNEVEN), ["A", "B"], i="id", j="t")
    with pytest.raises(NotImplementedError):  # pandas: errors or NA-matched rows
        em.wide_to_long(_ember(UNEVEN.assign(id=pd.Series([1, None], dtype="Int64"))), "A", i="id", j="t")
    with pytest.raises(NotImplementedError):
        em.wide_to_long(_ember(MIXED), "v", i="id", j="when", sep="_", suffix=".")
    with pytest.raises(NotImplementedError):
        em.wide_to_long(_ember(pd.DataFrame({"id": [1], 0: [2], "A1": [3]})), "A", i="id", j="t")

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

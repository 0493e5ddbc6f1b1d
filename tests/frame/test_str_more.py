"""``.str`` methods against pandas: get_dummies, dict replace, split / rsplit with compiled and
literal patterns, the missing cells of an object column's expanded pieces."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq

STRING_DTYPES = [
    object,
    "str",
    "string",
    pd.StringDtype("python"),
    pd.StringDtype("pyarrow", na_value=np.nan),
]


def _both(pser: pd.Series, fn) -> None:
    """fn on pandas and ember: equal results, or the same exception type."""
    try:
        expected = fn(pser)
    except Exception as e:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises(type(e)):
            fn(em.from_pandas(pser))
        return
    assert_eq(fn(em.from_pandas(pser)), expected)


# --- get_dummies ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", STRING_DTYPES)
@pytest.mark.parametrize(
    "kwargs", [{}, {"dtype": bool}, {"dtype": "float32"}, {"dtype": "uint8"}, {"sep": ", "}]
)
def test_get_dummies(dtype, kwargs):
    s = pd.Series(["b|a|b", "", None, "a||c", "é|a", "x, y"], dtype=dtype, index=[5, 5, 1, 2, 0, 9])
    _both(s, lambda x: x.str.get_dummies(**kwargs))


def test_get_dummies_docstring_examples():
    _both(pd.Series(["a|b", "a", "a|c"]), lambda x: x.str.get_dummies())
    _both(pd.Series(["a|b", np.nan, "a|c"]), lambda x: x.str.get_dummies(dtype=bool))


def test_get_dummies_refusals():
    e = em.from_pandas(pd.Series(["a|b", "a"]))
    with pytest.raises(NotImplementedError):
        e.str.get_dummies(dtype="Int64")  # pandas puts the result on a fresh RangeIndex
    with pytest.raises(NotImplementedError):
        e.str.get_dummies(sep="||")  # overlaps itself
    with pytest.raises(NotImplementedError):
        em.from_pandas(pd.Series([None, None], dtype="str")).str.get_dummies()
    with pytest.raises(TypeError):
        e.str.get_dummies(sep=1)
    with pytest.raises(NotImplementedError):
        em.from_pandas(pd.Index(["a|b", "c"])).str.get_dummies()  # pandas: a MultiIndex


# --- replace with a dict -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [object, "str", "string"])
@pytest.mark.parametrize("kwargs", [{}, {"regex": True}, {"n": 1}, {"case": False}])
def test_replace_dict(dtype, kwargs):
    s = pd.Series(["AAB", "BA", None, ""], dtype=dtype)
    _both(s, lambda x: x.str.replace(pat={"A": "B", "B": "c"}, **kwargs))
    _both(s, lambda x: x.str.replace({}, **kwargs))


@pytest.mark.parametrize("kwargs", [{"pat": {"A": "a"}, "repl": "x"}, {"pat": "A"}, {"pat": "A", "repl": 3}])
def test_replace_bad_arguments(kwargs):
    _both(pd.Series(["AB", None]), lambda x: x.str.replace(**kwargs))


def test_replace_docstring_example():
    _both(pd.Series(["A", "B", np.nan]), lambda x: x.str.replace(pat={"A": "a", "B": "b"}))


# --- split / rsplit ------------------------------------------------------------------------------------

PATTERNS = [re.compile(r"\.jpg", re.IGNORECASE), re.compile(r"\.jpg"), ".b", r"\.jpg", "/", None]


@pytest.mark.parametrize("dtype", ["str", "string", object])
@pytest.mark.parametrize("pat", PATTERNS, ids=repr)
@pytest.mark.parametrize("kwargs", [{}, {"n": 1}, {"expand": True}, {"expand": True, "n": 1}])
@pytest.mark.parametrize("method", ["split", "rsplit"])
def test_split_patterns(dtype, pat, kwargs, method):
    if not PANDAS_31 and method == "rsplit" and isinstance(pat, re.Pattern) and dtype is object:
        pytest.skip(
            "pandas 3.0 gives NaN rows for a compiled pattern in rsplit; ember raises 3.1's TypeError"
        )
    s = pd.Series(["foojpgbar.jpg", "a.JPGb/c", "axb.b c", ""], dtype=dtype)
    _both(s, lambda x: getattr(x.str, method)(pat, **kwargs))


@pytest.mark.parametrize("regex", [True, False, None])
@pytest.mark.parametrize("pat", PATTERNS[:4], ids=repr)
def test_split_regex_argument(pat, regex):
    s = pd.Series(["foojpgbar.jpg", "a.JPGb", None])
    _both(s, lambda x: x.str.split(pat, regex=regex, expand=True))


def test_rsplit_is_literal():
    # pandas' rsplit has no regex: '.b' is two characters, not any character and b
    _both(pd.Series(["axb.b c"]), lambda x: x.str.rsplit(".b"))
    _both(pd.Series(["axb.b c"]), lambda x: x.str.rsplit(".b", expand=True))


def test_split_docstring_examples():
    s = pd.Series(["this is a regular sentence", "https://docs.python.org/3/tutorial/index.html", np.nan])
    for fn in [
        lambda x: x.str.split(),
        lambda x: x.str.rsplit(),
        lambda x: x.str.split(n=2),
        lambda x: x.str.rsplit(n=2),
        lambda x: x.str.split(pat="/"),
        lambda x: x.str.split(expand=True),
        lambda x: x.str.rsplit("/", n=1, expand=True),
    ]:
        _both(s, fn)


@pytest.mark.parametrize("na", [None, np.nan, pd.NA], ids=repr)
@pytest.mark.parametrize("data", [["a_b", "a_b"], ["a_b", "c"], ["a_b", "NA"], ["NA", "NA"], ["a", "b"]])
@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.str.split("_", expand=True),
        lambda x: x.str.rsplit("_", expand=True),
        lambda x: x.str.split(r"_|x", expand=True),
        lambda x: x.str.partition("_"),
        lambda x: x.str.rpartition("_"),
    ],
)
def test_object_pieces_keep_missing_values(na, data, fn):
    s = pd.Series([na if v == "NA" else v for v in data], dtype=object)
    _both(s, fn)


def test_object_pieces_nan_beside_short_rows_refused():
    e = em.from_pandas(pd.Series(["a_b", "c", np.nan], dtype=object))
    with pytest.raises(NotImplementedError):
        e.str.split("_", expand=True)  # pandas: NaN in the missing row, None in the short one

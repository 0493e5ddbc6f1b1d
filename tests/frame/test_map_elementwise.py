"""Series.map / apply of Python functions: value by value as pandas calls them (short Series), or
the vectorized call checked against pandas' map on a sample (long Series); pandas' result or error,
or a refusal, never another value."""

import datetime as dt

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

INPUTS = {
    "int": pd.Series([1, 2, 3]),
    "float": pd.Series([1.5, np.nan, 3.0]),
    "bool": pd.Series([True, False, True]),
    "str": pd.Series(["a", None, "c"]),
    "object": pd.Series(["a", None, "c"], dtype=object),
    "datetime": pd.Series(pd.to_datetime(["2020-01-01", None, "2021-05-06"])),
    "timedelta": pd.Series(pd.to_timedelta(["1D", None, "2h"])),
    "Int64": pd.Series([1, None, 3], dtype="Int64"),
    "category": pd.Series(["a", "b", "a"], dtype="category"),
}
FUNCS = {
    "str": str,
    "format": "I am a {}".format,
    "len": lambda v: len(str(v)),
    "double": lambda v: v * 2,
    "none_or_one": lambda v: None if v != v else 1,
    "np_float32": lambda v: np.float32(1.5),
    "is_nan": lambda v: v != v,
    "timestamp": lambda v: pd.Timestamp("2020-01-01"),
    "date": lambda v: dt.date(2020, 1, 1),
    "sum_div": lambda v: v / v.sum(),  # pandas' scalars have no .sum(): pandas raises
    "log": np.log,
    "upper": lambda v: v.upper(),
}


@pytest.mark.parametrize("size", [1, 5000], ids=["by-value", "vectorized-checked"])
@pytest.mark.parametrize("name", list(INPUTS))
@pytest.mark.parametrize("func", list(FUNCS))
@pytest.mark.parametrize("na_action", [None, "ignore"])
def test_map_as_pandas(size, name, func, na_action):
    s = pd.concat([INPUTS[name]] * size, ignore_index=True)
    f = FUNCS[func]
    try:
        want = s.map(f, na_action=na_action)
    except Exception as exc:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises((type(exc), NotImplementedError)):
            em.from_pandas(s).map(f, na_action=na_action)
        return
    try:
        got = em.from_pandas(s).map(f, na_action=na_action)
    except NotImplementedError:
        return  # refused (object results, masked / categorical columns): never another value
    assert_eq(got, want)


def test_map_print_calls_once_per_value(capsys):
    em.Series(["a", "b"]).map(print)
    assert capsys.readouterr().out == "a\nb\n"


def test_apply_with_arguments():
    s = pd.Series([1, 2, 3])
    assert_eq(
        em.from_pandas(s).apply(lambda v, k, m=1: v * k + m, args=(2,), m=5),
        s.apply(lambda v, k, m=1: v * k + m, args=(2,), m=5),
    )


CATEGORICALS = [
    pd.Series(["a", "b", "a"], dtype="category"),
    pd.Series(["a", None, "b"], dtype="category"),
    pd.Series([1, 2, 1], dtype="category"),
    pd.Series(pd.Categorical(["x", "y"], categories=["y", "x", "z"], ordered=True)),
]


@pytest.mark.parametrize("s", CATEGORICALS)
@pytest.mark.parametrize(
    "func", [str.upper, lambda v: 1, lambda v: v * 2, print, lambda v: None if v == "a" else v]
)
@pytest.mark.parametrize("na_action", [None, "ignore"])
def test_categorical_map_of_a_function(s, func, na_action):
    """Once per category, as pandas' Categorical.map."""
    try:
        want = s.map(func, na_action=na_action)
    except Exception as exc:  # noqa: BLE001
        with pytest.raises((type(exc), NotImplementedError)):
            em.from_pandas(s).map(func, na_action=na_action)
        return
    try:
        got = em.from_pandas(s).map(func, na_action=na_action)
    except NotImplementedError:
        return
    assert_eq(got, want)


def test_frame_map_passes_keywords():
    df = pd.DataFrame([[1, 2.12], [3.356, 4.567]])
    assert_eq(em.from_pandas(df).map(round, ndigits=1), df.map(round, ndigits=1))
    df.iloc[0, 0] = None
    fn = lambda x: len(str(x))  # noqa: E731
    assert_eq(em.from_pandas(df).map(fn, na_action="ignore"), df.map(fn, na_action="ignore"))

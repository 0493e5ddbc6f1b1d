"""factorize_keys / unique / duplicated / value_counts / nunique against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.backend import to_host
from ember.column import from_pandas
from ember.ops.factorize import duplicated, factorize_keys, nunique, unique, value_counts

SERIES = {
    "int64": pd.Series([5, 3, 5, -2, 3, 9, 5], dtype="int64"),
    "int8": pd.Series([5, -3, 5, -128, 127, 9, 5], dtype="int8"),
    "uint64": pd.Series([2**63 + 5, 3, 2**63 + 5, 0], dtype="uint64"),
    "wide_int": pd.Series([10**15, -(10**15), 7, 10**15], dtype="int64"),
    "float_nan": pd.Series([1.5, np.nan, -0.0, 1.5, 0.0, np.nan, -3.25]),
    "float32": pd.Series([1.5, np.nan, 2.5, 1.5], dtype="float32"),
    "bool": pd.Series([True, False, True, True]),
    "Int64": pd.Series([4, None, 2, 4, None, 1], dtype="Int64"),
    "boolean": pd.Series([True, None, False, True], dtype="boolean"),
    "str": pd.Series(["b", "a", None, "b", "abc", "ab", "", None, "ü", "a\x00"]),
    "long_str": pd.Series(["x" * 20 + "b", "x" * 20 + "a", "x" * 19, "x" * 20 + "b", "x" * 20]),
    "datetime": pd.Series(pd.to_datetime(["2024-01-02", None, "2023-05-01", "2024-01-02"])),
    "datetime_tz": pd.Series(pd.to_datetime(["2024-01-02", None, "2023-05-01"]).tz_localize("UTC")),
    "timedelta": pd.Series(pd.to_timedelta([5, 1, None, 5], unit="s")),
    "category": pd.Series(pd.Categorical(["b", "a", None, "b", "c"], categories=["c", "b", "a", "d"])),
    "ordered_cat": pd.Series(pd.Categorical(["lo", "hi", "lo"], categories=["lo", "hi"], ordered=True)),
    "empty": pd.Series([], dtype="int64"),
    "one": pd.Series([7.0]),
    "all_null": pd.Series([None, None], dtype="Int64"),
}


def _check_factorize(s: pd.Series, xp, sort: bool, dropna: bool) -> None:
    col = from_pandas(s, xp)
    codes, uniques, ngroups = factorize_keys([col], sort=sort, dropna=dropna)
    exp_codes, exp_uniques = pd.factorize(s, sort=sort, use_na_sentinel=dropna)
    np.testing.assert_array_equal(to_host(codes), exp_codes)
    assert codes.dtype == np.int64
    got = uniques[0].to_pandas()
    first = [int(np.flatnonzero(exp_codes == k)[0]) for k in range(len(exp_uniques))]
    exp = s.iloc[first].reset_index(drop=True)
    assert ngroups == len(exp_uniques)
    pd.testing.assert_series_equal(got, exp, check_names=False)


@pytest.mark.parametrize("name", list(SERIES))
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_factorize_single_key(name: str, sort: bool, dropna: bool, xp) -> None:
    _check_factorize(SERIES[name], xp, sort, dropna)


def test_factorize_wide_range_takes_sort_path(xp) -> None:
    s = pd.Series(np.array([10**12, 3, -(10**12), 3, 10**12], dtype=np.int64))
    _check_factorize(s, xp, True, True)
    _check_factorize(s, xp, False, True)


def _groupby_order(df: pd.DataFrame, sort: bool, dropna: bool) -> tuple[np.ndarray, pd.DataFrame]:
    g = df.groupby(list(df.columns), sort=sort, dropna=dropna, observed=True)
    codes = g.ngroup().reindex(df.index).fillna(-1).astype(np.int64).to_numpy()
    keys = g.size().index.to_frame(index=False)
    return codes, keys


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_factorize_multi_key_mixed(sort: bool, dropna: bool, xp) -> None:
    df = pd.DataFrame(
        {
            "a": pd.Series([1, 2, None, 1, 2, 1, None, 3], dtype="Int64"),
            "b": ["x", "y", "x", None, "y", "x", "z", "x"],
            "c": [0.5, np.nan, 0.5, 1.0, np.nan, 0.5, 2.0, 1.0],
        }
    )
    _check_multi(df, xp, sort, dropna)


def test_factorize_multi_key_datetime_bool(xp) -> None:
    df = pd.DataFrame(
        {
            "t": pd.to_datetime(["2024-01-01", "2023-01-01", "2024-01-01", None]),
            "f": [True, False, True, True],
        }
    )
    cols = [from_pandas(df[c], xp) for c in df.columns]
    codes, uniques, _ = factorize_keys(cols, sort=True, dropna=False)
    exp_codes, exp_keys = _groupby_order(df, True, False)
    np.testing.assert_array_equal(to_host(codes), exp_codes)
    pd.testing.assert_series_equal(uniques[0].to_pandas(), exp_keys["t"], check_names=False)


def _check_multi(df: pd.DataFrame, xp, sort: bool, dropna: bool) -> None:
    cols = [from_pandas(df[c], xp) for c in df.columns]
    codes, uniques, ngroups = factorize_keys(cols, sort=sort, dropna=dropna)
    exp_codes, exp_keys = _groupby_order(df, sort, dropna)
    np.testing.assert_array_equal(to_host(codes), exp_codes)
    assert ngroups == len(exp_keys)
    for u, name in zip(uniques, df.columns, strict=True):
        pd.testing.assert_series_equal(u.to_pandas(), exp_keys[name], check_names=False)


COMPOSITE = {
    # raw ranges multiply to little: one direct map of the combined key
    "small_ranges": {
        "c": pd.Categorical(["b", "a", None, "b", "a"], categories=["a", "b", "z"]),
        "i": pd.Series([3, -1, 3, None, 3], dtype="Int8"),
        "f": pd.Series([True, False, True, True, None], dtype="boolean"),
    },
    # each range small, their product past 62 bits: each key compacted to its codes first
    "compacted": {
        k: pd.Series([0, 60_000, 0, 60_000, 5][i:] + [0, 60_000, 0, 60_000, 5][:i])
        for i, k in enumerate("abcde")
    },
    # a key's range too wide to direct-map: sorted
    "wide_ranges": {
        "a": pd.Series([-(2**40), 2**40, -(2**40), 5, 2**40], dtype="int64"),
        "b": pd.Series([2**62 + 9, 1, 2**62 + 9, 1, 1], dtype="uint64"),
        "t": pd.to_datetime(["2024-01-01", "1970-01-01", "2024-01-01", None, "1970-01-01"]),
    },
    # uint64 values past int64's range: sorted
    "huge_uint64": {
        "b": pd.Series([2**63 + 9, 1, 2**63 + 9, 1, 1], dtype="uint64"),
        "c": pd.Categorical(["x", "y", "x", "x", "y"]),
    },
    # combined key beyond the direct-map range: sorted
    "many_groups": {
        "a": pd.Series(np.arange(5) * 10**9, dtype="int64"),
        "b": pd.Series([7, 7, 8, 8, 7], dtype="int64"),
    },
    "all_null_key": {
        "a": pd.Series([None, None, None], dtype="UInt64"),
        "b": pd.Series([2, 1, 2], dtype="int32"),
    },
}


@pytest.mark.parametrize("name", list(COMPOSITE))
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_factorize_composite_integer_keys(name: str, sort: bool, dropna: bool, xp) -> None:
    _check_multi(pd.DataFrame(COMPOSITE[name]), xp, sort, dropna)


keys_strategy = st.lists(st.one_of(st.none(), st.integers(-3, 3)), max_size=40)


@settings(max_examples=80, deadline=None)
@given(
    a=keys_strategy,
    b=st.lists(st.one_of(st.none(), st.sampled_from(["", "a", "ab", "b", "ba\x00"])), max_size=40),
    sort=st.booleans(),
    dropna=st.booleans(),
)
def test_factorize_hypothesis(a, b, sort, dropna) -> None:
    m = min(len(a), len(b))
    df = pd.DataFrame({"a": pd.Series(a[:m], dtype="float64"), "b": pd.Series(b[:m], dtype="str")})
    cols = [from_pandas(df[c], np) for c in df.columns]
    codes, uniques, ngroups = factorize_keys(cols, sort=sort, dropna=dropna)
    if m == 0:
        assert ngroups == 0 and len(codes) == 0
        return
    exp_codes, exp_keys = _groupby_order(df, sort, dropna)
    np.testing.assert_array_equal(codes, exp_codes)
    assert ngroups == len(exp_keys)
    pd.testing.assert_series_equal(uniques[0].to_pandas(), exp_keys["a"], check_names=False)
    pd.testing.assert_series_equal(uniques[1].to_pandas(), exp_keys["b"], check_names=False)


@settings(max_examples=80, deadline=None)
@given(a=keys_strategy, keep=st.sampled_from(["first", "last", False]))
def test_duplicated_hypothesis(a, keep) -> None:
    s = pd.Series(a, dtype="Int64")
    got = duplicated([from_pandas(s, np)], keep=keep)
    np.testing.assert_array_equal(got, s.duplicated(keep=keep).to_numpy())


@pytest.mark.parametrize("name", ["int64", "float_nan", "str", "Int64", "datetime", "category", "empty"])
@pytest.mark.parametrize("keep", ["first", "last", False])
def test_duplicated(name: str, keep, xp) -> None:
    s = SERIES[name]
    got = to_host(duplicated([from_pandas(s, xp)], keep=keep))
    np.testing.assert_array_equal(got, s.duplicated(keep=keep).to_numpy())


def test_duplicated_multi(xp) -> None:
    df = pd.DataFrame({"a": [1, 1, 2, 1, None], "b": ["x", "x", "x", "y", None]})
    cols = [from_pandas(df[c], xp) for c in df.columns]
    for keep in ("first", "last", False):
        np.testing.assert_array_equal(to_host(duplicated(cols, keep)), df.duplicated(keep=keep).to_numpy())


@pytest.mark.parametrize("name", [n for n in SERIES if n != "category" and n != "ordered_cat"])
def test_unique(name: str, xp) -> None:
    s = SERIES[name]
    got = unique(from_pandas(s, xp)).to_pandas()
    exp = pd.Series(s.unique(), dtype=s.dtype)
    pd.testing.assert_series_equal(got, exp, check_names=False)


def test_unique_categorical(xp) -> None:
    s = SERIES["category"]
    got = unique(from_pandas(s, xp)).to_pandas()
    pd.testing.assert_series_equal(got, pd.Series(s.unique()), check_names=False)


@pytest.mark.parametrize("name", list(SERIES))
@pytest.mark.parametrize("dropna", [True, False])
def test_nunique(name: str, dropna: bool, xp) -> None:
    s = SERIES[name]
    assert nunique(from_pandas(s, xp), dropna=dropna) == s.nunique(dropna=dropna)


def _vc_expected(s: pd.Series, **kw) -> pd.Series:
    return s.value_counts(**kw)


@pytest.mark.parametrize(
    "name", ["int64", "float_nan", "str", "Int64", "bool", "datetime", "category", "empty"]
)
@pytest.mark.parametrize("sort,ascending", [(True, False), (True, True), (False, False)])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("normalize", [False, True])
def test_value_counts_series(
    name: str, sort: bool, ascending: bool, dropna: bool, normalize: bool, xp
) -> None:
    s = SERIES[name]
    (u,), counts = value_counts(
        [from_pandas(s, xp)], sort=sort, ascending=ascending, dropna=dropna, normalize=normalize
    )
    exp = s.value_counts(sort=sort, ascending=ascending, dropna=dropna, normalize=normalize)
    pd.testing.assert_series_equal(
        u.to_pandas(), exp.index.to_series().reset_index(drop=True).astype(s.dtype), check_names=False
    )
    np.testing.assert_allclose(to_host(counts), exp.to_numpy())


@pytest.mark.parametrize("sort,ascending", [(True, False), (True, True), (False, False)])
@pytest.mark.parametrize("dropna", [True, False])
def test_value_counts_frame(sort: bool, ascending: bool, dropna: bool, xp) -> None:
    df = pd.DataFrame({"a": [3, 1, 2, 2, 3, 1, np.nan, 5, np.nan], "b": list("xyxxxyzzz")})
    cols = [from_pandas(df[c], xp) for c in df.columns]
    uniques, counts = value_counts(cols, sort=sort, ascending=ascending, dropna=dropna)
    exp = df.value_counts(sort=sort, ascending=ascending, dropna=dropna)
    keys = exp.index.to_frame(index=False)
    for u, name in zip(uniques, df.columns, strict=True):
        pd.testing.assert_series_equal(u.to_pandas(), keys[name], check_names=False)
    np.testing.assert_array_equal(to_host(counts), exp.to_numpy())


@pytest.mark.parametrize("groups", [3, 90])
def test_first_appearance_order_few_and_many_groups(groups: int, xp) -> None:
    """sort=False relabels by a sort of the first rows (few groups) or a scan over the rows (many)."""
    s = pd.Series(np.random.default_rng(groups).integers(0, groups, 100) * 7919 % 1000)
    for dropna in (True, False):
        _check_factorize(s, xp, False, dropna)
        _check_factorize(s.astype("str"), xp, False, dropna)

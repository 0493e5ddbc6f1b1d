"""ops.missing and ops.cumulative against pandas as the oracle, over many dtypes with missing values."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.column import from_pandas
from ember.ops.cumulative import cumulative
from ember.ops.missing import bfill, dropna_mask, ffill, fillna, interpolate_linear, where


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - the type is compared
            return None, exc


def check(ps, pandas_fn, ember_fn, xp, check_dtype=True):
    expected, perr = _outcome(lambda: pandas_fn(ps))
    got, eerr = _outcome(lambda: ember_fn(from_pandas(ps, xp)))
    if perr is not None:
        assert eerr is not None, f"pandas raised {perr!r}, ember returned {got.to_pandas()!r}"
        assert isinstance(eerr, (type(perr), TypeError, ValueError, NotImplementedError)), (perr, eerr)
        return
    assert eerr is None, f"ember raised {eerr!r}; pandas gave {expected!r}"
    pd.testing.assert_series_equal(
        got.to_pandas(), expected.reset_index(drop=True), check_names=False, check_dtype=check_dtype
    )


DATA = {
    "int64": pd.Series([3, -7, 0, 12, 5, -1], dtype="int64"),
    "float64": pd.Series([np.nan, 1.5, np.nan, np.nan, -2.0, np.nan]),
    "float32": pd.Series([1.5, np.nan, -2.25, np.nan, 7.0, np.nan], dtype="float32"),
    "bool": pd.Series([True, False, True, False, True, True]),
    "Int64": pd.Series([None, 3, None, None, 5, None], dtype="Int64"),
    "Float64": pd.Series([1.5, None, -2.0, None, 4.25, None], dtype="Float64"),
    "boolean": pd.Series([True, None, False, None, None, True], dtype="boolean"),
    "str": pd.Series([None, "a", None, "", "bé", None]),
    "string": pd.Series([None, "a", None, "", "bé", None], dtype="string"),
    "datetime": pd.Series(pd.to_datetime([None, "2020-01-01", None, "2021-06-01", None, "2020-02-29"])),
    "datetime_tz": pd.Series(pd.to_datetime([None, "2020-01-01", None]).tz_localize("UTC")),
    "timedelta": pd.Series(pd.to_timedelta(["1D", None, None, "1s", "0s", None])),
    "category": pd.Series(pd.Categorical([None, "b", None, "c", "a", None])),
    "all_nan": pd.Series([np.nan, np.nan, np.nan]),
    "empty": pd.Series([], dtype="float64"),
}
FILL = {
    "int64": 1, "float64": 0.25, "float32": 9.5, "bool": False, "Int64": 7, "Float64": 0.5, "boolean": True,
    "str": "zz", "string": "zz", "datetime": pd.Timestamp("1999-01-01"),
    "datetime_tz": pd.Timestamp("1999-01-01", tz="UTC"), "timedelta": pd.Timedelta("5min"), "category": "c",
    "all_nan": 3.0, "empty": 1.0,
}  # fmt: skip


@pytest.mark.parametrize("name", list(DATA))
def test_fillna_scalar(name, xp):
    v = FILL[name]
    check(DATA[name], lambda p: p.fillna(v), lambda c: fillna(c, v), xp)


@pytest.mark.parametrize("name", ["float64", "Int64", "str", "datetime", "timedelta", "category"])
def test_fillna_column(name, xp):
    s = DATA[name]
    other = s.iloc[::-1].reset_index(drop=True)
    check(s, lambda p: p.fillna(other), lambda c: fillna(c, from_pandas(other, xp)), xp)


def test_fillna_errors(xp):
    with pytest.raises(TypeError):
        fillna(from_pandas(DATA["Int64"], xp), 1.5)
    with pytest.raises(TypeError):
        fillna(from_pandas(DATA["category"], xp), "new category")


@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("limit", [None, 1, 2])
def test_ffill_bfill(name, limit, xp):
    check(DATA[name], lambda p: p.ffill(limit=limit), lambda c: ffill(c, limit=limit), xp)
    check(DATA[name], lambda p: p.bfill(limit=limit), lambda c: bfill(c, limit=limit), xp)


@pytest.mark.parametrize(
    "values",
    [
        [np.nan, 1, np.nan, 3, np.nan],
        [1, np.nan, np.nan, np.nan, 5, np.nan],
        [np.nan, np.nan],
        [2.0, 4.0],
        [1, np.nan, 10, np.nan, np.nan, -2, np.nan],
    ],
    ids=str,
)
@pytest.mark.parametrize("direction", ["forward", "backward", "both"])
def test_interpolate(values, direction, xp):
    s = pd.Series(values, dtype="float64")
    check(
        s,
        lambda p: p.interpolate(limit_direction=direction),
        lambda c: interpolate_linear(c, limit_direction=direction),
        xp,
    )


def test_interpolate_float32_and_int(xp):
    check(DATA["float32"], lambda p: p.interpolate(), interpolate_linear, xp)
    check(DATA["int64"], lambda p: p.interpolate(), interpolate_linear, xp)


COND = np.array([True, False, True, False, False, True])


@pytest.mark.parametrize("name", [k for k in DATA if len(DATA[k]) == 6])
@pytest.mark.parametrize("use_other", [False, True])
def test_where(name, use_other, xp):
    s = DATA[name]
    other = FILL[name] if use_other else None
    if other is None:
        check(s, lambda p: p.where(COND), lambda c: where(c, COND, None), xp)
    else:
        check(s, lambda p: p.where(COND, other), lambda c: where(c, COND, other), xp)
    check(s, lambda p: p.mask(COND), lambda c: where(c, ~COND, None), xp)


@pytest.mark.parametrize("name", ["float64", "Int64", "str", "datetime"])
def test_where_column_other(name, xp):
    s = DATA[name]
    other = s.iloc[::-1].reset_index(drop=True)
    check(s, lambda p: p.where(COND, other), lambda c: where(c, COND, from_pandas(other, xp)), xp)


@pytest.mark.parametrize("how", ["any", "all"])
@pytest.mark.parametrize("thresh", [None, 1, 2, 3])
def test_dropna_mask(how, thresh, xp):
    df = pd.DataFrame({k: DATA[k] for k in ("int64", "float64", "Int64", "str", "timedelta")})
    kw = {"thresh": thresh} if thresh is not None else {"how": how}
    expected = df.index.isin(df.dropna(**kw).index)
    keep = dropna_mask([from_pandas(df[c], xp) for c in df], how=how, thresh=thresh)
    np.testing.assert_array_equal(np.asarray(keep.get() if hasattr(keep, "get") else keep), expected)


# --- cumulative ----------------------------------------------------------------------------------------

CUM_DATA = {
    **{
        k: DATA[k]
        for k in (
            "int64",
            "float64",
            "float32",
            "bool",
            "Int64",
            "Float64",
            "boolean",
            "datetime",
            "timedelta",
            "all_nan",
            "empty",
        )
    },
    "int32": pd.Series([3, -7, 0, 12], dtype="int32"),
    "uint8": pd.Series([3, 7, 0, 12], dtype="uint8"),
    "float_mid_nan": pd.Series([3.0, np.nan, -1.0, 4.0, np.nan, 0.5]),
}


@pytest.mark.parametrize("name", list(CUM_DATA))
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax"])
@pytest.mark.parametrize("skipna", [True, False])
def test_cumulative(name, op, skipna, xp):
    check(
        CUM_DATA[name],
        lambda p: getattr(p, op)(skipna=skipna),
        lambda c: cumulative(c, op, skipna=skipna),
        xp,
    )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.integers(-20, 20)), max_size=12),
    st.sampled_from(["float64", "Int64"]),
    st.sampled_from(["cumsum", "cummin", "cummax", "ffill", "bfill", "interpolate"]),
    st.booleans(),
)
def test_property_scans(vals, dtype, op, skipna):
    s = pd.Series([np.nan if v is None and dtype == "float64" else v for v in vals], dtype=dtype)
    if op.startswith("cum"):
        check(s, lambda p: getattr(p, op)(skipna=skipna), lambda c: cumulative(c, op, skipna=skipna), np)
    elif op == "interpolate":
        if dtype == "float64":
            check(s, lambda p: p.interpolate(), interpolate_linear, np)
    else:
        fn = ffill if op == "ffill" else bfill
        check(s, lambda p: getattr(p, op)(), fn, np)

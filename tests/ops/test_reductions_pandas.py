"""ops.reductions against pandas as the oracle: result values *and* types, missing values, min_count,
skipna, errors; row-wise reductions, corr/cov with NaNs, quantiles; hypothesis with nulls."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.column import from_pandas
from ember.ops.correlation import corr_matrix, cov_matrix
from ember.ops.quantiles import quantile_many
from ember.ops.reductions import reduce, reduce_many
from ember.ops.row_reductions import reduce_rows

OPS = ["sum", "prod", "mean", "min", "max", "std", "var", "sem", "count", "median", "nunique", "any", "all",
       "idxmin", "idxmax"]  # fmt: skip


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - the type is compared
            return None, exc


def _missing(v):
    return v is None or v is pd.NA or v is pd.NaT or (isinstance(v, (float, np.floating)) and math.isnan(v))


def same_scalar(got, expected, rtol=1e-9):
    if _missing(expected):
        assert _missing(got), (got, expected)
        assert (got is pd.NA) == (expected is pd.NA), (got, expected)
        assert (got is pd.NaT) == (expected is pd.NaT), (got, expected)
        return
    assert not _missing(got), (got, expected)
    if isinstance(expected, (np.floating, float)) and not isinstance(expected, bool):
        assert isinstance(got, (np.floating, float)), (type(got), type(expected))
        assert type(got) is type(expected), (type(got), type(expected))
        assert math.isclose(got, expected, rel_tol=rtol, abs_tol=1e-12) or got == expected, (got, expected)
        return
    if isinstance(expected, (pd.Timestamp, pd.Timedelta)):
        assert type(got) is type(expected), (got, expected)
        assert abs((got - expected) / pd.Timedelta(1, "us")) <= 1, (got, expected)
        if isinstance(expected, pd.Timestamp):
            assert got.tz == expected.tz
        return
    if isinstance(expected, (np.generic,)):
        assert type(got) is type(expected), (type(got), type(expected), got, expected)
    assert got == expected, (got, expected)


def pandas_reduce(s, op, **kw):
    if op in ("idxmin", "idxmax"):
        return getattr(s.reset_index(drop=True), op)(**kw)
    if op == "nunique":
        return s.nunique()
    if op == "count":
        return s.count()
    return getattr(s, op)(**kw)


def check(s, op, xp, **kw):
    expected, perr = _outcome(lambda: pandas_reduce(s, op, **kw))
    got, eerr = _outcome(lambda: reduce(from_pandas(s, xp), op, **kw))
    if perr is not None:
        assert eerr is not None, f"pandas raised {perr!r}, ember returned {got!r}"
        assert isinstance(eerr, (type(perr), TypeError, ValueError)), (perr, eerr)
        return
    assert eerr is None, f"ember raised {eerr!r}; pandas gave {expected!r}"
    same_scalar(got, expected)


DATA = {
    "int64": pd.Series([3, -7, 0, 12, 5, -1], dtype="int64"),
    "int32": pd.Series([3, -7, 0, 12, 5, -1], dtype="int32"),
    "uint8": pd.Series([3, 7, 0, 12, 5, 1], dtype="uint8"),
    "float64": pd.Series([1.5, np.nan, -2.25, 0.0, 4.0, 3.0]),
    "float32": pd.Series([1.5, np.nan, -2.25, 0.0, 7.0, 3.0], dtype="float32"),
    "bool": pd.Series([True, False, True, False, True, True]),
    "Int64": pd.Series([3, None, 0, -12, 5, 2], dtype="Int64"),
    "Float64": pd.Series([1.5, None, -2.0, 0.0, 4.25, 0.5], dtype="Float64"),
    "boolean": pd.Series([True, None, False, True, None, False], dtype="boolean"),
    "str": pd.Series(["b", "a", None, "", "ab", "é"]),
    "datetime": pd.Series(
        pd.to_datetime(["2020-01-01", None, "2021-06-01", "2020-01-03", "2019-12-31", "2020-02-29"])
    ),
    "datetime_s": pd.Series(pd.to_datetime(["2020-01-01", None, "2021-06-01"]).as_unit("s")),
    "datetime_tz": pd.Series(pd.to_datetime(["2020-01-01", None, "2021-06-01"]).tz_localize("US/Eastern")),
    "timedelta": pd.Series(pd.to_timedelta(["1D", "-3h", None, "1s", "0s", "2D"])),
    "category": pd.Series(pd.Categorical(["a", "b", None, "c", "a", "b"])),
    "ordered": pd.Series(
        pd.Categorical(["lo", "hi", None, "mid"], categories=["lo", "mid", "hi"], ordered=True)
    ),
    "empty_int": pd.Series([], dtype="int64"),
    "empty_float": pd.Series([], dtype="float64"),
    "all_nan": pd.Series([np.nan, np.nan]),
    "all_na_Int64": pd.Series([None, None], dtype="Int64"),
    "one": pd.Series([7.0]),
}


@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("op", OPS)
def test_reduce_default(name, op, xp):
    check(DATA[name], op, xp)


@pytest.mark.parametrize(
    "name", ["int64", "float64", "float32", "Int64", "Float64", "boolean", "timedelta", "datetime", "str"]
)
@pytest.mark.parametrize(
    "op", ["sum", "prod", "mean", "min", "max", "std", "median", "any", "all", "idxmin", "idxmax"]
)
def test_reduce_skipna_false(name, op, xp):
    check(DATA[name], op, xp, skipna=False)


@pytest.mark.parametrize(
    "name", ["int64", "float64", "Int64", "all_nan", "all_na_Int64", "empty_int", "timedelta"]
)
@pytest.mark.parametrize("op", ["sum", "prod"])
@pytest.mark.parametrize("min_count", [0, 1, 5, 7])
def test_min_count(name, op, min_count, xp):
    check(DATA[name], op, xp, min_count=min_count)


@pytest.mark.parametrize("name", ["int64", "float64", "float32", "Int64", "bool"])
@pytest.mark.parametrize("ddof", [0, 1, 2, 5])
@pytest.mark.parametrize("op", ["std", "var", "sem"])
def test_ddof(name, ddof, op, xp):
    check(DATA[name], op, xp, ddof=ddof)


def test_reduce_many_matches_single(xp):
    cols = [from_pandas(DATA[k], xp) for k in ("int64", "float64", "float32", "Int64", "bool")]
    for op in ("sum", "mean", "min", "max", "std", "count"):
        many = reduce_many(cols, op)
        for c, got in zip(cols, many, strict=True):
            same_scalar(got, reduce(c, op))


@pytest.mark.parametrize(
    "name", ["int64", "float64", "float32", "Int64", "datetime", "timedelta", "one", "empty_float"]
)
def test_quantile_many(name, xp):
    s = DATA[name]
    qs = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]
    got = quantile_many(from_pandas(s, xp), qs)
    for q, g in zip(qs, got, strict=True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            e = s.quantile(q)
        if isinstance(e, (pd.Timestamp, pd.Timedelta)) or _missing(e):
            same_scalar(g, e)
        else:
            assert math.isclose(float(g), float(e), rel_tol=1e-12, abs_tol=1e-12), (q, g, e)


FRAME = pd.DataFrame({
    "a": [1, 2, 3, 4, 5, 6],
    "b": [1.5, np.nan, 2.5, -1.0, np.nan, 4.0],
    "c": pd.array([1, None, 3, None, 5, 1], dtype="Int64"),
    "d": [True, False, True, True, False, False],
    "e": [10.0, 9.0, np.nan, 7.0, 6.5, 5.0],
})  # fmt: skip


@pytest.mark.parametrize(
    "cols", [["a", "b"], ["a", "d"], ["a"], ["b", "c", "e"], ["a", "b", "c", "d", "e"]], ids=str
)
@pytest.mark.parametrize(
    "op", ["sum", "mean", "min", "max", "std", "var", "count", "prod", "median", "any", "all"]
)
@pytest.mark.parametrize("skipna", [True, False])
def test_reduce_rows(cols, op, skipna, xp):
    df = FRAME[cols]
    expected, perr = _outcome(
        lambda: getattr(df, op)(axis=1, skipna=skipna) if op != "count" else df.count(axis=1)
    )
    got, eerr = _outcome(
        lambda: reduce_rows([from_pandas(df[c], xp) for c in cols], op, skipna=skipna).to_pandas()
    )
    bools = [c for c in cols if pd.api.types.is_bool_dtype(df[c])]
    if not PANDAS_31 and perr is None and bools and len(bools) < len(cols) and op in _SUMS:
        # pandas 3.0 reduces bools beside numbers as objects (an object result); 3.1, and ember, as ints
        expected = getattr(df.astype(dict.fromkeys(bools, "int64")), op)(axis=1, skipna=skipna)
    if isinstance(eerr, NotImplementedError):  # refused where pandas reduces an object array:
        assert len({pd.api.types.is_bool_dtype(df[c]) for c in cols}) == 2, eerr  # bools beside numbers
        return
    if perr is not None:  # pandas raises: so must ember (a value would accept what pandas rejects)
        assert isinstance(eerr, type(perr)), (perr, eerr)
        return
    assert eerr is None, eerr
    pd.testing.assert_series_equal(got, expected, check_names=False, check_index=False, rtol=1e-12)


_SUMS = ("sum", "mean", "min", "max", "prod")
PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


def _rows(s):
    """Row results as a list of floats (missing: NaN): pandas mixes NaN and NA in row results of
    nullable columns; both are 'missing' here."""
    return [float("nan") if _missing(v) else float(v) for v in s.tolist()]


@pytest.mark.parametrize("min_count", [0, 2, 3])
def test_reduce_rows_min_count(min_count, xp):
    df = FRAME[["b", "e", "a"]]
    expected = df.sum(axis=1, min_count=min_count)
    got = reduce_rows([from_pandas(df[c], xp) for c in df], "sum", min_count=min_count).to_pandas()
    pd.testing.assert_series_equal(got, expected.reset_index(drop=True), check_names=False, check_dtype=False)


@pytest.mark.parametrize("cols", [["a", "b", "e"], ["a", "e"], ["b", "c", "d", "e"]], ids=str)
@pytest.mark.parametrize("min_periods", [1, 4, 5])
def test_corr_cov_pairwise(cols, min_periods, xp):
    df = FRAME[cols].astype("float64")
    columns = [from_pandas(FRAME[c], xp) for c in cols]
    np.testing.assert_allclose(
        corr_matrix(columns, min_periods=min_periods),
        df.corr(min_periods=min_periods).to_numpy(),
        rtol=1e-10,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        cov_matrix(columns, min_periods=min_periods),
        df.cov(min_periods=min_periods).to_numpy(),
        rtol=1e-10,
        atol=1e-12,
    )
    np.testing.assert_allclose(cov_matrix(columns, ddof=0), df.cov(ddof=0).to_numpy(), rtol=1e-10, atol=1e-12)


def test_corr_large_offset_and_spearman(xp):
    rng = np.random.default_rng(1)
    x = rng.normal(size=200)
    df = pd.DataFrame(
        {"x": x + 1e9, "y": 2 * x + rng.normal(size=200) * 0.1, "z": np.round(rng.normal(size=200), 1)}
    )
    cols = [from_pandas(df[c], xp) for c in df]
    # pandas' own result is off by ~1e-7 here (checked against exact rational arithmetic); NumPy is not
    np.testing.assert_allclose(corr_matrix(cols), np.corrcoef(df.to_numpy().T), rtol=1e-12)
    np.testing.assert_allclose(
        corr_matrix(cols, method="spearman"), df.corr(method="spearman").to_numpy(), rtol=1e-10
    )


# --- property tests ---------------------------------------------------------------------------------------

_VALS = st.one_of(st.none(), st.integers(-1000, 1000))


@st.composite
def series_with_nulls(draw):
    kind = draw(st.sampled_from(["int64", "float64", "Int64", "Float64", "float32"]))
    vals = draw(st.lists(_VALS, max_size=15))
    if kind == "int64":
        return pd.Series([v if v is not None else 0 for v in vals], dtype="int64")
    if kind in ("float64", "float32"):
        return pd.Series([np.nan if v is None else v / 8 for v in vals], dtype=kind)
    return pd.Series([v if v is None else (v / 8 if kind == "Float64" else v) for v in vals], dtype=kind)


@settings(max_examples=200, deadline=None)
@given(series_with_nulls(), st.sampled_from(OPS), st.booleans(), st.integers(0, 3))
def test_property_reductions(s, op, skipna, min_count):
    kw = {"skipna": skipna}
    if op in ("sum", "prod"):
        kw["min_count"] = min_count
    if op in ("count", "nunique"):
        kw = {}
    expected, perr = _outcome(lambda: pandas_reduce(s, op, **kw))
    got, eerr = _outcome(lambda: reduce(from_pandas(s, np), op, **kw))
    if perr is not None:
        assert eerr is not None, (perr, got)
        return
    assert eerr is None, (eerr, expected)
    same_scalar(got, expected, rtol=1e-6 if s.dtype == "float32" else 1e-9)

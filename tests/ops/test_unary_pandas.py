"""ops.unary against pandas as the oracle, over many dtypes with missing values (pandas' errors included)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from ember.column import from_pandas
from ember.ops.unary import (
    absolute,
    apply_ufunc,
    astype,
    between,
    clip,
    invert,
    isin,
    map_values,
    negate,
    round_,
)


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - the type is compared
            return None, exc


def check(ps, pandas_fn, ember_fn, xp, check_dtype=True):
    """ember_fn(column of ps) == pandas_fn(ps); when pandas raises, ember raises too."""
    expected, perr = _outcome(lambda: pandas_fn(ps))
    got, eerr = _outcome(lambda: ember_fn(from_pandas(ps, xp)))
    if perr is not None:
        assert eerr is not None, f"pandas raised {perr!r}, ember returned {got.to_pandas()!r}"
        assert isinstance(eerr, (type(perr), TypeError, ValueError)), (perr, eerr)
        return
    assert eerr is None, f"ember raised {eerr!r}; pandas gave {expected!r}"
    pd.testing.assert_series_equal(
        got.to_pandas(), expected.reset_index(drop=True), check_names=False, check_dtype=check_dtype
    )


DATA = {
    "int64": pd.Series([3, -7, 0, 12, 5, -1], dtype="int64"),
    "int8": pd.Series([3, -7, 0, 12, 5, -1], dtype="int8"),
    "uint8": pd.Series([3, 7, 0, 12, 5, 1], dtype="uint8"),
    "float64": pd.Series([1.5, np.nan, -2.25, 0.0, np.inf, 3.0]),
    "float32": pd.Series([1.5, np.nan, -2.25, 0.0, 7.0, 3.0], dtype="float32"),
    "bool": pd.Series([True, False, True, False, True, True]),
    "Int64": pd.Series([3, None, 0, -12, 5, 2], dtype="Int64"),
    "Float64": pd.Series([1.5, None, -2.0, 0.0, 4.25, 0.5], dtype="Float64"),
    "boolean": pd.Series([True, None, False, True, None, False], dtype="boolean"),
    "str": pd.Series(["b", "a", None, "", "ab", "é"]),
    "datetime": pd.Series(
        pd.to_datetime(["2020-01-01", None, "2021-06-01", "2020-01-03", "2019-12-31", "2020-02-29"])
    ),
    "timedelta": pd.Series(pd.to_timedelta(["1D", "-3h", None, "1s", "0s", "2D"])),
    "category": pd.Series(pd.Categorical(["a", "b", None, "c", "a", "b"])),
}
NUMERIC = ["int64", "int8", "uint8", "float64", "float32", "bool", "Int64", "Float64", "boolean"]


@pytest.mark.parametrize("name", list(DATA))
def test_negate_invert_abs(name, xp):
    s = DATA[name]
    check(s, lambda p: -p, negate, xp)
    check(s, lambda p: ~p, invert, xp)
    check(s, lambda p: p.abs(), absolute, xp)


@pytest.mark.parametrize("name", NUMERIC)
@pytest.mark.parametrize("decimals", [0, 1, -1])
def test_round(name, decimals, xp):
    s = DATA[name] * 1.2345 if DATA[name].dtype.kind == "f" else DATA[name]
    check(s, lambda p: p.round(decimals), lambda c: round_(c, decimals), xp)


@pytest.mark.parametrize("name", ["int64", "float64", "float32", "Int64", "Float64"])
@pytest.mark.parametrize(
    "bounds", [(0, None), (None, 2), (-1.5, 2.5), (1, 1), (np.nan, 3), (3, 1)], ids=str
)  # (3, 1): reversed bounds, swapped as pandas does
def test_clip(name, bounds, xp):
    lo, hi = bounds
    check(DATA[name], lambda p: p.clip(lo, hi), lambda c: clip(c, lo, hi), xp)


PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


BOOLS = {
    "bool": pd.Series([True, False, True]),
    "boolean": pd.Series([True, None, False], dtype="boolean"),
}


@pytest.mark.parametrize("name", list(BOOLS))
@pytest.mark.parametrize(
    "bounds",
    [
        (0, 1),
        (-1, 5),
        (0.0, 1.0),
        (True, None),
        (None, False),
        (False, True),
        (False, False),
        (2, None),
        (None, 0.5),
    ],
    ids=str,
)
def test_clip_booleans(name, bounds, xp):
    """Booleans stay boolean where pandas' result is (boolean bounds, or none of the values would
    change); where a value would change to a number pandas makes an object column (refused) or, for
    the masked boolean, raises TypeError."""
    s, (lo, hi) = BOOLS[name], bounds
    try:
        want = s.clip(lo, hi)
    except TypeError:
        with pytest.raises(TypeError):
            clip(from_pandas(s, xp), lo, hi)
        return
    if want.dtype == object:
        with pytest.raises(NotImplementedError, match="object column"):
            clip(from_pandas(s, xp), lo, hi)
        return
    check(s, lambda p: p.clip(lo, hi), lambda c: clip(c, lo, hi), xp)


@pytest.mark.parametrize("name", NUMERIC)
@pytest.mark.parametrize(
    "ufunc", [np.sin, np.sqrt, np.exp, np.log1p, np.negative, np.absolute, np.isnan, np.floor]
)
def test_ufunc_unary(name, ufunc, xp):
    s = DATA[name]
    check(s, lambda p: ufunc(p), lambda c: apply_ufunc(ufunc, c), xp)


@pytest.mark.parametrize("pair", [("int64", "float64"), ("Int64", "int64"), ("float32", "float32")], ids=str)
@pytest.mark.parametrize("ufunc", [np.add, np.maximum, np.arctan2, np.hypot])
def test_ufunc_binary(pair, ufunc, xp):
    a, b = DATA[pair[0]], DATA[pair[1]]
    with np.errstate(all="ignore"):
        expected = ufunc(a, b)
    got = apply_ufunc(ufunc, from_pandas(a, xp), from_pandas(b, xp))
    pd.testing.assert_series_equal(got.to_pandas(), expected, check_names=False)
    with np.errstate(all="ignore"):
        expected = ufunc(a, 2)
    got = apply_ufunc(ufunc, from_pandas(a, xp), 2)
    pd.testing.assert_series_equal(got.to_pandas(), expected, check_names=False)


def test_ufunc_two_outputs(xp):
    s = pd.Series([1.5, np.nan, -2.25])
    frac, whole = apply_ufunc(np.modf, from_pandas(s, xp))
    ef, ew = np.modf(s)
    pd.testing.assert_series_equal(frac.to_pandas(), ef, check_names=False)
    pd.testing.assert_series_equal(whole.to_pandas(), ew, check_names=False)


@pytest.mark.parametrize(
    "name,values",
    [
        ("int64", [3, 0, 99]),
        ("int64", [3.0, 2.5]),
        ("int8", [12, 1000]),
        ("float64", [1.5, np.nan]),
        ("float64", [np.inf, 0]),
        ("float32", [1.5, 7]),
        ("bool", [True]),
        ("Int64", [3, None]),
        ("Int64", [0]),
        ("boolean", [False]),
        ("str", ["a", "é", "zz"]),
        ("str", ["a", None]),
        ("str", {"b", ""}),
        ("str", []),
        ("datetime", [pd.Timestamp("2020-01-01"), "2021-06-01"]),
        ("timedelta", [pd.Timedelta("1D"), pd.Timedelta("1s")]),
        ("category", ["a", "zz"]),
        ("category", ["b", None]),
        ("int64", np.array([5, -7])),
        ("int64", pd.Series([0, 12])),
    ],
    ids=lambda v: str(v)[:30],
)
def test_isin(name, values, xp):
    check(DATA[name], lambda p: p.isin(values), lambda c: isin(c, values), xp)


def test_isin_many_strings(xp):
    rng = np.random.default_rng(0)
    words = ["".join(rng.choice(list("abcxyzé"), size=rng.integers(0, 9))) for _ in range(400)]
    s = pd.Series(words)
    values = words[::7] + ["nope", "ééé"]
    check(s, lambda p: p.isin(values), lambda c: isin(c, values), xp)


@pytest.mark.parametrize("name", ["int64", "float64", "Int64", "datetime", "str"])
@pytest.mark.parametrize("inclusive", ["both", "neither", "left", "right"])
def test_between(name, inclusive, xp):
    s = DATA[name]
    lo, hi = {
        "int64": (0, 5), "float64": (-2.25, 1.5), "Int64": (0, 3),
        "datetime": (pd.Timestamp("2020-01-01"), pd.Timestamp("2020-02-29")), "str": ("a", "b"),
    }[name]  # fmt: skip
    check(s, lambda p: p.between(lo, hi, inclusive=inclusive), lambda c: between(c, lo, hi, inclusive), xp)


@pytest.mark.parametrize(
    "name,mapping",
    [
        ("int64", {3: 30, -7: 70, 0: 0, 12: 1, 5: 5, -1: 9}),
        ("int64", {3: 30}),
        ("int64", {3: "x", 0: "y"}),
        ("float64", {1.5: "a", np.nan: "n"}),
        ("str", {"a": 1, "b": 2}),
        ("str", {"a": "A", "é": "E"}),
        ("Int64", {3: 1.5}),
        ("bool", {True: "t", False: "f"}),
    ],
    ids=lambda v: str(v)[:30],
)
def test_map_values(name, mapping, xp):
    if name == "Int64":  # pandas infers the masked result's dtype from the values it meets (3.1: Float64,
        with pytest.raises(NotImplementedError):  # 3.0: float64): ember refuses
            map_values(from_pandas(DATA[name], xp), mapping)
        return
    check(DATA[name], lambda p: p.map(mapping), lambda c: map_values(c, mapping), xp)


CASTS = [
    ("int64", "float64"), ("int64", "int8"), ("int64", "bool"), ("float64", "float32"), ("float32", "float64"),
    ("float64", "int64"), ("bool", "int64"), ("bool", "float64"), ("int64", "Int64"), ("float64", "Int64"),
    ("float64", "Float64"), ("Int64", "float64"), ("Int64", "int64"), ("Int64", "Float64"), ("boolean", "bool"),
    ("boolean", "Int64"), ("bool", "boolean"), ("int64", "str"), ("float64", "str"), ("Int64", "str"),
    ("datetime", "int64"), ("datetime", "datetime64[s]"), ("datetime", "datetime64[ns]"),
    ("datetime", "datetime64[ns, UTC]"), ("timedelta", "int64"), ("timedelta", "timedelta64[s]"),
    ("int64", "category"), ("float64", "category"), ("str", "category"), ("datetime", "category"),
    ("category", "str"), ("str", "string"), ("datetime", "str"), ("int64", "datetime64[s]"),
]  # fmt: skip


@pytest.mark.parametrize("pair", CASTS, ids=lambda p: f"{p[0]}->{p[1]}")
def test_astype(pair, xp):
    name, dtype = pair
    check(DATA[name], lambda p: p.astype(dtype), lambda c: astype(c, dtype), xp)


@pytest.mark.parametrize(
    "values,dtype",
    [
        (["1", "2", None], "float64"),
        (["1", "2"], "int64"),
        (["1", "x"], "int64"),
        (["1", None], "Int64"),
        (["2020-01-01", None], "datetime64[ns]"),
        (["1.5", "-2"], "float32"),
    ],
    ids=str,
)
def test_astype_from_strings(values, dtype, xp):
    check(pd.Series(values), lambda p: p.astype(dtype), lambda c: astype(c, dtype), xp)


def test_astype_errors(xp):
    with pytest.raises(pd.errors.IntCastingNaNError):
        astype(from_pandas(pd.Series([1.5, np.nan]), xp), "int64")
    with pytest.raises(ValueError):
        astype(from_pandas(pd.Series([1, None], dtype="Int64"), xp), "int64")
    with pytest.raises(TypeError):
        astype(from_pandas(pd.Series([1.5]), xp), "Int64")
    with pytest.raises(TypeError):
        astype(from_pandas(DATA["datetime"].dt.tz_localize("UTC"), xp), "datetime64[us]")

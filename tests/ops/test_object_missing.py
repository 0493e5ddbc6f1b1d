"""Object columns holding only missing values (None, NaN, NaT, pd.NA): ember vs pandas, which
computes on the markers as Python objects."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

MARKERS = {"None": None, "nan": np.nan, "NaT": pd.NaT, "NA": pd.NA}
SIZES = [0, 1, 3]


def _objects(marker: object, n: int) -> pd.Series:
    return pd.Series([marker] * n, dtype=object)


def _keys(n: int) -> pd.Series:
    return pd.Series([1] * n)


def _same(ember_fn, pandas_fn, s: pd.Series) -> None:
    """ember's answer equals pandas', or both raise the same error type (ember may refuse)."""
    try:
        expected = pandas_fn(s)
    except Exception as exc:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises((type(exc), NotImplementedError)):
            ember_fn(em.from_pandas(s))
        return
    try:
        got = ember_fn(em.from_pandas(s))
    except NotImplementedError:
        return
    if isinstance(expected, (pd.Series, pd.DataFrame)):
        assert_eq(got, expected)
    elif pd.isna(expected):
        assert pd.isna(got) and type(got) is type(expected), (got, expected)
    else:
        assert got == expected and type(got) is type(expected), (got, expected)


ELEMENTWISE = {
    "add": lambda s: s + 1,
    "radd": lambda s: 1.5 + s,
    "mul": lambda s: s * 2,
    "neg": lambda s: -s,
    "invert": lambda s: ~s,
    "abs": lambda s: s.abs(),
    "round": lambda s: s.round(),
    "eq_self": lambda s: s == s,
    "lt_scalar": lambda s: s < 1,
    "cumsum": lambda s: s.cumsum(),
    "cumprod": lambda s: s.cumprod(),
    "cummin": lambda s: s.cummin(),
    "cummax": lambda s: s.cummax(),
    "diff": lambda s: s.diff(),
    "diff0": lambda s: s.diff(0),
    "frame_diff": lambda s: s.to_frame().diff(),
    "shift": lambda s: s.shift(),
    "isna": lambda s: s.isna(),
    "astype_float": lambda s: s.astype(float),
    "astype_string": lambda s: s.astype("string"),
}


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", ELEMENTWISE)
def test_elementwise(marker: str, n: int, op: str) -> None:
    fn = ELEMENTWISE[op]
    _same(fn, fn, _objects(MARKERS[marker], n))


REDUCTIONS = ["sum", "prod", "mean", "median", "std", "var", "sem", "min", "max", "count", "nunique"]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", REDUCTIONS)
def test_reductions(marker: str, n: int, op: str) -> None:
    _same(lambda s: getattr(s, op)(), lambda s: getattr(s, op)(), _objects(MARKERS[marker], n))


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", ["mean", "std", "prod", "min"])
def test_reductions_skipna_false(marker: str, op: str) -> None:
    fn = lambda s: getattr(s, op)(skipna=False)  # noqa: E731
    _same(fn, fn, _objects(MARKERS[marker], 2))


def test_prod_min_count() -> None:
    _same(lambda s: s.prod(min_count=1), lambda s: s.prod(min_count=1), _objects(None, 2))


GROUPED = ["std", "sem", "mean", "median", "min", "max", "var", "sum", "first", "last", "count", "size"]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", GROUPED)
def test_series_groupby(marker: str, n: int, op: str) -> None:
    s = _objects(MARKERS[marker], n)
    keys = _keys(n)
    _same(
        lambda e: getattr(e.groupby(em.from_pandas(keys)), op)(),
        lambda p: getattr(p.groupby(keys), op)(),
        s,
    )


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", ["std", "mean", "min", "var"])
def test_frame_groupby(marker: str, op: str) -> None:
    s = _objects(MARKERS[marker], 2)
    _same(
        lambda e: getattr(em.DataFrame({"a": e, "k": em.from_pandas(_keys(2))}).groupby("k"), op)(),
        lambda p: getattr(pd.DataFrame({"a": p, "k": _keys(2)}).groupby("k"), op)(),
        s,
    )


@pytest.mark.parametrize("marker", ["NaT", "NA"])
def test_groupby_std_without_groups_still_converts(marker: str) -> None:
    s = _objects(MARKERS[marker], 2)
    keys = pd.Series([np.nan, np.nan])
    _same(lambda e: e.groupby(em.from_pandas(keys)).std(), lambda p: p.groupby(keys).std(), s)


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("other", ["gap", "full"])
def test_add_fill_value(marker: str, other: str) -> None:
    right = pd.Series([1.0], index=[5]) if other == "gap" else pd.Series([1, 2])
    _same(
        lambda e: e.add(em.from_pandas(right), fill_value=2),
        lambda p: p.add(right, fill_value=2),
        _objects(MARKERS[marker], 2),
    )


def test_series_round_of_strings_raises() -> None:
    s = pd.Series(["a", None], dtype=object)
    _same(lambda e: e.round(), lambda p: p.round(), s)


def test_empty_object_ordering_comparison() -> None:
    _same(lambda s: s < 1, lambda s: s < 1, _objects(None, 0))


# --- unary plus ---------------------------------------------------------------------------------------

POSITIVE = {
    "int": pd.Series([1, 2]),
    "float": pd.Series([1.5, np.nan]),
    "bool": pd.Series([True, False]),
    "Int64": pd.Series([1, None], dtype="Int64"),
    "Float64": pd.Series([1.5, None], dtype="Float64"),
    "boolean": pd.Series([True, None], dtype="boolean"),
    "datetime": pd.Series(pd.to_datetime(["2020-01-01", None])),
    "datetime_tz": pd.Series(pd.to_datetime(["2020-01-01", None]).tz_localize("UTC")),
    "timedelta": pd.Series(pd.to_timedelta([1, None], unit="s")),
    "category": pd.Series(["a", "b"], dtype="category"),
    "str": pd.Series(["a", None]),
    "str_empty": pd.Series([], dtype="str"),
    "string": pd.Series(["a", None], dtype="string"),
    "object_strings": pd.Series(["a", None], dtype=object),
    "object_bools": pd.Series([True, np.nan], dtype=object),
    "object_bools_none": pd.Series([True, None], dtype=object),
    "object_empty": pd.Series([], dtype=object),
    **{f"object_{k}": _objects(v, 2) for k, v in MARKERS.items()},
}


@pytest.mark.parametrize("frame", [False, True])
@pytest.mark.parametrize("case", POSITIVE)
def test_unary_plus(case: str, frame: bool) -> None:
    s = POSITIVE[case]
    fn = (lambda x: +x.to_frame()) if frame else (lambda x: +x)
    _same(fn, fn, s)


@pytest.mark.parametrize("frame", [False, True])
def test_unary_plus_is_a_new_object(frame: bool) -> None:
    e = em.from_pandas(pd.Series([1, 2]))
    e = e.to_frame() if frame else e
    out = +e
    assert out is not e
    out.iloc[0] = 9
    assert_eq(e, pd.Series([1, 2]).to_frame() if frame else pd.Series([1, 2]))


# --- concat -------------------------------------------------------------------------------------------

CONCAT_PARTS = {
    **{k: _objects(v, 2) for k, v in MARKERS.items()},
    "objects_none": pd.Series(["a", None], dtype=object),
    "objects": pd.Series(["a", "b"], dtype=object),
    "str": pd.Series(["a", None]),
    "str_full": pd.Series(["x", "y"]),
    "string": pd.Series(["a", None], dtype="string"),
    "empty": pd.Series([], dtype=object),
}


def _same_objects(got: em.Series | em.DataFrame, expected: pd.Series | pd.DataFrame) -> None:
    """assert_eq, and each missing object is pandas' own marker (None stays None)."""
    assert_eq(got, expected)
    got_pd = got.to_pandas()
    pairs = (
        [(got_pd, expected)]
        if isinstance(expected, pd.Series)
        else [(got_pd[k], expected[k]) for k in expected]
    )
    for g, e in pairs:
        assert [type(v) for v in g if pd.isna(v)] == [type(v) for v in e if pd.isna(v)]


def _same_concat(fn, *parts: pd.Series | pd.DataFrame) -> None:
    try:
        expected = fn(pd, *parts)
    except Exception as exc:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises((type(exc), NotImplementedError)):
            fn(em, *[em.from_pandas(p) for p in parts])
        return
    try:
        got = fn(em, *[em.from_pandas(p) for p in parts])
    except NotImplementedError:
        assert _marker_kinds(expected) > 1, "refused a concat whose missing values agree"
        return
    _same_objects(got, expected)


def _marker_kinds(expected: pd.Series | pd.DataFrame) -> int:
    cols = [expected] if isinstance(expected, pd.Series) else [expected[k] for k in expected]
    return max(len({type(v) for v in c if pd.isna(v)}) for c in cols)


@pytest.mark.parametrize("right", CONCAT_PARTS)
@pytest.mark.parametrize("left", CONCAT_PARTS)
def test_concat_series_keeps_markers(left: str, right: str) -> None:
    _same_concat(lambda ns, a, b: ns.concat([a, b]), CONCAT_PARTS[left], CONCAT_PARTS[right])


@pytest.mark.parametrize("marker", MARKERS)
def test_concat_frames_keep_markers(marker: str) -> None:
    a = pd.DataFrame({"a": _objects(MARKERS[marker], 2), "b": [1, 2]})
    strings = pd.DataFrame({"a": ["s", "t"], "b": [3, 4]})
    _same_concat(lambda ns, x: ns.concat([x, x], ignore_index=True), a)
    _same_concat(lambda ns, x, y: ns.concat([x, y]), a, strings)
    _same_concat(lambda ns, x, y: ns.concat([y, x]), a, strings.astype({"a": object}))
    _same_concat(lambda ns, x: ns.concat([x, x], keys=["p", "q"]), a)
    _same_concat(lambda ns, x, y: ns.concat([x, y]), a, pd.DataFrame({"b": [5]}))  # NaN fills "a"


INDEX_PARTS = [
    (["a"], ["b"]),
    ([None], [None]),
    ([None], ["b"]),
    ([np.nan], [np.nan]),
    ([pd.NA], ["x"]),
    ([pd.NA], [pd.NA]),
    ([pd.NaT], [pd.NaT]),
    ([pd.NaT], ["x"]),
    ([], []),
]


@pytest.mark.parametrize(("left", "right"), INDEX_PARTS)
def test_concat_infers_object_index(left: list, right: list) -> None:
    a = pd.Series(range(len(left)), index=pd.Index(left, dtype=object))
    b = pd.Series(range(len(right)), index=pd.Index(right, dtype=object))
    _same_concat(lambda ns, x, y: ns.concat([x, y]), a, b)


# --- quantile / skew / kurt: pandas reads the markers as float64 NaN -----------------------------------

MOMENTS = {
    "skew": lambda x: x.skew(),
    "kurt": lambda x: x.kurt(),
    "skew_keep": lambda x: x.skew(skipna=False),
    "quantile": lambda x: x.quantile(),
    "quantile_list": lambda x: x.quantile([0.25, 0.5]),
    "quantile_lower": lambda x: x.quantile(0.3, interpolation="lower"),
}


@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", MOMENTS)
def test_series_moments_and_quantiles(marker: str, n: int, op: str) -> None:
    _same(MOMENTS[op], MOMENTS[op], _objects(MARKERS[marker], n))


FRAME_MOMENTS = {
    **MOMENTS,
    "skew_rows": lambda x: x.skew(axis=1),
    "kurt_all": lambda x: x.kurt(axis=None),
    "skew_numeric_only": lambda x: x.skew(numeric_only=True),
}


@pytest.mark.parametrize("others", ["none", "floats"])
@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", FRAME_MOMENTS)
def test_frame_moments_and_quantiles(marker: str, n: int, op: str, others: str) -> None:
    df = pd.DataFrame({"a": _objects(MARKERS[marker], n)})
    if others == "floats":
        df["b"] = np.arange(n, dtype=np.float64) ** 2
    _same(FRAME_MOMENTS[op], FRAME_MOMENTS[op], df)


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", ["skew", "quantile"])
def test_groupby_moments_and_quantiles(marker: str, op: str) -> None:
    df = pd.DataFrame({"a": _objects(MARKERS[marker], 4), "k": [1, 1, 2, 2]})
    fn = lambda x: getattr(x.groupby("k")["a"], op)()  # noqa: E731
    _same(fn, fn, df)


# --- set-like, ordering, filling and conversions -------------------------------------------------------


def _cond(n: int) -> pd.Series:
    return pd.Series([True, False, True][:n], dtype=bool)


METHODS = {
    "nunique": lambda s: s.nunique(),
    "nunique_all": lambda s: s.nunique(dropna=False),
    "value_counts": lambda s: s.value_counts(),
    "value_counts_all": lambda s: s.value_counts(dropna=False, normalize=True),
    "drop_duplicates": lambda s: s.drop_duplicates(),
    "duplicated": lambda s: s.duplicated(keep=False),
    "mode": lambda s: s.mode(),
    "mode_all": lambda s: s.mode(dropna=False),
    "sort_values": lambda s: s.sort_values(ascending=False, na_position="first"),
    "isin_none": lambda s: s.isin([None]),
    "isin_nan": lambda s: s.isin([np.nan]),
    "isin_nat": lambda s: s.isin([pd.NaT]),
    "fillna_str": lambda s: s.fillna("x"),
    "fillna_int": lambda s: s.fillna(0),
    "ffill": lambda s: s.ffill(),
    "where": lambda s: s.where(_cond(len(s))),
    "where_all": lambda s: s.where(s.isna()),
    "where_other": lambda s: s.where(_cond(len(s)), "z"),
    "mask": lambda s: s.mask(_cond(len(s))),
    "shift_fill": lambda s: s.shift(1, fill_value="q"),
    "shift0": lambda s: s.shift(0),
    "astype_str": lambda s: s.astype(str),
    "astype_object": lambda s: s.astype(object),
    "astype_category": lambda s: s.astype("category"),
    "astype_Float64": lambda s: s.astype("Float64"),
}


def _same_markers(ember_fn, pandas_fn, s: pd.Series) -> None:
    """_same, and each missing object of an object result is pandas' own marker."""
    _same(ember_fn, pandas_fn, s)
    try:
        expected, got = pandas_fn(s), ember_fn(em.from_pandas(s))
    except Exception:  # noqa: BLE001 - compared by _same
        return
    if isinstance(expected, pd.Series) and expected.dtype == object:
        _same_objects(got, expected)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("op", METHODS)
def test_methods(marker: str, n: int, op: str) -> None:
    _same_markers(METHODS[op], METHODS[op], _objects(MARKERS[marker], n))


@pytest.mark.parametrize("op", ["drop_duplicates", "duplicated", "where_all", "astype_str", "sort_values"])
@pytest.mark.parametrize("marker", MARKERS)
def test_frame_methods(marker: str, op: str) -> None:
    fn = lambda x: METHODS[op](x) if op != "where_all" else x.where(x.isna())  # noqa: E731
    df = pd.DataFrame({"c": _objects(MARKERS[marker], 3)})
    if op == "sort_values":
        fn = lambda x: x.sort_values("c")  # noqa: E731
    _same(fn, fn, df)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("marker", MARKERS)
def test_unique_keeps_the_marker(marker: str, n: int) -> None:
    s = _objects(MARKERS[marker], n)
    expected, got = s.unique(), em.from_pandas(s).unique()
    got = got.to_numpy() if hasattr(got, "to_numpy") else np.asarray(got)
    assert got.dtype == expected.dtype
    assert [type(v) for v in got] == [type(v) for v in expected]


@pytest.mark.parametrize("cond", [[False, True], [True, False], [False, False], [True, True]])
def test_where_of_object_strings_keeps_none(cond: list) -> None:
    s = pd.Series(["a", None], dtype=object)
    fn = lambda x: x.where(pd.Series(cond))  # noqa: E731
    _same_markers(fn, fn, s)


INDEX_POSITIVE = {
    "range": pd.RangeIndex(3, name="r"),
    "int": pd.Index([1, 2], name="x"),
    "float": pd.Index([1.5, np.nan]),
    "bool": pd.Index([True, False]),
    "str": pd.Index(["a", "b"]),
    "datetime": pd.DatetimeIndex(["2020-01-01"]),
    "timedelta": pd.TimedeltaIndex(["1D"]),
    "category": pd.CategoricalIndex(["a"]),
    "empty_object": pd.Index([], dtype=object),
    **{f"object_{k}": pd.Index([v, v], dtype=object) for k, v in MARKERS.items()},
}


@pytest.mark.parametrize("case", INDEX_POSITIVE)
def test_index_unary_plus(case: str) -> None:
    idx = INDEX_POSITIVE[case]
    try:
        expected = +idx
    except TypeError:
        with pytest.raises(TypeError):
            +em.from_pandas(idx)  # noqa: B018 - the operator raises
        return
    assert_eq(+em.from_pandas(idx), expected)

"""merge / join / concat results the differential fuzzer found diverging: key dtypes of time zones
and units, columns named like a key that pandas coerces, keys filled from the other side; ember gives
pandas' result or a clear NotImplementedError."""

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq

HOWS = ["inner", "left", "right", "outer"]


def _same_or_refused(call, *frames, refused_ok=True):
    """pandas' result (or its error), or a NotImplementedError where ``refused_ok``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = call(*frames)
        except (TypeError, ValueError) as err:
            with pytest.raises((type(err), NotImplementedError)):
                call(*(em.from_pandas(f) for f in frames))
            return
        try:
            got = call(*(em.from_pandas(f) for f in frames))
        except NotImplementedError:
            if not refused_ok:
                raise
            return
        assert_eq(got, want)


def _times(dtype, values):
    stamps = pd.Series(pd.to_datetime(values, utc=True, format="ISO8601"))
    return pd.DataFrame({"k": stamps.astype(dtype), "v": range(len(values))})


ZONED_PAIRS = [
    ("datetime64[s, UTC]", "datetime64[ns, UTC]"),
    ("datetime64[ns, UTC]", "datetime64[s, UTC]"),
    ("datetime64[ms, Europe/Berlin]", "datetime64[us, Europe/Berlin]"),
    ("datetime64[ns, UTC]", "datetime64[ns, Europe/Berlin]"),
    ("datetime64[ns, UTC]", "datetime64[s, Europe/Berlin]"),
    ("datetime64[s, UTC]", "datetime64[ns, Europe/Berlin]"),
    ("datetime64[ms, Europe/Berlin]", "datetime64[us, UTC]"),
]
SIDES = {
    "both": (slice(None), slice(None)),
    "left empty": (slice(0, 0), slice(None)),
    "right empty": (slice(None), slice(0, 0)),
    "both empty": (slice(0, 0), slice(0, 0)),
    "no match": (slice(0, 1), slice(1, None)),
}


ZONES_31 = pytest.mark.skipif(
    not PANDAS_31,
    reason="pandas 3.0 keeps the left key's dtype where 3.1 takes the finer unit / the right key",
)


@ZONES_31
@pytest.mark.parametrize("pair", ZONED_PAIRS, ids="|".join)
@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("sides", list(SIDES))
def test_merge_on_zoned_keys_of_other_units_or_zones(pair, how, sides):
    """The shared key: the finer unit within one zone (pandas 3.1), the left dtype across zones;
    a coarser left key filled from finer values of another zone is refused (pandas: objects)."""
    ldt, rdt = pair
    left = _times(ldt, ["2020-01-01 01:00:00.0", "2020-01-02 00:00:00"])
    right = _times(rdt, ["2020-01-01 00:00:00.5", "2020-01-01 01:00:00.0"])
    lrows, rrows = SIDES[sides]
    _same_or_refused(lambda a, b: a.merge(b, on="k", how=how), left[lrows], right[rrows])


@ZONES_31
def test_merge_zoned_keys_never_truncate_the_right_values():
    """The fuzzer's repro: a right-only key of finer unit and another zone is not cut to the left unit."""
    left = pd.DataFrame({"a": pd.Series([2], dtype="UInt8"), "e": pd.Series(["2020-01-01 01:00:00+00:00"])})
    left["e"] = pd.to_datetime(left["e"]).astype("datetime64[s, UTC]")
    right = pd.DataFrame(
        {
            "a": pd.Series([-7], dtype="int8"),
            "d": [2],
            "e": pd.to_datetime(["2020-01-01 01:00:00.500000+01:00"]).astype("datetime64[ns, Europe/Berlin]"),
        }
    )
    with pytest.raises(NotImplementedError):
        em.from_pandas(left).merge(em.from_pandas(right), how="outer", on=["a", "e"])
    for how in ("inner", "left"):
        _same_or_refused(lambda a, b, h=how: a.merge(b, how=h, on=["a", "e"]), left, right, refused_ok=False)


@pytest.mark.parametrize("how", ["left_anti", "right_anti", *HOWS])
def test_merge_coerces_other_sides_categorical_named_like_the_key_to_object(how):
    """pandas turns the right column named like a left key ('a', categorical) to object because the
    right key ('a_k', str) is no categorical: the categorical is decoded to object strings."""
    left = pd.DataFrame({"e": pd.Series([1], dtype="uint64"), "a": pd.Series(["b"], dtype="object")})
    right = pd.DataFrame(
        {
            "a": pd.Categorical(["ç"], categories=["a", "b", "ç"]),
            "e_k": pd.Series([42], dtype="int32"),
            "a_k": pd.Series([" x "], dtype="str"),
        }
    )
    _same_or_refused(
        lambda a, b: a.merge(b, how=how, left_on=["e", "a"], right_on=["e_k", "a_k"], indicator=True),
        left,
        right,
        refused_ok=False,
    )


@pytest.mark.parametrize("missing", [False, True])
def test_merge_categorical_key_column_keeps_categories_dtype(missing):
    """A categorical key beside str keys: pandas turns it into its categories' dtype."""
    values = ["a", None] if missing else ["a", "b"]
    left = pd.DataFrame({"k": pd.Categorical(values, categories=["a", "b"]), "x": [1, 2]})
    right = pd.DataFrame({"k": pd.Series(["a", "c"], dtype="object"), "y": [3, 4]})
    for how in HOWS:
        _same_or_refused(lambda a, b, h=how: a.merge(b, how=h, on="k"), left, right)


RIGHT_KEYS = {
    "float64": pd.Series([0.0, 5.0], dtype="float64"),
    "int64": pd.Series([1, 5], dtype="int64"),
    "Float64": pd.Series([1.0, 5.0], dtype="Float64"),
    "float32 NaN": pd.Series([1.0, np.nan], dtype="float32"),
}


@pytest.mark.parametrize("rkey", list(RIGHT_KEYS))
@pytest.mark.parametrize("how", ["right_anti", "left_anti", *HOWS])
@pytest.mark.parametrize("left_rows", [2, 0])
def test_merge_unnamed_left_key_filled_from_the_right(rkey, how, left_rows):
    """left_on=[0] (no string label): pandas fills the left key column's rows without a left match
    from the right key, and takes the right key as it is (its dtype) where no row has a left match."""
    left = pd.DataFrame({0: pd.Series([5, 10], dtype="UInt8"), 2: pd.Series([2.5, 7.0], dtype="float32")})
    right = pd.DataFrame({"0_k": RIGHT_KEYS[rkey], "b": [1, 2]})
    _same_or_refused(
        lambda a, b: a.merge(b, how=how, left_on=[0], right_on=["0_k"]),
        left.iloc[:left_rows],
        right,
        refused_ok=False,
    )


JOIN_KEYS = {
    "int64": pd.Series([1, 2], dtype="int64"),
    "float64": pd.Series([1.0, np.nan]),
    "Int64": pd.Series([1, None], dtype="Int64"),
    "str": pd.Series(["a", None], dtype="str"),
    "object": pd.Series(["a", "b"], dtype=object),
    "bool": pd.Series([True, False]),
    "datetime": pd.Series(pd.to_datetime(["2020-01-01", None])),
    "timedelta": pd.Series(pd.to_timedelta(["1D", None])),
    "datetime UTC": pd.Series(pd.to_datetime(["2020-01-01", None])).dt.tz_localize("UTC"),
    "category": pd.Series(pd.Categorical(["b", "a"], categories=["b", "a"])),
}


@pytest.mark.parametrize("lkey", list(JOIN_KEYS))
@pytest.mark.parametrize("rkey", list(JOIN_KEYS))
@pytest.mark.parametrize("rows", [(2, 0), (0, 2), (0, 0)])
@pytest.mark.parametrize("how", HOWS)
def test_join_on_beside_an_empty_side(lkey, rkey, rows, how):
    """join(on=) where a side is empty: pandas factorizes keys of other kinds as Python objects (NaT a
    missing value sorted last, a categorical by value), keys of one kind in their own type (NaT first);
    numbers beside strings on two empty sides merge as objects (refused)."""
    left = pd.DataFrame({"k": JOIN_KEYS[lkey], "x": [1.5, 2.5]}).iloc[: rows[0]]
    right = pd.DataFrame({"y": [10, 20]}, index=pd.Index(JOIN_KEYS[rkey], name="rk")).iloc[: rows[1]]
    try:
        _same_or_refused(lambda a, b: a.join(b, on="k", how=how), left, right)
    except AssertionError:
        if lkey == "Int64" or rkey == "Int64":  # pandas' own TypeError on NA (uint / Int64 pairs)
            pytest.xfail("pandas takes the truth of pd.NA")
        raise


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("other_rows", [0, 1])
@pytest.mark.parametrize("level", ["timedelta", "datetime"])
def test_join_multiindex_sorts_nat_last(how, sort, other_rows, level):
    """A MultiIndex join goes by level codes: NaT sorts last (a merge on columns sorts it first)."""
    values = [None, "-1D", "2D"] if level == "timedelta" else [None, "2020-01-02", "2020-01-01"]
    first = pd.to_timedelta(values) if level == "timedelta" else pd.to_datetime(values)
    index = pd.MultiIndex.from_arrays([first, pd.Series([3, 1, 2])], names=["a", "d"])
    left = pd.DataFrame({"x": [1, 2, 3]}, index=index)
    right = pd.DataFrame({"y": [1.0] * other_rows}, index=index[1 : 1 + other_rows])
    for a, b in ((left, right), (right, left)):
        _same_or_refused(lambda p, q: p.join(q, how=how, sort=sort), a, b, refused_ok=False)


RANGES = [
    pd.RangeIndex(34, 28, -3),
    pd.RangeIndex(31, 37, 3),
    pd.RangeIndex(40, 20, -3),
    pd.RangeIndex(22, 40, 3, name="n"),
    pd.RangeIndex(37, 30, -3, name="n"),
    pd.Index([34, 31]),
]


@pytest.mark.parametrize("left", range(len(RANGES)))
@pytest.mark.parametrize("right", range(len(RANGES)))
@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("sort", [False, True])
def test_join_of_ranges_in_two_directions(left, right, how, sort):
    """pandas' RangeIndex intersection: increasing labels, decreasing only where both ranges are."""
    a = pd.DataFrame({"x": range(len(RANGES[left]))}, index=RANGES[left])
    b = pd.DataFrame({"y": range(len(RANGES[right]))}, index=RANGES[right])
    _same_or_refused(lambda p, q: p.join(q, how=how, sort=sort), a, b, refused_ok=False)


CONCAT_INDEXES = {
    "range": pd.RangeIndex(2),
    "int64": pd.Index([0, 1]),
    "int32": pd.Index([0, 1], dtype="int32"),
    "uint64": pd.Index([0, 1], dtype="uint64"),
    "uint8": pd.Index([0, 1], dtype="uint8"),
    "float64": pd.Index([0.0, 1.0]),
    "float32": pd.Index([0.0, 1.0], dtype="float32"),
    "named float64": pd.Index([0.0, 1.0], name="i"),
}


@pytest.mark.parametrize("first", list(CONCAT_INDEXES))
@pytest.mark.parametrize("second", list(CONCAT_INDEXES))
@pytest.mark.parametrize("kw", [{}, {"sort": True}, {"ignore_index": True}, {"join": "inner"}], ids=str)
@pytest.mark.parametrize("extra", [False, True])
def test_concat_columns_of_number_indexes(first, second, kw, extra):
    """concat(axis=1) of a RangeIndex beside another number index: pandas' Index.union (the common
    dtype: float64 beside float32, int64 beside int32 / uint8; object beside uint64, refused), even
    where the labels are equal; plain indexes of equal labels keep the first one."""
    a = pd.DataFrame({"x": [1, 2]}, index=CONCAT_INDEXES[first])
    index = CONCAT_INDEXES[second]
    if extra:
        index = (
            pd.RangeIndex(3)
            if isinstance(index, pd.RangeIndex)
            else index.append(pd.Index([7], dtype=index.dtype))
        )
    b = pd.DataFrame({"y": np.arange(len(index)) + 0.5}, index=index)
    _same_or_refused(
        lambda p, q: (
            pd.concat([p, q], axis=1, **kw)
            if isinstance(p, pd.DataFrame)
            else em.concat([p, q], axis=1, **kw)
        ),
        a,
        b,
    )


@pytest.mark.parametrize("kw", [{}, {"ignore_index": True}], ids=str)
@pytest.mark.parametrize("dtype", ["uint8", "float32", "int64"])
def test_concat_columns_empty_index_beside_empty_range(kw, dtype):
    """An empty number index beside an empty RangeIndex (a Series): pandas' union keeps the other's."""
    frame = pd.DataFrame({"b": pd.Series([], dtype="Float64")}, index=pd.Index([], dtype=dtype, name="e"))
    series = pd.Series([], dtype="float64", name="a")
    for parts in ([frame, series], [series, frame]):
        got = em.concat([em.from_pandas(p) for p in parts], axis=1, **kw)
        assert_eq(got, pd.concat(parts, axis=1, **kw))


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("sort", [False, True])
def test_merge_categorical_key_beside_an_empty_key(how, sort):
    """pandas sorts a categorical key beside an empty key of another dtype by code or by value
    (whether the categorical is monotonic by code): a sorted or outer join is refused."""
    left = pd.DataFrame({"a": pd.Series([], dtype="Int32")})
    right = pd.DataFrame({"d": [1, 2], "a_k": pd.Categorical([None, "x"], categories=["y", "x"])})
    call = lambda p, q: p.merge(q, how=how, left_on="a", right_on="a_k", sort=sort)  # noqa: E731
    if sort or how == "outer":
        with pytest.raises(NotImplementedError):
            call(em.from_pandas(left), em.from_pandas(right))
    else:
        _same_or_refused(call, left, right, refused_ok=False)


DATES = [["2020-12-31"], ["2020-12-31", "NaT"], ["2020-12-31", "2020-12-31"]]
OTHER_DATES = [["NaT", "NaT"], ["NaT", "2020-01-01"], ["2020-01-01", "NaT"], ["NaT"]]


@pytest.mark.parametrize("units", [("us", "ns"), ("ns", "ns")])
@pytest.mark.parametrize("left", range(len(DATES)))
@pytest.mark.parametrize("right", range(len(OTHER_DATES)))
@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("sort", [False, True])
def test_index_join_of_dates_with_nat(units, left, right, how, sort):
    """A sorted index join puts NaT last where both indexes are unique (Index.union) and first where
    one repeats a label (pandas factorizes the ticks)."""
    if not PANDAS_31 and units[0] != units[1]:
        pytest.skip("pandas 3.0 gives a left / right join of two units the common unit (3.1: the side's)")
    a = pd.DataFrame({"x": range(len(DATES[left]))}, index=pd.DatetimeIndex(DATES[left]).as_unit(units[0]))
    b = pd.DataFrame(
        {"y": range(len(OTHER_DATES[right]))}, index=pd.DatetimeIndex(OTHER_DATES[right]).as_unit(units[1])
    )
    _same_or_refused(lambda p, q: p.join(q, how=how, sort=sort), a, b)

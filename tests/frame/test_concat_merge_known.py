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

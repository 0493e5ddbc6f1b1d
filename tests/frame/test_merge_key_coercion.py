"""Merge / join keys of two dtypes with a categorical side: pandas' _maybe_coerce_merge_keys (each
side's column of the key's name to object, a categorical to its categories' dtype) and the key
column it builds, or a clear refusal where ember cannot hold the object values."""

import warnings

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

VALUES = {
    "str": pd.Series(["x", None, "y"], dtype="str"),
    "string": pd.Series(["x", None, "y"], dtype="string"),
    "int": pd.Series([1, 2, 3]),
    "float": pd.Series([1.0, 2.0, None]),
    "bool": pd.Series([True, False, True]),
    "Int64": pd.Series([1, None, 3], dtype="Int64"),
}
HOWS = ["inner", "left", "right", "outer"]


def _same_or_refused(call, *frames):
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
            return  # a clear refusal (pandas makes object keys of numbers)
        assert_eq(got, want)


@pytest.mark.parametrize("categorical", ["left", "right", "both"])
@pytest.mark.parametrize("right_values", list(VALUES))
@pytest.mark.parametrize("left_values", list(VALUES))
def test_merge_on_a_key_with_a_categorical_side(left_values, right_values, categorical):
    lv, rv = VALUES[left_values], VALUES[right_values][:2]
    left = pd.DataFrame({"a": lv.astype("category") if categorical != "right" else lv, "x": range(3)})
    right = pd.DataFrame({"a": rv.astype("category") if categorical != "left" else rv, "y": range(2)})
    for how in HOWS:
        _same_or_refused(lambda p, q, how=how: p.merge(q, on="a", how=how), left, right)
        _same_or_refused(lambda p, q, how=how: p.merge(q, left_on="a", right_on="a", how=how), left, right)


INDEXES = {
    "strings": (pd.CategoricalIndex(["日本"]), pd.CategoricalIndex(["x", "日本"]), pd.Index(["日本"])),
    "numbers": (pd.CategoricalIndex([5.0]), pd.CategoricalIndex([1.0]), pd.Index([1.0])),
}


@pytest.mark.parametrize("categorical", [True, False])
@pytest.mark.parametrize("values", list(VALUES))
def test_join_on_a_column_against_a_categorical_or_other_index(values, categorical):
    key = VALUES[values][:2]
    frame = pd.DataFrame({"a": key.astype("category") if categorical else key})
    kind = "strings" if values in ("str", "string") else "numbers"
    for index in INDEXES[kind]:
        other = pd.DataFrame({"d": [1.5] * len(index)}).set_axis(index)
        for how in HOWS:
            _same_or_refused(lambda p, q, how=how: p.join(q, on="a", how=how), frame, other)
            _same_or_refused(
                lambda p, q, how=how: q.merge(p, right_on="a", left_index=True, how=how), frame, other
            )

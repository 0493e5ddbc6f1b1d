"""concat's names= (with keys) and verify_integrity=, as pandas."""

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _same(fn):
    try:
        want = fn(pd)
    except Exception as exc:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises(type(exc)):
            fn(em)
        return
    assert_eq(fn(em), want)


S1, S2 = ["a", "b"], ["c", "d"]


@pytest.mark.parametrize(
    "fn",
    [
        lambda m: m.concat([m.Series(S1), m.Series(S2)], keys=["s1", "s2"], names=["Series name", "Row ID"]),
        lambda m: m.concat([m.Series(S1), m.Series(S2)], keys=["s1", "s2"], names=["Series name"]),
        lambda m: m.concat(
            [m.Series(S1).rename_axis("r"), m.Series(S2).rename_axis("r")], keys=["s1", "s2"], names=["n"]
        ),
        lambda m: m.concat([m.Series(S1), m.Series(S2)], names=["x"]),
        lambda m: m.concat([m.Series(S1), m.Series(S2)], keys=["s1", "s2"], names=["a", "b", "c"]),
        lambda m: m.concat([m.DataFrame({"a": [1]}), m.DataFrame({"a": [1]})], verify_integrity=True),
        lambda m: m.concat(
            [m.DataFrame({"a": [1]}, index=[5]), m.DataFrame({"a": [1]})], verify_integrity=True
        ),
        lambda m: m.concat(
            [m.DataFrame({"a": [1]}), m.DataFrame({"a": [1]})], ignore_index=True, verify_integrity=True
        ),
        lambda m: m.concat([m.DataFrame({"a": [1]}), m.DataFrame({"b": [1]})], axis=1, verify_integrity=True),
        lambda m: m.concat([m.DataFrame({"a": [1]}), m.DataFrame({"a": [1]})], axis=1, verify_integrity=True),
        lambda m: m.concat([m.Series([1], name="a"), m.DataFrame({"a": [1]})], axis=1, verify_integrity=True),
        lambda m: m.concat([m.Series([1]), m.Series([2])], axis=1, verify_integrity=True),
    ],
)
def test_concat_as_pandas(fn):
    _same(fn)

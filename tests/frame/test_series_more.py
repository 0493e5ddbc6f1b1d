"""Series.argmax / argmin, add_prefix / add_suffix and case_when against pandas."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _same(fn, s):
    """fn on pandas and on ember: equal results (positions as integers), or the same error type
    (ember may refuse with NotImplementedError)."""
    try:
        want = fn(s)
    except Exception as exc:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises((type(exc), NotImplementedError)):
            fn(em.from_pandas(s))
        return
    got = fn(em.from_pandas(s))
    if isinstance(want, pd.Series):
        assert_eq(got, want)
    else:
        assert isinstance(got, (int, np.integer)) and got == want


SERIES = [
    pd.Series([3, 1, 3, np.nan], index=list("abcd")),
    pd.Series([np.nan]),
    pd.Series([], dtype=float),
    pd.Series(["b", "a"]),
    pd.Series([1, None], dtype="Int64"),
    pd.Series(pd.to_datetime(["2020", None])),
    pd.Series([1, 2], index=pd.MultiIndex.from_tuples([("a", 1), ("b", 2)])),
]


@pytest.mark.parametrize("s", SERIES)
@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.argmax(),
        lambda x: x.argmin(),
        lambda x: x.argmax(skipna=False),
        lambda x: x.argmax(axis=1),
        lambda x: x.add_prefix("p_"),
        lambda x: x.add_suffix("_s"),
        lambda x: x.add_prefix("p", axis=1),
    ],
)
def test_positions_and_labels(s, fn):
    _same(fn, s)


C, A, B = pd.Series([6, 7, 8, 9], name="c"), pd.Series([0, 0, 1, 2]), pd.Series([0, 3, 4, 5])


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.case_when([(x > 7, 0.5)]),
        lambda x: x.case_when([(lambda s: s > 7, 100), (x < 7, -1)]),
        lambda x: x.case_when([]),
        lambda x: x.case_when((x > 7, 1)),
        lambda x: x.case_when([(x > 7,)]),
        lambda x: x.astype(float).case_when([(x > 7, 1)]),
    ],
)
def test_case_when(fn):
    _same(fn, C)


def test_case_when_mixing_kinds_refused():
    # pandas' common dtype of ints and a string is object: Python objects, which ember does not hold
    with pytest.raises(NotImplementedError):
        em.from_pandas(C).case_when([(em.from_pandas(C) > 7, "big")])


def test_case_when_with_series():
    want = C.case_when(caselist=[(A.gt(0), A), (B.gt(0), B)])
    a, b = em.from_pandas(A), em.from_pandas(B)
    assert_eq(em.from_pandas(C).case_when(caselist=[(a.gt(0), a), (b.gt(0), b)]), want)


@pytest.mark.parametrize(
    "index",
    [pd.Index(["x", "y", "z"], dtype=object), pd.Index(["x", "y", "z"]), pd.Index([1, 2, 3])],
    ids=str,
)
@pytest.mark.parametrize(
    "fn",
    [
        lambda d: d.idxmax(),
        lambda d: d.idxmin(),
        lambda d: d.groupby("k").idxmax(),
        lambda d: d.groupby("k").d.idxmin(),
        lambda d: d.groupby("k").e.idxmax(),
    ],
)
def test_arg_labels_of_object_strings_infer_str(index, fn):
    """pandas builds idxmax / idxmin results anew from the labels: object strings become 'str'."""
    pdf = pd.DataFrame({"k": [1.0, 1.0, 2.0], "d": [1, 5, 3], "e": [2.0, np.nan, 0]}, index=index)
    assert_eq(fn(em.from_pandas(pdf)), fn(pdf))


def test_value_counts_signature_as_pandas():
    s = pd.Series([1, 2, 2, 3, None])
    # pandas' positional order: normalize, sort, ascending, bins, dropna
    assert_eq(
        em.from_pandas(s).value_counts(True, True, False, None, False),
        s.value_counts(True, True, False, None, False),
    )
    with pytest.raises(NotImplementedError):  # interval labels
        em.from_pandas(s).value_counts(bins=3)

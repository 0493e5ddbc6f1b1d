"""Regressions of reductions, groupby, reshaping, joins and selections that the differential fuzzer
and pandas' docstring examples found: each case compares ember with pandas' own answer (or checks
that ember raises pandas' exception, or NotImplementedError)."""

from __future__ import annotations

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _both(fn, *frames):
    """(pandas' result or exception, ember's result or exception) of ``fn`` on the frames."""
    try:
        p = fn(*frames)
    except Exception as exc:  # noqa: BLE001
        p = exc
    try:
        e = fn(*[em.from_pandas(f) for f in frames])
    except Exception as exc:  # noqa: BLE001
        e = exc
    return p, e


def check(fn, *frames, **kw):
    """ember gives pandas' result, pandas' exception type, or NotImplementedError."""
    p, e = _both(fn, *frames)
    if isinstance(p, Exception):
        assert isinstance(e, (type(p), NotImplementedError)), (p, e)
        return
    if isinstance(e, NotImplementedError):
        return
    if isinstance(e, Exception):
        raise e
    assert_eq(e, p, **kw)


def check_answers(fn, *frames, **kw):
    """ember gives pandas' result (no refusal)."""
    p, e = _both(fn, *frames)
    if isinstance(e, Exception):
        raise e
    assert_eq(e, p, **kw)


# --- merge(how='left_anti' / 'right_anti') -----------------------------------------------------------

_L = pd.DataFrame({"k": [1, 2, 3, 2], "a": [1.0, 2, 3, 4]}, index=[10, 11, 12, 13])
_RIGHTS = [
    pd.DataFrame({"k": [2, 1, 3, 5], "b": [1, 2, 3, 4]}, index=[7, 8, 9, 6]),
    pd.DataFrame({"k": [2, 2, 2, 5], "b": ["x", "y", None, "z"]}),
    pd.DataFrame({"k": pd.Series([], dtype="int64"), "b": pd.Series([], dtype="float32")}),
]


@pytest.mark.parametrize("how", ["left_anti", "right_anti"])
@pytest.mark.parametrize("r", range(len(_RIGHTS)))
@pytest.mark.parametrize(
    "kw",
    [
        {"on": "k"},
        {"on": "k", "sort": True},
        {"on": "k", "indicator": True},
        {"left_index": True, "right_index": True},
        {"left_on": "a", "right_on": "k"},
    ],
)
def test_merge_anti_joins_as_pandas(how, r, kw):
    check_answers(lambda a, b: a.merge(b, how=how, **kw), _L, _RIGHTS[r])

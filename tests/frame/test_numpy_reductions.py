"""NumPy's reductions of a Series (np.sum(s), np.std(s) ...): pandas' results, and pandas' errors
for NumPy keywords other than their defaults."""

import numpy as np
import pandas as pd
import pytest

import ember as em

SERIES = [pd.Series([1.0, 2, np.nan]), pd.Series([3, 1, 2]), pd.Series([1, None, 3], dtype="Int64")]


@pytest.mark.parametrize("s", SERIES)
@pytest.mark.parametrize(
    "fn",
    [
        np.sum,
        np.max,
        np.min,
        np.mean,
        np.std,
        np.var,
        np.prod,
        np.any,
        np.all,
        lambda x: np.sum(x, dtype=float),
        lambda x: x.sum(out=np.zeros(1)),
        lambda x: x.sum(foo=1),
        lambda x: x.max(keepdims=True),
        lambda x: x.std(ddof=0, dtype=None),
        lambda x: x.mean(out=None, keepdims=False),
        lambda x: x.any(out=np.zeros(1)),
    ],
)
def test_numpy_reductions_as_pandas(s, fn):
    try:
        want = fn(s)
    except (ValueError, TypeError) as exc:
        with pytest.raises(type(exc)):
            fn(em.from_pandas(s))
        return
    got = fn(em.from_pandas(s))
    assert got == want or (pd.isna(got) and pd.isna(want))

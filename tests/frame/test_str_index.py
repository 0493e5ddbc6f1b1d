"""Series.str.index / rindex: find with pandas' ValueError for a value that lacks the substring."""

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.mark.parametrize("dtype", ["str", "string", object])
@pytest.mark.parametrize(
    "op",
    [
        lambda x: x.str.index("e"),
        lambda x: x.str.rindex("e"),
        lambda x: x.str.index("e", 2),
        lambda x: x.str.rindex("o", 0, 5),
        lambda x: x.str.index("z"),
        lambda x: x.str.index(1),
    ],
)
def test_index_as_pandas(dtype, op):
    s = pd.Series(["horse", "eagle", "donkey", None], dtype=dtype)
    try:
        want = op(s)
    except (ValueError, TypeError) as exc:
        with pytest.raises(type(exc)):
            op(em.from_pandas(s))
        return
    assert_eq(op(em.from_pandas(s)), want)

"""loc with an Index of labels: the rows' index name as the installed pandas gives it (pandas 3.0:
the key's name; 3.1: the object's)."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

DF = pd.DataFrame([[1, 2], [4, 5]], index=pd.Index(["cobra", "viper"], name="bar"), columns=["a", "b"])
KEYS = [
    pd.Index(["cobra"]),
    pd.Index(["cobra", "viper"], name="foo"),
    pd.Series(["cobra"], name="s"),
    np.array(["cobra"]),
    ["viper"],
]


@pytest.mark.parametrize("key", KEYS, ids=lambda k: type(k).__name__)
@pytest.mark.parametrize(
    "select",
    [lambda o, k: o.loc[k], lambda o, k: o["a"].loc[k], lambda o, k: o.loc[k, "a"]],
    ids=["frame", "series", "cell"],
)
def test_loc_names_rows_as_pandas(key, select):
    ekey = em.from_pandas(key) if isinstance(key, (pd.Index, pd.Series)) else key
    assert_eq(select(em.from_pandas(DF), ekey), select(DF, key))
    assert_eq(select(em.from_pandas(DF), key), select(DF, key))

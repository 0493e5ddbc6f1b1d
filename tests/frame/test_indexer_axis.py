"""``df.loc(axis=...)`` / ``df.iloc(axis=...)``: pandas' callable location indexers."""

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

PDF = pd.DataFrame({"max_speed": [1, 4, 7], "shield": [2, 5, 8]}, index=["cobra", "viper", "sidewinder"])


@pytest.mark.parametrize(
    "select",
    [
        lambda d: d.loc(axis=0)["viper"],
        lambda d: d.loc(axis=1)["shield"],
        lambda d: d.loc(axis="columns")[["shield"]],
        lambda d: d.loc(axis=1)[lambda x: ["shield"]],
        lambda d: d.loc()["viper"],
        lambda d: d.iloc(axis=0)[1],
        lambda d: d.iloc(axis=1)[1],
        lambda d: d.iloc(axis=1)[:1],
    ],
)
def test_select_along_an_axis(select):
    assert_eq(select(em.from_pandas(PDF)), select(PDF))


def test_assign_along_an_axis():
    got, want = em.from_pandas(PDF), PDF.copy()
    for obj in (got, want):
        obj.loc(axis=1)["new"] = 5
        obj.iloc(axis=0)[0] = 0
    assert_eq(got, want)


@pytest.mark.parametrize("obj", [PDF, PDF["shield"]], ids=["frame", "series"])
@pytest.mark.parametrize("axis", [2, "x", 1])
def test_bad_axis_raises_as_pandas(obj, axis):
    if axis == 1 and isinstance(obj, pd.DataFrame):
        return
    with pytest.raises(ValueError, match="No axis named"):
        obj.loc(axis=axis)
    with pytest.raises(ValueError, match="No axis named"):
        em.from_pandas(obj).loc(axis=axis)

"""Groupby results as pandas 3 (dtypes of empty and object-string results, skew) and setitem on data
built with ``copy=False`` (pandas writes through to the user's array; ember refuses)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from packaging.version import Version

import ember as em
from ember.testing import assert_eq


def _refused_on_the_gpu(build, backend):
    """``copy=False`` of a NumPy array is refused on the GPU (the values move to the device)."""
    if backend == "gpu":
        with pytest.raises(NotImplementedError, match="copy=False"):
            build()
        return None
    return build()


def test_setitem_on_copy_false_series_refuses_write_through(backend):
    r = np.array([1, 2])
    s = pd.Series(r, copy=False)
    s.iloc[0] = 999
    assert r[0] == 999  # pandas writes through to the array
    r = np.array([1, 2])
    es = _refused_on_the_gpu(lambda: em.Series(r, copy=False), backend)
    if es is None:
        return
    with pytest.raises(NotImplementedError, match="copy=False"):
        es.iloc[0] = 999
    with pytest.raises(NotImplementedError, match="copy=False"):
        es[0] = 999
    assert r[0] == 1


def test_setitem_on_copy_false_frame_refuses_write_through(backend):
    r = np.array([1, 2])
    df = pd.DataFrame({"a": r, "b": [1.0, 2.0]}, copy=False)
    df.iloc[0, 0] = 999
    assert r[0] == 999
    r = np.array([1, 2])
    edf = _refused_on_the_gpu(lambda: em.DataFrame({"a": r, "b": [1.0, 2.0]}, copy=False), backend)
    if edf is None:
        return
    with pytest.raises(NotImplementedError, match="copy=False"):
        edf.iloc[0, 0] = 999


def test_setitem_after_copy_is_allowed():
    r = np.array([1, 2])
    es = em.Series(r)  # copies, as pandas' default
    es.iloc[0] = 999
    s = pd.Series(r)
    s.iloc[0] = 999
    assert_eq(es, s)
    assert r[0] == 1


def _pd_em(frame: pd.DataFrame) -> tuple[pd.DataFrame, em.DataFrame]:
    return frame, em.DataFrame(frame)


def test_float32_mean_without_rows_keeps_float32():
    pdf, edf = _pd_em(
        pd.DataFrame(
            {
                "e": pd.Series([], dtype="int64"),
                "d": pd.Series([], dtype="int64"),
                "x": pd.Series([], dtype="float32"),
            }
        )
    )
    assert_eq(edf.groupby(["e", "d"]).mean(), pdf.groupby(["e", "d"]).mean())
    assert_eq(edf.groupby("e")["x"].mean(), pdf.groupby("e")["x"].mean())


@pytest.mark.parametrize("op", ["var", "std", "mean", "sem", "median", "skew"])
def test_moments_of_object_column_without_rows(op):
    pdf, edf = _pd_em(pd.DataFrame({"c": [1, 2], "e": pd.Series(["a", "b"], dtype=object)}))
    expected = getattr(pdf.tail(0).groupby(["c"], as_index=False)["e"], op)()
    assert_eq(getattr(edf.tail(0).groupby(["c"], as_index=False)["e"], op)(), expected)
    assert_eq(getattr(edf.tail(0).groupby("c"), op)(), getattr(pdf.tail(0).groupby("c"), op)())


def _skew_frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 300
    x = rng.normal(size=n)
    x[rng.random(n) < 0.1] = np.nan
    k = rng.integers(0, 40, n)
    frame = pd.DataFrame(
        {
            "k": k,
            "x": x,
            "i": rng.integers(0, 10**6, n),
            "f": x.astype("float32"),
            "I": pd.array(rng.integers(0, 10**6, n), dtype="Int64"),
        }
    )
    return frame


@pytest.mark.parametrize("skipna", [True, False])
def test_groupby_skew_matches_pandas(skipna):
    pdf, edf = _pd_em(_skew_frame())
    assert_eq(
        edf.groupby("k").skew(skipna=skipna),
        pdf.groupby("k").skew(skipna=skipna),
        check_exact=False,
        rtol=1e-5,
    )
    assert_eq(
        edf.groupby("k")["x"].skew(skipna=skipna),
        pdf.groupby("k")["x"].skew(skipna=skipna),
        check_exact=False,
    )
    assert_eq(
        edf.groupby("k", as_index=False).skew(),
        pdf.groupby("k", as_index=False).skew(),
        check_exact=False,
        rtol=1e-5,
    )
    assert_eq(edf.groupby("k").agg("skew"), pdf.groupby("k").agg("skew"), check_exact=False, rtol=1e-5)


@pytest.mark.parametrize(
    "values",
    [
        pd.Series(list("abc")),
        pd.Series(list("abc"), dtype=object),
        pd.Series(pd.date_range("2000", periods=3)),
        pd.Series(pd.Categorical(list("abc"))),
    ],
)
def test_groupby_skew_of_non_numbers_raises_as_pandas(values):
    with pytest.raises((TypeError, ValueError)) as expected:
        values.groupby([1, 1, 1]).skew()
    with pytest.raises(type(expected.value)):
        em.Series(values).groupby([1, 1, 1]).skew()


@pytest.mark.xfail(
    Version(pd.__version__) < Version("3.1"),
    reason="pandas 3.0 gives 0.0 for a constant group's skew, 3.1 NaN (ember follows 3.1)",
    strict=True,
)
def test_groupby_skew_of_constant_group_is_nan():
    pdf, edf = _pd_em(pd.DataFrame({"k": [1, 1, 1, 2, 2, 2], "x": [1.5, 1.5, 1.5, 1.0, 2.0, 4.0]}))
    assert_eq(edf.groupby("k")["x"].skew(), pdf.groupby("k")["x"].skew(), check_exact=False)


def test_row_mixing_missing_value_kinds_is_refused_or_kept():
    data = {"a": [None, None], "b": pd.Series([1, None], dtype="Int32")}
    expected = pd.DataFrame(data).iloc[1]
    assert expected.iloc[0] is None and expected.iloc[1] is pd.NA  # pandas keeps each kind
    with pytest.raises(NotImplementedError):
        em.DataFrame(data).iloc[1]


def test_row_with_one_missing_value_kind_matches_pandas():
    data = {"a": [None, None], "b": pd.Series(["x", None], dtype=object)}
    assert_eq(em.DataFrame(data).iloc[1], pd.DataFrame(data).iloc[1])
    data = {"a": [1.5, None], "b": pd.Series([1, None], dtype="Int32")}
    assert_eq(em.DataFrame(data).iloc[1], pd.DataFrame(data).iloc[1])


def _object_strings_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "k": [1, 1, 2, 3, 3],
            "e": pd.Series(["a", None, "b", None, None], dtype=object),
            "n": [1, 2, 3, 4, 5],
        }
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda g: g["e"].min(),
        lambda g: g["e"].max(),
        lambda g: g["e"].first(),
        lambda g: g["e"].last(),
        lambda g: g["e"].agg("min"),
        lambda g: g["e"].agg(["min", "first"]),
        lambda g: g["e"].agg(lo="min", hi="max"),
        lambda g: g.agg({"e": "min", "n": "sum"}),
        lambda g: g.agg({"e": ["max", "last"]}),
        lambda g: g.agg(e=("e", "min")),
        lambda g: g["e"].transform("min"),
        lambda g: g["e"].transform("first"),
        lambda g: g["e"].transform("last"),
        lambda g: g["e"].ffill(),
    ],
)
def test_object_string_results_take_pandas_dtype(call):
    pdf, edf = _pd_em(_object_strings_frame())
    assert_eq(call(edf.groupby("k")), call(pdf.groupby("k")))
    assert_eq(call(edf.groupby("k", sort=False)), call(pdf.groupby("k", sort=False)))


@pytest.mark.xfail(
    Version(pd.__version__) < Version("3.1"),
    reason="pandas 3.0 raises TypeError for a frame's min / max of object strings with a group of "
    "missing values only (3.1 answers, object dtype; ember follows 3.1)",
    strict=True,
    raises=TypeError,
)
@pytest.mark.parametrize("call", [lambda g: g[["e"]].min(), lambda g: g.min(), lambda g: g.agg("max")])
def test_frame_object_string_min_stays_object(call):
    pdf, edf = _pd_em(_object_strings_frame())
    assert_eq(call(edf.groupby("k")), call(pdf.groupby("k")))


def test_object_string_min_as_index_false_and_edge_cases():
    pdf, edf = _pd_em(_object_strings_frame())
    assert_eq(edf.groupby("k", as_index=False)["e"].min(), pdf.groupby("k", as_index=False)["e"].min())
    for values, keys in [([None, None], [1, 2]), ([None, "a"], [1, 1]), ([], pd.Series([], dtype="int64"))]:
        s = pd.Series(values, dtype=object)
        for op in ("min", "max"):
            expected = getattr(s.groupby(keys), op)()
            assert_eq(getattr(em.Series(s).groupby(em.Series(keys) if len(s) == 0 else keys), op)(), expected)
    s = pd.Series(["a", None, "b"], dtype=object)
    assert_eq(em.Series(s).groupby([1, 1, 2]).min(), s.groupby([1, 1, 2]).min())
    frame = pd.DataFrame({"e": pd.Series(["B"], dtype=object), "b": [1]})
    expected = frame.groupby(["b"], sort=False)["e"].transform("first")
    assert_eq(em.DataFrame(frame).groupby(["b"], sort=False)["e"].transform("first"), expected)

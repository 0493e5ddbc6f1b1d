"""DataFrame/Series groupby against pandas: the seed's three spellings, agg layouts, transforms."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.fixture
def pdf():
    rng = np.random.default_rng(3)
    n = 200
    return pd.DataFrame(
        {
            "id": rng.integers(0, 7, n),
            "k": rng.choice(["a", "b", "c", None], n),
            "x": rng.normal(size=n),
            "y": rng.integers(0, 100, n),
            "f": np.where(rng.random(n) < 0.2, np.nan, rng.random(n)),
        }
    )


def test_seed_three_spellings(pdf):
    df = em.from_pandas(pdf)
    num = pdf[["id", "x", "y", "f"]]
    assert_eq(df[["id", "x", "y", "f"]].groupby("id").mean(), num.groupby("id").mean())
    assert_eq(df.groupby("id").x.mean(), pdf.groupby("id").x.mean())
    assert_eq(df.x.groupby(df.id).mean(), pdf.x.groupby(pdf.id).mean())


@pytest.mark.parametrize(
    "op",
    [
        "sum",
        "mean",
        "min",
        "max",
        "count",
        "std",
        "var",
        "median",
        "prod",
        "first",
        "last",
        "nunique",
        "size",
        "sem",
    ],
)
def test_aggregations(pdf, op):
    df = em.from_pandas(pdf)
    cols = ["id", "x", "y", "f"]
    assert_eq(getattr(df[cols].groupby("id"), op)(), getattr(pdf[cols].groupby("id"), op)())


def test_string_keys_dropna_and_sort(pdf):
    df = em.from_pandas(pdf)
    for dropna in (True, False):
        for sort in (True, False):
            got = df.groupby("k", dropna=dropna, sort=sort)[["x", "y"]].sum()
            expected = pdf.groupby("k", dropna=dropna, sort=sort)[["x", "y"]].sum()
            assert_eq(got, expected)


def test_multi_key_and_as_index(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.groupby(["id", "k"]).y.sum(), pdf.groupby(["id", "k"]).y.sum())
    assert_eq(
        df.groupby(["id", "k"], as_index=False).y.sum(), pdf.groupby(["id", "k"], as_index=False).y.sum()
    )
    assert_eq(
        df.groupby("id", as_index=False)[["x", "y"]].mean(),
        pdf.groupby("id", as_index=False)[["x", "y"]].mean(),
    )


def test_agg_forms(pdf):
    df = em.from_pandas(pdf)
    g, pg = df.groupby("id"), pdf.groupby("id")
    assert_eq(g[["x", "y"]].agg("sum"), pg[["x", "y"]].agg("sum"))
    assert_eq(g[["x", "y"]].agg(["sum", "mean"]), pg[["x", "y"]].agg(["sum", "mean"]))
    assert_eq(g.agg({"x": "mean", "y": ["min", "max"]}), pg.agg({"x": "mean", "y": ["min", "max"]}))
    assert_eq(g.agg(total=("y", "sum"), avg=("x", "mean")), pg.agg(total=("y", "sum"), avg=("x", "mean")))
    assert_eq(g.x.agg(["min", "max"]), pg.x.agg(["min", "max"]))


def test_transforms(pdf):
    df = em.from_pandas(pdf)
    g, pg = df.groupby("id"), pdf.groupby("id")
    assert_eq(g.x.transform("mean"), pg.x.transform("mean"))
    assert_eq(g.y.cumsum(), pg.y.cumsum())
    assert_eq(g.cumcount(), pg.cumcount())
    assert_eq(g.x.shift(1), pg.x.shift(1))
    assert_eq(g.f.ffill(), pg.f.ffill())
    assert_eq(g.x.rank(), pg.x.rank())
    assert_eq(g.y.diff(), pg.y.diff())


def test_head_tail_nth_groups(pdf):
    df = em.from_pandas(pdf)
    g, pg = df.groupby("id"), pdf.groupby("id")
    assert_eq(g.head(2), pg.head(2))
    assert_eq(g.tail(1), pg.tail(1))
    assert_eq(g.nth(0), pg.nth(0))
    assert g.ngroups == pg.ngroups
    assert_eq(g.get_group(3), pg.get_group(3))
    assert {k: list(v) for k, v in g.groups.items()} == {k: list(v) for k, v in pg.groups.items()}
    assert [k for k, _ in g] == [k for k, _ in pg]


def test_filter_apply_pipe(pdf):
    df = em.from_pandas(pdf)
    cols = ["id", "x", "y"]
    got = df[cols].groupby("id").filter(lambda d: len(d) > 28)
    expected = pdf[cols].groupby("id").filter(lambda d: len(d) > 28)
    assert_eq(got, expected)
    assert_eq(df.groupby("id").y.pipe(lambda g: g.max()), pdf.groupby("id").y.pipe(lambda g: g.max()))


def test_idxmin_idxmax_and_quantile(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.groupby("id").x.idxmax(), pdf.groupby("id").x.idxmax())
    assert_eq(df.groupby("id").x.quantile(0.25), pdf.groupby("id").x.quantile(0.25))


def test_groupby_errors(pdf):
    df = em.from_pandas(pdf)
    with pytest.raises(KeyError):
        df.groupby("nope")
    with pytest.raises(TypeError):
        df.groupby("id").mean()  # string column 'k', as pandas
    with pytest.raises(ValueError, match="same length"):
        df.groupby(np.arange(3))


def test_transform_on_datetimes():
    ts = pd.date_range("2024-01-01", periods=6, freq="h")
    pdf = pd.DataFrame({"c": [1, 2, 1, 2, 1, 3], "ts": ts})
    df = em.from_pandas(pdf)
    assert_eq(df.groupby("c")["ts"].diff(), pdf.groupby("c")["ts"].diff())
    assert_eq(df.groupby("c")["ts"].shift(), pdf.groupby("c")["ts"].shift())


def test_categorical_keys_observed():
    pdf = pd.DataFrame({"k": pd.Categorical(["a", "b", "a"], categories=["a", "b", "z"]), "v": [1, 2, 3]})
    df = em.from_pandas(pdf)
    assert_eq(df.groupby("k", observed=True).v.sum(), pdf.groupby("k", observed=True).v.sum())
    for op in ("sum", "mean", "count", "max"):
        got = getattr(df.groupby("k", observed=False).v, op)()
        assert_eq(got, getattr(pdf.groupby("k", observed=False).v, op)())
    assert_eq(df.groupby("k", observed=False).size(), pdf.groupby("k", observed=False).size())
    with pytest.raises(NotImplementedError, match="observed=False"):
        df.groupby("k", observed=False, sort=False).v.sum()


MULTI_OBSERVED = pd.DataFrame(
    {
        "c": pd.Categorical(["b", "a", None, "b", "a", "b"], categories=["a", "b", "z"]),
        "d": pd.Categorical(["u", "u", "w", None, "w", "u"], categories=["w", "u"], ordered=True),
        "i": pd.Series([2, 1, 5, None, 1, 2], dtype="Int64"),
        "s": ["x", "y", "x", "x", None, "y"],
        "v": [1.0, 2.0, 3.0, 4.0, np.nan, 6.0],
        "n": [1, 2, 3, 4, 5, 6],
    }
)


@pytest.mark.parametrize("keys", [["c", "i"], ["i", "c"], ["s", "c"], ["c", "d"], ["c", "s", "d"]])
@pytest.mark.parametrize("op", ["sum", "mean", "count", "size", "min", "max", "first"])
def test_observed_false_with_several_keys_is_the_product_of_levels(keys, op):
    """pandas' Cartesian product: every category of a categorical key, every value of another key."""
    pdf = MULTI_OBSERVED
    df = em.from_pandas(pdf)
    if op == "size":
        assert_eq(df.groupby(keys, observed=False).size(), pdf.groupby(keys, observed=False).size())
        return
    got = getattr(df.groupby(keys, observed=False)[["v", "n"]], op)()
    assert_eq(got, getattr(pdf.groupby(keys, observed=False)[["v", "n"]], op)())
    got = getattr(df.groupby(keys, observed=False, as_index=False).v, op)()
    assert_eq(got, getattr(pdf.groupby(keys, observed=False, as_index=False).v, op)())


def test_observed_false_transform_and_ngroups():
    pdf = MULTI_OBSERVED
    df = em.from_pandas(pdf)
    g, pg = df.groupby(["c", "i"], observed=False), pdf.groupby(["c", "i"], observed=False)
    assert g.ngroups == pg.ngroups
    assert_eq(g.v.transform("sum"), pg.v.transform("sum"))
    assert_eq(g.n.cumsum(), pg.n.cumsum())


def test_string_sum_is_refused_with_a_working_hint():
    df = em.DataFrame({"k": [1, 1, 2], "s": ["a", "b", "c"], "v": [1, 2, 3]})
    with pytest.raises(NotImplementedError, match="to_pandas"):
        df.groupby("k").sum()
    pdf = df.to_pandas()
    assert_eq(df.groupby("k").sum(numeric_only=True), pdf.groupby("k").sum(numeric_only=True))


def test_size_dtype_follows_pandas():
    """A frame's group sizes are int64 whatever the keys; a Series' are Int64 when it is nullable."""
    pdf = pd.DataFrame(
        {"i": pd.Series([1, 2, None, 1], dtype="Int64"), "v": pd.array([1, 2, 3, None]), "w": 1.0}
    )
    df = em.from_pandas(pdf)
    for key in ("i", "w"):
        assert_eq(df.groupby(key).size(), pdf.groupby(key).size())
        assert_eq(df.groupby(key).v.size(), pdf.groupby(key).v.size())
        assert_eq(df.groupby(key).w.size(), pdf.groupby(key).w.size())


@pytest.mark.parametrize("dropna", [True, False])
def test_integer_like_keys_read_off_the_direct_map(dropna):
    """One integer-like key in sorted order: the group keys come off the direct map's slot table (no row
    is looked up): nullable ints, bools, uint64 (too wide for the map: sorted), tz-aware datetimes with
    NaT, timedeltas."""
    keys = {
        "i": pd.array([3, None, -2, 3, 7, None, -2, 0], dtype="Int64"),
        "b": pd.array([True, False, True, None, False, True, None, False], dtype="boolean"),
        "u": np.array([2**63 + 5, 7, 2**63 + 5, 9, 7, 7, 9, 2**63 + 5], dtype=np.uint64),
        "t": pd.to_datetime(
            ["2024-01-02", None, "2023-05-01", "2024-01-02", None, "2023-05-01", "2030-01-01", "2024-01-02"]
        ).tz_localize("Europe/Paris"),
        "d": pd.to_timedelta([5, 1, None, 5, 2, 1, 1, None], unit="s"),
    }
    for name, key in keys.items():
        pdf = pd.DataFrame({"k": key, "v": np.arange(8.0)})
        got = em.from_pandas(pdf).groupby("k", dropna=dropna).v.sum().to_pandas()
        exp = pdf.groupby("k", dropna=dropna).v.sum()
        pd.testing.assert_series_equal(got, exp, check_index_type=False, obj=name)


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
def test_groupby_mean_of_datetimes_keeps_the_last_digits(unit):
    """Means of ~1.7e15-us ticks: a plain float64 sum of the ticks lost their last digits (1 us off
    pandas here); the deviations from the smallest tick sum exactly and the mean truncates as pandas'."""
    r = np.random.default_rng(21)
    times = pd.to_datetime("2024-01-01") + pd.to_timedelta(r.integers(0, 50, 50), unit="D")
    pdf = pd.DataFrame({"k": r.integers(0, 2, 50), "t": pd.Series(times).astype(f"datetime64[{unit}]")})
    assert_eq(em.from_pandas(pdf).groupby("k").t.mean(), pdf.groupby("k").t.mean())


APPLY_FRAME = pd.DataFrame({"k": [1, 1, 2], "v": [1.0, 2.0, 3.0], "w": [4, 5, 6]}, index=[10, 11, 12])
APPLIES = {
    "frames stacked under the keys": lambda d: d.groupby("k").apply(lambda g: g.head(1)),
    "series stacked under the keys": lambda d: d.groupby("k").v.apply(lambda s: s * 2),
    "a row per group": lambda d: d.groupby("k")[["v", "w"]].apply(lambda g: g.sum()),
    "a row per group, named": lambda d: d.groupby("k").apply(lambda g: g.describe().loc["mean"]),
    "scalars": lambda d: d.groupby("k").apply(lambda g: g.v.sum()),
    "scalars of a series": lambda d: d.groupby("k").v.apply(lambda s: s.max()),
    "group_keys=False": lambda d: d.groupby("k", group_keys=False).apply(lambda g: g.head(1)),
    "groups without the key column": lambda d: d.groupby("k").apply(lambda g: g.sum()),
}


@pytest.mark.parametrize("case", list(APPLIES))
def test_groupby_apply_combines_as_pandas(case):
    """pandas 3: groups without their grouping columns; scalars -> a Series over the keys; Series of
    one index -> a row per group; frames and a Series' Series -> stacked under a level of keys."""
    call = APPLIES[case]
    assert_eq(call(em.from_pandas(APPLY_FRAME)), call(APPLY_FRAME))


@pytest.mark.parametrize(
    "call",
    [
        lambda d: d.groupby("k").v.pct_change(),
        lambda d: d.groupby("k").w.pct_change(2),
        lambda d: d.groupby("k").pct_change(),
        lambda d: d.groupby("k")[["w"]].pct_change(-1),
    ],
)
def test_groupby_pct_change(call):
    pdf = pd.DataFrame({"k": [1, 1, 2, 1, 2], "v": [1.0, 2.0, 3.0, 0.0, 6.0], "w": [4, 5, 6, 8, 0]})
    assert_eq(call(em.from_pandas(pdf)), call(pdf))

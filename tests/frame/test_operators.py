"""Operators, reductions, missing data and elementwise methods on frames, against pandas."""

import operator

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.fixture
def pdf():
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "x": rng.normal(size=20),
            "y": rng.integers(0, 10, 20),
            "n": pd.array([1, None] * 10, dtype="Int64"),
            "f": np.where(np.arange(20) % 3 == 0, np.nan, np.arange(20.0)),
        }
    )


def test_arithmetic_and_comparison(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.x + df.y, pdf.x + pdf.y)
    assert_eq(df.x * 2 - 1, pdf.x * 2 - 1)
    assert_eq(2**df.y, 2**pdf.y)
    assert_eq(df.y / 3, pdf.y / 3)
    assert_eq(df.y // 3, pdf.y // 3)
    assert_eq(df.n + 1, pdf.n + 1)
    assert_eq((df.x > 0) & (df.y < 5), (pdf.x > 0) & (pdf.y < 5))
    assert_eq(~(df.x > 0), ~(pdf.x > 0))
    assert_eq(-df.x, -pdf.x)
    assert_eq(df * 2, pdf * 2)
    assert_eq(df + df, pdf + pdf)
    assert_eq(df.x.add(df.f, fill_value=0), pdf.x.add(pdf.f, fill_value=0))


def test_alignment_on_index():
    a = pd.Series([1.0, 2.0, 3.0], index=[0, 1, 2])
    b = pd.Series([10.0, 20.0, 30.0], index=[2, 1, 5])
    assert_eq(em.from_pandas(a) + em.from_pandas(b), a + b)


def test_ufuncs_stay_series(pdf):
    df = em.from_pandas(pdf)
    s = np.sin(df.x) ** 2 + np.cos(df.x) ** 2
    assert isinstance(s, em.Series)
    assert_eq(s, np.sin(pdf.x) ** 2 + np.cos(pdf.x) ** 2)
    assert_eq(np.log1p(df.f.abs()), np.log1p(pdf.f.abs()))
    assert_eq(np.sqrt(df[["x", "f"]].abs()), np.sqrt(pdf[["x", "f"]].abs()))


@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "std", "var", "count", "median", "prod", "sem"])
def test_series_reductions(pdf, op):
    df = em.from_pandas(pdf)
    for col in ["x", "y", "n", "f"]:
        got, expected = getattr(df[col], op)(), getattr(pdf[col], op)()
        assert_eq(got, expected)


@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "std", "var", "count", "median"])
def test_frame_reductions(pdf, op):
    df = em.from_pandas(pdf)
    assert_eq(getattr(df, op)(), getattr(pdf, op)())
    assert_eq(getattr(df, op)(axis=1), getattr(pdf, op)(axis=1), check_dtype=False)


def test_seed_mean_calls():
    n = 1000
    rng = np.random.default_rng(1)
    pdf = pd.DataFrame({"x": rng.random(n), "y": rng.integers(0, n, n)})
    df = em.from_pandas(pdf)
    assert_eq(df.x.mean(), pdf.x.mean())
    assert_eq(df.mean(), pdf.mean())


def test_reductions_skipna_and_numeric_only():
    pdf = pd.DataFrame({"a": [1.0, np.nan, 3.0], "s": ["x", "y", "z"]})
    df = em.from_pandas(pdf)
    assert_eq(df.a.sum(skipna=False), pdf.a.sum(skipna=False))
    assert_eq(df.mean(numeric_only=True), pdf.mean(numeric_only=True))
    with pytest.raises(TypeError):
        df.mean()
    assert_eq(df.min(numeric_only=True), pdf.min(numeric_only=True))
    with pytest.raises(NotImplementedError, match="numeric_only"):
        df.min()  # pandas gives an object Series here, which ember cannot hold
    assert_eq(df.nunique(), pdf.nunique())


def test_idx_describe_corr(pdf):
    df = em.from_pandas(pdf)
    assert df.x.idxmax() == pdf.x.idxmax() and df.x.idxmin() == pdf.x.idxmin()
    assert_eq(df[["x", "y", "f"]].describe(), pdf[["x", "y", "f"]].describe())
    assert_eq(df.x.describe(), pdf.x.describe())
    assert_eq(df[["x", "y", "f"]].corr(), pdf[["x", "y", "f"]].corr())
    assert_eq(df[["x", "y", "f"]].cov(), pdf[["x", "y", "f"]].cov())
    assert_eq(df.x.quantile(0.3), pdf.x.quantile(0.3))
    assert_eq(df[["x", "y"]].quantile([0.1, 0.9]), pdf[["x", "y"]].quantile([0.1, 0.9]))


def test_missing_data(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.isna(), pdf.isna())
    assert_eq(df.notna(), pdf.notna())
    assert_eq(df.fillna(0), pdf.fillna(0))
    assert_eq(df.f.fillna(df.x), pdf.f.fillna(pdf.x))
    assert_eq(df.dropna(), pdf.dropna())
    assert_eq(df.dropna(subset=["f"]), pdf.dropna(subset=["f"]))
    assert_eq(df.f.ffill(), pdf.f.ffill())
    assert_eq(df.f.bfill(), pdf.f.bfill())
    assert_eq(df.f.interpolate(), pdf.f.interpolate())
    assert_eq(df.x.where(df.x > 0), pdf.x.where(pdf.x > 0))
    assert_eq(df.x.where(df.x > 0, 0.0), pdf.x.where(pdf.x > 0, 0.0))
    assert_eq(df.x.mask(df.x > 0, -1.0), pdf.x.mask(pdf.x > 0, -1.0))


def test_elementwise_methods(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.x.abs(), pdf.x.abs())
    assert_eq(df.x.round(2), pdf.x.round(2))
    assert_eq(df.x.clip(-0.5, 0.5), pdf.x.clip(-0.5, 0.5))
    assert_eq(df.y.isin([1, 2, 3]), pdf.y.isin([1, 2, 3]))
    assert_eq(df.y.between(2, 5), pdf.y.between(2, 5))
    assert_eq(df.cumsum(), pdf.cumsum())
    assert_eq(df.x.cummax(), pdf.x.cummax())
    assert_eq(df.y.map({1: 10, 2: 20}), pdf.y.map({1: 10, 2: 20}))
    assert_eq(df.x.apply(lambda v: v * 2 + 1), pdf.x.apply(lambda v: v * 2 + 1))
    assert_eq(df.x.map(np.exp), pdf.x.map(np.exp))


def test_non_vectorizable_apply_runs_value_by_value():
    fn = lambda v: v if v > 1 else 0  # noqa: E731 - a branch on each value: not vectorizable
    assert_eq(em.Series([1, 2, 3]).apply(fn), pd.Series([1, 2, 3]).apply(fn))
    with pytest.raises(NotImplementedError, match="vectorizable"):  # a masked column: not by value
        em.Series(pd.array([1, None, 3], dtype="Int64")).apply(fn)


def test_uniques_and_counts():
    ps = pd.Series([3, 1, 3, None, 2, 1, 3])
    s = em.from_pandas(ps)
    assert_eq(s.value_counts(), ps.value_counts())
    assert_eq(s.nunique(), ps.nunique())
    np.testing.assert_array_equal(np.asarray(em.backend.to_host(s.unique())), ps.unique())
    assert_eq(s.drop_duplicates(), ps.drop_duplicates())
    assert_eq(s.duplicated(keep="last"), ps.duplicated(keep="last"))


def test_sorting():
    pdf = pd.DataFrame({"a": [3, 1, 2, 1], "b": [1.0, np.nan, 3.0, 0.5], "s": ["d", "b", "c", "a"]})
    df = em.from_pandas(pdf)
    assert_eq(df.sort_values("a"), pdf.sort_values("a", kind="stable"))
    assert_eq(
        df.sort_values(["a", "b"], ascending=[True, False]),
        pdf.sort_values(["a", "b"], ascending=[True, False]),
    )
    assert_eq(df.sort_values("s"), pdf.sort_values("s"))
    assert_eq(df.b.sort_values(na_position="first"), pdf.b.sort_values(na_position="first"))
    assert_eq(df.sort_values("a").sort_index(), pdf.sort_values("a").sort_index())


def test_fallback_policy():
    # Series.combine of a Python function stands for any pandas call ember lacks natively
    s = em.Series([1.0, 2.0, 4.0])
    other = em.Series([3.0, 1.0, 5.0])

    def bigger(a, b):
        return a if a > b else b

    with pytest.raises(NotImplementedError, match="fallback"):
        s.combine(other, bigger)
    with em.config.set(fallback="pandas"):
        with pytest.warns(UserWarning, match="ran through pandas"):
            value = s.combine(other, bigger)
        skewed = s.skew()
    want = pd.Series([1.0, 2.0, 4.0]).combine(pd.Series([3.0, 1.0, 5.0]), bigger)
    assert_eq(value, want)
    assert skewed == pytest.approx(pd.Series([1.0, 2.0, 4.0]).skew())
    assert em.fallback_report()["Series.combine"] >= 1
    with pytest.raises(AttributeError):
        s.not_a_pandas_method  # noqa: B018 - the attribute access is what raises


def test_rank_nlargest_nsmallest():
    pdf = pd.DataFrame({"a": [3.0, 1.0, np.nan, 3.0, 2.0], "b": [5, 1, 4, 1, 2]})
    df = em.from_pandas(pdf)
    for method in ("average", "min", "max", "first", "dense"):
        assert_eq(df.a.rank(method=method), pdf.a.rank(method=method))
    assert_eq(df.rank(pct=True), pdf.rank(pct=True))
    assert_eq(df.b.nlargest(2), pdf.b.nlargest(2))
    assert_eq(df.b.nsmallest(3, keep="last"), pdf.b.nsmallest(3, keep="last"))
    assert_eq(df.nlargest(2, "b"), pdf.nlargest(2, "b"))
    for keep in ("last", "all"):  # one column: as Series.nlargest
        assert_eq(df.nlargest(2, "b", keep=keep), pdf.nlargest(2, "b", keep=keep))
        assert_eq(df.nsmallest(2, "b", keep=keep), pdf.nsmallest(2, "b", keep=keep))
    with pytest.raises(NotImplementedError, match="several columns"):
        df.nlargest(2, ["b", "a"], keep="all")


def test_axis1_is_refused_not_ignored():
    df = em.DataFrame({"a": [1, 2], "b": [3, 4]})
    with pytest.raises(NotImplementedError, match="axis=1"):  # cumsum / idxmax axis=1 are answered now
        df.sort_values("a", axis=1)


def test_describe_of_strings_is_refused_or_falls_back():
    ps = pd.Series(["a", "b", "a", None])
    s = em.from_pandas(ps)
    with pytest.raises(NotImplementedError, match="describe"):
        s.describe()
    with em.config.set(fallback="pandas"):
        with pytest.warns(UserWarning):
            out = s.describe()
    pd.testing.assert_series_equal(out if isinstance(out, pd.Series) else out.to_pandas(), ps.describe())


def test_describe_of_a_frame_with_dates_is_refused_or_falls_back():
    """pandas describes datetime and timedelta columns beside the numbers (object columns, std last):
    ember refuses rather than leave them out; the numeric columns alone are described as pandas does."""
    pdf = pd.DataFrame(
        {"t": pd.date_range("2024-01-01", periods=4), "x": [1.0, 2.0, 4.0, 8.0], "n": [1, 2, 3, 4]}
    )
    df = em.from_pandas(pdf)
    with pytest.raises(NotImplementedError, match="datetime or timedelta"):
        df.describe()
    with pytest.raises(NotImplementedError, match="datetime or timedelta"):
        em.from_pandas(pdf.assign(t=pdf.t - pdf.t.min())).describe()
    assert_eq(df.select_dtypes("number").describe(), pdf.select_dtypes("number").describe())
    with em.config.set(fallback="pandas"):
        with pytest.warns(UserWarning):
            out = df.describe()
    pd.testing.assert_frame_equal(out if isinstance(out, pd.DataFrame) else out.to_pandas(), pdf.describe())


def test_frame_arithmetic_aligns_rows_and_columns():
    a = pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": [1, 2, 3]}, index=[0, 1, 2])
    b = pd.DataFrame({"x": [10.0, 20.0], "z": [5.0, 6.0]}, index=[2, 5])
    assert_eq(em.from_pandas(a) + em.from_pandas(b), a + b)
    assert_eq(em.from_pandas(b) - em.from_pandas(a), b - a)


def test_named_ops_with_axis():
    pdf = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [4.0, 5.0, 6.0]})
    df = em.from_pandas(pdf)
    assert_eq(df.sub(df.a, axis=0), pdf.sub(pdf.a, axis=0))
    assert_eq(df.div(df.b, axis="index"), pdf.div(pdf.b, axis="index"))
    row = pd.Series({"a": 1.0, "b": 10.0})
    assert_eq(df.mul(em.from_pandas(row)), pdf.mul(row))
    assert_eq(df.add(df, fill_value=0), pdf.add(pdf, fill_value=0))


def test_masked_columns_describe_and_kleene_any_all():
    """describe of a masked column is Float64 with <NA> where a figure is missing (all-missing,
    empty); any / all with skipna=False give pd.NA when missing values leave them undecided."""
    pdf = pd.DataFrame({"ni": pd.array([1, None, 3], dtype="Int64"), "v": [1.0, 2.0, np.nan], "i": [1, 2, 3]})
    for frame in (pdf, pdf.iloc[:0], pdf.assign(ni=pd.array([None] * 3, dtype="Int64"))):
        pd.testing.assert_frame_equal(em.from_pandas(frame).describe().to_pandas(), frame.describe())
        pd.testing.assert_series_equal(
            em.from_pandas(frame)["ni"].describe().to_pandas(), frame["ni"].describe()
        )
    for values in ([1, None], [0, None], [None, None], [1, 2], []):
        s = pd.Series(values, dtype="Int64")
        got = em.from_pandas(s.to_frame("a"))["a"]
        for name in ("any", "all"):
            for skipna in (True, False):
                want = getattr(s, name)(skipna=skipna)
                out = getattr(got, name)(skipna=skipna)
                assert out is pd.NA if want is pd.NA else out == want, (values, name, skipna)


def test_frame_any_all_of_masked_columns_and_min_of_mixed_bools():
    """DataFrame.any / all over a masked column: pandas' masked boolean (pd.NA when skipna=False
    leaves one undecided); min / max of bools beside other numbers (pandas: an object Series of
    each column's own type) are refused, not cast to numbers."""
    pdf = pd.DataFrame({"ni": pd.array([1, None], dtype="Int64"), "b": [True, True], "v": [0.0, 1.0]})
    df = em.from_pandas(pdf)
    for name in ("any", "all"):
        for skipna in (True, False):
            got = getattr(df, name)(skipna=skipna).to_pandas()
            pd.testing.assert_series_equal(got, getattr(pdf, name)(skipna=skipna))
    with pytest.raises(NotImplementedError, match="different kinds"):
        df[["b", "v"]].min()
    pd.testing.assert_series_equal(df[["ni", "v"]].max().to_pandas(), pdf[["ni", "v"]].max())


def test_value_dependent_dtypes_of_where_and_shift():
    """pandas keeps an int column's dtype when where() replaces no row or shift() moves nothing (an
    empty frame, periods=0); filling a string column with a number (pandas: an object column of
    mixed types) is refused."""
    pdf = pd.DataFrame({"i": [1, 2, 3], "b": [True, False, True]})
    df = em.from_pandas(pdf)
    for cond in ([True, True, True], [True, False, True]):
        mask = pd.DataFrame({"i": cond, "b": cond})
        pd.testing.assert_frame_equal(df.where(em.from_pandas(mask)).to_pandas(), pdf.where(mask))
        got = df["i"].where(em.from_pandas(mask)["i"]).to_pandas()
        pd.testing.assert_series_equal(got, pdf["i"].where(mask["i"]))
    for frame in (pdf.iloc[:0], pdf):
        for periods in (0, 1):
            pd.testing.assert_frame_equal(
                em.from_pandas(frame).shift(periods).to_pandas(), frame.shift(periods)
            )
    strings = em.from_pandas(pd.DataFrame({"s": pd.Series(["a", None], dtype=object)}))
    with pytest.raises(NotImplementedError, match="string column"):
        strings.fillna(0)


def test_logical_ops_between_masked_and_integer_columns():
    """pandas' two rules: a masked Int64 with bools takes the ints' bitwise result as a masked
    boolean (2 & True is False); a masked boolean takes NumPy ints by truthiness, with Kleene logic
    (2 & True is True, 0 & NA is False)."""
    cols = {
        "I": pd.Series(pd.array([2, 0, None, 1], dtype="Int64")),
        "b": pd.Series([True, False, False, False]),
        "B": pd.Series(pd.array([True, None, False, True], dtype="boolean")),
        "i": pd.Series([2, 0, 3, 1]),
    }
    for x, y in (("I", "b"), ("b", "I"), ("i", "B"), ("B", "i"), ("B", "b")):
        left, right = em.from_pandas(cols[x].to_frame("a"))["a"], em.from_pandas(cols[y].to_frame("a"))["a"]
        for name in ("__and__", "__or__", "__xor__"):
            got = getattr(left, name)(right).to_pandas()
            pd.testing.assert_series_equal(got, getattr(cols[x], name)(cols[y]), check_names=False)


NATS = {
    "pd.NaT": pd.NaT,
    "datetime64 NaT": np.datetime64("NaT", "us"),
    "timedelta64 NaT": np.timedelta64("NaT", "us"),
}
TEMPORAL = {
    "datetimes": pd.Series(pd.to_datetime(["2024-01-01", None])),
    "timedeltas": pd.Series(pd.to_timedelta([1, None], unit="s")),
    # coarser than the NumPy NaTs' microseconds: the result takes the finer unit
    "second datetimes": pd.Series(pd.to_datetime(["2024-01-01", None])).astype("M8[s]"),
    "second timedeltas": pd.Series(pd.to_timedelta([1, None], unit="s")).astype("m8[s]"),
}
NAT_OPS = {
    "sub": lambda s, o: s - o,
    "add": lambda s, o: s + o,
    "rsub": lambda s, o: o - s,
    "radd": lambda s, o: o + s,
    "eq": lambda s, o: s == o,
    "ne": lambda s, o: s != o,
    "lt": lambda s, o: s < o,
}


@pytest.mark.parametrize("op", list(NAT_OPS))
@pytest.mark.parametrize("nat", list(NATS))
@pytest.mark.parametrize("kind", list(TEMPORAL))
def test_datetime_and_timedelta_with_nat_scalars(kind, nat, op):
    """pandas' kinds for NaT operands: ``datetimes - pd.NaT`` is a timedelta (NaT taken as a datetime),
    ``datetimes + pd.NaT`` a datetime; NumPy NaTs keep their kind; invalid mixes raise TypeError."""
    ps, call, other = TEMPORAL[kind], NAT_OPS[op], NATS[nat]
    try:
        want = call(ps, other)
    except TypeError:
        with pytest.raises(TypeError):
            call(em.from_pandas(ps), other)
        return
    assert_eq(call(em.from_pandas(ps), other), want)


OPERATORS = {
    "//": operator.floordiv,
    "%": operator.mod,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "+": operator.add,
}
DIVISIONS = {
    "ints // masked ints": (pd.Series([5, 7, 0]), pd.Series(pd.array([2, 0, 0], dtype="Int64")), "//"),
    "ints % masked ints": (pd.Series([5, 7, 0]), pd.Series(pd.array([2, 0, 0], dtype="Int64")), "%"),
    "masked // ints": (pd.Series(pd.array([5, 7, 0], dtype="Int64")), pd.Series([2, 0, 0]), "//"),
    "masked % masked": (
        pd.Series(pd.array([5, 7, 0], dtype="Int64")),
        pd.Series(pd.array([2, 0, 0], dtype="Int64")),
        "%",
    ),
    "scalar // masked": (5, pd.Series(pd.array([2, 0, 0], dtype="Int64")), "//"),
    "ints // masked with NA": (pd.Series([5, 7, 0]), pd.Series(pd.array([2, None, 4], dtype="Int64")), "//"),
    "ints % bools": (pd.Series([5, 0, -3]), pd.Series([True, False, True]), "%"),  # x % False is 0
    "ints // bools": (pd.Series([5, 0, -3]), pd.Series([True, False, True]), "//"),  # inf / NaN
    "bools % ints": (pd.Series([True, False, True]), pd.Series([5, 0, -3]), "%"),
    "uint8 % False": (pd.Series([5, 7], dtype="uint8"), False, "%"),
    # a zero divisor beside a missing dividend still makes pandas divide a masked boolean as floats
    "masked bools // masked ints": (
        pd.Series(pd.array([True, False, None, True], dtype="boolean")),
        pd.Series(pd.array([1, 2, 0, 2], dtype="Int64")),
        "//",
    ),
    "masked bools % masked ints": (
        pd.Series(pd.array([True, False, None, True], dtype="boolean")),
        pd.Series(pd.array([1, 2, 0, 2], dtype="Int64")),
        "%",
    ),
}


def _ember(x):
    return em.from_pandas(x) if isinstance(x, pd.Series) else x


@pytest.mark.parametrize("case", list(DIVISIONS))
def test_integer_division_by_masked_zeros_as_pandas(case):
    """A NumPy integer (column or scalar) over a masked integer column divides the NumPy way, with
    pandas' zero fill (x // 0 is inf, x % 0 missing: Float64); a masked dividend gives 0 (Int64)."""
    left, right, op = DIVISIONS[case]
    fn = OPERATORS[op]
    assert_eq(fn(_ember(left), _ember(right)), fn(left, right))


@pytest.mark.parametrize("dtype", ["Int64", "boolean", "Float64"])
@pytest.mark.parametrize("scalar", [None, pd.NA], ids=["None", "NA"])
@pytest.mark.parametrize("op", ["==", "!=", "<", "+"])
def test_masked_columns_with_none_and_na(dtype, scalar, op):
    """pandas: a masked column == None is False where known (!= True), NA where not; other
    operators with None raise TypeError; with pd.NA everything is NA."""
    values = {"Int64": [1, None], "boolean": [True, None], "Float64": [1.5, None]}[dtype]
    ps, fn = pd.Series(pd.array(values, dtype=dtype)), OPERATORS[op]
    try:
        want = fn(ps, scalar)
    except TypeError:
        with pytest.raises(TypeError):
            fn(em.from_pandas(ps), scalar)
        return
    assert_eq(fn(em.from_pandas(ps), scalar), want)


@pytest.mark.parametrize(
    "call",
    [lambda x: x * 2, lambda x: 2 * x, lambda x: x * 0, lambda x: x * -1, lambda x: x * np.int64(3)],
    ids=["times 2", "2 times", "times 0", "times -1", "times numpy 3"],
)
def test_strings_times_an_int_repeat(call):
    ps = pd.Series(["ab", None, "c"])
    assert_eq(call(em.from_pandas(ps)), call(ps))


@pytest.mark.parametrize("other", [True, 1.5], ids=["bool", "float"])
def test_strings_times_a_non_int_raise(other):
    ps = pd.Series(["ab", None])
    with pytest.raises(TypeError):
        ps * other
    with pytest.raises(TypeError):
        em.from_pandas(ps) * other


@pytest.mark.parametrize(
    "ps",
    [
        pd.Series([1.0, np.nan, 1.0, 2.0]),
        pd.Series(["a", None, "a"]),
        pd.Series(pd.Categorical(["x", None])),
        pd.Series(pd.to_datetime(["2024-01-01", None])),
        pd.Series(pd.array([1, None], dtype="Int64")),
        pd.Series([1, 2]),
        pd.Series([], dtype=float),
        pd.Series([np.nan, np.nan]),
    ],
    ids=["floats", "strings", "categorical", "dates", "Int64", "ints", "empty", "all missing"],
)
@pytest.mark.parametrize("dropna", [True, False])
def test_nunique_counts_missing_once_without_dropna(ps, dropna):
    assert em.from_pandas(ps).nunique(dropna=dropna) == ps.nunique(dropna=dropna)
    pdf = ps.to_frame("v")
    assert_eq(em.from_pandas(pdf).nunique(dropna=dropna), pdf.nunique(dropna=dropna))


ISIN_ROUND_WHERE = pd.DataFrame({"a": [1, 2, 3], "s": ["p", "q", None], "f": [1.234, np.nan, -2.567]})


@pytest.mark.parametrize(
    "call",
    [
        lambda d: d.isin({"a": [1, 2], "s": ["p"]}),  # each column its own list; others match nothing
        lambda d: d.isin({"f": [np.nan]}),
        lambda d: d.isin({}),
        lambda d: d.isin([1, "p"]),
        lambda d: d.round({"f": 1}),
        lambda d: d.round(pd.Series({"f": 2, "a": 0})),
        lambda d: d[["a", "f"]].where(d[["a", "f"]] > 1, -d[["a", "f"]]),
        lambda d: d[["a", "f"]].mask(d[["a", "f"]] > 1, d[["a"]]),
    ],
    ids=[
        "isin dict",
        "isin NaN",
        "isin empty dict",
        "isin list",
        "round dict",
        "round Series",
        "where frame",
        "mask frame",
    ],
)
def test_frame_isin_round_where_forms(call):
    assert_eq(call(em.from_pandas(ISIN_ROUND_WHERE)), call(ISIN_ROUND_WHERE))


@pytest.mark.parametrize(
    "ps",
    [
        pd.Series(pd.array([1, None, 1], dtype="Int64")),
        pd.Series(pd.array([True, None], dtype="boolean")),
        pd.Series(pd.array([1.5, None], dtype="Float64")),
        pd.Series([1, 1, 2]),
    ],
    ids=["Int64", "boolean", "Float64", "int64"],
)
@pytest.mark.parametrize("kwargs", [{}, {"dropna": False}, {"normalize": True}])
def test_value_counts_of_masked_columns_are_masked(ps, kwargs):
    """pandas counts a masked column's values as Int64 (proportions as Float64)."""
    assert_eq(em.from_pandas(ps).value_counts(**kwargs), ps.value_counts(**kwargs))

"""pivot, pivot_table, melt, stack/unstack, crosstab, get_dummies against pandas."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember as em
from ember.frame import reshape as R
from ember.frame.crosstab import crosstab
from ember.frame.pivot_table import pivot_table
from ember.testing import assert_eq


def check(got, expected, **kw):
    """The column axis' names too: pandas names it after a pivot's ``columns`` keys."""
    assert_eq(got, expected, **kw)


def check_labels_loose(got, expected, **kw):
    """ember's frame builds column labels with pd.Index(labels): int8 keys come back int64 and
    category keys plain (a frame-layer limit); the labels' values and order are still checked."""
    check(got, expected, check_column_type=False, check_categorical=False, **kw)


@pytest.fixture
def df():
    return pd.DataFrame(
        {
            "a": ["x", "y", "x", "y", "z", None],
            "b": ["p", "p", "q", "q", "p", "q"],
            "k": np.array([3, 1, 3, 1, 2, 2], dtype=np.int8),
            "v": [1, 2, 3, 4, 5, 6],
            "w": [1.0, 2.0, 3.0, np.nan, np.nan, 5.0],
            "s": list("abcdef"),
        }
    )


# --- pivot ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("values", ["v", ["w"], ["v", "w"], None])
def test_pivot_values(df, values):
    d = df.dropna(subset=["a"]).drop(columns=["k"])
    kw = {} if values is None else {"values": values}
    if values is None:
        d = d.drop(columns=["s"])
    check(R.pivot(em.from_pandas(d), index="a", columns="b", **kw), d.pivot(index="a", columns="b", **kw))


def test_pivot_int_keys_and_default_index(df):
    d = df.dropna(subset=["a"])
    check_labels_loose(
        R.pivot(em.from_pandas(d), index="v", columns="k", values="w"),
        d.pivot(index="v", columns="k", values="w"),
    )
    full = pd.DataFrame({"c": ["p", "q", "p", "q"], "v": [1, 2, 3, 4]}, index=[10, 10, 20, 20])
    check(R.pivot(em.from_pandas(full), columns="c", values="v"), full.pivot(columns="c", values="v"))


def test_pivot_no_holes_keeps_int(df):
    d = pd.DataFrame(
        {
            "i": [1, 1, 2, 2],
            "c": ["p", "q", "p", "q"],
            "v": np.array([1, 2, 3, 4], np.int32),
            "f": [True, False, True, True],
        }
    )
    check(R.pivot(em.from_pandas(d), index="i", columns="c"), d.pivot(index="i", columns="c"))


def test_pivot_multiple_column_keys(df):
    d = df.dropna(subset=["a"]).astype({"k": np.int64})  # int8 label levels come back int64 (frame limit)
    check(
        R.pivot(em.from_pandas(d), index="a", columns=["b", "k"], values="w"),
        d.pivot(index="a", columns=["b", "k"], values="w"),
    )


def test_pivot_duplicates_raise(df):
    d = pd.DataFrame({"i": [1, 1], "c": ["p", "p"], "v": [1, 2]})
    with pytest.raises(ValueError, match="duplicate entries"):
        d.pivot(index="i", columns="c", values="v")
    with pytest.raises(ValueError, match="duplicate entries"):
        R.pivot(em.from_pandas(d), index="i", columns="c", values="v")


def test_pivot_strings_and_datetimes():
    d = pd.DataFrame(
        {
            "i": [1, 2, 1],
            "c": ["p", "p", "q"],
            "s": ["u", "v", "w"],
            "t": pd.to_datetime(["2020-01-01", "2021-02-03", "2022-05-06"]),
        }
    )
    check(R.pivot(em.from_pandas(d), index="i", columns="c"), d.pivot(index="i", columns="c"))


# --- pivot_table ---------------------------------------------------------------------------------

PIVOT_TABLE_CASES = [
    dict(index="a", columns="b", values="v"),
    dict(index="a", columns="b", values=["w", "v"], aggfunc=["sum", "mean"]),
    dict(index="a", columns="b", aggfunc="count"),
    dict(index="a", columns="b", values="v", aggfunc="sum", fill_value=0),
    dict(index="a", columns="b", values="w", aggfunc="sum", fill_value=-1),
    dict(index="a", values=["v", "w"]),
    dict(index=["a", "b"], values=["v", "w"]),
    dict(index="a", columns="b", values="v", aggfunc="sum", dropna=False),
    dict(index="a", columns="b", values="w", aggfunc={"w": "max"}),
    dict(index="a", columns="b", values=["v", "w"], aggfunc={"v": "min", "w": ["max", "mean"]}),
    dict(index="b", columns="a", values="w", aggfunc=len),
    dict(index="b", columns="a", values="w", aggfunc="size"),
    dict(index="k", columns=["a", "b"], values="v", aggfunc="median"),
    dict(index=["b", "k"], columns="a", values="w", aggfunc="std"),
    dict(index="b", columns="k", values="s", aggfunc="first"),
    dict(index="b", columns="k", values="s", aggfunc="nunique"),
    dict(index="a", columns="b", values="w", aggfunc=np.sum),
]


@pytest.mark.parametrize("kw", PIVOT_TABLE_CASES, ids=range(len(PIVOT_TABLE_CASES)))
def test_pivot_table(df, kw):
    check_labels_loose(pivot_table(em.from_pandas(df), **kw), df.pivot_table(**kw))


def test_pivot_table_nullable_and_category_keys():
    d = pd.DataFrame(
        {
            "g": pd.array([1, 2, None, 1, 2], dtype="Int64"),
            "c": pd.Categorical(["u", "v", "u", "v", "u"]),
            "x": pd.array([1.5, None, 2.5, 3.0, 4.0], dtype="Float64"),
            "b": pd.array([True, False, None, True, True], dtype="boolean"),
        }
    )
    for kw in [
        dict(index="g", columns="c", values="x", aggfunc="sum"),
        dict(index="c", columns="g", values="x", aggfunc="mean"),
        dict(index="g", values=["x"], aggfunc="max"),
    ]:
        check_labels_loose(
            pivot_table(em.from_pandas(d), observed=True, **kw), d.pivot_table(observed=True, **kw)
        )


def test_pivot_table_empty_frame():
    d = pd.DataFrame(
        {"a": pd.Series([], dtype="str"), "b": pd.Series([], dtype="str"), "v": pd.Series([], dtype=float)}
    )
    got = pivot_table(em.from_pandas(d), index="a", columns="b", values="v")
    assert got.shape == d.pivot_table(index="a", columns="b", values="v").shape


def test_pivot_table_one_row():
    d = pd.DataFrame({"a": ["x"], "b": ["p"], "v": [7]})
    check(
        pivot_table(em.from_pandas(d), index="a", columns="b", values="v", aggfunc="sum"),
        d.pivot_table(index="a", columns="b", values="v", aggfunc="sum"),
    )


def test_pivot_table_unsupported(df):
    e = em.from_pandas(df)
    for kw, word in [
        (dict(margins=True, aggfunc={"v": "sum"}), "margins"),
        (dict(sort=False, margins=True, index=["a", "b"]), "sort"),
        (dict(observed=False), "observed"),
        (dict(aggfunc=lambda x: x.sum()), "aggfunc"),
    ]:
        with pytest.raises(NotImplementedError, match=word):
            pivot_table(e, **{"index": "a", "columns": "b", "values": "v", **kw})
    with pytest.raises(NotImplementedError, match="index"):
        pivot_table(e, columns="b", values="v")


def test_pivot_table_mean_of_strings_raises(df):
    with pytest.raises(TypeError):
        pivot_table(em.from_pandas(df), index="a", columns="b", values="s", aggfunc="mean")


# --- melt ----------------------------------------------------------------------------------------


def test_melt(df):
    e = em.from_pandas(df)
    check(R.melt(e, id_vars=["a"], value_vars=["v", "w"]), df.melt(id_vars=["a"], value_vars=["v", "w"]))
    check(
        R.melt(e, id_vars="a", value_vars="s", var_name="var", value_name="val"),
        df.melt(id_vars="a", value_vars="s", var_name="var", value_name="val"),
    )
    d = df[["a", "w", "b", "s"]]
    check(
        R.melt(em.from_pandas(d), id_vars=["a", "w"], ignore_index=False),
        d.melt(id_vars=["a", "w"], ignore_index=False),
    )
    check(R.melt(em.from_pandas(df[["v", "k"]])), df[["v", "k"]].melt())


def test_melt_int_labels_and_empty():
    d = pd.DataFrame({0: [1.5, np.nan], 1: [2.0, 3.0]})
    check(R.melt(em.from_pandas(d)), d.melt())
    d = pd.DataFrame({"i": pd.Series([], dtype="int64"), "x": pd.Series([], dtype="float64")})
    check(R.melt(em.from_pandas(d), id_vars="i"), d.melt(id_vars="i"))


def test_melt_errors(df):
    e = em.from_pandas(df)
    with pytest.raises(KeyError):
        R.melt(e, id_vars=["nope"])
    with pytest.raises(ValueError, match="value_name"):
        R.melt(e, value_name="a")


# --- stack / unstack -----------------------------------------------------------------------------


def test_stack_flat(df):
    d = df[["v", "w"]]
    check(R.stack(em.from_pandas(d)), d.stack())
    di = df.dropna(subset=["a"]).set_index("a")[["v", "k"]]
    check(R.stack(em.from_pandas(di)), di.stack())
    ds = df.set_index("v")[["a", "s"]]
    check(R.stack(em.from_pandas(ds)), ds.stack())


def test_stack_dropna_argument(df):
    with pytest.raises(ValueError, match="dropna"):
        R.stack(em.from_pandas(df[["v"]]), dropna=True)
    with pytest.raises(IndexError):  # pandas: "Too many levels"
        df[["v"]].stack(level=3)
    with pytest.raises(IndexError):
        R.stack(em.from_pandas(df[["v"]]), level=3)


@pytest.mark.parametrize("level", [-1, 0, "a", "b", [1]])
def test_unstack_series(df, level):
    s = df.dropna(subset=["a"]).set_index(["a", "b"])["v"]
    exp = s.unstack(level=level[0] if isinstance(level, list) else level)
    check(R.unstack(em.from_pandas(s), level=level), exp)


def test_unstack_fill_and_frame(df):
    d = df.dropna(subset=["a"]).set_index(["a", "b"])
    check(R.unstack(em.from_pandas(d["v"]), fill_value=0), d["v"].unstack(fill_value=0))
    check(R.unstack(em.from_pandas(d[["v", "w"]])), d[["v", "w"]].unstack())
    check(R.unstack(em.from_pandas(d[["v", "s"]]), level=0), d[["v", "s"]].unstack(level=0))


def test_unstack_three_levels(df):
    s = df.dropna(subset=["a"]).set_index(["a", "b", "k"])["w"]
    check_labels_loose(R.unstack(em.from_pandas(s)), s.unstack())
    check(R.unstack(em.from_pandas(s), level=1), s.unstack(level=1))


def test_unstack_duplicates_and_errors():
    s = pd.Series([1, 2], index=pd.MultiIndex.from_arrays([[1, 1], ["a", "a"]]))
    with pytest.raises(ValueError, match="duplicate entries"):
        R.unstack(em.from_pandas(s))
    with pytest.raises(ValueError, match="must be a MultiIndex"):  # pandas' error
        R.unstack(em.from_pandas(pd.Series([1, 2])))


def test_stack_unstack_round_trip(df):
    u = df.dropna(subset=["a"]).set_index(["a", "b"])[["v", "w"]].unstack()
    exp = u.stack()
    check(R.stack(em.from_pandas(u)), exp)


# --- crosstab ------------------------------------------------------------------------------------


def test_crosstab(df):
    e = em.from_pandas(df)
    check(crosstab(e["a"], e["b"]), pd.crosstab(df.a, df.b))
    check(crosstab(e["k"], [e["a"], e["b"]]), pd.crosstab(df.k, [df.a, df.b]))
    check(crosstab([e["b"], e["k"]], e["a"]), pd.crosstab([df.b, df.k], df.a))
    check(
        crosstab(e["a"], e["b"], values=e["v"], aggfunc="sum"),
        pd.crosstab(df.a, df.b, values=df.v, aggfunc="sum"),
    )


@pytest.mark.parametrize("normalize", [True, "all", "index", "columns"])
def test_crosstab_normalize(df, normalize):
    e = em.from_pandas(df)
    check(crosstab(e["a"], e["b"], normalize=normalize), pd.crosstab(df.a, df.b, normalize=normalize))


def test_crosstab_errors(df):
    e = em.from_pandas(df)
    with pytest.raises(ValueError):
        crosstab(e["a"], e["b"], values=e["v"])
    with pytest.raises(NotImplementedError, match="margins"):
        crosstab(e["a"], e["b"], values=e["v"], aggfunc="sum", margins=True, normalize=True)


# --- get_dummies ---------------------------------------------------------------------------------


def test_get_dummies_frame(df):
    d = df[["a", "v", "b"]]
    e = em.from_pandas(d)
    check(R.get_dummies(e), pd.get_dummies(d))
    check(
        R.get_dummies(e, prefix=["A", "B"], prefix_sep="-"),
        pd.get_dummies(d, prefix=["A", "B"], prefix_sep="-"),
    )
    check(R.get_dummies(e, prefix={"a": "aa", "b": "bb"}), pd.get_dummies(d, prefix={"a": "aa", "b": "bb"}))
    check(R.get_dummies(e, columns=["v"]), pd.get_dummies(d, columns=["v"]))
    check(R.get_dummies(e, dummy_na=True, drop_first=True), pd.get_dummies(d, dummy_na=True, drop_first=True))


@pytest.mark.parametrize("dtype", [None, np.int8, np.uint8, np.float32, float, bool])
def test_get_dummies_series(df, dtype):
    for s in [
        df["a"],
        df["k"],
        df["w"],
        pd.Series(pd.Categorical(["b", None, "a"], categories=["c", "b", "a"])),
    ]:
        check_labels_loose(R.get_dummies(em.from_pandas(s), dtype=dtype), pd.get_dummies(s, dtype=dtype))
        check(
            R.get_dummies(em.from_pandas(s), prefix="p", dummy_na=True, dtype=dtype),
            pd.get_dummies(s, prefix="p", dummy_na=True, dtype=dtype),
        )


def test_get_dummies_empty_and_errors():
    s = pd.Series([], dtype="str")
    check(R.get_dummies(em.from_pandas(s)), pd.get_dummies(s))
    with pytest.raises(NotImplementedError, match="dtype"):
        R.get_dummies(em.from_pandas(pd.Series(["a"])), dtype="Int64")
    with pytest.raises(ValueError, match="prefix"):
        R.get_dummies(em.from_pandas(pd.DataFrame({"a": ["x"], "b": ["y"]})), prefix=["p"])


# --- properties ----------------------------------------------------------------------------------

keys = st.lists(st.sampled_from(["a", "b", "c", None]), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(keys, st.data())
def test_pivot_table_property(rows, data):
    n = len(rows)
    cols = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    vals = data.draw(st.lists(st.one_of(st.none(), st.floats(-100, 100)), min_size=n, max_size=n))
    d = pd.DataFrame({"r": rows, "c": cols, "v": pd.Series(vals, dtype=float)})
    for agg in ["sum", "mean", "count", "max"]:
        exp = d.pivot_table(index="r", columns="c", values="v", aggfunc=agg)
        check(
            pivot_table(em.from_pandas(d), index="r", columns="c", values="v", aggfunc=agg),
            exp,
            check_index_type=False,
            check_column_type=False,
        )
    check(
        crosstab(em.from_pandas(d["r"]), em.from_pandas(d["c"])),
        pd.crosstab(d.r, d.c),
        check_index_type=False,
        check_column_type=False,
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=25, unique=True), st.data())
def test_unstack_property(pairs, data):
    if not pairs:
        return
    vals = data.draw(st.lists(st.integers(-5, 5), min_size=len(pairs), max_size=len(pairs)))
    idx = pd.MultiIndex.from_tuples(pairs, names=["i", "j"])
    s = pd.Series(np.array(vals, dtype=np.int64), index=idx)
    check(R.unstack(em.from_pandas(s)), s.unstack(), check_column_type=False)
    check(
        R.unstack(em.from_pandas(s), level=0, fill_value=0),
        s.unstack(level=0, fill_value=0),
        check_column_type=False,
    )


@pytest.mark.parametrize("aggfunc", ["sum", "mean", "count", "max"])
@pytest.mark.parametrize("value", ["v", "w"])
def test_pivot_table_margins(df, aggfunc, value):
    got = pivot_table(em.from_pandas(df), index="a", columns="b", values=value, aggfunc=aggfunc, margins=True)
    expected = df.pivot_table(index="a", columns="b", values=value, aggfunc=aggfunc, margins=True)
    check(got, expected)


def test_pivot_table_margins_needs_string_keys(df):
    with pytest.raises(NotImplementedError, match="non-string index keys"):
        pivot_table(em.from_pandas(df), index="k", columns="b", values="v", margins=True)


MARGINS_FRAME = pd.DataFrame(
    {
        "r": ["a", "b", "a", "b", "a", "c"],
        "r2": ["x", "x", "y", "y", "x", "y"],
        "c": ["p", "q", "p", "q", "q", "p"],
        "c2": ["m", "m", "n", "n", "m", "m"],
        "k": [1, 2, 1, 2, 2, 1],
        "v": [1.0, 2.0, 3.0, 4.0, 5.0, np.nan],
        "w": [10, 20, 30, 40, 50, 60],
    }
)


@pytest.mark.parametrize(
    "kw",
    [
        dict(values=["v", "w"], index="r", columns="c", aggfunc="sum"),
        dict(values="v", index=["r", "r2"], columns=["c", "c2"], aggfunc="mean"),
        dict(values="v", index="r", columns="c", aggfunc=["sum", "mean"]),
        dict(values=["v", "w"], index="r", columns="c", aggfunc=["max", "count"]),
        dict(values="w", index="r", aggfunc="sum"),
        dict(values=["v", "w"], index=["r", "r2"], aggfunc="mean"),
        dict(values="w", index="r", columns="k", aggfunc="sum"),  # integer column keys
        dict(values="v", index="r", columns="c", aggfunc="sum", dropna=False),
        dict(index="r", columns="c", aggfunc="max"),  # every other column is a value
    ],
    ids=str,
)
def test_pivot_table_margins_general(kw):
    """Several values, keys and functions: an All column after each block, an All row at the bottom."""
    df = MARGINS_FRAME if "values" in kw else MARGINS_FRAME[["r", "c", "v", "w"]]
    got = pivot_table(em.from_pandas(df), margins=True, **kw)
    expected = df.pivot_table(margins=True, **kw)
    check_labels_loose(got, expected)


def test_crosstab_margins(df):
    e = em.from_pandas(df)
    expected = pd.crosstab(df["a"], df["b"], margins=True)
    check(crosstab(e["a"], e["b"], margins=True), expected)
    expected = pd.crosstab(df["a"], df["b"], values=df["v"], aggfunc="sum", margins=True)
    check(crosstab(e["a"], e["b"], values=e["v"], aggfunc="sum", margins=True), expected)


@pytest.mark.parametrize(
    "rows,cols,agg",
    [(["r", "r2"], ["c"], None), (["r"], ["c", "c2"], None), (["r", "r2"], ["c", "c2"], "sum")],
    ids=str,
)
def test_crosstab_margins_several_keys(rows, cols, agg):
    df = MARGINS_FRAME
    e = em.from_pandas(df)
    extra = {} if agg is None else {"values": df["w"], "aggfunc": agg}
    expected = pd.crosstab([df[k] for k in rows], [df[k] for k in cols], margins=True, **extra)
    extra = {} if agg is None else {"values": e["w"], "aggfunc": agg}
    check_labels_loose(crosstab([e[k] for k in rows], [e[k] for k in cols], margins=True, **extra), expected)


def test_the_column_axis_name_travels_as_in_pandas(df):
    """A pivot's column axis is named after its ``columns`` key; row selections, column selections,
    arithmetic, a round trip through pandas and pickling keep the name; new labels drop it."""
    import pickle

    p = df.pivot_table(index="a", columns="b", values="v", aggfunc="sum")
    e = pivot_table(em.from_pandas(df), index="a", columns="b", values="v", aggfunc="sum")
    assert e.columns.name == p.columns.name == "b"
    for step in (lambda t: t.head(1), lambda t: t[["q"]], lambda t: t * 2, lambda t: t.sort_values("p")):
        check(step(e), step(p))
    assert em.from_pandas(p).columns.name == "b"
    assert pickle.loads(pickle.dumps(e)).columns.name == "b"
    e.columns = ["x1", "x2"]
    assert e.columns.name is None
    e.columns = pd.Index(["y1", "y2"], name="named")
    assert e.to_pandas().columns.name == "named"


@pytest.mark.parametrize(
    "kw",
    [
        dict(index="a", columns="b", values="v", aggfunc="sum"),
        dict(index="a", values="v", aggfunc="sum"),
        dict(index=["a", "c"], columns="b", values=["w", "v"], aggfunc="mean"),
        dict(index="a", columns=["b", "c"], values="v", aggfunc="max"),
        dict(index="b", columns="a", values="w", aggfunc=["sum", "count"]),
        dict(index="a", values=["w", "v"]),
        dict(index="a", columns="b", aggfunc={"w": "sum", "v": ["max", "min"]}),
    ],
    ids=str,
)
def test_pivot_table_unsorted(kw):
    """sort=False: rows, columns and values in order of first appearance (or as given), as pandas."""
    df = pd.DataFrame(
        {
            "a": ["y", "x", "y", "z", "x"],
            "b": ["q", "p", "p", "q", "r"],
            "c": [2, 1, 2, 1, 1],
            "v": [1, 2, 3, 4, 5],
            "w": [1.0, 2.0, 3.0, 4.0, np.nan],
        }
    )
    check(pivot_table(em.from_pandas(df), sort=False, **kw), df.pivot_table(sort=False, **kw))


@pytest.mark.parametrize("seed", range(6))
def test_pivot_table_unsorted_after_dropna_and_with_margins(seed):
    """sort=False where dropna drops all-missing groups: pandas orders a key by its first appearance
    in the whole frame while all its values survive, else among the surviving groups (its unstack
    after remove_unused_levels); margins=True with sort=False (single keys) as pandas."""
    r = np.random.default_rng(seed)
    for trial in range(25):
        m = int(r.integers(1, 40))
        df = pd.DataFrame(
            {
                "a": r.choice(["x", "y", "z", "w"], m),
                "b": r.choice(["p", "q"], m),
                "c": r.integers(0, 5, m),
                "v": r.random(m).round(2),
            }
        )
        df.loc[df.index[:: int(r.integers(2, 5))], "v"] = np.nan
        index, columns = [("a", "c"), ("c", "a"), (["a", "b"], "c"), ("a", None)][trial % 4]
        kw = dict(index=index, columns=columns, values="v", aggfunc=["mean", "sum", "count"][trial % 3])
        kw["margins"] = not isinstance(index, list) and bool(trial % 2)
        if kw["margins"] and not isinstance(index, str) or (kw["margins"] and index == "c"):
            kw["margins"] = False  # the All label beside int row keys: refused (ember columns hold one type)
        expected = df.pivot_table(sort=False, **kw)
        if expected.empty:  # every value missing: the empty frame's column type differs (not this test's)
            continue
        check(pivot_table(em.from_pandas(df), sort=False, **kw), expected)


def test_unstack_unsorted():
    """sort=False: the new columns and the remaining index in order of first appearance."""
    idx = pd.MultiIndex.from_tuples([("y", "q"), ("x", "p"), ("y", "p"), ("z", "r")], names=["i", "j"])
    s = pd.Series([1, 2, 3, 4], index=idx)
    df = s.to_frame("v").assign(w=[1.0, 2.0, 3.0, 4.0])
    for level in (-1, 0):
        check(R.unstack(em.from_pandas(s), level=level, sort=False), s.unstack(level=level, sort=False))
    check(R.unstack(em.from_pandas(df), sort=False), df.unstack(sort=False))


@pytest.mark.parametrize("margins", [False, True])
@pytest.mark.parametrize("normalize", [True, "all", "index", "columns", 0, 1])
def test_crosstab_normalize_with_and_without_margins(margins, normalize):
    """normalize=1 is 'columns' (it equals True in Python); with margins the All row / column are
    normalized too ('index' drops the All column, 'columns' the All row), as pandas."""
    a = pd.Series(["x", "y", "x", "x", "z"], name="a")
    b = pd.Series(["p", "q", "q", "p", "p"], name="b")
    c = pd.Series(["1", "1", "2", "2", "1"], name="c")
    ea, eb, ec = em.from_pandas(a), em.from_pandas(b), em.from_pandas(c)
    for rows, cols, erows, ecols in ((a, b, ea, eb), ([a, c], b, [ea, ec], eb), (a, [b, c], ea, [eb, ec])):
        got = crosstab(erows, ecols, margins=margins, normalize=normalize)
        check(got, pd.crosstab(rows, cols, margins=margins, normalize=normalize))
    with pytest.raises(ValueError, match="normalize"):
        crosstab(ea, eb, normalize="rows")


PIVOT_VALUES = pd.DataFrame(
    {
        "k": ["a", "a", "b", "b"],
        "c": ["x", "y", "x", "y"],
        "i": [1, 2, 3, 4],
        "u": np.array([1, 2, 3, 4], dtype="int32"),
        "f": [1.5, 2.5, 3.5, 4.5],
        "f4": np.array([1, 2, 3, 4], dtype="float32"),
        "b": [True, False, True, True],
        "b2": [False] * 4,
        "s": list("pqrs"),
        "t": list("wxyz"),
        "I": pd.array([1, 2, 3, 4], dtype="Int64"),
        "J": pd.array([1, None, 3, 4], dtype="Int64"),
        "F": pd.array([1.5, 2, 3, 4], dtype="Float64"),
    }
)


@pytest.mark.parametrize(
    "values",
    [["i", "f"], ["i", "u"], ["u", "f4"], ["i", "f4"], ["b", "b2"], ["s", "t"], ["i"], ["I"], ["J"], ["F"]],
    ids=str,
)
@pytest.mark.parametrize("rows", [4, 3], ids=["full", "with holes"])
def test_pivot_list_of_values_as_one_array(values, rows):
    """A list of values pivots as pandas' one 2-D array: ints and floats -> float64, one masked
    column -> its NumPy type (float64 with NaN where missing)."""
    df = PIVOT_VALUES.iloc[:rows]
    want = df.pivot(index="k", columns="c", values=values)
    assert_eq(em.from_pandas(df).pivot(index="k", columns="c", values=values), want)


@pytest.mark.parametrize("values", [["i", "b"], ["I", "J"], ["i", "s"], ["I", "i"]], ids=str)
def test_pivot_values_pandas_makes_object_refused(values):
    df = PIVOT_VALUES
    assert (df.pivot(index="k", columns="c", values=values).dtypes == object).any()
    with pytest.raises(NotImplementedError, match="object"):
        em.from_pandas(df).pivot(index="k", columns="c", values=values)

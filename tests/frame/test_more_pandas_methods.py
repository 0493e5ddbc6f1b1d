"""sample (the rows pandas picks for the same random_state), pipe, set_axis, groupby ngroup, mode,
against pandas."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.fixture
def pdf():
    r = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "a": np.arange(20),
            "w": np.r_[np.zeros(10), np.arange(1, 11.0)],
            "k": r.choice([1.0, 2.0, np.nan], 20),
        },
        index=np.arange(20) * 3,
    )


SAMPLES = [
    {"n": 5, "random_state": 1},
    {"frac": 0.5, "random_state": 7},
    {"frac": 1.5, "replace": True, "random_state": 2},
    {"n": 4, "weights": "w", "random_state": 3},
    {"n": 4, "weights": list(np.arange(20.0)), "random_state": 3},
    {"n": 3, "random_state": 9, "ignore_index": True},
    {"n": 0, "random_state": 1},
    {"random_state": 11},  # one row by default
]


@pytest.mark.parametrize("kwargs", SAMPLES, ids=[str(i) for i in range(len(SAMPLES))])
def test_sample_picks_pandas_rows(pdf, kwargs):
    assert_eq(em.from_pandas(pdf).sample(**kwargs), pdf.sample(**kwargs))
    series_kwargs = {k: v for k, v in kwargs.items() if k != "weights"}
    assert_eq(em.from_pandas(pdf).a.sample(**series_kwargs), pdf.a.sample(**series_kwargs))


def test_sample_with_a_random_state_object(pdf):
    got = em.from_pandas(pdf).sample(n=3, random_state=np.random.RandomState(5))
    assert_eq(got, pdf.sample(n=3, random_state=np.random.RandomState(5)))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": 2, "frac": 0.1},
        {"n": -1},
        {"n": 1.5},
        {"frac": 2.0},
        {"frac": -0.1},
        {"n": 2, "weights": [1.0] * 3},
        {"n": 12, "weights": "w"},  # only 10 rows weigh anything
        {"n": 2, "weights": "nope"},
        {"n": 2, "weights": [-1.0] + [1.0] * 19},
        {"n": 2, "weights": [np.inf] + [1.0] * 19},
        {"n": 2, "weights": [0.0] * 20},
        {"n": 2, "random_state": "seed"},
    ],
)
def test_sample_bad_arguments_raise_as_pandas(pdf, kwargs):
    with pytest.raises((ValueError, KeyError)) as expected:
        pdf.sample(**kwargs)
    with pytest.raises(expected.type):
        em.from_pandas(pdf).sample(**kwargs)


def test_pipe(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.pipe(lambda d, k: d.a * k, 2), pdf.pipe(lambda d, k: d.a * k, 2))
    assert_eq(df.a.pipe(lambda s, k=1: s + k, k=3), pdf.a.pipe(lambda s, k=1: s + k, k=3))

    def scaled(factor, data):
        return data[["a"]] * factor

    assert_eq(df.pipe((scaled, "data"), 2), pdf.pipe((scaled, "data"), 2))
    with pytest.raises(ValueError, match="both the pipe target"):
        df.pipe((scaled, "data"), 2, data=1)


def test_set_axis(pdf):
    df = em.from_pandas(pdf)
    assert_eq(df.set_axis(["x", "y", "z"], axis=1), pdf.set_axis(["x", "y", "z"], axis=1))
    assert_eq(df.set_axis(list(range(20)), axis="index"), pdf.set_axis(list(range(20)), axis="index"))
    assert_eq(df.a.set_axis(list(range(20))), pdf.a.set_axis(list(range(20))))
    assert list(df.columns) == ["a", "w", "k"]  # a new frame
    with pytest.raises(ValueError):
        df.set_axis(["x"], axis=1)
    with pytest.raises(ValueError):
        df.a.set_axis(list(range(20)), axis=1)


@pytest.mark.parametrize("keys", ["k", ["k", "a"]])
@pytest.mark.parametrize("kwargs", [{}, {"sort": False}, {"dropna": False}])
@pytest.mark.parametrize("ascending", [True, False])
def test_groupby_ngroup(pdf, keys, kwargs, ascending):
    df = em.from_pandas(pdf)
    assert_eq(
        df.groupby(keys, **kwargs).ngroup(ascending=ascending),
        pdf.groupby(keys, **kwargs).ngroup(ascending=ascending),
    )
    assert_eq(
        df.groupby(keys, **kwargs).a.ngroup(ascending=ascending),
        pdf.groupby(keys, **kwargs).a.ngroup(ascending=ascending),
    )


MODE_CASES = {
    "ints": pd.Series([3, 1, 3, 1, 2], name="v"),
    "floats with NaN": pd.Series([3.0, np.nan, np.nan, 1.0]),
    "strings with None": pd.Series(["b", "a", "b", None, None]),
    "categorical": pd.Series(pd.Categorical(["x", "y", "y", "x", "z"])),
    "empty": pd.Series([], dtype="int64"),
    "bools": pd.Series([True, False, True]),
    "dates": pd.Series(pd.to_datetime(["2024-01-02", "2024-01-01", "2024-01-02"])),
    "one": pd.Series([5]),
    "all missing": pd.Series([np.nan, np.nan]),
}


@pytest.mark.parametrize("case", list(MODE_CASES))
@pytest.mark.parametrize("dropna", [True, False])
def test_series_mode(case, dropna):
    ps = MODE_CASES[case]
    assert_eq(em.from_pandas(ps).mode(dropna=dropna), ps.mode(dropna=dropna))


REPLACE_SERIES = {
    "int": pd.Series([1, 2, 3, 2]),
    "float": pd.Series([1.5, 2.0, np.nan]),
    "str": pd.Series(["a", "b", None, "a"]),
    "bool": pd.Series([True, False, True]),
    "date": pd.Series(pd.to_datetime(["2024-01-01", "2024-01-02"])),
}
REPLACE_CALLS = [
    ("int", lambda s: s.replace({1: 2, 2: 3})),  # all pairs at once, not chained
    ("int", lambda s: s.replace(2, 9.5)),  # a matched non-integral float: float64
    ("int", lambda s: s.replace(2, 9.0)),  # held by int64
    ("int", lambda s: s.replace(7, 1.5)),  # no match: int64 stays
    ("int", lambda s: s.replace([1, 2], 0)),
    ("int", lambda s: s.replace([1, 2], [10, 20])),
    ("int", lambda s: s.replace(2, np.nan)),
    ("int", lambda s: s.replace("x", 5)),  # another kind matches nothing
    ("int", lambda s: s.replace(True, 5)),
    ("int", lambda s: s.replace(1.0, 5)),
    ("float", lambda s: s.replace(np.nan, 0)),
    ("float", lambda s: s.replace(2, 7)),
    ("float", lambda s: s.replace({1.5: np.nan})),
    ("str", lambda s: s.replace("a", "z")),
    ("str", lambda s: s.replace(np.nan, "q")),
    ("str", lambda s: s.replace(1, "z")),
    ("str", lambda s: s.replace("a", np.nan)),
    ("bool", lambda s: s.replace(True, False)),
    ("bool", lambda s: s.replace(1, False)),
    ("date", lambda s: s.replace(pd.Timestamp("2024-01-01"), pd.Timestamp("2025-01-01"))),
    ("date", lambda s: s.replace("2024-01-02", pd.Timestamp("2025-01-01"))),
    ("date", lambda s: s.replace(pd.Timestamp("2024-01-01"), pd.NaT)),
    ("date", lambda s: s.replace(pd.Timestamp("2024-01-01"), None)),
]


@pytest.mark.parametrize("i", range(len(REPLACE_CALLS)))
def test_series_replace(i):
    kind, call = REPLACE_CALLS[i]
    ps = REPLACE_SERIES[kind]
    assert_eq(call(em.from_pandas(ps)), call(ps))


@pytest.mark.parametrize(
    ("kind", "call"),
    [
        ("int", lambda s: s.replace(2, "x")),
        ("bool", lambda s: s.replace(True, 5)),
        ("str", lambda s: s.replace("a", 1)),
        ("str", lambda s: s.replace({"a": None})),
        ("float", lambda s: s.replace(1.5, None)),
        ("int", lambda s: s.replace(1)),
    ],
)
def test_series_replace_into_an_object_column_is_refused(kind, call):
    """pandas would make an object column (values of mixed kinds): refused, never another answer."""
    with pytest.raises(NotImplementedError):
        call(em.from_pandas(REPLACE_SERIES[kind]))


def test_series_replace_errors_and_inplace():
    ps = REPLACE_SERIES["int"].copy()
    s = em.from_pandas(ps)
    with pytest.raises(ValueError, match="must match in length"):
        s.replace([1, 2], [3])
    assert s.replace(2, 5, inplace=True) is None
    ps.replace(2, 5, inplace=True)
    assert_eq(s, ps)


@pytest.mark.parametrize(
    "call",
    [
        lambda d: d.replace(1, 100),
        lambda d: d.replace("x", "X"),
        lambda d: d.replace({"a": {1: 5}, "b": {"y": "Y"}}),
        lambda d: d.replace({"a": 2, "c": 3.0}, 0),
        lambda d: d.replace(np.nan, -1),  # the string column holds no missing value: unchanged
        lambda d: d.replace({1: 7, "x": "w"}),
    ],
)
def test_frame_replace(call):
    pdf = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "x"], "c": [1.0, np.nan, 3.0]})
    assert_eq(call(em.from_pandas(pdf)), call(pdf))


SERIES = pd.Series([1, 2, 3], index=["a", "b", "c"], name="v")
FRAME = pd.DataFrame({"a": [1, 2], "s": ["x", "y"], "f": [0.5, 1.5]}, index=[10, 20])
REINDEX = {
    "series new label": (SERIES, lambda o: o.reindex(["c", "a", "z"])),  # int -> float64 with NaN
    "series subset": (SERIES, lambda o: o.reindex(["c", "a"])),  # stays int64
    "series fill_value": (SERIES, lambda o: o.reindex(["c", "z"], fill_value=0)),  # stays int64
    "series floats": (pd.Series([1.5, 2.5]), lambda o: o.reindex([1, 0, 5])),
    "series empty": (pd.Series([], dtype="float64"), lambda o: o.reindex([0, 1])),
    "frame rows": (FRAME, lambda o: o.reindex([20, 30])),
    "frame columns": (FRAME, lambda o: o.reindex(columns=["s", "b"])),
    "frame both": (FRAME, lambda o: o.reindex([20, 10], columns=["f", "a"])),
    "frame axis=1": (FRAME, lambda o: o.reindex(["f", "zz"], axis=1)),
    "frame fill_value": (FRAME[["a", "f"]], lambda o: o.reindex(index=[30, 10], fill_value=0)),
}


@pytest.mark.parametrize("case", list(REINDEX))
def test_reindex(case):
    obj, call = REINDEX[case]
    assert_eq(call(em.from_pandas(obj)), call(obj))


def test_reindex_refusals_and_errors():
    with pytest.raises(ValueError, match="duplicate labels"):
        em.from_pandas(pd.Series([1, 2], index=["a", "a"])).reindex(["a"])
    frame = SERIES.to_frame()
    assert_eq(
        em.from_pandas(frame).reindex(columns=["a"], method="ffill"),
        frame.reindex(columns=["a"], method="ffill"),
    )


AGG_FRAME = pd.DataFrame({"a": [1, 2, 3, 4], "f": [0.5, np.nan, 1.5, 2.0], "s": ["x", "y", "x", None]})
AGG = {
    "series one": (AGG_FRAME.a, lambda o: o.agg("sum")),
    "series list": (AGG_FRAME.a, lambda o: o.agg(["sum", "mean"])),
    "series floats": (AGG_FRAME.f, lambda o: o.agg(["min", "max", "count"])),
    "series strings": (AGG_FRAME.s, lambda o: o.aggregate(["count", "nunique"])),
    "frame one": (AGG_FRAME[["a", "f"]], lambda o: o.agg("sum")),
    "frame list": (AGG_FRAME[["a", "f"]], lambda o: o.agg(["sum", "mean"])),
    "frame dict": (AGG_FRAME[["a", "f"]], lambda o: o.agg({"a": "sum", "f": "mean"})),
    "frame dict of lists": (AGG_FRAME[["a", "f"]], lambda o: o.agg({"a": ["sum", "min"], "f": "mean"})),
    "frame dict with strings": (AGG_FRAME, lambda o: o.agg({"s": "count", "a": "max"})),
    "frame spread": (AGG_FRAME[["a", "f"]], lambda o: o.aggregate(["std", "var", "median"])),
}


@pytest.mark.parametrize("case", list(AGG))
def test_agg_by_names(case):
    obj, call = AGG[case]
    got, want = call(em.from_pandas(obj)), call(obj)
    if isinstance(want, (pd.Series, pd.DataFrame)):
        assert_eq(got, want)
    else:
        assert got == want and type(got) is type(want)


def test_agg_refusals_and_errors():
    df = em.from_pandas(AGG_FRAME[["a", "f"]])
    with pytest.raises(NotImplementedError, match="a function"):
        df.agg(lambda c: c.sum())
    with pytest.raises(NotImplementedError, match="cumsum"):
        df.a.agg(["sum", "cumsum"])
    with pytest.raises(NotImplementedError, match="axis=1"):
        df.agg("sum", axis=1)
    with pytest.raises(KeyError):
        df.agg({"zz": "sum"})


TRANSPOSE = {
    "ints and floats": pd.DataFrame({"a": [1, 2], "f": [0.5, np.nan]}, index=["r1", "r2"]),
    "ints": pd.DataFrame({"a": [1, 2]}),
    "bools": pd.DataFrame({"a": [True], "b": [False]}),
    "named rows": pd.DataFrame({"a": [1.5], "b": [2.5]}, index=pd.Index([7], name="k")),
    "no rows": pd.DataFrame({"a": [], "b": []}),
    "named columns": pd.DataFrame({"a": [1, 2]}).rename_axis(columns="cc"),
}


@pytest.mark.parametrize("case", list(TRANSPOSE))
def test_transpose(case):
    pdf = TRANSPOSE[case]
    assert_eq(em.from_pandas(pdf).T, pdf.T)
    assert_eq(em.from_pandas(pdf).transpose(), pdf.transpose())


@pytest.mark.parametrize(
    "pdf",
    [
        pd.DataFrame({"a": [1], "s": ["x"]}),
        pd.DataFrame({"a": [True], "b": [1]}),
        pd.DataFrame({"a": [1, 2]}, index=["r", "r"]),
        pd.DataFrame({"a": pd.array([1, None], dtype="Int64")}),
        pd.DataFrame(index=[1, 2]),
    ],
)
def test_transpose_into_object_columns_is_refused(pdf):
    with pytest.raises(NotImplementedError):
        em.from_pandas(pdf).transpose()


@pytest.mark.parametrize(
    "values",
    [
        np.array([3, 1, 3, np.nan]),
        np.array(["b", "a", "b"], dtype=object),
        pd.Index(["x", "y", "x"]),
        pd.Series([3, 1, 3, None]),
    ],
    ids=["floats", "strings", "index", "series"],
)
@pytest.mark.parametrize("kwargs", [{}, {"sort": True}, {"use_na_sentinel": False}])
def test_factorize(values, kwargs):
    from ember.backend import to_host

    want_codes, want_uniques = pd.factorize(values, **kwargs)
    given = values if isinstance(values, np.ndarray) else em.from_pandas(values)
    codes, uniques = em.factorize(given, **kwargs)
    np.testing.assert_array_equal(to_host(codes), want_codes)
    if isinstance(want_uniques, pd.Index):
        assert_eq(uniques, want_uniques)
    else:
        np.testing.assert_array_equal(to_host(uniques), want_uniques)
    with pytest.raises(TypeError, match="factorize requires"):
        em.factorize(["a", "b"])


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (pd.Series([1.0, np.nan, 3]), pd.Series([10, 20, 30])),
        (pd.Series([1, 2]), pd.Series([5.0, 6])),  # their common type, missing or not
        (pd.Series(["a", None]), pd.Series(["x", "y"])),
    ],
)
def test_combine_first_on_the_same_labels(left, right):
    assert_eq(em.from_pandas(left).combine_first(em.from_pandas(right)), left.combine_first(right))


def test_combine_first_on_other_labels_is_refused():
    with pytest.raises(NotImplementedError, match="different labels"):
        em.from_pandas(pd.Series([1.0])).combine_first(em.from_pandas(pd.Series([2.0], index=[5])))


@pytest.mark.parametrize(
    "func", ["abs", lambda c: c * 2, lambda c: c.cumsum(), np.abs], ids=["name", "scale", "cumsum", "ufunc"]
)
def test_frame_transform(func):
    pdf = pd.DataFrame({"a": [1, -2, 3], "f": [0.5, -1.5, np.nan]})
    assert_eq(em.from_pandas(pdf).transform(func), pdf.transform(func))


def test_frame_transform_that_reduces_is_an_error():
    pdf = pd.DataFrame({"a": [1, -2, 3]})
    with pytest.raises(ValueError, match="did not transform"):
        pdf.transform(lambda c: c.sum())
    with pytest.raises(ValueError, match="did not transform"):
        em.from_pandas(pdf).transform(lambda c: c.sum())


@pytest.mark.parametrize(
    "values", [["1", "2"], ["1.5", "2"], ["1", None], ["a", "1"], [" 3", "1e3"], ["-7", "+2"]]
)
@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_to_numeric_of_strings(values, errors):
    ps = pd.Series(values, index=[5, 6], name="n")
    try:
        want = pd.to_numeric(ps, errors=errors)
    except ValueError:
        with pytest.raises(ValueError):
            em.to_numeric(em.from_pandas(ps), errors=errors)
        return
    assert_eq(em.to_numeric(em.from_pandas(ps), errors=errors), want)


def test_to_numeric_of_numbers_and_plain_values():
    ps = pd.Series([1.5, 2.0])
    assert_eq(em.to_numeric(em.from_pandas(ps)), pd.to_numeric(ps))
    assert em.to_numeric("3") == 3
    np.testing.assert_array_equal(em.to_numeric(["1", "2.5"]), [1.0, 2.5])
    with pytest.raises(ValueError):
        em.to_numeric(em.from_pandas(ps), errors="ignore")
    assert_eq(em.to_numeric(em.from_pandas(ps), downcast="integer"), pd.to_numeric(ps, downcast="integer"))


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.str.removeprefix("ba"),
        lambda s: s.str.removesuffix("ba"),
        lambda s: s.str.removeprefix(""),
        lambda s: s.str.removesuffix("ie"),
        lambda s: s.str.removeprefix("é"),
    ],
)
def test_removeprefix_removesuffix(call):
    ps = pd.Series(["banana", "bandana", None, "ba", "xba", "pie", "émoji ba", ""])
    assert_eq(call(em.from_pandas(ps)), call(ps))


MAPS = [
    (pd.Series(pd.Categorical(["x", "y", "x"]), name="u"), {"x": 1, "y": 2}),  # distinct images: categorical
    (
        pd.Series(pd.Categorical(["x", "y", "x", None], categories=["y", "x", "z"], ordered=True)),
        {"x": "a", "y": "b", "z": "c"},
    ),
    (pd.Series(pd.Categorical(["x", "y", "x"])), {"x": "a", "y": "a"}),  # images repeat: plain values
    (pd.Series(pd.Categorical(["x", "y"])), {"x": 1}),  # an image missing: plain values
    (pd.Series(pd.Categorical(["x", "y", None])), {"x": 1, "y": 2, np.nan: 0}),  # the missing value mapped
    (pd.Series([1.0, np.nan]), {1.0: 10.0, np.nan: 0.0}),
    (pd.Series(["a", None]), {"a": "x", None: "m"}),
    (pd.Series([1.0, np.nan]), {np.nan: 5.0}),
    (pd.Series([1.0, 2.0]), {}),
]


@pytest.mark.parametrize("i", range(len(MAPS)))
def test_map_with_a_dict(i):
    ps, mapper = MAPS[i]
    assert_eq(em.from_pandas(ps).map(mapper), ps.map(mapper))


def test_categorical_codes_keep_the_index_not_the_name():
    ps = pd.Series(pd.Categorical(["x", "y", None]), name="u", index=[4, 5, 6])
    assert_eq(em.from_pandas(ps).cat.codes, ps.cat.codes)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.DataFrame.from_records([(1, "a"), (2, "b")], columns=["n", "s"]),
        lambda m: m.DataFrame.from_dict({"r1": {"a": 1}, "r2": {"a": 2}}, orient="index"),
        lambda m: m.DataFrame.from_dict({"a": [1, 2], "b": [0.5, None]}),
    ],
    ids=["from_records", "from_dict index", "from_dict columns"],
)
def test_frame_from_dict_and_records(call):
    assert_eq(call(em), call(pd))


LABELS = pd.DataFrame({"x": [1, 2], "y1": [3.0, 4.0], "zy": ["a", "b"]}, index=[5, 6])


@pytest.mark.parametrize(
    "call",
    [
        lambda d: d.add_prefix("c_"),
        lambda d: d.add_suffix("_s"),
        lambda d: d.add_prefix("r", axis=0),
        lambda d: d.filter(items=["zy", "x", "nope"]),
        lambda d: d.filter(like="y"),
        lambda d: d.filter(regex="^y"),
        lambda d: d.filter(items=["x"], axis=1),
    ],
    ids=[
        "add_prefix",
        "add_suffix",
        "add_prefix rows",
        "filter items",
        "filter like",
        "filter regex",
        "filter axis=1",
    ],
)
def test_relabel_and_filter_columns(call):
    assert_eq(call(em.from_pandas(LABELS)), call(LABELS))


def test_filter_arguments():
    df = em.from_pandas(LABELS)
    with pytest.raises(TypeError, match="mutually exclusive"):
        df.filter(items=["x"], like="y")
    assert_eq(df.filter(items=[5], axis=0), LABELS.filter(items=[5], axis=0))


_rs = np.random.default_rng(3)
LEVELS = pd.DataFrame({"g": _rs.choice(["p", "q", "r"], 12), "k": _rs.integers(0, 3, 12), "y": np.arange(12)})


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"level": 1},
        {"level": "k"},
        {"level": 1, "ascending": False},
        {"level": [1, 0]},
        {"level": 1, "sort_remaining": False},
        {"ascending": False},
        {"level": ["k"], "ascending": [False], "sort_remaining": False},
    ],
)
@pytest.mark.parametrize("kind", ["series", "frame"])
def test_sort_index_by_levels(kind, kwargs):
    obj = LEVELS.groupby(["g", "k"]).y.sum() if kind == "series" else LEVELS.set_index(["g", "k"])
    assert_eq(em.from_pandas(obj).sort_index(**kwargs), obj.sort_index(**kwargs))


def test_sort_index_level_errors_and_inplace():
    s = em.from_pandas(LEVELS.set_index(["g", "k"]).y)
    with pytest.raises(KeyError):
        s.sort_index(level="nope")
    with pytest.raises(IndexError):
        s.sort_index(level=5)
    want = LEVELS.set_index(["g", "k"]).y.sort_index(level=1)
    assert s.sort_index(level=1, inplace=True) is None
    assert_eq(s, want)


_rd = np.random.default_rng(3)
THREE_LEVELS = pd.DataFrame(
    {
        "g": _rd.choice(["p", "q"], 8),
        "k": _rd.integers(0, 3, 8),
        "h": _rd.integers(0, 2, 8),
        "y": np.arange(8),
    }
)


@pytest.mark.parametrize("level", [0, "k", [0, "h"], -1])
@pytest.mark.parametrize("kind", ["series", "frame"])
def test_droplevel(kind, level):
    obj = (
        THREE_LEVELS.groupby(["g", "k", "h"]).y.sum()
        if kind == "series"
        else THREE_LEVELS.set_index(["g", "k", "h"])
    )
    assert_eq(em.from_pandas(obj).droplevel(level), obj.droplevel(level))


@pytest.mark.parametrize(("level", "error"), [([0, 1, 2], ValueError), ("zz", KeyError)])
def test_droplevel_errors(level, error):
    obj = THREE_LEVELS.groupby(["g", "k", "h"]).y.sum()
    with pytest.raises(error):
        obj.droplevel(level)
    with pytest.raises(error):
        em.from_pandas(obj).droplevel(level)


@pytest.mark.parametrize("kwargs", [{}, {"sort": True}, {"use_na_sentinel": False}])
def test_series_factorize_codes_are_a_numpy_array(kwargs):
    values = pd.Series(["b", "a", None, "b"])
    want_codes, want_uniques = values.factorize(**kwargs)
    codes, uniques = em.from_pandas(values).factorize(**kwargs)
    assert type(codes) is np.ndarray  # on either backend, as pandas
    np.testing.assert_array_equal(codes, want_codes)
    assert_eq(uniques, want_uniques)

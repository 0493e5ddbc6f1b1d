"""SeriesGroupBy named aggregation and agg lists, and pd.Grouper(key= / level=) keys, against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.fixture
def frames():
    pdf = pd.DataFrame({"a": [3, 1, 3, None, 2], "b": [1.0, 2.0, 3.0, 4.0, 5.0], "c": list("xyxyx")})
    return pdf, em.from_pandas(pdf)


# pandas answers these; ember refuses them clearly (duplicate output columns, functions it cannot
# run per group, a Grouper that reorders the rows among other keys)
REFUSED = {"list_repeated", "frame_dict_repeated", "transform_name", "lambda", "sorted_in_list"}


def _compare(fn, pdf, df, refused=False):
    if refused:
        fn(pd, pdf)
        with pytest.raises(NotImplementedError):
            fn(em, df)
        return
    try:
        want = fn(pd, pdf)
    except Exception as exc:  # pandas' error: ember raises the same type, or NotImplementedError
        with pytest.raises((type(exc), NotImplementedError)):
            fn(em, df)
        return
    assert_eq(fn(em, df), want)


AGG_CASES = {
    "named": lambda m, d: d.groupby("a").b.agg(total="sum"),
    "named_several": lambda m, d: d.groupby("a").b.agg(x="sum", y="sum", z="mean"),
    "named_numpy": lambda m, d: d.groupby("a").b.agg(x="sum", y=np.max),
    "named_as_index_false": lambda m, d: d.groupby("a", as_index=False).b.agg(total="sum", m="max"),
    "named_dropna_false": lambda m, d: d.groupby("a", dropna=False).b.agg(total="sum"),
    "named_tuple": lambda m, d: d.groupby("a").b.agg(t=("b", "sum")),
    "named_namedagg": lambda m, d: d.groupby("a").b.agg(t=m.NamedAgg("b", "sum")),
    "nothing": lambda m, d: d.groupby("a").b.agg(),
    "named_unknown": lambda m, d: d.groupby("a").b.agg(t="nope"),
    "named_list": lambda m, d: d.groupby("a").b.agg(t=["sum"]),
    "func_and_named": lambda m, d: d.groupby("a").b.agg("sum", t="max"),
    "named_key_clash": lambda m, d: d.groupby("a", as_index=False).b.agg(a="sum"),
    "frame_named_str": lambda m, d: d.groupby("a").agg(t="sum"),
    "frame_named": lambda m, d: d.groupby("a").agg(t=("b", "sum")),
    "frame_namedagg": lambda m, d: d.groupby("a").agg(t=m.NamedAgg("b", "max")),
    "args_kwargs": lambda m, d: d.groupby("a").b.agg("quantile", q=0.3),
    "args_positional": lambda m, d: d.groupby("a").b.agg("quantile", 0.3),
    "list": lambda m, d: d.groupby("a").b.agg(["sum", "max"]),
    "list_as_index_false": lambda m, d: d.groupby("a", as_index=False).b.agg(["sum", "max"]),
    "list_pairs": lambda m, d: d.groupby("a").b.agg([("s", "sum"), ("m", "max")]),
    "list_repeated": lambda m, d: d.groupby("a").b.agg(["sum", "sum"]),
    "frame_list_repeated": lambda m, d: d.groupby("a").agg(["sum", "sum"]),
    "frame_dict_repeated": lambda m, d: d.groupby("a").agg({"b": ["sum", "sum"]}),
    "dict_renamer": lambda m, d: d.groupby("a").b.agg({"x": "sum"}),
    "transform_name": lambda m, d: d.groupby("a").b.agg("cumsum"),
    "numpy_func": lambda m, d: d.groupby("a").b.agg(np.max),
    "lambda": lambda m, d: d.groupby("a").b.agg(t=lambda x: x.sum()),
}


@pytest.mark.parametrize("case", list(AGG_CASES))
def test_series_groupby_agg(frames, case):
    _compare(AGG_CASES[case], *frames, refused=case in REFUSED)


G = pd.Grouper
GROUPER_CASES = {
    "key": lambda m, d: d.groupby(G(key="a")).max(),
    "key_groupby_unsorted": lambda m, d: d.groupby(G(key="a"), sort=False).max(),
    "key_sorted": lambda m, d: d.groupby(G(key="a", sort=True), sort=False).max(),
    "key_dropna_false": lambda m, d: d.groupby(G(key="a", dropna=False)).max(),
    "groupby_dropna_false": lambda m, d: d.groupby(G(key="a"), dropna=False).max(),
    "in_list": lambda m, d: d.groupby([G(key="a"), "c"]).max(),
    "in_list_dropna_false": lambda m, d: d.groupby(["c", G(key="a")], dropna=False).b.sum(),
    "level_name": lambda m, d: d.set_index("c").groupby(G(level="c")).max(),
    "level_int": lambda m, d: d.set_index("c").groupby(G(level=0)).max(),
    "series_level": lambda m, d: d.set_index("c").b.groupby(G(level=0)).sum(),
    "levels_in_list": lambda m, d: d.set_index(["c", "a"]).b.groupby([G(level=1), G(level="c")]).sum(),
    "as_index_false": lambda m, d: d.groupby(G(key="a"), as_index=False).max(),
    "selected": lambda m, d: d.groupby(G(key="a")).b.sum(),
    "sorted_transform": lambda m, d: d.groupby(G(key="a", sort=True)).b.cumsum(),
    "sorted_head": lambda m, d: d.groupby(G(key="a", sort=True)).head(1),
    "transform": lambda m, d: d.groupby(G(key="a")).b.cumsum(),
    "level_sorted_transform": lambda m, d: d.set_index("a").b.groupby(G(level="a", sort=True)).cumsum(),
    "level_sorted": lambda m, d: d.set_index("a").b.groupby(G(level="a", sort=True)).sum(),
    "missing_key": lambda m, d: d.groupby(G(key="zz")).max(),
    "key_and_level": lambda m, d: d.groupby(G(key="a", level=0)).max(),
    "freq": lambda m, d: d.groupby(G(key="a", freq="D")).max(),
    "empty": lambda m, d: d.groupby(G()).max(),
    "series_key": lambda m, d: d.b.groupby(G(key="a")).sum(),
    "sorted_in_list": lambda m, d: d.groupby([G(key="a", sort=True), "c"]).max(),
}


@pytest.mark.parametrize("case", list(GROUPER_CASES))
def test_grouper(frames, case):
    _compare(GROUPER_CASES[case], *frames, refused=case in REFUSED)


def test_grouper_freq_groups_as_resample(frames):
    pdf = pd.DataFrame({"t": pd.date_range("2020", periods=4, freq="h"), "v": [1, 2, 3, 4]})
    assert_eq(
        em.from_pandas(pdf).groupby(pd.Grouper(key="t", freq="2h")).sum(),
        pdf.groupby(pd.Grouper(key="t", freq="2h")).sum(),
        check_freq=False,  # ember's indexes keep no freq
    )


# --- Series.unique's type, timedelta operators beside NumPy's NaT ------------------------------------

UNIQUE_DATA = {
    "int": lambda: pd.Series([1, 2, 1]),
    "float": lambda: pd.Series([1.0, np.nan, 1.0]),
    "bool": lambda: pd.Series([True, False, True]),
    "object": lambda: pd.Series(["a", None, "a"], dtype=object),
    "object_empty": lambda: pd.Series([], dtype=object),
    "str": lambda: pd.Series(["a", None, "a"], dtype="str"),
    "string": lambda: pd.Series(["a", None, "a"], dtype="string"),
    "category": lambda: pd.Series(["a", None, "a"], dtype="category"),
    "datetime": lambda: pd.Series(pd.to_datetime(["2020", None, "2020"])),
    "tz": lambda: pd.Series(pd.to_datetime(["2020", None, "2020"]).tz_localize("UTC")),
    "timedelta": lambda: pd.Series(pd.to_timedelta([1, None, 1], unit="s")),
    "Int64": lambda: pd.Series([1, None, 1], dtype="Int64"),
    "boolean": lambda: pd.Series([True, None, True], dtype="boolean"),
    "Float64": lambda: pd.Series([1.0, None, 1.0], dtype="Float64"),
}


@pytest.mark.parametrize("kind", list(UNIQUE_DATA))
def test_unique_type_as_pandas(kind):
    ps = UNIQUE_DATA[kind]()
    want = ps.unique()
    got = em.from_pandas(ps).unique()
    if isinstance(want, np.ndarray) and kind not in ("object", "object_empty"):
        got = np.asarray(got.get() if hasattr(got, "get") else got)  # a device array on the GPU
    assert type(got) is type(want)
    assert repr(got) == repr(want)


@pytest.mark.parametrize("nat", [np.timedelta64("NaT"), np.timedelta64("NaT", "ns"), pd.NaT], ids=repr)
@pytest.mark.parametrize("op", ["truediv", "floordiv", "mod", "mul"])
@pytest.mark.parametrize("reverse", [False, True])
def test_timedelta_by_nat(nat, op, reverse):
    ps = pd.Series(pd.to_timedelta([1, None], unit="s")).astype("timedelta64[s]")
    name = f"__r{op}__" if reverse else f"__{op}__"
    try:
        want = getattr(ps, name)(nat)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(em.from_pandas(ps), name)(nat)
        return
    assert_eq(getattr(em.from_pandas(ps), name)(nat), want)


# --- clip without bounds, categorical fillna / where with nothing to fill -----------------------------

KEEP_CASES = {
    "str_clip_no_bounds": lambda m: m.Series(["a"]).clip(),
    "category_clip_nan_bounds": lambda m: m.Series(["a", "b"], dtype="category").clip(np.nan, np.nan),
    "category_clip_na_bounds": lambda m: m.Series(["a", "b"], dtype="category").clip(None, pd.NA),
    "float_clip_nan_lower": lambda m: m.Series([1.0, 5.0, None]).clip(np.nan, 3),
    "datetime_clip_nat": lambda m: m.Series(pd.to_datetime(["2020", "2021"])).clip(pd.NaT, None),
    "frame_clip_no_bounds": lambda m: m.DataFrame({"a": ["x"], "b": [1]}).clip(),
    "category_where_all_true": lambda m: m.Series(["a", "b"], dtype="category").where(
        np.array([True, True]), "z"
    ),
    "category_mask_all_false": lambda m: m.Series(["a", "b"], dtype="category").mask(
        np.array([False, False]), "z"
    ),
    "category_fillna_nothing_missing": lambda m: m.Series(["a", "b"], dtype="category").fillna("z"),
    "category_fillna_number": lambda m: m.Series(["a", "b"], dtype="category").fillna(1),
    "category_fillna_missing": lambda m: m.Series(["a", None], dtype="category").fillna("z"),
    "frame_category_fillna": lambda m: m.DataFrame({"c": m.Series(["a", "b"], dtype="category")}).fillna("z"),
    "category_fillna_limit": lambda m: m.Series(["a", "b"], dtype="category").fillna("z", limit=1),
    "category_fillna_empty": lambda m: m.Series(["a", "b"], dtype="category").iloc[:0].fillna("z"),
    "unordered_category_clip": lambda m: m.Series(["a", "b"], dtype="category").clip("a"),
}


@pytest.mark.parametrize("case", list(KEEP_CASES))
def test_kept_as_pandas(case):
    fn = KEEP_CASES[case]
    try:
        want = fn(pd)
    except TypeError:
        with pytest.raises(TypeError):
            fn(em)
        return
    assert_eq(fn(em), want)


@pytest.mark.parametrize(
    "fn",
    [
        lambda m: m.Series(["a", "c"]).clip("b"),
        lambda m: m.Series(["a", "b"], dtype=pd.CategoricalDtype(["a", "b"], ordered=True)).clip("b"),
    ],
)
def test_clip_of_strings_refused(fn):
    fn(pd)  # pandas compares the strings
    with pytest.raises(NotImplementedError):
        fn(em)

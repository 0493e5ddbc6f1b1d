"""merge / join / concat against pandas, row order included."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.fixture
def frames():
    left = pd.DataFrame({"k": [1, 2, 2, 3, 5, np.nan], "s": list("abcdef"), "v": np.arange(6.0)})
    right = pd.DataFrame({"k": [2, 3, 3, 4, np.nan], "w": [10, 20, 30, 40, 50], "v": np.arange(5.0) * 10})
    return left, right


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
def test_merge_hows(frames, how):
    left, right = frames
    got = em.from_pandas(left).merge(em.from_pandas(right), on="k", how=how)
    assert_eq(got, left.merge(right, on="k", how=how))


def test_merge_options(frames):
    left, right = frames
    el, er = em.from_pandas(left), em.from_pandas(right)
    assert_eq(el.merge(er, on="k", suffixes=("_l", "_r")), left.merge(right, on="k", suffixes=("_l", "_r")))
    assert_eq(
        el.merge(er, on="k", how="outer", indicator=True),
        left.merge(right, on="k", how="outer", indicator=True),
    )
    assert_eq(el.merge(er, how="cross"), left.merge(right, how="cross"))
    assert_eq(el.merge(er, left_on="v", right_on="w"), left.merge(right, left_on="v", right_on="w"))
    assert_eq(el.merge(er, on="k", sort=True), left.merge(right, on="k", sort=True))
    assert_eq(em.merge(el, er, on=["k", "v"], how="left"), pd.merge(left, right, on=["k", "v"], how="left"))


def test_merge_string_keys_and_index_join():
    left = pd.DataFrame({"key": ["a", "b", "c", "b"], "x": [1, 2, 3, 4]})
    right = pd.DataFrame({"key": ["b", "c", "d"], "y": [5.0, 6.0, 7.0]})
    assert_eq(em.from_pandas(left).merge(em.from_pandas(right), on="key"), left.merge(right, on="key"))
    li, ri = left.set_index("key"), right.set_index("key")
    assert_eq(em.from_pandas(li).join(em.from_pandas(ri), how="inner"), li.join(ri, how="inner"))
    assert_eq(em.from_pandas(left).join(em.from_pandas(ri), on="key"), left.join(ri, on="key"))


def test_semi_anti():
    left = pd.DataFrame({"k": [1, 2, 3, 4, 2]})
    right = pd.DataFrame({"k": [2, 4, 4]})
    el, er = em.from_pandas(left), em.from_pandas(right)
    assert_eq(el.merge(er, on="k", how="leftsemi"), left[left.k.isin(right.k)])
    assert_eq(el.merge(er, on="k", how="leftanti"), left[~left.k.isin(right.k)])


def test_merge_errors(frames):
    left, right = frames
    el, er = em.from_pandas(left), em.from_pandas(right)
    with pytest.raises(KeyError):
        el.merge(er, on="nope")
    with pytest.raises(ValueError):
        el.merge(er, how="sideways", on="k")
    with pytest.raises(pd.errors.MergeError):
        el.merge(er, on="k", validate="one_to_one")


def test_seed_self_merge():
    rng = np.random.default_rng(0)
    pdf = pd.DataFrame({"x": rng.random(500), "y": rng.integers(0, 500, 500)})
    df = em.from_pandas(pdf)
    assert_eq(df.merge(df, on="y"), pdf.merge(pdf, on="y"))


def test_concat():
    a = pd.DataFrame({"x": [1, 2], "s": ["a", "b"]})
    b = pd.DataFrame({"x": [3], "t": [1.5]})
    ea, eb = em.from_pandas(a), em.from_pandas(b)
    assert_eq(em.concat([ea, eb]), pd.concat([a, b]))
    assert_eq(em.concat([ea, eb], ignore_index=True), pd.concat([a, b], ignore_index=True))
    assert_eq(em.concat([ea, eb], join="inner"), pd.concat([a, b], join="inner"))
    assert_eq(em.concat([ea.x, eb.x]), pd.concat([a.x, b.x]))
    assert_eq(
        em.concat([ea, ea.rename(columns={"x": "x2", "s": "s2"})], axis=1),
        pd.concat([a, a.rename(columns={"x": "x2", "s": "s2"})], axis=1),
    )


def test_concat_with_keys():
    a = pd.DataFrame({"x": [1, 2]})
    b = pd.DataFrame({"x": [3]}, index=[7])
    got = em.concat([em.from_pandas(a), em.from_pandas(b)], keys=["a", "b"])
    assert_eq(got, pd.concat([a, b], keys=["a", "b"]))
    assert_eq(
        em.concat([em.from_pandas(a.x), em.from_pandas(b.x)], keys=[1, 2]), pd.concat([a.x, b.x], keys=[1, 2])
    )
    with pytest.raises(ValueError):
        em.concat([em.from_pandas(a)], keys=["a", "b"])


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
def test_categorical_keys_of_other_categories_merge_as_their_values(how):
    """A key categorical on both sides with one dtype stays categorical; with other categories (or
    categorical on one side only) pandas gives the values' dtype; exactly one empty side keeps it, and
    so does a right join in which no left row matches (every key from the right)."""
    a = pd.DataFrame({"c": pd.Categorical(["x", "x", "z"]), "v": [1, 2, 3]})
    b = pd.DataFrame({"c": pd.Categorical(["y", "x"]), "w": [3, 4]})
    same = pd.DataFrame({"c": pd.Categorical(["z", "x"], categories=["x", "z"]), "w": [5, 6]})
    plain = pd.DataFrame({"c": ["x", "q"], "w": [7, 8]})
    disjoint = pd.DataFrame({"c": pd.Categorical(["q", "r"]), "w": [9, 10]})
    pairs = [
        (a, b),
        (b, a),
        (a, same),
        (a, plain),
        (a.iloc[:0], b),
        (b, a.iloc[:0]),
        (a.iloc[:0], b.iloc[:0]),
    ]
    for left, right in pairs + [(a, disjoint), (disjoint, a)]:
        got = em.from_pandas(left).merge(em.from_pandas(right), on="c", how=how).to_pandas()
        pd.testing.assert_frame_equal(got, left.merge(right, on="c", how=how))


def test_cross_merge_with_indicator():
    a, b = pd.DataFrame({"k": [1.0, 2.0]}), pd.DataFrame({"k": [3.0], "w": [1]})
    got = em.from_pandas(a).merge(em.from_pandas(b), how="cross", indicator=True).to_pandas()
    pd.testing.assert_frame_equal(got, a.merge(b, how="cross", indicator=True))


@pytest.mark.parametrize("how", ["outer", "right", "left", "inner"])
def test_merge_empty_object_key_holding_none_marker(how):
    # an empty object column (a groupby of None keys) beside right rows without a match
    left = pd.DataFrame({"a": pd.Series([None], dtype="Int32")}).astype({"a": "object"})
    left = left.groupby("a", sort=False, as_index=False).agg("median")
    right = pd.DataFrame({"d": pd.Series([-1], dtype="Int64"), "a_k": pd.Series(["b"], dtype="string")})
    want = left.merge(right, how=how, left_on=["a"], right_on=["a_k"], sort=True)
    got = em.from_pandas(pd.DataFrame({"a": pd.Series([None], dtype="Int32")})).astype({"a": "object"})
    got = got.groupby("a", sort=False, as_index=False).agg("median")
    assert_eq(got.merge(em.from_pandas(right), how=how, left_on=["a"], right_on=["a_k"], sort=True), want)

"""ops.reshape index helpers against pandas' melt / stack / pivot / unstack / get_dummies / crosstab.

Each test computes the pandas result independently and rebuilds it from ember's indices on the host.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ember.backend import asarray_on, to_host
from ember.column import from_pandas
from ember.ops.reshape import (
    DUPLICATE_ENTRIES,
    melt_indices,
    one_hot,
    pair_counts,
    pivot_positions,
    pivot_take,
    repeat_indices,
    stack_indices,
    tile_indices,
)

PROPS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("n,reps", [(3, 2), (0, 3), (3, 0), (1, 1), (5, 4)])
def test_tile_and_repeat(n, reps, xp):
    np.testing.assert_array_equal(to_host(repeat_indices(n, reps, xp)), np.repeat(np.arange(n), reps))
    np.testing.assert_array_equal(to_host(tile_indices(n, reps, xp)), np.tile(np.arange(n), reps))
    assert repeat_indices(n, reps, xp).dtype == np.int64


@pytest.mark.parametrize("n_rows", [0, 1, 4])
@pytest.mark.parametrize("value_vars", [["a"], ["a", "b"], ["b", "c", "a"]])
def test_melt(n_rows, value_vars, xp):
    rng = np.random.default_rng(n_rows)
    df = pd.DataFrame(
        {
            "id": [f"r{i}" for i in range(n_rows)],
            "a": rng.integers(0, 9, n_rows),
            "b": rng.integers(0, 9, n_rows),
            "c": rng.integers(0, 9, n_rows),
        }
    )
    expected = df.melt(id_vars=["id"], value_vars=value_vars)
    rows, cols = (to_host(a) for a in melt_indices(n_rows, len(value_vars), xp))
    values = df[value_vars].to_numpy()
    got = pd.DataFrame(
        {
            "id": df["id"].to_numpy()[rows],
            "variable": np.asarray(value_vars, dtype=object)[cols],
            "value": values[rows, cols] if n_rows else np.zeros(0, dtype=values.dtype),
        }
    )
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)
    np.testing.assert_array_equal(got["value"].to_numpy(), expected["value"].to_numpy())


@pytest.mark.parametrize("shape", [(3, 2), (1, 3), (2, 1), (0, 2)])
def test_stack(shape, xp):
    n, k = shape
    df = pd.DataFrame(
        np.arange(n * k, dtype=np.float64).reshape(n, k),
        columns=[f"c{j}" for j in range(k)],
        index=[f"r{i}" for i in range(n)],
    )
    df.iloc[0:1, 0:1] = np.nan
    expected = df.stack()
    rows, cols = (to_host(a) for a in stack_indices(n, k, xp))
    index = pd.MultiIndex.from_arrays([df.index[rows], df.columns[cols]])
    got = pd.Series(df.to_numpy()[rows, cols] if n else np.zeros(0), index=index)
    pd.testing.assert_series_equal(got, expected, check_index_type=False)


def _pivot_expected_and_codes(df: pd.DataFrame):
    expected = df.pivot(index="i", columns="c", values="v")
    icodes, iuniq = pd.factorize(df["i"], sort=True)
    ccodes, cuniq = pd.factorize(df["c"], sort=True)
    return expected, icodes, ccodes, iuniq, cuniq


@pytest.mark.parametrize(
    "data",
    [
        {"i": [1, 1, 2, 3], "c": ["a", "b", "a", "b"], "v": [1.0, 2.0, 3.0, 4.0]},
        {"i": [3, 2, 1], "c": ["x", "x", "y"], "v": [1, 2, 3]},
        {"i": [1], "c": ["a"], "v": [5]},
        {"i": ["q", "p", "q", "p"], "c": [2, 2, 1, 1], "v": [1.5, np.nan, 3.0, 4.0]},
    ],
)
def test_pivot_take_matches_pivot(data, xp):
    df = pd.DataFrame(data)
    expected, icodes, ccodes, iuniq, cuniq = _pivot_expected_and_codes(df)
    take = to_host(pivot_take(asarray_on(icodes, xp), asarray_on(ccodes, xp), len(iuniq), len(cuniq)))
    assert take.dtype == np.int64 and take.shape == (len(iuniq), len(cuniq))
    col = from_pandas(df["v"], xp)
    got = pd.DataFrame(
        {
            cuniq[j]: col.take_nullable(asarray_on(take[:, j], xp)).to_pandas().to_numpy()
            for j in range(len(cuniq))
        },
        index=pd.Index(iuniq, name="i"),
    )
    got.columns.name = "c"
    pd.testing.assert_frame_equal(
        got, expected, check_dtype=False, check_index_type=False, check_column_type=False
    )


def test_pivot_positions_values(xp):
    ic, cc = np.array([1, 0, 1]), np.array([0, 2, 2])
    pos = to_host(pivot_positions(asarray_on(ic, xp), asarray_on(cc, xp), 2, 3))
    np.testing.assert_array_equal(pos, [3, 2, 5])
    assert to_host(
        pivot_positions(asarray_on(np.zeros(0, np.int64), xp), asarray_on(np.zeros(0, np.int64), xp), 0, 0)
    ).shape == (0,)


def test_pivot_duplicates_raise_like_pandas(xp):
    df = pd.DataFrame({"i": [1, 2, 1], "c": ["a", "a", "a"], "v": [1, 2, 3]})
    with pytest.raises(ValueError) as expected:
        df.pivot(index="i", columns="c", values="v")
    assert str(expected.value) == DUPLICATE_ENTRIES
    icodes, _ = pd.factorize(df["i"], sort=True)
    ccodes, _ = pd.factorize(df["c"], sort=True)
    with pytest.raises(ValueError, match="^Index contains duplicate entries, cannot reshape$"):
        pivot_take(asarray_on(icodes, xp), asarray_on(ccodes, xp), 2, 1)


def test_unstack_duplicates_message_is_pandas(xp):
    s = pd.Series([1, 2], index=pd.MultiIndex.from_tuples([(1, "a"), (1, "a")]))
    with pytest.raises(ValueError, match=DUPLICATE_ENTRIES):
        s.unstack()
    with pytest.raises(ValueError, match=DUPLICATE_ENTRIES):
        pivot_positions(asarray_on(np.array([0, 0]), xp), asarray_on(np.array([0, 0]), xp), 1, 1)


def test_pivot_codes_out_of_range(xp):
    with pytest.raises(ValueError, match="codes out of range"):
        pivot_positions(asarray_on(np.array([0, -1]), xp), asarray_on(np.array([0, 0]), xp), 1, 1)
    with pytest.raises(ValueError, match="differ in length"):
        pivot_positions(asarray_on(np.array([0, 1]), xp), asarray_on(np.array([0]), xp), 2, 1)


def test_unstack(xp):
    idx = pd.MultiIndex.from_arrays([["b", "a", "b", "a", "c"], [2, 1, 1, 3, 2]])
    s = pd.Series([1.0, 2.0, 3.0, 4.0, 5.0], index=idx)
    expected = s.unstack()
    lcodes, luniq = pd.factorize(idx.get_level_values(0), sort=True)
    ccodes, cuniq = pd.factorize(idx.get_level_values(1), sort=True)
    take = to_host(pivot_take(asarray_on(lcodes, xp), asarray_on(ccodes, xp), len(luniq), len(cuniq)))
    values = np.append(s.to_numpy(), np.nan)[take]  # -1 reads the appended NaN
    got = pd.DataFrame(values, index=luniq, columns=cuniq)
    pd.testing.assert_frame_equal(
        got, expected, check_names=False, check_index_type=False, check_column_type=False
    )


@pytest.mark.parametrize(
    "values",
    [
        ["b", "a", None, "b"],
        ["x"],
        [],
        [None, None],
        ["c", "a", "b", "a", "c"],
    ],
)
@pytest.mark.parametrize("dtype", [bool, np.uint8, np.float64])
def test_one_hot_matches_get_dummies(values, dtype, xp):
    s = pd.Series(values, dtype="str")
    expected = pd.get_dummies(s, dtype=dtype)
    codes, uniques = pd.factorize(s, sort=True)
    got = to_host(one_hot(asarray_on(codes.astype(np.int64), xp), len(uniques), dtype))
    assert got.dtype == np.dtype(dtype) and got.shape == (len(s), len(uniques))
    got_frame = pd.DataFrame(got, columns=pd.Index(uniques, dtype=expected.columns.dtype))
    pd.testing.assert_frame_equal(got_frame, expected, check_column_type=False)


def _crosstab_check(a: pd.Series, b: pd.Series, xp) -> None:
    expected = pd.crosstab(a, b)
    ic, iu = pd.factorize(a, sort=True)
    cc, cu = pd.factorize(b, sort=True)
    got = to_host(
        pair_counts(
            asarray_on(ic.astype(np.int64), xp), asarray_on(cc.astype(np.int64), xp), len(iu), len(cu)
        )
    )
    assert got.dtype == np.int64
    # crosstab drops labels that only occur next to a missing label on the other side
    frame = pd.DataFrame(got, index=iu, columns=cu)
    frame = frame.loc[frame.sum(axis=1) > 0, frame.sum(axis=0) > 0]
    np.testing.assert_array_equal(frame.to_numpy(), expected.to_numpy())
    assert list(frame.index) == list(expected.index) and list(frame.columns) == list(expected.columns)


def test_pair_counts_matches_crosstab(xp):
    a = pd.Series(["x", "y", "x", None, "y", "x"], name="a")
    b = pd.Series([1.0, 2.0, 1.0, 2.0, np.nan, 2.0], name="b")
    _crosstab_check(a, b, xp)


@PROPS
@given(
    rows=st.lists(
        st.tuples(st.sampled_from(["p", "q", "r", None]), st.sampled_from([0.0, 1.0, 2.5, None])),
        min_size=1,
        max_size=25,
    )
)
def test_property_pair_counts(rows, xp):
    a = pd.Series([r[0] for r in rows], dtype="str", name="a")
    b = pd.Series([r[1] for r in rows], dtype="float64", name="b")
    if a.notna().mul(b.notna()).sum() == 0:
        return  # pandas' crosstab of no complete pairs is an empty frame with no labels
    _crosstab_check(a, b, xp)


@PROPS
@given(cells=st.sets(st.tuples(st.integers(0, 4), st.integers(0, 3)), max_size=20), seed=st.integers(0, 1000))
def test_property_pivot_take(cells, seed, xp):
    cells = list(cells)
    rng = np.random.default_rng(seed)
    rng.shuffle(cells)
    df = pd.DataFrame(
        {"i": [c[0] for c in cells], "c": [c[1] for c in cells], "v": np.arange(len(cells), dtype=np.float64)}
    )
    if df.empty:
        return
    expected, icodes, ccodes, iuniq, cuniq = _pivot_expected_and_codes(df)
    take = to_host(pivot_take(asarray_on(icodes, xp), asarray_on(ccodes, xp), len(iuniq), len(cuniq)))
    got = np.where(take >= 0, df["v"].to_numpy()[np.maximum(take, 0)], np.nan)
    np.testing.assert_array_equal(got, expected.to_numpy())

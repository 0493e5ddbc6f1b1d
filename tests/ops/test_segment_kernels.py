"""The shared-memory group-sum/count kernels and the scatter extremes, against expected values computed
independently (pandas' groupby), so the tests can fail on the CPU backend too, where the kernels' NumPy
reference (bincount, ufunc.at) is what runs."""

import numpy as np
import pandas as pd
import pytest

import ember
from ember.backend.kernels.segment import MAX_SHARED_GROUPS, segment_count, segment_sum


@pytest.mark.parametrize("slots", [1, 7, 101, MAX_SHARED_GROUPS, MAX_SHARED_GROUPS + 5])
def test_segment_sum_and_count_match_bincount(xp, slots):
    rng = np.random.default_rng(slots)
    target = rng.integers(0, slots, 100_003)
    values = rng.normal(size=target.size)
    got_sum = segment_sum(xp.asarray(target), xp.asarray(values), slots)
    got_count = segment_count(xp.asarray(target), slots)
    groups = pd.Series(values).groupby(target)
    np.testing.assert_allclose(
        np.asarray(got_sum.get() if hasattr(got_sum, "get") else got_sum),
        groups.sum().reindex(range(slots), fill_value=0.0).to_numpy(),
        rtol=1e-9,
        atol=1e-9,
    )
    np.testing.assert_array_equal(
        np.asarray(got_count.get() if hasattr(got_count, "get") else got_count),
        groups.size().reindex(range(slots), fill_value=0).to_numpy(),
    )


def _extreme(start: np.ndarray, idx: np.ndarray, values: np.ndarray, op: str) -> np.ndarray:
    """start[i] combined with the min / max of the values scattered to i (pandas' groupby; NaN wins, as
    in ufunc.at)."""
    ext = getattr(pd.Series(values).groupby(idx), op)(skipna=False)
    out = start.copy()
    pos = ext.index.to_numpy()
    out[pos] = (np.minimum if op == "min" else np.maximum)(start[pos], ext.to_numpy())
    return out


def test_empty_input(xp):
    assert segment_count(xp.zeros(0, dtype=np.int64), 3).tolist() == [0, 0, 0]
    assert segment_sum(xp.zeros(0, dtype=np.int64), xp.zeros(0), 2).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("slots", [50, 20_000])
@pytest.mark.parametrize("op", ["min", "max"])
def test_scatter_extreme_int64_matches_numpy(xp, op, slots):
    from ember.backend.primitives import scatter_max, scatter_min

    rng = np.random.default_rng(1)
    idx = rng.integers(0, slots, 10_000)
    values = rng.integers(-(2**62), 2**62, 10_000)
    start = np.full(slots, 0, dtype=np.int64)
    expected = _extreme(start, idx, values, op)
    out = xp.asarray(start.copy())
    (scatter_min if op == "min" else scatter_max)(out, xp.asarray(idx), xp.asarray(values))
    np.testing.assert_array_equal(out.get() if hasattr(out, "get") else out, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["int64", "uint64"])
def test_segment_sum_int_is_exact_on_the_device(xp, dtype):
    from ember.backend.kernels.segment import segment_sum_int

    rng = np.random.default_rng(2)
    target = rng.integers(0, 101, 50_000)
    values = rng.integers(0 if dtype == "uint64" else -(2**40), 2**40, 50_000).astype(dtype)
    expected = np.zeros(101, dtype=dtype)
    np.add.at(expected, target, values)
    got = segment_sum_int(xp.asarray(target), xp.asarray(values), 101)
    np.testing.assert_array_equal(got.get(), expected)


def test_segment_sum_int_defers_on_the_host():
    from ember.backend.kernels.segment import segment_sum_int

    assert segment_sum_int(np.zeros(3, dtype=np.int64), np.ones(3, dtype=np.int64), 2) is None


@pytest.mark.parametrize("slots", [50, 20_000])
@pytest.mark.parametrize("op", ["min", "max"])
def test_scatter_extreme_float64_is_exact_with_nan_inf(xp, op, slots):
    """float64 extremes keep every bit (no float32 rounding) and propagate NaN like ufunc.at."""
    from ember.backend.primitives import scatter_max, scatter_min

    rng = np.random.default_rng(2)
    idx = rng.integers(0, slots, 10_000)
    values = rng.normal(size=10_000) * 10.0 ** rng.integers(-300, 300, 10_000)
    values[:3] = [np.inf, -np.inf, np.nan]
    init = np.inf if op == "min" else -np.inf
    with np.errstate(invalid="ignore"):
        expected = _extreme(np.full(slots, init), idx, values, op)
    out = xp.full(slots, init)
    (scatter_min if op == "min" else scatter_max)(out, xp.asarray(idx), xp.asarray(values))
    np.testing.assert_array_equal(ember.backend.to_host(out), expected)

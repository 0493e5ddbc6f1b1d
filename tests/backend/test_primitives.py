"""backend.primitives against NumPy's own spellings."""

import numpy as np
import pytest

import ember
from ember.backend.primitives import searchsorted_bounds


@pytest.mark.parametrize(
    "sorted_values,needles",
    [
        # small range: the host answers through a table over the range
        (
            np.sort(np.random.default_rng(0).integers(-50, 900, 1000)),
            np.random.default_rng(1).integers(-80, 1000, 10_000),
        ),
        # needles at the int64 extremes (parked null keys) and a narrower dtype
        (
            np.array([1, 1, 5, 9], dtype=np.int32),
            np.array([np.iinfo(np.int64).min, 0, 1, 5, 6, 9, 10, np.iinfo(np.int64).max] * 600),
        ),
        # wide range: sorted needles and binary searches
        (
            np.sort(np.random.default_rng(2).integers(-(10**12), 10**12, 100_000)),
            np.random.default_rng(3).integers(-(10**12), 10**12, 10_000),
        ),
        # floats never take the table
        (np.sort(np.random.default_rng(4).normal(size=500)), np.random.default_rng(5).normal(size=5000)),
    ],
    ids=["small_range", "extremes", "wide_range", "floats"],
)
def test_searchsorted_bounds_is_numpys(xp, sorted_values, needles):
    lo, hi = searchsorted_bounds(xp.asarray(sorted_values), xp.asarray(needles))
    np.testing.assert_array_equal(ember.backend.to_host(lo), np.searchsorted(sorted_values, needles, "left"))
    np.testing.assert_array_equal(ember.backend.to_host(hi), np.searchsorted(sorted_values, needles, "right"))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "shape,k",
    [((7, 3), 2), ((50, 1000), 1), ((300, 4099), 5), ((20, 200), 16), ((3, 50_000), 5), ((2, 20_011), 16)],
)
@pytest.mark.parametrize("bias", [False, True])
def test_smallest_k_matches_a_stable_sort(xp, dtype, shape, k, bias):
    """smallest_k (the device's top-k kernel, NumPy's partition on the host) against a stable full sort:
    ties go to the lowest column (values drawn from few levels make many), NaN ranks last. Few long rows
    take the kernel's column-chunked path; a column bias is added before ranking."""
    from ember.backend.primitives import smallest_k

    rng = np.random.default_rng(shape[1])
    d = rng.integers(0, 40, shape).astype(dtype)
    d[rng.random(shape) < 0.01] = np.nan
    col_bias = rng.integers(-3, 3, shape[1]).astype(dtype) if bias else None
    values, index = smallest_k(xp.asarray(d), k, None if col_bias is None else xp.asarray(col_bias))
    if bias:
        d = d + col_bias[None, :]
    host = np.where(np.isnan(d), np.inf, d)
    exp_index = np.argsort(host, axis=1, kind="stable")[:, :k]  # ties by column, as the contract says
    exp_values = np.take_along_axis(host, exp_index, axis=1)
    np.testing.assert_array_equal(ember.backend.to_host(index), exp_index)
    np.testing.assert_array_equal(
        np.where(np.isnan(got := ember.backend.to_host(values)), np.inf, got), exp_values
    )


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(9, 1), (1000, 100), (70, 33), (3, 2000), (0, 5)])
@pytest.mark.parametrize("bias", [False, True])
def test_argmin_rows_matches_numpy(xp, dtype, shape, bias):
    """The device's warp-per-row argmin against NumPy's argmin of d + bias: first minimum on ties (few
    distinct values), NaN wins, a row of +inf gives column 0."""
    from ember.backend.primitives import argmin_rows

    rng = np.random.default_rng(shape[0] * 7 + shape[1])
    d = rng.integers(0, 5, shape).astype(dtype)
    d[rng.random(shape) < 0.01] = np.nan
    if shape[0] > 2:
        d[1] = np.inf
    col_bias = rng.integers(-2, 2, shape[1]).astype(dtype) if bias else None
    index, values = argmin_rows(xp.asarray(d), None if col_bias is None else xp.asarray(col_bias))
    full = d + col_bias[None, :] if bias else d
    exp_index = full.argmin(axis=1) if shape[0] else np.zeros(0, dtype=np.int64)
    np.testing.assert_array_equal(ember.backend.to_host(index), exp_index)
    np.testing.assert_array_equal(ember.backend.to_host(values), full[np.arange(shape[0]), exp_index])


@pytest.mark.parametrize("rows", [10, 5000])
def test_take_strings_matches_python(xp, rows):
    """Both spellings (Arrow's take on the host above 1024 rows, the byte gather otherwise and on the
    device) give each picked row's bytes."""
    from ember.backend.primitives import take_strings

    rng = np.random.default_rng(rows)
    words = ["".join(rng.choice(list("abé\x00"), rng.integers(0, 6))) for _ in range(rows)]
    raw = [w.encode() for w in words]
    offsets = np.concatenate([[0], np.cumsum([len(r) for r in raw])]).astype(np.int64)
    chars = np.frombuffer(b"".join(raw), dtype=np.uint8).copy()
    idx = rng.integers(0, rows, rows * 2)
    got_offsets, got_chars = take_strings(xp.asarray(offsets), xp.asarray(chars), xp.asarray(idx))
    got_offsets, got_chars = ember.backend.to_host(got_offsets), ember.backend.to_host(got_chars)
    got = [bytes(got_chars[got_offsets[i] : got_offsets[i + 1]]) for i in range(len(idx))]
    assert got == [raw[i] for i in idx]


@pytest.mark.parametrize("max_len", [1, 4, 37])
def test_window_moments_match_per_window_numpy(xp, max_len):
    """The short-window moments (the device kernel, or NumPy's offset loop) against NumPy on each
    window: empty, all-missing and constant windows included."""
    from ember.backend.primitives import window_moments

    rng = np.random.default_rng(max_len)
    v = np.round(rng.normal(size=400), 1)
    v[rng.random(400) < 0.2] = np.nan
    v[100:160] = 0.1  # constant runs: the mean is exactly the value, the deviations exactly 0
    v[120:125] = np.nan
    start = rng.integers(0, 400, 500)
    end = np.minimum(start + rng.integers(0, max_len + 1, 500), 400)
    start[:3], end[:3] = [5, 110, 399], [5, 110 + max_len, 400]  # empty, constant, one row
    got = [
        ember.backend.to_host(a)
        for a in window_moments(xp.asarray(v), xp.asarray(start), xp.asarray(end), max_len)
    ]
    for i, (s, e) in enumerate(zip(start, end)):
        w = v[s:e][~np.isnan(v[s:e])]
        assert got[0][i] == len(w)
        if len(w) == 0:
            assert got[1][i] == 0 and np.isnan(got[2][i]) and np.isnan(got[4][i]) and np.isnan(got[5][i])
            continue
        np.testing.assert_allclose(
            [got[1][i], got[4][i], got[5][i]], [w.sum(), w.min(), w.max()], rtol=1e-12, atol=1e-12
        )
        if (w == w[0]).all():
            assert got[2][i] == w[0] and got[3][i] == 0.0
        else:
            np.testing.assert_allclose(got[2][i], w.mean(), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(got[3][i], ((w - w.mean()) ** 2).sum(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("bound", [3, 300, 70_000])
def test_stable_argsort_with_a_bound_keeps_ties_in_row_order(xp, bound):
    """Keys narrowed to the smallest unsigned type that holds [0, bound): the same stable order."""
    from ember.backend.primitives import stable_argsort

    keys = np.random.default_rng(bound).integers(0, bound, 20_000)
    got = stable_argsort(xp.asarray(keys), bound=bound)
    np.testing.assert_array_equal(ember.backend.to_host(got), np.argsort(keys, kind="stable"))


@pytest.mark.parametrize("seed", range(3))
def test_repeat_positions_equals_numpy_repeat(xp, seed):
    """Owners of expanded slots, empty entries first, last and in runs included."""
    from ember.backend.primitives import repeat_positions

    counts = np.random.default_rng(seed).integers(0, 4, 2_000)
    counts[:3] = 0
    counts[-5:] = 0
    ends = np.cumsum(counts)
    got = repeat_positions(xp.asarray(counts), xp.asarray(ends), int(ends[-1]))
    np.testing.assert_array_equal(ember.backend.to_host(got), np.repeat(np.arange(counts.size), counts))
    assert ember.backend.to_host(repeat_positions(xp.asarray(counts[:0]), xp.asarray(ends[:0]), 0)).size == 0


@pytest.mark.parametrize("span", [1 << 20, (1 << 32) - 1, 1 << 40])
def test_stable_argsort_of_wide_integer_keys(xp, span):
    """Keys spanning more than 16 bits (two 16-bit radix passes on the host below 2**32): the stable
    order, ties in row order, negative keys included."""
    from ember.backend.primitives import stable_argsort

    rng = np.random.default_rng(span % 1000)
    keys = rng.integers(-(span // 2), span // 2, 30_000)
    keys[::7] = keys[0]  # ties
    got = stable_argsort(xp.asarray(keys))
    np.testing.assert_array_equal(ember.backend.to_host(got), np.argsort(keys, kind="stable"))


def test_gather_bytes_rows_of_every_length(xp):
    """Empty rows, rows shorter and longer than a warp, one long row, sources out of order and
    overlapping: the packed bytes of each row (the device's warp copy against the host indexing)."""
    from ember.backend.primitives import gather_bytes

    rng = np.random.default_rng(8)
    src = rng.integers(0, 256, 300_000).astype(np.uint8)
    lengths = np.concatenate([[0, 1, 31, 32, 33, 100_000, 0], rng.integers(0, 70, 2_000)])
    starts = np.array([rng.integers(0, len(src) - n + 1) for n in lengths], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    got = ember.backend.to_host(gather_bytes(xp.asarray(src), xp.asarray(starts), xp.asarray(offsets)))
    want = np.concatenate([src[s : s + n] for s, n in zip(starts, lengths)])
    np.testing.assert_array_equal(got, want)

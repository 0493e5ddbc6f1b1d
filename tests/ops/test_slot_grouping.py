"""Groupings by slots (small integer key ranges, no per-row codes) against pandas' groupby, and the slot
kernels against their NumPy reference."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from ember.backend import to_host
from ember.backend.kernels.slots import slot_rows, slot_sums
from ember.column import from_pandas
from ember.ops.groupby import aggregate
from ember.ops.grouping import make_grouping

N = 5_000
_rng = np.random.default_rng(11)


def _keys() -> pd.DataFrame:
    r = _rng
    cat = pd.Categorical(r.choice(["b", "a", "c"], N), categories=["c", "b", "a", "unused"])
    cat[r.random(N) < 0.1] = np.nan
    masked = pd.array(r.integers(-3, 4, N), dtype="Int64")
    masked[r.random(N) < 0.1] = pd.NA
    dt = pd.Series(pd.to_datetime("2021-03-01") + pd.to_timedelta(r.integers(0, 5, N), unit="ns"))
    dt[r.random(N) < 0.1] = pd.NaT
    wide_masked = pd.array(r.choice(np.arange(400) * 2**40, N), dtype="Int64")
    wide_masked[r.random(N) < 0.1] = pd.NA
    return pd.DataFrame(
        {
            "k_cat": cat,
            "k_masked": masked,
            "k_dt": dt,
            "k_int8": r.integers(-100, 100, N).astype(np.int8),
            "k_uint": r.integers(0, 7, N).astype(np.uint16),
            "k_bool": r.random(N) > 0.3,
            "k_many": r.integers(0, 20_000, N),  # more slots than a block's shared memory holds
            "k_sorted": np.sort(r.integers(5, 9_000, N)),  # runs of equal keys: warp-uniform adds
            # too wide for a slot per value: hashed slots
            "k_wide": r.choice(r.integers(-(2**56), 2**56, 700), N),
            "k_wide_masked": wide_masked,
            "k_wide_dt": pd.Series(pd.to_datetime(r.choice(r.integers(0, 2**50, 300), N))).where(
                r.random(N) > 0.05
            ),
        }
    )


def _values() -> pd.DataFrame:
    r = _rng
    f = r.normal(size=N)
    f[r.random(N) < 0.15] = np.nan
    nint = pd.array(r.integers(-9, 9, N), dtype="Int64")
    nint[r.random(N) < 0.2] = pd.NA
    nfloat = pd.array(r.normal(size=N), dtype="Float64")
    nfloat[r.random(N) < 0.2] = pd.NA
    return pd.DataFrame(
        {
            "v_int": r.integers(-(2**40), 2**40, N),
            "v_int16": r.integers(-300, 300, N).astype(np.int16),
            "v_uint8": r.integers(0, 255, N).astype(np.uint8),
            "v_float": f,
            "v_f32": f.astype(np.float32),
            "v_bool": r.random(N) > 0.5,
            "v_Int64": nint,
            "v_Float64": nfloat,
        }
    )


KEYS = _keys()
VALUES = _values()
DF = pd.concat([KEYS, VALUES], axis=1)
KEYSETS = [[k] for k in KEYS.columns] + [
    ["k_cat", "k_masked"],
    ["k_bool", "k_int8", "k_uint"],
    ["k_dt", "k_cat"],
    ["k_wide", "k_masked"],
    ["k_cat", "k_wide_masked", "k_bool"],
    ["k_wide_dt", "k_masked", "k_uint"],
]


def _grouping(keys, xp, sort=True, dropna=True):
    return make_grouping([from_pandas(DF[k], xp) for k in keys], sort=sort, dropna=dropna)


def _expected(keys, val, op, sort=True, dropna=True, **kw) -> pd.Series:
    g = DF.groupby(keys, sort=sort, dropna=dropna, observed=True)[val]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(g, op)(**kw).reset_index(drop=True)


@pytest.mark.parametrize("keys", KEYSETS, ids="+".join)
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_slot_grouping_matches_pandas(keys, sort, dropna, xp) -> None:
    g = _grouping(keys, xp, sort, dropna)
    assert g.slots is not None  # these keys take the slot path
    pg = DF.groupby(keys, sort=sort, dropna=dropna, observed=True)
    assert g.ngroups == pg.ngroups
    exp_codes = pg.ngroup().to_numpy()
    exp_codes = np.where(np.isnan(exp_codes.astype(float)), -1, exp_codes).astype(np.int64)
    np.testing.assert_array_equal(to_host(g.codes), exp_codes)
    exp_keys = pg.size().index.to_frame(index=False)
    for u, k in zip(g.uniques, keys, strict=True):
        pd.testing.assert_series_equal(u.to_pandas(), exp_keys[k], check_names=False)
    np.testing.assert_array_equal(to_host(g.sizes[: g.ngroups]), pg.size().to_numpy())


@pytest.mark.parametrize("keys", KEYSETS, ids="+".join)
@pytest.mark.parametrize("val", VALUES.columns)
@pytest.mark.parametrize("op", ["sum", "mean", "count", "size"])
def test_slot_aggregations_match_pandas(keys, val, op, xp) -> None:
    g = _grouping(keys, xp, sort=False, dropna=False)
    got = aggregate(g, from_pandas(DF[val], xp), op).to_pandas()
    exp = _expected(keys, val, op, sort=False, dropna=False)
    exact = op != "mean" and DF[val].dtype.kind not in "fF" and str(DF[val].dtype) != "Float64"
    f32 = DF[val].dtype == np.float32  # pandas adds float32 in float32
    tol = {"rtol": 1e-5, "atol": 1e-4} if f32 else {"rtol": 1e-9}
    pd.testing.assert_series_equal(got, exp, check_names=False, check_exact=exact, **tol)


@pytest.mark.parametrize("min_count", [0, 150, 10**6])
def test_slot_sum_min_count(min_count, xp) -> None:
    g = _grouping(["k_cat"], xp)
    for val in ("v_int", "v_float", "v_Int64"):
        got = aggregate(g, from_pandas(DF[val], xp), "sum", min_count=min_count).to_pandas()
        exp = _expected(["k_cat"], val, "sum", min_count=min_count)
        pd.testing.assert_series_equal(got, exp, check_names=False, rtol=1e-9)


def test_slot_sum_wraps_like_numpy(xp) -> None:
    df = pd.DataFrame({"k": [1, 1, 2], "v": np.array([2**62, 2**62, 3], dtype=np.int64)})
    g = make_grouping([from_pandas(df["k"], xp)])
    assert g.slots is not None
    got = aggregate(g, from_pandas(df["v"], xp), "sum").to_pandas()
    assert got.tolist() == [np.int64(2**62) * 2, 3]  # wraps to -2**63, as NumPy and pandas


def test_which_keys_take_slots(xp) -> None:
    wide = pd.Series(np.array([0, 10**12, 5], dtype=np.int64))
    assert make_grouping([from_pandas(wide, xp)]).slots is not None  # hashed
    assert make_grouping([from_pandas(pd.Series([1.5, 2.5]), xp)]).slots is None
    # a range a direct map takes (at most twice the rows) is left to factorize
    mid = pd.Series(np.arange(100_000) * 3 % 150_001)
    assert make_grouping([from_pandas(mid, xp)]).slots is None


@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("sort", [True, False])
def test_hashed_keys_near_int64_limits(sort, dropna, xp) -> None:
    """Keys combined past 2**61 (each key's range near int64's) and a missing key among them."""
    big = np.iinfo(np.int64).max
    df = pd.DataFrame(
        {
            "a": pd.array([big, -big, 0, big, None, -big], dtype="Int64"),
            "b": pd.Categorical(["x", "y", "x", "x", "y", None]),
            "v": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        }
    )
    for keys in (["a"], ["b", "a"]):
        g = make_grouping([from_pandas(df[k], xp) for k in keys], sort=sort, dropna=dropna)
        pg = df.groupby(keys, sort=sort, dropna=dropna, observed=True)
        assert g.ngroups == pg.ngroups
        got = aggregate(g, from_pandas(df["v"], xp), "sum").to_pandas()
        pd.testing.assert_series_equal(got, pg["v"].sum().reset_index(drop=True), check_names=False)
        exp_keys = pg.size().index.to_frame(index=False)
        for u, k in zip(g.uniques, keys, strict=True):
            pd.testing.assert_series_equal(u.to_pandas(), exp_keys[k], check_names=False)


@pytest.mark.parametrize("pattern", ["random", "strided", "consecutive"])
def test_hash_slots_give_one_slot_per_distinct_key(pattern, xp) -> None:
    from ember.backend.kernels.slots import hash_slots

    rng = np.random.default_rng(5)
    n, span = 300_007, 2**62
    pool = {
        "random": rng.integers(0, span, 20_000),
        "strided": np.arange(50_000, dtype=np.int64) << 32,  # low bits all equal: a modulo hash collides
        "consecutive": np.arange(200_000, dtype=np.int64),
    }[pattern]
    key = rng.choice(pool, n)
    key[rng.random(n) < 0.01] = -5  # outside [0, span): the null slot
    valid = rng.random(n) > 0.02
    found = [to_host(a) for a in hash_slots(xp.asarray(key), span, xp.asarray(valid))]
    row_slot, slot_keys, counts, first = found
    row_slot = row_slot.astype(np.int64)
    np.testing.assert_array_equal(counts, np.bincount(row_slot, minlength=len(slot_keys)))
    want_first = np.full(len(slot_keys), n)
    np.minimum.at(want_first, row_slot, np.arange(n))
    np.testing.assert_array_equal(first, want_first)
    null_slot = len(slot_keys) - 1
    inside = valid & (key >= 0)
    assert slot_keys[null_slot] == span
    np.testing.assert_array_equal(row_slot[~inside], null_slot)
    np.testing.assert_array_equal(slot_keys[row_slot[inside]], key[inside])  # each row's slot holds its key
    used = np.unique(row_slot[inside])
    assert len(used) == len(np.unique(key[inside]))  # one slot per distinct key
    empty = np.setdiff1d(np.arange(null_slot), used)
    assert (slot_keys[empty] == -1).all()


# --- the kernels against the NumPy reference ---------------------------------------------------------


def _host(a):
    return None if a is None else to_host(a)


@pytest.mark.gpu
@pytest.mark.parametrize("nslots", [3, 100, 3_000, 50_000])
@pytest.mark.parametrize("sorted_keys", [False, True])
@pytest.mark.parametrize("key_dtype", ["int8", "int32", "int64", "uint16"])
def test_slot_kernels_match_reference(nslots, sorted_keys, key_dtype, xp) -> None:
    rng = np.random.default_rng(nslots)
    n = 200_003
    hi = min(nslots - 1, np.iinfo(key_dtype).max)
    key = rng.integers(0, hi + 1, n)
    if sorted_keys:
        key = np.sort(key)
    key = key.astype(key_dtype)
    key_valid = rng.random(n) > 0.05
    values = rng.normal(size=n)
    values[rng.random(n) < 0.05] = np.nan
    valid = rng.random(n) > 0.1
    ints = rng.integers(-(2**50), 2**50, n)
    lo = 0 if key_dtype.startswith("u") else -1  # slot = key + 1: slot 0 stays empty
    nslots_all = hi - lo + 2
    for kv in (None, key_valid):
        want = slot_rows(key, lo, nslots_all, kv)
        got = slot_rows(xp.asarray(key), lo, nslots_all, None if kv is None else xp.asarray(kv))
        for w, g in zip(want, got):
            np.testing.assert_array_equal(_host(g), w)
        for vals, exact in ((values, False), (ints, True), (ints, False)):
            args = dict(key_valid=kv, valid=valid, exact_int=exact)
            want = slot_sums(key, lo, nslots_all, vals, **args)
            dev = {k: None if v is None else xp.asarray(v) for k, v in args.items() if k != "exact_int"}
            got = slot_sums(xp.asarray(key), lo, nslots_all, xp.asarray(vals), exact_int=exact, **dev)
            if exact:
                np.testing.assert_array_equal(_host(got[0]), want[0])
            else:
                np.testing.assert_allclose(_host(got[0]), want[0], rtol=1e-9, atol=1e-6)
            np.testing.assert_array_equal(_host(got[1]), want[1])


@pytest.mark.parametrize("keys", [["k_cat"], ["k_many"], ["k_bool", "k_int8", "k_uint"]], ids="+".join)
@pytest.mark.parametrize("sort", [True, False])
def test_slot_table_finished_on_the_device(keys, sort, xp, monkeypatch) -> None:
    """Tables above ``_HOST_TABLE_SLOTS`` are finished where the rows are: same groups."""
    from ember.ops import slot_grouping

    monkeypatch.setattr(slot_grouping, "_HOST_TABLE_SLOTS", 0)
    g = _grouping(keys, xp, sort, dropna=False)
    pg = DF.groupby(keys, sort=sort, dropna=False, observed=True)
    np.testing.assert_array_equal(to_host(g.sizes[: g.ngroups]), pg.size().to_numpy())
    got = aggregate(g, from_pandas(DF["v_float"], xp), "mean").to_pandas()
    pd.testing.assert_series_equal(got, pg["v_float"].mean().reset_index(drop=True), check_names=False)


@pytest.mark.parametrize("dropna", [True, False])
def test_made_key_gives_way_to_codes(dropna, xp) -> None:
    """Once per-row codes exist, a grouping of several keys sums by them (its combined key let go)."""
    keys = ["k_cat", "k_masked"]
    g = _grouping(keys, xp, dropna=dropna)
    assert g.slots.owned
    _ = g.codes
    assert g.slots.key is g.codes
    for op in ("sum", "mean", "count"):
        got = aggregate(g, from_pandas(DF["v_float"], xp), op).to_pandas()
        exp = _expected(keys, "v_float", op, dropna=dropna)
        pd.testing.assert_series_equal(got, exp, check_names=False, rtol=1e-9)


@pytest.mark.parametrize("with_valid", [False, True])
@pytest.mark.parametrize("key_dtype", ["int8", "uint16", "int64"])
def test_slot_lookup_matches_reference(with_valid, key_dtype, xp) -> None:
    from ember.backend.kernels.slots import slot_index, slot_lookup

    rng = np.random.default_rng(3)
    key = rng.integers(-3, 60, 10_000).clip(0 if key_dtype.startswith("u") else -3).astype(key_dtype)
    valid = rng.random(10_000) > 0.2 if with_valid else None
    table = rng.integers(-1, 40, 52)  # slots 0..50 hold keys 5..55; 51 is the missing key's
    want = np.array(  # row by row: the key's slot, or the last for a missing key or one outside the range
        [
            table[int(k) - 5 if 5 <= int(k) <= 55 and (valid is None or v) else 51]
            for k, v in zip(key, valid if valid is not None else [True] * len(key), strict=True)
        ]
    )
    np.testing.assert_array_equal(table[slot_index(key, 5, 52, valid)], want)
    got = slot_lookup(xp.asarray(key), 5, 52, xp.asarray(table), None if valid is None else xp.asarray(valid))
    np.testing.assert_array_equal(to_host(got), want)


@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("sort", [True, False])
def test_keys_with_no_value_at_all(dropna, sort, xp) -> None:
    df = pd.DataFrame(
        {
            "k_int": pd.array([None, None, None], dtype="Int64"),
            "k_cat": pd.Categorical([None, None, None], categories=["a", "b"]),
            "v": [1.0, 2.0, np.nan],
        }
    )
    for keys in (["k_int"], ["k_cat"], ["k_int", "k_cat"]):
        g = make_grouping([from_pandas(df[k], xp) for k in keys], sort=sort, dropna=dropna)
        assert g.slots is not None
        pg = df.groupby(keys, sort=sort, dropna=dropna, observed=True)["v"]
        assert g.ngroups == pg.ngroups
        for op in ("sum", "mean", "count", "size"):
            got = aggregate(g, from_pandas(df["v"], xp), op).to_pandas()
            pd.testing.assert_series_equal(got, getattr(pg, op)().reset_index(drop=True), check_names=False)


def test_uint64_keys_past_int64_are_left_to_factorize(xp) -> None:
    big = np.array([2**63 + 5, 2**63 + 7, 2**63 + 5], dtype=np.uint64)
    df = pd.DataFrame({"k": big, "v": [1, 2, 3]})
    g = make_grouping([from_pandas(df["k"], xp)])
    assert g.slots is None
    got = aggregate(g, from_pandas(df["v"], xp), "sum").to_pandas()
    pd.testing.assert_series_equal(got, df.groupby("k")["v"].sum().reset_index(drop=True), check_names=False)


@pytest.mark.parametrize("drop", [False, True])
def test_combine_keys_matches_reference(drop, xp) -> None:
    """The one-pass combined key against the NumPy reference: keys of several types, with a validity
    array, with categorical codes -1, and with no missing value possible."""
    from ember.backend.kernels.slots import combine_keys

    rng = np.random.default_rng(9)
    n = 50_001
    keys = [
        rng.integers(-1, 5, n).astype(np.int8),  # codes: -1 missing, 0..4
        rng.integers(100, 130, n),
        rng.integers(0, 3, n).astype(np.uint16),
        rng.integers(-(2**20), 2**20, n),
    ]
    valids = [None, rng.random(n) > 0.1, None, rng.random(n) > 0.05]
    los, radices, null_digits = [0, 100, 0, -(2**20)], [6, 31, 3, 2**21 + 1], [5, 30, None, 2**21]
    total = int(np.prod(radices))
    want = _combined_by_rows(keys, valids, los, radices, null_digits, total if drop else None)
    np.testing.assert_array_equal(
        combine_keys(keys, valids, los, radices, null_digits, total if drop else None), want
    )
    got = combine_keys(
        [xp.asarray(k) for k in keys],
        [None if v is None else xp.asarray(v) for v in valids],
        los,
        radices,
        null_digits,
        total if drop else None,
    )
    np.testing.assert_array_equal(to_host(got), want)
    assert (want[want < total] >= 0).all() and ((want == total).any() == drop)


def _combined_by_rows(keys, valids, los, radices, null_digits, drop_key):
    """Mixed-radix keys computed row by row in Python ints (the first key most significant)."""
    out = []
    for r in range(len(keys[0])):
        value, missing = 0, False
        for key, valid, lo, radix, null_digit in zip(keys, valids, los, radices, null_digits, strict=True):
            digit = int(key[r]) - lo
            if null_digit is not None and (
                not (0 <= digit < null_digit) or (valid is not None and not valid[r])
            ):
                digit, missing = null_digit, True
            value = value * max(radix, 1) + digit
        out.append(drop_key if (missing and drop_key is not None) else value)
    return np.array(out, dtype=np.int64)


def test_split_keys_undoes_combine_keys(xp) -> None:
    from ember.backend.kernels.slots import combine_keys, split_keys

    rng = np.random.default_rng(2)
    radices = [7, 1, 100_003, 2**20, 3]
    keys = [rng.integers(0, r, 10_000) for r in radices]
    nones = [None] * len(keys)
    combined = combine_keys([xp.asarray(k) for k in keys], nones, [0] * 5, radices, nones)
    for got, want in zip(split_keys(combined, radices), keys, strict=True):
        np.testing.assert_array_equal(to_host(got), want)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint16", "int64", "uint64"])
def test_key_ranges_match_reference(dtype, xp) -> None:
    """Each key's (min, max) of its valid values, one sync for all (the device's one-pass kernel
    against NumPy); a key with no valid value gives (0, -1)."""
    from ember.column import NumericColumn
    from ember.ops.factorize import key_ranges

    rng = np.random.default_rng(4)
    info = np.iinfo(dtype)
    n = 30_011
    values = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    valid = rng.random(n) > 0.3
    cols = [
        NumericColumn(xp.asarray(values), None),
        NumericColumn(xp.asarray(values), xp.asarray(valid), nullable=True),
        NumericColumn(xp.asarray(values), xp.zeros(n, dtype=bool), nullable=True),
        NumericColumn(xp.asarray(values[:0]), None),
    ]
    got = key_ranges(cols)
    kept = values[valid]
    assert got == [
        (int(values.min()), int(values.max())),
        (int(kept.min()), int(kept.max())),
        (0, -1),
        (0, -1),
    ]

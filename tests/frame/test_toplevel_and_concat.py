"""Top-level functions against pandas: to_numeric of every input type, date_range with anchored
and multiple frequencies, cut / qcut's return types and bins, concat's columns and dtypes; each case
pandas' result, pandas' error, or NotImplementedError."""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.testing import assert_eq


def _outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn()
    except Exception as exc:  # noqa: BLE001
        return exc


# --- to_numeric -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda m: m.Index(["1", "2", "3"], name="x"),
        lambda m: m.Index([1, 2], dtype="int8"),
        lambda m: m.RangeIndex(3),
        lambda m: m.Series(["1", "2.5"], name="s"),
    ],
)
def test_to_numeric_keeps_the_container_type(make):
    assert_eq(em.to_numeric(make(em)), pd.to_numeric(make(pd)))


def test_to_numeric_index_coerce_and_errors():
    assert_eq(
        em.to_numeric(em.Index(["1", "2.5", "a"]), errors="coerce"),
        pd.to_numeric(pd.Index(["1", "2.5", "a"]), errors="coerce"),
    )
    with pytest.raises(ValueError):
        pd.to_numeric(pd.Index(["1", "a"]))
    with pytest.raises(ValueError):
        em.to_numeric(em.Index(["1", "a"]))


@pytest.mark.parametrize("arg", [["1", "2"], np.array(["1", "2.5"]), "3", 4.5])
def test_to_numeric_lists_arrays_scalars(arg):
    got, want = em.to_numeric(arg), pd.to_numeric(arg)
    assert type(got) is type(want)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


# --- date_range -----------------------------------------------------------------------------------

FREQS = [
    "ME", "3ME", "-1ME", "-3ME", "MS", "2MS", "-2MS", "QE", "2QE", "QE-JAN", "QE-FEB", "QS", "QS-FEB",
    "2QS-MAR", "YE", "2YE", "YE-MAR", "YS", "YS-JUN", "-1YE", "W", "W-MON", "2W-WED", "-1W", "D", "3D",
    "-2D", "h", pd.offsets.MonthEnd(3), pd.offsets.MonthBegin(-2),
]  # fmt: skip
STARTS = [None, "2018-01-01", "2018-01-31", "2018-02-15 10:30", "2018-03-31", "2018-03-01 06:00"]
ENDS = [None, "2018-12-31", "2019-02-15 08:00", "2017-06-30", "2018-01-31 12:00"]
RANGES = [
    (f, s, e, p)
    for f, s, e, p in itertools.product(FREQS, STARTS, ENDS, [None, 1, 5])
    if sum(v is not None for v in (s, e, p)) == 2
]


def _same_range(got, want):
    if isinstance(want, Exception):
        assert isinstance(got, (type(want), NotImplementedError)), (got, want)
        return
    if isinstance(got, NotImplementedError):
        return
    assert not isinstance(got, Exception), got
    got = got.to_pandas()
    assert got.dtype == want.dtype
    assert list(got.asi8) == list(want.asi8), (list(got), list(want))


@pytest.mark.parametrize("freq", FREQS, ids=str)
def test_date_range_anchored_and_multiple_frequencies(freq):
    for f, s, e, p in (r for r in RANGES if r[0] is freq):
        _same_range(
            _outcome(lambda s=s, e=e, p=p, f=f: em.date_range(start=s, end=e, periods=p, freq=f)),
            _outcome(lambda s=s, e=e, p=p, f=f: pd.date_range(start=s, end=e, periods=p, freq=f)),
        )


def test_date_range_multiple_month_end_starts_at_the_first_anchor():
    for freq in ("3ME", pd.offsets.MonthEnd(3)):
        _same_range(
            em.date_range(start="1/1/2018", periods=5, freq=freq),
            pd.date_range(start="1/1/2018", periods=5, freq=freq),
        )


@pytest.mark.parametrize("freq", ["D", "h", "W-MON", "ME", "-1ME", "QS"])
@pytest.mark.parametrize(
    "kw",
    [
        {"start": pd.Timestamp("2262-01-01").as_unit("ns"), "periods": 200},
        {"end": pd.Timestamp("1677-12-31").as_unit("ns"), "periods": 200},
        {"start": pd.Timestamp("2262-01-01").as_unit("ns"), "end": pd.Timestamp("2262-04-11").as_unit("ns")},
        {"start": pd.Timestamp("2262-01-01").as_unit("ns"), "periods": 3},
    ],
)
def test_date_range_out_of_bounds_as_pandas(freq, kw):
    _same_range(
        _outcome(lambda: em.date_range(freq=freq, **kw)), _outcome(lambda: pd.date_range(freq=freq, **kw))
    )


@pytest.mark.parametrize("freq", ["B", "C", "BME", "SME", pd.DateOffset(months=1)], ids=str)
def test_date_range_other_offsets_are_refused(freq):
    with pytest.raises(NotImplementedError):
        em.date_range("2018-01-01", periods=3, freq=freq)


def test_date_range_periods_checked():
    for m in (pd, em):
        with pytest.raises(TypeError):
            m.date_range("2018-01-01", periods=2.0, freq="D")
    with pytest.raises(NotImplementedError):
        em.date_range("2018-01-01", periods=-1, freq="ME")


# --- cut / qcut -----------------------------------------------------------------------------------


def test_cut_array_with_labels_is_a_categorical():
    values = np.array([1, 7, 5])
    got = em.cut(values, 3, labels=["bad", "medium", "good"])
    want = pd.cut(values, 3, labels=["bad", "medium", "good"])
    assert isinstance(got, pd.Categorical)
    pd.testing.assert_extension_array_equal(got, want)
    got_q, got_bins = em.qcut(values, 3, labels=["a", "b", "c"], retbins=True)
    want_q, want_bins = pd.qcut(values, 3, labels=["a", "b", "c"], retbins=True)
    pd.testing.assert_extension_array_equal(got_q, want_q)
    np.testing.assert_array_equal(got_bins, want_bins)
    pd.testing.assert_extension_array_equal(
        em.cut(em.Index([1, 7, 5]), 3, labels=list("abc")), pd.cut(pd.Index([1, 7, 5]), 3, labels=list("abc"))
    )


@pytest.mark.parametrize(
    "bins", [[0, 2, 4, 8], np.array([0, 2, 4, 8], dtype=np.int32), [0, 2.5, 4, 8], 3], ids=str
)
def test_cut_retbins_keeps_the_bins_dtype(bins):
    got, got_bins = em.cut(em.Series([1, 7, 5]), bins, labels=False, retbins=True)
    want, want_bins = pd.cut(pd.Series([1, 7, 5]), bins, labels=False, retbins=True)
    assert_eq(got, want)
    assert got_bins.dtype == want_bins.dtype
    np.testing.assert_array_equal(got_bins, want_bins)
    got_a, got_bins = em.cut(np.array([1, 7, 5]), bins, labels=False, retbins=True)
    want_a, want_bins = pd.cut(np.array([1, 7, 5]), bins, labels=False, retbins=True)
    np.testing.assert_array_equal(to_host(got_a), want_a)
    assert got_bins.dtype == want_bins.dtype


def test_cut_retbins_dropped_duplicates_keep_dtype():
    got = em.cut(em.Series([1, 7, 5]), [0, 2, 2, 8], labels=False, retbins=True, duplicates="drop")
    want = pd.cut(pd.Series([1, 7, 5]), [0, 2, 2, 8], labels=False, retbins=True, duplicates="drop")
    assert_eq(got[0], want[0])
    assert got[1].dtype == want[1].dtype
    np.testing.assert_array_equal(got[1], want[1])


# --- str.is* predicates -----------------------------------------------------------------------------

PREDICATES = [
    "isalpha",
    "isdigit",
    "isdecimal",
    "isnumeric",
    "isspace",
    "isalnum",
    "islower",
    "isupper",
    "istitle",
]


def _unicode_sample():
    r = np.random.default_rng(0)
    cps = np.r_[np.arange(0x3000), r.integers(0x3000, 0x110000, 3000)]
    cps = cps[(cps < 0xD800) | (cps >= 0xE000)]
    chars = [chr(c) for c in cps.tolist()]
    pool = list("aA1 _ǅǈ½³ªʰ⅕Ⅷ二") + chars[::37]
    multi = ["".join(r.choice(pool, r.integers(0, 5))) for _ in range(3000)]
    return chars + multi + ["23", "³", "⅕", "", np.nan]


@pytest.mark.parametrize(
    "dtype", ["str", "string", pd.StringDtype("python"), "string[pyarrow]", object], ids=str
)
def test_str_predicates_follow_pandas_for_every_string_dtype(dtype):
    ps = pd.Series(_unicode_sample(), dtype=dtype)
    es = em.from_pandas(ps)
    for name in PREDICATES:
        assert_eq(getattr(es.str, name)(), getattr(ps.str, name)())

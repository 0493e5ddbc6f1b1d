"""Datetime / timedelta ticks that leave int64's range: unit conversions (astype, mixed-unit
arithmetic and comparisons), to_datetime of numbers with a unit, and timedelta / datetime arithmetic
raise pandas' errors (OutOfBoundsDatetime, OutOfBoundsTimedelta, OverflowError) instead of wrapping,
or give NaT with errors='coerce'. Every expectation is computed with the installed pandas."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)
NUMPY_25 = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 5)


def pandas_30_differs(request, reason, when=True):
    """Under pandas 3.0 (the GPU host's) this case must fail: pandas 3.0 answers it wrongly, ember
    gives pandas 3.1's answer, which the same test checks under 3.1 (a strict xfail: a pass fails)."""
    if when and not PANDAS_31:
        request.applymarker(pytest.mark.xfail(reason=f"pandas < 3.1: {reason}", strict=True))


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - the type is compared
            return None, exc


def check(fn):
    """fn(pd) and fn(em) agree: the same value, or the same exception type."""
    expected, perr = _outcome(lambda: fn(pd))
    got, eerr = _outcome(lambda: fn(em))
    if perr is not None:
        assert eerr is not None, f"pandas raised {perr!r}, ember returned {got!r}"
        assert isinstance(eerr, type(perr)), f"pandas raised {perr!r}, ember raised {eerr!r}"
        return
    assert eerr is None, f"ember raised {eerr!r}, pandas returned {expected!r}"
    assert_eq(got, expected)


def M8(values, unit="ns"):
    return np.array(values, dtype=f"M8[{unit}]")


def m8(values, unit="ns"):
    return np.array(values, dtype=f"m8[{unit}]")


# --- astype between units ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "values,src,dst",
    [
        (["9999-12-31"], "s", "ns"),  # out of the nanosecond range: pandas raises
        (["9999-12-31", "NaT"], "s", "ns"),
        (["9999-12-31"], "us", "ns"),
        (["-9999-01-01"], "ms", "ns"),
        (["9999-12-31"], "s", "ms"),  # fits
        (["2000-01-01", "NaT"], "s", "ns"),
        (["1969-12-31T23:59:59.5"], "ms", "s"),  # coarser: floors
    ],
)
def test_datetime_astype_unit(values, src, dst):
    check(lambda m: m.Series(M8(values, src)).astype(f"datetime64[{dst}]"))


def test_datetime_astype_unit_masked_out_of_range_value_is_ignored():
    # a missing row's ticks do not count: only valid values are checked
    check(lambda m: m.Series(pd.Series(M8(["NaT", "2000-01-01"], "s"))).astype("datetime64[ns]"))


def test_tz_aware_astype_unit():
    def fn(m):
        s = pd.Series(M8(["9999-12-31"], "s")).dt.tz_localize("UTC")
        return m.Series(s).astype("datetime64[ns, UTC]")

    check(fn)


@pytest.mark.parametrize(
    "values,src,dst",
    [([10**17], "s", "ns"), ([2**62], "us", "ns"), ([10**12, -5], "s", "ns"), ([-1500], "ms", "s")],
)
def test_timedelta_astype_unit(values, src, dst):
    check(lambda m: m.Series(m8(values, src)).astype(f"timedelta64[{dst}]"))


# --- to_datetime of numbers with a unit ----------------------------------------------------------------


@pytest.mark.parametrize("unit", ["D", "h"])
@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_to_datetime_int_unit_out_of_range(unit, errors):
    check(lambda m: m.to_datetime(m.Series([10**17, 1]), unit=unit, errors=errors))


@pytest.mark.parametrize("unit", ["s", "ms"])
@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_to_datetime_int_unit_out_of_the_microsecond_range(unit, errors):
    check(lambda m: m.to_datetime(m.Series([10**17, 1]), unit=unit, errors=errors))
    check(lambda m: m.to_datetime(m.Series([1.0, 1e17, np.nan]), unit=unit, errors=errors))


@pytest.mark.parametrize("unit", ["D", "h", "m", "s", "ms", "us", "ns"])
@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_to_datetime_float_unit_out_of_range(unit, errors, request):
    # pandas 3.0 raises its OverflowError for numbers past int64 with errors='coerce' too (ember: NaT)
    pandas_30_differs(request, "raises OverflowError with errors='coerce'", errors == "coerce")
    check(lambda m: m.to_datetime(m.Series([1.5, 1e20, np.nan]), unit=unit, errors=errors))
    check(lambda m: m.to_datetime(m.Series([1.5, np.inf]), unit=unit, errors=errors))


@pytest.mark.parametrize("unit", ["D", "s", "ms", "us", "ns"])
def test_to_datetime_float_unit_in_range(unit):
    check(lambda m: m.to_datetime(m.Series([1.5, -2.25, 1e5 + 0.001, np.nan]), unit=unit))
    check(lambda m: m.to_datetime(m.Series([1.0, -2.0, 1e5, np.nan]), unit=unit))  # ints' unit


def test_to_datetime_unit_scalars_lists_and_nullable(request):
    # pandas 3.0 wraps uint64 past int64 (2**64 - 1 ns is -1 ns), raises with errors='coerce' and
    # takes errors='ignore'
    pandas_30_differs(request, "wraps uint64, raises with errors='coerce', takes errors='ignore'")
    check(lambda m: m.to_datetime([1e20], unit="s"))
    check(lambda m: m.to_datetime(m.Series(pd.Series([2**64 - 1, 5], dtype="uint64")), unit="ns"))
    check(
        lambda m: m.to_datetime(
            m.Series(pd.Series([2**64 - 1, 5], dtype="uint64")), unit="ns", errors="coerce"
        )
    )
    check(
        lambda m: m.to_datetime(
            m.Series(pd.Series([10**17, None, 3], dtype="Int64")), unit="D", errors="coerce"
        )
    )
    check(lambda m: m.to_datetime(m.Series(pd.Series([1.5, None], dtype="Float64")), unit="s"))
    check(lambda m: m.to_datetime(m.Series([1]), unit="s", errors="ignore"))


# --- arithmetic ----------------------------------------------------------------------------------------

TD = ["1D", "2D"]


@pytest.mark.parametrize(
    "name",
    [
        "int_col*Timedelta",
        "td*int",
        "td*float",
        "td*int_col",
        "td*float_col",
        "td*Int64_col",
        "td*uint64_col",
        "td*inf",
        "td*nan",
        "Timedelta*int8_col",
        "td/small_float",
        "td//small_float",
        "td/0",
        "td*2**62_to_min",
        "td*bool",
    ],
)
def test_timedelta_scaling_overflow(name, request):
    # pandas 3.0 gives NaT for a float product or quotient past int64; an integer product is NumPy's:
    # OverflowError from NumPy 2.5 (as ember under pandas 3.0), wrapped before
    float_nat = name in ("td*float", "td*float_col", "td*inf", "td/small_float", "td//small_float")
    wraps = not NUMPY_25 and name in _INT_PRODUCTS
    pandas_30_differs(
        request, "NaT (a float) or a wrapped product (NumPy < 2.5) past int64", float_nat or wraps
    )

    def fn(m):
        td = m.Series(pd.to_timedelta(TD))
        return {
            "int_col*Timedelta": lambda: m.Series([10**15, 1]) * pd.Timedelta("1s"),
            "td*int": lambda: td * 10**9,
            "td*float": lambda: td * 1e9,
            "td*int_col": lambda: td * m.Series([10**9, 1]),
            "td*float_col": lambda: td * m.Series([1e9, 1.5]),
            "td*Int64_col": lambda: td * m.Series(pd.Series([10**9, None], dtype="Int64")),
            "td*uint64_col": lambda: td * m.Series(pd.Series([2**63, 1], dtype="uint64")),
            "td*inf": lambda: td * np.inf,
            "td*nan": lambda: td * np.nan,
            "Timedelta*int8_col": lambda: pd.Timedelta("1D") * m.Series(np.array([100, -128], dtype="int8")),
            "td/small_float": lambda: td / 1e-9,
            "td//small_float": lambda: td // 1e-9,
            "td/0": lambda: td / 0,
            "td*2**62_to_min": lambda: m.Series(m8([-(2**62)])) * 2,
            "td*bool": lambda: td * True,
        }[name]()

    check(fn)


_INT_PRODUCTS = (
    "int_col*Timedelta",
    "td*int",
    "td*int_col",
    "td*Int64_col",
    "td*uint64_col",
    "td*2**62_to_min",
)


def test_timedelta_scaling_ignores_missing_rows(request):
    pandas_30_differs(request, "NumPy < 2.5 wraps the product", not NUMPY_25)
    check(lambda m: m.Series(pd.to_timedelta(["NaT", "1ns"])) * 10**18)
    check(lambda m: m.Series(pd.to_timedelta(["NaT", "1D"])) * 10**18)


@pytest.mark.parametrize(
    "name",
    [
        "dt+td",
        "dt+Timedelta",
        "dt-Timedelta",
        "dt-dt",
        "dt-Timestamp",
        "Timestamp-dt",
        "tz_dt+Timedelta",
        "td+td",
        "td-td",
        "td+Timedelta",
        "dt+td_to_min",
        "dt+td_to_min+1",
        "dt_s+Timedelta_ns",
        "dt_s-Timestamp_ns",
        "td_s+td_ns",
        "dt_s-dt_s",
        "dt+td_with_missing",
    ],
)
def test_shift_and_difference_overflow(name, request):
    # a result of exactly -2**63 ticks is NaT's value: pandas 3.0 gives NaT, 3.1 (and ember) raise
    pandas_30_differs(request, "NaT for a result of -2**63 ticks", name in ("td-td", "dt+td_to_min"))

    def fn(m):
        big = m.Series(M8(["2262-04-01"]))
        return {
            "dt+td": lambda: big + m.Series(pd.to_timedelta(["30D"])),
            "dt+Timedelta": lambda: big + pd.Timedelta("30D"),
            "dt-Timedelta": lambda: m.Series(M8(["1677-10-01"])) - pd.Timedelta("30D"),
            "dt-dt": lambda: big - m.Series(M8(["1678-01-01"])),
            "dt-Timestamp": lambda: big - pd.Timestamp("1678-01-01"),
            "Timestamp-dt": lambda: pd.Timestamp("1678-01-01") - big,
            "tz_dt+Timedelta": lambda: (
                m.Series(pd.Series(M8(["2262-04-01"])).dt.tz_localize("UTC")) + pd.Timedelta("30D")
            ),
            "td+td": lambda: m.Series(m8([2**62])) + m.Series(m8([2**62])),
            "td-td": lambda: m.Series(m8([-(2**62)])) - m.Series(m8([2**62])),
            "td+Timedelta": lambda: m.Series(m8([2**62])) + pd.Timedelta(2**62),
            "dt+td_to_min": lambda: m.Series(M8([-(2**62)])) + m.Series(m8([-(2**62)])),
            "dt+td_to_min+1": lambda: m.Series(M8([-(2**62)])) + m.Series(m8([-(2**62) + 1])),
            "dt_s+Timedelta_ns": lambda: m.Series(M8(["9999-01-01"], "s")) + pd.Timedelta(1),
            "dt_s-Timestamp_ns": lambda: (
                m.Series(M8(["9999-01-01"], "s")) - pd.Timestamp("2000-01-01").as_unit("ns")
            ),
            "td_s+td_ns": lambda: m.Series(m8([2**50], "s")) + m.Series(m8([1])),
            "dt_s-dt_s": lambda: m.Series(M8(["9999-01-01"], "s")) - m.Series(M8(["-9999-01-01"], "s")),
            "dt+td_with_missing": lambda: (
                m.Series(M8(["2262-04-01", "NaT"])) + m.Series(pd.to_timedelta(["NaT", "300D"]))
            ),
        }[name]()

    check(fn)


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_comparisons_across_units_do_not_overflow(op):
    def fn(m):
        s = m.Series(M8(["9999-01-01", "2000-01-01", "2000-01-01", "NaT"], "s"))
        ns = m.Series(M8(["2000-01-01", "2000-01-01T00:00:00.000000001", "2000-01-01", "2000-01-01"]))
        return getattr(s, op)(ns)

    check(fn)
    check(
        lambda m: getattr(m.Series(M8(["9999-01-01", "1000-01-01"], "s")), op)(
            pd.Timestamp("2000-01-01").as_unit("ns")
        )
    )
    check(lambda m: getattr(m.Series(m8([2**50, -(2**50), 0], "s")), op)(pd.Timedelta(1)))


# --- to_datetime of strings: the format pandas infers from the first string ---------------------------

MIXED_FORMS = [
    ["2024-01-02", "2024-03-04 05:06:07"],
    ["2024-01-02 05:06:07", "2024-03-04"],
    ["2024-01-02T05:06", "2024-01-02T05:06:07"],
    ["2024-01-02T05:06:07", "2024-01-02 05:06:07"],
    ["2024-01-02 05:06:07", "2024-01-02 05:06:07.123456"],
    ["2024-01-02 05:06:07.123", "2024-01-02 05:06:07"],
    ["2024-01-02 05:06:07+01:00", "2024-01-02 05:06:07"],
    ["2024-01-02 05:06:07", "2024-01-02 05:06:07Z"],
    ["2024/01/02", "2024-01-02"],
    ["2024", "20240102"],
    [None, "2024-01-02", "2024-03-04 05:06:07"],
    ["NaT", "2024-01-02 01:00", "2024-03-04"],
    [" 2024-01-02", "2024-01-02"],
    ["01/02/2024", "2024-01-02"],
]
CONSISTENT_FORMS = [
    ["2024-01-02 05:06:07.5", "2024-01-02 05:06:07.123456"],
    ["2024-01-02 05:06:07Z", "2024-01-02 05:06:07+00:00"],
    ["2024-01-02T05:06:07.123+01:00", "2024-01-02T05:06:07.5+0100", "2024-01-02T05:06:07.5+01"],
    ["2024-01-02", "2024-1-2"],
    ["20240102", "20240103"],
    ["2024-01-02 05:06:07.123456789", "2024-01-02 05:06:07.1"],
    ["NaT", "", "nan", "2024-01-02", None],
    ["", ""],
    ["01/02/2024", "12/31/2024"],
    ["Jan 2 2024", "Feb 10 2024"],
]


@pytest.mark.parametrize("values", MIXED_FORMS + CONSISTENT_FORMS, ids=str)
@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_to_datetime_infers_the_first_strings_format(values, errors):
    check(lambda m: m.to_datetime(m.Series(values), errors=errors))


@pytest.mark.parametrize("values", MIXED_FORMS + CONSISTENT_FORMS, ids=str)
def test_to_datetime_iso8601_parses_each_form(values):
    check(lambda m: m.to_datetime(m.Series(values), format="ISO8601", errors="coerce"))


@pytest.mark.parametrize(
    "values",
    [
        ["2024-01-02", "2024-03-04 05:06:07"],
        ["2024-01-02T05:06:07Z", "2024-01-02T05:06:07+00:00", None],
        ["2024-01-02 05:06:07+01:00", "2024-01-02 05:06:07+02:00"],
    ],
)
def test_to_datetime_mixed_of_iso_strings(values):
    check(lambda m: m.to_datetime(m.Series(values), format="mixed"))


def test_to_datetime_mixed_refuses_what_pandas_hands_to_dateutil():
    with pytest.raises(NotImplementedError, match="dateutil"):
        em.to_datetime(em.Series(["2024-01-02", "Jan 3 2024"]), format="mixed")


def test_to_datetime_index_and_list_infer_the_format():
    check(lambda m: m.to_datetime(m.Index(["2024-01-02", "2024-01-03 01:00"])))
    check(lambda m: m.to_datetime(["2024-01-02", "2024-01-03"]))


# --- nanosecond precision ------------------------------------------------------------------------------

NS_RANGE = pd.date_range("2000-01-01", periods=3, freq="ns")


@pytest.mark.parametrize(
    "build",
    [
        lambda m: m.Series(NS_RANGE),
        lambda m: m.Index(NS_RANGE),
        lambda m: m.DataFrame({"t": NS_RANGE}),
        lambda m: m.Series(NS_RANGE.values),
        lambda m: m.Series(list(NS_RANGE)),
        lambda m: m.Series(pd.date_range("2000-01-01", periods=3, freq="ns", tz="UTC")),
        lambda m: m.Series(pd.to_timedelta([1, 2, 3], unit="ns")),
        lambda m: m.Series([np.timedelta64(1, "ns"), np.timedelta64(2, "ns")]),
        lambda m: m.to_datetime(m.Series(["2000-01-01 00:00:00.000000001", "2000-01-01 00:00:00.000000002"])),
        lambda m: m.to_datetime(m.Series(["2000-01-01 00:00:00.000000001"]), format="%Y-%m-%d %H:%M:%S.%f"),
    ],
)
def test_nanoseconds_survive_construction_and_parsing(build):
    check(build)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"freq": "ns"},
        {"freq": "1500ns"},
        {"freq": pd.Timedelta(1)},
        {"freq": "ns", "unit": "us"},  # pandas: ValueError (was three equal values)
        {"freq": "ns", "tz": "UTC"},
        {"freq": "D"},
    ],
    ids=str,
)
def test_date_range_unit_follows_the_frequency(kwargs):
    check(lambda m: m.date_range("2000-01-01", periods=3, **kwargs))


@pytest.mark.skipif(not PANDAS_31, reason="pandas 3.0 infers these units differently")
def test_range_units_follow_start_and_end():
    check(lambda m: m.date_range(pd.Timestamp(np.datetime64("2000-01-01", "s")), periods=2, freq="D"))
    check(lambda m: m.date_range(pd.Timestamp(np.datetime64("2000-01-01", "ms")), periods=2, freq="s"))
    check(lambda m: m.timedelta_range(0, periods=3, freq="D"))
    check(lambda m: m.timedelta_range(np.timedelta64(1, "s"), periods=3, freq="ms"))
    check(lambda m: m.timedelta_range(pd.Timedelta(1000), periods=2, freq="us"))
    check(lambda m: m.timedelta_range("1D", periods=3, freq="1500ns"))


def test_timedelta_range_frequency_finer_than_the_unit():
    check(lambda m: m.timedelta_range(0, periods=3, freq="ns", unit="us"))

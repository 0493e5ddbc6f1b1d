"""read_csv of integers outside int64: pandas' uint64 column where pandas makes one (exact values, never
float64), and a NotImplementedError naming the column where pandas keeps Python ints in an object column
or decides by the row order (never rounded values). Every parser ember has: the tokenizer (its NumPy
reference here, the same ``build_column`` rule behind the GPU kernels), pyarrow and pandas' C parser."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from ember.io import csv as csv_mod
from ember.io import csv_reference as ref
from ember.io import read_csv

ENGINES = [None, "ember", "pyarrow", "c"]
U64_MAX = 2**64 - 1
PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


def _pandas(data: bytes, **kw) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(data), **kw)


def _ember(data: bytes, engine, **kw) -> pd.DataFrame:
    return read_csv(io.BytesIO(data), engine=engine, **kw).to_pandas()


# pandas reads these as exact uint64 (or int64) columns: so does every ember parser
EXACT = {
    "uint64": b"a,b\n12345678901234567890,1\n12345678901234567891,2\n",
    "uint64-max": b"a\n18446744073709551615\n1\n",
    "int64-max+1": b"a\n9223372036854775808\n0\n",
    "plus-sign": b"a\n+12345678901234567890\n2\n",
    "blank-line": b"a\n12345678901234567890\n\n7\n",
    "int64-limits-19-digits": b"a\n9223372036854775807\n-9223372036854775808\n",
    "19-digits": b"a,b\n1234567890123456789,x\n-1234567890123456789,y\n",
    "leading-zeros": b"a\n00000000000000000000001\n2\n",
    "quoted": b'a\n"12345678901234567890"\n"3"\n',
    "crlf": b"a,b\r\n12345678901234567890,1\r\n5,2\r\n",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(EXACT))
def test_integers_beyond_int64_are_exact(name, engine):
    data = EXACT[name]
    exp = _pandas(data)
    got = _ember(data, engine)
    pd.testing.assert_frame_equal(got, exp)
    assert got["a"].tolist() == exp["a"].tolist()  # exact Python ints, not floats that compare equal


def test_twenty_digit_ids_stay_distinct():
    """The report: 20-digit ids collapsed into one float64 value."""
    ids = [12345678901234567890 + k for k in range(5)]
    data = ("id\n" + "\n".join(map(str, ids)) + "\n").encode()
    for engine in ENGINES:
        got = _ember(data, engine)["id"]
        assert got.dtype == np.uint64
        assert got.tolist() == ids
    assert csv_mod.last_parser() == "c"


# pandas keeps these as Python ints in an object column, or decides by the row order (text keeping the
# missing values as text, float64 for the same values in another order): ember refuses, naming the column
REFUSED = {
    "above-uint64": b"a,b\n18446744073709551616,1\n1,2\n",
    "below-int64": b"a,b\n-9223372036854775809,1\n1,2\n",
    "uint64-and-negative": b"a,b\n12345678901234567890,1\n-1,2\n",
    "uint64-and-missing": b"a,b\n12345678901234567890,1\n,2\n",
    "uint64-and-NA-word": b"a,b\n12345678901234567890,1\nNA,2\n",
    "above-uint64-and-missing": b"a,b\n18446744073709551616,1\n,2\n",
    "above-uint64-and-float": b"a,b\n18446744073709551616,1\n1.5,2\n",
    "uint64-and-negative-float": b"a,b\n12345678901234567890,1\n-1.5,2\n",
    "above-uint64-text-missing": b"a,b\n18446744073709551616,1\nx,2\n,3\n",
    "above-uint64-bool-missing": b"a,b\n18446744073709551616,1\nTrue,2\n,3\n",
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_tokenizer_refuses_integers_pandas_keeps_as_python_ints(name):
    data = REFUSED[name]
    exp = _pandas(data)  # whatever pandas makes of it, it is not an int64/uint64/float64 column ember holds
    assert exp["a"].dtype == object or isinstance(exp["a"].dtype, pd.StringDtype) or exp["a"].isna().any()
    with pytest.raises(NotImplementedError, match="column 'a'"):
        read_csv(io.BytesIO(data), engine="ember")


@pytest.mark.parametrize("engine", [None, "pyarrow", "c"])
@pytest.mark.parametrize("name", list(REFUSED))
def test_host_parsers_give_pandas_answer_or_refuse(name, engine):
    """The host paths give pandas' exact answer (its text column, its float64), or refuse its object
    column of Python ints naming the column; never a rounded float64 where pandas has ints."""
    data = REFUSED[name]
    exp = _pandas(data)
    if exp["a"].dtype == object:
        with pytest.raises(NotImplementedError, match="column 'a'"):
            read_csv(io.BytesIO(data), engine=engine)
        return
    pd.testing.assert_frame_equal(_ember(data, engine), exp)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "data",
    [
        b"a\n12345678901234567890\nx\n",  # text: the digits stay text
        b"a,b\n12345678901234567890,1\nx,2\nNA,3\n",
        b"a,b\n-9223372036854775809,1\nx,2\n,3\n",
        b"a,b\n12345678901234567890,1\nTrue,2\n,3\n",
        b"a\n18446744073709551616\nx\n",
    ],
)
def test_text_columns_holding_long_digits_are_text(data, engine):
    pd.testing.assert_frame_equal(_ember(data, engine), _pandas(data))


@pytest.mark.parametrize("engine", [None, "pyarrow", "c"])
@pytest.mark.parametrize(
    "data",
    [
        b"a\n12345678901234567890\n1.5\n",
        b"a\n1.5\n18446744073709551616\n",
        b"a\n-9223372036854775809\n1e3\n",
        b"a,b\n12345678901234567890,1\n1.5,2\n,3\n",
        b"a\n1e19\n2.5\n",  # a float of the same size, no long digits
        b"a\n12345678901234567890\ninf\n",
    ],
)
def test_mixed_int_float_columns_match_pandas(data, engine):
    """pandas makes float64 of these (the same values in another row order may be text: ember's
    tokenizer refuses them, the host parsers give pandas' answer)."""
    exp = _pandas(data)
    got = _ember(data, engine)
    pd.testing.assert_frame_equal(got, exp)


@pytest.mark.parametrize(
    "data",
    [b"a\n12345678901234567890\n1.5\n", b"a\n-9223372036854775809\n1e3\n", b"a\n1.5\n18446744073709551616\n"],
)
def test_tokenizer_refuses_mixed_long_ints_and_floats(data):
    with pytest.raises(NotImplementedError, match="column 'a'.*dtype="):
        read_csv(io.BytesIO(data), engine="ember")


def test_tokenizer_reads_floats_beside_19_digit_ints():
    data = b"a\n1234567890123456789\n0.5\n"
    pd.testing.assert_frame_equal(_ember(data, "ember"), _pandas(data))
    assert csv_mod.last_parser() == "ember"


@pytest.mark.parametrize("engine", [None, "pyarrow", "c"])
@pytest.mark.parametrize(
    ("data", "dtype"),
    [
        (b"a\n12345678901234567890\n1\n", "uint64"),
        (b"a\n12345678901234567890\n1\n", "float64"),
        (b"a\n12345678901234567890\n1\n", str),
        (b"a\n12345678901234567890\n1\n", object),
        (b"a\n12345678901234567890\n1\n", "UInt64"),
        (b"a,b\n12345678901234567890,1\n,2\n", {"a": "UInt64"}),
        (b"a,b\n12345678901234567890,1\n,2\n", {"a": "float64"}),
        (b"a\n18446744073709551616\n1\n", "float64"),
        (b"a\n18446744073709551616\n1\n", str),
        (b"a\n-9223372036854775809\n1\n", "float64"),
    ],
)
def test_explicit_dtype_matches_pandas(data, dtype, engine):
    pd.testing.assert_frame_equal(_ember(data, engine, dtype=dtype), _pandas(data, dtype=dtype))


@pytest.mark.parametrize("engine", [None, "pyarrow", "c"])
@pytest.mark.parametrize(
    ("data", "dtype"),
    [
        (b"a\n12345678901234567890\n1\n", "int64"),
        (b"a\n12345678901234567890\n1\n", "Int64"),
        (b"a\n18446744073709551616\n1\n", "uint64"),
        (b"a\n-9223372036854775809\n1\n", "int64"),
        (b"a,b\n12345678901234567890,1\n,2\n", {"a": "uint64"}),
    ],
)
def test_explicit_dtype_that_cannot_hold_the_values_raises_as_pandas(data, dtype, engine):
    """pandas 3.1 raises for these (ember's parsers as well). pandas 3.0 reads some of them: its
    parser's frame then (engine="c" is pandas'), or an error."""
    errors = (ValueError, TypeError, OverflowError)
    if PANDAS_31:
        with pytest.raises(errors):
            _pandas(data, dtype=dtype)
        with pytest.raises(errors):
            _ember(data, engine, dtype=dtype)
        return
    try:
        exp = _pandas(data, dtype=dtype)
    except errors:
        with pytest.raises(errors):
            _ember(data, engine, dtype=dtype)
        return
    try:
        got = _ember(data, engine, dtype=dtype)
    except errors:
        assert engine != "c"  # pandas' own parser gives pandas' frame
        return
    pd.testing.assert_frame_equal(got, exp)


def test_pyarrow_path_defers_to_pandas_only_for_long_digits():
    """A float column of large floats written as floats stays on pyarrow; 19+ digits go to pandas."""
    csv_mod.read_csv(io.BytesIO(b"a\n1e19\n2.5\n"), engine="pyarrow")
    assert csv_mod.last_parser() == "pyarrow"
    csv_mod.read_csv(io.BytesIO(b"a\n12345678901234567890\n2\n"), engine="pyarrow")
    assert csv_mod.last_parser() == "c"


# --- the rule itself, on the arrays the GPU kernels also give build_column ----------------------------
@pytest.mark.parametrize(
    "text",
    [
        "0",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999",
        "000000000000000000000018446744073709551615",
        "100000000000000000000000",
        "+18446744073709551615",
    ],
)
def test_wide_integer_values_are_exact(text):
    buf = np.frombuffer(text.encode(), np.uint8)
    fb = ref.field_bytes(buf, np.array([0]), np.array([len(buf)]))
    i64, u64, in_i64, in_u64, negative = ref.wide_integer_values(fb)
    v = int(text)
    assert bool(in_i64[0]) == (-(2**63) <= v < 2**63)
    assert bool(in_u64[0]) == (0 <= v <= U64_MAX and not text.startswith("-"))
    assert bool(negative[0]) == text.startswith("-")
    if in_i64[0]:
        assert int(i64[0]) == v
    if in_u64[0]:
        assert int(u64[0]) == v


def test_uint64_column_through_the_kernel_flags():
    """build_column from the flags csv.cu writes for long integers (FLOAT | LONGINT | SLOW, value 0),
    as the GPU path calls it: pandas' uint64 column."""
    text = b"12345678901234567890\n7\n"
    buf = np.frombuffer(text, np.uint8)
    starts, ends = np.array([0, 21]), np.array([20, 22])
    flags = np.array([ref.F_FLOAT | ref.F_LONGINT | ref.F_SLOW, ref.F_FLOAT | ref.F_INT], np.uint8)
    col = ref.build_column(
        np.array([0, 7]), np.array([0.0, 7.0]), flags, lambda: ref.field_bytes(buf, starts, ends)
    )
    assert col.data.dtype == np.uint64
    assert col.data.tolist() == [12345678901234567890, 7]


@pytest.mark.parametrize("engine", ENGINES)
def test_floats_of_many_digits_are_exact(engine):
    """Floats written with 15 to 18 significant digits and exponents near the edges of the tokenizer's
    fast path: correctly rounded (one rounding, never two), as pandas 3.1 and pyarrow parse them.
    pandas 3.0's parser is not correctly rounded (a fifth of these differ by an ulp): under 3.0 only
    engine="c", which is pandas' parser, gives pandas' values."""
    rng = np.random.default_rng(7)
    values = rng.random(3000) * 10.0 ** rng.integers(-25, 25, 3000)
    digits = [f"{v:.{p}e}" for v, p in zip(values, rng.integers(14, 18, 3000), strict=True)]
    data = ("a,b\n" + "".join(f"{d},{float(v)!r}\n" for d, v in zip(digits, values, strict=True))).encode()
    got = _ember(data, engine)
    exp = _pandas(data)
    exact = pd.DataFrame({"a": [float(d) for d in digits], "b": values})
    if PANDAS_31:
        pd.testing.assert_frame_equal(exp, exact, check_exact=True)
    pd.testing.assert_frame_equal(got, exp if engine == "c" else exact, check_exact=True)
    if engine == "pyarrow":  # fractions of 19+ digits are not integers: no reason to defer to pandas
        assert csv_mod.last_parser() == "pyarrow"

"""ops.regex (the array automaton) against Python's re and pandas' contains/match/fullmatch."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ember.backend import to_host
from ember.column import from_pandas
from ember.ops import strings as S
from ember.ops.regex import compile_pattern, regex_match

VALUES = ["abc", "aXc", "", "a\n", "xyz123", "Ünïcode ü", "٣4", "aaab", "ab ab", None, "hello world", "x"]
PATTERNS = [
    r"a",
    r"^a",
    r"c$",
    r"a$",
    r"\d+",
    r"^\d+$",
    r"[a-c]+",
    r"a.c",
    r"(?:ab|xy)z?",
    r"^$",
    r"a*",
    r"[^a-z]",
    r"\w+\s\w+",
    r"a{2,3}b",
    r"a+?b",
    r"ü",
    r"(?:a|b){2}",
    r"x\Z",
    r"[\d\s]",
    r"\D\W",
    r"(?s)a.",
    r"(?:a|)+b",
    r"[-a]",
    r"\Aab",
    r"ab{0}c",
    r"(?:x|y|z){1,}1?",
]


@pytest.mark.parametrize("dt", ["str", "string", object], ids=str)
@pytest.mark.parametrize("pat", PATTERNS)
def test_against_pandas(xp: object, dt: object, pat: str) -> None:
    values = [np.nan if (v is None and dt is object) else v for v in VALUES]
    s = pd.Series(values, dtype=dt)
    c = from_pandas(s, xp)
    for case in (True, False):
        for mode in ("contains", "match", "fullmatch"):
            exp = getattr(s.str, mode)(pat, case=case)
            got = (
                S.contains(c, pat, case=case)
                if mode == "contains"
                else S.match(c, pat, case=case, full=mode == "fullmatch")
            )
            if exp.dtype == object:
                exp = pd.Series([np.nan if v is None else v for v in exp], dtype=object)
            pd.testing.assert_series_equal(got.to_pandas(), exp, check_names=False)


def test_na_argument(xp: object) -> None:
    s = pd.Series(["ab", None], dtype="str")
    c = from_pandas(s, xp)
    pd.testing.assert_series_equal(S.contains(c, "a", na=True).to_pandas(), s.str.contains("a", na=True))


@pytest.mark.parametrize(
    "pat, what",
    [
        (r"(a)\1", "backreference"),
        (r"a(?=b)", "lookahead"),
        (r"\bfoo", r"\b"),
        (r"a^b", "'^'"),
        (r"(?i:a)b", "inline"),
        (r"a++", "possessive"),
    ],
)
def test_unsupported_constructs(xp: object, pat: str, what: str) -> None:
    c = from_pandas(pd.Series(["ab"]), xp)
    with pytest.raises(NotImplementedError, match=re.escape(what)):
        S.contains(c, pat)


def test_multiline_unsupported() -> None:
    with pytest.raises(NotImplementedError, match="MULTILINE"):
        compile_pattern("^a", re.MULTILINE)


def test_invalid_pattern_raises_re_error() -> None:
    with pytest.raises(re.error):
        compile_pattern("(a")


def test_empty_column(xp: object) -> None:
    c = from_pandas(pd.Series([], dtype="str"), xp)
    assert len(S.contains(c, "a+")) == 0


_ALPHA = "ab\nZé1"
_atoms = st.sampled_from(["a", "b", ".", "[ab]", "[^a]", "\\d", "\\w", "é", "(?:a|b)", "(ab|é)", "Z"])
_quant = st.sampled_from(["", "", "*", "+", "?", "{1,2}", "*?", "{0,3}"])
_pattern = st.lists(st.tuples(_atoms, _quant), min_size=1, max_size=4).map(
    lambda parts: "".join(a + q for a, q in parts)
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pattern=_pattern,
    anchor=st.sampled_from(["", "^", "$", "^$"]),
    values=st.lists(st.text(alphabet=_ALPHA, max_size=7), min_size=1, max_size=8),
    flags=st.sampled_from([0, re.IGNORECASE, re.DOTALL]),
)
def test_hypothesis_vs_re(xp: object, pattern: str, anchor: str, values: list, flags: int) -> None:
    """Automata of up to 64 states: the CUDA kernel on the GPU backend, its NumPy reference on the CPU."""
    pat = ("^" if "^" in anchor else "") + pattern + ("$" if "$" in anchor else "")
    c = from_pandas(pd.Series(values, dtype="str"), xp)
    cp = S.decode(c)
    rx = re.compile(pat, flags)
    for mode, fn in (("search", rx.search), ("match", rx.match), ("fullmatch", rx.fullmatch)):
        got = regex_match(cp, pat, flags, mode).tolist()
        exp = [fn(v) is not None for v in values]
        assert got == exp, (mode, pat, values)


@pytest.mark.parametrize("pat", ["a{70}b", "(?:ab|ba){33}", "^(?:a|é){65,66}$", "x[ab]{64}\\d?"])
def test_more_than_64_states_use_the_product_path(xp: object, pat: str) -> None:
    values = ["a" * 70 + "b", "ab" * 33, "é" * 65, "x" + "ab" * 32 + "1", "a" * 69 + "b", "", None]
    c = from_pandas(pd.Series(values, dtype="str"), xp)
    cp = S.decode(c)
    assert compile_pattern(pat).nstates > 64
    rx = re.compile(pat)
    for mode, fn in (("search", rx.search), ("match", rx.match), ("fullmatch", rx.fullmatch)):
        got = [bool(v) for v in to_host(regex_match(cp, pat, 0, mode))[:-1]]
        assert got == [fn(v) is not None for v in values[:-1]], (mode, pat)


@pytest.mark.parametrize(
    "pat,flags",
    [
        (r"[0-9]{3}-[a-z]+T", 0),
        (r"\w+\s\W\d\D\S", 0),
        (r"[^a-f\d]x.", 0),
        (r"a.b", re.DOTALL),
        (r"[A-Z]k|QQ", re.IGNORECASE),
        (r"\w\s", re.ASCII),
    ],
)
def test_ascii_member_table_equals_the_class_passes(pat: str, flags: int) -> None:
    """ASCII columns look each character's state set up in a 128-entry table; it must equal the
    per-class evaluation on every ASCII code point."""
    from ember.ops.regex import _member_bits

    prog = compile_pattern(pat, flags)
    cps = np.arange(128, dtype=np.int32)
    np.testing.assert_array_equal(_member_bits(np, cps, prog, ascii=True), _member_bits(np, cps, prog))

"""ops.strings against pandas' Series.str on the same data (str, string and object dtypes)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember.column import from_pandas
from ember.ops import string_layout as SL
from ember.ops import strings as S

DTYPES = ["str", "string", object]
VALUES = ["Hello wörld", None, "", "ÀbC", "  x y  ", "日本語テキスト", "a,b,,c", "-42", "Title Case", "ǅx"]


def _series(dt: object, values: list = VALUES) -> pd.Series:
    vals = [np.nan if (v is None and dt is object) else v for v in values]
    return pd.Series(vals, dtype=dt)


def _eq(got: object, exp: pd.Series) -> None:
    if exp.dtype == object:  # ember's object string columns give missing values back as NaN
        exp = pd.Series([np.nan if v is None else v for v in exp], dtype=object, index=exp.index)
    pd.testing.assert_series_equal(got.to_pandas(), exp.reset_index(drop=True), check_names=False)


@pytest.fixture(params=DTYPES, ids=lambda d: str(d))
def pair(request: pytest.FixtureRequest, xp: object) -> tuple[pd.Series, object]:
    s = _series(request.param)
    return s, from_pandas(s, xp)


def test_len(pair: tuple) -> None:
    s, c = pair
    _eq(S.str_len(c), s.str.len())


@pytest.mark.parametrize("kind", ["lower", "upper", "title", "capitalize", "swapcase", "casefold"])
def test_case(pair: tuple, kind: str) -> None:
    s, c = pair
    _eq(S.case_map(c, kind), getattr(s.str, kind)())


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_case_beyond_one_to_one(xp: object, dt: object) -> None:
    """Characters whose mappings differ between Python (object: full mappings, İ -> i̇, ß -> SS,
    ᾳ -> ΑΙ) and pyarrow (str / string: simple ones, İ -> i, ß -> ẞ, ᾳ -> ᾼ), titlecase letters."""
    s = _series(dt, ["İx", "straße", "ᾳ", "ﬁne", "ŉ", "ǅ ǆ Ǆ", "ΐ Σσς", None, "ǰ"])
    c = from_pandas(s, xp)
    for kind in ("lower", "upper", "title", "capitalize", "swapcase", "casefold"):
        _eq(S.case_map(c, kind), getattr(s.str, kind)())


def test_case_expansion_object(xp: object) -> None:
    s = pd.Series(["straße", "ﬁne", "İx"], dtype=object)
    c = from_pandas(s, xp)
    for kind in ("upper", "lower", "title", "casefold"):
        _eq(S.case_map(c, kind), getattr(s.str, kind)())


@pytest.mark.parametrize(
    "name",
    ["isalpha", "isdigit", "isdecimal", "isnumeric", "isalnum", "isspace", "isupper", "islower", "istitle"],
)
def test_predicates(pair: tuple, name: str) -> None:
    s, c = pair
    _eq(S.predicate(c, name), getattr(s.str, name)())


def test_strip_pad(pair: tuple) -> None:
    s, c = pair
    _eq(SL.strip(c), s.str.strip())
    _eq(SL.strip(c, side="left"), s.str.lstrip())
    _eq(SL.strip(c, "x ", side="right"), s.str.rstrip("x "))
    _eq(SL.strip(c, "Hd"), s.str.strip("Hd"))
    _eq(SL.pad(c, 9, "both", "*"), s.str.center(9, "*"))
    _eq(SL.pad(c, 8, "right"), s.str.ljust(8))
    _eq(SL.pad(c, 8, "left", "é"), s.str.rjust(8, "é"))
    _eq(SL.zfill(c, 5), s.str.zfill(5))


@pytest.mark.parametrize(
    "args",
    [
        (None, None, None),
        (1, 4, None),
        (-3, None, None),
        (None, None, -1),
        (5, 0, -2),
        (1, None, 2),
        (-100, 100, 3),
        (2, 2, None),
    ],
)
def test_slice(pair: tuple, args: tuple) -> None:
    s, c = pair
    _eq(SL.str_slice(c, *args), s.str.slice(*args))


def test_get_slice_replace_repeat(pair: tuple) -> None:
    s, c = pair
    _eq(SL.get(c, 1), s.str.get(1))
    _eq(SL.get(c, -1), s.str.get(-1))
    _eq(SL.slice_replace(c, 1, 3, "XY"), s.str.slice_replace(1, 3, "XY"))
    _eq(SL.slice_replace(c, 2, 1, "é"), s.str.slice_replace(2, 1, "é"))
    _eq(S.repeat(c, 3), s.str.repeat(3))


def test_search(pair: tuple) -> None:
    s, c = pair
    _eq(S.startswith(c, ("He", "日")), s.str.startswith(("He", "日")))
    _eq(S.startswith(c, "C", end=True), s.str.endswith("C"))
    _eq(S.startswith(c, "H", na=False), s.str.startswith("H", na=False))
    _eq(S.contains(c, "l", regex=False), s.str.contains("l", regex=False))
    _eq(S.contains(c, "àB", case=False, regex=False), s.str.contains("àB", case=False, regex=False))
    _eq(S.find(c, "l"), s.str.find("l"))
    _eq(S.find(c, "l", reverse=True), s.str.rfind("l"))
    _eq(S.find(c, "l", 3, 8), s.str.find("l", 3, 8))
    _eq(S.find(c, "語"), s.str.find("語"))
    _eq(S.find(c, ""), s.str.find(""))


def test_count_replace(pair: tuple) -> None:
    s, c = pair
    _eq(S.count(c, "l"), s.str.count("l"))
    _eq(S.count(c, "[a-z]+"), s.str.count("[a-z]+"))
    _eq(S.replace(c, "l", "LL"), s.str.replace("l", "LL"))
    _eq(S.replace(c, "l", "", n=1), s.str.replace("l", "", n=1))
    _eq(S.replace(c, "aa", "b"), s.str.replace("aa", "b"))
    _eq(S.replace(c, "[aeiouö]", "_", regex=True), s.str.replace("[aeiouö]", "_", regex=True))
    _eq(S.replace(c, "O", "0", case=False), s.str.replace("O", "0", case=False))


def test_split(pair: tuple) -> None:
    s, c = pair
    for kwargs, rev in [
        ({"pat": ","}, False),
        ({"pat": ",", "n": 1}, True),
        ({"pat": ",", "n": 1}, False),
        ({"pat": None}, False),
        ({"pat": "[, ]", "regex": True}, False),
    ]:
        exp = (s.str.rsplit if rev else s.str.split)(expand=True, **kwargs)
        got = S.split(c, kwargs["pat"], kwargs.get("n", -1), rev, kwargs.get("regex"))
        assert len(got) == exp.shape[1]
        for k, g in enumerate(got):
            _eq(g, exp[k])


def test_cat(pair: tuple) -> None:
    s, c = pair
    assert S.cat_all(c, "|") == s.str.cat(sep="|")
    assert S.cat_all(c, "|", na_rep="?") == s.str.cat(sep="|", na_rep="?")
    _eq(S.cat_rows([c, c], "-"), s.str.cat(s, sep="-"))
    _eq(S.cat_rows([c, c], "", "NA"), s.str.cat(s, na_rep="NA"))


def test_extract(pair: tuple) -> None:
    s, c = pair
    labels, cols = S.extract(c, r"(?P<letter>[a-z])(\d)?")
    exp = s.str.extract(r"(?P<letter>[a-z])(\d)?")
    assert labels == list(exp.columns)
    for lab, col in zip(labels, cols, strict=True):
        _eq(col, exp[lab])


def test_empty_and_one_row(xp: object) -> None:
    for dt in DTYPES:
        for values in ([], ["é"]):
            s = pd.Series(values, dtype=dt)
            c = from_pandas(s, xp)
            _eq(S.case_map(c, "upper"), s.str.upper())
            _eq(S.str_len(c), s.str.len())
            _eq(SL.str_slice(c, 0, 1), s.str.slice(0, 1))
            _eq(SL.pad(c, 3, "both"), s.str.center(3))
            _eq(S.contains(c, "é", regex=False), s.str.contains("é", regex=False))


def test_all_null(xp: object) -> None:
    s = pd.Series([None, None], dtype="string")
    c = from_pandas(s, xp)
    _eq(S.case_map(c, "upper"), s.str.upper())
    _eq(S.str_len(c), s.str.len())
    _eq(S.startswith(c, "a"), s.str.startswith("a"))


def test_errors(xp: object) -> None:
    c = from_pandas(pd.Series(["a"]), xp)
    with pytest.raises(TypeError):
        SL.pad(c, 3, fillchar="ab")
    with pytest.raises(ValueError):
        SL.str_slice(c, 0, 1, 0)
    with pytest.raises(AttributeError):
        S.str_len(from_pandas(pd.Series([1, 2]), xp))


_TEXT = st.text(alphabet=st.sampled_from(list("abcXYZ é日🙂-")), max_size=8)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), _TEXT), max_size=6),
    start=st.one_of(st.none(), st.integers(-10, 10)),
    stop=st.one_of(st.none(), st.integers(-10, 10)),
    step=st.one_of(st.none(), st.integers(-3, 3).filter(lambda x: x != 0)),
)
def test_slice_hypothesis(values: list, start: int | None, stop: int | None, step: int | None) -> None:
    s = pd.Series(values, dtype="string")
    c = from_pandas(s, np)
    _eq(SL.str_slice(c, start, stop, step), s.str.slice(start, stop, step))
    _eq(S.str_len(c), s.str.len())
    if start is not None:
        _eq(SL.get(c, start), s.str.get(start))


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(_TEXT, max_size=6),
    pat=st.text(alphabet=st.sampled_from(list("abé日-")), min_size=1, max_size=3),
    repl=st.text(alphabet=st.sampled_from(list("Zé🙂")), max_size=2),
)
def test_find_replace_hypothesis(values: list, pat: str, repl: str) -> None:
    s = pd.Series(values, dtype=object)
    c = from_pandas(s, np)
    _eq(S.find(c, pat), s.str.find(pat))
    _eq(S.find(c, pat, reverse=True), s.str.rfind(pat))
    _eq(S.replace(c, pat, repl), s.str.replace(pat, repl, regex=False))
    _eq(S.count(c, pat), s.str.count(pat))

"""The words read_csv gives a meaning to (missing values, infinities, booleans), table-driven against
pandas: the expected words come from pandas (its own NA table, and spellings tried one by one), never
from ember's tables, so a word dropped from, or added to, ember's tables fails here on every parser."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from pandas._libs.parsers import STR_NA_VALUES

from ember.io import csv as csv_mod
from ember.io import read_csv

ENGINES = [None, "ember", "pyarrow", "c"]
NA_WORDS = sorted(STR_NA_VALUES - {""})  # "" is the empty field, tested with the contexts below
NEAR_NA = [
    "Null",
    "NONE",
    "none",
    "Nan",
    "NAN",
    "na",
    "nA",
    "N/a",
    "#n/a",
    "null ",
    " NA",
    "nul",
    "<na>",
    "NaT",
]
INF_WORDS = [
    f"{sign}{word}"
    for sign in ("", "+", "-")
    for base in ("inf", "infinity")
    for word in (base, base.upper(), base.capitalize(), base[:2].upper() + base[2:])
]
NEAR_INF = ["in", "infin", "infinit", "infinityy", "++inf", "-+inf", "inf.", "1inf", "i nf", "∞"]
BOOL_WORDS = [
    "True",
    "TRUE",
    "true",
    "tRUE",
    "TRue",
    "False",
    "FALSE",
    "false",
    "fALSE",
    "T",
    "F",
    "yes",
    "no",
]

# a word beside values of each kind: the column's type then depends on what the word means
CONTEXTS = {"float": "1.5", "int": "7", "text": "x", "bool": "True"}


def _csv(*cells: str) -> bytes:
    return (
        "a,b\n" + "".join(f'"{c}",{i}\n' if "," in c else f"{c},{i}\n" for i, c in enumerate(cells))
    ).encode()


def _check(data: bytes, engine: str | None) -> None:
    exp = pd.read_csv(io.BytesIO(data))
    got = read_csv(io.BytesIO(data), engine=engine)
    if engine == "ember":
        assert csv_mod.last_parser() == "ember"
    pd.testing.assert_frame_equal(got.to_pandas(), exp)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("context", list(CONTEXTS))
@pytest.mark.parametrize("word", NA_WORDS + NEAR_NA)
def test_missing_value_words(word, context, engine):
    data = _csv(CONTEXTS[context], word, CONTEXTS[context])
    if engine == "ember" and word != word.strip() and context != "text":
        # a padded word beside numbers: pandas may read the column as numbers; the tokenizer says so
        with pytest.raises(NotImplementedError, match="whitespace around values"):
            read_csv(io.BytesIO(data), engine=engine)
        return
    _check(data, engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("context", ["float", "int", "text"])
def test_empty_field_is_missing(context, engine):
    _check(_csv(CONTEXTS[context], "", CONTEXTS[context]), engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("context", ["float", "int", "text"])
@pytest.mark.parametrize("word", INF_WORDS + NEAR_INF)
def test_infinity_words(word, context, engine):
    _check(_csv(CONTEXTS[context], word), engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("other", ["True", "false", "x", "1", ""])
@pytest.mark.parametrize("word", BOOL_WORDS)
def test_boolean_words(word, other, engine):
    _check(_csv(word, other), engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "kw",
    [
        dict(na_values=["x"]),
        dict(na_values=["x"], keep_default_na=False),
        dict(keep_default_na=False),
        dict(true_values=["yes"], false_values=["no"]),
        dict(na_values="-"),
    ],
)
def test_word_options(kw, engine):
    data = b"a,b,c,d\nx,NA,yes,-\n1.5,null,no,2\n,nan,yes,3\n"
    exp = pd.read_csv(io.BytesIO(data), **kw)
    got = read_csv(io.BytesIO(data), engine=engine, **kw)
    if engine == "ember":
        assert csv_mod.last_parser() == "ember"
    pd.testing.assert_frame_equal(got.to_pandas(), exp)

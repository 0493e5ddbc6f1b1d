"""Text features against scikit-learn: same CSR structure, values equal up to summation order."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction import text as S
from sklearn.utils import murmurhash3_32

import ember
from ember.ml.feature_extraction import _tokens as tk
from ember.ml.feature_extraction import text as E

DOCS = [
    "Hello world, héllo WORLD! The cat sat on the mat.",
    "",
    "a bb ccc dddd eeeee ffffff ggggggg hhhhhhhhh x_y 12 naïve café—über ß日本語 テキスト",
    "a",
    "zz zz zz the and of",
    "Straße ÉCOLE École  tab\tsep\nnewline",
] * 3


def _same(a, b) -> None:
    a, b = sp.csr_matrix(a), sp.csr_matrix(b)
    a.sort_indices()
    b.sort_indices()
    assert a.shape == b.shape
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.indices, b.indices)
    rtol = 1e-12 if b.dtype != np.float32 else 1e-6  # float32 sums in another order on the GPU
    np.testing.assert_allclose(a.data, b.data, rtol=rtol, atol=0)
    assert a.dtype == b.dtype


def _bytes(docs):
    off, chars, _ = E._documents(docs, np, False)
    return off, chars


def test_tokenizer_matches_python_regex_non_ascii():
    off, chars = _bytes(DOCS)
    starts, lens, _ = tk.tokenize_words(off, chars, 2, np)
    got = [bytes(chars[s : s + n]).decode() for s, n in zip(starts, lens, strict=True)]
    assert got == [t for d in DOCS for t in re.findall(r"(?u)\b\w\w+\b", d)]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30), max_size=8
    )
)
def test_tokenizer_and_hash_hypothesis(docs):
    off, chars = _bytes(docs)
    for min_chars, pattern in ((2, r"(?u)\b\w\w+\b"), (1, r"(?u)\b\w+\b")):
        starts, lens, doc = tk.tokenize_words(off, chars, min_chars, np)
        got = [bytes(chars[s : s + n]).decode() for s, n in zip(starts, lens, strict=True)]
        assert got == [t for d in docs for t in re.findall(pattern, d)]
        h = tk.murmurhash3_32(chars, starts, lens, np)
        assert list(h) == [murmurhash3_32(t.encode(), 0) for t in got]


@pytest.mark.parametrize("seed", [0, 1, 0x9747B28C])
def test_murmurhash_all_tail_lengths(seed):
    words = ["", "a", "ab", "abc", "abcd", "abcde", "日本語テキスト", "x" * 37]
    off, chars = _bytes(words)
    h = tk.murmurhash3_32(chars, off[:-1], np.diff(off), np, seed=seed)
    assert list(h) == [murmurhash3_32(w.encode(), seed) for w in words]


HASH_PARAMS = [
    {},
    {"ngram_range": (1, 3)},
    {"stop_words": "english", "ngram_range": (1, 2)},
    {"n_features": 16, "alternate_sign": False, "norm": "l1"},
    {"binary": True, "norm": None},
    {"lowercase": False},
    {"token_pattern": r"(?u)\b\w+\b"},
    {"ngram_range": (2, 2)},
    {"analyzer": "char", "ngram_range": (2, 3)},
    {"analyzer": "char_wb", "ngram_range": (1, 2)},
    {"stop_words": ["cat", "mat", "hello"]},
    {"dtype": np.float32},
]


@pytest.mark.parametrize("params", HASH_PARAMS)
def test_hashing_vectorizer(params):
    _same(
        E.HashingVectorizer(**params).fit_transform(DOCS), S.HashingVectorizer(**params).fit_transform(DOCS)
    )


def test_hashing_vectorizer_ember_series_and_pandas():
    expected = S.HashingVectorizer(n_features=2**12).fit_transform(DOCS)
    _same(E.HashingVectorizer(n_features=2**12).transform(pd.Series(DOCS)), expected)
    ascii_docs = [d for d in DOCS if d.isascii()]
    out = E.HashingVectorizer(n_features=2**12).transform(ember.Series(ascii_docs))
    _same(
        ember.backend.to_host(out.toarray()) if hasattr(out, "get") else out,
        S.HashingVectorizer(n_features=2**12).transform(ascii_docs),
    )


def test_ember_series_lowercase_is_ascii_only():
    """Device-resident strings are lowercased for ASCII only (documented deviation); host lists use
    Unicode lowercasing and match scikit-learn."""
    docs = ["ÉCOLE école"]
    assert E.CountVectorizer().fit(ember.Series(docs)).vocabulary_ == {"École": 0, "école": 1}
    assert E.CountVectorizer().fit(docs).vocabulary_ == S.CountVectorizer().fit(docs).vocabulary_


def test_empty_and_edge_documents():
    docs = ["", "   ", "a"]
    _same(E.HashingVectorizer().fit_transform(docs), S.HashingVectorizer().fit_transform(docs))
    assert E.HashingVectorizer().fit_transform([]).shape == (0, 2**20)  # scikit-learn raises StopIteration
    with pytest.raises(ValueError, match="empty vocabulary"):
        E.CountVectorizer().fit(docs)
    with pytest.raises(ValueError, match="empty vocabulary"):
        S.CountVectorizer().fit(docs)


def test_bad_inputs_raise_like_sklearn():
    with pytest.raises(ValueError, match="string object received"):
        E.HashingVectorizer().transform("one document")
    with pytest.raises(ValueError, match="np.nan is an invalid document"):
        E.HashingVectorizer().transform(["a", np.nan])
    with pytest.raises(ValueError, match="np.nan is an invalid document"):
        E.CountVectorizer().fit([None, "b"])
    with pytest.raises(ValueError):
        E.HashingVectorizer(ngram_range=(2, 1)).transform(["a b"])


COUNT_PARAMS = [
    {},
    {"ngram_range": (1, 2), "min_df": 2},
    {"stop_words": "english", "max_features": 5},
    {"binary": True, "max_df": 0.5},
    {"min_df": 0.1, "max_df": 5},
    {"lowercase": False},
    {"analyzer": "char", "ngram_range": (1, 2)},
    {"vocabulary": ["cat", "zz", "nothere", "hello"]},
]


@pytest.mark.parametrize("params", COUNT_PARAMS)
def test_count_and_tfidf_vectorizer(params):
    e, s = E.CountVectorizer(**params), S.CountVectorizer(**params)
    _same(e.fit_transform(DOCS), s.fit_transform(DOCS))
    assert e.vocabulary_ == s.vocabulary_
    np.testing.assert_array_equal(e.get_feature_names_out(), s.get_feature_names_out())
    _same(e.transform(DOCS[:4] + ["unseen words only"]), s.transform(DOCS[:4] + ["unseen words only"]))
    e, s = E.TfidfVectorizer(**params), S.TfidfVectorizer(**params)
    _same(e.fit_transform(DOCS), s.fit_transform(DOCS))
    np.testing.assert_allclose(e.idf_, s.idf_, rtol=1e-14)
    _same(e.transform(DOCS[2:]), s.transform(DOCS[2:]))


def test_max_df_below_min_df():
    with pytest.raises(ValueError, match="max_df corresponds to < documents than min_df"):
        E.CountVectorizer(max_df=1, min_df=2).fit(DOCS)


def test_count_vectorizer_unfitted():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        E.CountVectorizer().transform(["a b"])


@pytest.mark.parametrize(
    "params",
    [{}, {"sublinear_tf": True, "norm": "l1"}, {"use_idf": False}, {"smooth_idf": False}, {"norm": None}],
)
@pytest.mark.parametrize("dense", [False, True])
def test_tfidf_transformer(params, dense):
    X = S.CountVectorizer().fit_transform(DOCS)
    X = X.toarray() if dense else X
    e, s = E.TfidfTransformer(**params).fit(X), S.TfidfTransformer(**params).fit(X)
    _same(e.transform(X), s.transform(X))
    if params.get("use_idf", True):
        np.testing.assert_allclose(e.idf_, s.idf_, rtol=1e-14)


def test_tfidf_transformer_float32_and_shape_check():
    X = S.CountVectorizer().fit_transform(DOCS).astype(np.float32)
    _same(E.TfidfTransformer().fit_transform(X), S.TfidfTransformer().fit_transform(X))
    t = E.TfidfTransformer().fit(X)
    with pytest.raises(ValueError, match="features"):
        t.transform(X[:, :3])


@pytest.mark.gpu
def test_device_output_for_ember_input():
    out = E.HashingVectorizer().transform(ember.Series(["gpu text here"]))
    assert type(out).__module__.startswith("cupyx")

"""Text features on the device: HashingVectorizer, CountVectorizer, TfidfTransformer, TfidfVectorizer.

Drop-in for ``sklearn.feature_extraction.text``: same parameters, same CSR output (same indices, and
values equal up to floating-point summation order). With ``analyzer='word'``, no custom
preprocessor/tokenizer, no ``strip_accents`` and the default ``token_pattern`` (or ``(?u)\\b\\w+\\b``),
tokenizing, stop-word removal, n-grams and hashing run as array code on the device (see ``_tokens``).
Any other analysis runs scikit-learn's own analyzer on the host, one document at a time, and only the
counting/hashing of the resulting terms runs on the device.

Inputs: lists / NumPy / pandas of str, or an ember string Series (whose bytes already live on the
device). Output: scipy CSR for host inputs, cupyx CSR for ember / device inputs on the GPU backend.
"""

from __future__ import annotations

from numbers import Integral
from types import ModuleType
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.feature_extraction import text as _sk
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.backend.primitives import repeat_positions, scatter_add
from ember.backend.sparse import csr_matrix, is_sparse
from ember.ml._base import compute_xp, input_kind, to_output, validate_data
from ember.ml.feature_extraction import _tokens as tk

ENGLISH_STOP_WORDS = _sk.ENGLISH_STOP_WORDS
_DEVICE_PATTERNS = {r"(?u)\b\w\w+\b": 2, r"\b\w\w+\b": 2, r"(?u)\b\w+\b": 1, r"\b\w+\b": 1}


# --- documents -> bytes on the device ---------------------------------------------------------------


def _documents(raw: Any, xp: ModuleType, lowercase: bool) -> tuple[Any, Any, str]:
    """(offsets, chars, output kind) of the documents on the device of ``xp``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(raw, str):
        raise ValueError("Iterable over raw text documents expected, string object received.")
    kind = input_kind(raw)
    col = getattr(raw, "column", None)
    if col is not None and hasattr(col, "chars"):
        if col.mask is not None and not bool(col.mask.all()):
            raise ValueError("np.nan is an invalid document, expected byte or unicode string.")
        col = col.to(xp)
        offsets, chars = col.offsets.astype(xp.int64), col.chars
        lo, hi = (int(v) for v in backend.to_host(offsets[[0, -1]]))
        chars, offsets = chars[lo:hi], offsets - lo
        return offsets, (tk.ascii_lower(chars, xp) if lowercase else chars), kind
    if backend.is_device_array(raw):
        raise ValueError("Iterable over raw text documents expected, got a numeric device array.")
    try:
        arr = pa.array(raw if hasattr(raw, "__len__") else list(raw))
        if pa.types.is_binary(arr.type) or pa.types.is_large_binary(arr.type):
            arr = arr.cast(pa.large_string())
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type) or len(arr) == 0):
            raise TypeError(arr.type)
    except (pa.ArrowException, TypeError) as exc:
        raise ValueError("np.nan is an invalid document, expected byte or unicode string.") from exc
    if arr.null_count:
        raise ValueError("np.nan is an invalid document, expected byte or unicode string.")
    arr = arr.cast(pa.large_string())
    if lowercase:
        arr = pc.utf8_lower(arr)
    arr = pa.concat_arrays([arr]) if arr.offset else arr
    n = len(arr)
    offsets = np.frombuffer(arr.buffers()[1], dtype=np.int64)[: n + 1] if n else np.zeros(1, np.int64)
    data = arr.buffers()[2]
    chars = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
    chars = chars[offsets[0] : offsets[-1]]
    return backend.asarray_on(offsets - offsets[0], xp), backend.asarray_on(chars, xp), kind


def _host_strings(raw: Any) -> list[Any]:
    if hasattr(raw, "to_pandas"):
        return raw.to_pandas().tolist()
    return list(raw)


# --- analysis -> term lists -------------------------------------------------------------------------


class _DeviceAnalysis(_sk._VectorizerMixin):
    """Turns documents into term lists ``(buf, starts, lens, doc)`` on the device."""

    def _on_device(self) -> bool:
        return (
            self.analyzer == "word"
            and self.tokenizer is None
            and self.preprocessor is None
            and self.strip_accents is None
            and self.input == "content"
            and self.token_pattern in _DEVICE_PATTERNS
        )

    def _terms(self, raw: Any, xp: ModuleType) -> tuple[list[tuple[Any, ...]], int, str]:
        """(term lists, number of documents, output kind)."""
        if isinstance(raw, str):
            raise ValueError("Iterable over raw text documents expected, string object received.")
        self._validate_ngram_range()
        if not self._on_device():
            docs = _host_strings(raw)
            analyze = self.build_analyzer()
            per_doc = [analyze(d) for d in docs]  # scikit-learn's analyzer: a per-document host loop
            terms = [t for ts in per_doc for t in ts]
            doc = np.repeat(np.arange(len(per_doc), dtype=np.int64), [len(ts) for ts in per_doc])
            offsets, chars, _ = _documents(terms, xp, False)
            kind = input_kind(raw)
            return [(chars, offsets[:-1], xp.diff(offsets), backend.asarray_on(doc, xp))], len(docs), kind
        offsets, chars, kind = _documents(raw, xp, self.lowercase)
        starts, lens, doc = tk.tokenize_words(offsets, chars, _DEVICE_PATTERNS[self.token_pattern], xp)
        stop = self.get_stop_words()
        if stop:
            keep = ~_stop_mask(chars, starts, lens, stop, xp)
            starts, lens, doc = starts[keep], lens[keep], doc[keep]
        lo, hi = self.ngram_range
        out = [(chars, starts, lens, doc)] if lo == 1 else []
        for n in range(max(lo, 2), hi + 1):
            out.append(tk.word_ngrams(chars, starts, lens, doc, n, xp))
        return out, int(offsets.shape[0]) - 1, kind


def _stop_mask(chars: Any, starts: Any, lens: Any, stop: Any, xp: ModuleType) -> Any:
    """True for tokens equal to a stop word (hash pre-filter, then an exact byte comparison)."""
    words = sorted(stop)
    soff, schars, _ = _documents(words, xp, False)
    slen = xp.diff(soff)
    width = -(-max(len(w.encode()) for w in words) // 8) * 8
    s_keys = tk.packed_keys(schars, soff[:-1], slen, width, xp)
    s_hash = tk.murmurhash3_32(schars, soff[:-1], slen, xp)
    order = xp.argsort(s_hash)
    s_hash, s_keys = s_hash[order], s_keys[order]
    h = tk.murmurhash3_32(chars, starts, lens, xp)
    pos = xp.minimum(xp.searchsorted(s_hash, h), s_hash.shape[0] - 1)
    cand = (s_hash[pos] == h) & (lens <= width)
    keys = tk.packed_keys(chars, starts, lens, width, xp)
    return cand & (keys == s_keys[pos]).all(axis=1)


# --- sparse assembly ---------------------------------------------------------------------------------


def coo_to_csr(row: Any, col: Any, val: Any, shape: tuple[int, int], xp: ModuleType, dtype: Any) -> Any:
    """CSR with sorted indices from (row, col, val) triples; duplicates summed (explicit zeros kept,
    as scipy's ``sum_duplicates`` keeps them). One sync (the number of stored entries)."""
    key = row.astype(xp.int64) * shape[1] + col.astype(xp.int64)
    order = xp.argsort(key)
    ks = key[order]
    new = xp.ones(ks.shape[0], dtype=bool)
    if ks.shape[0] > 1:
        new[1:] = ks[1:] != ks[:-1]
    seg = xp.cumsum(new, dtype=xp.int64) - 1
    uniq = ks[new]
    data = xp.zeros(uniq.shape[0], dtype=dtype)
    scatter_add(data, seg, val[order].astype(dtype))
    rows = uniq // shape[1]
    indptr = xp.searchsorted(rows, xp.arange(shape[0] + 1, dtype=xp.int64), side="left")
    idx_dtype = xp.int32 if max(shape[1], uniq.shape[0]) < 2**31 else xp.int64
    return csr_matrix(data, (uniq % shape[1]).astype(idx_dtype), indptr.astype(idx_dtype), shape)


def _row_ids(X: Any, xp: ModuleType) -> Any:
    indptr = X.indptr.astype(xp.int64)
    return repeat_positions(xp.diff(indptr), indptr[1:], int(X.data.shape[0]))


def normalize_csr(X: Any, norm: str, xp: ModuleType) -> Any:
    """Rows of CSR ``X`` scaled to unit l1 / l2 norm / max (all-zero rows left alone), as
    ``sklearn.preprocessing.normalize``; returns a new matrix."""
    rows = _row_ids(X, xp)
    data = X.data.astype(xp.float64)  # norms accumulate in double, as scikit-learn's kernels do
    sums = xp.zeros(X.shape[0], dtype=xp.float64)
    if norm == "l2":
        scatter_add(sums, rows, data * data)
        sums = xp.sqrt(sums)
    elif norm == "l1":
        scatter_add(sums, rows, xp.abs(data))
    elif norm == "max":
        from ember.backend.primitives import scatter_max

        scatter_max(sums, rows, xp.abs(data))
    else:
        raise ValueError(f"'{norm}' is not a supported norm")
    sums = xp.where(sums == 0, 1, sums)
    return csr_matrix((data / sums[rows]).astype(X.data.dtype), X.indices, X.indptr, X.shape)


# --- estimators -------------------------------------------------------------------------------------


class HashingVectorizer(TransformerMixin, _DeviceAnalysis, BaseEstimator):
    """Documents -> hashed term counts (MurmurHash3, signed), like sklearn's HashingVectorizer."""

    _parameter_constraints = dict(_sk.HashingVectorizer._parameter_constraints)

    def __init__(
        self,
        *,
        input="content",
        encoding="utf-8",
        decode_error="strict",
        strip_accents=None,
        lowercase=True,
        preprocessor=None,
        tokenizer=None,
        stop_words=None,
        token_pattern=r"(?u)\b\w\w+\b",
        ngram_range=(1, 1),
        analyzer="word",
        n_features=2**20,
        binary=False,
        norm="l2",
        alternate_sign=True,
        dtype=np.float64,
    ):
        self.input = input
        self.encoding = encoding
        self.decode_error = decode_error
        self.strip_accents = strip_accents
        self.preprocessor = preprocessor
        self.tokenizer = tokenizer
        self.analyzer = analyzer
        self.lowercase = lowercase
        self.token_pattern = token_pattern
        self.stop_words = stop_words
        self.n_features = n_features
        self.ngram_range = ngram_range
        self.binary = binary
        self.norm = norm
        self.alternate_sign = alternate_sign
        self.dtype = dtype

    def fit(self, X: Any, y: Any = None) -> HashingVectorizer:
        """Only validates the parameters: hashing needs no state."""
        self._validate_params()
        if isinstance(X, str):
            raise ValueError("Iterable over raw text documents expected, string object received.")
        self._validate_ngram_range()
        return self

    def partial_fit(self, X: Any, y: Any = None) -> HashingVectorizer:
        return self.fit(X, y)

    def transform(self, X: Any) -> Any:
        """Sparse (n_docs, n_features) matrix of the signed hashed term counts."""
        self._validate_params()
        xp = compute_xp()
        terms, n_docs, kind = self._terms(X, xp)
        rows, cols, vals = [], [], []
        for buf, starts, lens, doc in terms:
            h = tk.murmurhash3_32(buf, starts, lens, xp).astype(xp.int64)
            rows.append(doc)
            cols.append(xp.abs(h) % self.n_features)
            vals.append(xp.where(h >= 0, 1.0, -1.0) if self.alternate_sign else xp.ones(h.shape[0]))
        dtype = np.dtype(self.dtype)
        out = coo_to_csr(
            _cat(rows, xp), _cat(cols, xp), _cat(vals, xp, float), (n_docs, self.n_features), xp, dtype
        )
        if self.binary:
            out.data.fill(1)
        if self.norm is not None:
            out = normalize_csr(out, self.norm, xp)
        return to_output(out, kind, self.dtype)

    def fit_transform(self, X: Any, y: Any = None) -> Any:
        return self.fit(X, y).transform(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.two_d_array = False
        tags.requires_fit = False
        return tags


def _cat(parts: list[Any], xp: ModuleType, kind: Any = int) -> Any:
    if parts:
        return xp.concatenate(parts)
    return xp.zeros(0, dtype=xp.float64 if kind is float else xp.int64)


class CountVectorizer(_DeviceAnalysis, BaseEstimator):
    """Documents -> term counts over a learned vocabulary, like sklearn's CountVectorizer.

    Unique terms are found on the device by a 64-bit term hash (two MurmurHash3 seeds); only the
    vocabulary itself (a Python dict, by scikit-learn's API) is decoded on the host. ``max_features``
    ranks terms with the same (host) argsort as scikit-learn, so ties break the same way."""

    _parameter_constraints = dict(_sk.CountVectorizer._parameter_constraints)

    def __init__(
        self,
        *,
        input="content",
        encoding="utf-8",
        decode_error="strict",
        strip_accents=None,
        lowercase=True,
        preprocessor=None,
        tokenizer=None,
        stop_words=None,
        token_pattern=r"(?u)\b\w\w+\b",
        ngram_range=(1, 1),
        analyzer="word",
        max_df=1.0,
        min_df=1,
        max_features=None,
        vocabulary=None,
        binary=False,
        dtype=np.int64,
    ):
        self.input = input
        self.encoding = encoding
        self.decode_error = decode_error
        self.strip_accents = strip_accents
        self.preprocessor = preprocessor
        self.tokenizer = tokenizer
        self.analyzer = analyzer
        self.lowercase = lowercase
        self.token_pattern = token_pattern
        self.stop_words = stop_words
        self.max_df = max_df
        self.min_df = min_df
        self.max_features = max_features
        self.ngram_range = ngram_range
        self.vocabulary = vocabulary
        self.binary = binary
        self.dtype = dtype

    def _keys(self, terms: list[tuple[Any, ...]], xp: ModuleType) -> tuple[Any, Any]:
        keys = [tk.term_hash64(b, s, n, xp) for b, s, n, _ in terms]
        return _cat(keys, xp), _cat([t[3] for t in terms], xp)

    def _set_vocab(self, words: list[str], xp: ModuleType) -> None:
        """Device lookup table (sorted term hashes -> column) for a vocabulary given in column order."""
        off, chars, _ = _documents(words, xp, False)
        keys = tk.term_hash64(chars, off[:-1], xp.diff(off), xp)
        order = xp.argsort(keys)
        self._vocab_keys, self._vocab_cols = keys[order], order.astype(xp.int64)

    def _lookup(self, keys: Any, xp: ModuleType) -> tuple[Any, Any]:
        vk = (
            self._vocab_keys
            if backend.array_module(self._vocab_keys) is xp
            else backend.asarray_on(self._vocab_keys, xp)
        )
        vc = backend.asarray_on(self._vocab_cols, xp)
        if vk.shape[0] == 0:
            return xp.zeros(keys.shape[0], dtype=bool), xp.zeros(keys.shape[0], dtype=xp.int64)
        pos = xp.minimum(xp.searchsorted(vk, keys), vk.shape[0] - 1)
        return vk[pos] == keys, vc[pos]

    def _count(self, terms: list[tuple[Any, ...]], n_docs: int, xp: ModuleType) -> Any:
        keys, doc = self._keys(terms, xp)
        found, cols = self._lookup(keys, xp)
        shape = (n_docs, len(self.vocabulary_))
        out = coo_to_csr(
            doc[found],
            cols[found],
            xp.ones(int(found.sum()), dtype=xp.int64),
            shape,
            xp,
            np.dtype(self.dtype),
        )
        if self.binary:
            out.data.fill(1)
        return out

    def _learn_vocabulary(self, terms: list[tuple[Any, ...]], n_docs: int, xp: ModuleType) -> None:
        keys, doc = self._keys(terms, xp)
        if keys.shape[0] == 0:
            raise ValueError("empty vocabulary; perhaps the documents only contain stop words")
        uniq, first, inv = xp.unique(keys, return_index=True, return_inverse=True)
        inv = inv.ravel()
        nu = uniq.shape[0]
        tf = xp.bincount(inv, minlength=nu)
        pairs = xp.unique(doc * nu + inv)
        df = xp.bincount(pairs % nu, minlength=nu)
        if self.binary:
            tf = df
        words = self._decode(terms, first, xp)
        order = np.argsort(np.array(words, dtype=object), kind="stable")  # sorted(vocabulary)
        mask = self._df_mask(backend.to_host(df)[order], n_docs)
        if self.max_features is not None and mask.sum() > self.max_features:
            tfs = backend.to_host(tf)[order]
            sel = np.flatnonzero(mask)[(-tfs[mask]).argsort()[: self.max_features]]
            mask = np.zeros_like(mask)
            mask[sel] = True
        if not mask.any():
            raise ValueError("After pruning, no terms remain. Try a lower min_df or a higher max_df.")
        kept = [words[i] for i in order[mask]]
        self.vocabulary_ = {w: i for i, w in enumerate(kept)}
        self._set_vocab(kept, xp)

    def _df_mask(self, df: np.ndarray, n_docs: int) -> np.ndarray:
        high = self.max_df if isinstance(self.max_df, Integral) else self.max_df * n_docs
        low = self.min_df if isinstance(self.min_df, Integral) else self.min_df * n_docs
        if high < low:
            raise ValueError("max_df corresponds to < documents than min_df")
        return (df <= high) & (df >= low)

    @staticmethod
    def _decode(terms: list[tuple[Any, ...]], first: Any, xp: ModuleType) -> list[str]:
        """The unique terms as Python strings (one copy of their bytes to the host)."""
        bufs, starts, lens = [], [], []
        base = 0
        for buf, s, n, _ in terms:
            bufs.append(buf)
            starts.append(s + base)
            lens.append(n)
            base += int(buf.shape[0])
        src = xp.concatenate(bufs) if bufs else xp.zeros(0, dtype=xp.uint8)
        data, off = tk.gather_segments(src, _cat(starts, xp)[first], _cat(lens, xp)[first], xp)
        data, off = backend.to_host(data).tobytes(), backend.to_host(off)
        return [data[off[i] : off[i + 1]].decode("utf-8") for i in range(len(off) - 1)]

    def fit(self, raw_documents: Any, y: Any = None) -> CountVectorizer:
        self._fit_counts(raw_documents)
        return self

    def fit_transform(self, raw_documents: Any, y: Any = None) -> Any:
        """Learn the vocabulary and return the (n_docs, n_terms) count matrix."""
        return to_output(*self._fit_counts(raw_documents), self.dtype)

    def transform(self, raw_documents: Any) -> Any:
        """Count the vocabulary's terms in new documents (unknown terms are ignored)."""
        return to_output(*self._transform_counts(raw_documents), self.dtype)

    def _fit_counts(self, raw_documents: Any) -> tuple[Any, str]:
        """(count matrix on the compute device, output kind)."""
        self._validate_params()
        if isinstance(raw_documents, str):
            raise ValueError("Iterable over raw text documents expected, string object received.")
        self._validate_vocabulary()
        xp = compute_xp()
        terms, n_docs, kind = self._terms(raw_documents, xp)
        if self.fixed_vocabulary_:
            self.vocabulary_ = dict(self.vocabulary_)
            self._set_vocab(sorted(self.vocabulary_, key=self.vocabulary_.get), xp)
        else:
            self._learn_vocabulary(terms, n_docs, xp)
        return self._count(terms, n_docs, xp), kind

    def _transform_counts(self, raw_documents: Any) -> tuple[Any, str]:
        if isinstance(raw_documents, str):
            raise ValueError("Iterable over raw text documents expected, string object received.")
        xp = compute_xp()
        if not hasattr(self, "vocabulary_"):
            self._validate_vocabulary()
            if not self.fixed_vocabulary_:
                check_is_fitted(self, "vocabulary_")
            self._set_vocab(sorted(self.vocabulary_, key=self.vocabulary_.get), xp)
        terms, n_docs, kind = self._terms(raw_documents, xp)
        return self._count(terms, n_docs, xp), kind

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        check_is_fitted(self, "vocabulary_")
        return np.asarray(sorted(self.vocabulary_, key=self.vocabulary_.get), dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.two_d_array = False
        return tags


class TfidfTransformer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Count matrix -> tf-idf matrix, like sklearn's TfidfTransformer (on the device)."""

    _parameter_constraints = dict(_sk.TfidfTransformer._parameter_constraints)

    def __init__(self, *, norm="l2", use_idf=True, smooth_idf=True, sublinear_tf=False):
        self.norm = norm
        self.use_idf = use_idf
        self.smooth_idf = smooth_idf
        self.sublinear_tf = sublinear_tf

    def fit(self, X: Any, y: Any = None) -> TfidfTransformer:
        """Learn the idf vector: log((1 + n) / (1 + df)) + 1 with smoothing."""
        self._validate_params()
        X, _ = validate_data(self, X, accept_sparse=("csr", "csc"))
        return self._fit_csr(_as_csr(X, compute_xp()))

    def _fit_csr(self, X: Any) -> TfidfTransformer:
        xp = backend.array_module(X.data)
        dtype = X.dtype if X.dtype in (np.float64, np.float32) else np.dtype(np.float64)
        if self.use_idf:
            n = X.shape[0] + int(self.smooth_idf)
            df = xp.bincount(X.indices.astype(xp.int64), minlength=X.shape[1]).astype(dtype)
            df += float(self.smooth_idf)
            self._idf = xp.log(xp.asarray(n, dtype=dtype) / df).astype(dtype) + dtype.type(1.0)
            self.idf_ = backend.to_host(self._idf)
        return self

    def transform(self, X: Any, copy: bool = True) -> Any:
        check_is_fitted(self)
        X, kind = validate_data(self, X, accept_sparse="csr", dtype=[np.float64, np.float32], reset=False)
        return to_output(self._transform_csr(_as_csr(X, compute_xp())), kind)

    def _transform_csr(self, X: Any) -> Any:
        xp = backend.array_module(X.data)
        data = X.data.astype(xp.float64) if X.data.dtype.kind != "f" else X.data.copy()
        if self.sublinear_tf:
            data = xp.log(data) + data.dtype.type(1.0)
        if self.use_idf:
            idf = self._idf if backend.array_module(self._idf) is xp else backend.asarray_on(self.idf_, xp)
            data = data * idf[X.indices]
        out = csr_matrix(data, X.indices, X.indptr, X.shape)
        if self.norm is not None:
            out = normalize_csr(out, self.norm, xp)
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.requires_fit = False if not self.use_idf else tags.requires_fit
        return tags


def _as_csr(X: Any, xp: ModuleType) -> Any:
    if is_sparse(X):
        X = X.tocsr()
        if not X.has_sorted_indices:
            X = X.copy()
            X.sort_indices()
        return X
    from ember.backend.sparse import device_sparse_dtype, sparse_module

    if xp is not np:
        X = xp.asarray(X)
        X = X.astype(device_sparse_dtype(X.dtype), copy=False)
    return sparse_module(xp).csr_matrix(X)


class TfidfVectorizer(CountVectorizer):
    """CountVectorizer followed by TfidfTransformer, like sklearn's TfidfVectorizer."""

    _parameter_constraints = dict(_sk.TfidfVectorizer._parameter_constraints)

    def __init__(
        self,
        *,
        input="content",
        encoding="utf-8",
        decode_error="strict",
        strip_accents=None,
        lowercase=True,
        preprocessor=None,
        tokenizer=None,
        analyzer="word",
        stop_words=None,
        token_pattern=r"(?u)\b\w\w+\b",
        ngram_range=(1, 1),
        max_df=1.0,
        min_df=1,
        max_features=None,
        vocabulary=None,
        binary=False,
        dtype=np.float64,
        norm="l2",
        use_idf=True,
        smooth_idf=True,
        sublinear_tf=False,
    ):
        super().__init__(
            input=input,
            encoding=encoding,
            decode_error=decode_error,
            strip_accents=strip_accents,
            lowercase=lowercase,
            preprocessor=preprocessor,
            tokenizer=tokenizer,
            analyzer=analyzer,
            stop_words=stop_words,
            token_pattern=token_pattern,
            ngram_range=ngram_range,
            max_df=max_df,
            min_df=min_df,
            max_features=max_features,
            vocabulary=vocabulary,
            binary=binary,
            dtype=dtype,
        )
        self.norm = norm
        self.use_idf = use_idf
        self.smooth_idf = smooth_idf
        self.sublinear_tf = sublinear_tf

    @property
    def idf_(self) -> np.ndarray:
        check_is_fitted(self, "_tfidf")
        return self._tfidf.idf_

    def _transformer(self) -> TfidfTransformer:
        return TfidfTransformer(
            norm=self.norm, use_idf=self.use_idf, smooth_idf=self.smooth_idf, sublinear_tf=self.sublinear_tf
        )

    def fit(self, raw_documents: Any, y: Any = None) -> TfidfVectorizer:
        self.fit_transform(raw_documents)
        return self

    def fit_transform(self, raw_documents: Any, y: Any = None) -> Any:
        """Learn vocabulary and idf; return the tf-idf matrix."""
        counts, kind = self._fit_counts(raw_documents)
        counts = csr_matrix(counts.data.astype(self.dtype), counts.indices, counts.indptr, counts.shape)
        self._tfidf = self._transformer()._fit_csr(counts)
        self._tfidf.n_features_in_ = counts.shape[1]
        return to_output(self._tfidf._transform_csr(counts), kind)

    def transform(self, raw_documents: Any) -> Any:
        check_is_fitted(self, "_tfidf")
        counts, kind = self._transform_counts(raw_documents)
        counts = csr_matrix(counts.data.astype(self.dtype), counts.indices, counts.indptr, counts.shape)
        return to_output(self._tfidf._transform_csr(counts), kind)

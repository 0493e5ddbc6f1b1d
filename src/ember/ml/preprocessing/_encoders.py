"""OrdinalEncoder and OneHotEncoder: per-column categories found and looked up with sort + searchsorted.

Numeric columns are encoded on the device; string / object columns, which cannot live there, are
encoded with NumPy on the host (the same code path with ``xp = numpy``). Categories are sorted as
``np.unique`` sorts them (NaN last).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ember import backend
from ember.backend.sparse import csr_matrix
from ember.ml._base import compute_xp, to_output, validate_data


def _unsupported(est: Any, name: str, value: Any, allowed: str) -> None:
    raise NotImplementedError(f"{type(est).__name__}({name}={value!r}): ember supports {allowed}.")


class _Encoder(TransformerMixin, BaseEstimator):
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def _arrays(self, X: Any, reset: bool) -> tuple[Any, ModuleType, str]:
        X, kind = validate_data(
            self, X, reset=reset, dtype=None, ensure_all_finite="allow-nan", xp=np if _is_object(X) else None
        )
        xp = backend.array_module(X)
        if xp is not np and X.dtype.kind in "OUS":  # pragma: no cover - strings never reach the device
            X = backend.to_host(X)
            xp = np
        return X, xp, kind

    def _fit_categories(self, X: Any, xp: ModuleType) -> None:
        if self.categories != "auto":
            cats = [np.asarray(c) for c in self.categories]
            if len(cats) != X.shape[1]:
                raise ValueError(
                    "Shape mismatch: if categories is an array, it has to be of shape (n_features,)."
                )
            self.categories_ = cats
            return
        self.categories_ = [backend.to_host(_unique(X[:, j], xp)) for j in range(X.shape[1])]

    def _codes(self, X: Any, xp: ModuleType) -> tuple[Any, Any]:
        """(codes (n, d) int64, known mask (n, d))."""
        codes = xp.zeros(X.shape, dtype=xp.int64)
        known = xp.ones(X.shape, dtype=bool)
        for j, cats in enumerate(self.categories_):  # per feature, vectorized over rows
            c = cats if xp is np else backend.asarray_on(cats, xp)
            col = X[:, j]
            if c.dtype.kind == "O" or col.dtype.kind == "O":
                c, col = c.astype(object), col.astype(object)
            pos = xp.minimum(xp.searchsorted(c, col), len(cats) - 1)
            hit = (c[pos] == col) | (_isnan(c[pos], xp) & _isnan(col, xp))
            codes[:, j] = pos
            known[:, j] = hit
        return codes, known

    def _check_unknown(self, X: Any, known: Any) -> None:
        if self.handle_unknown == "error" and not bool(backend.to_host(known.all())):
            j = int(backend.to_host((~known).any(axis=0).argmax()))
            bad = backend.to_host(X[:, j][~known[:, j]])
            raise ValueError(
                f"Found unknown categories {list(np.unique(bad))} in column {j} during transform"
            )


def _is_object(X: Any) -> bool:
    dt = getattr(X, "dtypes", None)
    if dt is not None and hasattr(dt, "__iter__"):
        return any(getattr(d, "kind", "O") in "OUS" for d in dt)
    dtype = getattr(X, "dtype", None)
    if dtype is not None:
        return getattr(dtype, "kind", "O") in "OUS"
    return np.asarray(X).dtype.kind in "OUS"


def _isnan(a: Any, xp: ModuleType) -> Any:
    if a.dtype.kind == "f":
        return xp.isnan(a)
    if a.dtype.kind == "O":
        return np.array([isinstance(v, float) and v != v for v in a], dtype=bool)
    return xp.zeros(a.shape, dtype=bool)


def _unique(col: Any, xp: ModuleType) -> Any:
    if col.dtype.kind == "O":
        vals = list(col)
        nan = [v for v in vals if isinstance(v, float) and v != v]
        try:
            rest = sorted(set(v for v in vals if not (isinstance(v, float) and v != v)))
        except TypeError as exc:
            types = sorted({type(v).__name__ for v in vals})
            raise TypeError(
                f"Encoders require their input argument must be uniformly strings or numbers. Got {types}"
            ) from exc
        if rest and not any(isinstance(v, (str, bytes)) for v in rest):
            return np.array(rest + nan[:1])  # numbers in an object column: a numeric array, like sklearn
        return np.array(rest + nan[:1], dtype=object)
    u = xp.unique(col)
    if u.dtype.kind == "f" and u.shape[0] > 1:
        nan = xp.isnan(u)
        u = xp.concatenate([u[~nan], u[nan][:1]])
    return u


class OrdinalEncoder(OneToOneFeatureMixin, _Encoder):
    """Categories -> integer codes per feature (as floats), like sklearn's OrdinalEncoder."""

    def __init__(
        self,
        *,
        categories="auto",
        dtype=np.float64,
        handle_unknown="error",
        unknown_value=None,
        encoded_missing_value=np.nan,
        min_frequency=None,
        max_categories=None,
    ):
        self.categories = categories
        self.dtype = dtype
        self.handle_unknown = handle_unknown
        self.unknown_value = unknown_value
        self.encoded_missing_value = encoded_missing_value
        self.min_frequency = min_frequency
        self.max_categories = max_categories

    def fit(self, X: Any, y: Any = None) -> OrdinalEncoder:
        if self.min_frequency is not None or self.max_categories is not None:
            _unsupported(
                self,
                "min_frequency/max_categories",
                (self.min_frequency, self.max_categories),
                "None (no infrequent categories)",
            )
        if self.handle_unknown not in ("error", "use_encoded_value"):
            raise ValueError(
                f"The 'handle_unknown' parameter of OrdinalEncoder must be a str among "
                f"{{'error', 'use_encoded_value'}}. Got {self.handle_unknown!r} instead."
            )
        if self.handle_unknown == "use_encoded_value" and self.unknown_value is None:
            raise TypeError(
                "unknown_value should be an integer or np.nan when handle_unknown is "
                "'use_encoded_value', got None."
            )
        X, xp, _ = self._arrays(X, True)
        self._fit_categories(X, xp)
        return self

    def transform(self, X: Any) -> Any:
        check_is_fitted(self, "categories_")
        X, xp, kind = self._arrays(X, False)
        codes, known = self._codes(X, xp)
        self._check_unknown(X, known)
        out = codes.astype(self.dtype)
        if self.handle_unknown == "use_encoded_value":
            out = xp.where(known, out, self.unknown_value)
        nan = (
            _isnan(X, xp)
            if X.dtype.kind != "O"
            else np.vectorize(lambda v: isinstance(v, float) and v != v, otypes=[bool])(X)
        )
        out = xp.where(nan, self.encoded_missing_value, out).astype(self.dtype)
        return to_output(out, kind)

    def inverse_transform(self, X: Any) -> Any:
        check_is_fitted(self, "categories_")
        X = np.asarray(backend.to_host(X))
        cols = []
        for j, cats in enumerate(self.categories_):
            codes = X[:, j]
            ok = ~np.isnan(codes) if codes.dtype.kind == "f" else np.ones(codes.shape, bool)
            col = np.empty(codes.shape[0], dtype=object if cats.dtype.kind in "OUS" else cats.dtype)
            col[ok] = cats[codes[ok].astype(np.int64)]
            if not ok.all():
                col = col.astype(object)
                col[~ok] = None
            cols.append(col)
        return np.stack(cols, axis=1) if cols else np.empty((X.shape[0], 0))


class OneHotEncoder(_Encoder):
    """Categories -> one indicator column per category, like sklearn's OneHotEncoder (drop=None)."""

    def __init__(
        self,
        *,
        categories="auto",
        drop=None,
        sparse_output=True,
        dtype=np.float64,
        handle_unknown="error",
        min_frequency=None,
        max_categories=None,
        feature_name_combiner="concat",
    ):
        self.categories = categories
        self.drop = drop
        self.sparse_output = sparse_output
        self.dtype = dtype
        self.handle_unknown = handle_unknown
        self.min_frequency = min_frequency
        self.max_categories = max_categories
        self.feature_name_combiner = feature_name_combiner

    def fit(self, X: Any, y: Any = None) -> OneHotEncoder:
        if self.drop is not None:
            _unsupported(self, "drop", self.drop, "drop=None")
        if self.min_frequency is not None or self.max_categories is not None:
            _unsupported(
                self,
                "min_frequency/max_categories",
                (self.min_frequency, self.max_categories),
                "None (no infrequent categories)",
            )
        if self.handle_unknown not in ("error", "ignore"):
            _unsupported(self, "handle_unknown", self.handle_unknown, "'error' and 'ignore'")
        X, xp, _ = self._arrays(X, True)
        self._fit_categories(X, xp)
        self.drop_idx_ = None
        return self

    def transform(self, X: Any) -> Any:
        check_is_fitted(self, "categories_")
        X, xp, kind = self._arrays(X, False)
        codes, known = self._codes(X, xp)
        self._check_unknown(X, known)
        sizes = np.array([len(c) for c in self.categories_], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        cx = compute_xp()
        cols = backend.asarray_on(codes, cx) + backend.asarray_on(offsets, cx)
        keep = backend.asarray_on(known, cx)
        n, total = X.shape[0], int(sizes.sum())
        counts = keep.sum(axis=1)
        indptr = cx.concatenate([cx.zeros(1, dtype=cx.int64), cx.cumsum(counts)])
        indices = cols[keep].astype(cx.int32)
        out = csr_matrix(
            cx.ones(indices.shape[0], dtype=self.dtype), indices, indptr.astype(cx.int32), (n, total)
        )
        if not self.sparse_output:
            return to_output(out.toarray(), kind)
        return to_output(out, kind)

    def inverse_transform(self, X: Any) -> Any:
        check_is_fitted(self, "categories_")
        from ember.backend.sparse import is_sparse

        X = X.toarray() if is_sparse(X) else X
        X = np.asarray(backend.to_host(X))
        cols, start = [], 0
        for cats in self.categories_:
            block = X[:, start : start + len(cats)]
            start += len(cats)
            col = cats[block.argmax(axis=1)].astype(object)
            col[block.sum(axis=1) == 0] = None
            cols.append(col)
        return np.stack(cols, axis=1)

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        from sklearn.utils.validation import _check_feature_names_in

        check_is_fitted(self, "categories_")
        names = _check_feature_names_in(self, input_features)
        return np.asarray(
            [f"{n}_{c}" for n, cats in zip(names, self.categories_, strict=True) for c in cats], dtype=object
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

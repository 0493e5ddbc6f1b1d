"""``CategoricalIndex``: an Index whose labels are a CategoricalColumn (codes on the device).

Every Index built around a categorical column is one of these (``Index._from_column`` picks the
class), so set_index, groupby keys and ``from_pandas`` hand them back where pandas gives a
CategoricalIndex. Category edits are ops.categorical's, as ``Series.cat``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import CategoricalColumn
from ember.frame._fallback import unsupported
from ember.frame.categorical_array import Categorical, categorical_column
from ember.frame.index import Index, MultiIndex
from ember.ops import categorical as C


class CategoricalIndex(Index):
    """pandas' ``CategoricalIndex``: labels taken from a fixed set of categories."""

    __slots__ = ()

    def __init__(
        self,
        data: Any = None,
        categories: Any = None,
        ordered: Any = None,
        dtype: Any = None,
        copy: bool = False,
        name: Any = None,
    ) -> None:
        if data is None or pd.api.types.is_scalar(data):
            raise TypeError(
                f"{type(self).__name__}(...) must be called with a collection of some kind, {data!r} was passed"
            )
        if name is None and (isinstance(data, (Index, pd.Index, pd.Series)) or _is_series(data)):
            name = data.name
        self._column = categorical_column(data, categories, ordered, dtype)
        self.name = name

    def _wrap(self, col: CategoricalColumn) -> CategoricalIndex:
        return Index._from_column(col, self.name)  # type: ignore[return-value]

    # --- attributes ----------------------------------------------------------------------------------
    @property
    def categories(self) -> Index:
        return Index._from_column(self._column.categories)

    @property
    def codes(self) -> np.ndarray:
        """A read-only NumPy array of the codes (int8 / int16 ... as pandas)."""
        return Categorical._from_column(self._column).codes

    @property
    def ordered(self) -> bool:
        return self._column.ordered

    @property
    def values(self) -> Categorical:
        return Categorical._from_column(self._column)

    @property
    def array(self) -> Categorical:
        return Categorical._from_column(self._column)

    # --- category edits ------------------------------------------------------------------------------
    def add_categories(self, new_categories: Any) -> CategoricalIndex:
        return self._wrap(C.add_categories(self._column, new_categories))

    def remove_categories(self, removals: Any) -> CategoricalIndex:
        return self._wrap(C.remove_categories(self._column, removals))

    def rename_categories(self, new_categories: Any) -> CategoricalIndex:
        return self._wrap(C.rename_categories(self._column, new_categories))

    def reorder_categories(self, new_categories: Any, ordered: Any = None) -> CategoricalIndex:
        return self._wrap(C.reorder_categories(self._column, new_categories, ordered))

    def set_categories(
        self, new_categories: Any, ordered: Any = None, rename: bool = False
    ) -> CategoricalIndex:
        return self._wrap(C.set_categories(self._column, new_categories, ordered, rename))

    def remove_unused_categories(self) -> CategoricalIndex:
        return self._wrap(C.remove_unused_categories(self._column))

    def as_ordered(self) -> CategoricalIndex:
        return self._wrap(C.with_ordered(self._column, True))

    def as_unordered(self) -> CategoricalIndex:
        return self._wrap(C.with_ordered(self._column, False))

    # --- comparison and mapping ------------------------------------------------------------------------
    def equals(self, other: Any) -> bool:
        """pandas' rules: the same values in the same order, where the categories match up to their
        order (unordered) or exactly (ordered); labels of another dtype are compared as this
        dtype when every one of them is a category (synchronizes the device)."""
        if self is other:
            return True
        if not isinstance(other, Index):
            return False
        if isinstance(other, MultiIndex):
            if any(isinstance(c, tuple) for c in C.categories_index(self._column)):
                raise unsupported("CategoricalIndex.equals", "a MultiIndex beside tuple categories")
            return False
        mine, theirs = self._column, other.column
        if len(mine) != len(theirs):
            return False
        if isinstance(theirs, CategoricalColumn):
            if hash(mine.dtype) != hash(theirs.dtype):
                return False
            recoded = C.set_categories(theirs, C.categories_index(mine))
        else:
            try:
                recoded = C.to_categorical(theirs, mine.dtype)
            except (NotImplementedError, TypeError, ValueError):
                if mine.categories.dtype == object:  # object categories may hold any label
                    raise
                return False  # labels of another kind are no categories (pandas' TypeError, caught)
            if bool((recoded.isna() & ~theirs.isna()).any()):
                return False  # a label that is no category (pandas' TypeError, caught)
        return bool((recoded.codes == mine.codes).all())

    def map(self, mapper: Any, na_action: Any = None) -> Index:
        """pandas' ``CategoricalIndex.map``: the categories are mapped (on the host: they are few);
        a one-to-one mapping keeps the codes (still categorical), any other gives plain labels."""
        col = self._column
        if hasattr(mapper, "to_pandas"):
            mapper = mapper.to_pandas()
        new = C.categories_index(col).map(mapper)  # pandas maps every category (no na_action)
        if isinstance(new, pd.MultiIndex):
            raise unsupported("CategoricalIndex.map", "a mapper giving tuples (pandas makes a MultiIndex)")
        has_nans = bool(col.isna().any())
        na_val = np.nan
        if na_action is None and has_nans:
            na_val = mapper(np.nan) if callable(mapper) else _get(mapper, np.nan)
        if new.is_unique and not new.hasnans and na_val is np.nan:
            dtype = pd.CategoricalDtype(new, ordered=col.ordered)
            cats = C._categories_column(dtype.categories, col.xp)
            return self._wrap(CategoricalColumn(col.codes, cats, col.ordered))
        return Index._from_column(_take_labels(col, new, na_val, has_nans), self.name)


def _get(mapper: Any, key: Any) -> Any:
    """``mapper[key]``, NaN when absent (as pandas' Categorical.map)."""
    try:
        return mapper[key]
    except KeyError:
        return np.nan


def _take_labels(col: CategoricalColumn, new: pd.Index, na_val: Any, has_nans: bool) -> Any:
    """Each row's mapped category (``na_val`` where missing), as pandas' ``np.take``."""
    from ember.column import from_pandas

    xp = col.xp
    if has_nans:
        new = new.insert(len(new), na_val)
    labels = from_pandas(pd.Series(new, copy=False), xp, copy=True)
    if len(new) == 0:
        return labels
    codes = xp.where(col.codes < 0, len(new) - 1, col.codes)
    return labels.take(codes.astype(np.int64))


def _is_series(obj: Any) -> bool:
    return getattr(obj, "_ember_kind", "") == "series"

"""Categorical columns: building them (``astype('category')``) and editing their categories.

Codes are recomputed on the device with one gather through a small old->new code table; the table
itself is computed on the host from the categories (a dictionary, small by construction).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on, to_host
from ember.column import CategoricalColumn, Column, concat_columns, from_pandas


def codes_dtype(ncategories: int) -> np.dtype:
    """The code dtype pandas reports for ``ncategories`` categories (int8, int16, int32, int64)."""
    for dt in (np.int8, np.int16, np.int32):
        if ncategories < np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.int64)


def _categories_column(categories: Any, xp: Any) -> Column:
    if isinstance(categories, Column):
        return categories.to(xp)
    idx = pd.Index(categories)
    if idx.hasnans:
        raise ValueError("Categorical categories cannot be null")
    if not idx.is_unique:
        raise ValueError("Categorical categories must be unique")
    return from_pandas(pd.Series(idx, copy=False), xp)


def encode(col: Column, categories: Column) -> Any:
    """int32 code of each value of ``col`` in ``categories`` (unique), -1 when absent or missing."""
    from ember.ops.factorize import factorize_keys

    xp = col.xp
    k = len(categories)
    if k == 0 or len(col) == 0:
        return xp.full(len(col), -1, dtype=np.int32)
    both = concat_columns([categories, col])
    codes, _, _ = factorize_keys([both], sort=False, dropna=True)
    vals = codes[k:]
    return xp.where((vals >= 0) & (vals < k), vals, -1).astype(np.int32)


def to_categorical(col: Column, dtype: Any = None, infer: bool = True) -> CategoricalColumn:
    """``astype('category')`` / ``astype(CategoricalDtype(...))``: sorted distinct values as categories
    unless the dtype names them. One device sync (the number of categories). With ``infer`` (a
    Series' or a frame's column) an object column's categories are typed as pandas 3 types new values
    (``str`` for strings, bool for True / False); an Index keeps them object, as pandas does."""
    from ember.column.convert import infer_objects
    from ember.ops.factorize import factorize_keys
    from ember.ops.object_missing import categories as missing_objects_categories

    xp = col.xp
    ordered = False
    cats = None
    if isinstance(dtype, pd.CategoricalDtype):
        ordered = bool(dtype.ordered)
        cats = dtype.categories
    elif dtype not in (None, "category"):
        raise TypeError(f"to_categorical: expected 'category' or a CategoricalDtype, got {dtype!r}")
    if isinstance(col, CategoricalColumn):
        if cats is None:
            return CategoricalColumn(
                col.codes, col.categories, ordered if isinstance(dtype, pd.CategoricalDtype) else col.ordered
            )
        return set_categories(col, cats, ordered=ordered)
    if cats is not None:
        cat_col = _categories_column(cats, xp)
        return CategoricalColumn(encode(col, cat_col), cat_col, ordered)
    codes, uniques, _ = factorize_keys([col], sort=True, dropna=True)
    cats = infer_objects(uniques[0]) if infer else uniques[0]
    if infer and (empty := missing_objects_categories(col)) is not None:
        cats = empty  # pandas infers NaT objects as datetime64[s]
    return CategoricalColumn(codes.astype(np.int32), cats, ordered)


def _remap(col: CategoricalColumn, table: np.ndarray, new_cats: Column, ordered: bool) -> CategoricalColumn:
    xp = col.xp
    codes = col.codes
    if table.shape[0] == 0:
        return CategoricalColumn(xp.full(len(col), -1, dtype=np.int32), new_cats, ordered)
    t = asarray_on(table.astype(np.int32), xp)
    out = xp.where(codes >= 0, t[xp.maximum(codes, 0)], -1).astype(np.int32)
    return CategoricalColumn(out, new_cats, ordered)


def categories_index(col: CategoricalColumn) -> pd.Index:
    """The categories as a pandas Index (host; the dictionary is small)."""
    return pd.Index(col.categories.to_pandas())


def set_categories(
    col: CategoricalColumn, new_categories: Any, ordered: bool | None = None, rename: bool = False
) -> CategoricalColumn:
    old = categories_index(col)
    new = pd.Index(new_categories)
    if not new.is_unique:
        raise ValueError("Categorical categories must be unique")
    ordered = col.ordered if ordered is None else bool(ordered)
    new_col = _categories_column(new, col.xp)
    if rename:
        table = np.arange(len(old))
        table[table >= len(new)] = -1
        return _remap(col, table, new_col, ordered)
    return _remap(col, np.asarray(new.get_indexer(old)), new_col, ordered)


def rename_categories(col: CategoricalColumn, new_categories: Any) -> CategoricalColumn:
    old = categories_index(col)
    if isinstance(new_categories, dict):  # pandas builds the categories from a Python list
        new = pd.Index([new_categories.get(c, c) for c in old])
    elif callable(new_categories):
        new = old.map(new_categories)
    else:
        new = pd.Index(list(new_categories))
        if len(new) != len(old):
            raise ValueError("new categories need to have the same number of items as the old categories!")
    return CategoricalColumn(col.codes, _categories_column(new, col.xp), col.ordered)


def add_categories(col: CategoricalColumn, new_categories: Any) -> CategoricalColumn:
    old = categories_index(col)
    add = pd.Index(new_categories if pd.api.types.is_list_like(new_categories) else [new_categories])
    already = set(add) & set(old)
    if already:
        raise ValueError(f"new categories must not include old categories: {already}")
    new = old.append(add)
    return CategoricalColumn(col.codes, _categories_column(new, col.xp), col.ordered)


def remove_categories(col: CategoricalColumn, removals: Any) -> CategoricalColumn:
    old = categories_index(col)
    rem = list(removals) if pd.api.types.is_list_like(removals) else [removals]
    missing = [r for r in rem if r not in set(old)]
    if missing:
        raise ValueError(f"removals must all be in old categories: {set(missing)}")
    keep = old[~old.isin(rem)]
    return set_categories(col, keep)


def remove_unused_categories(col: CategoricalColumn) -> CategoricalColumn:
    xp = col.xp
    k = len(col.categories)
    used = xp.zeros(k + 1, dtype=bool)
    used[xp.where(col.codes >= 0, col.codes, k)] = True
    used_host = to_host(used[:k])
    old = categories_index(col)
    return set_categories(col, old[used_host])


def reorder_categories(
    col: CategoricalColumn, new_categories: Any, ordered: bool | None = None
) -> CategoricalColumn:
    old = categories_index(col)
    new = pd.Index(new_categories)
    if len(new) != len(old) or set(new) != set(old):
        raise ValueError("items in new_categories are not the same as in old categories")
    return set_categories(col, new, ordered=ordered)


def with_ordered(col: CategoricalColumn, ordered: bool) -> CategoricalColumn:
    return CategoricalColumn(col.codes, col.categories, ordered)


def codes_column(col: CategoricalColumn) -> Any:
    from ember.column import NumericColumn

    return NumericColumn(col.codes.astype(codes_dtype(len(col.categories))))


__all__ = [
    "add_categories",
    "codes_column",
    "codes_dtype",
    "encode",
    "remove_categories",
    "remove_unused_categories",
    "rename_categories",
    "reorder_categories",
    "set_categories",
    "to_categorical",
    "with_ordered",
]

"""``ember.api.types``: pandas.api.types for ember objects.

pandas' predicates read ``.dtype`` (and the type) of what they are given, which ember's Series, Index
and DataFrame carry, so they are pandas' own functions. Those that need more than that take ember
objects through pandas: ``is_dict_like`` (by the type of pandas' counterpart), ``infer_dtype`` and
``union_categoricals`` (the values, copied to the host).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pandas.api.types as _pdt

__all__ = [n for n in dir(_pdt) if not n.startswith("_")]
globals().update({n: getattr(_pdt, n) for n in __all__})


def _is_ember(obj: Any) -> bool:
    return type(obj).__module__.startswith("ember.") and hasattr(obj, "to_pandas")


def is_dict_like(obj: Any) -> bool:
    """pandas.api.types.is_dict_like: ember's Series and DataFrame are dict-like, an Index is not."""
    if _is_ember(obj):
        from ember.frame.index import Index

        return not isinstance(obj, Index)
    return _pdt.is_dict_like(obj)


def infer_dtype(value: Any, skipna: bool = True) -> str:
    """pandas.api.types.infer_dtype; ember objects are read on the host."""
    if _is_ember(value):
        value = value.to_pandas()
    return _pdt.infer_dtype(value, skipna=skipna)


def union_categoricals(
    to_union: Any, sort_categories: bool = False, ignore_order: bool = False
) -> pd.Categorical:
    """pandas.api.types.union_categoricals (a pandas Categorical); ember Series are read on the host."""
    to_union = [x.to_pandas() if _is_ember(x) else x for x in to_union]
    return _pdt.union_categoricals(to_union, sort_categories=sort_categories, ignore_order=ignore_order)

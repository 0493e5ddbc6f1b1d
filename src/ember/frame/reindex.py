"""``reindex``: rows (and a frame's columns) in the order of new labels; labels the object does not
have get missing values (an int column then reads as float64, as pandas), or ``fill_value``.

The label lookup runs on the host (``Index.get_indexer``, pandas' hash table over the index labels);
the rows are gathered on the device. ``method`` / ``limit`` / ``tolerance`` (filling from
neighbouring labels) and ``level`` are refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.frame._fallback import unsupported


def row_positions(obj: Any, labels: Any, method: str) -> tuple[Any, Any]:
    """(host positions of ``labels`` in ``obj``'s index, -1 where absent; the new Index)."""
    from ember.frame.index import ensure_index

    new_index = ensure_index(labels, None)
    index = obj.index
    if len(index) and not index.to_pandas().is_unique:
        raise ValueError("cannot reindex on an axis with duplicate labels")
    positions = np.asarray(index.get_indexer(new_index.to_pandas()), dtype=np.int64)
    return positions, new_index


def check_options(method: Any, level: Any, limit: Any, tolerance: Any, name: str) -> None:
    for key, value in (("method", method), ("level", level), ("limit", limit), ("tolerance", tolerance)):
        if value is not None:
            raise unsupported(name, f"{key}= (filling from neighbouring labels)")


def taken(column: Any, positions: np.ndarray, fill_value: Any) -> Any:
    """The column's rows at ``positions`` (-1: a missing value, or ``fill_value``)."""
    from ember.backend import asarray_on

    xp = column.xp
    at = asarray_on(positions, xp)
    absent = positions < 0
    if not absent.any():
        return column.take(at)
    if fill_value is None or (isinstance(fill_value, float) and np.isnan(fill_value)) or len(column) == 0:
        out = column.take_nullable(at)
        if fill_value is not None and len(column) == 0 and not isinstance(fill_value, float):
            from ember.ops.missing import fillna

            out = fillna(out, fill_value)
        return out
    from ember.ops.missing import where

    # pandas' where rules: an int column filled with an int stays int64
    return where(column.take(xp.maximum(at, 0)), asarray_on(~absent, xp), fill_value)

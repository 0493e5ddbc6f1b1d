"""pandas' block-wise dtype of a frame's integer sums: its cython sum / prod (and the running cumsum
/ cumprod) run on each block of columns at once, in 64 bits, and narrow a block back to its dtype
only when every result of the block fits. ember decides column by column; where columns of one
narrow integer dtype disagree, the answer depends on pandas' block layout, which a frame's history
decides (a constructed frame holds one block per dtype, an inserted column a block of its own)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import Column, NumericColumn
from ember.frame._fallback import unsupported

#: the ops whose integer results pandas narrows back to the values' dtype when they fit
NARROWED_OPS = ("sum", "prod", "cumsum", "cumprod")


def _narrow_int(col: Column) -> np.dtype | None:
    """The numpy dtype of a plain integer column narrower than 64 bits (a pandas block's), else None."""
    if type(col) is not NumericColumn or col.nullable:
        return None
    dtype = col.data.dtype
    return dtype if dtype.kind in "iu" and dtype.itemsize < 8 else None


def check_block_dtypes(op: str, items: list[tuple[Any, Column]], results: dict) -> None:
    """Refuse a frame's ``op`` where two value columns of one narrow integer dtype came back one in
    that dtype and one widened (pandas widens both when they share a block, neither otherwise)."""
    if op not in NARROWED_OPS or len(items) < 2:
        return
    kept: dict[np.dtype, set[bool]] = {}
    for label, source in items:
        dtype = _narrow_int(source)
        if dtype is not None and label in results:
            kept.setdefault(dtype, set()).add(results[label].dtype == dtype)
    mixed = [str(dtype) for dtype, seen in kept.items() if len(seen) > 1]
    if mixed:
        raise unsupported(
            f"DataFrameGroupBy.{op}",
            f"{mixed[0]} columns of which some results fit {mixed[0]} and some do not (pandas widens "
            "them together when they share a block of its memory layout: aggregate the columns one "
            "at a time, or cast them to 64 bits first)",
            fallback=False,
        )

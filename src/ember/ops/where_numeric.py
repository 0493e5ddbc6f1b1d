"""``where`` / ``fillna`` of a number or bool column from another number / bool column, as pandas'
blocks decide the result:

* a NumPy column (float64, int64, bool ...) by Block.where: when np_can_hold_element accepts the whole
  ``other`` (a NumPy array cast to the column's dtype without loss; a masked array without missing
  values as NumPy's where promotes it), that dtype; else pandas' common type (masked when ``other``
  is; bools beside numbers make an object column, which ember refuses);
* a masked column (Int64 / Float64 / boolean) by its setitem of the rows taken: the dtype kept, a
  value it cannot hold raising pandas' TypeError.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember._compat import PANDAS_31
from ember.column.base import Unsupported
from ember.column.numeric import NumericColumn


def block_where_numeric(col: NumericColumn, cond: Any, other: NumericColumn) -> NumericColumn:
    """Rows of ``col`` where ``cond`` holds, else ``other``'s, with pandas' result dtype (see the
    module). Synchronizes once or twice."""
    if col.nullable:
        _check_masked_setitem(col, cond, other)
        return merge_rows(col, cond, other, col.data.dtype, nullable=True)
    if bool(cond.all()):  # pandas' no-op: no row replaced, the column as it is
        return col
    dtype, nullable = _numpy_block_type(col, other)
    return merge_rows(col, cond, other, dtype, nullable)


def merge_rows(
    col: NumericColumn, cond: Any, other: NumericColumn, dtype: Any, nullable: bool
) -> NumericColumn:
    """``col``'s rows where ``cond`` holds, else ``other``'s, as ``dtype`` (masked when ``nullable``;
    a float NaN of a NumPy side is missing in a masked result)."""
    xp = col.xp
    with np.errstate(all="ignore"):  # each side cast on its own: int64 beside uint64 is float64 in NumPy
        data = xp.where(cond, col.data.astype(dtype, copy=False), other.data.astype(dtype, copy=False))
    ma, mb = col.mask, other.mask
    mask = None
    if ma is not None or mb is not None:
        ma = xp.ones(len(col), dtype=bool) if ma is None else ma
        mb = xp.ones(len(col), dtype=bool) if mb is None else mb
        mask = xp.where(cond, ma, mb)
    if nullable and not col.nullable and col.is_float:
        mask = _and(mask, xp.where(cond, ~xp.isnan(col.data), True))
    if nullable and not other.nullable and other.is_float:
        mask = _and(mask, xp.where(cond, True, ~xp.isnan(other.data)))
    out = NumericColumn(data, mask, nullable)
    return out if nullable or mask is None else NumericColumn(data).set_missing(mask)


def _and(a: Any, b: Any) -> Any:
    return b if a is None else a & b


def _has_missing(col: NumericColumn) -> bool:
    return col.nullable and col.mask is not None and not bool(col.mask.all())


def _numpy_block_type(col: NumericColumn, other: NumericColumn) -> tuple[np.dtype, bool]:
    """The dtype (and whether masked) pandas' Block.where gives a NumPy column taking ``other``."""
    target, src = col.data.dtype, other.data.dtype
    if (target.kind == "b") != (src.kind == "b"):
        raise Unsupported(
            f"where / fillna: {other.dtype} values into a {col.dtype} column (pandas makes an object "
            "column mixing bools and numbers) is not supported by ember."
        )
    common = np.result_type(target, src)
    if other.nullable and _masked_refused(target, src, other):
        return common, True  # np_can_hold_element refuses: pandas' common type
    checks_values = PANDAS_31 or not other.nullable  # pandas 3.0 takes a masked array's values as they are
    if checks_values and not numpy_holds_all(col, other):
        return common, other.nullable
    # a NumPy array is cast to the column's dtype; a masked one goes to NumPy's where as it is
    return (common if other.nullable else target), False


def _masked_refused(target: np.dtype, src: np.dtype, other: NumericColumn) -> bool:
    """np_can_hold_element's refusals of a masked array before it looks at the values: one with
    missing values, floats into integers, wider integers into integers."""
    if target.kind in "iu" and (src.kind == "f" or target.itemsize < src.itemsize):
        return True
    return _has_missing(other)


def numpy_holds_all(col: NumericColumn, other: NumericColumn) -> bool:
    """Whether a NumPy column's dtype holds ``other``'s values as pandas' np_can_hold_element decides
    it for an array: floats into integers (or signed into unsigned) where every value casts back
    unchanged, other integers where NumPy casts them safely, numbers into floats unchanged by the
    cast (NaN included), bools into bools."""
    from ember.backend.arrays import to_host

    target, data, xp = col.data.dtype, other.data, col.xp
    kind = data.dtype.kind
    if target.kind == "b" or kind == "b":
        return target.kind == kind
    if target.kind not in "iuf" or kind not in "iuf":
        return False
    with np.errstate(all="ignore"):
        casted = data.astype(target)
        if target.kind in "iu":
            if kind == "f" or (target.kind == "u" and kind == "i"):
                return bool(to_host((casted == data).all()))
            return bool(np.can_cast(data.dtype, target))
        if data.dtype.itemsize > target.itemsize or kind != target.kind:
            same = (casted == data) | (xp.isnan(casted) & xp.isnan(data)) if kind == "f" else casted == data
            return bool(to_host(same.all()))
    return True


def _check_masked_setitem(col: NumericColumn, cond: Any, other: NumericColumn) -> None:
    """pandas' masked setitem check of the values taken (rows where ``cond`` is False and ``other``
    has a value): a boolean column takes only bools, an integer column whole numbers in its range
    (bools too), a float column any number. One sync at most."""
    from ember.backend.arrays import to_host

    target, kind = col.data.dtype.kind, other.data.dtype.kind
    if target == "f" or kind == "b":
        return
    xp, data = col.xp, other.data
    taken = ~cond & ~other.isna()
    if target == "b":
        if bool(taken.any()):
            raise TypeError(
                f"Invalid value for dtype '{col.dtype}': {other.dtype} values (need bool-like values)"
            )
        return
    info = np.iinfo(col.data.dtype)
    values = data.astype(np.float64)
    integral = (values == xp.floor(values)) if kind == "f" else xp.ones(len(values), dtype=bool)
    ranged = (data >= info.min) & (data <= info.max) if kind != "u" or info.max < 2**63 else data >= 0
    bad_kind, bad_range = to_host(xp.stack([(taken & ~integral).any(), (taken & ~ranged).any()])).tolist()
    if bad_kind or bad_range:
        raise TypeError(f"cannot safely cast non-equivalent {other.data.dtype} to {col.data.dtype}")

"""DataFrame's operators: arithmetic, comparison and logical operators with pandas' alignment (rows
on the union of the indexes, columns on the union of the labels), where/mask, negation and NumPy
ufuncs. A mixin of :class:`ember.frame.dataframe.DataFrame` (listed first among its bases, so that these
operators take precedence over inherited ones)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import from_scalar
from ember.frame._fallback import unsupported
from ember.frame.alignment import align_indexes, indexes_equal
from ember.frame.generic import check_axis
from ember.frame.series import _BINARY, _NAMED, Series, _make_binary


class FrameOperators:
    """Operators of a DataFrame (columns in ``_columns``, labels in ``_names``, rows in ``_index``)."""

    def where(self, cond: Any, other: Any = None) -> Any:
        if callable(cond):
            cond = cond(self)
        if isinstance(cond, FrameOperators):
            if isinstance(other, FrameOperators):  # each column's replacements from other's column
                if not indexes_equal(self._index, other._index):
                    raise unsupported("DataFrame.where", "other on other rows (pandas aligns them)")
                return self._with_columns(
                    {
                        k: self[k].where(cond[k], other[k] if k in other._columns else np.nan).column
                        for k in self._names
                    }
                )
            return self._with_columns({k: self[k].where(cond[k], other).column for k in self._names})
        raise unsupported("DataFrame.where", f"cond of type {type(cond).__name__}")

    def mask(self, cond: Any, other: Any = None) -> Any:
        if callable(cond):
            cond = cond(self)
        return self.where(~cond, other)

    def _binary(self, other: Any, op: str) -> Any:
        from ember.ops.binary import binary_op

        if isinstance(other, FrameOperators):
            left, right, index = self, other, self._index
            if not indexes_equal(self._index, other._index):
                # pandas aligns rows on the union of the indexes (one join, shared by every column)
                index, lpos, rpos = align_indexes(self._index, other._index, how="outer")
                left = type(self)._from_columns(
                    {k: c.take_nullable(lpos) for k, c in self._columns.items()}, index
                )
                right = type(self)._from_columns(
                    {k: c.take_nullable(rpos) for k, c in other._columns.items()}, index
                )
            names = left._names + [k for k in right._names if k not in left._columns]
            out = {}
            for k in names:
                if k in left._columns and k in right._columns:
                    out[k] = binary_op(left._columns[k], right._columns[k], op)
                else:
                    src = left._columns.get(k, right._columns.get(k))
                    out[k] = from_scalar(np.nan, len(index), src.xp)
            if names != left._names and set(left._names) != set(right._names):
                out = {k: out[k] for k in sorted(out, key=str)}
            return type(self)._from_columns(out, index)
        if isinstance(other, Series):
            values = other.to_pandas()
            return self._with_columns(
                {k: binary_op(c, values.get(k, np.nan), op) for k, c in self._columns.items()}
            )
        if isinstance(other, (list, tuple, np.ndarray)) and len(other) == len(self._names):
            return self._with_columns(
                {k: binary_op(c, v, op) for (k, c), v in zip(self._columns.items(), other)}
            )
        return self._map_columns(lambda c: binary_op(c, other, op))

    def _binary_rows(self, other: Series, op: str) -> Any:
        """``df.sub(s, axis=0)``: ``s`` matched to the rows, applied to every column."""
        from ember.ops.binary import binary_op

        if not indexes_equal(self._index, other.index):
            raise unsupported(f"DataFrame.{op}", "axis=0 with a Series on another index")
        return self._map_columns(lambda c: binary_op(c, other.column, op))

    def __neg__(self) -> Any:
        from ember.ops.unary import negate

        return self._map_columns(negate)

    def __invert__(self) -> Any:
        from ember.ops.unary import invert

        return self._map_columns(invert)

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        from ember.ops.unary import apply_ufunc

        if method != "__call__" or len(inputs) != 1 or kwargs:
            return NotImplemented
        return self._map_columns(lambda c: apply_ufunc(ufunc, c))


def _make_named(op: str) -> Any:
    def method(
        self: FrameOperators, other: Any, axis: Any = "columns", level: Any = None, fill_value: Any = None
    ) -> Any:
        if level is not None or fill_value is not None:
            raise unsupported(f"DataFrame.{op}", "level= / fill_value=")
        if check_axis(op, axis) == 0 and isinstance(other, Series):
            return self._binary_rows(other, op)
        return self._binary(other, op)

    method.__name__ = op
    return method


for _dunder, _bop in _BINARY.items():  # the operator methods Series has, calling FrameOperators._binary
    setattr(FrameOperators, _dunder, _make_binary(_bop))
for _name, _bop in _NAMED.items():
    setattr(FrameOperators, _name, _make_named(_bop))

"""DataFrame's operators: arithmetic, comparison and logical operators with pandas' alignment (rows
on the union of the indexes, columns on the union of the labels), where/mask, negation and NumPy
ufuncs. A mixin of :class:`ember.frame.dataframe.DataFrame` (listed first among its bases, so that these
operators take precedence over inherited ones)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported
from ember.frame.alignment import frame_frame, frame_series
from ember.frame.generic import check_axis
from ember.frame.series import _BINARY, _NAMED, Series, _make_binary
from ember.ops.binary import CMP


class FrameOperators:
    """Operators of a DataFrame (columns in ``_columns``, labels in ``_names``, rows in ``_index``)."""

    def where(self, cond: Any, other: Any = None) -> Any:
        """Each column where ``cond`` holds, else ``other``. A frame ``cond`` is matched to these rows
        and columns (labels it lacks count as False), a Series ``cond`` to the rows; a frame ``other``
        likewise (missing where it lacks a label)."""
        return self._where_frame(cond, other, invert=False)

    def mask(self, cond: Any, other: Any = None) -> Any:
        return self._where_frame(cond, other, invert=True)

    def _where_frame(self, cond: Any, other: Any, invert: bool) -> Any:
        from ember.backend import xp as current_xp
        from ember.column import NumericColumn
        from ember.frame.dataframe import DataFrame

        method = "DataFrame.mask" if invert else "DataFrame.where"
        if callable(cond):
            cond = cond(self)
        if callable(other):
            other = other(self)
        cond = DataFrame(cond) if isinstance(cond, pd.DataFrame) else cond
        cond = Series(cond) if isinstance(cond, pd.Series) else cond
        other = DataFrame(other) if isinstance(other, pd.DataFrame) else other
        if isinstance(other, (Series, pd.Series)):
            raise ValueError("Must specify axis=0 or 1")
        if not isinstance(cond, (FrameOperators, Series)):
            raise unsupported(method, f"cond of type {type(cond).__name__}")
        absent = Series._from_column(
            NumericColumn(current_xp().full(len(self), invert, dtype=bool)), self._index
        )
        out = {}
        for k in self._names:
            col = self[k]
            if isinstance(cond, Series):
                ck = cond
            elif k in cond._columns:
                ck = cond[k]
            else:  # a column cond lacks is replaced (pandas' False after aligning; mask inverts before)
                ck = absent
            ok = other
            if isinstance(other, FrameOperators):
                ok = other[k] if k in other._columns else np.nan
            out[k] = (col.mask(ck, ok) if invert else col.where(ck, ok)).column
        return self._with_columns(out)

    def _binary(self, other: Any, op: str, fill_value: Any = None, flex: bool = False, axis: int = 1) -> Any:
        """``self <op> other`` with pandas' alignment: frames on the union of rows and of columns, a
        Series on the columns (``axis=1``) or the rows (``axis=0``), lists and 1-D arrays as a Series
        on that axis; ``fill_value`` where one side is missing (flex methods); comparison operators
        require identical labels."""
        from ember.frame.dataframe import DataFrame
        from ember.ops.binary import binary_op
        from ember.ops.missing import fillna

        if isinstance(other, pd.DataFrame):
            other = DataFrame(other)
        elif isinstance(other, pd.Series):
            other = Series(other)
        if isinstance(other, FrameOperators):
            return frame_frame(self, other, op, fill_value, flex)
        if isinstance(other, dict):
            other = _dict_as_series(self, other, axis)
        elif isinstance(other, (list, tuple)) or (isinstance(other, np.ndarray) and other.ndim == 1):
            other = _as_series(self, other, axis)
        if isinstance(other, Series):
            result = frame_series(self, other, op, fill_value, flex, axis)
            if op in _DIVISIONS and _plain_numpy(other.column):  # pandas: a broadcast frame, blockwise
                shared = {k: c for k, c in self._columns.items() if k in result._columns}
                out = _blockwise_zero_division(shared, {k: result._columns[k] for k in shared})
                result = result._with_columns({**result._columns, **out})
            return result
        if isinstance(other, np.ndarray) and other.ndim > 1:
            raise unsupported(f"DataFrame.{op}", "a 2-D array operand")
        source = self._columns
        if fill_value is not None:
            source = {k: fillna(c, fill_value) for k, c in source.items()}
        out = {k: binary_op(c, other, op) for k, c in source.items()}
        if op in _DIVISIONS:
            out = _blockwise_zero_division(source, out)
        return self._with_columns(out)

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
    if op in CMP:

        def method(self: FrameOperators, other: Any, axis: Any = "columns", level: Any = None) -> Any:
            if level is not None:
                raise unsupported(f"DataFrame.{op}", "level=")
            return self._binary(other, op, flex=True, axis=check_axis(op, axis))

    else:

        def method(  # type: ignore[misc]
            self: FrameOperators, other: Any, axis: Any = "columns", level: Any = None, fill_value: Any = None
        ) -> Any:
            if level is not None:
                raise unsupported(f"DataFrame.{op}", "level=")
            return self._binary(other, op, fill_value, flex=True, axis=check_axis(op, axis))

    method.__name__ = op
    return method


_DIVISIONS = ("floordiv", "mod", "rfloordiv", "rmod")


def _plain_numpy(col: Any) -> bool:
    from ember.column import NumericColumn

    return type(col) is NumericColumn and not col.nullable and col.mask is None


def _blockwise_zero_division(source: dict, out: dict) -> dict:
    """pandas divides a frame by a scalar block by block (the NumPy integer columns of one dtype
    together), so where a zero divisor makes one of them float64, all of that dtype become float64."""
    from ember.column import NumericColumn

    def plain_int(c: Any) -> bool:
        return type(c) is NumericColumn and not c.nullable and c.mask is None and c.data.dtype.kind in "iu"

    upcast = {
        c.data.dtype
        for k, c in source.items()
        if plain_int(c) and isinstance(out[k], NumericColumn) and out[k].data.dtype == np.float64
    }
    if not upcast:
        return out
    return {
        k: NumericColumn(r.data.astype(np.float64))
        if plain_int(source[k]) and source[k].data.dtype in upcast and r.data.dtype != np.float64
        else r
        for k, r in out.items()
    }


def _as_series(frame: Any, values: Any, axis: int) -> Series:
    """A list or 1-D array operand as pandas takes it: a Series on the columns (``axis=1``) or on
    the rows, of the same length (pandas' ValueError otherwise)."""
    n = len(frame._names) if axis == 1 else len(frame._index)
    if len(values) != n:
        raise ValueError(f"Unable to coerce to Series, length must be {n}: given {len(values)}")
    from ember.frame.index import ensure_index

    labels = ensure_index(list(frame._names)) if axis == 1 else frame._index
    return Series(list(values) if isinstance(values, tuple) else values, index=labels)


def _dict_as_series(frame: Any, mapping: dict, axis: int) -> Series:
    """A dict operand as pandas takes it: a Series of the dict's values at the column labels
    (``axis=1``) or the row labels, missing where the dict lacks one, of the same length (pandas'
    ValueError otherwise). The dict is on the host already: pandas builds the small Series."""
    labels = frame.columns if axis == 1 else frame.index
    if len(mapping) != len(labels):
        raise ValueError(f"Unable to coerce to Series, length must be {len(labels)}: given {len(mapping)}")
    labels = labels.to_pandas() if hasattr(labels, "to_pandas") else labels
    return Series(pd.Series(mapping, index=labels))


for _dunder, _bop in _BINARY.items():  # the operator methods Series has, calling FrameOperators._binary
    setattr(FrameOperators, _dunder, _make_binary(_bop))
for _name, _bop in _NAMED.items():
    setattr(FrameOperators, _name, _make_named(_bop))

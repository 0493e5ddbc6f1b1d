"""Series missing-data and conditional methods (fillna, dropna, where, mask, between): a mixin of
Series, over ops.missing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from ember.frame._fallback import with_fallback
from ember.frame.alignment import align_series, column_like

if TYPE_CHECKING:
    from ember.frame.series import Series


class SeriesMissing:
    @with_fallback
    def fillna(self, value: Any = None, *, inplace: bool = False, limit: Any = None) -> Any:
        from ember.frame.series import Series
        from ember.ops.missing import fillna

        if isinstance(value, (dict, pd.Series)):  # values by index label, as a Series of them
            value = Series(pd.Series(value))
        if isinstance(value, Series):
            from ember.frame.alignment import check_reindexable

            check_reindexable(self.index, value.index)
            left, right, _ = align_series(self, value, how="left")
            out = self._wrap(fillna(left, right, limit))
        else:
            out = self._wrap(fillna(self._column, value, limit))
        if inplace:
            self._column = out._column
            return None
        return out

    def dropna(self, *, inplace: bool = False, ignore_index: bool = False) -> Series | None:
        out = self._filter_rows(~self._column.isna(), ignore_index)
        if inplace:
            self._replace_with(out)
            return None
        return out

    def where(self, cond: Any, other: Any = None) -> Series:
        """This Series where ``cond`` holds, else ``other``. A Series ``cond`` is matched to these
        labels (a label it lacks counts as False), a Series ``other`` too (missing where it lacks one)."""
        return self._where_kept(self._condition(cond, invert=False), other)

    def mask(self, cond: Any, other: Any = None) -> Series:
        """``other`` where ``cond`` holds (and where a Series ``cond`` lacks the label), else this Series."""
        return self._where_kept(self._condition(cond, invert=True), other)

    def _where_kept(self, keep: Any, other: Any) -> Series:
        from ember.frame.series import Series
        from ember.ops.missing import where

        if callable(other):
            other = other(self)
        if isinstance(other, pd.Series):
            other = Series(other)
        if isinstance(other, Series):
            _, other, _ = align_series(self, other, how="left")
        return self._wrap(where(self._column, keep, other, block_where=True))

    def _condition(self, cond: Any, invert: bool) -> Any:
        """The rows to keep: ``cond`` (inverted for mask) on these rows; missing conditions and labels
        ``cond`` lacks are False, as pandas' fill after aligning (mask inverts before it)."""
        from ember.frame.series import Series
        from ember.ops.missing import fillna

        if callable(cond):
            cond = cond(self)
        if isinstance(cond, pd.Series):
            cond = Series(cond)
        if isinstance(cond, Series):
            _, right, _ = align_series(self, cond, how="left")
            if len(right) != len(self):
                raise ValueError("cannot reindex on an axis with duplicate labels")
            values = fillna(right, False).data
            if not right.has_nulls_possible:
                return ~values if invert else values
            return (~values if invert else values) & ~right.isna()
        values = column_like(cond, len(self)).data
        return ~values if invert else values

    def between(self, left: Any, right: Any, inclusive: str = "both") -> Series:
        from ember.ops.unary import between

        return self._wrap(between(self._column, left, right, inclusive))

"""GroupBy transforms (transform, the cumulative ones, shift, diff, pct_change, fill, rank, ngroup,
cumcount): results on the grouped object's own rows. A mixin of the GroupBy classes, over
ops.group_transform."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import NumericColumn, is_numeric_column


class GroupByTransforms:
    def transform(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        from ember.frame.groupby import (
            AGGREGATIONS,
            TRANSFORMS,
            DataFrameGroupBy,
            SeriesGroupBy,
            _inferred_str,
            _unsupported,
        )
        from ember.ops.group_transform import transform

        op = func if isinstance(func, str) else getattr(func, "__name__", None)
        if op not in AGGREGATIONS + TRANSFORMS:
            raise _unsupported("GroupBy.transform", f"{func!r}; pass an aggregation or transform name")
        if (
            op in AGGREGATIONS
            and isinstance(self, DataFrameGroupBy)
            and self.ngroups == 0
            and len(self.obj) > 0
        ):  # pandas takes the rows' results from no groups (every key missing)
            raise IndexError("cannot do a non-empty take from an empty axes.")
        cols = {k: transform(self._grouping, c, op, **kwargs) for k, c in self._value_items()}
        if op in AGGREGATIONS and isinstance(self, SeriesGroupBy):
            cols = {k: _inferred_str(c) for k, c in cols.items()}
        return self._wrap_transform(cols)

    def _wrap_transform(self, cols: dict) -> Any:
        raise NotImplementedError  # pragma: no cover - abstract

    def _transform_op(self, op: str, **kw: Any) -> Any:
        return self.transform(op, **kw)

    def _cumulative(self, op: str, numeric_only: bool) -> Any:
        """A frame's numeric_only keeps its numeric columns; a Series' is ignored, as pandas (its
        cumsum / cumprod of other data raise for the data's sake)."""
        from ember.frame.groupby import SeriesGroupBy

        if not numeric_only or isinstance(self, SeriesGroupBy):
            return self._transform_op(op)
        from ember.ops.group_transform import transform

        items = [(k, c) for k, c in self._value_items() if is_numeric_column(c)]
        return self._wrap_transform({k: transform(self._grouping, c, op) for k, c in items})

    def cumsum(self, numeric_only: bool = False) -> Any:
        return self._cumulative("cumsum", numeric_only)

    def cumprod(self, numeric_only: bool = False) -> Any:
        return self._cumulative("cumprod", numeric_only)

    def cummin(self, numeric_only: bool = False) -> Any:
        return self._cumulative("cummin", numeric_only)

    def cummax(self, numeric_only: bool = False) -> Any:
        return self._cumulative("cummax", numeric_only)

    def shift(self, periods: int = 1) -> Any:
        return self._transform_op("shift", periods=periods)

    def diff(self, periods: int = 1) -> Any:
        return self._transform_op("diff", periods=periods)

    def pct_change(self, periods: int = 1, fill_method: Any = None, freq: Any = None) -> Any:
        """Each value over the one ``periods`` rows before it in its group, minus 1 (pandas' shift
        and divide; no filling)."""
        from ember.frame.groupby import SeriesGroupBy, _unsupported

        if fill_method is not None or freq is not None:
            raise _unsupported("GroupBy.pct_change", "fill_method= / freq=")
        before = self.shift(periods)
        current = self.obj if isinstance(self, SeriesGroupBy) else self._selected_obj()[list(before.columns)]
        return current / before - 1

    def ffill(self) -> Any:
        return self._transform_op("ffill")

    def bfill(self) -> Any:
        return self._transform_op("bfill")

    def rank(self, method: str = "average", ascending: bool = True, pct: bool = False) -> Any:
        return self._transform_op("rank", method=method, ascending=ascending, pct=pct)

    def ngroup(self, ascending: bool = True) -> Any:
        """Each row's group number (groups in the result's order; from the last with
        ``ascending=False``); rows of no group (a missing key under ``dropna``) are NaN, the numbers
        then float64, as pandas. One sync: whether any row is left out."""
        from ember.backend import array_module
        from ember.frame.series import Series

        codes = self._grouping.codes
        xp = array_module(codes)
        outside = codes < 0
        # pandas numbers the groups that occur (an unobserved category has no number), counting
        # down from ngroups - 1 (all groups) with ascending=False
        ngroups = self.ngroups
        seen = xp.zeros(ngroups + 1, dtype=bool)
        seen[xp.where(outside, ngroups, codes)] = True
        rank = xp.cumsum(seen[:ngroups].astype(np.int64)) - 1
        numbers = xp.concatenate([rank, xp.zeros(1, dtype=np.int64)])[xp.where(outside, ngroups, codes)]
        numbers = numbers if ascending else np.int64(ngroups - 1) - numbers
        if bool(outside.any()):
            numbers = xp.where(outside, np.nan, numbers.astype(np.float64))
        return Series._from_column(NumericColumn(numbers), self.obj.index)

    def cumcount(self, ascending: bool = True) -> Any:
        from ember.frame.series import Series
        from ember.ops.group_transform import transform

        col = transform(self._grouping, self._keys[0], "cumcount", ascending=ascending)
        return Series._from_column(col, self.obj.index)

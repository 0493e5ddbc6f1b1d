"""GroupBy transforms (transform, the cumulative ones, shift, diff, pct_change, fill, rank, ngroup,
cumcount): results on the grouped object's own rows. A mixin of the GroupBy classes, over
ops.group_transform."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember._compat import PANDAS_31
from ember.column import NumericColumn, is_numeric_column


def _name(f: Any) -> str:
    return f if isinstance(f, str) else getattr(f, "__name__", repr(f))


def _check_series_scan(col: Any, op: str) -> None:
    """pandas' TypeError for a Series' running op of data it refuses (object data, strings'
    cummin / cummax), where a frame's column raises NotImplementedError."""
    from ember.ops.group_transform import scan_refused_dtype

    dtype = scan_refused_dtype(col, op)
    if dtype is not None:
        raise TypeError(f"{op} is not supported for {dtype} dtype")


def _observed_positions(positions: Any, has_rows: Any) -> Any:
    """Row positions of the groups with rows; the empty ones' (no row takes them) set to row 0."""
    xp = positions.xp
    valid = ~positions.isna() if positions.mask is None else positions.mask
    return NumericColumn(xp.where(has_rows, positions.data, 0), valid | ~has_rows)


class GroupByTransforms:
    def transform(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        from ember.frame.groupby import (
            AGGREGATIONS,
            PYTHON_PATH_OPS,
            TRANSFORMS,
            DataFrameGroupBy,
            SeriesGroupBy,
            _check_object_strings,
            _inferred_str,
            _unsupported,
        )
        from ember.frame.groupby_blocks import check_block_dtypes
        from ember.ops.group_transform import transform

        if isinstance(func, (list, dict)) and isinstance(self, DataFrameGroupBy):
            if not PANDAS_31:  # pandas 3.0 calls the list / dict as the function
                raise TypeError(f"'{type(func).__name__}' object is not callable")
            return self._transform_spec(func, kwargs)
        op = func if isinstance(func, str) else getattr(func, "__name__", None)
        if callable(func) and not isinstance(func, str) and op not in AGGREGATIONS + TRANSFORMS:
            from ember.frame.groupby_udf import transform_frame_udf, transform_series_udf

            udf = transform_series_udf if isinstance(self, SeriesGroupBy) else transform_frame_udf
            return udf(self, func, args, kwargs)
        if op not in AGGREGATIONS + TRANSFORMS:
            raise _unsupported("GroupBy.transform", f"{func!r}; pass an aggregation or transform name")
        if (
            op in AGGREGATIONS
            and isinstance(self, DataFrameGroupBy)
            and self._reduction_grouping().ngroups == 0
            and len(self.obj) > 0
        ):  # pandas takes the rows' results from no groups (every key missing)
            raise IndexError("cannot do a non-empty take from an empty axes.")
        if isinstance(self, SeriesGroupBy):
            _check_series_scan(self.obj.column, op)
        if op in ("idxmin", "idxmax"):
            cols = self._arg_extremes_on_rows(op, kwargs)
        else:
            g = self._reduction_grouping() if op in AGGREGATIONS else self._grouping
            for k, c in self._value_items():  # pandas' transform of a reduction runs the reduction
                _check_object_strings(self, op, k, c, g)
            inferred = isinstance(self, SeriesGroupBy)  # pandas builds the Series anew from the rows
            cols = {
                k: transform(g, c, op, strings_inferred=inferred, **kwargs) for k, c in self._value_items()
            }
        if isinstance(self, DataFrameGroupBy):
            check_block_dtypes(op, self._value_items(), cols)
        if op in AGGREGATIONS and isinstance(self, SeriesGroupBy):
            source = self.obj.column if op in PYTHON_PATH_OPS else None
            cols = {k: _inferred_str(c, source) for k, c in cols.items()}
        return self._wrap_transform(cols)

    def _wrap_transform(self, cols: dict) -> Any:
        raise NotImplementedError  # pragma: no cover - abstract

    def _reduction_grouping(self) -> Any:
        """The grouping a transform of a reduction runs over: pandas reduces over the observed
        groups only (it sets observed=True), so an unobserved category does not widen the dtype."""
        g = self._grouping
        if not g.may_have_empty:
            return g
        if getattr(self, "_observed_grouping", None) is None:
            from ember.ops.grouping import make_grouping

            self._observed_grouping = make_grouping(self._keys, sort=self.sort, dropna=self.dropna)
        return self._observed_grouping

    def _arg_extremes_on_rows(self, op: str, kwargs: dict) -> dict:
        """transform('idxmin' / 'idxmax'): each group's row label (not its position) on its rows,
        missing on rows whose key is dropped; pandas' ValueError for a group without a value."""
        from ember.ops.groupby import aggregate

        g = self._grouping
        items = dict(self._value_items())
        positions = {k: aggregate(g, c, op, **kwargs) for k, c in items.items()}
        if g.may_have_empty:  # pandas transforms over the observed groups only
            has_rows = g.sizes[: g.ngroups] > 0
            positions = {k: _observed_positions(p, has_rows) for k, p in positions.items()}
        labels = self._labels_at(op, positions, items, kwargs.get("skipna", True))
        if not g.dropped:
            return {k: c.take(g.codes) for k, c in labels.items()}
        return {k: c.take_nullable(g.codes) for k, c in labels.items()}

    def _transform_spec(self, spec: Any, kwargs: dict) -> Any:
        """A frame's transform by a list of names (columns labelled (column, name)) or a dict
        {column: name}, as pandas 3.1 (a dict of lists it refuses too)."""
        from ember.frame.dataframe import DataFrame
        from ember.frame.groupby import _unsupported

        if kwargs:
            raise _unsupported("GroupBy.transform", "arguments beside a list or dict of names")
        if isinstance(spec, dict):
            if any(isinstance(f, (list, tuple, dict)) for f in spec.values()):
                raise NotImplementedError(
                    "Passing a dict of lists to DataFrameGroupBy.transform is not yet supported"
                )
            pairs = [(col, col, f) for col, f in spec.items()]
        else:
            pairs = [((col, _name(f)), col, f) for col, _ in self._value_items() for f in spec]
        cols = {}
        for label, col, f in pairs:
            if col not in self.obj._columns:
                raise KeyError(f"Column(s) ['{col}'] do not exist")
            cols[label] = self[col].transform(f).column
        return DataFrame._from_columns(cols, self.obj.index)

    def _transform_op(self, op: str, **kw: Any) -> Any:
        return self.transform(op, **kw)

    def _cumulative(self, op: str, numeric_only: bool) -> Any:
        """A frame's numeric_only keeps its numeric columns; a Series' is ignored, as pandas (its
        cumsum / cumprod of other data raise for the data's sake)."""
        from ember.frame.groupby import SeriesGroupBy

        if not numeric_only or isinstance(self, SeriesGroupBy):
            return self._transform_op(op)
        from ember.frame.groupby_blocks import check_block_dtypes
        from ember.ops.group_transform import transform

        items = [(k, c) for k, c in self._value_items() if is_numeric_column(c)]
        cols = {k: transform(self._grouping, c, op) for k, c in items}
        check_block_dtypes(op, items, cols)
        return self._wrap_transform(cols)

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

    def ffill(self, limit: int | None = None) -> Any:
        return self._fill(True, limit)

    def bfill(self, limit: int | None = None) -> Any:
        return self._fill(False, limit)

    def _fill(self, forward: bool, limit: int | None) -> Any:
        """Missing values from the nearest value before (after) them in their group, at most
        ``limit`` rows of the group away."""
        from ember.frame.groupby import _unsupported
        from ember.ops.group_transform import _fill_rows
        from ember.ops.grouping import cumcount

        op = "ffill" if forward else "bfill"
        if limit is None:
            return self._transform_op(op)
        if not isinstance(limit, (int, np.integer)) or isinstance(limit, bool) or limit <= 0:
            raise _unsupported(f"GroupBy.{op}", f"limit={limit!r} (a positive integer)")
        g = self._grouping
        place = cumcount(g)
        cols = {}
        for k, c in self._value_items():
            if not c.has_nulls_possible and not g.dropped:
                cols[k] = c  # nothing to fill (and the dtype stays)
                continue
            rows = _fill_rows(g, c, forward=forward)
            near = g.xp.abs(place - place[g.xp.clip(rows, 0, None)]) <= int(limit)
            cols[k] = c.take_nullable(g.xp.where((rows >= 0) & near, rows, -1))
        return self._wrap_transform(cols)

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

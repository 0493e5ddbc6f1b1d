"""More GroupBy methods: positional selections (nth with lists / slices / dropna, take), group row
positions (indices), per-group selections of a Series (nlargest / nsmallest, unique), monotonicity,
kurtosis, ohlc, per-group correlation / covariance matrices and a frame's value_counts. A mixin of
the GroupBy classes, over the shared Grouping (``ops.grouping``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.column import Column, NumericColumn


def _unsupported(method: str, detail: str) -> Exception:
    from ember.frame.groupby import _unsupported as groupby_unsupported

    return groupby_unsupported(method, detail)


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _plain_numeric(col: Column) -> bool:
    """int / float (also nullable) data: what the arithmetic methods here compute on."""
    return type(col) is NumericColumn and col.dtype != np.dtype(object) and col.data.dtype.kind in "iuf"


class GroupByMore:
    # --- positions ------------------------------------------------------------------------------
    def _counts(self) -> tuple[Any, Any]:
        """Each row's place in its group, counted from the start and from the end."""
        from ember.ops.grouping import cumcount

        g = self._grouping
        return cumcount(g), cumcount(g, ascending=False)

    def nth(self, n: Any, dropna: Any = None) -> Any:
        """The rows at positions ``n`` of their group (an int, a list of ints, a slice or a tuple of
        them; negative from the end), in row order; ``dropna`` ('any' / 'all', with an int ``n``):
        the n-th of the rows left after dropping those with missing values, as pandas."""
        obj = self._selected_obj()
        if dropna:
            return self._nth_dropna(obj, n, dropna)
        keep = self._position_mask(n)
        if self._grouping.dropped:
            keep &= self._grouping.codes >= 0
        return obj._take_rows(keep.nonzero()[0].astype(np.int64))

    def _position_mask(self, arg: Any) -> Any:
        up, down = self._counts()
        xp = self._grouping.xp
        if _is_int(arg):
            return up == arg if arg >= 0 else down == (-arg - 1)
        if isinstance(arg, slice):
            return _slice_mask(arg, up, down, xp)
        if isinstance(arg, (list, tuple)) and all(_is_int(a) for a in arg):
            mask = xp.zeros(len(up), dtype=bool)
            for a in arg:
                mask |= up == a if a >= 0 else down == (-a - 1)
            return mask
        if isinstance(arg, tuple) and all(_is_int(a) or isinstance(a, slice) for a in arg):
            mask = xp.zeros(len(up), dtype=bool)
            for a in arg:
                mask |= self._position_mask(a)
            return mask
        raise TypeError(
            f"Invalid index {type(arg)}. Must be integer, list-like, slice or a tuple of integers and slices"
        )

    def _nth_dropna(self, obj: Any, n: Any, dropna: Any) -> Any:
        from ember.ops.grouping import Grouping, nth_positions
        from ember.ops.missing import dropna_mask

        if self._is_series() and not self.as_index:
            raise _unsupported("SeriesGroupBy.nth", "dropna= with as_index=False")
        if not _is_int(n):
            raise ValueError("dropna option only supported for an integer argument")
        if dropna not in ("any", "all"):
            raise ValueError(
                "For a DataFrame or Series groupby.nth, dropna must be either None, 'any' or 'all', "
                f"(was passed {dropna})."
            )
        g = self._grouping
        cols = [obj.column] if hasattr(obj, "_column") else list(obj._columns.values())
        at = dropna_mask(cols, how=dropna, n=g.nrows, xp=g.xp).nonzero()[0].astype(np.int64)
        codes = g.codes[at]
        kept = Grouping(codes, g.ngroups, g.uniques, int((codes < 0).sum()))
        return obj._take_rows(at[nth_positions(kept, int(n))])

    @property
    def indices(self) -> dict:
        """{group key: row positions (int64 NumPy array)}; built on the host (a dict of Python
        objects), in the groups' order."""
        from ember.backend import to_host

        keys = self._result_index().to_pandas()
        positions = self._group_positions()
        return {key: to_host(pos).astype(np.int64) for key, pos in zip(keys, positions)}

    def take(self, indices: Any, **kwargs: Any) -> Any:
        """The rows at ``indices`` (positions, negative from the end) of each group, group after
        group, under a first index level of the group keys (``group_keys``), as pandas."""
        if kwargs:
            raise _unsupported("GroupBy.take", f"arguments {sorted(kwargs)}")
        self._pandas30_frame_of_keys("take")
        if np.isscalar(indices):
            raise _unsupported("GroupBy.take", "a scalar position (pass a list)")
        wanted = np.asarray(indices)
        if wanted.size and wanted.dtype.kind not in "iu":
            raise IndexError("indices must be integers")
        g = self._grouping
        xp = g.xp
        sizes = g.sizes[: g.ngroups]
        want = xp.asarray(wanted.astype(np.int64).ravel())
        place = xp.where(want[None, :] < 0, sizes[:, None] + want[None, :], want[None, :])
        if len(want) and g.ngroups and bool(((place < 0) | (place >= sizes[:, None])).any()):
            raise IndexError("indices are out-of-bounds")
        sorted_at = (g.offsets[: g.ngroups][:, None] + place).ravel()
        rows = g.order[sorted_at] if len(sorted_at) else sorted_at
        return self._rows_under_keys(rows, g.xp.repeat(xp.arange(g.ngroups), len(want)))

    def _rows_under_keys(self, rows: Any, groups: Any) -> Any:
        """The value rows ``rows`` (of the groups ``groups``), their index led by the group keys
        when pandas' apply adds them (``as_index`` and ``group_keys``)."""
        from ember.frame.index import MultiIndex

        obj = self._value_obj()
        out = obj._take_rows(rows)
        if not (self.as_index and self.group_keys):
            return out
        if not self._grouping.ngroups:  # pandas' apply over no groups gives another index
            raise _unsupported("GroupBy.take / nlargest / nsmallest", "no groups")
        index = obj.index
        own = index.levels_columns if isinstance(index, MultiIndex) else [index.column]
        levels = [u.take(groups) for u in self._grouping.uniques] + [c.take(rows) for c in own]
        out.index = MultiIndex(levels, list(self._key_names) + list(index.names))
        return out

    def _value_obj(self) -> Any:
        """The grouped object without its key columns (what pandas' apply hands each group)."""
        obj = self._selected_obj()
        if not hasattr(obj, "_columns"):
            return obj
        names = [k for k, _ in self._value_items()]
        return obj[names] if names != list(obj._columns) else obj

    # --- per-group selections and tests of a Series ---------------------------------------------
    def _series_only(self, method: str) -> None:
        from ember.frame.groupby import SeriesGroupBy

        if not isinstance(self, SeriesGroupBy):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{method}'")

    def _pandas30_frame_of_keys(self, method: str) -> None:
        """pandas 3.0 gives a SeriesGroupBy(as_index=False)'s take / nlargest / nsmallest as a frame of
        the keys and values on new row numbers (3.1: the Series): refused there."""
        from ember.frame.groupby import SeriesGroupBy

        if not PANDAS_31 and isinstance(self, SeriesGroupBy) and not getattr(self, "as_index", True):
            raise _unsupported(
                f"SeriesGroupBy.{method}", "as_index=False with pandas 3.0 (a frame of keys and values)"
            )

    def nlargest(self, n: int = 5, keep: str = "first") -> Any:
        return self._select_n(n, keep, largest=True)

    def nsmallest(self, n: int = 5, keep: str = "first") -> Any:
        return self._select_n(n, keep, largest=False)

    def _select_n(self, n: int, keep: str, largest: bool) -> Any:
        """The ``n`` largest / smallest values of each group (missing values never), each group's in
        value order (ties: the first row first), under the group keys as pandas."""
        from ember.ops.sort import argsort_keys, key_and_nulls

        method = "nlargest" if largest else "nsmallest"
        self._series_only(method)
        self._pandas30_frame_of_keys(method)
        if keep != "first":
            raise _unsupported(f"SeriesGroupBy.{method}", f"keep={keep!r} (keep='first' is supported)")
        col = self.obj.column
        if not _plain_numeric(col):
            raise _unsupported(f"SeriesGroupBy.{method}", f"the dtype {col.dtype} (numbers are supported)")
        g = self._grouping
        xp = g.xp
        key, nulls = key_and_nulls(col)
        order = argsort_keys([(g.seg, None), (key, nulls)], [True, not largest])
        seg = g.seg[order]
        place = xp.arange(g.nrows, dtype=np.int64) - g.offsets[seg]
        # missing values last, kept where a group has fewer than n others (pandas' select-n)
        keep_row = (place < int(n)) & (seg < g.ngroups)
        rows = order[keep_row]
        return self._rows_under_keys(rows, seg[keep_row])

    def unique(self) -> Any:
        """Refused: pandas gives an object Series of NumPy arrays, which no ember column holds."""
        self._series_only("unique")
        raise _unsupported(
            "SeriesGroupBy.unique", "an object Series of arrays (use drop_duplicates on the keys and values)"
        )

    @property
    def is_monotonic_increasing(self) -> Any:
        return self._monotonic(increasing=True)

    @property
    def is_monotonic_decreasing(self) -> Any:
        return self._monotonic(increasing=False)

    def _monotonic(self, increasing: bool) -> Any:
        """Whether each group's values never decrease (increase), in row order; a group holding a
        missing value is not monotonic, as pandas."""
        from ember.frame.series import Series
        from ember.ops.groupby import aggregate
        from ember.ops.grouping import rows_back

        self._series_only("is_monotonic_increasing" if increasing else "is_monotonic_decreasing")
        if not self.as_index or not self._grouping.ngroups:
            raise _unsupported("SeriesGroupBy.is_monotonic", "as_index=False or no groups")
        col = self.obj.column
        if type(col) is not NumericColumn or col.dtype == np.dtype(object):
            raise _unsupported("SeriesGroupBy.is_monotonic", f"the dtype {col.dtype} (numbers, dates)")
        g = self._grouping
        xp = g.xp
        values = col.data[g.order]
        missing = col.isna()[g.order] if col.has_nulls_possible else xp.zeros(g.nrows, dtype=bool)
        ok = ~missing
        if g.nrows > 1:
            same = g.sorted_seg[1:] == g.sorted_seg[:-1]
            step = values[1:] >= values[:-1] if increasing else values[1:] <= values[:-1]
            ok[1:] &= ~same | step
        flags = aggregate(g, NumericColumn(rows_back(g, ok)), "all")
        return Series._from_column(
            NumericColumn(flags.data.astype(bool)), self._result_index(), self.obj.name
        )

    # --- statistics -----------------------------------------------------------------------------
    def kurt(self, skipna: bool = True, numeric_only: bool = False) -> Any:
        """Unbiased (Fisher) kurtosis of each group's values, as pandas: NaN below four values, 0.0
        for a constant group."""
        from ember.ops.groupby import no_groups_moment

        if not skipna:
            raise _unsupported("GroupBy.kurt", "skipna=False")
        items = self._value_items()
        cols = {}
        for k, c in items:
            if not _plain_numeric(c) and not (type(c) is NumericColumn and c.data.dtype.kind == "b"):
                if numeric_only:
                    continue
                raise _unsupported("GroupBy.kurt", f"the column {k!r} of dtype {c.dtype}")
            g = self._grouping
            cols[k] = _group_kurt(g, c) if g.ngroups else no_groups_moment(c)
        return self._wrap_agg(cols)

    def ohlc(self) -> Any:
        """First, highest, lowest and last value of each group (missing values skipped): columns
        open / high / low / close, under each column's label for a frame, as pandas."""
        from ember.frame.dataframe import DataFrame
        from ember.ops.groupby import aggregate

        out = {}
        for k, c in self._value_items():
            if not _plain_numeric(c):
                raise _unsupported("GroupBy.ohlc", f"the column {k!r} of dtype {c.dtype} (numbers)")
            for name, op in (("open", "first"), ("high", "max"), ("low", "min"), ("close", "last")):
                out[name if self._is_series() else (k, name)] = aggregate(self._grouping, c, op)
        if not self.as_index:
            raise _unsupported("GroupBy.ohlc", "as_index=False")
        return DataFrame._from_columns(out, self._result_index())

    def _is_series(self) -> bool:
        return hasattr(self.obj, "_column")

    def corr(self, method: str = "pearson", min_periods: int = 1, numeric_only: bool = False) -> Any:
        from ember.ops.correlation import corr_matrix

        return self._matrices("corr", lambda cols: corr_matrix(cols, method, min_periods), numeric_only)

    def cov(self, min_periods: int | None = None, ddof: int = 1, numeric_only: bool = False) -> Any:
        from ember.ops.correlation import cov_matrix

        return self._matrices("cov", lambda cols: cov_matrix(cols, ddof, min_periods), numeric_only)

    def _matrices(self, method: str, matrix: Any, numeric_only: bool) -> Any:
        """A matrix per group (the columns' pairwise statistic over the group's rows), stacked under
        the group keys: index (keys..., column), as pandas' apply of DataFrame.corr / cov."""
        from ember.column import from_any
        from ember.frame.dataframe import DataFrame
        from ember.frame.index import Index, MultiIndex

        if self._is_series():
            raise AttributeError(f"'SeriesGroupBy' object has no attribute '{method}'")
        items = self._value_items()
        if numeric_only:
            items = [(k, c) for k, c in items if _plain_numeric(c) or c.dtype == np.dtype(bool)]
        for k, c in items:
            if not (_plain_numeric(c) or c.dtype == np.dtype(bool)):
                raise _unsupported(f"DataFrameGroupBy.{method}", f"the column {k!r} of dtype {c.dtype}")
        names = [k for k, _ in items]
        blocks = [matrix([c.take(pos) for _, c in items]) for pos in self._group_positions()]
        g, xp = self._grouping, self._grouping.xp
        width = len(names)
        stacked = np.concatenate(blocks) if blocks else np.zeros((0, width))
        cols = {
            k: NumericColumn(xp.asarray(np.ascontiguousarray(stacked[:, j]))) for j, k in enumerate(names)
        }
        groups = xp.repeat(xp.arange(g.ngroups), width)
        inner = from_any(np.asarray(names * g.ngroups, dtype=object), xp) if width else None
        if not (self.as_index and self.group_keys):  # pandas' apply leaves the keys out
            labels = Index(pd.Index(names * g.ngroups))
            return DataFrame._from_columns(cols, labels)
        levels = [u.take(groups) for u in g.uniques]
        levels.append(inner if inner is not None else from_any(np.asarray([], dtype=object), xp))
        return DataFrame._from_columns(cols, MultiIndex(levels, list(self._key_names) + [None]))

    # --- a frame's value counts ----------------------------------------------------------------------
    def value_counts(
        self,
        subset: Any = None,
        normalize: bool = False,
        sort: bool = True,
        ascending: bool = False,
        dropna: bool = True,
    ) -> Any:
        """Rows of each distinct combination of the ``subset`` columns (all the value columns) within
        each group, as pandas: a Series ``count`` (``proportion``) on a (keys..., columns...) index,
        or with ``as_index=False`` a frame of those columns and the figures."""
        from ember.frame.series import Series

        if self._is_series():
            raise AttributeError("value_counts")
        items = dict(self._value_items())
        if subset is not None:
            subset = [subset] if not isinstance(subset, (list, tuple)) else list(subset)
            clash = [s for s in subset if s in self._key_names]
            if clash:
                raise ValueError(f"Keys {clash} in subset cannot be in the groupby column keys.")
            missing = [s for s in subset if s not in self.obj._columns]
            if missing:
                raise ValueError(f"Keys {missing} in subset do not exist in the DataFrame.")
            items = {s: self.obj._columns[s] for s in subset}
        counts, uniques = counted_pairs(self, list(items.values()), normalize, sort, ascending, dropna)
        name = "proportion" if normalize else "count"
        if self.as_index:
            from ember.frame.index import MultiIndex

            index = MultiIndex(uniques, list(self._key_names) + list(items))
            return Series._from_column(counts, index, name)
        return counts_frame(self, uniques, list(items), counts, name)


def counted_pairs(
    gb: Any, values: list[Column], normalize: bool, sort: bool, ascending: bool, dropna: bool
) -> tuple[Column, list[Column]]:
    """Rows of each distinct (keys..., values...) combination: the counts (or proportions within
    the group) and the combinations' columns. With ``sort`` ordered by count (descending unless
    ``ascending``) within each group (across groups with ``groupby(sort=False)``); ties, and
    ``sort=False``, keep the combinations' first appearance, as pandas."""
    from ember.ops.groupby import aggregate
    from ember.ops.grouping import make_grouping
    from ember.ops.missing import dropna_mask
    from ember.ops.sort import argsort_keys

    keys = list(gb._keys)
    # rows left out: a missing key (groupby dropna), a missing value (dropna)
    checked = [c for c in (keys if gb.dropna else []) + (values if dropna else []) if c.has_nulls_possible]
    if checked:
        at = keys[0].xp.flatnonzero(dropna_mask(checked))
        keys, values = [k.take(at) for k in keys], [v.take(at) for v in values]
    nkeys = len(keys)
    pairs = make_grouping(keys + values, sort=False, dropna=False)  # first-appearance order
    counts = NumericColumn(pairs.sizes[: pairs.ngroups])
    key_groups = make_grouping(pairs.uniques[:nkeys], sort=gb.sort, dropna=False)
    order = None
    if sort or gb.sort:  # by count, also when normalized (pandas: proportions keep that order)
        by = [(key_groups.codes, None)] if gb.sort else []
        up = [True] if gb.sort else []
        if sort:
            by, up = by + [(counts.data, None)], up + [ascending]
        order = argsort_keys(by, up)
    if normalize:
        totals = aggregate(key_groups, counts, "sum").data
        counts = NumericColumn(counts.data / totals[key_groups.codes])
    uniques = pairs.uniques
    if order is not None:
        uniques, counts = [u.take(order) for u in uniques], counts.take(order)
    return counts, uniques


def counts_frame(gb: Any, uniques: list[Column], names: list, counts: Column, label: str) -> Any:
    from ember.frame.dataframe import DataFrame
    from ember.frame.index import RangeIndex

    labels = [
        n if n is not None else ("index" if len(gb._key_names) == 1 else f"level_{i}")
        for i, n in enumerate(gb._key_names)
    ]
    labels += names
    if label in labels:
        raise ValueError(f"cannot insert {label}, already exists")
    cols = dict(zip(labels, uniques))
    if len(cols) != len(labels):
        raise _unsupported("DataFrameGroupBy.value_counts", "repeated column labels")
    cols[label] = counts
    return DataFrame._from_columns(cols, RangeIndex(len(counts)))


def _slice_mask(arg: slice, up: Any, down: Any, xp: Any) -> Any:
    """pandas' rows of a slice of each group's positions (``_make_mask_from_slice``)."""
    start, stop, step = arg.start, arg.stop, arg.step
    if step is not None and step < 0:
        raise ValueError(f"Invalid step {step}. Must be non-negative")
    step = 1 if step is None else step
    mask = xp.ones(len(up), dtype=bool)
    if start is None:
        if step > 1:
            mask &= up % step == 0
    elif start >= 0:
        mask &= up >= start
        if step > 1:
            mask &= (up - start) % step == 0
    else:
        mask &= down < -start
        offset = xp.where(up + down + (start + 1) < 0, up, down + start + 1)
        mask &= offset % step == 0
    if stop is not None:
        mask &= (up < stop) if stop >= 0 else (down >= -stop)
    return mask


def _group_kurt(g: Any, col: Column) -> Column:
    """Fisher's unbiased kurtosis per group from the centred second and fourth moments."""
    from ember.ops.groupby import _float_dtype, aggregate

    xp = g.xp
    values = col.data.astype(np.float64)
    valid = ~col.isna() if col.has_nulls_possible else None
    x = NumericColumn(values, valid) if valid is not None else NumericColumn(values)
    n = aggregate(g, x, "count").data.astype(np.float64)
    mean = aggregate(g, x, "mean").data
    centred = values - mean[xp.clip(g.codes, 0, None)] if g.ngroups else values
    if valid is not None:
        centred = xp.where(valid, centred, 0.0)
    m2 = aggregate(g, NumericColumn(centred**2), "sum").data / xp.maximum(n, 1)
    m4 = aggregate(g, NumericColumn(centred**4), "sum").data / xp.maximum(n, 1)
    with np.errstate(all="ignore"):
        g2 = m4 / (m2 * m2) - 3.0
        result = ((n + 1) * g2 + 6.0) * (n - 1) / ((n - 2) * (n - 3))
    tiny = m2 <= 1e-14 * xp.maximum(mean * mean, 1e-300)
    result = xp.where(tiny, 0.0, result)
    result = xp.where(n < 4, np.nan, result)
    result = result.astype(_float_dtype(col, "kurt", result=result))  # float32 where it holds them
    if isinstance(col, NumericColumn) and col.nullable:  # pandas: Float64, missing where NaN
        return NumericColumn(result, ~xp.isnan(result), True)
    return NumericColumn(result)


def _host(a: Any) -> np.ndarray:
    from ember.backend import to_host

    return to_host(a)

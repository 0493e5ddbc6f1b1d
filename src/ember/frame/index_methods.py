"""Index methods composed from the Series' ones: the labels are wrapped in a Series (no copy: the same
Column), the Series method runs on the device, and the result comes back as pandas' type for that
method: an Index (named as pandas names it), a boolean / position array, or a scalar.

Arrays come back on the column's device (NumPy on the CPU, CuPy on the GPU), as ember's other array
results; pandas gives NumPy arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported


class IndexMethods:
    """Mixed into ``Index``: ``self.column`` holds the labels, ``self.name`` their name."""

    __slots__ = ()

    # --- the mechanism ----------------------------------------------------------------------------
    def _series(self) -> Any:
        from ember.frame.index import RangeIndex
        from ember.frame.series import Series

        self._one_level()
        return Series._from_column(self.column, RangeIndex(len(self)), self.name)

    def _one_level(self) -> None:
        from ember.frame.index import MultiIndex

        if isinstance(self, MultiIndex):
            raise unsupported("MultiIndex", "this method of a MultiIndex (convert with .to_pandas())")

    def _labels(self, result: Any, name: Any = "same") -> Any:
        """A Series result's values as an Index."""
        from ember.frame.index import Index

        return Index._from_column(result.column, self.name if name == "same" else name)

    @staticmethod
    def _array(result: Any) -> Any:
        """A boolean Series result's values as an array (no missing values in these results)."""
        col = result.column
        return col.data if col.mask is None else col.data & col.mask

    # --- missing values ---------------------------------------------------------------------------
    def isna(self) -> Any:
        self._one_level()
        return self.column.isna()

    isnull = isna

    def notna(self) -> Any:
        return ~self.isna()

    notnull = notna

    def fillna(self, value: Any) -> Any:
        if not pd.api.types.is_scalar(value):
            raise TypeError(f"'value' must be a scalar, passed: {type(value).__name__}")
        return self._labels(self._series().fillna(value))

    def dropna(self, how: str = "any") -> Any:
        if how not in ("any", "all"):
            raise ValueError(f"invalid how option: {how}")
        return self._labels(self._series().dropna())

    # --- membership and uniqueness ----------------------------------------------------------------
    def isin(self, values: Any, level: Any = None) -> Any:
        if level is not None:
            self._validate_level(level)
        return self._array(self._series().isin(values))

    def unique(self, level: Any = None) -> Any:
        from ember.ops.factorize import unique

        if level is not None:
            self._validate_level(level)
        self._one_level()
        return self._labels(_column_result(unique(self.column)))

    def nunique(self, dropna: bool = True) -> int:
        return self._series().nunique(dropna=dropna)

    def duplicated(self, keep: Any = "first") -> Any:
        return self._array(self._series().duplicated(keep=keep))

    def drop_duplicates(self, *, keep: Any = "first") -> Any:
        return self._labels(self._series().drop_duplicates(keep=keep))

    @property
    def is_unique(self) -> bool:
        """Whether no label repeats (one sync)."""
        return self.nunique(dropna=False) == len(self)

    @property
    def has_duplicates(self) -> bool:
        return not self.is_unique

    @property
    def is_monotonic_decreasing(self) -> bool:
        """Whether each label is <= the one before (False with a missing label). One sync."""
        from ember.ops.binary import binary_op

        self._one_level()
        col, n = self.column, len(self)
        if n < 2:
            return not bool(col.isna().any()) if n else True
        le = binary_op(col.slice(1, n), col.slice(0, n - 1), "le")
        ok = le.data if le.mask is None else le.data & le.mask
        return bool(ok.all() & ~col.isna().any())

    # --- conversion -------------------------------------------------------------------------------
    def to_series(self, index: Any = None, name: Any = None) -> Any:
        from ember.frame.index import ensure_index
        from ember.frame.series import Series

        self._one_level()
        rows = self if index is None else ensure_index(index, len(self))
        return Series._from_column(self.column, rows, self.name if name is None else name)

    def map(self, mapper: Any, na_action: Any = None) -> Any:
        return self._labels(self._series().map(mapper, na_action=na_action))

    # --- order ------------------------------------------------------------------------------------
    def argsort(self, *args: Any, **kwargs: Any) -> Any:
        """Positions that sort the labels (missing last), stable: pandas' NumPy quicksort may order
        repeated labels differently."""
        from ember.ops.sort import argsort

        if args or kwargs:
            raise unsupported("Index.argsort", "arguments", fallback=False)
        self._one_level()
        return argsort([self.column], na_position="last")

    def sort_values(self, ascending: bool = True, na_position: str = "last") -> Any:
        return self._labels(self._series().sort_values(ascending=ascending, na_position=na_position))

    # --- editing ----------------------------------------------------------------------------------
    def where(self, cond: Any, other: Any = None) -> Any:
        return self._labels(self._series().where(_host_bool(cond, len(self)), other))

    def putmask(self, mask: Any, value: Any) -> Any:
        return self._labels(self._series().mask(_host_bool(mask, len(self)), value))

    def delete(self, loc: Any) -> Any:
        n = len(self)
        keep = np.ones(n, dtype=bool)
        keep[np.asarray(loc)] = False  # IndexError out of bounds, as pandas
        return self._take_host(np.flatnonzero(keep))

    def insert(self, loc: int, item: Any) -> Any:
        from ember.frame.convert import from_pandas

        n = len(self)
        if not -n <= loc <= n:
            raise IndexError(f"index {loc} is out of bounds for axis 0 with size {n}")
        loc = loc % (n + 1) if loc < 0 else loc
        one = from_pandas(pd.Index([item]))
        if one.dtype != self.dtype:
            raise unsupported(
                "Index.insert", f"an item of another dtype ({one.dtype}) than the index's", fallback=False
            )
        head, tail = self.slice(0, loc), self.slice(loc, n)
        return head.append(one).append(tail).rename(self.name)

    def drop(self, labels: Any, errors: str = "raise") -> Any:
        if errors not in ("raise", "ignore"):
            raise ValueError("errors must be either 'raise' or 'ignore'")
        labels = [labels] if pd.api.types.is_scalar(labels) else list(labels)
        if errors == "raise":  # the labels asked for are few and on the host: looked up there
            found = self.isin(labels)
            known = pd.Index(labels).isin(self.unique().to_pandas()) if labels else np.ones(0, bool)
            missing = [lab for lab, ok in zip(labels, known) if not ok]
            if missing:
                raise KeyError(f"{missing} not found in axis")
        else:
            found = self.isin(labels)
        return self._keep(~found)

    def _keep(self, mask: Any) -> Any:
        """The labels where ``mask`` (a device array) holds."""
        return self.take(self.column.xp.flatnonzero(mask))

    def _take_host(self, positions: np.ndarray) -> Any:
        from ember.backend import asarray_on

        return self.take(asarray_on(positions.astype(np.int64), self.column.xp))

    # --- set operations (pandas' sort=None: sorted where the labels compare) ---------------------
    def _other(self, other: Any, method: str) -> Any:
        from ember.frame.index import Index, MultiIndex, index_from_pandas

        self._one_level()
        if isinstance(other, MultiIndex):
            raise unsupported(f"Index.{method}", "a MultiIndex", fallback=False)
        if isinstance(other, pd.Index):
            other = index_from_pandas(other)
        elif not isinstance(other, Index):
            if pd.api.types.is_scalar(other):
                raise TypeError("Input must be Index or array-like")
            other = Index(other, name=self.name)  # pandas: the result keeps this index' name
        if other.dtype != self.dtype:
            raise unsupported(
                f"Index.{method}",
                f"indexes of different dtypes ({self.dtype}, {other.dtype})",
                fallback=False,
            )
        return other

    def _result_name(self, other: Any) -> Any:
        same = self.name == other.name or (self.name is None and other.name is None)
        return self.name if same is True else None

    @staticmethod
    def _sorted(result: Any, sort: Any) -> Any:
        if sort is False:
            return result
        try:
            return result.sort_values()
        except TypeError:
            if sort is True:
                raise
            return result

    def union(self, other: Any, sort: Any = None) -> Any:
        _check_sort(sort, "union")
        other = self._other(other, "union")
        name = self._result_name(other)
        if not len(other) or self.equals(other):
            out = self.rename(name)
        elif not len(self):
            out = other.rename(name)
        else:
            if self.has_duplicates or other.has_duplicates:
                raise unsupported(
                    "Index.union",
                    "labels that repeat (pandas keeps each label's most repeats)",
                    fallback=False,
                )
            out = self._sorted(self.append(other._keep(~other.isin(self.to_pandas()))), sort).rename(name)
            return out
        return out.sort_values() if sort is True else out

    def intersection(self, other: Any, sort: Any = False) -> Any:
        _check_sort(sort, "intersection")
        other = self._other(other, "intersection")
        name = self._result_name(other)
        if self.equals(other):
            out = (self.unique() if self.has_duplicates else self).rename(name)
            return out.sort_values() if sort is True else out
        left = self.unique()
        out = left._keep(left.isin(other.to_pandas())) if len(left) and len(other) else left.slice(0, 0)
        return self._sorted(out, sort).rename(name)

    def difference(self, other: Any, sort: Any = None) -> Any:
        _check_sort(sort, "difference")
        other = self._other(other, "difference")
        name = self._result_name(other)
        if self.equals(other):
            return self.slice(0, 0).rename(name)
        left = self.unique().rename(name)
        if not len(other):
            return left.sort_values() if sort is True else left
        return self._sorted(left._keep(~left.isin(other.to_pandas())), sort)

    def symmetric_difference(self, other: Any, result_name: Any = None, sort: Any = None) -> Any:
        _check_sort(sort, "symmetric_difference")
        other = self._other(other, "symmetric_difference")
        name = self._result_name(other) if result_name is None else result_name
        left, right = self.unique(), other.unique()
        left = left._keep(~left.isin(right.to_pandas())) if len(right) else left
        right = right._keep(~right.isin(self.to_pandas())) if len(self) else right
        return self._sorted(left.append(right), sort).rename(name)

    def _validate_level(self, level: Any) -> None:
        if isinstance(level, int):
            if level not in (0, -1):
                raise IndexError(f"Too many levels: Index has only 1 level, not {level + 1}")
        elif level != self.name:
            raise KeyError(f"Requested level ({level}) does not match index name ({self.name})")


def _check_sort(sort: Any, method: str) -> None:
    if sort not in (None, False, True):
        raise ValueError(
            f"The 'sort' keyword only takes the values of None, True, or False; {sort} was passed."
        )


def _host_bool(cond: Any, n: int) -> Any:
    """A condition for ``where`` / ``putmask``: an ember Series / Index' values or an array."""
    if hasattr(cond, "column"):
        return cond.column.data
    return cond


def _column_result(col: Any) -> Any:
    from ember.frame.index import RangeIndex
    from ember.frame.series import Series

    return Series._from_column(col, RangeIndex(len(col)))

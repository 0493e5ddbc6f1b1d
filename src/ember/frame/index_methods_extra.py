"""Further pandas Index methods: the array protocol attributes (``T``, ``ndim``, ``item``,
``ravel``), positions of extremes (``argmax`` / ``argmin``), ``value_counts``, ``diff``,
``replace``, ``hasnans`` / ``inferred_type``, names (``set_names``, ``get_level_values``),
``sort_values`` with ``return_indexer`` / ``key`` and the label searches ``slice_indexer``,
``get_indexer_for`` and ``reindex``; ``MultiIndexExtra`` adds a MultiIndex's ``min`` / ``max``
and ``set_names`` by a dict.

Values are computed on the labels' device through the Series methods (as ``IndexMethods`` does).
The label searches run through pandas on the host, as ``get_indexer`` / ``slice_locs`` do, and
give pandas' NumPy position arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import CategoricalColumn, StringColumn
from ember.frame._fallback import unsupported


class IndexMethodsExtra:
    """Mixed into ``Index`` ahead of ``IndexMethods``: ``self.column`` holds the labels."""

    __slots__ = ()

    # --- the array protocol -------------------------------------------------------------------------
    @property
    def T(self) -> Any:  # noqa: N802 (pandas' name)
        return self

    @property
    def ndim(self) -> int:
        return 1

    def ravel(self, order: str = "C") -> Any:
        return self[:]

    def item(self) -> Any:
        if len(self) != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self[0]

    # --- missing values -------------------------------------------------------------------------------
    @property
    def hasnans(self) -> bool:
        """Whether a label is missing (one sync); a MultiIndex' tuples never are, as in pandas."""
        from ember.frame.index import MultiIndex

        if isinstance(self, MultiIndex):
            return False
        return bool(self.column.isna().any())

    @property
    def inferred_type(self) -> str:
        """pandas' ``inferred_type``: fixed by the dtype except for object labels, whose values
        decide it (those are read on the host)."""
        from ember.frame.index import MultiIndex

        if isinstance(self, MultiIndex):
            return "mixed"
        if self.dtype != object:
            return pd.Index([], dtype=self.dtype).inferred_type
        col = self.column
        if not len(self):
            return "empty"
        if isinstance(col, StringColumn) and col.mask is None:
            return "string"
        return self.to_pandas().inferred_type

    # --- positions of the extremes ----------------------------------------------------------------
    def argmax(self, axis: Any = None, skipna: bool = True, *args: Any, **kwargs: Any) -> int:
        return self._arg_extreme("argmax", axis, skipna, args, kwargs)

    def argmin(self, axis: Any = None, skipna: bool = True, *args: Any, **kwargs: Any) -> int:
        return self._arg_extreme("argmin", axis, skipna, args, kwargs)

    def _arg_extreme(self, op: str, axis: Any, skipna: bool, args: tuple, kwargs: dict) -> int:
        """The first position of the largest / smallest label; pandas' ValueError where a missing
        label meets ``skipna=False`` or every label is missing."""
        from ember.ops.reductions import reduce

        getattr(pd.RangeIndex(1), op)(axis, skipna, *args, **kwargs)  # pandas checks the arguments
        self._one_level()
        col = self.column
        missing = col.isna()
        if len(self) and bool(missing.any()):
            if not skipna:
                raise ValueError("Encountered an NA value with skipna=False")
            if bool(missing.all()):
                raise ValueError("Encountered all NA values")
        return int(reduce(col, "idxmax" if op == "argmax" else "idxmin", skipna=True))

    # --- values ---------------------------------------------------------------------------------------
    def value_counts(
        self,
        normalize: bool = False,
        sort: bool = True,
        ascending: bool = False,
        bins: Any = None,
        dropna: bool = True,
    ) -> Any:
        """How often each label appears, as a Series named 'count' / 'proportion' whose index
        carries this index' name (pandas' ``Index.value_counts``)."""
        if bins is not None:
            raise unsupported("Index.value_counts", "bins= (interval labels)", fallback=False)
        series = self._series()
        return series.value_counts(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)

    def diff(self, periods: int = 1) -> Any:
        return self._labels(self._series().diff(periods))

    def replace(self, to_replace: Any = None, value: Any = None, regex: bool = False) -> Any:
        return self._labels(self._series().replace(to_replace, value, regex=regex))

    # --- editing --------------------------------------------------------------------------------------
    def where(self, cond: Any, other: Any = None) -> Any:
        """Labels where ``cond`` holds, ``other`` elsewhere; an Index ``other`` by position (as
        pandas takes it: an array, not aligned on labels)."""
        from ember.frame.index import Index
        from ember.frame.index_methods import _host_bool
        from ember.frame.series import Series

        values = self._positional(other)
        cond = _host_bool(cond, len(self))
        if isinstance(values, (Series, Index)) or not pd.api.types.is_scalar(values):
            keep = self.column.xp.asarray(cond, dtype=bool)
            if keep.shape == (len(self),) and bool(keep.all()):
                return Index._from_column(self.column, self.name)  # nothing replaced: pandas keeps the dtype
        try:
            return self._labels(self._series().where(cond, values))
        except TypeError as exc:  # pandas retries in a common dtype: object labels of mixed types
            raise unsupported(
                "Index.where", f"values of another kind than the {self.dtype} labels ({exc})", fallback=False
            ) from exc

    def putmask(self, mask: Any, value: Any) -> Any:
        """``value`` where ``mask`` holds (pandas' ``where(~mask, value)``), a copy where it never does."""
        from ember.frame.index_methods import _host_bool

        self._one_level()
        xp = self.column.xp
        mask = xp.asarray(_host_bool(mask, len(self)), dtype=bool)
        if mask.shape != (len(self),):
            raise ValueError("putmask: mask and data must be the same size")
        if not bool(mask.any()):
            return self.copy()
        return self.where(~mask, value)

    def _positional(self, other: Any) -> Any:
        """An Index of values as a Series on this index' positions (a length of its own raises
        pandas' error)."""
        from ember.frame.index import Index, MultiIndex

        if not isinstance(other, Index):
            return other
        if isinstance(other, MultiIndex):
            raise unsupported("Index.where", "a MultiIndex of values", fallback=False)
        if len(other) != len(self):
            raise ValueError(f"Length of values ({len(other)}) does not match length of index ({len(self)})")
        return other._series()

    # --- names ----------------------------------------------------------------------------------------
    def set_names(self, names: Any, *, level: Any = None, inplace: bool = False) -> Any:
        """A copy named ``names`` (or this index renamed in place); pandas checks the arguments on
        an index with no labels and gives the new name."""
        new = pd.RangeIndex(0, name=self.name).set_names(names, level=level).name
        if inplace:
            self.name = new
            return None
        return self.rename(new)

    def get_level_values(self, level: Any) -> Any:
        self._validate_level(level)
        return self

    # --- order ----------------------------------------------------------------------------------------
    def sort_values(
        self,
        *,
        return_indexer: bool = False,
        ascending: bool = True,
        na_position: str = "last",
        key: Any = None,
    ) -> Any:
        """The labels sorted (missing ones by ``na_position``), by ``key(index)`` where given;
        with ``return_indexer`` also the positions that sort them (a NumPy array, as pandas).
        pandas' NumPy quicksort may order equal keys either way: where that shows (the indexer,
        or a key under which different labels tie) repeated keys are refused."""
        from ember.backend import to_host
        from ember.frame.index import Index, RangeIndex
        from ember.ops.sort import argsort

        if na_position not in ("first", "last"):
            raise ValueError(f"invalid na_position: {na_position}")
        self._one_level()
        keys = self if key is None else key(self)
        if not isinstance(keys, Index) or len(keys) != len(self):
            raise unsupported("Index.sort_values", "a key that does not give an Index of the same length")
        if self._already_sorted(keys, ascending):
            out = self.copy()
            return (out, np.arange(len(self), dtype=np.intp)) if return_indexer else out
        if isinstance(self, RangeIndex) and key is None:
            return self._sorted_range(return_indexer, ascending)
        if (return_indexer or key is not None) and keys.has_duplicates:
            raise unsupported(
                "Index.sort_values",
                "return_indexer= or key= with repeated sort keys (pandas' unstable sort orders them)",
                fallback=False,
            )
        positions = argsort([keys.column], ascending=[ascending], na_position=na_position)
        out = self.take(positions)
        return (out, to_host(positions).astype(np.intp)) if return_indexer else out

    def _sorted_range(self, return_indexer: bool, ascending: bool) -> Any:
        """A RangeIndex stays one: reversed where its step runs the other way (pandas)."""
        n = len(self)
        flip = (self.step < 0) if ascending else (self.step > 0)
        out = self[::-1] if flip else self.copy()
        if not return_indexer:
            return out
        return out, (np.arange(n - 1, -1, -1) if flip else np.arange(n)).astype(np.intp)

    def _already_sorted(self, keys: Any, ascending: bool) -> bool:
        """pandas keeps the labels as they are where they are already in order and no key is given."""
        if keys is not self:
            return False
        return self.is_monotonic_increasing if ascending else self.is_monotonic_decreasing

    # --- set operations -------------------------------------------------------------------------------
    def union(self, other: Any, sort: Any = None) -> Any:
        """pandas' ``union`` with repeated labels too: each label as many times as the side that
        repeats it most. Unsorted (``sort=False``), this index' labels come first and the other's
        missing ones after, or, where the other repeats labels, the labels grouped in order of
        first appearance (pandas' ``union_with_duplicates``)."""
        from ember.frame.index_methods import IndexMethods, _check_sort

        _check_sort(sort, "union")
        other = self._other(other, "union")
        if not len(self) or not len(other) or self.equals(other):
            return IndexMethods.union(self, other, sort)
        name = self._result_name(other)
        if other.has_duplicates:
            out = self._union_repeats(other, sort)
        else:
            out = self.append(other._keep(~other.isin(self.to_pandas())))
        return self._sorted(out, sort).rename(name)

    def _union_repeats(self, other: Any, sort: Any) -> Any:
        """Both indexes' labels, an ``other`` label kept where its occurrence number (0, 1, ...)
        among its equals in ``other`` reaches this index' count of it."""
        from ember.backend.primitives import stable_argsort
        from ember.ops.factorize import factorize_keys

        both = self.append(other)
        codes, _, ngroups = factorize_keys([both.column], sort=False, dropna=False)
        xp, n = both.column.xp, len(self)
        own_counts = xp.bincount(codes[:n], minlength=ngroups)
        theirs = codes[n:]
        order = stable_argsort(theirs)
        grouped = theirs[order]
        occurrence = xp.empty_like(theirs)
        occurrence[order] = xp.arange(len(theirs)) - xp.searchsorted(grouped, grouped, side="left")
        keep = xp.concatenate([xp.ones(n, dtype=bool), occurrence >= own_counts[theirs]])
        positions = xp.flatnonzero(keep)
        if sort is False:  # grouped by label, in order of first appearance
            positions = positions[stable_argsort(codes[positions])]
        return both.take(positions)

    # --- label searches (pandas on the host) ----------------------------------------------------------
    def slice_indexer(self, start: Any = None, end: Any = None, step: Any = None) -> slice:
        return self.to_pandas().slice_indexer(start, end, step)

    def get_indexer_for(self, target: Any) -> np.ndarray:
        from ember.frame.index_methods_more import _host

        return self.to_pandas().get_indexer_for(_host(target))

    def reindex(
        self, target: Any, method: Any = None, level: Any = None, limit: Any = None, tolerance: Any = None
    ) -> tuple:
        """(the target labels as an Index, their positions here or None where they are these very
        labels), as pandas' ``Index.reindex``: the lookup runs in pandas on the host."""
        from ember.frame.index import index_from_pandas
        from ember.frame.index_methods_more import _host

        labels, indexer = self.to_pandas().reindex(
            _host(target), method=method, level=level, limit=limit, tolerance=tolerance
        )
        return index_from_pandas(labels), indexer


class MultiIndexExtra:
    """Mixed into ``MultiIndex`` ahead of its other mixins: ``self.levels_columns`` hold the levels."""

    __slots__ = ()

    def min(self, axis: Any = None, skipna: bool = True, *args: Any, **kwargs: Any) -> Any:
        return self._extreme_tuple("min", axis, skipna, args, kwargs)

    def max(self, axis: Any = None, skipna: bool = True, *args: Any, **kwargs: Any) -> Any:
        return self._extreme_tuple("max", axis, skipna, args, kwargs)

    def _extreme_tuple(self, op: str, axis: Any, skipna: bool, args: tuple, kwargs: dict) -> Any:
        """The smallest / largest tuple: the labels sorted level by level on the device, the
        first / last one read back (pandas' MultiIndex order; NaN where there are no labels)."""
        from ember.ops.sort import argsort

        getattr(pd.RangeIndex(1), op)(axis, skipna, *args, **kwargs)  # pandas checks the arguments
        if not len(self):
            return np.nan
        cols = self.levels_columns
        if any(isinstance(c, CategoricalColumn) or bool(c.isna().any()) for c in cols):
            # pandas compares the tuples in Python: categories by value, NaN not at all
            raise unsupported(f"MultiIndex.{op}", "missing or categorical labels", fallback=False)
        order = argsort(list(cols), na_position="last")
        pos = 0 if op == "min" else len(self) - 1
        return self.take(order[pos : pos + 1]).to_pandas()[0]

    def set_names(self, names: Any, *, level: Any = None, inplace: bool = False) -> Any:
        """New level names; pandas checks ``names`` / ``level`` (a dict of old to new names too)
        on a MultiIndex with no labels and gives the names."""
        empty = pd.MultiIndex.from_arrays([[] for _ in range(self.nlevels)], names=self.names)
        new = list(empty.set_names(names, level=level).names)
        if inplace:
            self._names = new
            return None
        return self.rename(new)

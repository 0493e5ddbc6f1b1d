"""More MultiIndex methods: ordering, duplicates, missing labels, membership and dropping labels.

Row-wise questions (duplicated, dropna, monotonic, argsort) run on the level columns on their device.
Lookups of a few labels the user names (``drop``, ``isin`` of tuples) run on the host with pandas'
own index, as the other label lookups of a MultiIndex do (``label_positions._host_row_positions``): the
positions they give select the level columns on the device. Row selections keep pandas' levels
(labels no row uses any more stay, as pandas keeps them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


class MultiIndexMore:
    """Methods mixed into MultiIndex (``levels_columns``: one Column per level, in row order)."""

    __slots__ = ()

    # ------------------------------------------------------------------ selections keeping levels

    def _rows_keeping_levels(self, positions: Any, levels: Any = None) -> Any:
        """The rows at ``positions`` (an array on the levels' device), pandas' levels unchanged."""
        from ember.frame.index import MultiIndex

        if levels is None:
            levels = self._levels if self._levels is not None else list(self.to_pandas().levels)
        cols = [c.take(positions) for c in self.levels_columns]
        return MultiIndex(cols, self.names, list(levels))

    def _where_rows(self, mask: Any) -> Any:
        return self._rows_keeping_levels(self._xp().flatnonzero(mask))

    def _xp(self) -> Any:
        return self.levels_columns[0].xp

    # ------------------------------------------------------------------ missing labels

    def dropna(self, how: str = "any") -> Any:
        """Without the rows missing a label in any level (``how='all'``: in every level)."""
        if how not in ("any", "all"):
            raise ValueError(f"invalid how option: {how}")
        missing = [c.isna() for c in self.levels_columns]
        xp = self._xp()
        if not missing:
            return self.copy()
        combined = xp.stack(missing).any(axis=0) if how == "any" else xp.stack(missing).all(axis=0)
        return self._where_rows(~combined)

    # ------------------------------------------------------------------ duplicates

    def duplicated(self, keep: Any = "first") -> Any:
        """Whether each row's labels repeat another row's (missing labels equal each other)."""
        from ember.ops.factorize import duplicated

        return duplicated(self.levels_columns, keep=keep)

    def drop_duplicates(self, *, keep: Any = "first") -> Any:
        return self._where_rows(~self.duplicated(keep=keep))

    def unique(self, level: Any = None) -> Any:
        """The distinct rows in order of appearance (one level's distinct labels with ``level``)."""
        if level is not None:
            return self.get_level_values(level).unique()
        return self.drop_duplicates()

    @property
    def is_unique(self) -> bool:
        return not bool(self.duplicated().any())

    @property
    def has_duplicates(self) -> bool:
        return not self.is_unique

    def nunique(self, dropna: bool = True) -> int:
        raise NotImplementedError("nunique is not defined for MultiIndex")

    # ------------------------------------------------------------------ order

    def argsort(self, *args: Any, na_position: str = "last", **kwargs: Any) -> Any:
        """Positions that sort the rows level by level, missing labels first or last (pandas 3.1
        ignores ``args`` / ``kwargs`` here: it sorts the codes). Stable, on the device."""
        from ember.ops.sort import argsort

        if na_position not in ("first", "last"):
            raise ValueError(f"invalid na_position: {na_position}")
        return argsort(self.levels_columns, na_position=na_position)

    @property
    def is_monotonic_increasing(self) -> bool:
        """Whether the rows are sorted level by level (False with a missing label). One sync."""
        return self._sorted_as_is(self.levels_columns)

    @property
    def is_monotonic_decreasing(self) -> bool:
        """pandas: the reversed rows are increasing."""
        backwards = self._xp().arange(len(self) - 1, -1, -1, dtype=np.int64)
        return self._sorted_as_is([c.take(backwards) for c in self.levels_columns])

    def _sorted_as_is(self, cols: list) -> bool:
        from ember.ops.sort import argsort

        n = len(cols[0])
        if n == 0:
            return True
        xp = cols[0].xp
        missing = xp.stack([c.isna() for c in cols]).any()
        in_order = (argsort(cols) == xp.arange(n, dtype=np.int64)).all()
        return bool(in_order & ~missing)

    # ------------------------------------------------------------------ membership and drop

    def isin(self, values: Any, level: Any = None) -> Any:
        """Whether each row is one of the tuples ``values`` (with ``level``: whether that level's label
        is among ``values``), as a boolean array on the levels' device."""
        from ember.backend import asarray_on

        if level is not None:
            labels = self.get_level_values(level)
            if len(labels) == 0:
                return self._xp().zeros(0, dtype=bool)
            return labels.isin(values)
        if hasattr(values, "to_pandas"):
            values = values.to_pandas()
        found = self.to_pandas().isin(values)  # tuples the user lists, looked up by pandas' codes
        return asarray_on(np.asarray(found, dtype=bool), self._xp())

    def drop(self, codes: Any, level: Any = None, errors: str = "raise") -> Any:
        """Without the rows of the labels ``codes`` (tuples, or first-level labels; with ``level``,
        labels of that level), as pandas' MultiIndex.drop (its KeyError for a missing label)."""
        from ember.backend import asarray_on

        if hasattr(codes, "to_pandas"):
            codes = codes.to_pandas()
        host = self.to_pandas()
        kept = host.drop(codes, level=level, errors=errors)
        # pandas keeps every row of a kept tuple and the levels: rows match through their codes
        mask = _codes_key(host).isin(_codes_key(kept)) if len(kept) else np.zeros(len(host), dtype=bool)
        positions = asarray_on(np.flatnonzero(mask).astype(np.int64), self._xp())
        return self._rows_keeping_levels(positions, kept.levels)


def _codes_key(index: pd.MultiIndex) -> pd.Index:
    """One integer per row from its codes (-1 for a missing label), equal for equal rows of indexes
    that share their levels."""
    if np.prod([len(level) + 1.0 for level in index.levels]) >= 2.0**62:  # too many: tuples of codes
        return pd.Index(list(zip(*(np.asarray(c).tolist() for c in index.codes))), tupleize_cols=False)
    key = np.zeros(len(index), dtype=np.int64)
    for codes, level in zip(index.codes, index.levels):
        key = key * (len(level) + 1) + (np.asarray(codes, dtype=np.int64) + 1)
    return pd.Index(key)

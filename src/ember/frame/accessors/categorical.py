"""``Series.cat``: thin wrappers over ops.categorical."""

from __future__ import annotations

from typing import Any

from ember.column import CategoricalColumn
from ember.ops import categorical as C


class CategoricalMethods:
    """pandas' ``.cat`` accessor for categorical Series."""

    def __init__(self, series: Any) -> None:
        if not isinstance(series.column, CategoricalColumn):
            raise AttributeError("Can only use .cat accessor with a 'category' dtype")
        self._s = series
        self._col: CategoricalColumn = series.column

    def _wrap(self, col: Any) -> Any:
        return self._s._wrap(col)

    @property
    def codes(self) -> Any:
        from ember.frame.series import Series

        # pandas' codes Series keeps the index, not the name
        return Series._from_column(C.codes_column(self._col), self._s.index)

    @property
    def categories(self) -> Any:
        from ember.frame.index import Index

        return Index._from_column(self._col.categories)

    @property
    def ordered(self) -> bool:
        return self._col.ordered

    def rename_categories(self, new_categories: Any) -> Any:
        return self._wrap(C.rename_categories(self._col, new_categories))

    def add_categories(self, new_categories: Any) -> Any:
        return self._wrap(C.add_categories(self._col, new_categories))

    def remove_categories(self, removals: Any) -> Any:
        return self._wrap(C.remove_categories(self._col, removals))

    def remove_unused_categories(self) -> Any:
        return self._wrap(C.remove_unused_categories(self._col))

    def set_categories(self, new_categories: Any, ordered: bool | None = None, rename: bool = False) -> Any:
        return self._wrap(C.set_categories(self._col, new_categories, ordered, rename))

    def reorder_categories(self, new_categories: Any, ordered: bool | None = None) -> Any:
        return self._wrap(C.reorder_categories(self._col, new_categories, ordered))

    def as_ordered(self) -> Any:
        return self._wrap(C.with_ordered(self._col, True))

    def as_unordered(self) -> Any:
        return self._wrap(C.with_ordered(self._col, False))

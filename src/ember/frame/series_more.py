"""Series methods: ``argmax`` / ``argmin``, ``add_prefix`` / ``add_suffix`` and ``case_when``
(mixed into Series through SeriesExtras)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


class SeriesMore:
    __slots__ = ()

    def argmax(self, axis: Any = None, skipna: bool = True, *args: Any, **kwargs: Any) -> Any:
        """The position of the largest value (the first of equal ones); pandas' ValueError for no
        values, a missing value with ``skipna=False``, or only missing values."""
        return self._arg_extreme("argmax", axis, skipna, args, kwargs)

    def argmin(self, axis: Any = None, skipna: bool = True, *args: Any, **kwargs: Any) -> Any:
        return self._arg_extreme("argmin", axis, skipna, args, kwargs)

    def _arg_extreme(self, op: str, axis: Any, skipna: bool, args: tuple, kwargs: dict) -> Any:
        from ember.frame.index import Index

        if len(self) == 0:
            getattr(pd.Series([1]), op)(axis, skipna, *args, **kwargs)  # pandas checks the arguments
            raise ValueError(f"attempt to get {op} of an empty sequence")
        return np.int64(getattr(Index._from_column(self._column), op)(axis, skipna, *args, **kwargs))

    def add_prefix(self, prefix: str, axis: Any = None) -> Any:
        """The index labels with ``prefix`` before them (as text)."""
        return self._relabelled(lambda k: f"{prefix}{k}", axis)

    def add_suffix(self, suffix: str, axis: Any = None) -> Any:
        return self._relabelled(lambda k: f"{k}{suffix}", axis)

    def _relabelled(self, fn: Any, axis: Any) -> Any:
        from ember.frame.generic import check_axis
        from ember.frame.index import index_from_pandas

        if axis is not None and check_axis("Series.add_prefix", axis) != 0:
            raise ValueError(f"No axis named {axis} for object type Series")
        # pandas' own relabelling of the (host) labels: every part of a MultiIndex label, and the
        # dtype of an empty axis as the installed pandas gives it
        labels = self._index.to_pandas()._transform_index(fn)
        return type(self)._from_column(self._column, index_from_pandas(labels), self.name)

    def case_when(self, caselist: list) -> Any:
        """pandas' case_when: the first (condition, replacement) whose condition holds, else the
        value; replacements and values take their common dtype first, as pandas."""
        if not isinstance(caselist, list):
            raise TypeError(f"The caselist argument should be a list; instead got {type(caselist)}")
        if not caselist:
            raise ValueError("provide at least one boolean condition, with a corresponding replacement.")
        for num, entry in enumerate(caselist):
            if not isinstance(entry, tuple):
                raise TypeError(f"Argument {num} must be a tuple; instead got {type(entry)}.")
            if len(entry) != 2:
                raise ValueError(
                    f"Argument {num} must have length 2; a condition and replacement; instead got length "
                    f"{len(entry)}."
                )
        pairs = [(c(self) if callable(c) else c, r(self) if callable(r) else r) for c, r in caselist]
        target = _common_dtype([r for _, r in pairs], self)
        out = self if target is None else self.astype(target)
        for position in range(len(pairs) - 1, -1, -1):
            cond, repl = pairs[position]
            if target is not None and not pd.api.types.is_scalar(repl):
                repl = repl.astype(target) if hasattr(repl, "astype") else repl
            try:
                out = out.mask(cond, repl)
            except Exception as error:
                raise ValueError(f"Failed to apply condition{position} and replacement{position}.") from error
        return out


def _common_dtype(replacements: list, series: Any) -> Any:
    """pandas' common dtype of the replacements and the Series where they differ, else None."""
    from pandas.core.dtypes.cast import find_common_type, infer_dtype_from

    dtypes = []
    for r in [*replacements, series]:
        dtype = getattr(r, "dtype", None)
        dtypes.append(dtype if dtype is not None else infer_dtype_from(r)[0])
    if len(set(map(str, dtypes))) == 1:
        return None
    common = find_common_type(dtypes)
    return None if common == series.dtype and all(d == common for d in dtypes) else common

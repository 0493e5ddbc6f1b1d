"""GroupBy access to the groups themselves (groups, iteration, get_group, filter, apply, pipe): these
loop over groups in Python by nature. A mixin of the GroupBy classes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd


class GroupByApply:
    @property
    def groups(self) -> dict:
        """{key: index labels}; built on the host (a dict of Python objects)."""
        codes = _host(self._grouping.codes)
        labels = self.obj.index.to_pandas()
        keys = self._result_index().to_pandas()
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(self.ngroups + 1))
        return {keys[i]: labels[order[bounds[i] : bounds[i + 1]]] for i in range(self.ngroups)}

    def _group_positions(self) -> list[Any]:
        """Row positions of each group (one array per group, in row order)."""
        from ember.backend import array_module
        from ember.backend.primitives import stable_argsort

        g = self._grouping
        xp = array_module(g.codes)
        order = stable_argsort(g.codes)
        bounds = _host(xp.searchsorted(g.codes[order], xp.arange(g.ngroups + 1)))  # one sync
        return [order[bounds[i] : bounds[i + 1]] for i in range(g.ngroups)]

    def __iter__(self):
        """(key, sub-frame) per group. Loops over groups in Python: for exploration, not bulk work."""
        keys = self._result_index().to_pandas()
        obj = self._selected_obj()
        for key, pos in zip(keys, self._group_positions()):
            yield key, obj._take_rows(pos)

    def get_group(self, name: Any) -> Any:
        keys = list(self._result_index().to_pandas())
        if getattr(self, "_one_key_list", False):  # groupby(["a"]): pandas names a group by a 1-tuple
            if not (isinstance(name, tuple) and len(name) == 1):
                raise KeyError(name)
            name = name[0]
        if name not in keys:
            raise KeyError(name)
        return self._selected_obj()._take_rows(self._group_positions()[keys.index(name)])

    def filter(self, func: Callable, dropna: bool = True) -> Any:
        """Rows of the groups for which ``func(group)`` is True. Calls ``func`` once per group (a loop)."""
        from ember.backend import array_module

        keep = [pos for (_, sub), pos in zip(self, self._group_positions()) if bool(func(sub))]
        if not keep:
            return self._selected_obj()._take_rows(self._grouping.codes[:0])
        xp = array_module(keep[0])
        return self._selected_obj()._take_rows(xp.sort(xp.concatenate(keep)))

    group_keys = True  # set by DataFrame.groupby / Series.groupby

    def apply(self, func: Callable, *args: Any, include_groups: bool = False, **kwargs: Any) -> Any:
        """``func`` on each group (a loop over groups in Python: pandas' semantics, a slow path by
        nature), its results combined as pandas 3 does: the groups are passed without their grouping
        columns; scalars make a Series over the group keys; Series with one index make a frame with a
        row per group (the Series' labels as columns, one common dtype as pandas' ``np.vstack``);
        frames, and Series of differing labels, are stacked under a first index level of group keys
        (``group_keys``). pandas objects returned by ``func`` are taken in as ember objects; the result
        is assembled with ember's concat."""
        from ember.frame.dataframe import DataFrame
        from ember.frame.groupby import DataFrameGroupBy, SeriesGroupBy, _unsupported
        from ember.frame.series import Series

        if include_groups:
            raise ValueError("include_groups=True is no longer allowed.")
        keys, results, positions = [], [], self._group_positions()
        indexed_same = True  # every result on its group's rows (pandas' "not mutated")
        obj = self._selected_obj()
        for key, pos in zip(self._result_index().to_pandas(), positions):
            sub = obj._take_rows(pos)
            if isinstance(sub, DataFrame):
                grouping = [
                    n
                    for n, is_column in zip(self._key_names, self._key_labels)
                    if is_column and n in sub._columns
                ]
                sub = sub.drop(columns=grouping) if grouping else sub
            else:
                sub.name = key  # pandas hands each group over named by its key
            keys.append(key)
            results.append(_as_ember(func(sub, *args, **kwargs)))
            if indexed_same and isinstance(results[-1], (Series, DataFrame)):
                indexed_same = results[-1].index.equals(sub.index)
        if not results or any(r is None for r in results):
            raise _unsupported("GroupBy.apply", "no groups, or a function returning None")
        if all(np.isscalar(r) for r in results):
            return self._scalars_applied(results)
        if all(isinstance(r, Series) for r in results) and isinstance(self, DataFrameGroupBy):
            labels = [r.index.to_pandas() for r in results]
            if all(lab.equals(labels[0]) for lab in labels[1:]):
                return self._rows_applied(results, labels[0])
        if all(isinstance(r, (Series, DataFrame)) for r in results):
            out = self._stacked(results, keys, positions if indexed_same else None)
            if isinstance(self, SeriesGroupBy) and isinstance(out, Series):
                out.name = self.obj.name  # pandas: a Series' groups give back its name
            return out
        raise _unsupported("GroupBy.apply", "results mixing scalars, Series and frames")

    def _scalars_applied(self, results: list) -> Any:
        """One scalar per group: a Series over the group keys."""
        from ember.frame.groupby import SeriesGroupBy, _unsupported
        from ember.frame.series import Series

        index = self._result_index().to_pandas()
        if self.as_index:
            name = self.obj.name if isinstance(self, SeriesGroupBy) else None
            return Series(pd.Series(results, index=index, name=name))
        # pandas labels the values' column None beside the key labels (an object axis ember's
        # column labels do not hold)
        raise _unsupported("GroupBy.apply", "scalar results with as_index=False")

    def _rows_applied(self, results: list, labels: pd.Index) -> Any:
        """Series of the same labels, one per group: a row per group, the labels as columns. pandas
        stacks them with ``np.vstack`` (one common NumPy dtype for every column); the rows are cast to
        that dtype and transposed in ember."""
        from ember.frame.convert import concat
        from ember.frame.groupby import _unsupported

        dtypes = {np.dtype(r.dtype) if _plain_number(r.dtype) else None for r in results}
        if None in dtypes:
            raise _unsupported(
                "GroupBy.apply",
                "Series results of a non-numeric or nullable dtype (pandas stacks them as objects)",
            )
        common = np.result_type(*dtypes)
        columns = [r.astype(common) if np.dtype(r.dtype) != common else r for r in results]
        wide = concat([c.reset_index(drop=True) for c in columns], axis=1, ignore_index=True)
        out = wide.T
        out.index = self._result_index()
        cols = labels.copy()
        if cols.name is None:
            names = {r.name for r in results}
            if len(names) == 1:  # pandas: the results' one name names the column axis
                cols.name = next(iter(names))
        out.columns = cols
        if not self.as_index:
            return self._keys_frame(dict(out._columns), axis_names=False)
        return out

    def _stacked(self, results: list, keys: list, positions: list | None) -> Any:
        """The groups' results one after another, under a level of their keys (``group_keys`` with
        ``as_index``). Without the keys, results on their groups' own rows (``positions``) go back to
        the rows' order in the grouped object, as pandas."""
        from ember.backend import array_module
        from ember.frame.convert import concat
        from ember.frame.groupby import _unsupported

        if self.group_keys and not self.as_index:
            return concat(results)
        if not self.group_keys:
            out = concat(results)
            if positions is None or not positions:
                return out
            xp = array_module(positions[0])
            return out._take_rows(xp.argsort(xp.concatenate(positions), kind="stable"))
        if len(self._key_names) != 1:
            raise _unsupported("GroupBy.apply", "group_keys=True with several keys (use group_keys=False)")
        out = concat(results, keys=keys)
        names = [self._key_names[0], *out.index.names[1:]]
        out.index = out.index.rename(names) if hasattr(out.index, "rename") else out.index
        return out

    def pipe(self, func: Callable, *args: Any, **kwargs: Any) -> Any:
        return func(self, *args, **kwargs)


def _as_ember(result: Any) -> Any:
    """A pandas Series / DataFrame returned by the applied function, as an ember object (the
    function's own small result; a Python scalar stays as it is)."""
    if isinstance(result, (pd.Series, pd.DataFrame)):
        from ember.frame.convert import from_pandas

        return from_pandas(result)
    return result


def _plain_number(dtype: Any) -> bool:
    """A NumPy bool / integer / float dtype (what ``np.vstack`` stacks without objects)."""
    return isinstance(dtype, np.dtype) and dtype.kind in "biuf"


def _host(a: Any) -> np.ndarray:
    from ember.backend import to_host

    return to_host(a)

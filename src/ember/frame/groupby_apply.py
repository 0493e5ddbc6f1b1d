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

    def apply(self, func: Callable, *args: Any, **kwargs: Any) -> Any:
        """``func`` on each group (a loop over groups), its results combined as pandas 3 does: the
        groups are passed without their grouping columns; scalars make a Series over the group keys;
        Series with one index make a frame with a row per group (a frame's groups); frames, and a
        Series' Series, are stacked under a first index level of group keys (``group_keys``)."""
        from ember.frame.dataframe import DataFrame
        from ember.frame.groupby import DataFrameGroupBy, SeriesGroupBy, _unsupported
        from ember.frame.series import Series

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
            results.append(func(sub, *args, **kwargs))
            if indexed_same and isinstance(results[-1], (Series, DataFrame)):
                indexed_same = results[-1].index.equals(sub.index)
        index = self._result_index().to_pandas()
        if all(np.isscalar(r) for r in results):
            name = self.obj.name if isinstance(self, SeriesGroupBy) else None
            return Series(pd.Series(results, index=index, name=name))
        if all(isinstance(r, Series) for r in results) and isinstance(self, DataFrameGroupBy):
            labels = [r.index.to_pandas() for r in results]
            if all(lab.equals(labels[0]) for lab in labels[1:]):
                rows = pd.DataFrame([r.to_pandas() for r in results], index=index)
                names = {r.name for r in results}
                if labels[0].name is None and len(names) == 1:  # pandas: the results' one name
                    rows.columns.name = next(iter(names))
                return DataFrame(rows)
        if all(isinstance(r, (Series, DataFrame)) for r in results):
            out = self._stacked(results, keys, positions if indexed_same else None)
            if isinstance(self, SeriesGroupBy) and isinstance(out, Series):
                out.name = self.obj.name  # pandas: a Series' groups give back its name
            return out
        raise _unsupported("GroupBy.apply", "results mixing scalars, Series and frames")

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


def _host(a: Any) -> np.ndarray:
    from ember.backend import to_host

    return to_host(a)

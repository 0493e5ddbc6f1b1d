"""DataFrame missing-data methods (fillna, dropna): a mixin of DataFrame, over ops.missing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import to_host
from ember.frame._fallback import unsupported, with_fallback
from ember.frame.generic import check_axis
from ember.frame.series import Series


class FrameMissing:
    @with_fallback
    def fillna(self, value: Any = None, *, inplace: bool = False, limit: Any = None) -> Any:
        from ember.ops.missing import fillna

        if isinstance(value, dict):
            out = self._with_columns(
                {k: fillna(c, value[k], limit) if k in value else c for k, c in self._columns.items()}
            )
        elif isinstance(value, (Series, pd.Series)):  # a value per column label (df.fillna(df.mean()))
            per_column = value.to_pandas() if isinstance(value, Series) else value
            out = self._with_columns(
                {
                    k: fillna(c, per_column[k], limit) if k in per_column.index else c
                    for k, c in self._columns.items()
                }
            )
        elif isinstance(value, FrameMissing):
            raise unsupported("DataFrame.fillna", "a DataFrame value (fill column by column with a dict)")
        else:
            out = self._map_columns(lambda c: fillna(c, value, limit))
        if inplace:
            self._replace_with(out)
            return None
        return out

    def dropna(
        self,
        *,
        axis: Any = 0,
        how: str = "any",
        thresh: int | None = None,
        subset: Any = None,
        inplace: bool = False,
        ignore_index: bool = False,
    ) -> Any:
        from ember.backend import xp as current_xp
        from ember.ops.missing import dropna_mask

        if check_axis("dropna", axis) == 1:
            out = self._dropna_columns(how, thresh, subset)
            if inplace:
                self._replace_with(out)
                return None
            return out
        names = (
            self._names
            if subset is None
            else self._select_labels(list(subset) if not np.isscalar(subset) else [subset])
        )
        cols = [self._columns[k] for k in names]
        keep = dropna_mask(cols, how=how, thresh=thresh, n=len(self), xp=current_xp())
        out = self._filter_rows(keep, ignore_index)
        if inplace:
            self._replace_with(out)
            return None
        return out

    def _dropna_columns(self, how: str, thresh: int | None, subset: Any) -> Any:
        """``dropna(axis=1)``: the columns with no missing value ('any'), not all missing ('all'), or
        at least ``thresh`` values. One sync for every column's count."""
        if subset is not None:
            raise unsupported("DataFrame.dropna", "axis=1 with subset= (row labels)")
        if how not in ("any", "all"):
            raise ValueError(f"invalid how option: {how}")
        if not self._names:
            return self
        xp = next(iter(self._columns.values())).xp
        valid = to_host(xp.stack([(~c.isna()).sum() for c in self._columns.values()]))
        n = len(self)
        keep = valid >= thresh if thresh is not None else (valid == n if how == "any" else valid > 0)
        return self._with_columns({k: c for (k, c), ok in zip(self._columns.items(), keep) if ok})

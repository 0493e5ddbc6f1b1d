"""Series reductions (sum, mean, ... quantile, idxmin / idxmax, describe, corr, cov) and
searchsorted: a mixin of Series, over ops.reductions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ember.column import from_any
from ember.frame._fallback import unsupported, with_fallback
from ember.frame.alignment import align_series

if TYPE_CHECKING:
    from ember.frame.series import Series


def _numpy_compat(op: str, kwargs: dict) -> None:
    """pandas' check of the NumPy keywords a reduction takes for ``np.sum(series)`` and friends
    (``out=None``, ``dtype=None``, ``keepdims=False`` ...): their defaults only, pandas' ValueError
    for another value and TypeError for an unknown keyword."""
    from pandas.compat.numpy import function as nv

    if op in ("std", "var", "sem"):
        nv.validate_stat_ddof_func((), kwargs, fname=op)
    elif op in ("any", "all"):
        nv.validate_logical_func((), kwargs, fname=op)
    else:
        getattr(nv, f"validate_{op}")((), kwargs)


class SeriesReductions:
    def _reduce(self, op: str, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        from ember.ops.reductions import reduce

        if numeric_only and self._column.dtype == object:  # (pandas ignores it for other dtypes)
            raise TypeError(f"Series.{op} does not allow numeric_only=True with non-numeric dtypes.")
        return reduce(self._column, op, skipna=skipna, **kw)  # pandas' scalar types (np.bool_ ...)

    def sum(
        self,
        axis: Any = None,
        skipna: bool = True,
        numeric_only: bool = False,
        min_count: int = 0,
        **kwargs: Any,
    ) -> Any:
        _numpy_compat("sum", kwargs)
        return self._reduce("sum", skipna, numeric_only, min_count=min_count)

    def prod(
        self,
        axis: Any = None,
        skipna: bool = True,
        numeric_only: bool = False,
        min_count: int = 0,
        **kwargs: Any,
    ) -> Any:
        _numpy_compat("prod", kwargs)
        return self._reduce("prod", skipna, numeric_only, min_count=min_count)

    product = prod

    def mean(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kwargs: Any) -> Any:
        _numpy_compat("mean", kwargs)
        return self._reduce("mean", skipna, numeric_only)

    def median(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kwargs: Any) -> Any:
        _numpy_compat("median", kwargs)
        return self._reduce("median", skipna, numeric_only)

    def min(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kwargs: Any) -> Any:
        _numpy_compat("min", kwargs)
        return self._reduce("min", skipna, numeric_only)

    def max(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kwargs: Any) -> Any:
        _numpy_compat("max", kwargs)
        return self._reduce("max", skipna, numeric_only)

    def std(
        self, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False, **kwargs: Any
    ) -> Any:
        _numpy_compat("std", kwargs)
        return self._reduce("std", skipna, numeric_only, ddof=ddof)

    def var(
        self, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False, **kwargs: Any
    ) -> Any:
        _numpy_compat("var", kwargs)
        return self._reduce("var", skipna, numeric_only, ddof=ddof)

    def sem(
        self, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False, **kwargs: Any
    ) -> Any:
        _numpy_compat("sem", kwargs)
        return self._reduce("sem", skipna, numeric_only, ddof=ddof)

    def count(self) -> Any:
        from ember.column.list import ListColumn

        col = self._column
        if isinstance(col, ListColumn):  # the rows holding a value, whatever they hold
            return np.int64(len(col) - int(col.isna().sum()))
        return np.int64(self._reduce("count"))  # pandas: a NumPy integer (nunique: a Python int)

    def nunique(self, dropna: bool = True) -> int:
        return int(self._reduce("nunique", skipna=dropna))

    def any(self, axis: Any = None, bool_only: bool = False, skipna: bool = True, **kwargs: Any) -> Any:
        _numpy_compat("any", kwargs)
        return _truth(self._reduce("any", skipna))

    def all(self, axis: Any = None, bool_only: bool = False, skipna: bool = True, **kwargs: Any) -> Any:
        _numpy_compat("all", kwargs)
        return _truth(self._reduce("all", skipna))

    def quantile(self, q: Any = 0.5, interpolation: str = "linear") -> Any:
        from ember.frame.series import Series
        from ember.ops.quantiles import quantiles

        if np.isscalar(q):
            return quantiles(self._column, [float(q)], interpolation=interpolation)[0][0]
        qs = [float(v) for v in q]
        values, dtype = quantiles(self._column, qs, interpolation=interpolation)
        return Series(pd.array(values, dtype=dtype), index=qs, name=self.name)

    def searchsorted(self, value: Any, side: str = "left", sorter: Any = None) -> Any:
        """Insertion points of ``value`` (scalar, array-like or Series) into this sorted Series, as an
        int64 array of the column's module (a scalar for a scalar ``value``)."""
        from ember.frame.series import Series
        from ember.ops.sort import searchsorted

        if sorter is not None:
            raise unsupported("Series.searchsorted", "sorter=")
        scalar = np.ndim(value) == 0 and not isinstance(value, Series)
        needles = (
            value.column
            if isinstance(value, Series)
            else from_any([value] if scalar else value, self._column.xp)
        )
        out = searchsorted(self._column, needles, side=side)
        if scalar:  # pandas' NumPy integer (CuPy's out[0] is a device array)
            from ember.backend import to_host

            return np.int64(to_host(out[:1])[0])
        return out

    def idxmin(self, axis: Any = None, skipna: bool = True) -> Any:
        return self._index[int(self._reduce("idxmin", skipna))]

    def idxmax(self, axis: Any = None, skipna: bool = True) -> Any:
        return self._index[int(self._reduce("idxmax", skipna))]

    @with_fallback
    def describe(self, percentiles: Any = None) -> Series:
        from ember.frame.describe import describe_series

        return describe_series(self, percentiles)

    def corr(self, other: Series, method: str = "pearson", min_periods: int | None = None) -> float:
        from ember.ops.correlation import corr_matrix

        left, right, _ = align_series(self, other)
        return float(corr_matrix([left, right], method=method, min_periods=min_periods or 1)[0, 1])

    def cov(self, other: Series, min_periods: int | None = None, ddof: int = 1) -> float:
        from ember.ops.correlation import cov_matrix

        left, right, _ = align_series(self, other)
        return float(cov_matrix([left, right], ddof=ddof, min_periods=min_periods)[0, 1])

    def item(self) -> Any:
        if len(self) != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.iat[0]


def _truth(value: Any) -> Any:
    """any / all: a NumPy bool (a Python bool for 'str' data, as pandas), or pd.NA where a masked
    column's missing values leave it undecided with skipna=False (Kleene logic, as pandas)."""
    return value if value is pd.NA or type(value) is bool else np.bool_(value)

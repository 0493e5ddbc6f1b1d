"""ember: PyData on GPUs — a pandas-compatible DataFrame on CuPy, with the same code on NumPy.

``import ember`` imports neither CuPy, Dask nor scikit-learn; the GPU is probed on first use.
"""

from pandas import Grouper  # a key / level / freq grouping spec, which ember's groupby reads

from ember import _config as config
from ember import api, backend
from ember.frame import (
    Categorical,
    CategoricalIndex,
    DataFrame,
    Index,
    MultiIndex,
    RangeIndex,
    Series,
    concat,
    fallback_report,
    from_arrow,
    from_dlpack,
    from_pandas,
    merge,
)
from ember.frame.algorithms import factorize, to_numeric
from ember.frame.binning import cut, qcut
from ember.frame.crosstab import crosstab
from ember.frame.datetimes import date_range, timedelta_range, to_datetime
from ember.frame.pivot_table import pivot_table
from ember.frame.reshape import get_dummies, melt, pivot
from ember.frame.timedeltas import to_timedelta
from ember.frame.timeseries import merge_asof
from ember.frame.timeseries_ranges import bdate_range, interval_range, period_range
from ember.frame.wide_to_long import wide_to_long
from ember.io import read_csv, read_json, read_orc, read_parquet
from ember.namespace import *  # noqa: F403  (pandas' scalars, dtypes, options, isna, unique, array)
from ember.namespace import __all__ as _namespace_all

__version__ = "0.1.0"

__all__ = [
    "Categorical",
    "CategoricalIndex",
    "Grouper",
    "DataFrame",
    "Index",
    "MultiIndex",
    "RangeIndex",
    "Series",
    "backend",
    "bdate_range",
    "concat",
    "config",
    "crosstab",
    "cut",
    "date_range",
    "factorize",
    "fallback_report",
    "from_arrow",
    "from_dlpack",
    "from_pandas",
    "get_dummies",
    "interval_range",
    "merge",
    "melt",
    "period_range",
    "merge_asof",
    "pivot",
    "pivot_table",
    "qcut",
    "read_csv",
    "read_json",
    "read_orc",
    "read_parquet",
    "timedelta_range",
    "to_datetime",
    "to_numeric",
    "to_timedelta",
    "wide_to_long",
    "api",
    *_namespace_all,
]

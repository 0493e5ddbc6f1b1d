"""The user-facing API, thin: DataFrame, Series, Index and friends validate arguments, call
column/ and ops/, and wrap the results."""

from ember.frame._fallback import fallback_report
from ember.frame.categorical_array import Categorical
from ember.frame.categorical_index import CategoricalIndex
from ember.frame.convert import concat, from_arrow, from_dlpack, from_pandas
from ember.frame.dataframe import DataFrame
from ember.frame.index import Index, MultiIndex, RangeIndex
from ember.frame.merge import merge
from ember.frame.series import Series

__all__ = [
    "Categorical",
    "CategoricalIndex",
    "DataFrame",
    "Index",
    "MultiIndex",
    "RangeIndex",
    "Series",
    "concat",
    "fallback_report",
    "from_arrow",
    "from_dlpack",
    "from_pandas",
    "merge",
]

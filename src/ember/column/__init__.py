"""The data model: one immutable Column per dtype family, backed by device (CuPy) or host (NumPy) arrays."""

from ember.column.base import Column
from ember.column.categorical import CategoricalColumn
from ember.column.convert import concat_columns, from_any, from_arrow, from_numpy, from_pandas, from_scalar
from ember.column.numeric import NumericColumn, is_numeric_column
from ember.column.string import StringColumn
from ember.column.temporal import DatetimeColumn, TimedeltaColumn

__all__ = [
    "CategoricalColumn",
    "Column",
    "DatetimeColumn",
    "NumericColumn",
    "is_numeric_column",
    "StringColumn",
    "TimedeltaColumn",
    "concat_columns",
    "from_any",
    "from_arrow",
    "from_numpy",
    "from_pandas",
    "from_scalar",
]

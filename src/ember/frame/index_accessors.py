"""pandas' DatetimeIndex / TimedeltaIndex attributes and ``Index.str``, composed from the Series'
``.dt`` and ``.str`` accessors: the labels are wrapped in a Series (no copy), the Series accessor runs
on the device, and the result comes back as pandas gives it for an Index: an Index keeping the
index' name for fields, names and rounded / converted labels, a boolean array for the ``is_*``
fields and the string predicates, a frame where pandas gives one.

Arrays come back on the column's device (NumPy on the CPU, CuPy on the GPU), as ember's other
array results; pandas gives NumPy arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import DatetimeColumn, TimedeltaColumn
from ember.frame._fallback import unsupported
from ember.ops.datetimes import BOOL_FIELDS, INT_FIELDS

_TD_FIELDS = ("days", "seconds", "microseconds", "nanoseconds")
_DATETIME = (DatetimeColumn,)
_TIMEDELTA = (TimedeltaColumn,)
_EITHER = (DatetimeColumn, TimedeltaColumn)


def _pandas_type(index: Any) -> str:
    """The pandas class name of an index like ``index`` (for AttributeError messages)."""
    from ember.frame.index import MultiIndex, RangeIndex

    if isinstance(index, (MultiIndex, RangeIndex)):
        return type(index).__name__
    if isinstance(index.column, DatetimeColumn):
        return "DatetimeIndex"
    if isinstance(index.column, TimedeltaColumn):
        return "TimedeltaIndex"
    return "Index"


def _guarded(kinds: tuple) -> Any:
    """A method that exists only for labels of ``kinds``: a property giving the bound method, so
    that looking it up on other labels raises AttributeError, as pandas (``hasattr`` is False)."""

    def wrap(fn: Any) -> property:
        def get(self: Any) -> Any:
            self._dt(fn.__name__, kinds)
            return fn.__get__(self)

        get.__doc__ = fn.__doc__
        return property(get)

    return wrap


class IndexAccessors:
    """Mixed into ``Index``: datetime / timedelta attributes and ``.str``."""

    __slots__ = ()

    # --- the mechanism ----------------------------------------------------------------------------
    def _holds(self, kinds: tuple) -> bool:
        from ember.frame.index import MultiIndex, RangeIndex

        if isinstance(self, (MultiIndex, RangeIndex)):  # no datetime labels (and no one column)
            return False
        return isinstance(self.column, kinds)

    def _dt(self, name: str, kinds: tuple = _DATETIME) -> Any:
        """The Series ``.dt`` accessor over the labels; AttributeError (as pandas) where the labels
        are not of ``kinds``."""
        if not self._holds(kinds):
            raise AttributeError(f"'{_pandas_type(self)}' object has no attribute '{name}'")
        return self._series().dt

    def _field(self, name: str, kinds: tuple = _DATETIME) -> Any:
        return self._labels(getattr(self._dt(name, kinds), name))

    # --- datetime-like attributes (fields are properties made below the class) ----------------------
    @property
    def tz(self) -> Any:
        return self._dt("tz").tz

    @property
    def unit(self) -> str:
        return self._dt("unit", _EITHER).unit

    @property
    def freq(self) -> Any:
        self._dt("freq", _EITHER)
        raise unsupported(
            "Index.freq", "the frequency of the labels (ember indexes keep none)", fallback=False
        )

    @property
    def freqstr(self) -> Any:
        self._dt("freqstr", _EITHER)
        raise unsupported(
            "Index.freqstr", "the frequency of the labels (ember indexes keep none)", fallback=False
        )

    @property
    def asi8(self) -> Any:
        """The labels' int64 ticks in their unit (NaT: the smallest int64), on the column's device."""
        col = self._dt("asi8", _EITHER) and self.column
        data = col.data.astype(np.int64)
        if col.mask is None:
            return data.copy()
        return col.xp.where(col.mask, data, np.iinfo(np.int64).min)

    @property
    def is_normalized(self) -> bool:
        """Whether every label is at midnight (local wall time; a NaT is not, as pandas). Synchronizes
        once."""
        from ember.backend import to_host

        dt = self._dt("is_normalized")
        col, norm = self.column, dt.normalize().column
        same = col.data.astype(np.int64) == norm.data.astype(np.int64)
        if col.mask is not None:
            same = same & col.mask
        return bool(to_host(same.all())) if len(col) else True

    @property
    def date(self) -> np.ndarray:
        """A NumPy object array of ``datetime.date`` (on the host, as pandas gives it: the labels are
        copied there)."""
        self._dt("date")
        return self.to_pandas().date

    @property
    def time(self) -> np.ndarray:
        """A NumPy object array of ``datetime.time`` (on the host: the labels are copied there)."""
        self._dt("time")
        return self.to_pandas().time

    @property
    def timetz(self) -> np.ndarray:
        """A NumPy object array of ``datetime.time`` with the time zone (on the host)."""
        self._dt("timetz")
        return self.to_pandas().timetz

    # --- datetime methods (properties giving the bound method: AttributeError on access) ---------------
    @_guarded(_DATETIME)
    def strftime(self, date_format: str) -> Any:
        return self._labels(self._series().dt.strftime(date_format))

    @_guarded(_DATETIME)
    def day_name(self, locale: Any = None) -> Any:
        if locale is not None:
            raise unsupported("Index.day_name", "locale= (English names only)", fallback=False)
        return self._labels(self._series().dt.day_name())

    @_guarded(_DATETIME)
    def month_name(self, locale: Any = None) -> Any:
        if locale is not None:
            raise unsupported("Index.month_name", "locale= (English names only)", fallback=False)
        return self._labels(self._series().dt.month_name())

    @_guarded(_DATETIME)
    def normalize(self) -> Any:
        return self._labels(self._series().dt.normalize())

    @_guarded(_DATETIME)
    def tz_localize(self, tz: Any, ambiguous: Any = "raise", nonexistent: str = "raise") -> Any:
        return self._labels(self._series().dt.tz_localize(tz, ambiguous, nonexistent))

    @_guarded(_DATETIME)
    def tz_convert(self, tz: Any) -> Any:
        return self._labels(self._series().dt.tz_convert(tz))

    @_guarded(_DATETIME)
    def to_period(self, freq: Any = None) -> Any:
        return self._series().dt.to_period  # refused by the Series accessor (no period columns)

    @_guarded(_DATETIME)
    def isocalendar(self) -> Any:
        """A frame of ISO year, week and day on this index, as pandas."""
        from ember.frame.series import Series

        return Series._from_column(self.column, self, self.name).dt.isocalendar()

    # --- datetime and timedelta methods -------------------------------------------------------------
    def round(self, *args: Any, **kwargs: Any) -> Any:
        """Datetime-like labels: ``round(freq, ambiguous, nonexistent)``; numbers: ``round(decimals)``."""
        if self._holds(_EITHER):
            return self._labels(self._series().dt.round(*args, **kwargs))
        return self._round_numbers(*args, **kwargs)

    def _round_numbers(self, decimals: int = 0) -> Any:
        from ember.column import NumericColumn
        from ember.frame.index import MultiIndex, RangeIndex

        if isinstance(self, RangeIndex):
            unit = 10 ** max(-decimals, 0)
            if self.start % unit == 0 and self.step % unit == 0:
                return self.copy()  # every label already rounded (pandas keeps the RangeIndex)
            return self._labels(self._series().round(decimals))
        if isinstance(self, MultiIndex) or not isinstance(self.column, NumericColumn):
            raise unsupported("Index.round", f"labels of dtype {self.dtype}", fallback=False)
        if self.column.is_bool:
            raise unsupported("Index.round", "boolean labels", fallback=False)
        return self._labels(self._series().round(decimals))

    @_guarded(_EITHER)
    def floor(self, freq: Any, ambiguous: Any = "raise", nonexistent: str = "raise") -> Any:
        return self._labels(self._series().dt.floor(freq, ambiguous, nonexistent))

    @_guarded(_EITHER)
    def ceil(self, freq: Any, ambiguous: Any = "raise", nonexistent: str = "raise") -> Any:
        return self._labels(self._series().dt.ceil(freq, ambiguous, nonexistent))

    @_guarded(_EITHER)
    def as_unit(self, unit: str) -> Any:
        return self._labels(self._series().dt.as_unit(unit))

    # --- timedelta methods --------------------------------------------------------------------------
    @_guarded(_TIMEDELTA)
    def total_seconds(self) -> Any:
        return self._labels(self._series().dt.total_seconds())

    @property
    def components(self) -> Any:
        """A frame of days, hours, ... nanoseconds on a RangeIndex, as pandas."""
        return self._dt("components", _TIMEDELTA).components

    @_guarded(_TIMEDELTA)
    def to_pytimedelta(self) -> np.ndarray:
        """A NumPy object array of ``datetime.timedelta`` (on the host)."""
        return self._series().dt.to_pytimedelta()

    # --- strings ------------------------------------------------------------------------------------
    @property
    def str(self) -> IndexStringMethods:
        from ember.frame.index import MultiIndex

        if isinstance(self, MultiIndex):
            raise AttributeError("Can only use .str accessor with Index, not MultiIndex")
        return IndexStringMethods(self)


def _field_property(name: str, kinds: tuple, as_array: bool) -> property:
    def get(self: IndexAccessors) -> Any:
        if as_array:
            return self._array(getattr(self._dt(name, kinds), name))
        return self._field(name, kinds)

    get.__name__ = name
    get.__doc__ = f"The labels' {name} (as pandas' {'array' if as_array else 'Index'})."
    return property(get)


for _name in INT_FIELDS:
    setattr(IndexAccessors, _name, _field_property(_name, _DATETIME, False))
for _name in BOOL_FIELDS:
    setattr(IndexAccessors, _name, _field_property(_name, _DATETIME, True))
for _name in _TD_FIELDS:
    setattr(IndexAccessors, _name, _field_property(_name, _TIMEDELTA, False))


_EXPANDING = ("split", "rsplit", "partition", "rpartition")


class IndexStringMethods:
    """``Index.str``: the Series' string methods, their results as pandas gives them for an Index."""

    def __init__(self, index: Any) -> None:
        from ember.column import CategoricalColumn, StringColumn
        from ember.frame.index import RangeIndex

        if isinstance(index, RangeIndex):
            raise AttributeError("Can only use .str accessor with string values, not integer")
        if isinstance(index.column, CategoricalColumn):
            raise unsupported(
                "Index.str", "a categorical index (convert with .astype('str'))", fallback=False
            )
        self._index = index
        self._methods = index._series().str  # AttributeError where the labels hold no strings
        col = self._methods._col
        if isinstance(col, StringColumn) and col.pd_dtype == object:
            # pandas re-infers the dtype of an object index' results (strings become 'str', booleans
            # with None stay object), unlike the Series' results
            raise unsupported(
                "Index.str", "an object-dtype index (convert with .astype('str'))", fallback=False
            )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if not hasattr(self._methods, name) or name == "get_dummies":  # pandas: a MultiIndex of dummies
            if hasattr(pd.Series.str, name):
                raise unsupported(f"Index.str.{name}", "this pandas method", fallback=False)
            raise AttributeError(f"'StringMethods' object has no attribute '{name}'")
        method = getattr(self._methods, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            if name == "cat":
                _check_cat_others(args, kwargs)
            return self._wrap(name, method(*args, **kwargs))

        call.__name__ = name
        return call

    def __getitem__(self, key: Any) -> Any:
        return self._wrap("__getitem__", self._methods[key])

    def __iter__(self) -> Any:
        raise TypeError("'StringMethods' object is not iterable")

    def _wrap(self, method: str, result: Any) -> Any:
        kind = getattr(result, "_ember_kind", None)
        if kind == "frame":
            return self._expanded(method, result) if method in _EXPANDING else result
        if kind != "series":
            return result  # cat() without others: one string
        dtype = result.dtype
        if isinstance(dtype, pd.BooleanDtype):
            raise unsupported(
                f"Index.str.{method}",
                "a 'string'-dtype index' booleans (pandas: a BooleanArray)",
                fallback=False,
            )
        if dtype == np.bool_:
            return self._index._array(result)
        if method == "extract" and result.name is not None:
            return self._index._labels(result, result.name)  # a named group names the result
        return self._index._labels(result)

    def _expanded(self, method: str, frame: Any) -> Any:
        """``expand=True``: pandas gives a MultiIndex of the parts (unnamed), or an unnamed Index
        where there is one part."""
        from ember.frame.index import Index, MultiIndex

        cols = [frame[k].column for k in frame._names]
        if not len(frame):
            raise TypeError("Cannot infer number of levels from empty list")
        if len(cols) > 1:
            return MultiIndex(cols, [None] * len(cols))
        if len(cols) == 1 and not bool(cols[0].isna().all()):
            return Index._from_column(cols[0], None)
        raise unsupported(  # pandas: an object Index of NaN
            f"Index.str.{method}", "expand=True where no row holds a string", fallback=False
        )


def _check_cat_others(args: tuple, kwargs: dict) -> None:
    """An Index' ``str.cat`` with a Series / frame: pandas aligns on labels the Index lacks."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    others = args[0] if args else kwargs.get("others")
    items = others if isinstance(others, (list, tuple)) else [others]
    if any(isinstance(o, (pd.Series, pd.DataFrame, Series, DataFrame)) for o in items):
        raise unsupported("Index.str.cat", "others= holding a Series or DataFrame", fallback=False)

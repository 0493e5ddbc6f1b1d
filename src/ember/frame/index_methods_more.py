"""More pandas Index methods: truth reductions, identity (``identical`` / ``is_`` / ``view``),
``repeat``, ``shift``, the datetime / timedelta ``mean`` / ``std``, and the label searches
(``slice_locs``, ``get_slice_bound``, ``asof``, ``asof_locs``, ``get_indexer_non_unique``,
``join``).

Reductions, ``repeat`` and ``shift`` run on the labels' device. The label searches need pandas'
search semantics (sorted and unsorted indexes, partial date strings, the order of a join's labels):
they run through pandas on the host (the labels are copied there, as ``get_indexer`` does), and
their position arrays come back as pandas gives them (NumPy).
"""

from __future__ import annotations

import datetime
import functools
import inspect
from typing import Any

import numpy as np
import pandas as pd

from ember.column import DatetimeColumn, NumericColumn, StringColumn
from ember.frame._fallback import unsupported
from ember.frame.index_accessors import _EITHER, _guarded, _pandas_type


class IndexMethodsMore:
    """Mixed into ``Index``: ``self.column`` holds the labels, ``self.name`` their name."""

    __slots__ = ()

    def factorize(self, sort: bool = False, use_na_sentinel: bool = True) -> tuple:
        """(codes as a NumPy array, an unnamed Index of the uniques), as pandas."""
        from ember.frame.algorithms import factorize

        return factorize(self, sort=sort, use_na_sentinel=use_na_sentinel)

    # --- truth reductions -------------------------------------------------------------------------
    def all(self, *args: Any, **kwargs: Any) -> Any:
        return self._truth("all", args, kwargs)

    def any(self, *args: Any, **kwargs: Any) -> Any:
        return self._truth("any", args, kwargs)

    def _truth(self, op: str, args: tuple, kwargs: dict) -> Any:
        """pandas' ``Index.all`` / ``any``: NumPy's truth of the values where pandas holds them in
        NumPy (NaN and an object column's NaN are truthy, None is not), the extension arrays' truth
        skipping missing values elsewhere (masked dtypes, 'str', timedeltas)."""
        from ember.frame.index import MultiIndex, RangeIndex
        from ember.ops.reductions import reduce

        if args or kwargs:  # pandas' own errors for its NumPy-style arguments
            getattr(pd.Index([], dtype=bool), op)(*args, **kwargs)
        if isinstance(self, MultiIndex):
            raise TypeError(f"cannot perform {op} with MultiIndex")
        if isinstance(self, RangeIndex):  # pandas: Python bools from the range itself
            r = range(self.start, self.stop, self.step)
            return 0 not in r if op == "all" else any(r)
        col = self.column
        if isinstance(col, DatetimeColumn):
            raise TypeError(
                f"'{op}' with datetime64 dtypes is not supported. "
                f"Use (obj != pd.Timestamp(0)).{op}() instead."
            )
        if isinstance(col, NumericColumn):
            return _numeric_truth(col, op)
        if isinstance(col, StringColumn):  # object strings: NumPy's truth (skipna=False)
            return reduce(col, op, skipna=col.pd_dtype != object)
        return reduce(col, op, skipna=True)  # timedeltas; categoricals raise pandas' TypeError

    # --- datetime / timedelta statistics (AttributeError on other labels, as pandas) ---------------
    @_guarded(_EITHER)
    def mean(self, *args: Any, **kwargs: Any) -> Any:
        return self._temporal_stat("mean", args, kwargs)

    @_guarded(_EITHER)
    def std(self, *args: Any, **kwargs: Any) -> Any:
        return self._temporal_stat("std", args, kwargs)

    def _temporal_stat(self, op: str, args: tuple, kwargs: dict) -> Any:
        from ember.ops.reductions import reduce

        # the arguments checked by pandas itself on one label (its NumPy-style arguments raise
        # there), then read from its signature
        ref = self.slice(0, min(1, len(self))).to_pandas()
        getattr(ref, op)(*args, **kwargs)
        bound = inspect.signature(getattr(type(ref), op)).bind(ref, *args, **kwargs)
        bound.apply_defaults()
        skipna = bound.arguments["skipna"]
        if op == "mean":
            return reduce(self.column, op, skipna=skipna)
        return reduce(self.column, op, skipna=skipna, ddof=bound.arguments["ddof"])

    # --- identity ---------------------------------------------------------------------------------
    @property
    def array(self) -> Any:
        """pandas' ExtensionArray of the labels (on the host: the labels are copied there)."""
        return self.to_pandas().array

    def identical(self, other: Any) -> bool:
        """Equal labels, name, dtype and index type (pandas' ``identical``; synchronizes)."""
        from ember.frame.index import Index

        if not isinstance(other, Index):  # pandas: another type is never identical
            return False
        if len(self) != len(other) or type(self).__name__ != type(other).__name__:
            return False
        return bool(self.to_pandas().identical(other.to_pandas()))

    def is_(self, other: Any) -> bool:
        """Whether ``other`` is this index or a ``view()`` of it (or both views of one index)."""
        from ember.frame.index import Index

        return self is other or (isinstance(other, Index) and _root(self) is _root(other))

    def view(self, cls: Any = None) -> Any:
        """A new index sharing the labels, which ``is_`` this one (pandas' ``view()``)."""
        from ember.frame.index import MultiIndex, RangeIndex

        if cls is not None:
            return _memory_view(self, cls)
        if isinstance(self, MultiIndex):
            raise unsupported("MultiIndex.view", "this method", fallback=False)
        index_view, range_view = _view_classes()
        if isinstance(self, RangeIndex):
            out = object.__new__(range_view)
            out.start, out.stop, out.step, out._cached = self.start, self.stop, self.step, None
        else:
            out = object.__new__(index_view)
            out._column = self.column
        out.name = self.name
        out._root = _root(self)
        return out

    # --- new labels -------------------------------------------------------------------------------
    def repeat(self, repeats: Any, axis: Any = None) -> Any:
        """Each label ``repeats`` times (or as many times as its entry of ``repeats``), on the device.
        pandas itself checks the counts and ``axis``: a count array's positions are made on the host."""
        from ember.backend import asarray_on, to_host

        if hasattr(repeats, "to_pandas"):
            repeats = repeats.to_pandas()
        elif hasattr(repeats, "__cuda_array_interface__"):
            repeats = to_host(repeats)
        xp = _xp(self)
        if isinstance(repeats, (int, np.integer)):
            pd.RangeIndex(0).repeat(repeats, axis=axis)  # pandas' errors: a negative count, axis
            # (no labels: nothing to repeat, whatever the count, as pandas; CuPy refuses a negative one)
            count = int(repeats) if len(self) else 0
            positions = xp.repeat(xp.arange(len(self), dtype=np.int64), count)
        else:
            positions = pd.RangeIndex(len(self)).repeat(repeats, axis=axis).to_numpy()
            positions = asarray_on(positions.astype(np.int64), xp)
        from ember.frame.index import Index, RangeIndex

        if isinstance(self, RangeIndex):  # pandas' repeat builds a plain Index, even of a range
            return Index.take(self, positions)
        return self.take(positions)

    def shift(self, periods: int = 1, freq: Any = None) -> Any:
        """Datetime / timedelta labels moved by ``periods * freq`` (a fixed step) on the device. ember
        indexes keep no frequency of their own: without ``freq`` only ``periods=0`` (or no labels)
        works, as in pandas."""
        from pandas.tseries.frequencies import to_offset

        if not self._holds(_EITHER):
            raise NotImplementedError(
                "This method is only implemented for DatetimeIndex, PeriodIndex and "
                f"TimedeltaIndex; Got type {_pandas_type(self)}"
            )
        if freq is None:
            if periods == 0 or len(self) == 0:
                return self.copy()
            raise unsupported(
                "Index.shift",
                "a shift by the labels' own frequency (ember keeps none; pass freq=)",
                fallback=False,
            )
        offset = periods * (to_offset(freq) if isinstance(freq, str) else freq)
        # one label through pandas: its errors (a calendar offset on timedeltas, a float count of
        # an offset) and its result dtype (the unit a finer step needs)
        head = self.slice(0, min(1, len(self))).to_pandas() + offset
        delta = _fixed_step(offset, getattr(self.column, "tz", None))
        if delta is None:
            raise unsupported("Index.shift", f"freq={freq!r} (a calendar offset)", fallback=False)
        unit = getattr(head.dtype, "unit", None) or np.datetime_data(head.dtype)[0]
        out = self._series() + delta.as_unit(unit)
        if out.dtype != head.dtype:
            out = out.astype(head.dtype)
        return self._labels(out)

    # --- label searches (pandas on the host) --------------------------------------------------------
    def slice_locs(self, start: Any = None, end: Any = None, step: Any = None) -> tuple:
        return self.to_pandas().slice_locs(start, end, step)

    def get_slice_bound(self, label: Any, side: Any) -> int:
        return self.to_pandas().get_slice_bound(label, side)

    def asof(self, label: Any) -> Any:
        return self.to_pandas().asof(label)

    def asof_locs(self, where: Any, mask: Any) -> np.ndarray:
        return self.to_pandas().asof_locs(_host(where), _host(mask))

    def get_indexer_non_unique(self, target: Any) -> tuple:
        return self.to_pandas().get_indexer_non_unique(_host(target))

    def join(
        self,
        other: Any,
        *,
        how: str = "left",
        level: Any = None,
        return_indexers: bool = False,
        sort: bool = False,
    ) -> Any:
        """pandas' ``Index.join``: the labels' order and indexers follow pandas' rules (sorted,
        unique and repeated labels), so the join is found by pandas on the host; the joined labels
        come back to the device, the indexers stay NumPy (None where pandas gives None)."""
        from ember.frame.index import MultiIndex, index_from_pandas

        if level is not None or isinstance(self, MultiIndex) or isinstance(other, MultiIndex):
            raise unsupported("Index.join", "a MultiIndex or level=", fallback=False)
        other = _host(other)
        if isinstance(other, pd.MultiIndex):
            raise unsupported("Index.join", "a MultiIndex or level=", fallback=False)
        joined, left, right = self.to_pandas().join(other, how=how, return_indexers=True, sort=sort)
        joined = index_from_pandas(joined)
        return (joined, left, right) if return_indexers else joined


def _memory_view(index: Any, cls: Any) -> Any:
    """The labels' memory as an array of another NumPy number dtype (pandas' ``view(dtype)``), on
    the labels' device; only plain number labels (no mask: the memory is then all labels)."""
    from ember.frame.index import MultiIndex

    target = pd.api.types.pandas_dtype(cls) if isinstance(cls, str) else cls
    col = None if isinstance(index, MultiIndex) else index.column
    plain = isinstance(col, NumericColumn) and col.mask is None and not col.nullable
    try:
        target = np.dtype(target)
    except TypeError:
        plain = False
    if not plain or target.kind not in "biuf" or col.data.dtype.kind not in "biuf":
        raise unsupported(
            "Index.view", f"a dtype ({cls!r}: the labels' memory reinterpreted)", fallback=False
        )
    return col.data.view(target)


def _numeric_truth(col: NumericColumn, op: str) -> np.bool_:
    """all / any of numeric labels: a masked dtype skips its missing values; numpy-backed values
    hold NaN there (truthy), an object column of booleans None (falsy) or NaN."""
    truth = col.data != 0
    if col.mask is not None:
        if col.nullable:
            missing = op == "all"
        else:
            missing = bool(col.na) if col.is_bool else True
        truth = col.xp.where(col.mask, truth, missing)
    return np.bool_(bool(truth.all() if op == "all" else truth.any()))


def _fixed_step(offset: Any, tz: Any) -> Any:
    """``offset`` as a Timedelta where it is a fixed step (a Tick, a timedelta, a day where no
    time zone makes days uneven), else None."""
    if isinstance(offset, pd.offsets.Tick) or (
        isinstance(offset, pd.offsets.Day) and tz is None and not offset.normalize
    ):
        return pd.Timedelta(offset)
    if isinstance(offset, (datetime.timedelta, np.timedelta64)):
        delta = pd.Timedelta(offset)
        return delta if isinstance(delta, pd.Timedelta) else None  # NaT: not a step
    return None


def _host(obj: Any) -> Any:
    """An argument of a host search: ember objects as pandas', device arrays as NumPy."""
    from ember.backend import to_host

    if hasattr(obj, "to_pandas") and type(obj).__module__.startswith("ember"):
        return obj.to_pandas()
    if hasattr(obj, "__cuda_array_interface__"):
        return to_host(obj)
    return obj


def _xp(index: Any) -> Any:
    cols = getattr(index, "levels_columns", None)
    return (cols[0] if cols else index.column).xp


def _root(index: Any) -> Any:
    """The index a view was made from (an index is its own root)."""
    return getattr(index, "_root", index)


@functools.cache
def _view_classes() -> tuple[type, type]:
    """Index / RangeIndex types remembering the index they view (pandas' shared ``_id``), named as
    the types they extend (reprs and messages name the pandas type)."""
    from ember.frame.index import Index, RangeIndex

    class IndexView(Index):
        __slots__ = ("_root",)

    class RangeIndexView(RangeIndex):
        __slots__ = ("_root",)

    for cls, base in ((IndexView, Index), (RangeIndexView, RangeIndex)):
        cls.__name__ = cls.__qualname__ = base.__name__
    return IndexView, RangeIndexView

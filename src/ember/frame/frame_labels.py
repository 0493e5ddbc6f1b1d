"""A DataFrame's labels and shape: ``reindex``, ``set_axis``, ``droplevel``, ``add_prefix`` /
``add_suffix``, ``filter`` of columns and ``transpose``. A mixin of ``DataFrame`` (columns in
``_columns``, labels in ``_names``, rows in ``_index``), kept apart from dataframe.py's core."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.column import NumericColumn, from_scalar
from ember.frame._fallback import unsupported
from ember.frame.frame_reductions import labels_index
from ember.frame.generic import check_axis
from ember.frame.index import ensure_index


def unique_labels(labels: Any, method: str) -> list:
    """``labels`` as a list; refused when a label repeats. An ember frame holds a mapping of columns,
    so where pandas would hold two columns of one label ember raises NotImplementedError instead of
    keeping one of them: every path that names a frame's columns comes through here (or ``labelled``)."""
    labels = list(labels)
    try:
        if len(set(labels)) == len(labels):
            return labels
    except TypeError:  # unhashable labels: pandas refuses them as column labels too
        raise TypeError(f"{method}: column labels must be hashable") from None
    seen: set = set()
    repeated = [k for k in labels if k in seen or seen.add(k)]
    raise unsupported(
        method, f"a result with duplicate column labels {list(dict.fromkeys(repeated))!r}", fallback=False
    )


def labelled(labels: Any, columns: Any, method: str) -> dict:
    """The mapping label -> column of a frame whose columns get ``labels`` (see ``unique_labels``)."""
    return dict(zip(unique_labels(labels, method), columns))


#: the kind of a column axis pandas holds as a RangeIndex (``DataFrame()``, a 2-D array's columns)
RANGE_KIND = pd.RangeIndex(0)
#: the kind of an axis pandas makes of an empty list of labels (``DataFrame(columns=[])``)
OBJECT_KIND = pd.Index([], dtype=object)


def axis_kind(labels: Any) -> pd.Index | None:
    """The type of a column axis, which a frame keeps beside its list of labels: an empty Index of
    the class and dtype of ``labels`` (a pandas Index, a range, a list), None where the labels alone
    tell it (a list of labels, a MultiIndex of inferred level dtypes: pandas infers the type from them; an empty list is an
    object Index). ``frame_reductions.labels_index`` builds the axis back from the labels and this
    kind."""
    if isinstance(labels, (pd.RangeIndex, range)):
        return RANGE_KIND
    if isinstance(labels, (list, tuple)):
        return None if len(labels) else OBJECT_KIND
    if not isinstance(labels, pd.Index):
        return None
    if isinstance(labels, pd.MultiIndex):  # the levels' dtypes ('string', int32 keys) stay
        levels = [level[:0].rename(None) for level in labels.levels]
        if all(_inferred_alike(level) for level in levels):
            return None
        return pd.MultiIndex.from_arrays(levels)
    return labels[:0].rename(None)


def _inferred_alike(level: pd.Index) -> bool:
    """Whether pandas' inference from labels gives a level of this dtype anyway (str, int64,
    float64, object, bool levels: no kind is needed to keep them)."""
    return str(level.dtype) in ("str", "object", "int64", "float64", "bool")


def _filter_pandas30(
    frame: Any, arg: Any, items: Any, like: Any, regex: Any, axis: Any, cond: Any, na: Any
) -> Any:
    """pandas 3.0's ``filter(items=None, like=None, regex=None, axis=None)``: labels only, and its
    errors (no ``cond`` / ``na``, which came in pandas 3.1)."""
    for name, value, default in (("cond", cond, None), ("na", na, False)):
        if value is not default:
            raise TypeError(f"filter() got an unexpected keyword argument '{name}'")
    if arg is not None:
        if items is not None:
            raise TypeError("filter() got multiple values for argument 'items'")
        items = arg
    given = sum(x is not None for x in (items, like, regex))
    if given > 1:
        raise TypeError("Keyword arguments `items`, `like`, or `regex` are mutually exclusive")
    if given == 0:
        raise TypeError("Must pass either `items`, `like`, or `regex`")
    if items is not None and not pd.api.types.is_list_like(items):
        raise TypeError(f"Index(...) must be called with a collection of some kind, {items!r} was passed")
    return _filter_labels(
        frame, items, like, regex, 1 if axis is None else check_axis("DataFrame.filter", axis)
    )


def partial_key_columns(frame: Any, key: Any) -> Any:
    """``df[key]`` / ``df.loc[:, key]`` of a key naming the first parts of MultiIndex column labels:
    those columns in order, the named levels dropped (one level left: a plain Index); a single
    column whose remaining label is ``''`` comes back as a Series named ``key``, as pandas. None
    where ``key`` names no column that way (the caller raises KeyError)."""
    from ember.frame.series import Series

    names = frame._names
    if not names or not all(isinstance(k, tuple) for k in names):
        return None
    nlevels = len(names[0])
    parts = key if isinstance(key, tuple) else (key,)
    n = len(parts)
    try:
        matches = [k for k in names if len(k) == nlevels > n and k[:n] == parts]
    except (TypeError, ValueError):  # parts that do not compare with labels (arrays): no match
        return None
    if not matches:
        return None
    rest = [k[n:] if nlevels - n > 1 else k[n] for k in matches]
    axis_names = frame._axis_names[n:] if frame._axis_names else None
    if axis_names is not None and all(name is None for name in axis_names):
        axis_names = None
    kind = None
    if isinstance(frame._kind, pd.MultiIndex):  # the remaining levels keep their dtypes
        levels = list(frame._kind.levels[n:])
        kind = axis_kind(levels[0] if len(levels) == 1 else pd.MultiIndex.from_arrays(levels))
    columns = labelled(rest, [frame._columns[k] for k in matches], "DataFrame[]")
    out = type(frame)._from_columns(columns, frame._index, axis_names, kind)
    if len(rest) == 1 and (rest[0][0] if isinstance(rest[0], tuple) else rest[0]) == "":
        out = out[""]  # pandas reads a lone '' as a placeholder level and selects it too
        if isinstance(out, Series):
            out = Series._from_column(out._column, frame._index, key)
    return out


def kept_kind(names: list, columns: dict, kind: pd.Index | None, labels: list) -> pd.Index | None:
    """The column axis' kind of a frame of ``labels`` made from a frame of ``names`` (its columns
    ``columns``, its axis' ``kind``): where every label is one of its own (a selection, a drop, a
    reordering, no column at all) pandas takes them from its axis, whose type they keep
    (``df[[]]`` of string labels: an empty ``str`` Index); other labels are a new axis pandas infers."""
    if labels == names:
        return kind
    if isinstance(kind, pd.MultiIndex) and all(
        isinstance(k, tuple) and len(k) == kind.nlevels for k in labels
    ):
        return kind  # pandas maps a MultiIndex level by level: each level keeps its dtype where it can
    if any(k not in columns for k in labels):
        return None
    if kind is not None or not names:
        return kind
    if all(type(k) is str for k in names):  # the common case, without building the Index
        return None if labels else axis_kind(labels_index(names[:1]))
    return axis_kind(labels_index(names))


def inserted_kind(frame: Any, loc: int, label: Any) -> pd.Index | None:
    """The column axis' kind once ``label`` is inserted at ``loc``, as pandas' ``Index.insert`` gives
    it (a str axis given an integer label holds objects, an empty one integers). An axis of no kind
    keeps none: the labels tell its type then too."""
    if frame._kind is None:
        return None
    return axis_kind(labels_index(frame._names, frame._kind).insert(loc, label))


class FrameLabels:
    """Methods on a frame's row and column labels, and its shape."""

    def transpose(self, *args: Any, copy: bool = False) -> Any:
        """Rows as columns, for frames of numbers (ints and floats meet as float64, as pandas) or of
        booleans only; other mixes would be pandas' object columns: refused."""
        cols = list(self._columns.values())
        if not cols:
            raise unsupported("DataFrame.transpose", "a frame without columns (pandas gives object columns)")
        if not all(isinstance(c, NumericColumn) and not c.nullable and c.mask is None for c in cols):
            raise unsupported("DataFrame.transpose", "columns other than numbers without a mask")
        kinds = {c.is_bool for c in cols}
        if len(kinds) > 1:
            raise unsupported("DataFrame.transpose", "booleans beside numbers (pandas makes object columns)")
        index = self._index.to_pandas()
        if isinstance(index, pd.MultiIndex) or not index.is_unique:
            raise unsupported("DataFrame.transpose", "a row index with repeated labels or several levels")
        dtype = np.result_type(*[c.data.dtype for c in cols])
        grid = cols[0].xp.stack([c.data.astype(dtype, copy=False) for c in cols])
        out = {label: NumericColumn(grid[:, i].copy()) for i, label in enumerate(index)}
        axis_names = (index.name,) if index.name is not None else None  # the row labels' name
        return type(self)._from_columns(out, ensure_index(self.columns, None), axis_names, axis_kind(index))

    @property
    def T(self) -> Any:  # noqa: N802 - pandas' name
        return self.transpose()

    def droplevel(self, level: Any, axis: Any = 0) -> Any:
        """The frame without row (``axis=1``: column) index levels ``level`` (positions or names)."""
        from ember.frame.reindex import index_without_levels

        if check_axis("DataFrame.droplevel", axis) != 0:
            return self.set_axis(self.columns.droplevel(level), axis=1)
        return type(self)._from_columns(
            dict(self._columns), index_without_levels(self._index, level), self._axis_names, self._kind
        )

    def add_prefix(self, prefix: str, axis: Any = None) -> Any:
        """Column labels with ``prefix`` in front (the row labels with ``axis=0``), as pandas."""
        return self._relabel(lambda label: f"{prefix}{label}", axis)

    def add_suffix(self, suffix: str, axis: Any = None) -> Any:
        """Column labels with ``suffix`` after them (the row labels with ``axis=0``), as pandas."""
        return self._relabel(lambda label: f"{label}{suffix}", axis)

    def _relabel(self, fn: Any, axis: Any) -> Any:
        if axis is not None and check_axis("DataFrame.add_prefix", axis) == 0:
            return self.set_axis(self._index.to_pandas().map(fn), axis=0)
        cols = self._columns
        return self._with_columns(labelled([fn(k) for k in cols], cols.values(), "DataFrame.add_prefix"))

    def filter(
        self,
        arg: Any = None,
        /,
        like: str | None = None,
        regex: str | None = None,
        axis: Any = None,
        *,
        items: Any = None,
        cond: Any = None,
        na: Any = False,
    ) -> Any:
        """pandas 3.1's filter: rows (``axis=1``: columns) where the boolean mask ``cond`` holds (a
        callable or ``pd.col`` expression of the frame, passed as ``cond`` or positionally), or the
        labels named in ``items`` (in that order), containing ``like`` or matching ``regex``
        (columns unless ``axis=0``)."""
        if not PANDAS_31:
            return _filter_pandas30(self, arg, items, like, regex, axis, cond, na)
        given = sum(x is not None for x in (arg, items, cond, like, regex))
        if given > 1:
            raise TypeError(
                "The positional argument and the keyword arguments `items`, "
                "`cond`, `like`, and `regex` are mutually exclusive"
            )
        if given == 0:
            raise TypeError("Must pass a positional argument or one of `items`, `cond`, `like`, or `regex`")
        if na is not True and na is not False and na != "raise":
            raise ValueError(f"na must be 'raise', True, or False, got {na!r}")
        if arg is not None:
            if callable(arg):
                cond = arg
            else:
                items = arg
        if cond is not None:
            return _filter_mask(self, cond, 0 if axis is None else check_axis("DataFrame.filter", axis), na)
        return _filter_labels(
            self, items, like, regex, 1 if axis is None else check_axis("DataFrame.filter", axis)
        )

    def reindex(
        self,
        labels: Any = None,
        *,
        index: Any = None,
        columns: Any = None,
        axis: Any = None,
        method: Any = None,
        copy: Any = None,
        level: Any = None,
        fill_value: Any = None,
        limit: Any = None,
        tolerance: Any = None,
    ) -> Any:
        """Rows of ``index``'s labels and ``columns`` in that order; labels this frame lacks give
        missing values (new columns are float64 NaN, as pandas) (``frame/reindex.py``)."""
        from ember.frame.reindex import check_options, row_positions, taken

        fill = check_options(method, level, limit, tolerance, "DataFrame.reindex")
        if labels is not None:
            if check_axis("DataFrame.reindex", axis) == 0:
                index = labels
            else:
                columns = labels
        if fill and columns is not None:
            if index is not None:
                raise unsupported(
                    "DataFrame.reindex", "method= / limit= / tolerance= with both index= and columns="
                )
            return self._reindex_columns_filled(columns, fill, fill_value)
        out = self
        if index is not None:
            positions, new_index = row_positions(self, index, "DataFrame.reindex", fill)
            cols = {k: taken(c, positions, fill_value) for k, c in self._columns.items()}
            out = type(self)._from_columns(cols, new_index, self._axis_names, self._kind)
        if columns is not None:
            names = list(columns)
            cols = [out._column_or_missing(k, fill_value) for k in names]
            if index is not None:
                block = _one_block_dtype(self, new_index, positions, names, fill_value)
                if block is not None:
                    cols = [NumericColumn(c.data.astype(block), c.mask) for c in cols]
            # pandas: the labels' Index (a list's inferred), an empty list keeps the axis' type
            kind = axis_kind(columns) if names or isinstance(columns, pd.Index) else out._kind_for([])
            out = type(self)._from_columns(
                labelled(names, cols, "DataFrame.reindex"), out._index, out._axis_names, kind
            )
        return out.copy(deep=False) if out is self else out

    def _reindex_columns_filled(self, columns: Any, fill: dict, fill_value: Any) -> Any:
        """``columns`` with method= / limit= / tolerance=: a new label takes the column of its
        neighbouring label as pandas' ``Index.get_indexer`` finds it (on the host: the labels are
        metadata); a label with no neighbour is a column of missing values."""
        target = columns if isinstance(columns, pd.Index) else pd.Index(list(columns))
        source = pd.Index(list(self._names))
        if not source.is_unique:
            raise ValueError("cannot reindex on an axis with duplicate labels")
        indexer = source.get_indexer(target, **fill)
        names = list(target)
        cols = [  # an exact label always matches, so a -1 is a label the frame lacks
            self._columns[source[i]] if i >= 0 else self._column_or_missing(name, fill_value)
            for name, i in zip(names, indexer)
        ]
        kind = axis_kind(columns) if names or isinstance(columns, pd.Index) else self._kind_for([])
        return type(self)._from_columns(
            labelled(names, cols, "DataFrame.reindex"), self._index, self._axis_names, kind
        )

    def _column_or_missing(self, name: Any, fill_value: Any) -> Any:
        """Column ``name``, or for a label the frame lacks a column of NaN of pandas' NA block type
        (the columns' common NumPy float type, else float64), or of ``fill_value``."""
        if name in self._columns:
            return self._columns[name]
        from ember.backend import xp as current_xp

        if fill_value is pd.NA:
            raise unsupported(
                "DataFrame.reindex", "fill_value=pd.NA for a new column (pandas makes it object)"
            )
        if fill_value is None or (pd.api.types.is_scalar(fill_value) and pd.isna(fill_value)):
            from ember.frame.alignment import na_block_dtype

            dtype = na_block_dtype(self._columns.values())
            return from_scalar(dtype.type(np.nan), len(self), current_xp())
        return from_scalar(fill_value, len(self), current_xp())

    def set_axis(self, labels: Any, *, axis: Any = 0, copy: Any = None) -> Any:
        """The same columns with new row labels (``axis=0``) or new column labels (``axis=1``)."""
        from ember.frame.generic import check_axis

        out = self._with_columns(dict(self._columns))
        if check_axis("DataFrame.set_axis", axis) == 0:
            out.index = labels
        else:
            out.columns = labels
        return out


def _one_block_dtype(frame: Any, new_index: Any, positions: Any, names: list, fill_value: Any) -> Any:
    """The dtype of every column where pandas reindexes rows and columns at once, as one 2-d NumPy
    array (a frame of NumPy numbers or bools of one dtype, both axes changed): the block's dtype,
    promoted for the missing value or ``fill_value`` where a row or column is new. None elsewhere;
    NotImplementedError where that dtype is object (bools with a missing value)."""
    from pandas.core.dtypes.cast import maybe_promote

    cols = list(frame._columns.values())
    if not cols or names == list(frame._names) or frame.index.equals(new_index):
        return None
    if (
        len({str(c.dtype) for c in cols}) == 1
        and isinstance(cols[0].dtype, np.dtype)
        and cols[0].dtype.kind in "mM"
    ):
        raise unsupported("DataFrame.reindex", "rows and columns at once of a frame of one datetime dtype")
    if not all(type(c) is NumericColumn and not c.nullable and c.mask is None for c in cols):
        return None
    dtypes = {c.data.dtype for c in cols}
    if len(dtypes) != 1:
        return None
    dtype = dtypes.pop()
    if (np.asarray(positions) < 0).any() or any(k not in frame._columns for k in names):
        missing = fill_value is None or (pd.api.types.is_scalar(fill_value) and pd.isna(fill_value))
        dtype, _ = maybe_promote(dtype, np.nan if missing else fill_value)
    if dtype == object:
        raise unsupported(
            "DataFrame.reindex", "new rows or columns of a bool frame (pandas makes every column object)"
        )
    return dtype


def _filter_labels(frame: Any, items: Any, like: Any, regex: Any, axis: int) -> Any:
    """filter by labels: pandas' ``Index(items).intersection(labels)`` reindexed, or the labels
    whose text contains ``like`` / matches ``regex`` (row labels are read on the host)."""
    import re

    labels = frame.columns if axis == 1 else frame.index.to_pandas()
    if items is not None:
        chosen = pd.Index(items).intersection(labels)
        if len(chosen) == 0:
            chosen = chosen.astype(labels.dtype)
        return frame.reindex(columns=chosen) if axis == 1 else frame.reindex(index=chosen)
    if like is not None:
        keep = np.asarray(labels.map(lambda x: like in _as_str(x)), dtype=bool)
    else:
        matcher = re.compile(regex)
        keep = np.asarray(labels.map(lambda x: matcher.search(_as_str(x)) is not None), dtype=bool)
    return _keep_along(frame, keep, axis)


def _as_str(label: Any) -> str:
    return label.decode() if isinstance(label, bytes) else str(label)


def _keep_along(frame: Any, keep: Any, axis: int) -> Any:
    """The rows (0) or columns (1) where the boolean array ``keep`` holds."""
    if axis == 1:
        keep = np.asarray(keep, dtype=bool)
        return frame._with_columns({k: frame._columns[k] for k, ok in zip(frame._names, keep) if ok})
    from ember.backend import asarray_on, is_device_array
    from ember.backend import xp as current_xp

    if not is_device_array(keep):
        cols = list(frame._columns.values())
        keep = asarray_on(np.asarray(keep, dtype=bool), cols[0].xp if cols else current_xp())
    return frame._filter_rows(keep)


def _filter_mask(frame: Any, cond: Any, axis: int, na: Any) -> Any:
    """filter by a boolean mask along ``axis``, missing values as ``na`` (pandas 3.1's filter_mask);
    a mask Series must hold this frame's labels in its order (pandas' alignment: refused)."""
    from ember.frame.series import Series

    expression = isinstance(cond, pd.api.typing.Expression)
    if expression and axis != 0:
        raise ValueError(
            "Expressions such as pd.col(...) are only supported by DataFrame.filter with axis=0, "
            "since they evaluate to a mask aligned with the index"
        )
    if callable(cond):
        kind = "expression" if expression else "callable"
        cond = cond._eval_expression(frame) if expression else cond(frame)
        if not _is_mask(cond):
            raise TypeError(
                f"The {kind} passed to DataFrame.filter must evaluate to a one-dimensional boolean mask"
            )
    elif not _is_mask(cond):
        raise TypeError("cond passed to DataFrame.filter must be a one-dimensional boolean mask")
    if isinstance(cond, pd.Series):
        cond = cond.to_numpy(dtype=object) if cond.index.equals(_axis(frame, axis)) else _unaligned()
    if isinstance(cond, Series):
        if axis == 1 or not cond.index.equals(frame.index):
            raise _unaligned()
        col = cond.column
        if col.mask is not None and na == "raise":
            if bool((~col.mask).any()):
                raise ValueError("The mask contains missing values")
        keep = col.data if col.mask is None else (col.data & col.mask) | (~col.mask if na else False)
        return frame._filter_rows(keep)
    values = pd.array(np.asarray(cond, dtype=object) if not hasattr(cond, "dtype") else cond, dtype="boolean")
    if getattr(values, "ndim", 1) != 1:
        raise ValueError("The mask passed to DataFrame.filter must be one-dimensional")
    if values.isna().any():
        if na == "raise":
            raise ValueError("The mask contains missing values")
        values = values.fillna(na)
    keep = values.to_numpy(dtype=bool)
    n = len(frame._names) if axis == 1 else len(frame)
    if len(keep) != n:
        raise IndexError(f"Boolean index has wrong length: {len(keep)} instead of {n}")
    return _keep_along(frame, keep, axis)


def _axis(frame: Any, axis: int) -> Any:
    return frame.columns if axis == 1 else frame.index.to_pandas()


def _unaligned() -> Exception:
    return unsupported("DataFrame.filter", "a mask Series whose labels are not the axis' own, in order")


def _is_mask(key: Any) -> bool:
    """pandas' ``is_mask``: a boolean dtype, or a list / object array of booleans and missing values."""
    if getattr(key, "_ember_kind", "") == "series":
        col = key.column
        return isinstance(col, NumericColumn) and col.is_bool
    if isinstance(key, (pd.DataFrame, pd.MultiIndex)) or getattr(key, "_ember_kind", "") == "frame":
        return False
    if isinstance(key, list):
        values = np.asarray(key, dtype=object)
    else:
        dtype = getattr(key, "dtype", None)
        if dtype is None:
            return False
        if pd.api.types.is_bool_dtype(dtype):
            return True
        if dtype != np.object_:
            return False
        values = np.asarray(key, dtype=object)
    if values.ndim != 1:
        return False
    return all(isinstance(v, (bool, np.bool_)) for v in values if not pd.isna(v))

"""GroupBy for DataFrame and Series: resolves the keys, then delegates every aggregation to
``ops.groupby`` over one shared Grouping (factorized keys + cached segment order). Transforms are in
``groupby_transforms``, group access and apply in ``groupby_apply``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import CategoricalColumn, Column, NumericColumn, StringColumn, from_any, is_numeric_column
from ember.frame._fallback import unsupported
from ember.frame.groupby_apply import GroupByApply
from ember.frame.groupby_blocks import check_block_dtypes
from ember.frame.groupby_more import GroupByMore, counted_pairs
from ember.frame.groupby_transforms import GroupByTransforms
from ember.frame.index import Index, MultiIndex, RangeIndex
from ember.frame.resample_more import GroupByResample


def levels_with_missing(uniques: list, dropna: bool, sort: bool) -> list | None:
    """pandas' levels of a groupby(dropna=False) result with a missing key: the missing value is a
    level value of its own (sorted last, or where it first appears), so the row label holds it
    (``(<NA>, <NA>)``, not the ``(nan, nan)`` of a missing code). None where pandas' levels are the
    ones ``from_arrays`` derives."""
    if dropna:
        return None
    if not any(u.has_nulls_possible and bool(u.isna().any()) for u in uniques):  # a sync a level
        return None
    levels = []
    for u in uniques:
        values = pd.Index(u.to_pandas().unique())
        levels.append(values.sort_values(na_position="last") if sort else values)
    return levels


def _unsupported(method: str, detail: str) -> Exception:
    """GroupBy calls have no pandas fallback (the groupby would need rebuilding in pandas)."""
    return unsupported(method, detail, fallback=False)


AGGREGATIONS = (
    "sum",
    "mean",
    "min",
    "max",
    "count",
    "std",
    "var",
    "sem",
    "skew",
    "median",
    "prod",
    "first",
    "last",
    "nunique",
    "any",
    "all",
    "size",
    "quantile",
    "idxmin",
    "idxmax",
)
#: the reductions pandas runs on object data by its Python path (a Series of the values first)
PYTHON_PATH_OPS = ("min", "max", "mean", "median", "var", "prod")
TRANSFORMS = ("cumsum", "cumprod", "cummin", "cummax", "cumcount", "rank", "shift", "diff", "ffill", "bfill")


def _integer_column_keys(obj: Any, names: list) -> bool:
    """Whether a key is an integer column label (pandas' as_index=False inserts such key columns by
    position, under the wrong labels)."""
    columns = getattr(obj, "_columns", None)
    if columns is None:
        return False
    return any(
        isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)) and k in columns
        for k in names
    )


class _GroupBy(GroupByTransforms, GroupByApply, GroupByMore, GroupByResample):
    def __new__(
        cls, obj: Any = None, by: Any = None, level: Any = None, as_index: Any = True, **kw: Any
    ) -> Any:
        from ember.frame.resample_grouper import freq_groupby

        grouped = freq_groupby(obj, by, level, as_index)  # a lone freq Grouper: resample's bins
        return grouped if grouped is not None else super().__new__(cls)

    def __init__(
        self,
        obj: Any,
        by: Any,
        level: Any = None,
        as_index: bool = True,
        sort: bool = True,
        dropna: bool = True,
        _keys: Any = None,
        _selection: Any = None,
        observed: bool = True,
    ) -> None:
        if _keys is None:
            from ember.frame.groupby_keys import resolve_groupers

            obj, by, level, sort, dropna = resolve_groupers(obj, by, level, sort, dropna)
        self.obj = obj
        self.as_index = as_index
        self.sort = sort
        self.dropna = dropna
        if _keys is not None:
            self._keys, self._key_names, self._key_labels = _keys
        else:
            from ember.frame.groupby_keys import resolve_keys

            self._keys, self._key_names, self._key_labels = resolve_keys(obj, by, level)
        if not as_index and _integer_column_keys(obj, self._key_names):
            raise _unsupported(
                "groupby",
                "as_index=False with integer column labels as keys (pandas mislabels the key columns)",
            )
        self._grouping_cache: Any = None
        if not observed and any(isinstance(k, CategoricalColumn) for k in self._keys):
            if not (sort and dropna):
                raise _unsupported(
                    "groupby",
                    "observed=False with sort=False or dropna=False (sorted groups without missing keys "
                    "are supported)",
                )
            from ember.ops.grouping import categorical_grouping

            self._grouping_cache = categorical_grouping(self._keys)
        self._selection = _selection
        self._one_key_list = isinstance(by, list) and len(by) == 1

    # --- the grouping -------------------------------------------------------------------------
    @property
    def _grouping(self) -> Any:
        if self._grouping_cache is None:
            from ember.ops.grouping import make_grouping

            self._grouping_cache = make_grouping(self._keys, sort=self.sort, dropna=self.dropna)
        return self._grouping_cache

    @property
    def ngroups(self) -> int:
        return int(self._grouping.ngroups)

    def _result_index(self) -> Index:
        uniques = self._level_columns()
        if len(uniques) == 1:
            return Index._from_column(uniques[0], self._key_names[0])
        return MultiIndex(
            list(uniques), self._key_names, levels_with_missing(uniques, self.dropna, self.sort)
        )

    def _level_columns(self) -> list[Column]:
        """The groups' key values, a column per key."""
        uniques = self._grouping.uniques
        if self._grouping.ngroups == 0:
            return [_empty_level(u, k) for u, k in zip(uniques, self._keys)]
        return uniques

    def _value_items(self) -> list[tuple[Any, Column]]:
        raise NotImplementedError  # pragma: no cover - abstract

    # --- aggregation --------------------------------------------------------------------------
    def _aggregate(self, op: str, numeric_only: bool = False, **kw: Any) -> Any:
        from ember.ops.groupby import aggregate

        g = self._grouping
        items = self._value_items()
        if numeric_only and not (isinstance(self, SeriesGroupBy) and op in ("cummax", "cummin")):
            # (pandas' SeriesGroupBy.cummax / cummin take numeric_only and ignore it)
            items = [(k, c) for k, c in items if is_numeric_column(c)]
            if not items and isinstance(self, SeriesGroupBy):
                raise TypeError(
                    f"Cannot use numeric_only=True with SeriesGroupBy.{op} and non-numeric dtypes."
                )
        if op in ("idxmin", "idxmax") and items:
            self._check_unobserved(op)  # pandas' first check, before the values' own
        cols = {}
        for k, c in items:
            if op in ("sum", "cumsum") and isinstance(c, StringColumn):
                # pandas concatenates strings here: refused, not mislabelled as a type error
                raise _unsupported(
                    f"GroupBy.{op}",
                    f"the string column {k!r} (pandas concatenates its values)",
                )
            _check_object_strings(self, op, k, c, g)
            try:
                cols[k] = aggregate(g, c, op, **kw)
            except TypeError as exc:
                raise TypeError(
                    f"agg function failed [how->{op},dtype->{c.dtype}] on column {k!r}: {exc}"
                ) from None
        if op in PYTHON_PATH_OPS and isinstance(self, SeriesGroupBy):
            from ember.ops.object_missing import series_group_inferred

            sources = dict(items)
            cols = {k: _inferred_str(c, sources[k]) for k, c in cols.items()}
            cols = {k: series_group_inferred(c, sources[k], op) for k, c in cols.items()}  # NaT objects
        if op in ("idxmin", "idxmax"):
            cols = self._labels_at(op, cols, dict(items), kw.get("skipna", True))
        if isinstance(self, DataFrameGroupBy):
            check_block_dtypes(op, items, cols)
        return self._wrap_agg(cols)

    def _check_unobserved(self, op: str) -> None:
        """pandas' ValueError for idxmin / idxmax of values with a group without rows (an unobserved
        category). One sync."""
        g = self._grouping
        if g.may_have_empty and bool((g.sizes[: g.ngroups] == 0).any()):
            raise ValueError(
                f"Can't get {op} of an empty group due to unobserved categories. Specify "
                "observed=True in groupby instead."
            )

    def _labels_at(self, op: str, positions: dict, sources: dict, skipna: bool) -> dict:
        """idxmin / idxmax: the row labels at each group's position (pandas' ValueError for a group
        without a value)."""
        _check_arg_extremes(op, positions, sources, skipna)
        labels = self._row_labels()  # pandas builds the labels anew: object strings infer 'str'
        return {k: _inferred_str(labels.take(c.data)) for k, c in positions.items()}

    def _row_labels(self) -> Column:
        index = self.obj.index
        if isinstance(index, MultiIndex):
            raise _unsupported("GroupBy.idxmin/idxmax", "a MultiIndex on the grouped frame")
        return index.column

    def _wrap_agg(self, cols: dict) -> Any:
        raise NotImplementedError  # pragma: no cover - abstract

    def size(self) -> Any:
        from ember.frame.series import Series
        from ember.ops.groupby import aggregate

        # pandas: a frame's group sizes are int64; a Series' are Int64 when the Series is nullable
        like = self._keys[0] if isinstance(self, DataFrameGroupBy) else self.obj.column
        counts = aggregate(self._grouping, like, "size")
        if isinstance(self, DataFrameGroupBy):
            counts = NumericColumn(counts.data)
        if self.as_index:
            return Series._from_column(
                counts, self._result_index(), None if isinstance(self, DataFrameGroupBy) else self.obj.name
            )
        if "size" in self._key_names:  # pandas inserts the sizes after the keys
            raise ValueError("cannot insert size, already exists")
        return self._keys_frame({"size": counts}, axis_names=False)

    def _keys_frame(self, cols: dict, pad: bool = False, axis_names: bool = True) -> Any:
        """``as_index=False``: every key as a column before ``cols``, as pandas' ``reset_index``
        (an unnamed key is ``index``, or ``level_i`` among several; one whose name ``cols`` already
        holds is left out); ``axis_names``: the frame's column axis keeps its names."""
        from ember.frame.dataframe import DataFrame

        keys: dict = {}
        for i, (n, u) in enumerate(zip(self._key_names, self._level_columns())):
            if n is None:
                n = "index" if len(self._key_names) == 1 else f"level_{i}"
            label = (n, "") if pad else n
            if label not in cols and label not in keys:
                keys[label] = u
        names = getattr(self.obj, "_axis_names", None) if axis_names else None
        if pad and names is not None:
            names = (*names, None)
        kind = None
        if isinstance(self.obj, DataFrame) and axis_names:
            kind = _inserted_keys_kind(self.obj, list(cols), list(keys), pad)
        keys.update(cols)
        return DataFrame._from_columns(keys, RangeIndex(self.ngroups), names, kind)

    def quantile(self, q: Any = 0.5, numeric_only: bool = False) -> Any:
        """Linear-interpolated quantiles per group; a list of ``q`` adds an innermost index level of
        the quantiles (each group's rows together), as pandas."""
        if np.isscalar(q):
            return self._aggregate("quantile", numeric_only=numeric_only, q=float(q))
        if not self.as_index:
            raise _unsupported("GroupBy.quantile", "a list of quantiles with as_index=False")
        qs = [float(v) for v in q]
        parts = [self._aggregate("quantile", numeric_only=numeric_only, q=v) for v in qs]
        return _interleave_quantiles(parts, qs, self._grouping.uniques, self._key_names)

    def head(self, n: int = 5) -> Any:
        from ember.ops.grouping import head_tail_positions

        return self._selected_obj()._take_rows(head_tail_positions(self._grouping, n, tail=False))

    def tail(self, n: int = 5) -> Any:
        from ember.ops.grouping import head_tail_positions

        return self._selected_obj()._take_rows(head_tail_positions(self._grouping, n, tail=True))

    def _selected_obj(self) -> Any:
        return self.obj

    def agg(self, func: Any = None, *args: Any, **named: Any) -> Any:
        """Aggregate with a name, a list of names, a dict {column: names} or named aggregation
        (``out=("col", "func")``), producing pandas' column layout."""
        if func is None:
            return self._named_agg(named)
        if callable(func) and not isinstance(func, str) and not _is_named_agg(func):
            return self._agg_udf(func, args, named)
        if isinstance(func, str) or callable(func):  # pandas hands the other arguments to the method
            return self._call_named(_fname(func), *args, **named)
        if named or args:
            raise _unsupported("GroupBy.agg", "arguments beside a list or dict of aggregations")
        return self._agg_spec(func)

    aggregate = agg

    def _agg_udf(self, func: Any, args: tuple, kwargs: dict) -> Any:
        """``func`` on each column of each group (a loop over groups), as pandas' _python_agg_general."""
        from ember.frame.groupby_udf import aggregate_udf
        from ember.frame.series import Series

        if isinstance(self, DataFrameGroupBy) and (args or kwargs) and len(self._key_names) == 1:
            raise _unsupported("GroupBy.agg", "a function with arguments (pandas passes it whole groups)")
        cols = {
            k: aggregate_udf(self._grouping, Series._from_column(c, self.obj.index, k), func, args, kwargs)
            for k, c in self._value_items()
        }
        return self._wrap_agg(cols)

    def _call_named(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if name not in AGGREGATIONS:
            if hasattr(getattr(pd.core.groupby, type(self).__name__), name):
                raise _unsupported("GroupBy.agg", f"{name!r} (the aggregations {', '.join(AGGREGATIONS)})")
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return getattr(self, name)(*args, **kwargs)

    def _column_agg(self, column: Any, func: str) -> Column:
        """One aggregation of one column over this grouping, as a Column (one value per group)."""
        if isinstance(self, SeriesGroupBy):
            sub = self
        else:
            if column not in self.obj._columns:
                raise KeyError(f"Column(s) ['{column}'] do not exist")
            sub = SeriesGroupBy(
                self.obj[column],
                None,
                sort=self.sort,
                dropna=self.dropna,
                _keys=(self._keys, self._key_names, self._key_labels),
            )
            sub._grouping_cache = self._grouping  # factorize the keys once for every aggregation
        saved, sub.as_index = sub.as_index, True
        try:
            return sub._call_named(func).column
        finally:
            sub.as_index = saved

    def _named_agg(self, named: dict) -> Any:
        from ember.frame.dataframe import DataFrame

        def pair(v: Any) -> bool:  # a (column, function) tuple or a pd.NamedAgg (a dataclass in 3.1)
            return (isinstance(v, tuple) and len(v) == 2) or hasattr(v, "aggfunc")

        if not named or not all(pair(v) for v in named.values()):
            raise TypeError("Must provide 'func' or tuples of '(column, aggfunc).")
        cols = {}
        for out_name, spec in named.items():
            if getattr(spec, "args", ()) or getattr(spec, "kwargs", {}):
                raise _unsupported("GroupBy.agg", "NamedAgg with arguments for its function")
            column, func = (spec.column, spec.aggfunc) if hasattr(spec, "aggfunc") else spec
            cols[out_name] = self._column_agg(column, _fname(func))
        if not self.as_index:
            return self._keys_frame(cols, axis_names=False)
        return DataFrame._from_columns(cols, self._result_index())

    # --- windows (transforms: groupby_transforms; group access and apply: groupby_apply) -------
    def rolling(
        self,
        window: Any,
        min_periods: int | None = None,
        center: bool = False,
        on: Any = None,
        closed: Any = None,
    ) -> Any:
        from ember.frame.window import rolling

        return rolling(self, window, min_periods=min_periods, center=center, on=on, closed=closed)

    def expanding(self, min_periods: int = 1) -> Any:
        from ember.frame.window import expanding

        return expanding(self, min_periods=min_periods)


def _inserted_keys_kind(obj: Any, values: list, keys: list, pad: bool) -> Any:
    """The column axis' kind of an ``as_index=False`` result, as pandas builds it: the values' axis
    (taken from ``obj``'s), then each key inserted at the front (``Index.insert``: an empty object
    axis given string labels infers ``str``)."""
    from ember.frame.frame_labels import axis_kind
    from ember.frame.frame_reductions import labels_index

    if pad or any(isinstance(k, tuple) for k in values + keys):
        return obj._kind_for(keys + values)
    axis = labels_index(values, obj._kind_for(values))
    for label in reversed(keys):
        axis = axis.insert(0, label)
    return axis_kind(axis)


def _check_arg_extremes(op: str, positions: dict, values: dict, skipna: bool) -> None:
    """pandas 3's ValueError for a group with no valid value (skipna=True) or for any missing value
    (skipna=False): one synchronization per column."""
    for k, pos in positions.items():
        if skipna and pos.mask is not None and not bool(pos.mask.all()):
            raise ValueError(f"{op} with skipna=True encountered all NA values in a group.")
        if not skipna and bool(values[k].isna().any()):
            raise ValueError(f"{op} with skipna=False encountered an NA value.")


def _empty_level(unique: Column, key: Column) -> Column:
    """A level of a result without groups: pandas builds each key's level from that key's own
    values, so an object key of True / False (and missing values) holding one gives a bool level
    even when another key's missing values drop every row. One sync."""
    from ember.ops.groupby import object_bools

    if object_bools(key) and bool(key.mask.any()):
        return NumericColumn(key.data[:0])
    return unique


def _check_object_strings(gb: _GroupBy, op: str, label: Any, col: Column, g: Any) -> None:
    """pandas' Python fallback for object strings: a Series' values become 'str' first (mean /
    median / var / prod of one holding a string raise); a frame's prod gives a group's one string
    (1 for none), refused."""
    from ember.ops.group_objects import holds_string, is_object_strings

    if op not in ("mean", "median", "var", "prod") or not is_object_strings(col) or not g.ngroups:
        return
    if isinstance(gb, DataFrameGroupBy):
        if op == "prod":
            raise _unsupported(
                "GroupBy.prod", f"the object column {label!r} (pandas gives a group's one string, 1 for none)"
            )
    elif holds_string(col):
        raise TypeError(f"agg function failed [how->{op},dtype->str]")


def _inferred_str(col: Column, source: Column | None = None) -> Column:
    """pandas 3 infers ``str`` where it builds a Series anew from object strings: its Python path of
    a SeriesGroupBy's min / max / mean / median / var / prod makes a Series of the whole ``source``
    column first (``str`` when the source holds a string, whatever the groups hold), and its
    transforms of the other reductions make one of the rows' values (``col`` holding a string).
    One sync."""
    from ember.ops.grouping import inferred_strings, strings_if_held

    if source is None:
        return strings_if_held(col)
    return inferred_strings(col) if strings_if_held(source) is not source else col


def _make_agg(op: str) -> Any:
    def method(self: _GroupBy, *args: Any, **kwargs: Any) -> Any:
        numeric_only = kwargs.pop("numeric_only", False)
        if op in ("std", "var", "sem") and args:
            kwargs["ddof"] = args[0]
        return self._aggregate(op, numeric_only=numeric_only, **kwargs)

    method.__name__ = op
    return method


for _op in AGGREGATIONS:
    if _op not in ("size", "quantile"):
        setattr(_GroupBy, _op, _make_agg(_op))


class DataFrameGroupBy(_GroupBy):
    def _value_items(self) -> list[tuple[Any, Column]]:
        names = (
            self._selection
            if self._selection is not None
            else [k for k in self.obj._names if k not in self._key_labels_set()]
        )
        return [(k, self.obj._columns[k]) for k in names]

    def _key_labels_set(self) -> set:
        return {n for n, lab in zip(self._key_names, self._key_labels) if lab}

    def _selected_obj(self) -> Any:
        return self.obj if self._selection is None else self.obj[list(self._selection)]

    def __getitem__(self, key: Any) -> Any:
        keys = (self._keys, self._key_names, self._key_labels)
        if isinstance(key, (pd.Index, np.ndarray)):
            key = list(key)
        if isinstance(key, (list, tuple)):
            missing = [k for k in key if k not in self.obj._columns]
            if missing:
                raise KeyError(f"Columns not found: {missing}")
            gb = DataFrameGroupBy(
                self.obj,
                None,
                as_index=self.as_index,
                sort=self.sort,
                dropna=self.dropna,
                _keys=keys,
                _selection=list(key),
            )
        else:
            if key not in self.obj._columns:
                raise KeyError(f"Column not found: {key}")
            gb = SeriesGroupBy(
                self.obj[key], None, sort=self.sort, dropna=self.dropna, _keys=keys, as_index=self.as_index
            )
        gb._grouping_cache = self._grouping  # shared: the keys are factorized once
        gb._one_key_list = self._one_key_list
        gb._parent = self
        gb.group_keys = self.group_keys
        return gb

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self.obj._columns:
            return self[name]
        raise AttributeError(f"'DataFrameGroupBy' object has no attribute '{name}'")

    def _wrap_agg(self, cols: dict) -> Any:
        if not self.as_index:
            return self._keys_frame(cols)
        return self.obj._with_rows(cols, self._result_index())  # the column axis' names and type

    def _wrap_transform(self, cols: dict) -> Any:
        return self.obj._with_rows(cols, self.obj.index)

    def _agg_spec(self, spec: Any) -> Any:
        from ember.frame.dataframe import DataFrame

        if isinstance(spec, dict):
            # pandas: as soon as one entry is a list, every column is labelled (column, func)
            multi = any(isinstance(f, (list, tuple)) for f in spec.values())
            parts = {}
            for col, funcs in spec.items():
                names = [_fname(f) for f in funcs] if isinstance(funcs, (list, tuple)) else []
                if len(set(names)) != len(names):
                    raise _unsupported("GroupBy.agg", f"repeated aggregations {names} of {col!r}")
                for f in funcs if isinstance(funcs, (list, tuple)) else [funcs]:
                    parts[(col, _fname(f)) if multi else col] = self._column_agg(col, _fname(f))
            if not self.as_index:  # keys first; with (column, func) labels pandas pads the key as (key, '')
                return self._keys_frame(parts, pad=multi)
            return DataFrame._from_columns(parts, self._result_index())
        if isinstance(spec, (list, tuple)):
            if len({_fname(f) for f in spec}) != len(spec):
                raise pd.errors.SpecificationError(
                    "Function names must be unique if there is no new column names assigned"
                )
            parts = {}
            for col, _ in self._value_items():
                for f in spec:
                    parts[(col, _fname(f))] = self._column_agg(col, _fname(f))
            if not self.as_index:
                return self._keys_frame(parts, pad=True)
            return DataFrame._from_columns(parts, self._result_index())  # tuple labels: MultiIndex in pandas
        raise TypeError(f"agg expects a str, list, dict or callable, got {type(spec).__name__}")

    def describe(self) -> Any:
        """count, mean, std, min, quartiles and max of each numeric column per group, as pandas: a
        frame with (column, statistic) labels, float64 (a masked column's Float64)."""
        from ember.frame.dataframe import DataFrame

        out = {}
        for name, col in self._value_items():
            if name in self._key_labels or type(col) is not NumericColumn or col.data.dtype.kind == "b":
                continue
            for stat, figure in _describe_figures(self._grouping, col).items():
                out[(name, stat)] = figure
        if not out:
            raise _unsupported("DataFrameGroupBy.describe", "a frame with no numeric column to describe")
        if not self.as_index:
            return self._keys_frame(out, pad=True)
        return DataFrame._from_columns(out, self._result_index())


def _interleave_quantiles(parts: list, qs: list[float], uniques: list[Column], key_names: list) -> Any:
    """Per-quantile results (one row per group each) as one, row (group i, quantile j) at i * nq + j."""
    from ember.column import concat_columns
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    ng, nq = len(parts[0]), len(qs)
    xp = uniques[0].xp
    perm = xp.asarray((np.arange(ng)[:, None] + ng * np.arange(nq)[None, :]).ravel())
    group_rows = xp.asarray(np.repeat(np.arange(ng), nq))
    levels = [u.take(group_rows) for u in uniques] + [from_any(np.tile(np.asarray(qs), ng), xp)]
    index = MultiIndex(levels, list(key_names) + [None])
    if isinstance(parts[0], Series):
        col = concat_columns([p.column for p in parts]).take(perm)
        return Series._from_column(col, index, parts[0].name)
    cols = {k: concat_columns([p._columns[k] for p in parts]).take(perm) for k in parts[0]._names}
    return DataFrame._from_columns(cols, index)


def _describe_figures(g: Any, col: Column) -> dict[str, Column]:
    """A numeric column's describe() figures per group, as float64 (Float64 when masked)."""
    from ember.ops.groupby import aggregate
    from ember.ops.unary import astype

    as_float = "Float64" if col.nullable else np.float64
    ops = [("count", "count", {}), ("mean", "mean", {}), ("std", "std", {}), ("min", "min", {})]
    ops += [(f"{int(q * 100)}%", "quantile", {"q": q}) for q in (0.25, 0.5, 0.75)] + [("max", "max", {})]
    return {stat: astype(aggregate(g, col, op, **kw), as_float) for stat, op, kw in ops}


class SeriesGroupBy(_GroupBy):
    def __init__(
        self,
        series: Any,
        by: Any,
        level: Any = None,
        sort: bool = True,
        dropna: bool = True,
        _keys: Any = None,
        as_index: bool = True,
        observed: bool = True,
    ) -> None:
        super().__init__(
            series,
            by,
            level=level,
            as_index=as_index,
            sort=sort,
            dropna=dropna,
            _keys=_keys,
            observed=observed,
        )

    def _value_items(self) -> list[tuple[Any, Column]]:
        return [(self.obj.name, self.obj.column)]

    def _wrap_agg(self, cols: dict) -> Any:
        from ember.frame.series import Series

        col = next(iter(cols.values()))
        if not self.as_index:
            return self._keys_frame({self.obj.name: col})
        return Series._from_column(col, self._result_index(), self.obj.name)

    def _wrap_transform(self, cols: dict) -> Any:
        from ember.frame.series import Series

        return Series._from_column(next(iter(cols.values())), self.obj.index, self.obj.name)

    def _agg_spec(self, spec: Any) -> Any:
        if isinstance(spec, (list, tuple)):  # names, functions, or (output name, function) pairs
            pairs = [f if isinstance(f, tuple) and len(f) == 2 else (_fname(f), f) for f in spec]
            return self._agg_columns(pairs)
        if isinstance(spec, dict):
            raise pd.errors.SpecificationError("nested renamer is not supported")
        raise TypeError(f"SeriesGroupBy.agg expects a str or a list, got {type(spec).__name__}")

    def _named_agg(self, named: dict) -> Any:
        """``agg(total="sum", top="max")``: one column per keyword, as pandas' named aggregation of a
        SeriesGroupBy (functions or names; a (column, function) tuple is a DataFrameGroupBy's)."""
        if not named:
            raise TypeError("Must provide 'func' or named aggregation **kwargs.")
        for f in named.values():
            if not (isinstance(f, str) or callable(f)):
                raise TypeError(f"func is expected but received {type(f).__name__} in **kwargs.")
        return self._agg_columns(list(named.items()))

    def _agg_columns(self, pairs: list) -> Any:
        """One column per (output label, aggregation), on the groups' index (the keys' columns first
        with ``as_index=False``)."""
        from ember.frame.dataframe import DataFrame

        labels = [label for label, _ in pairs]
        if len(set(labels)) != len(labels):
            raise _unsupported("SeriesGroupBy.agg", f"repeated output labels {labels} (duplicate columns)")
        cols = {label: self._column_agg(self.obj.name, _fname(f)) for label, f in pairs}
        if not self.as_index:
            taken = [n for n, lab in zip(self._key_names, self._key_labels) if lab and n in cols]
            if taken:
                raise ValueError(f"cannot insert {taken[0]}, already exists")
            return self._keys_frame(cols)
        return DataFrame._from_columns(cols, self._result_index())

    def describe(self) -> Any:
        """count, mean, std, min, quartiles and max per group, as pandas (a frame, one row per group)."""
        from ember.frame.dataframe import DataFrame

        col = self.obj.column
        if type(col) is not NumericColumn or col.data.dtype.kind == "b":
            raise _unsupported("SeriesGroupBy.describe", "a column that is not numeric")
        return DataFrame._from_columns(_describe_figures(self._grouping, col), self._result_index())

    def value_counts(
        self,
        normalize: bool = False,
        sort: bool = True,
        ascending: bool = False,
        bins: Any = None,
        dropna: bool = True,
    ) -> Any:
        """Counts of each value within each group, as pandas: a Series named ``count`` (``proportion``
        when ``normalize``) on a (keys..., value) MultiIndex. With ``sort`` the pairs are ordered by
        count (descending unless ``ascending``) within each group (across groups with
        ``groupby(sort=False)``); ties, and ``sort=False``, keep the pairs' first appearance."""
        from ember.frame.series import Series

        if bins is not None:
            raise _unsupported("SeriesGroupBy.value_counts", "bins= (bin the values with cut first)")
        counts, uniques = counted_pairs(self, [self.obj.column], normalize, sort, ascending, dropna)
        label = "proportion" if normalize else "count"
        if not self.as_index:  # pandas: a frame of the keys, the values and the figures
            from ember.frame.groupby_more import counts_frame

            return counts_frame(self, uniques, [self.obj.name], counts, label)
        index = MultiIndex(uniques, list(self._key_names) + [self.obj.name])
        return Series._from_column(counts, index, label)


def _is_named_agg(f: Any) -> bool:
    """A function standing for one of the aggregations (np.sum, np.mean ...): run as its name."""
    return getattr(f, "__name__", None) in AGGREGATIONS


def _fname(f: Any) -> str:
    """An aggregation's name: a string, or a function named as one of the aggregations (np.sum)."""
    if isinstance(f, str):
        return f
    name = getattr(f, "__name__", None)
    if callable(f) and name in AGGREGATIONS:
        return name
    raise _unsupported("GroupBy.agg", f"the function {f!r}; pass aggregation names")

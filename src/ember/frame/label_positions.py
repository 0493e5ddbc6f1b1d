"""Row positions of labels (loc with a list of labels, drop): a join of the labels with the index on
the device, with pandas' rules for missing labels (None / NaN / NA / NaT) and for casting labels to a
datetime / timedelta index; RangeIndex and MultiIndex through pandas' indexer on the host."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on, is_device_array, to_host
from ember.column import Column, DatetimeColumn, TimedeltaColumn, from_any


def obj_xp(obj: Any) -> Any:
    cols = [obj.column] if hasattr(obj, "_column") else list(obj._columns.values())
    from ember.backend import xp

    return cols[0].xp if cols else xp()


def _labels_for(index: Any, labels: list, xp: Any) -> list | Column:
    """The labels to look up in ``index``: a datetime / timedelta index casts them as pandas'
    ``_maybe_cast_listlike_indexer`` does (date strings, Timestamps into its zone) where the whole
    list casts; a list (to build a column of) otherwise."""
    if labels and isinstance(index.column, (DatetimeColumn, TimedeltaColumn)):
        from pandas.core.common import asarray_tuplesafe

        cast = pd.Index([], dtype=index.dtype)._maybe_cast_listlike_indexer(asarray_tuplesafe(labels))
        if cast.dtype.kind in "mM":
            return from_any(cast, xp)
    return labels


def _is_missing_label(label: Any) -> bool:
    if label is None or label is pd.NA or label is pd.NaT:
        return True
    if isinstance(label, (float, np.floating)):
        return label != label
    return isinstance(label, (np.datetime64, np.timedelta64)) and bool(np.isnat(label))


def _wanted_labels(index: Any, labels: list, xp: Any) -> tuple[Column, Any]:
    """The labels as a column to join with the index (missing labels as nulls, which meet the index's
    missing rows), and which labels pandas does not find although missing: pandas finds a missing
    label only where it is the index's own kind of missing value (None, NaN, pd.NA or NaT, after its
    inference of the list), which a small pandas index holding the index's missing value decides."""
    if not labels:  # nothing to find, whatever the index's dtype
        return index.column.slice(0, 0), None
    missing = np.asarray([_is_missing_label(k) for k in labels], dtype=bool)
    cast = _labels_for(index, labels, xp)
    if not missing.any():
        return cast if isinstance(cast, Column) else from_any(labels, xp), None
    present = np.flatnonzero(~missing)
    if not len(present):
        base = index.column.slice(0, 0)
    elif isinstance(cast, Column):
        base = cast.take(xp.asarray(present))
    else:
        base = from_any([labels[i] for i in present], xp)
    rows = np.full(len(labels), -1, dtype=np.int64)
    rows[present] = np.arange(len(present))
    wanted = base.take_nullable(xp.asarray(rows))
    return wanted, missing & ~_missing_labels_found(index, labels, xp)


def _missing_labels_found(index: Any, labels: list, xp: Any) -> np.ndarray:
    """Which labels pandas' lookup matches with the index's missing rows, asked of a pandas index of
    one missing and one valid row of ``index`` (pandas' matching of None / NaN / NA / NaT depends on
    the index's dtype, its missing value and the list's inferred dtype). One sync."""
    from pandas.core.common import asarray_tuplesafe

    if not len(index):
        return np.zeros(len(labels), dtype=bool)
    na = index.column.isna()
    first_na, first_valid, any_na, any_valid = (
        int(v) for v in to_host(xp.stack([xp.argmax(na), xp.argmax(~na), na.any(), (~na).any()]))
    )
    if not any_na:
        return np.zeros(len(labels), dtype=bool)
    rows = [first_na, first_valid] if any_valid else [first_na]
    probe = pd.Index(index.column.take(xp.asarray(rows)).to_pandas())
    return probe.get_indexer(asarray_tuplesafe(labels)) == 0


def row_positions(obj: Any, labels: Any, missing: str = "raise", message: str = "not in index") -> Any:
    """Positions of the rows labelled ``labels``, in label order (every row of a repeated label, in
    index order, as pandas' loc); KeyError naming the labels not found.

    A left join of the labels with the index on the device: the index is not copied to the host."""
    from ember.frame.index import MultiIndex, RangeIndex
    from ember.ops.join import join_indices

    xp = obj_xp(obj)
    if isinstance(obj.index, (MultiIndex, RangeIndex)):
        return _host_row_positions(obj, labels, missing, message)
    foreign = None
    if isinstance(labels, Column):
        wanted = labels
    else:
        labels = list(to_host(labels)) if is_device_array(labels) else list(labels)
        wanted, foreign = _wanted_labels(obj.index, labels, xp)
    try:
        label_rows, index_rows = join_indices([wanted], [obj.index.column], how="left")
    except (ValueError, TypeError):  # labels of another type than the index: none can be found
        if missing == "ignore":
            return xp.zeros(0, dtype=np.int64)
        raise KeyError(f"{wanted.to_pandas().tolist()} {message}") from None
    absent = index_rows < 0
    if foreign is not None and foreign.any():  # missing labels pandas does not find
        absent |= xp.asarray(foreign)[label_rows]
    if bool(absent.any()):
        if missing == "ignore":
            return index_rows[~absent]
        raise KeyError(f"{wanted.take(label_rows[absent]).to_pandas().tolist()} {message}")
    return index_rows


def _host_row_positions(obj: Any, labels: Any, missing: str = "raise", message: str = "not in index") -> Any:
    """RangeIndex (labels are arithmetic) and MultiIndex (tuples) lookups through pandas' indexer."""
    if isinstance(labels, Column):
        labels = labels.to_pandas()
    labels = list(to_host(labels)) if is_device_array(labels) else list(labels)
    pos = obj.index.get_indexer(labels)
    if (pos < 0).any():
        if missing != "ignore":
            raise KeyError(f"{[lab for lab, p in zip(labels, pos) if p < 0]} {message}")
        pos = pos[pos >= 0]
    return asarray_on(pos.astype(np.int64), obj_xp(obj))


def drop_positions(obj: Any, labels: Any, errors: str = "raise") -> Any:
    """Rows whose label is in ``labels`` (every row of a repeated label), for ``drop(index=...)``."""
    return row_positions(
        obj, labels, missing="ignore" if errors == "ignore" else "raise", message="not found in axis"
    )

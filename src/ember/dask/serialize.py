"""Serializers for ember DataFrame/Series/Index in distributed's ``dask`` and ``cuda`` families.

- ``cuda`` (UCX and other device-aware comms): each column is taken apart into its arrays (values,
  validity mask, string offsets + bytes, categorical codes + categories) and the arrays travel as
  byte frames where they live: device arrays stay on the device, nothing is pickled.
- ``dask`` (TCP, and the disk tier of spilling): one Arrow IPC stream per object, a host buffer any
  Arrow reader can open. Deserializing places the columns on the worker's current device.

Either one is chosen by distributed; objects it cannot encode (object columns) fall back to pickle.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pyarrow as pa
from distributed.protocol import dask_deserialize, dask_serialize
from distributed.protocol.cuda import cuda_deserialize, cuda_serialize

import ember
from ember.backend import array_module, asarray_on
from ember.column import Column
from ember.column.categorical import CategoricalColumn
from ember.column.numeric import NumericColumn
from ember.column.string import StringColumn
from ember.column.temporal import DatetimeColumn, TimedeltaColumn
from ember.frame import DataFrame, Index, MultiIndex, RangeIndex, Series

_SERIES_COLUMN = "__ember_series__"


# --- columns as (header, arrays) -------------------------------------------------------------
def flatten_column(col: Column) -> tuple[dict, list]:
    """A picklable description of ``col`` and the arrays that hold its data, in order."""
    if isinstance(col, CategoricalColumn):
        sub, arrays = flatten_column(col.categories)
        return {"kind": "cat", "ordered": col.ordered, "categories": sub}, [col.data, *arrays]
    mask = [] if col.mask is None else [col.mask]
    if isinstance(col, StringColumn):
        head = {"kind": "str", "pd_dtype": pickle.dumps(col.pd_dtype)}
        return {**head, "mask": bool(mask)}, [col.data, col.chars, *mask]
    if isinstance(col, NumericColumn):
        return {"kind": "num", "nullable": col.nullable, "mask": bool(mask)}, [col.data, *mask]
    if isinstance(col, DatetimeColumn):
        return {"kind": "dt", "unit": col.unit, "tz": pickle.dumps(col.tz), "mask": bool(mask)}, [
            col.data,
            *mask,
        ]
    if isinstance(col, TimedeltaColumn):
        return {"kind": "td", "unit": col.unit, "mask": bool(mask)}, [col.data, *mask]
    raise TypeError(f"ember.dask.serialize: no flattening for {type(col).__name__}")


def build_column(head: dict, arrays: list) -> tuple[Column, list]:
    """Inverse of ``flatten_column``: the column and the arrays it did not consume."""
    kind = head["kind"]
    if kind == "cat":
        codes, rest = arrays[0], arrays[1:]
        cats, rest = build_column(head["categories"], rest)
        return CategoricalColumn(codes, cats, head["ordered"]), rest
    n = {"str": 2}.get(kind, 1) + int(head["mask"])
    mine, rest = arrays[:n], arrays[n:]
    mask = mine[-1] if head["mask"] else None
    if kind == "str":
        return StringColumn(mine[0], mine[1], mask, pickle.loads(head["pd_dtype"])), rest
    if kind == "num":
        return NumericColumn(mine[0], mask, head["nullable"]), rest
    if kind == "dt":
        return DatetimeColumn(mine[0], head["unit"], pickle.loads(head["tz"]), mask), rest
    return TimedeltaColumn(mine[0], head["unit"], mask), rest


def _index_parts(idx: Index) -> tuple[dict, list[Column]]:
    if isinstance(idx, RangeIndex):
        r = idx.to_pandas()
        return {"kind": "range", "args": [r.start, r.stop, r.step], "name": pickle.dumps(r.name)}, []
    if isinstance(idx, MultiIndex):
        return {"kind": "multi", "names": pickle.dumps(idx.names)}, list(idx.levels_columns)
    return {"kind": "plain", "name": pickle.dumps(idx.name)}, [idx.column]


def _build_index(head: dict, cols: list[Column]) -> Index:
    if head["kind"] == "range":
        return RangeIndex(*head["args"], name=pickle.loads(head["name"]))
    if head["kind"] == "multi":
        return MultiIndex(cols, pickle.loads(head["names"]))
    return Index._from_column(cols[0], pickle.loads(head["name"]))


def flatten(obj: Any) -> tuple[dict, list]:
    """Any ember DataFrame / Series / Index as (header, arrays)."""
    if isinstance(obj, Index):
        kind, labels, cols, index = "index", [], [], obj
    elif isinstance(obj, Series):
        kind, labels, cols, index = "series", [obj.name], [obj.column], obj.index
    else:
        kind, labels, cols, index = "frame", list(obj._names), list(obj._columns.values()), obj.index
    index_head, index_cols = _index_parts(index)
    heads, arrays = [], []
    for col in cols + index_cols:
        h, a = flatten_column(col)
        heads.append(h)
        arrays.extend(a)
    header = {
        "type": kind,
        "labels": pickle.dumps(labels),
        "columns": heads,
        "ncols": len(cols),
        "index": index_head,
        "axis_names": pickle.dumps(obj._axis_names if kind == "frame" else None),
        "axis_kind": pickle.dumps(obj._kind if kind == "frame" else None),  # the column axis' type
    }
    return header, arrays


def unflatten(header: dict, arrays: list) -> Any:
    cols = []
    for h in header["columns"]:
        col, arrays = build_column(h, arrays)
        cols.append(col)
    ncols = header["ncols"]
    index = _build_index(header["index"], cols[ncols:])
    labels = pickle.loads(header["labels"])
    if header["type"] == "index":
        return index
    if header["type"] == "series":
        return Series._from_column(cols[0], index, labels[0])
    axis_names = pickle.loads(header["axis_names"]) if "axis_names" in header else None
    axis_kind = pickle.loads(header["axis_kind"]) if "axis_kind" in header else None
    return DataFrame._from_columns(dict(zip(labels, cols[:ncols], strict=True)), index, axis_names, axis_kind)


# --- cuda family: raw buffers, device arrays stay on the device ------------------------------
def _to_bytes_view(a: Any) -> Any:
    xp = array_module(a)
    a = xp.ascontiguousarray(a)
    return a.reshape(-1).view(np.uint8)


@cuda_serialize.register((DataFrame, Series, Index))
def cuda_serialize_ember(obj: Any) -> tuple[dict, list]:
    header, arrays = flatten(obj)
    header["arrays"] = [(a.dtype.str, tuple(a.shape)) for a in arrays]
    return header, [_to_bytes_view(a) for a in arrays]


@cuda_deserialize.register((DataFrame, Series, Index))
def cuda_deserialize_ember(header: dict, frames: list) -> Any:
    xp = ember.backend.xp()
    arrays = []
    for (dtype, shape), frame in zip(header["arrays"], frames, strict=True):
        arrays.append(_from_frame(frame, xp).view(np.dtype(dtype)).reshape(shape))
    return unflatten(header, arrays)


def _from_frame(frame: Any, xp: Any) -> Any:
    """A received frame as a uint8 array of ``xp``: device buffers stay on the device."""
    if hasattr(frame, "__cuda_array_interface__"):
        cp = ember.backend.cupy_module()
        a = cp.asarray(frame).view(np.uint8).reshape(-1)
        return a if xp is not np else cp.asnumpy(a)
    return asarray_on(np.frombuffer(frame, dtype=np.uint8), xp)


# --- dask family: Arrow IPC host frames ------------------------------------------------------
def frame_to_ipc(obj: Any) -> bytes | pa.Buffer:
    """An ember DataFrame as one Arrow IPC stream (index and labels in the schema metadata)."""
    from ember.dask.backend import frame_to_table

    table = frame_to_table(obj, preserve_index=True)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue()


def frame_from_ipc(buf: Any) -> DataFrame:
    from ember.dask.backend import table_to_frame

    with pa.ipc.open_stream(pa.py_buffer(buf)) as reader:
        return table_to_frame(reader.read_all())


def _as_frame(obj: Any) -> tuple[DataFrame, dict]:
    if isinstance(obj, Series):
        return DataFrame._from_columns({_SERIES_COLUMN: obj.column}, obj.index), {
            "type": "series",
            "name": pickle.dumps(obj.name),
        }
    if isinstance(obj, Index):
        return DataFrame._from_columns({}, obj), {"type": "index"}
    return obj, {"type": "frame"}


@dask_serialize.register((DataFrame, Series, Index))
def dask_serialize_ember(obj: Any) -> tuple[dict, list]:
    frame, header = _as_frame(obj)
    header["nrows"] = len(frame)
    if header["type"] == "frame":  # the column axis' type, which the Arrow schema does not carry
        header["axis_kind"] = pickle.dumps(frame._kind)
    return header, [memoryview(frame_to_ipc(frame))]


@dask_deserialize.register((DataFrame, Series, Index))
def dask_deserialize_ember(header: dict, frames: list) -> Any:
    frame = frame_from_ipc(b"".join(bytes(f) for f in frames) if len(frames) > 1 else frames[0])
    if header["type"] == "series":
        return Series._from_column(frame._columns[_SERIES_COLUMN], frame.index, pickle.loads(header["name"]))
    if header["type"] == "index":
        return frame.index
    if "axis_kind" in header:
        kind = pickle.loads(header["axis_kind"])
        return DataFrame._from_columns(dict(frame._columns), frame.index, frame._axis_names, kind)
    return frame


# --- pickle: ember objects pickle as (header, arrays) -----------------------------------------
def _reduce(obj: Any) -> tuple:
    """Pickle support (task graphs carry ember meta objects to the scheduler and workers). Unpickling
    runs ``_restore`` from this module, which also registers ember's Dask dispatches there."""
    return _restore, flatten(obj)


def _restore(header: dict, arrays: list) -> Any:
    return unflatten(header, arrays)


def register_pickle() -> None:
    import copyreg

    for cls in (DataFrame, Series, Index, RangeIndex, MultiIndex):
        copyreg.pickle(cls, _reduce)


register_pickle()

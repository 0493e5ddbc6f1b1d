"""The Arrow PyCapsule interface for columns: ``__arrow_c_array__``, ``__arrow_c_stream__`` and
``__arrow_c_device_array__``.

Arrays and streams are exported through pyarrow from the host (``Column.to_arrow``: zero-copy for host
columns, one device->host copy for device columns). Device arrays stay on the GPU when the installed
pyarrow is built with CUDA (``pyarrow.cuda`` imports): the column's device buffers are wrapped, not
copied, as Arrow buffers of an ARROW_DEVICE_CUDA array. The pyarrow wheels on PyPI are built without
CUDA; with them (and for categorical columns, whose dictionary has no flat device layout) a device
column is exported as a host copy with device type CPU, which every consumer of the protocol accepts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ember.column import Column, DatetimeColumn, NumericColumn, StringColumn, TimedeltaColumn


def arrow_c_array(col: Column, requested_schema: Any = None) -> tuple[Any, Any]:
    """(schema capsule, array capsule) of the column as an Arrow array on the host (``__arrow_c_array__``).

    ``requested_schema`` (a schema capsule) asks pyarrow to cast to that type first, as the protocol
    allows. Copies device columns to the host once.
    """
    return col.to_arrow().__arrow_c_array__(requested_schema)


def arrow_table(columns: Mapping[Any, Column] | Sequence[tuple[Any, Column]]) -> pa.Table:
    """A pyarrow Table of named columns (names become strings; duplicates are kept, in order)."""
    items = list(columns.items()) if isinstance(columns, Mapping) else list(columns)
    arrays = [col.to_arrow() for _, col in items]
    return pa.Table.from_arrays(arrays, names=[str(name) for name, _ in items])


def arrow_c_stream(
    columns: Mapping[Any, Column] | Sequence[tuple[Any, Column]], requested_schema: Any = None
) -> Any:
    """An Arrow C stream capsule (``__arrow_c_stream__``) of a table of named columns, on the host."""
    return arrow_table(columns).__arrow_c_stream__(requested_schema)


@functools.cache
def pyarrow_has_cuda() -> bool:
    """True when the installed pyarrow is built with CUDA (``pyarrow.cuda`` imports)."""
    try:
        import pyarrow.cuda  # noqa: F401
    except ImportError:
        return False
    return True


def arrow_c_device_array(col: Column, requested_schema: Any = None, **kwargs: Any) -> tuple[Any, Any]:
    """(schema capsule, device array capsule) of the column (``__arrow_c_device_array__``).

    Host columns export with device type CPU (zero-copy). Device columns export with device type CUDA,
    zero-copy, when pyarrow has CUDA support and the column has a flat layout (numeric, bool,
    datetime, timedelta, string); otherwise as a host copy with device type CPU (see the module
    docstring). ``kwargs`` are the protocol's reserved keywords, passed on to pyarrow.
    """
    if col.on_device and pyarrow_has_cuda() and arrow_buffers(col) is not None:
        arr = arrow_array_from_buffers(col, _cuda_wrapper(col))
    else:
        arr = col.to_arrow()
    return arr.__arrow_c_device_array__(requested_schema, **kwargs)


def _cuda_wrapper(col: Column) -> Callable[[Any], Any]:
    """Wraps a CuPy array as a pyarrow CudaBuffer over the same memory (kept alive by ``base``)."""
    import pyarrow.cuda as pa_cuda

    ctx = pa_cuda.Context(int(col.data.device.id))
    return lambda a: ctx.foreign_buffer(int(a.data.ptr), int(a.nbytes), base=a)


def arrow_buffers(col: Column) -> tuple[pa.DataType, int, int, list[Any]] | None:
    """(Arrow type, length, null count, buffers as arrays of ``col.xp``) in the Arrow layout, or None
    for categoricals (a dictionary array is two arrays, not one list of buffers).

    The buffers stay on the column's device: validity and bool values are bit-packed there
    (LSB first); numbers, ticks, offsets and UTF-8 bytes are the column's own arrays. Missing values are
    those ``to_arrow`` reports (NaN counts as missing in numpy-float columns, as pandas converts them).
    Synchronizes once, for the null count.
    """
    if not isinstance(col, (NumericColumn, DatetimeColumn, TimedeltaColumn, StringColumn)):
        return None
    xp = col.xp
    n = len(col)
    missing = xp.zeros(n, dtype=bool) if col.mask is None else ~col.mask
    if isinstance(col, NumericColumn) and col.is_float and not col.nullable:
        missing = missing | xp.isnan(col.data)
    null_count = int(missing.sum())
    validity = xp.packbits(~missing, bitorder="little") if null_count else None
    if isinstance(col, StringColumn):
        offsets = xp.ascontiguousarray(col.data, dtype=np.int64)
        return pa.large_string(), n, null_count, [validity, offsets, xp.ascontiguousarray(col.chars)]
    if isinstance(col, DatetimeColumn):
        typ = pa.timestamp(col.unit, tz=None if col.tz is None else str(col.tz))
    elif isinstance(col, TimedeltaColumn):
        typ = pa.duration(col.unit)
    else:
        typ = pa.from_numpy_dtype(col.data.dtype)
    if isinstance(col, NumericColumn) and col.is_bool:
        return typ, n, null_count, [validity, xp.packbits(col.data, bitorder="little")]
    return typ, n, null_count, [validity, xp.ascontiguousarray(col.data)]


def arrow_array_from_buffers(col: Column, wrap: Callable[[Any], Any]) -> pa.Array:
    """A pyarrow array over the column's Arrow buffers (``arrow_buffers``), each wrapped by ``wrap``
    (``pa.py_buffer`` for host arrays, a CudaBuffer constructor for device arrays)."""
    layout = arrow_buffers(col)
    if layout is None:
        raise TypeError(f"arrow_array_from_buffers: a {col.dtype} column has no flat Arrow buffer layout")
    typ, n, null_count, arrays = layout
    buffers = [None if a is None else wrap(a) for a in arrays]
    return pa.Array.from_buffers(typ, n, buffers, null_count=null_count)

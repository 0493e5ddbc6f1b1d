"""Interchange protocols for columns: ``__cuda_array_interface__``, DLPack, NumPy's ``__array__`` and the
Arrow PyCapsule interface (arrays, streams and device arrays).

The frame layer's dunder methods delegate here; each function takes Columns, so the rules (which dtypes
can be shared zero-copy, what happens to nulls, what is copied to the host) live in one place.
"""

from ember.interop.arrow import (
    arrow_array_from_buffers,
    arrow_buffers,
    arrow_c_array,
    arrow_c_device_array,
    arrow_c_stream,
    arrow_table,
    pyarrow_has_cuda,
)
from ember.interop.cuda import cuda_array_interface
from ember.interop.dlpack import dlpack_device, from_dlpack, to_dlpack
from ember.interop.numpy_protocol import array_protocol

__all__ = [
    "array_protocol",
    "arrow_array_from_buffers",
    "arrow_buffers",
    "arrow_c_array",
    "arrow_c_device_array",
    "arrow_c_stream",
    "arrow_table",
    "cuda_array_interface",
    "dlpack_device",
    "from_dlpack",
    "pyarrow_has_cuda",
    "to_dlpack",
]

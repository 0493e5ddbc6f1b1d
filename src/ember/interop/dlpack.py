"""DLPack export of columns (``__dlpack__`` / ``__dlpack_device__``) and import of DLPack producers.

Export is zero-copy from the column's data array (NumPy on the host, CuPy on the device); import keeps
the producer's memory when the producer already lives where the column should (CUDA producers such as
PyTorch cuda tensors and JAX GPU arrays -> CuPy; CPU producers -> NumPy) and copies once otherwise.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ember.column import Column, from_numpy
from ember.interop._common import exportable_data

# DLDeviceType values (dlpack.h)
KDL_CPU = 1
KDL_CUDA = 2
KDL_CUDA_HOST = 3
KDL_CUDA_MANAGED = 13
_CUDA_DEVICES = (KDL_CUDA, KDL_CUDA_MANAGED)


def to_dlpack(
    col: Column,
    stream: Any = None,
    max_version: tuple[int, int] | None = None,
    dl_device: tuple[int, int] | None = None,
    copy: bool | None = None,
) -> Any:
    """A DLPack capsule of the values of a numeric/bool column without nulls (``__dlpack__``).

    The keyword arguments are the array API's and are passed to the data array's own ``__dlpack__``
    (only those given, so older NumPy/CuPy versions keep working). On the host ``stream`` must be None.
    """
    data = exportable_data(col, "__dlpack__")
    kwargs = {"stream": stream, "max_version": max_version, "dl_device": dl_device, "copy": copy}
    return data.__dlpack__(**{k: v for k, v in kwargs.items() if v is not None})


def dlpack_device(col: Column) -> tuple[int, int]:
    """(device type, device id) as ``__dlpack_device__`` reports it: (1, 0) on the host, (2, id) on a GPU."""
    dev_type, dev_id = col.data.__dlpack_device__()
    return int(dev_type), int(dev_id)


def from_dlpack(obj: Any, xp: ModuleType) -> Column:
    """A column from any 1-D DLPack producer (torch, jax, cupy, numpy ...), placed on module ``xp``.

    CUDA producers are read through ``cupy.from_dlpack`` (zero-copy), everything else through
    ``numpy.from_dlpack`` (zero-copy on the host); the array is then moved to ``xp`` if it lives
    elsewhere. A zero-copy column shares the producer's memory: writing to the producer afterwards
    changes the column.
    """
    if not hasattr(obj, "__dlpack__"):
        raise TypeError(
            f"from_dlpack: {type(obj).__name__} does not implement the DLPack protocol (__dlpack__)"
        )
    dev_type = int(obj.__dlpack_device__()[0]) if hasattr(obj, "__dlpack_device__") else KDL_CPU
    if dev_type in _CUDA_DEVICES:
        from ember.backend import cupy_module

        arr = cupy_module().from_dlpack(obj)
    else:
        arr = np.from_dlpack(obj)
    return from_numpy(arr, xp)

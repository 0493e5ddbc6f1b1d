"""``__cuda_array_interface__`` (version 3) for columns on the device (Numba, CuPy, PyTorch read it)."""

from __future__ import annotations

from typing import Any

from ember.column import Column
from ember.interop._common import exportable_data

HOST_MESSAGE = "this column lives in host memory; use __array__ / .to_numpy()"


class NoInterfaceTypeError(AttributeError, TypeError):
    """No interface for this column (host memory, dtype): an AttributeError too, so that
    ``hasattr(s, "__cuda_array_interface__")`` is False, as for any object without the interface."""


class NoInterfaceValueError(AttributeError, ValueError):
    """No interface for a column with missing values (an AttributeError too, for ``hasattr``)."""


def cuda_array_interface(col: Column) -> dict[str, Any]:
    """The v3 CUDA array interface of a device column's values (zero-copy).

    Only numeric and boolean columns without nulls qualify. Raises TypeError for host columns and
    other dtypes, ValueError (naming ``.fillna()``) when the column has missing values. The consumer
    shares the column's memory, so it must not write to it (ember columns are immutable). Synchronizes
    the device only when the column carries a validity mask.
    """
    if not col.on_device:
        raise NoInterfaceTypeError(HOST_MESSAGE)
    try:
        data = exportable_data(col, "__cuda_array_interface__")
    except ValueError as exc:
        raise NoInterfaceValueError(str(exc)) from None
    except TypeError as exc:
        raise NoInterfaceTypeError(str(exc)) from None
    cai = dict(data.__cuda_array_interface__)
    cai["version"] = 3
    return cai

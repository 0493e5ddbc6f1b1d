"""The only layer that imports CuPy: device choice, array modules, transfers and the few primitives
whose NumPy and CuPy spellings differ. Everything above writes ``xp.<function>`` against the module
that ``array_module`` returns for its inputs.
"""

from ember.backend.arrays import (
    array_module,
    asarray_on,
    is_device_array,
    synchronize,
    to_device,
    to_host,
)
from ember.backend.device import (
    INSTALL_HINT,
    DeviceUnavailableError,
    cupy_module,
    current_device,
    gpu_available,
    xp,
)
from ember.backend.memory import peak_device_bytes, reset_peak_device_bytes, used_device_bytes

__all__ = [
    "INSTALL_HINT",
    "DeviceUnavailableError",
    "array_module",
    "asarray_on",
    "cupy_module",
    "current_device",
    "gpu_available",
    "is_device_array",
    "peak_device_bytes",
    "reset_peak_device_bytes",
    "used_device_bytes",
    "synchronize",
    "to_device",
    "to_host",
    "xp",
]

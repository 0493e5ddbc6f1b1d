"""Options: the device ("auto" | "gpu" | "cpu"), the fallback policy and display settings.

``ember.config.set(device="cpu")`` changes an option for the process; used in a ``with`` block it
changes it only for the block (like ``dask.config.set``). ``EMBER_DEVICE`` sets the starting device.
"""

from __future__ import annotations

import os
import threading
from typing import Any

_DEVICES = ("auto", "gpu", "cpu")
_FALLBACKS = ("raise", "pandas")

_defaults: dict[str, Any] = {
    "device": os.environ.get("EMBER_DEVICE", "auto").lower(),
    "fallback": os.environ.get("EMBER_FALLBACK", "raise").lower(),
    "display.max_rows": 60,
    "display.min_rows": 10,
    "display.max_columns": 20,
}

_lock = threading.Lock()
_options: dict[str, Any] = {}


def _validate(key: str, value: Any) -> Any:
    if key == "device":
        value = str(value).lower()
        if value not in _DEVICES:
            raise ValueError(f"device must be one of {_DEVICES}, got {value!r}")
    elif key == "fallback":
        value = str(value).lower()
        if value not in _FALLBACKS:
            raise ValueError(f"fallback must be one of {_FALLBACKS}, got {value!r}")
    elif key not in _defaults:
        raise KeyError(f"unknown ember option {key!r}; known: {sorted(_defaults)}")
    return value


def get(key: str) -> Any:
    """The current value of an option."""
    if key not in _defaults:
        raise KeyError(f"unknown ember option {key!r}; known: {sorted(_defaults)}")
    return _options.get(key, _defaults[key])


class set:  # noqa: A001 - mirrors dask.config.set
    """Set options for the process, or for a ``with`` block only.

    >>> ember.config.set(device="cpu")            # from now on
    >>> with ember.config.set(fallback="pandas"):  # inside the block only
    ...     ...
    """

    def __init__(self, **options: Any) -> None:
        keys = {k.replace("__", "."): v for k, v in options.items()}
        validated = {k: _validate(k, v) for k, v in keys.items()}
        if "device" in validated:
            # before anything changes: a failed request must leave the options as they were
            from ember.backend import device as _device

            _device.check_device_available(validated["device"])
        with _lock:
            self._previous = {k: _options.get(k, _MISSING) for k in validated}
            _options.update(validated)

    def __enter__(self) -> set:
        return self

    def __exit__(self, *exc: object) -> None:
        with _lock:
            for k, v in self._previous.items():
                if v is _MISSING:
                    _options.pop(k, None)
                else:
                    _options[k] = v


_MISSING = object()


def reset() -> None:
    """Forget every option set since start-up."""
    with _lock:
        _options.clear()

"""The fallback policy: unsupported pandas methods and arguments raise NotImplementedError, unless the
user opted in with ``ember.config.set(fallback="pandas")``: then the call runs through pandas (convert,
call, convert back), warns once per method, and is counted in ``ember.fallback_report()``.
"""

from __future__ import annotations

import functools
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

import pandas as pd

from ember import _config
from ember.column.base import Unsupported  # defined with the columns, the lowest layer raising it

_counts: Counter[str] = Counter()
_warned: set[str] = set()


def unsupported(method: str, detail: str, fallback: bool = True) -> Unsupported:
    """The error for an unsupported method or argument; the message names both and, where the pandas
    fallback can run the call (``fallback``), the way to opt in."""
    hint = (
        ' Opt in to running it through pandas with ember.config.set(fallback="pandas").'
        if fallback
        else (" Convert with .to_pandas() to run it in pandas.")
    )
    return Unsupported(f"{method}: {detail} is not supported by ember.{hint}")


def fallback_report() -> dict[str, int]:
    """How many times each method ran through pandas since start-up."""
    return dict(_counts)


def _to_pandas(obj: Any) -> Any:
    if hasattr(obj, "to_pandas") and type(obj).__module__.startswith("ember"):
        return obj.to_pandas()
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_pandas(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_pandas(v) for k, v in obj.items()}
    return obj


def _from_pandas(obj: Any) -> Any:
    from ember.frame.convert import from_pandas

    if isinstance(obj, (pd.DataFrame, pd.Series, pd.Index)):
        try:
            return from_pandas(obj)
        except (NotImplementedError, TypeError):
            return obj  # e.g. object columns ember cannot hold: hand back pandas' result
    return obj


def run_in_pandas(owner: str, name: str, obj: Any, args: tuple, kwargs: dict) -> Any:
    """Run ``obj.<name>(*args, **kwargs)`` through pandas and convert the result back."""
    key = f"{owner}.{name}"
    _counts[key] += 1
    if key not in _warned:
        _warned.add(key)
        warnings.warn(
            f"ember: {key} ran through pandas (fallback='pandas'); it copies the data to the host",
            stacklevel=3,
        )
    target = getattr(_to_pandas(obj), name)
    result = target(*_to_pandas(args), **_to_pandas(kwargs)) if callable(target) else target
    return _from_pandas(result)


def fallback_enabled() -> bool:
    return _config.get("fallback") == "pandas"


def with_fallback(method: Callable) -> Callable:
    """Decorate a method whose arguments may be unsupported: on ``Unsupported`` it reruns in pandas when
    the user opted in, else the error propagates."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Unsupported:
            if not fallback_enabled():
                raise
            return run_in_pandas(type(self).__name__, method.__name__, self, args, kwargs)

    return wrapper


def missing_attribute(obj: Any, name: str, pandas_type: type) -> Any:
    """``__getattr__`` support: pandas methods ember lacks raise NotImplementedError (or fall back)."""
    if name.startswith("_") or not hasattr(pandas_type, name):
        raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")
    owner = type(obj).__name__
    if not fallback_enabled():
        raise unsupported(f"{owner}.{name}", "this pandas method")
    attr = getattr(pandas_type, name)
    if not callable(attr) or isinstance(attr, property):
        return run_in_pandas(owner, name, obj, (), {})

    def call(*args: Any, **kwargs: Any) -> Any:
        return run_in_pandas(owner, name, obj, args, kwargs)

    return call

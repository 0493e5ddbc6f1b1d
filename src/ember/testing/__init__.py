"""Test helpers: ``assert_eq`` (ember vs pandas) and, on demand, hypothesis strategies.

``ember.testing.strategies`` imports hypothesis, so it is loaded only when asked for
(``from ember.testing import strategies`` or ``ember.testing.strategies``); ``import ember.testing``
works without hypothesis installed.
"""

from __future__ import annotations

import importlib
from typing import Any

from ember.testing.asserters import assert_eq

__all__ = ["assert_eq", "strategies"]


def __getattr__(name: str) -> Any:
    if name == "strategies":
        return importlib.import_module("ember.testing.strategies")
    raise AttributeError(f"module 'ember.testing' has no attribute {name!r}")

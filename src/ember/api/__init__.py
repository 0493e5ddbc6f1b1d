"""``ember.api``: pandas' ``api`` namespace for ember objects.

``ember.api.types`` takes ember objects (see its docstring); the other parts (``indexers``,
``extensions``, ``typing``, ``interchange``) are pandas' own.
"""

from typing import Any

from ember.api import types

__all__ = ["types"]


def __getattr__(name: str) -> Any:
    import pandas.api

    return getattr(pandas.api, name)

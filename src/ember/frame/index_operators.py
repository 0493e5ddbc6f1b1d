"""Arithmetic and comparisons of an Index with a scalar, an array or another Index (pandas' Index
operators: ``df.index % 2 == 0``, ``df.index < 1``)."""

from __future__ import annotations


class IndexOperators:
    """Operators mixed into Index."""

    __slots__ = ()

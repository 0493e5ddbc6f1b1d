"""More MultiIndex methods: construction from levels and codes, ordering, duplicates, missing labels."""

from __future__ import annotations


class MultiIndexMore:
    """Methods mixed into MultiIndex."""

    __slots__ = ()

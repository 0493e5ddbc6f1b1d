"""Methods that combine a DataFrame or Series with another one or pick from it by position of valid
values: update, combine, combine_first, compare, align, first / last_valid_index, get, truncate,
squeeze."""

from __future__ import annotations


class FrameCombine:
    """DataFrame methods (mixed into DataFrame)."""

    __slots__ = ()


class SeriesCombine:
    """Series methods (mixed into Series)."""

    __slots__ = ()

"""Methods on the levels of a DataFrame's or Series' row / column labels: swaplevel, reorder_levels,
rename_axis, xs, drop by level."""

from __future__ import annotations


class FrameLevels:
    """DataFrame methods (mixed into DataFrame)."""

    __slots__ = ()


class SeriesLevels:
    """Series methods (mixed into Series)."""

    __slots__ = ()

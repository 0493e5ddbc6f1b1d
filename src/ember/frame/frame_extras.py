"""DataFrame / Series methods of pandas' long tail (mode, dot, to_records, to_dict, flags, asof ...),
mixed into DataFrame and Series."""

from __future__ import annotations


class FrameExtras:
    """DataFrame methods (mixed into DataFrame)."""

    __slots__ = ()


class SeriesExtras:
    """Series methods (mixed into Series)."""

    __slots__ = ()

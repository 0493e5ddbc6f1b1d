"""``DataFrame.join``: pandas' argument handling (``suffixes`` of pandas 3.1 or the older ``lsuffix``
/ ``rsuffix``, a named Series, ``how="cross"``, ``validate``) in front of ``merge`` on the index."""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

from ember._compat import PANDAS_31
from ember.frame._fallback import unsupported

NO_DEFAULT = object()  # an argument not given


def join_frame(
    frame: Any,
    other: Any,
    on: Any,
    how: str,
    lsuffix: Any,
    rsuffix: Any,
    sort: bool,
    validate: Any,
    suffixes: Any,
) -> Any:
    from ember.frame.merge import merge
    from ember.frame.series import Series

    resolved = _suffixes(lsuffix, rsuffix, suffixes)
    if isinstance(other, Series):
        if other.name is None:
            raise ValueError("Other Series must have a name")
        other = other.to_frame()
    if not hasattr(other, "_columns"):
        raise unsupported("DataFrame.join", f"other of type {type(other).__name__} (a list of frames)")
    if how == "cross":
        return merge(frame, other, how=how, on=on, suffixes=resolved, sort=sort, validate=validate)
    return merge(
        frame,
        other,
        how=how,
        left_on=on,
        left_index=on is None,
        right_index=True,
        suffixes=resolved,
        sort=sort,
        validate=validate,
    )


def _suffixes(lsuffix: Any, rsuffix: Any, suffixes: Any) -> tuple:
    """pandas 3.1: ``suffixes``, or the deprecated ``lsuffix`` / ``rsuffix`` (not both spellings);
    pandas 3.0 knows only the latter."""
    if suffixes is not NO_DEFAULT and not PANDAS_31:
        raise TypeError("DataFrame.join() got an unexpected keyword argument 'suffixes'")
    if lsuffix is not NO_DEFAULT or rsuffix is not NO_DEFAULT:
        if suffixes is not NO_DEFAULT:
            raise ValueError("Cannot specify both 'suffixes' and 'lsuffix'/'rsuffix'.")
        if PANDAS_31:
            warnings.warn(
                "The 'lsuffix' and 'rsuffix' keywords in DataFrame.join are deprecated and will be "
                "removed in a future version. Use the 'suffixes' keyword instead.",
                pd.errors.Pandas4Warning,
                stacklevel=4,
            )
        return (
            "" if lsuffix is NO_DEFAULT else lsuffix,
            "" if rsuffix is NO_DEFAULT else rsuffix,
        )
    return ("", "") if suffixes is NO_DEFAULT else suffixes

"""Rolling windows from a pandas BaseIndexer (``pd.api.indexers.FixedForwardWindowIndexer``, a
user's subclass): the indexer gives each row's window bounds on the host, as pandas asks it; the
window reductions then run over those bounds like any other rolling window."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from ember.frame._fallback import unsupported


def check_indexer(indexer: Any, groupby: Any, step: Any) -> None:
    """pandas' validation of a BaseIndexer window, and the cases ember refuses."""
    import pandas as pd

    expected = inspect.signature(pd.api.indexers.BaseIndexer().get_window_bounds).parameters.keys()
    if inspect.signature(indexer.get_window_bounds).parameters.keys() != expected:
        raise ValueError(
            f"{type(indexer).__name__} does not implement the correct signature for get_window_bounds"
        )
    if groupby is not None:
        raise unsupported("GroupBy.rolling", "a BaseIndexer window")
    if step is not None:
        raise unsupported("rolling", "step= with a BaseIndexer window")


def indexer_bounds(
    indexer: Any, n: int, min_periods: int, center: bool, closed: Any, step: Any, xp: Any
) -> tuple[Any, Any]:
    """Each row's window ``[start, end)`` from the indexer (host arrays, moved to ``xp``). Bounds
    that go back in either end are refused: the window kernels read them as sliding windows."""
    start, end = indexer.get_window_bounds(
        num_values=n, min_periods=min_periods, center=center, closed=closed, step=step
    )
    start, end = np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64)
    if len(start) != len(end):
        raise ValueError(f"start ({len(start)}) and end ({len(end)}) bounds must be the same length")
    if len(start) != n:
        raise ValueError(
            f"start and end bounds ({len(start)}) must be the same length as the object ({n}) "
            f"divided by the step (1) if given and rounded up"
        )
    if n and ((np.diff(start) < 0).any() or (np.diff(end) < 0).any()):
        raise unsupported("rolling", "a BaseIndexer whose window bounds are not non-decreasing")
    start = np.clip(start, 0, n)
    end = np.clip(np.maximum(end, start), 0, n)
    return xp.asarray(start), xp.asarray(end)

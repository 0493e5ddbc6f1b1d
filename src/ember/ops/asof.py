"""As-of join: for every left row, the right row with the nearest ``on`` key before (backward), after
(forward) or either side of it (nearest), optionally within equal ``by`` keys and a tolerance.

Both sides must be sorted by ``on`` (pandas' requirement). Without ``by`` it is one ``searchsorted`` of
the left keys in the right keys. With ``by``, the by-values of both sides are factorized together and
the right rows sorted (stably) by group; every key becomes ``group * (m + 1) + rank`` where ``rank`` is
the position of the ``on`` value among all the ``on`` values, so one ``searchsorted`` over the combined
key answers every group at once, and a found row counts only when its group matches.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.backend import array_module, to_host
from ember.backend.primitives import stable_argsort
from ember.column import Column, DatetimeColumn, NumericColumn, TimedeltaColumn, concat_columns

DIRECTIONS = ("backward", "forward", "nearest")


def _key_values(lcol: Column, rcol: Column) -> tuple[Any, Any, str | None]:
    """Comparable arrays for the two ``on`` columns (ticks in the finer unit for temporal keys)."""
    from ember.ops.binary import finer_unit, rescale

    if isinstance(lcol, (DatetimeColumn, TimedeltaColumn)) or isinstance(
        rcol, (DatetimeColumn, TimedeltaColumn)
    ):
        if type(lcol) is not type(rcol) or (
            isinstance(lcol, DatetimeColumn) and str(lcol.tz) != str(rcol.tz)
        ):
            raise _incompatible(lcol, rcol)
        unit = finer_unit(lcol.unit, rcol.unit)
        return (
            rescale(lcol.data.astype(np.int64), lcol.unit, unit),
            rescale(rcol.data.astype(np.int64), rcol.unit, unit),
            unit,
        )
    if not isinstance(lcol, NumericColumn) or not isinstance(rcol, NumericColumn):
        raise _incompatible(lcol, rcol)
    lv, rv = lcol.data, rcol.data
    if lv.dtype.kind == "b" or rv.dtype.kind == "b":
        raise _incompatible(lcol, rcol)
    if lv.dtype != rv.dtype:
        common = np.result_type(lv.dtype, rv.dtype)
        lv, rv = lv.astype(common), rv.astype(common)
    return lv, rv, None


def _incompatible(lcol: Column, rcol: Column) -> Exception:
    from pandas.errors import MergeError

    return MergeError(
        f"Incompatible merge dtype, {lcol.dtype!r} and {rcol.dtype!r}, both sides must have numeric dtype"
    )


def _check(xp: Any, lcol: Column, rcol: Column, lv: Any, rv: Any) -> None:
    """Null keys and unsorted keys raise as in pandas (one device->host transfer for all four checks)."""

    def unsorted(v: Any) -> Any:
        return (v[1:] < v[:-1]).any() if v.shape[0] > 1 else xp.zeros((), dtype=bool)

    flags = to_host(
        xp.stack(
            [
                lcol.isna().any() if len(lcol) else xp.zeros((), bool),
                rcol.isna().any() if len(rcol) else xp.zeros((), bool),
                unsorted(lv),
                unsorted(rv),
            ]
        )
    )
    if flags[0]:
        raise ValueError("Merge keys contain null values on left side")
    if flags[1]:
        raise ValueError("Merge keys contain null values on right side")
    if flags[2]:
        raise ValueError("left keys must be sorted")
    if flags[3]:
        raise ValueError("right keys must be sorted")


def _group_codes(left_by: list[Column], right_by: list[Column]) -> tuple[Any, Any]:
    from ember.ops.factorize import factorize_with_info

    nl = len(left_by[0])
    both = [concat_columns([lc, rc]) for lc, rc in zip(left_by, right_by, strict=True)]
    codes, _, _, _, _ = factorize_with_info(both, sort=False, dropna=False, need_first=False)
    return codes[:nl].astype(np.int64), codes[nl:].astype(np.int64)


def _search(rkey: Any, lkey: Any, direction: str, allow_exact: bool) -> Any:
    """Candidate right position per left key (may be -1 or len(rkey) where none)."""
    xp = array_module(rkey)
    if direction == "backward":
        return xp.searchsorted(rkey, lkey, side="right" if allow_exact else "left").astype(np.int64) - 1
    return xp.searchsorted(rkey, lkey, side="left" if allow_exact else "right").astype(np.int64)


def asof_positions(
    left_on: Column,
    right_on: Column,
    left_by: list[Column] | None = None,
    right_by: list[Column] | None = None,
    tolerance: Any = None,
    allow_exact_matches: bool = True,
    direction: str = "backward",
) -> Any:
    """For every left row, the matching right row position (int64, -1 where none). ``tolerance`` is a
    number (or, for datetime keys, a Timedelta) bounding |left - right|. Synchronizes once (checks)."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction invalid: {direction}")
    xp = left_on.xp
    right_on = right_on.to(xp)
    lv, rv, unit = _key_values(left_on, right_on)
    _check(xp, left_on, right_on, lv, rv)
    nl, nr = lv.shape[0], rv.shape[0]
    if nr == 0 or nl == 0:
        return xp.full(nl, -1, dtype=np.int64)
    if left_by:
        lcode, rcode = _group_codes(left_by, [c.to(xp) for c in right_by])
        perm = stable_argsort(rcode)
        rcode_s = rcode[perm]
        everything = xp.sort(xp.concatenate([lv, rv]))
        m = everything.shape[0] + 1
        lkey = lcode * m + xp.searchsorted(everything, lv, side="left")
        rkey = rcode_s * m + xp.searchsorted(everything, rv[perm], side="left")
        rvals = rv[perm]
    else:
        perm, lkey, rkey, rvals, lcode, rcode_s = None, lv, rv, rv, None, None
    cands = []
    for d in ("backward", "forward") if direction == "nearest" else (direction,):
        pos = _search(rkey, lkey, d, allow_exact_matches)
        ok = (pos >= 0) & (pos < nr)
        safe = xp.clip(pos, 0, nr - 1)
        if lcode is not None:
            ok &= rcode_s[safe] == lcode
        cands.append((xp.where(ok, safe, -1), ok))
    if direction == "nearest":
        (b, bok), (f, fok) = cands
        bd = xp.abs(lv - rvals[xp.maximum(b, 0)])
        fd = xp.abs(rvals[xp.maximum(f, 0)] - lv)
        take_f = fok & (~bok | (fd < bd))
        pos, ok = xp.where(take_f, f, b), bok | fok
    else:
        pos, ok = cands[0]
    if tolerance is not None:
        tol = _tolerance(tolerance, unit)
        dist = xp.abs(lv - rvals[xp.maximum(pos, 0)])
        ok &= dist <= tol
    pos = xp.where(ok, pos, -1)
    if perm is not None:
        pos = xp.where(ok, perm[xp.maximum(pos, 0)], -1)
    return pos.astype(np.int64)


def _tolerance(tolerance: Any, unit: str | None) -> Any:
    import pandas as pd

    from ember.ops._common import UNIT_NS

    if unit is not None:
        if not isinstance(tolerance, (pd.Timedelta, np.timedelta64)) and not hasattr(
            tolerance, "total_seconds"
        ):
            raise _merge_error(
                f"incompatible tolerance {tolerance}, must be compat with type datetime64[{unit}]"
            )
        return pd.Timedelta(tolerance).value // UNIT_NS[unit]
    if isinstance(tolerance, (pd.Timedelta, np.timedelta64)):
        raise _merge_error(f"incompatible tolerance {tolerance}, must be compat with type numeric")
    if tolerance < 0:
        raise _merge_error("tolerance must be positive")
    return tolerance


def _merge_error(msg: str) -> Exception:
    from pandas.errors import MergeError

    return MergeError(msg)


__all__ = ["DIRECTIONS", "asof_positions"]

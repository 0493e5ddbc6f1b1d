"""``wide_to_long``: columns named stub + sep + suffix melted into one column per stub, the suffix
becoming the ``j`` level of a (``i``, ``j``) row index, as pandas composes it from melt, a regex
replace, to_numeric, concat and a join. The column labels are matched on the host (label
metadata); the data stays in ember columns throughout."""

from __future__ import annotations

import re
from typing import Any

from ember.frame._fallback import unsupported
from ember.frame.dataframe import DataFrame


def _as_list(obj: Any) -> list:
    from pandas.api.types import is_list_like

    return list(obj) if is_list_like(obj) else [obj]


def _stub_columns(labels: list, stub: str, sep: str, suffix: str) -> list:
    """The labels ``stub`` + ``sep`` + a match of ``suffix`` (the whole label), in column order."""
    pattern = re.compile(rf"^{re.escape(stub)}{re.escape(sep)}{suffix}$")
    return [label for label in labels if pattern.match(label)]


def _melt_stub(df: DataFrame, stub: str, i: list, j: Any, value_vars: list, sep: str) -> DataFrame:
    """One stub's columns melted: its values under ``stub`` (less a trailing ``sep``), the suffix
    (every ``stub + sep`` removed from the label) under ``j``, as numbers where they all parse."""
    from ember.frame.algorithms import to_numeric
    from ember.frame.reshape import melt

    out = melt(df, id_vars=i, value_vars=value_vars, value_name=stub.rstrip(sep), var_name=j)
    suffixes = out[j].str.replace(re.escape(stub + sep), "", regex=True)
    try:
        suffixes = to_numeric(suffixes)
    except (TypeError, ValueError, OverflowError):
        pass  # pandas keeps the suffixes as strings
    out[j] = suffixes
    return out.set_index([*i, j])


def wide_to_long(
    df: DataFrame, stubnames: Any, i: Any, j: Any, sep: str = "", suffix: str = r"\d+"
) -> DataFrame:
    """``pd.wide_to_long``: each stub's columns (``stub`` ``sep`` ``suffix``) melted into a column
    named after the stub, the other columns (sorted, as pandas' ``columns.difference``) kept per
    (``i``, ``j``) row; ``j`` holds the suffixes, as numbers where they all parse."""
    from ember.frame.convert import concat

    labels = list(df.columns)
    if not all(isinstance(label, str) for label in labels) or len(set(labels)) < len(labels):
        raise unsupported("wide_to_long", "column labels other than distinct strings")
    stubnames, i = _as_list(stubnames), _as_list(i)
    if any(label in stubnames for label in labels):
        raise ValueError("stubname can't be identical to a column name")
    if df[i].duplicated().any():
        raise ValueError("the id variables need to uniquely identify each row")
    if df[i].isna().any().any():  # pandas' join / merge of missing ids: errors or NA-matched rows
        raise unsupported("wide_to_long", "id variables holding missing values")
    melted, value_vars = [], []
    for stub in stubnames:
        stub_vars = _stub_columns(labels, stub, sep, suffix)
        value_vars.extend(stub_vars)
        melted.append(_melt_stub(df, stub, i, j, stub_vars, sep))
    long = concat(melted, axis=1)
    kept = df[sorted(set(labels) - set(value_vars))]
    if len(i) == 1:
        # pandas joins the id-indexed columns onto the (i, j) rows: the melted order, looked up by i
        if j in labels:
            raise unsupported("wide_to_long", f"j={j!r} naming a column too")
        rows = long.reset_index().merge(kept, on=i, how="left").set_index([*i, j])
        return rows[[c for c in kept.columns if c not in i] + list(long.columns)]
    return kept.merge(long.reset_index(), on=i).set_index([*i, j])

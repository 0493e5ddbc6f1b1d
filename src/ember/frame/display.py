"""repr of DataFrame, Series and Index as pandas prints them, from the rows and columns shown only.

pandas' formatters read the whole object but print a head and a tail (``display.max_rows`` /
``min_rows`` / ``max_columns`` / ``max_seq_items``). ember gathers just those rows and columns on the
device (one gather), plus one row / column more so that pandas still sees an object to truncate, formats
that small pandas object with pandas' own repr parameters and writes the true size into the footer
(``[n rows x m columns]``, ``Length: n``, ``length=n``). The options are pandas' (``pd.options.display``);
an ``ember.config`` display option that was changed from its default takes precedence.
"""

from __future__ import annotations

from shutil import get_terminal_size
from typing import Any

import numpy as np
import pandas as pd

from ember import _config

_MIRRORED_NONE = 2**62  # what ember.namespace writes into ember.config for pandas' None / 0


def display_option(key: str) -> Any:
    """pandas' display option, or ember.config's where it was set to something else than its default."""
    value = pd.get_option(key)
    try:
        ours = _config.get(key)
    except KeyError:
        return value
    if ours == _config._defaults[key] or (isinstance(ours, int) and ours >= _MIRRORED_NONE):
        return value
    return ours


def _rows_shown(n: int, max_rows: Any, min_rows: Any, series: bool) -> tuple[np.ndarray, int, int] | None:
    """Positions of the rows to hand pandas and the max_rows / min_rows that make it truncate them as
    it truncates all ``n`` rows; None when every row is shown."""
    if not max_rows or n <= max_rows:
        return None
    fitted = min(min_rows, max_rows) if min_rows else max_rows
    half = fitted // 2
    if series and fitted == 1 or not series and half < 1:
        shown = 1 if series else max_rows  # pandas: the first row(s) only
        if n <= shown + 1:
            return None
        return np.arange(shown + 1), shown, min(fitted, shown)
    if n <= 2 * half + 1:
        return None
    pos = np.concatenate([np.arange(half + 1), np.arange(n - half, n)])
    return pos, 2 * half, 2 * half


def _columns_shown(m: int, max_cols: Any) -> tuple[np.ndarray, Any] | None:
    """Positions of the columns to hand pandas and its max_cols (see ``_rows_shown``). pandas labels
    the columns it shows with the numeric-ness of the frame's *first* columns' dtypes (a leading space
    in the header), so the first columns are kept up to the number shown, then the last ones."""
    if max_cols is None:
        return None
    if max_cols == 0:  # pandas in a terminal: at most the terminal's width in columns, then fitted
        half = get_terminal_size().columns // 2
        first, passed = 2 * half + 2, 0
    elif max_cols == 1:
        half, first, passed = 0, 2, 1
    else:
        half = max_cols // 2
        first, passed = 2 * half, 2 * half
    if m <= first + half:
        return None
    return np.concatenate([np.arange(first), np.arange(m - half, m)]), passed


def _with_size(text: str, pattern: str, small: str, true: str) -> str:
    """``text`` with the last ``pattern`` % small replaced by ``pattern`` % true."""
    old = pattern % small
    at = text.rfind(old)
    return text if at < 0 else text[:at] + pattern % true + text[at + len(old) :]


def _frame_parts(df: Any, max_rows: Any, min_rows: Any, max_cols: Any) -> tuple[pd.DataFrame, dict]:
    n, m = len(df), len(df.columns)
    rows = _rows_shown(n, max_rows, min_rows, series=False) if m else None
    if max_rows == 0 and m:  # pandas in a terminal: as many rows as its height allows
        height = get_terminal_size().lines
        rows = (np.concatenate([np.arange(height + 1), np.arange(n - height, n)]), 0, min_rows)
        rows = rows if n > 2 * height + 1 else None
    cols = _columns_shown(m, max_cols) if n else None
    params = {"max_rows": max_rows, "min_rows": min_rows, "max_cols": max_cols}
    small = df
    if rows is not None:
        small = small.iloc[rows[0]]
        params["max_rows"], params["min_rows"] = rows[1], rows[2]
    if cols is not None:
        small = small.iloc[:, cols[0]]
        params["max_cols"] = cols[1]
    return small.to_pandas(), params


def frame_repr(df: Any) -> str:
    """pandas' ``repr(DataFrame)`` of ``df`` (gathers the rows and columns shown only)."""
    from pandas.io.formats import format as fmt

    if display_option("display.large_repr") == "info":
        return repr(df.to_pandas())
    params = fmt.get_dataframe_repr_params()
    opts = [display_option(f"display.{k}") for k in ("max_rows", "min_rows", "max_columns")]
    small, sized = _frame_parts(df, *opts)
    params.update(sized)
    text = small.to_string(**params)
    shape = (len(df), len(df.columns))
    return _with_size(text, "\n\n[%s columns]", _dims(small.shape), _dims(shape))


def frame_repr_html(df: Any) -> str | None:
    """pandas' ``DataFrame._repr_html_`` of ``df`` (gathers the rows and columns shown only)."""
    from pandas.io.formats import format as fmt

    if not pd.get_option("display.notebook_repr_html"):
        return None
    if display_option("display.large_repr") == "info":
        return df.to_pandas()._repr_html_()
    opts = [display_option(f"display.{k}") for k in ("max_rows", "min_rows", "max_columns")]
    small, sized = _frame_parts(df, *opts)
    formatter = fmt.DataFrameFormatter(
        small,
        na_rep="NaN",
        index_names=True,
        header=True,
        index=True,
        bold_rows=True,
        escape=True,
        show_dimensions=pd.get_option("display.show_dimensions"),
        decimal=".",
        **sized,
    )
    html = fmt.DataFrameRenderer(formatter).to_html(notebook=True)
    (sn, sm), (n, m) = small.shape, (len(df), len(df.columns))
    return _with_size(html, "<p>%s columns</p>", f"{sn} rows × {sm}", f"{n} rows × {m}")


def _dims(shape: tuple[int, int]) -> str:
    return f"{shape[0]} rows x {shape[1]}"


def series_repr(s: Any) -> str:
    """pandas' ``repr(Series)`` of ``s`` (gathers the rows shown only)."""
    from pandas.io.formats import format as fmt

    params = fmt.get_series_repr_params()
    max_rows, min_rows = params["max_rows"], params["min_rows"]
    if pd.get_option("display.max_rows") != 0:  # ember.config's limits, where set
        max_rows = display_option("display.max_rows")
        min_rows = display_option("display.min_rows")
    rows = _rows_shown(len(s), max_rows, min_rows, series=True)
    params.update(max_rows=max_rows, min_rows=min_rows)
    if rows is None:
        return s.to_pandas().to_string(**params)
    small = s.iloc[rows[0]].to_pandas()
    params.update(max_rows=rows[1], min_rows=rows[2])
    text = small.to_string(**params)
    if isinstance(small.dtype, pd.CategoricalDtype):  # the categories line follows the footer
        head, sep, cats = text.rpartition("\nCategories (")
        return _with_size(head, "Length: %s", str(len(small)), str(len(s))) + sep + cats
    return _with_size(text, "Length: %s", str(len(small)), str(len(s)))


def index_repr(index: Any) -> str:
    """pandas' ``repr(Index)`` of ``index`` (gathers the labels shown only)."""
    if type(index).__name__ == "RangeIndex":  # pandas' RangeIndex: three integers
        return repr(index.to_pandas())
    n = len(index)
    limit = pd.get_option("display.max_seq_items") or n
    half = min(limit // 2, 10)
    if n <= limit or half < 1 or n <= 2 * half + 1:
        return repr(index.to_pandas())
    pos = np.concatenate([np.arange(half + 1), np.arange(n - half, n)])
    from ember.backend import asarray_on
    from ember.backend import xp as current_xp

    cols = getattr(index, "levels_columns", None) or [index.column]
    small = index.take(asarray_on(pos, cols[0].xp if cols else current_xp())).to_pandas()
    with pd.option_context("display.max_seq_items", 2 * half):
        text = repr(small)
    return _with_size(text, "length=%s", str(len(small)), str(n))

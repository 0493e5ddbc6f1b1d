"""read_json / write_json: pandas' JSON reader and writer on the host, columns moved to the device once.

JSON parsing is text-bound and pandas' orient / type-conversion rules (dates, numeric strings, index
orientation) are intricate, so ember delegates both directions to pandas for identical results; the
bytes come through ember's path layer (files, file objects, globs-free URLs, compression).
"""

from __future__ import annotations

import io
from typing import Any

import pandas as pd

from ember.io import _paths

_ORIENTS = (None, "split", "records", "index", "columns", "values", "table")


def read_json(
    path_or_buf: Any,
    *,
    orient: str | None = None,
    lines: bool = False,
    dtype: Any = None,
    convert_dates: Any = True,
    nrows: int | None = None,
    compression: Any = "infer",
    encoding: str = "utf-8",
    storage_options: dict | None = None,
    **kwargs: Any,
) -> Any:
    """Read JSON into an ember DataFrame, as ``pandas.read_json`` (orients as pandas; ``lines=True`` for
    JSON Lines)."""
    from ember.frame.construction import from_pandas_any

    if orient not in _ORIENTS:
        raise ValueError(f"read_json: orient={orient!r}; supported: {list(_ORIENTS)}")
    if kwargs.get("chunksize") is not None:
        raise NotImplementedError("read_json: chunksize is not supported by ember; read the whole file")
    if kwargs.get("typ", "frame") != "frame":
        raise NotImplementedError("read_json: typ='series' is not supported by ember; supported: 'frame'")
    name = _paths.display_name(path_or_buf)
    if isinstance(path_or_buf, str) and path_or_buf.lstrip()[:1] in ("{", "["):
        raise ValueError("read_json: pass a path, URL or file object; wrap literal JSON in io.StringIO")
    data = _paths.read_all(path_or_buf, compression, storage_options)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise UnicodeDecodeError(
            exc.encoding, exc.object, exc.start, exc.end, f"{exc.reason} in {name} at byte {exc.start}"
        ) from None
    if not text.strip():
        raise ValueError(f"{name}: the file is empty; expected JSON")
    try:
        pdf = pd.read_json(
            io.StringIO(text),
            orient=orient,
            lines=lines,
            dtype=dtype,
            nrows=nrows,
            convert_dates=convert_dates,
            **kwargs,
        )
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from exc
    return from_pandas_any(pdf)


def write_json(
    frame: Any,
    path_or_buf: Any = None,
    *,
    orient: str | None = None,
    lines: bool = False,
    date_format: str | None = None,
    double_precision: int = 10,
    index: bool | None = None,
    indent: int | None = None,
    compression: Any = "infer",
    storage_options: dict | None = None,
) -> Any:
    """Write ``frame`` as JSON (pandas' text); returns the text when no target is given."""
    text = frame.to_pandas().to_json(
        None,
        orient=orient,
        lines=lines,
        date_format=date_format,
        double_precision=double_precision,
        index=index,
        indent=indent,
    )
    if path_or_buf is None:
        return text
    if isinstance(path_or_buf, io.TextIOBase):
        path_or_buf.write(text)
        return None
    with _paths.open_output(path_or_buf, compression, storage_options) as f:
        f.write(text.encode("utf-8"))
    return None

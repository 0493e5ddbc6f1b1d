"""write_csv: an ember frame as CSV text, formatted by pandas' writer on the host (every to_csv option
formats exactly as pandas does), written through the path layer (files, file objects, URLs, codecs)."""

from __future__ import annotations

import csv as _csv
import io
from typing import Any

from ember.io import _paths


def write_csv(
    frame: Any,
    path_or_buf: Any = None,
    *,
    sep: str = ",",
    na_rep: str = "",
    float_format: Any = None,
    columns: Any = None,
    header: Any = True,
    index: bool = True,
    index_label: Any = None,
    mode: str = "w",
    encoding: str | None = None,
    compression: Any = "infer",
    quoting: int | None = None,
    quotechar: str = '"',
    lineterminator: str | None = None,
    date_format: str | None = None,
    doublequote: bool = True,
    escapechar: str | None = None,
    decimal: str = ".",
    storage_options: dict | None = None,
) -> Any:
    """Write ``frame`` as CSV (pandas' to_csv options and text); returns the text when no target is given.

    The text is formatted by pandas' writer on the host, so every option formats exactly as pandas does;
    the frame is copied to the host once for it."""
    pdf = frame.to_pandas()
    kwargs = dict(
        sep=sep,
        na_rep=na_rep,
        float_format=float_format,
        columns=columns,
        header=header,
        index=index,
        index_label=index_label,
        quoting=quoting if quoting is not None else _csv.QUOTE_MINIMAL,
        quotechar=quotechar,
        lineterminator=lineterminator,
        date_format=date_format,
        doublequote=doublequote,
        escapechar=escapechar,
        decimal=decimal,
    )
    text = pdf.to_csv(None, **kwargs)
    if path_or_buf is None:
        return text
    if _paths.is_file_like(path_or_buf) and isinstance(path_or_buf, io.TextIOBase):
        path_or_buf.write(text)
        return None
    payload = text.encode(encoding or "utf-8")
    with _paths.open_output(
        path_or_buf, compression, storage_options, mode="ab" if mode.startswith("a") else "wb"
    ) as f:
        f.write(payload)
    return None

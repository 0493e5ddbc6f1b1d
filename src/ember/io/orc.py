"""read_orc / write_orc through pyarrow.orc, typed as ``pandas.read_orc`` types the columns."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from ember.io import _paths


def read_orc(path: Any, columns: list | None = None, *, storage_options: dict | None = None) -> Any:
    """Read an ORC file (path, URL or file object) into an ember DataFrame, as ``pandas.read_orc``."""
    import pyarrow.orc as orc

    from ember.io.parquet import _pandas_meta, table_to_frame

    name = _paths.display_name(path)
    data = _paths.read_all(path, None, storage_options)
    try:
        table = orc.ORCFile(pa.BufferReader(data)).read(columns=columns)
    except (pa.ArrowException, OSError) as exc:
        raise pa.ArrowInvalid(f"{name}: cannot read as ORC ({type(exc).__name__}: {exc})") from exc
    return table_to_frame(table, _pandas_meta(table.schema), columns)


def write_orc(
    frame: Any, path: Any, *, index: bool | None = None, storage_options: dict | None = None
) -> None:
    """Write ``frame`` as ORC, as ``DataFrame.to_orc``."""
    import pyarrow.orc as orc

    table = pa.Table.from_pandas(frame.to_pandas(), preserve_index=index)
    with _paths.open_output(path, None, storage_options) as f:
        orc.write_table(table, f)

"""read_csv with pandas' options and results (the writer: ``io/csv_writer.py``).

Three parsers sit behind ``read_csv``; each gives pandas' values, dtypes, index and column order:

* the GPU tokenizer (``io/csv_gpu.py``) when the backend is the GPU and the dialect is the common one
  (single-byte separator, ``"`` quotes with doubled quotes, UTF-8, header row 0 or none, no comment /
  escapechar / thousands / decimal / skiprows / dtype / parse_dates / converters). ``engine="ember"``
  runs the same algorithm (its NumPy reference) on the CPU.
* pyarrow.csv on the host for everything else it can express, configured with pandas' NA strings and
  bool spellings, with date/time inference turned back into strings (pandas only parses dates that
  ``parse_dates`` names).
* pandas' C parser (python parser for regex separators) where pyarrow cannot honour an option: comment,
  thousands, decimal other than '.', skiprows as a list or callable, na_values per column, ragged rows
  (pandas pads short rows and applies ``on_bad_lines`` to long ones), quoting=QUOTE_NONE, skipfooter,
  converters. Its result is converted to columns once.
"""

from __future__ import annotations

import io
import logging
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from ember.io import _paths
from ember.io.csv_arrow import _arrow_read, _NeedsPandas, _raise_utf8
from ember.io.csv_reference import FALSE_STRINGS, NA_STRINGS, TRUE_STRINGS, Unsupported, Words, record_spans

_SUPPORTED_ON_BAD_LINES = ("error", "warn", "skip")
_PANDAS_ONLY = (
    "converters",
    "skipfooter",
    "lineterminator",
    "skipinitialspace",
    "quoting",
    "date_format",
    "dayfirst",
    "cache_dates",
    "memory_map",
    "float_precision",
    "na_filter",
    "low_memory",
    "delim_whitespace",
    "encoding_errors",
    "dtype_backend",
    "verbose",
)


def read_csv(
    filepath_or_buffer: Any,
    *,
    sep: Any = ",",
    delimiter: Any = None,
    header: Any = "infer",
    names: Any = None,
    index_col: Any = None,
    usecols: Any = None,
    dtype: Any = None,
    parse_dates: Any = None,
    na_values: Any = None,
    keep_default_na: bool = True,
    true_values: Any = None,
    false_values: Any = None,
    skiprows: Any = None,
    nrows: int | None = None,
    comment: str | None = None,
    quotechar: str = '"',
    doublequote: bool = True,
    escapechar: str | None = None,
    decimal: str = ".",
    thousands: str | None = None,
    encoding: str | None = "utf-8",
    compression: Any = "infer",
    on_bad_lines: Any = "error",
    chunksize: int | None = None,
    iterator: bool = False,
    skip_blank_lines: bool = True,
    engine: str | None = None,
    storage_options: dict | None = None,
    **pandas_only: Any,
) -> Any:
    """Read a CSV file into an ember DataFrame, as ``pandas.read_csv`` with the same options.

    ``filepath_or_buffer``: a path, a file object, or an fsspec URL (s3://, gs://, http(s)://, memory://;
    credentials in ``storage_options``). ``engine``: None (GPU tokenizer when possible, else pyarrow, else
    pandas' C parser), "ember" (the tokenizer's algorithm, also on the CPU), "pyarrow", or "c"/"python"
    (pandas' parsers). With ``chunksize`` or ``iterator=True`` returns a reader yielding DataFrames; each
    chunk infers its own dtypes, as pandas' chunks do.
    """
    opts = dict(
        sep=delimiter if delimiter is not None else sep,
        header=header,
        names=names,
        index_col=index_col,
        usecols=usecols,
        dtype=dtype,
        parse_dates=parse_dates,
        na_values=na_values,
        keep_default_na=keep_default_na,
        true_values=true_values,
        false_values=false_values,
        skiprows=skiprows,
        nrows=nrows,
        comment=comment,
        quotechar=quotechar,
        doublequote=doublequote,
        escapechar=escapechar,
        decimal=decimal,
        thousands=thousands,
        encoding=encoding,
        on_bad_lines=on_bad_lines,
        skip_blank_lines=skip_blank_lines,
        **pandas_only,
    )
    _validate(opts, engine, pandas_only)
    name = _paths.display_name(filepath_or_buffer)
    if (chunksize is not None or iterator) and _is_utf8(encoding):
        # streamed a block at a time: the file may be larger than host and device memory
        return CsvReader(filepath_or_buffer, name, opts, engine, chunksize, compression, storage_options)
    if engine in (None, "ember") and _is_utf8(encoding):
        path = _paths.local_plain_file(filepath_or_buffer, compression)
        if path is not None:
            got = _read_file_on_device(path, name, opts)
            if got is not _NOT_READ:
                return got
    data = _paths.read_all(filepath_or_buffer, compression, storage_options)
    data = _to_utf8(data, encoding, name)
    if _blank(data) and opts["names"] is None:
        raise pd.errors.EmptyDataError("No columns to parse from file")
    if chunksize is not None or iterator:
        return CsvReader(data, name, opts, engine, chunksize, None, None)
    return _parse(data, name, opts, engine)


def _is_utf8(encoding: str | None) -> bool:
    return (encoding or "utf-8").lower().replace("_", "-") in ("utf-8", "utf8", "utf-8-sig")


def _blank(data: bytes) -> bool:
    """Whether the file holds nothing but line breaks, without copying it (bytes.strip would)."""
    head = data[: 1 << 16]
    if head.strip(b"\r\n"):
        return False
    return len(data) <= len(head) or not data.strip(b"\r\n")


def _validate(opts: dict, engine: str | None, pandas_only: dict) -> None:
    if engine not in (None, "ember", "pyarrow", "c", "python"):
        raise ValueError(f"read_csv: engine={engine!r}; supported: None, 'ember', 'pyarrow', 'c', 'python'")
    unknown = set(pandas_only) - set(_PANDAS_ONLY)
    if unknown:
        raise TypeError(f"read_csv() got unexpected keyword arguments {sorted(unknown)}")
    bad = opts["on_bad_lines"]
    if bad not in _SUPPORTED_ON_BAD_LINES and not callable(bad):
        raise ValueError(f"Argument {bad} is invalid for on_bad_lines")
    if opts["header"] not in ("infer", None) and not isinstance(opts["header"], int):
        raise NotImplementedError(
            "read_csv: header as a list (MultiIndex columns) is not supported by ember; "
            "supported: 'infer', None or one row number"
        )
    if opts["index_col"] is True:
        raise ValueError("The value of index_col couldn't be 'True'")


def _to_utf8(data: bytes, encoding: str | None, name: str) -> bytes:
    """UTF-8 bytes without a BOM; other encodings are decoded here, errors naming the file and byte."""
    enc = (encoding or "utf-8").lower().replace("_", "-")
    if enc in ("utf-8", "utf8", "utf-8-sig"):
        return data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    try:
        text = data.decode(enc)
    except UnicodeDecodeError as exc:
        raise UnicodeDecodeError(
            exc.encoding, exc.object, exc.start, exc.end, f"{exc.reason} in {name} at byte {exc.start}"
        ) from None
    except LookupError as exc:
        raise LookupError(f"unknown encoding: {encoding}") from exc
    return text.lstrip("\ufeff").encode("utf-8")


# --- parser choice -----------------------------------------------------------------------------------
def _gpu_dialect(opts: dict) -> bool:
    """The options the tokenizer handles itself (everything else goes to a host parser)."""
    sep = opts["sep"]
    return (
        isinstance(sep, str)
        and len(sep.encode()) == 1
        and sep not in '"\r\n'
        and opts["quotechar"] == '"'
        and opts["doublequote"]
        and opts["escapechar"] is None
        and opts["comment"] is None
        and opts["thousands"] is None
        and opts["decimal"] == "."
        and opts["header"] in ("infer", 0, None)
        and opts["skiprows"] in (None, 0)
        and opts["dtype"] is None
        and not opts["parse_dates"]
        and opts["skip_blank_lines"]
        and opts["on_bad_lines"] in _SUPPORTED_ON_BAD_LINES
        and not isinstance(opts["na_values"], dict)
        and not any(k in opts for k in _PANDAS_ONLY)
        and not (opts["header"] is None and opts["names"] is None and opts["index_col"] is not None)
    )


def _arrow_dialect(opts: dict) -> bool:
    sep = opts["sep"]
    skiprows = opts["skiprows"]
    return (
        isinstance(sep, str)
        and len(sep) == 1
        and opts["comment"] is None
        and opts["thousands"] is None
        and opts["decimal"] == "."
        and (skiprows is None or isinstance(skiprows, int))
        and not isinstance(opts["na_values"], dict)
        and not callable(opts["on_bad_lines"])
        and not any(k in opts for k in _PANDAS_ONLY)
        and isinstance(opts["quotechar"], str)
        and len(opts["quotechar"]) == 1
    )


# Which parser gave each frame, and each time one gave way to the next: read_csv never changes parser
# silently. ``parser_report()`` counts them; every fallback is also logged (logger "ember.io.csv").
_log = logging.getLogger("ember.io.csv")
_parsers: Counter[str] = Counter()
_last: list[str | None] = [None]


def parser_report() -> dict[str, int]:
    """How many frames each parser gave since start-up ("ember", "pyarrow", "c", "python") and how many
    times one gave way to the next ("ember->host", "pyarrow->c"): the automatic engine falls back
    visibly; an explicit ``engine="ember"`` never does (it raises NotImplementedError instead)."""
    return dict(_parsers)


def last_parser() -> str | None:
    """The parser that gave the last frame read_csv returned (or a chunk of it)."""
    return _last[0]


def _ran(parser: str, frame: Any) -> Any:
    _parsers[parser] += 1
    _last[0] = parser
    return frame


def _fell_back(step: str, reason: str, name: str) -> None:
    _parsers[step] += 1
    _log.info("read_csv(%s): %s parser gave way: %s", name, step, reason)


def _parse(data: bytes, name: str, opts: dict, engine: str | None) -> Any:
    from ember.backend import current_device

    if engine in ("c", "python"):
        return _ran(engine, _from_pandas_frame(_pandas_read(data, opts, engine)))
    if engine == "ember" or (engine is None and current_device() == "gpu" and _gpu_dialect(opts)):
        if not _gpu_dialect(opts):
            raise NotImplementedError(
                "read_csv(engine='ember'): this dialect needs engine='pyarrow' or 'c' "
                "(supported: one-byte sep, '\"' quotes, no comment/escapechar/"
                "thousands/skiprows/dtype/parse_dates)"
            )
        try:
            return _ran("ember", _ember_read(data, {**opts, "name": name}))
        except Unsupported as exc:
            if engine == "ember":  # asked for by name: ember's tokenizer reads the file or says why not
                raise _not_by_ember(exc) from None
            # ragged rows, unbalanced quotes ...: the host parsers apply pandas' rules
            _fell_back("ember->host", str(exc), name)
    if engine != "c" and _arrow_dialect(opts):
        try:
            return _ran("pyarrow", _arrow_read(data, name, opts))
        except _NeedsPandas as exc:
            _fell_back("pyarrow->c", str(exc) or "pandas' rules", name)
    parser = "c" if len(str(opts["sep"])) == 1 else "python"
    return _ran(parser, _from_pandas_frame(_pandas_read(data, opts, parser)))


def _not_by_ember(exc: Exception) -> NotImplementedError:
    from ember.frame._fallback import Unsupported as NotSupported
    from ember.io.csv_reference import WideIntegers

    if isinstance(exc, WideIntegers):
        return NotSupported(f"read_csv(engine='ember'): {exc}")
    return NotSupported(
        f"read_csv(engine='ember'): {exc}: ember's tokenizer does not read this input; "
        "engine=None reads it with pyarrow or pandas' parser"
    )


# --- the tokenizer path (GPU kernels, or their NumPy reference) -----------------------------------------
def _words(opts: dict) -> Words:
    na = tuple(NA_STRINGS) if opts["keep_default_na"] else ()
    extra = opts["na_values"]
    if extra is not None:
        na = na + tuple(str(v) for v in ([extra] if isinstance(extra, (str, int, float)) else extra))
    true = TRUE_STRINGS + tuple(opts["true_values"] or ())
    false = FALSE_STRINGS + tuple(opts["false_values"] or ())
    return Words(tuple(dict.fromkeys(na)), true, false)


_NOT_READ = object()
_FILE_PATH_MIN_BYTES = 1 << 20  # smaller files: reading them into bytes first costs nothing worth saving
_BOM = b"\xef\xbb\xbf"


def _read_file_on_device(path: str, name: str, opts: dict) -> Any:
    """A plain local UTF-8 file read by the GPU tokenizer straight from disk into pinned memory (no
    bytes object, no host copy: half of read_csv's time on a 500 MB file was ``f.read()``), or
    ``_NOT_READ`` when this path does not apply: no GPU, another dialect, a small, blank or non-ASCII
    file, or records the tokenizer hands to the host parsers (they then read the file as bytes)."""
    from ember.backend import current_device

    if current_device() != "gpu" or not _gpu_dialect(opts):
        return _NOT_READ
    size = os.path.getsize(path)
    if size < _FILE_PATH_MIN_BYTES:
        return _NOT_READ
    with open(path, "rb") as f:
        head = f.read(1 << 16)
    if not head.strip(b"\r\n"):
        return _NOT_READ
    from ember.io.csv_gpu import read_file_gpu

    skip = len(_BOM) if head.startswith(_BOM) else 0
    try:
        got = read_file_gpu(
            path, skip, size, opts["sep"], _header(opts), opts["names"], _words(opts), opts["nrows"]
        )
    except Unsupported as exc:
        _fell_back("ember file->bytes", str(exc), name)
        return _NOT_READ
    if got is None:
        return _NOT_READ
    names, cols = got
    return _ran("ember", _finish(dict(zip(names, cols, strict=False)), {**opts, "name": name}))


def _header(opts: dict) -> int | None:
    header = opts["header"]
    return (0 if opts["names"] is None else None) if header == "infer" else header


def _ember_read(data: bytes, opts: dict) -> Any:
    """The tokenizer path; ``opts["name"]`` names the file in errors."""
    from ember.backend import current_device

    header = _header(opts)
    if current_device() == "gpu":
        from ember.io.csv_gpu import read_buffer_gpu

        if not data.isascii():  # the kernels take bytes as they come: check UTF-8 here (ASCII is valid)
            _raise_utf8(data, opts.get("name", "<csv>"))
        names, cols = read_buffer_gpu(data, opts["sep"], header, opts["names"], _words(opts), opts["nrows"])
    else:
        _raise_utf8(data, "<csv>" if "name" not in opts else opts["name"])
        names, cols = _host_tokenizer(data, header, opts)
    return _finish(dict(zip(names, cols, strict=False)), opts)


def _host_tokenizer(data: bytes, header: int | None, opts: dict) -> tuple[list, list]:
    """The tokenizer's NumPy reference over bytes, a piece of at most the GPU path's chunk size at a time
    (the device's piece logic); in one pass when pieces disagree on a column's type."""
    from ember.io.csv_chunks import host_piece, read_chunked
    from ember.io.csv_gpu import CHUNK_BYTES
    from ember.io.csv_reference import read_buffer

    args = (opts["sep"], header, opts["names"], _words(opts), opts["nrows"])
    got = read_chunked(host_piece(data, opts["sep"]), 0, len(data), CHUNK_BYTES, *args) if data else None
    return got if got is not None else read_buffer(np.frombuffer(data, dtype=np.uint8), *args)


def _finish(columns: dict, opts: dict) -> Any:
    """usecols and index_col applied to parsed columns (file order kept, as pandas does)."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.index import Index, MultiIndex

    if any(k == "" for k in columns):  # pandas names empty header fields "Unnamed: <position>"
        columns = {(f"Unnamed: {i}" if k == "" else k): c for i, (k, c) in enumerate(columns.items())}
    names = list(columns)
    usecols = opts["usecols"]
    if usecols is not None:
        keep = _select_usecols(names, usecols)
        columns = {k: columns[k] for k in names if k in keep}
        names = list(columns)
    index_col = opts["index_col"]
    if index_col is None or index_col is False:
        return DataFrame._from_columns(columns)
    labels = index_col if isinstance(index_col, (list, tuple)) else [index_col]
    labels = [names[i] if isinstance(i, int) and i not in columns else i for i in labels]
    for lab in labels:
        if lab not in columns:
            raise ValueError(f"Index {lab} invalid")
    idx_cols = [columns.pop(lab) for lab in labels]
    labels = [None if isinstance(lab, str) and lab.startswith("Unnamed: ") else lab for lab in labels]
    if len(idx_cols) == 1:
        index = Index._from_column(idx_cols[0], labels[0])
    else:
        index = MultiIndex(idx_cols, labels)
    return DataFrame._from_columns(columns, index) if columns else DataFrame._from_columns({}, index)


def _select_usecols(names: list, usecols: Any) -> set:
    if callable(usecols):
        return {n for n in names if usecols(n)}
    usecols = list(usecols)
    if all(isinstance(u, int) for u in usecols):
        bad = [u for u in usecols if u >= len(names)]
        if bad:
            raise pd.errors.ParserError(
                f"Defining usecols with out-of-bounds indices is not allowed. {bad} are out-of-bounds."
            )
        return {names[u] for u in usecols}
    missing = [u for u in usecols if u not in names]
    if missing:
        raise ValueError(f"Usecols do not match columns, columns expected but not found: {missing}")
    return set(usecols)


# --- pandas' parser ------------------------------------------------------------------------------------
def _pandas_read(data: bytes, opts: dict, engine: str) -> pd.DataFrame:
    kwargs = {k: v for k, v in opts.items() if k != "encoding"}
    kwargs["encoding"] = "utf-8"
    if engine == "python":
        kwargs.pop("low_memory", None)
    return pd.read_csv(io.BytesIO(data), engine=engine, **kwargs)


def _from_pandas_frame(pdf: pd.DataFrame) -> Any:
    from ember.frame._fallback import Unsupported as NotSupported
    from ember.frame.construction import from_pandas_any

    for label, dt in pdf.dtypes.items():
        if dt == object and pd.api.types.infer_dtype(pdf[label], skipna=True) in ("integer", "mixed-integer"):
            raise NotSupported(
                f"read_csv: column {label!r} holds integers outside the int64 and uint64 ranges, which "
                "pandas keeps as Python ints in an object column, not supported by ember; pass "
                f"dtype={{{label!r}: 'float64'}} (rounded) or dtype={{{label!r}: str}} (exact digits)"
            )

    return from_pandas_any(pdf)


# --- chunks -------------------------------------------------------------------------------------------
class _RecordBlocks:
    """Complete CSV records of a binary stream, one block of bytes at a time. A block is cut after its
    last complete record (quote-aware: blocks start at record boundaries, so the quote parity holds);
    the cut record is carried into the next block. A record longer than a block grows the read."""

    def __init__(self, stream: Any, block_size: int) -> None:
        self._stream, self._block = stream, block_size
        self._tail = b""
        self._eof = False
        self._first = True

    def next(self) -> tuple[bytes, np.ndarray, np.ndarray] | None:
        """(buffer, record starts, record ends) of the next complete records; None at the end."""
        size = self._block
        while True:
            chunk = b"" if self._eof else self._stream.read(size)
            if isinstance(chunk, str):
                chunk = chunk.encode("utf-8")
            if not chunk:
                self._eof = True
            data = self._tail + bytes(chunk)
            if self._first and data:
                data = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
                self._first = False
            if not data:
                return None
            starts, ends = record_spans(np.frombuffer(data, dtype=np.uint8))
            if self._eof:
                self._tail = b""
                return (data, starts, ends) if len(starts) else None
            if len(starts) >= 2:
                self._tail = data[int(starts[-1]) :]
                return data, starts[:-1], ends[:-1]
            self._tail, size = data, size * 2


class CsvReader:
    """Iterator over DataFrames of ``chunksize`` rows (``get_chunk(n)`` reads n rows), as pandas' TextFileReader.

    The file is streamed in blocks of records (quote-aware cuts), so it may be larger than host and
    device memory: only the records of the chunk being parsed are held. Each chunk is the header plus
    its records, parsed separately so each infers its own dtypes as pandas' chunks do."""

    block_size = 64 << 20

    def __init__(
        self,
        source: Any,
        name: str,
        opts: dict,
        engine: str | None,
        chunksize: int | None,
        compression: Any,
        storage_options: dict | None,
    ) -> None:
        import contextlib

        if chunksize is not None and (not isinstance(chunksize, int) or chunksize < 1):
            raise ValueError("'chunksize' must be an integer >=1")
        if (
            opts["quotechar"] != '"'
            or opts["escapechar"] is not None
            or opts["comment"] is not None
            or not (opts["skiprows"] is None or isinstance(opts["skiprows"], int))
        ):
            raise NotImplementedError(
                "read_csv(chunksize=): supported with '\"' quotes, no escapechar/comment, skiprows as an int"
            )
        self._stack = contextlib.ExitStack()
        stream = self._stack.enter_context(_paths.open_binary(source, compression, storage_options))
        self._blocks = _RecordBlocks(stream, self.block_size)
        self._buf, self._starts, self._ends, self._pos = b"", np.zeros(0, np.int64), np.zeros(0, np.int64), 0
        header = opts["header"]
        if header == "infer":
            header = 0 if opts["names"] is None else None
        n_head = (opts["skiprows"] or 0) + (0 if header is None else header + 1)
        head = self._take(n_head) if n_head else []
        if len(head) < n_head or (not head and opts["names"] is None and not self._more()):
            self.close()
            raise pd.errors.EmptyDataError("No columns to parse from file")
        head_bytes = b"".join(head)
        self._head = head_bytes if head_bytes.endswith(b"\n") or not head_bytes else head_bytes + b"\n"
        self._left = opts["nrows"]  # records still to read (None: all)
        self._name, self._engine, self.chunksize = name, engine, chunksize
        self._opts = {**opts, "nrows": None}
        self._offset = 0
        self._emitted = False

    def _more(self) -> bool:
        """Whether another record is available (reads the next block when the current one is used)."""
        while self._pos >= len(self._starts):
            block = self._blocks.next()
            if block is None:
                return False
            self._buf, self._starts, self._ends = block
            self._pos = 0
        return True

    def _take(self, count: int | None) -> list[bytes]:
        """The bytes of up to ``count`` next records (None: all), in runs of consecutive records."""
        parts, got = [], 0
        while (count is None or got < count) and self._more():
            take = len(self._starts) - self._pos
            if count is not None:
                take = min(take, count - got)
            parts.append(self._buf[int(self._starts[self._pos]) : int(self._ends[self._pos + take - 1])])
            self._pos += take
            got += take
        return parts

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        return self.get_chunk()

    def get_chunk(self, size: int | None = None) -> Any:
        from ember.frame.index import RangeIndex

        size = size or self.chunksize
        if self._left is not None:
            size = self._left if size is None else min(size, self._left)
        body = self._take(size) if size is None or size > 0 else []
        if not body and (self._offset or not self._head or self._emitted):
            self.close()
            raise StopIteration
        self._emitted = True  # a header-only file gives one empty frame with its columns, as pandas
        frame = _parse(self._head + b"".join(body), self._name, self._opts, self._engine)
        if self._left is not None:
            self._left -= len(frame)
        if isinstance(frame.index, RangeIndex):
            frame.index = RangeIndex(self._offset, self._offset + len(frame))
        self._offset += len(frame)
        return frame

    def read(self, nrows: int | None = None) -> Any:
        return self.get_chunk(nrows)

    def close(self) -> None:
        self._stack.close()
        self._blocks = _RecordBlocks(io.BytesIO(b""), 1)
        self._starts, self._pos = np.zeros(0, np.int64), 0

    def __enter__(self) -> CsvReader:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

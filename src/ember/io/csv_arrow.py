"""read_csv's pyarrow host path: pyarrow.csv configured with pandas' NA strings and bool spellings, its
types turned into pandas' where they differ (dates kept as text, integers with NA as float64, True /
False in any case as booleans), and the inputs pyarrow reads otherwise than pandas handed to pandas'
parser (``_NeedsPandas``): lines of spaces, padded numbers, ragged rows, unterminated quotes, integers
outside int64 (pyarrow rounds them to float64), NaN spellings pandas keeps as text."""

from __future__ import annotations

import io
import re
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.io.csv_reference import record_spans


class _NeedsPandas(Exception):
    """pyarrow saw something only pandas' parser treats as pandas does (ragged rows ...)."""


def _arrow_read(data: bytes, name: str, opts: dict) -> Any:
    import pyarrow.csv as pacsv

    from ember.io.csv import _finish, _words

    if opts["skip_blank_lines"] and _may_have_spaces_line(data):
        raise _NeedsPandas()  # pandas skips a line of spaces / tabs only; pyarrow reads it as a value

    header = opts["header"]
    names = opts["names"]
    if header == "infer":
        header = 0 if names is None else None
    skip = (opts["skiprows"] or 0) + (header or 0)
    if header is None and names is None and opts["index_col"] is not None:
        raise _NeedsPandas()
    if opts["nrows"] is not None:
        data = _cut_rows(data, skip + (0 if header is None else 1), opts["nrows"], opts)
    quote = opts["quotechar"].encode() if opts["quotechar"] else b""
    if opts["escapechar"] is None and quote and quote in data and data.count(quote) % 2:
        raise _NeedsPandas()  # an unterminated quote: pyarrow accepts it at EOF, pandas raises
    read = pacsv.ReadOptions(
        skip_rows=skip,
        column_names=list(map(str, names)) if names is not None else None,
        autogenerate_column_names=header is None and names is None,
        block_size=64 << 20,
        skip_rows_after_names=1 if (header is not None and names is not None) else 0,
    )
    parse = pacsv.ParseOptions(
        delimiter=opts["sep"],
        quote_char=opts["quotechar"] or False,
        double_quote=opts["doublequote"],
        escape_char=opts["escapechar"] or False,
        newlines_in_values=True,
        ignore_empty_lines=opts["skip_blank_lines"],
    )  # a ragged row raises ArrowInvalid -> pandas' parser applies on_bad_lines (no per-row callback:
    # pyarrow's invalid_row_handler slowed every read by a third)
    words = _words(opts)
    convert = pacsv.ConvertOptions(
        null_values=list(words.na),
        true_values=list(words.true),
        false_values=list(words.false),
        strings_can_be_null=True,
        quoted_strings_can_be_null=True,
        timestamp_parsers=["\x01never"],
    )
    try:
        if opts["dtype"] is not None and not isinstance(opts["dtype"], dict):  # one dtype: needs the names
            names_now = pacsv.open_csv(io.BytesIO(data), read, parse).schema.names
            convert.column_types = _arrow_types(opts, names_now)
        else:
            convert.column_types = _arrow_types(opts, None)
        table = pacsv.read_csv(io.BytesIO(data), read, parse, convert)
    except pa.ArrowInvalid as exc:
        msg = str(exc)
        if "UTF8" in msg or "utf8" in msg.lower():
            _raise_utf8(data, name)
        raise _NeedsPandas() from exc  # pandas' parser gives pandas' answer (or its error)
    if any(pa.types.is_binary(f.type) or pa.types.is_large_binary(f.type) for f in table.schema):
        _raise_utf8(data, name)
    temporal = [
        f.name
        for f in table.schema
        if pa.types.is_date(f.type) or pa.types.is_time(f.type) or pa.types.is_timestamp(f.type)
    ]
    if temporal:  # pandas keeps unparsed dates as text: read those columns again as strings
        convert.column_types = {
            **_arrow_types(opts, table.column_names),
            **dict.fromkeys(temporal, pa.string()),
        }
        table = pacsv.read_csv(io.BytesIO(data), read, parse, convert)
    if _padded_strings(table):
        raise _NeedsPandas()  # pandas reads " 1" as a number, pyarrow as text
    if _may_hold_wide_integers(table, data):
        raise _NeedsPandas("integers outside int64")  # pyarrow reads them as float64, rounded
    if _unlisted_nan(table):
        raise _NeedsPandas("a NaN spelling pandas keeps as text")
    labels: list[Any] = list(names) if names is not None else table.column_names
    if header is None and names is None:
        labels = list(range(table.num_columns))
    if len(set(map(str, labels))) != len(labels) or table.num_rows == 0:
        raise _NeedsPandas()  # duplicate names are mangled, header-only files typed by pandas' rules
    columns = {lab: _arrow_column(table.column(i), lab, opts) for i, lab in enumerate(labels)}
    return _finish(columns, opts)


_SPACES_LINE = re.compile(rb"(?:^|\n)[ \t]+\r?(?:\n|$)")


def _may_have_spaces_line(data: bytes) -> bool:
    """Whether a line holds only spaces and tabs (or such a line inside a quoted field: pandas then
    reads the file, which is right either way). ``bytes.find`` screens first: the regex is slower."""
    if not (data[:1] in (b" ", b"\t") or b"\n " in data or b"\n\t" in data):
        return False
    return _SPACES_LINE.search(data) is not None


_LONG_DIGITS = re.compile(rb"(?<![\d.])\d{19,}(?![\d.eE])")  # an integer of 19+ digits (not a fraction)


def _may_hold_wide_integers(table: pa.Table, data: bytes) -> bool:
    """Whether a float64 column may hold integers outside int64 (pyarrow infers float64 for them and
    rounds: pandas gives uint64, or Python ints): a finite value of magnitude 2**63 or more, and 19
    digits in a row somewhere in the file."""
    import pyarrow.compute as pc

    for col in table.columns:
        if pa.types.is_floating(col.type) and col.null_count < len(col):
            big = pc.and_(pc.greater_equal(pc.abs(col), 2.0**63), pc.is_finite(col))
            if pc.any(big).as_py():
                return _LONG_DIGITS.search(data) is not None
        # pandas keeps the missing values of a text column as text when it holds integers above uint64
        if (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)) and col.null_count:
            if (
                _LONG_DIGITS.search(data) is not None
                and pc.any(pc.match_substring_regex(col, r"^\+?\d{20,}$")).as_py()
            ):
                return True
    return False


def _unlisted_nan(table: pa.Table) -> bool:
    """Whether a float column holds NaN: the NA words become nulls, so NaN came from a spelling pyarrow's
    float parser accepts and pandas' does not ("NAN", "+nan", or "nan" with keep_default_na=False):
    pandas keeps the column as text."""
    import pyarrow.compute as pc

    return any(pa.types.is_floating(col.type) and pc.any(pc.is_nan(col)).as_py() for col in table.columns)


def _padded_strings(table: pa.Table) -> bool:
    """Whether a text column holds padded numbers (" 1"), which pandas reads as numbers and pyarrow as
    text. Padded words stay text in both."""
    import pyarrow.compute as pc

    for col in table.columns:
        if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
            trimmed = pc.utf8_trim_whitespace(col)
            if not pc.any(pc.not_equal(col, trimmed)).as_py():
                continue
            words = pc.drop_null(pc.filter(trimmed, pc.not_equal(trimmed, "")))
            try:
                pc.cast(words.slice(0, 256), pa.float64())  # words fail fast on a sample
                pc.cast(words, pa.float64())
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                continue  # some value is not a number: pandas keeps the column as text too
            return True
    return False


def _cut_rows(data: bytes, skip: int, nrows: int, opts: dict) -> bytes:
    """The first ``skip`` records plus ``nrows`` data records (so types are inferred from those rows only)."""
    if opts["quotechar"] != '"' or opts["escapechar"] is not None:
        raise _NeedsPandas()
    _, ends = record_spans(np.frombuffer(data, dtype=np.uint8))
    keep = skip + nrows
    return data if keep >= len(ends) else data[: int(ends[keep - 1])] if keep else b""


def _arrow_types(opts: dict, names: list | None) -> dict:
    """pyarrow column types for the dtype= entries it can parse itself; the rest are read as strings."""
    dtype = opts["dtype"]
    dates = opts["parse_dates"]
    out: dict = {}
    if isinstance(dates, (list, tuple)):
        for d in dates:
            if isinstance(d, str):
                out[d] = pa.string()
    if dtype is None:
        return out
    items = dtype.items() if isinstance(dtype, dict) else [(n, dtype) for n in (names or [])]
    for col, dt in items:
        out[str(col)] = _arrow_type(dt)
    return out


def _arrow_type(dt: Any) -> pa.DataType:
    from ember.column.dtypes import resolve

    resolved = resolve(dt)
    if isinstance(resolved, np.dtype) and resolved.kind in "iufb":
        return pa.from_numpy_dtype(resolved)
    return pa.string()


def _arrow_column(arr: pa.ChunkedArray, label: Any, opts: dict) -> Any:
    from ember.backend import xp as current_xp
    from ember.column import NumericColumn, from_arrow, from_pandas
    from ember.column.dtypes import resolve

    xp = current_xp()
    t = arr.type
    wanted = _dtype_for(opts["dtype"], label)
    if _is_date_column(opts["parse_dates"], label):
        return from_pandas(_to_datetime(arr.to_pandas()), xp)
    if wanted is not None:
        resolved = resolve(wanted)
        if isinstance(resolved, np.dtype) and resolved.kind in "iub" and arr.null_count:
            raise ValueError(f"Integer column has NA values in column {label}")
        if not (isinstance(resolved, np.dtype) and resolved.kind in "iufb"):
            s = arr.to_pandas() if pa.types.is_string(t) or pa.types.is_large_string(t) else arr.to_pandas()
            return from_pandas(s.astype(resolved), xp)
        return from_arrow(arr, xp)
    if pa.types.is_null(t):
        return NumericColumn(xp.full(len(arr), np.nan, dtype=np.float64))
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        arr = _folded_bools(arr)
    if pa.types.is_integer(t) and arr.null_count:
        return from_arrow(arr.cast(pa.float64(), safe=False), xp)
    return from_arrow(arr, xp)


def _folded_bools(arr: pa.ChunkedArray) -> pa.ChunkedArray:
    """pandas reads its own words True / False in any case ("tRUE"): a text column of those only (and
    missing values) is boolean. The first value screens; a column of other text costs one comparison."""
    import pyarrow.compute as pc

    values = arr.drop_null()
    if len(values) == 0 or values[0].as_py().lower() not in ("true", "false"):
        return arr
    if not pc.all(pc.is_in(pc.utf8_lower(values), value_set=pa.array(["true", "false"]))).as_py():
        return arr
    return pc.equal(pc.utf8_lower(arr), "true")


def _dtype_for(dtype: Any, label: Any) -> Any:
    if dtype is None:
        return None
    if isinstance(dtype, dict):
        return dtype.get(label, dtype.get(str(label)))
    return dtype


def _is_date_column(parse_dates: Any, label: Any) -> bool:
    if not parse_dates or parse_dates is True:
        return False
    return label in parse_dates


def _to_datetime(s: pd.Series) -> pd.Series:
    try:
        return pd.to_datetime(s)
    except (ValueError, TypeError, OverflowError):
        return s  # pandas leaves columns it cannot parse as text


def _raise_utf8(data: bytes, name: str) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnicodeDecodeError(
            "utf-8",
            exc.object,
            exc.start,
            exc.end,
            f"{exc.reason} in {name} at byte {exc.start}; pass encoding= (e.g. 'latin-1')",
        ) from None

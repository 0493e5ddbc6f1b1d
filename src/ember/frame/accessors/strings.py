"""``Series.str``: validates arguments and wraps the results of ops.strings / ops.regex."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import NumericColumn, StringColumn
from ember.ops import lists as L
from ember.ops import string_layout as SL
from ember.ops import strings as S


def _like(col: Any, template: StringColumn) -> Any:
    """``col`` with ``template``'s pandas string dtype (a column made from a scalar has the default)."""
    return StringColumn(col.offsets, col.chars, col.mask, template.pd_dtype)


def _unsupported(method: str, what: str) -> NotImplementedError:
    return NotImplementedError(f"Series.str.{method}: {what}")


def string_methods(series: Any) -> Any:
    """``Series.str``: string methods, or the few list methods pandas offers on lists of strings."""
    from ember.column.list import ListColumn

    if isinstance(series.column, ListColumn):
        return ListMethods(series)
    return StringMethods(series)


class ListMethods:
    """``.str`` on a list column (``str.split(expand=False)``, ``str.findall``): get / [i], len, join."""

    def __init__(self, series: Any) -> None:
        self._s = series
        self._col = series.column

    def get(self, i: int) -> Any:
        return self._s._wrap(L.list_get(self._col, i))

    def __getitem__(self, key: Any) -> Any:
        if not isinstance(key, int):
            raise _unsupported("__getitem__", f"{key!r} on lists (an integer position is supported)")
        return self.get(key)

    def len(self) -> Any:
        return self._s._wrap(L.list_len(self._col))

    def join(self, sep: str) -> Any:
        return self._s._wrap(L.list_join(self._col, sep))

    def __getattr__(self, name: str) -> Any:
        import pandas as pd

        what = f"Series.str.{name}: the Series holds lists; ember supports get, [i], len and join on them"
        if name.startswith("_") or not hasattr(pd.Series.str, name):
            raise AttributeError(what)
        raise NotImplementedError(what)  # pandas answers (NaN for the rows that hold no string)


def _numbers_beside_na(src: StringColumn, col: Any) -> bool:
    """Whether a numeric result (len, count, find ...) of an object column whose missing value is
    pd.NA has a missing row: pandas gives an object column of ints and <NA> there. One sync."""
    if not (isinstance(col, NumericColumn) and col.data.dtype.kind in "iuf"):
        return False
    return src.pd_dtype == object and src.na is pd.NA and src.mask is not None and not bool(src.mask.all())


class StringMethods:
    """pandas' ``.str`` accessor; positions are characters (UTF-8 decoded on the device)."""

    def __init__(self, series: Any) -> None:
        if not isinstance(series.column, StringColumn) and series.column.dtype == object and not len(series):
            xp = series.column.xp  # pandas' .str over an object column without rows: as strings
            empty = StringColumn(
                xp.zeros(1, dtype=np.int64), xp.zeros(0, dtype=np.uint8), None, np.dtype(object)
            )
            series = series._wrap(empty)
        if not isinstance(series.column, StringColumn):
            col = series.column
            if col.dtype == object and len(col) and bool(col.isna().all()):  # pandas: an empty inference
                raise _unsupported("<method>", "an object column of missing values beside no string")
            raise AttributeError("Can only use .str accessor with string values!")
        self._s = series
        self._col: StringColumn = series.column

    def __getattr__(self, name: str) -> Any:
        """A pandas ``.str`` method ember lacks: a clear NotImplementedError, not AttributeError."""
        import pandas as pd

        if name.startswith("_") or not hasattr(pd.Series.str, name):
            raise AttributeError(f"'StringMethods' object has no attribute {name!r}")
        raise _unsupported(name, "not supported by ember yet")

    def _wrap(self, col: Any) -> Any:
        src = self._col
        if isinstance(col, StringColumn) and col.pd_dtype == object and src.pd_dtype == object:
            # pandas keeps an object column's own missing value (None, NaN, NA) in its results
            col = StringColumn(col.offsets, col.chars, col.mask, col.pd_dtype, src.na)
        elif _numbers_beside_na(src, col):
            # pandas: the numbers stay Python ints in an object column beside pd.NA
            raise _unsupported("<method>", "numbers of an object column holding pd.NA (pandas: object)")
        return self._s._wrap(col)

    def _frame(self, labels: list[Any], cols: list[Any]) -> Any:
        from ember.frame.dataframe import DataFrame

        return DataFrame._from_columns(dict(zip(labels, cols, strict=True)), self._s.index)

    # --- length and case ---------------------------------------------------------------------------
    def len(self) -> Any:
        return self._wrap(S.str_len(self._col))

    def lower(self) -> Any:
        return self._wrap(S.case_map(self._col, "lower"))

    def upper(self) -> Any:
        return self._wrap(S.case_map(self._col, "upper"))

    def title(self) -> Any:
        return self._wrap(S.case_map(self._col, "title"))

    def capitalize(self) -> Any:
        return self._wrap(S.case_map(self._col, "capitalize"))

    def swapcase(self) -> Any:
        return self._wrap(S.case_map(self._col, "swapcase"))

    def casefold(self) -> Any:
        return self._wrap(S.case_map(self._col, "casefold"))

    # --- predicates --------------------------------------------------------------------------------
    def _pred(self, name: str) -> Any:
        return self._wrap(S.predicate(self._col, name))

    def isalpha(self) -> Any:
        return self._pred("isalpha")

    def isdigit(self) -> Any:
        return self._pred("isdigit")

    def isdecimal(self) -> Any:
        return self._pred("isdecimal")

    def isnumeric(self) -> Any:
        return self._pred("isnumeric")

    def isalnum(self) -> Any:
        return self._pred("isalnum")

    def isspace(self) -> Any:
        return self._pred("isspace")

    def isupper(self) -> Any:
        return self._pred("isupper")

    def islower(self) -> Any:
        return self._pred("islower")

    def istitle(self) -> Any:
        return self._pred("istitle")

    # --- strip, pad, slice -------------------------------------------------------------------------
    def strip(self, to_strip: str | None = None) -> Any:
        return self._wrap(SL.strip(self._col, to_strip, "both"))

    def lstrip(self, to_strip: str | None = None) -> Any:
        return self._wrap(SL.strip(self._col, to_strip, "left"))

    def rstrip(self, to_strip: str | None = None) -> Any:
        return self._wrap(SL.strip(self._col, to_strip, "right"))

    def pad(self, width: int, side: str = "left", fillchar: str = " ") -> Any:
        if side not in ("left", "right", "both"):
            raise ValueError("Invalid side")
        return self._wrap(SL.pad(self._col, width, side, fillchar))

    def center(self, width: int, fillchar: str = " ") -> Any:
        return self.pad(width, "both", fillchar)

    def ljust(self, width: int, fillchar: str = " ") -> Any:
        return self.pad(width, "right", fillchar)

    def rjust(self, width: int, fillchar: str = " ") -> Any:
        return self.pad(width, "left", fillchar)

    def zfill(self, width: int) -> Any:
        return self._wrap(SL.zfill(self._col, width))

    def slice(self, start: int | None = None, stop: int | None = None, step: int | None = None) -> Any:
        return self._wrap(SL.str_slice(self._col, start, stop, step))

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self.slice(key.start, key.stop, key.step)
        return self.get(key)

    def get(self, i: int) -> Any:
        out = SL.get(self._col, i)
        src = self._col
        if src.pd_dtype == object and len(out) and not (isinstance(src.na, float) or src.mask is None):
            return self._wrap(out)  # None / NA rows keep the object column
        if (
            src.pd_dtype == object
            and len(out)
            and out.mask is not None
            and not bool(out.mask.any())
            and (src.mask is None or bool(src.mask.any()))
        ):
            # pandas infers a result of NaN only (no character found in the strings, no None) as
            # float64; a column of missing values only stays object
            return self._s._wrap(NumericColumn(out.xp.full(len(out), np.nan)))
        return self._wrap(out)

    def slice_replace(
        self, start: int | None = None, stop: int | None = None, repl: str | None = None
    ) -> Any:
        return self._wrap(SL.slice_replace(self._col, start, stop, repl))

    def repeat(self, repeats: Any) -> Any:
        return self._wrap(S.repeat(self._col, repeats))

    # --- search ------------------------------------------------------------------------------------
    def startswith(self, pat: str | tuple, na: Any = None) -> Any:
        return self._wrap(S.startswith(self._col, pat, na))

    def removeprefix(self, prefix: str) -> Any:
        """Each string without ``prefix`` where it starts with it (Python's str.removeprefix)."""
        if not prefix:
            return self._s.copy()
        return self._s.mask(self.startswith(prefix, na=False), self.slice(len(prefix)))

    def removesuffix(self, suffix: str) -> Any:
        """Each string without ``suffix`` where it ends with it (Python's str.removesuffix)."""
        if not suffix:
            return self._s.copy()
        return self._s.mask(self.endswith(suffix, na=False), self.slice(0, -len(suffix)))

    def endswith(self, pat: str | tuple, na: Any = None) -> Any:
        return self._wrap(S.startswith(self._col, pat, na, end=True))

    def contains(
        self, pat: str, case: bool = True, flags: int = 0, na: Any = None, regex: bool = True
    ) -> Any:
        return self._wrap(S.contains(self._col, pat, case, flags, na, regex))

    def match(self, pat: str, case: bool = True, flags: int = 0, na: Any = None) -> Any:
        return self._wrap(S.match(self._col, pat, case, flags, na))

    def fullmatch(self, pat: str, case: bool = True, flags: int = 0, na: Any = None) -> Any:
        return self._wrap(S.match(self._col, pat, case, flags, na, full=True))

    def find(self, sub: str, start: int = 0, end: int | None = None) -> Any:
        return self._wrap(S.find(self._col, sub, start, end))

    def rfind(self, sub: str, start: int = 0, end: int | None = None) -> Any:
        return self._wrap(S.find(self._col, sub, start, end, reverse=True))

    def index(self, sub: str, start: int = 0, end: int | None = None) -> Any:
        """``find``, with pandas' ValueError where a present value lacks ``sub`` (one sync)."""
        return self._found(self.find, sub, start, end)

    def rindex(self, sub: str, start: int = 0, end: int | None = None) -> Any:
        return self._found(self.rfind, sub, start, end)

    def _found(self, find: Any, sub: Any, start: int, end: int | None) -> Any:
        if not isinstance(sub, str):
            raise TypeError(f"expected a string object, not {type(sub).__name__}")
        out = find(sub, start, end)
        if bool((out == -1).any()):
            raise ValueError("substring not found")
        return out

    def count(self, pat: str, flags: int = 0) -> Any:
        return self._wrap(S.count(self._col, pat, flags))

    def replace(
        self,
        pat: Any,
        repl: Any = None,
        n: int = -1,
        case: bool | None = None,
        flags: int = 0,
        regex: bool = False,
    ) -> Any:
        """pandas' ``str.replace``; ``pat`` a dict replaces each key by its value in turn (each on the
        result of the one before), as pandas."""
        if not isinstance(pat, dict):
            if not (isinstance(repl, str) or callable(repl)):
                raise TypeError("repl must be a string or callable")
            return self._wrap(S.replace(self._col, pat, repl, n, case, flags, regex))
        if repl is not None:
            raise ValueError("repl cannot be used when pat is a dictionary")
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in pat.items()):
            raise _unsupported("replace", "a pat dict of other than string keys and values")
        out = self._s.copy()
        for key, value in pat.items():
            out = out.str.replace(key, value, n, case, flags, regex)
        return out

    # --- split, join, extract ----------------------------------------------------------------------
    def _split(self, pat: Any, n: int, expand: bool, regex: Any, reverse: bool) -> Any:
        if not expand:
            return self._lists(L.split_lists(self._col, pat, n, reverse, regex))
        cols = self._object_pieces(S.split(self._col, pat, n, reverse, regex))
        return self._frame(list(range(len(cols))), cols)

    def _object_pieces(self, cols: list[Any]) -> list[Any]:
        """The missing cells of an object column's pieces as pandas holds them: a missing row keeps its
        own missing value in the first piece and in the others None (NaN where it is NaN); a row with
        fewer pieces holds None. A piece mixing None with NaN is refused (a column holds one)."""
        src = self._col
        if src.pd_dtype != object or not cols:
            return cols
        valid = src.mask
        rows_missing = valid is not None and not bool(valid.all())
        rest_na = src.na if src.na is None or isinstance(src.na, float) else None
        out = []
        for k, c in enumerate(cols):
            na = src.na if k == 0 else rest_na
            short = c.mask is not None and bool((~c.mask if valid is None else ~c.mask & valid).any())
            if short and na is not None:
                if rows_missing:
                    raise _unsupported("split", "an object column's NaN rows beside rows of fewer pieces")
                na = None
            out.append(StringColumn(c.offsets, c.chars, c.mask, c.pd_dtype, na))
        return out

    def split(
        self, pat: str | None = None, *, n: int = -1, expand: bool = False, regex: bool | None = None
    ) -> Any:
        return self._split(pat, n, expand, regex, False)

    def rsplit(self, pat: str | None = None, *, n: int = -1, expand: bool = False) -> Any:
        return self._split(pat, n, expand, None, True)

    def get_dummies(self, sep: str = "|", dtype: Any = None) -> Any:
        """One indicator column per distinct ``sep``-separated token (sorted), on the Series' rows;
        ``dtype`` int64 by default or a NumPy bool / number dtype."""
        import pandas as pd

        from ember.ops.strings import _has_border

        if not isinstance(sep, str):
            raise TypeError(f"get_dummies: sep must be a string, not {type(sep).__name__}")
        if not sep or (len(sep) > 1 and _has_border(sep)):
            raise _unsupported("get_dummies", f"sep={sep!r} (an empty or self-overlapping separator)")
        target = pd.api.types.pandas_dtype(np.int64 if dtype is None else dtype)
        if not (isinstance(target, np.dtype) and target.kind in "biuf"):
            # pandas casts to an extension dtype on a fresh RangeIndex, dropping the Series' labels
            raise _unsupported("get_dummies", f"dtype={dtype!r} (NumPy bool or number dtypes are supported)")
        matrix, tokens = S.dummies(self._col, sep, target)
        if not len(tokens):
            # pandas' object path gives no columns, its pyarrow path raises on rows without tokens
            raise _unsupported("get_dummies", "a Series without any token")
        labels = tokens.to_pandas().tolist()
        return self._frame(labels, [NumericColumn(matrix[:, j].copy()) for j in range(len(labels))])

    def partition(self, sep: str = " ", expand: bool = True) -> Any:
        return self._partition(sep, expand, reverse=False)

    def rpartition(self, sep: str = " ", expand: bool = True) -> Any:
        return self._partition(sep, expand, reverse=True)

    def _partition(self, sep: str, expand: bool, reverse: bool) -> Any:
        """Columns 0, 1, 2: the part before the first (last) ``sep``, ``sep``, the part after; a row
        without ``sep``: (itself, '', '') for partition, ('', '', itself) for rpartition. Built from a
        one-cut split."""
        from ember.column.convert import from_scalar
        from ember.ops.missing import where

        method = "rpartition" if reverse else "partition"
        if not expand:
            raise _unsupported(method, "expand=False (a Series of tuples)")
        if not isinstance(sep, str):
            raise TypeError(f"{method}: sep must be a string, not {type(sep).__name__}")
        if not sep:
            raise ValueError("empty separator")
        col = self._col
        xp = col.xp
        if col.mask is not None and not bool(col.mask.any()):  # pandas: as many columns as a row has
            return self._frame([0], [col]) if len(col) else self._frame([], [])
        if len(col) == 0:
            return self._frame([], [])
        parts = S.split(col, sep, 1, reverse, False)
        before = parts[0]
        after = parts[1] if len(parts) > 1 else None  # no row holds sep: the split made one column
        valid = col.mask if col.mask is not None else xp.ones(len(col), dtype=bool)
        # where the split made a second part (no mask on it: every row had sep)
        found = (
            after.mask
            if after is not None and after.mask is not None
            else xp.full(len(col), after is not None)
        )
        empty = where(from_scalar("", len(col), xp), valid)  # '' where the row has a value
        middle = where(where(from_scalar(sep, len(col), xp), found, empty), valid)
        rest = empty if after is None else where(after, found, empty)
        if reverse:
            cols = [where(before, found, empty), middle, where(rest, found, before)]
        else:
            cols = [before, middle, rest]
        return self._frame([0, 1, 2], self._object_pieces([_like(c, col) for c in cols]))

    def cat(
        self, others: Any = None, sep: str | None = None, na_rep: str | None = None, join: str = "left"
    ) -> Any:
        import pandas as pd

        from ember.frame.dataframe import DataFrame
        from ember.frame.series import Series

        sep = "" if sep is None else sep
        _check_cat_values(self._col)
        if others is None:
            return S.cat_all(self._col, sep, na_rep)
        if join not in ("left", "right", "outer", "inner"):
            raise ValueError(f"join must be one of 'left', 'right', 'outer', 'inner', got {join!r}")
        items = (
            others
            if isinstance(others, (list, tuple)) and others and not isinstance(others[0], str)
            else [others]
        )
        realigned = self._realigned(items, join, sep, na_rep)
        if realigned is not None:
            return realigned
        indexed = [isinstance(o, (pd.Series, pd.Index, Series)) or getattr(o, "ndim", 0) == 1 for o in items]
        if items is others and any(indexed) and not all(indexed):
            raise TypeError(
                "others must be Series, Index, DataFrame, np.ndarray or list-like (either containing only "
                "strings or containing only objects of type Series/Index/np.ndarray[1-dim])"
            )
        cols = []
        for o in items:
            if isinstance(o, (pd.DataFrame, pd.Series)) or getattr(o, "_ember_kind", None) == "frame":
                o = (
                    DataFrame(o)
                    if isinstance(o, pd.DataFrame)
                    else Series(o)
                    if isinstance(o, pd.Series)
                    else o
                )
            framed = getattr(o, "_ember_kind", None) == "frame"
            for s in [o[k] for k in o._names] if framed else [o]:
                if isinstance(s, Series):
                    cols.append(self._aligned_other(s, join))
                    continue
                s = Series(list(s) if not hasattr(s, "to_pandas") else s)
                if len(s) != len(self._s):
                    raise ValueError(
                        "If `others` contains arrays or lists (or other list-likes without an index), "
                        "these must all be of the same length as the calling Series/Index."
                    )
                cols.append(self._checked_other(s.column))
        return self._wrap(S.cat_rows([self._col, *cols], sep, na_rep))

    def _realigned(self, items: list, join: str, sep: str, na_rep: Any) -> Any:
        """``cat`` of one Series on other labels: both aligned
        on the joined labels first (the result's index), as pandas; None where nothing is realigned."""
        import pandas as pd

        from ember.frame.alignment import indexes_equal
        from ember.frame.series import Series

        if len(items) != 1 or not isinstance(self._s, Series):
            return None
        other = Series(items[0]) if isinstance(items[0], pd.Series) else items[0]
        if not isinstance(other, Series) or indexes_equal(self._s.index, other.index):
            return None
        left, right = self._s.align(other, join=join)
        return left.str.cat(right, sep=sep, na_rep=na_rep, join="left")

    def _checked_other(self, col: Any) -> Any:
        if not isinstance(col, StringColumn):
            raise TypeError("Concatenation requires list-likes containing only strings (or missing values).")
        return col.to(self._col.xp)

    def _aligned_other(self, other: Any, join: str) -> Any:
        """A Series of ``others`` on the caller's rows: matched by label (missing where it lacks
        one, as pandas' join='left'); other joins change the caller's rows: refused unless the labels
        are the same."""
        from ember.frame.alignment import align_series, indexes_equal

        if indexes_equal(self._s.index, other.index):
            return self._checked_other(other.column)
        if join != "left":
            raise _unsupported("cat", f"join={join!r} with others on other labels (only join='left' aligns)")
        _, col, _ = align_series(self._s, other, how="left")
        if len(col) != len(self._s):
            raise ValueError("cannot reindex on an axis with duplicate labels")
        return self._checked_other(col)

    def extract(self, pat: str, flags: int = 0, expand: bool = True) -> Any:
        labels, cols = S.extract(self._col, pat, flags)
        if not expand and len(cols) == 1:
            return self._s._wrap(cols[0], name=labels[0] if isinstance(labels[0], str) else self._s.name)
        return self._frame(labels, cols)

    def extractall(self, pat: str, flags: int = 0) -> Any:
        from ember.column import NumericColumn
        from ember.frame.dataframe import DataFrame
        from ember.frame.index import MultiIndex

        labels, cols, src_row, match_no = S.extractall(self._col, pat, flags)
        index = self._s.index
        if isinstance(index, MultiIndex):
            raise _unsupported("extractall", "a Series with a MultiIndex is not supported")
        outer = index.column.take(src_row)
        mi = MultiIndex([outer, NumericColumn(match_no)], [index.name, "match"])
        return DataFrame._from_columns(dict(zip(labels, cols, strict=True)), mi)

    def findall(self, pat: str, flags: int = 0) -> Any:
        return self._lists(L.findall(self._col, pat, flags))

    def _lists(self, lists: Any) -> Any:
        """A list result; pandas' str data with every row missing gives float64 NaN instead."""
        import numpy as np
        import pandas as pd

        from ember.column import NumericColumn

        col = self._col
        na_str = isinstance(col.pd_dtype, pd.StringDtype) and col.pd_dtype.na_value is not pd.NA
        if na_str and len(col) and col.mask is not None and not bool(col.mask.any()):
            return self._wrap(NumericColumn(col.xp.full(len(col), np.nan)))
        return self._wrap(lists)

    def encode(self, encoding: str, errors: str = "strict") -> Any:
        raise _unsupported("encode", "returns bytes objects, which ember columns do not hold")

    def decode(self, encoding: str, errors: str = "strict") -> Any:
        raise _unsupported("decode", "ember string columns already hold decoded UTF-8 text")


def _check_cat_values(col: Any) -> None:
    """pandas' str.cat takes strings only: object strings beside NaT objects infer 'mixed' and raise."""
    nat = getattr(col, "na", None) is pd.NaT
    if isinstance(col, StringColumn) and col.dtype == object and nat and col.mask is not None:
        if not bool(col.mask.all()):  # a NaT held (one sync)
            raise TypeError("Cannot use .str.cat with values of inferred dtype 'mixed'.")

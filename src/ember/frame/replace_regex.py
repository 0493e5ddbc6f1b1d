"""``replace`` with regular expressions (``regex=True`` or patterns given as ``regex=``), as pandas.

pandas turns its many spellings (a pattern, a list, a dict of patterns, a dict per column, patterns
passed as ``regex=``) into lists of (pattern, replacement) pairs for all columns or for named columns;
``_plan`` follows that normalisation step by step (``NDFrame.replace``). Each pair's rows are the rows
whose *original* string the pattern finds (``re.search``), as pandas computes every mask before it
replaces; a string replacement substitutes the matches (``re.sub``, through ``.str.replace``), NaN /
None the whole value. Only string columns change: a pattern never matches numbers, booleans or times.
A pattern that does not compile (or is empty) is compared literally, as pandas does.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from ember.column import CategoricalColumn, DatetimeColumn, StringColumn, TimedeltaColumn
from ember.frame._fallback import unsupported
from ember.frame.replace import NO_VALUE, _missing, _replaced


def replace_regex_series(series: Any, to_replace: Any, value: Any, regex: Any) -> Any:
    plan = _plan(to_replace, value, regex, "Series")
    if plan[0] == "columns":  # _plan raises pandas' errors for the Series before this
        raise AssertionError("unreachable")
    _, pairs, regex = plan
    return _series_pairs(series, pairs, regex)


def replace_regex_frame(frame: Any, to_replace: Any, value: Any, regex: Any) -> Any:
    kind, spec, regex = _plan(to_replace, value, regex, "DataFrame")
    out = frame.copy(deep=False)
    if kind == "pairs":
        if len(frame) and len(frame._names):  # pandas returns an empty frame as it is
            for name in frame._names:
                out[name] = _series_pairs(frame[name], spec, regex)
        return out
    for name, (target, new) in spec.items():
        if name in frame._columns:
            out[name] = frame[name].replace(target, new, regex=regex)
    return out


def _is_dict(obj: Any) -> bool:
    if isinstance(obj, dict):
        return True
    if pd.api.types.is_dict_like(obj):
        raise unsupported("replace", f"a {type(obj).__name__} of replacements (pass a dict)")
    return False


def _is_list(obj: Any) -> bool:
    return isinstance(obj, (list, tuple, np.ndarray, pd.Index))


def _plan(to_replace: Any, value: Any, regex: Any, owner: str) -> tuple[str, Any, bool]:
    """("pairs", [(pattern, new)], regex) for every column, or ("columns", {column: (target, new)},
    regex) for named columns, each replaced as a Series; pandas' errors for bad combinations."""
    if not isinstance(regex, (bool, np.bool_)) and to_replace is not None:
        raise ValueError("'to_replace' must be 'None' if 'regex' is not a bool")
    if callable(to_replace):
        raise TypeError(
            "Expecting 'to_replace' to be either a scalar, array-like, dict or None, got invalid type "
            f"{type(to_replace).__name__!r}"
        )
    if value is NO_VALUE:
        if not (_is_dict(to_replace) or _is_dict(regex)):
            raise ValueError(
                f"{owner}.replace must specify either 'value', a dict-like 'to_replace', "
                "or dict-like 'regex'."
            )
        if not _is_dict(to_replace):
            to_replace, regex = regex, True
        return _plan(*_split_mapping(to_replace), regex, owner)
    if _is_dict(to_replace):
        if _is_dict(value):
            if owner == "Series":
                raise ValueError("to_replace and value cannot be dict-like for Series.replace")
            return "columns", {k: (t, value[k]) for k, t in to_replace.items() if k in value}, regex
        if _is_list(value):
            raise TypeError("value argument must be scalar, dict, or Series")
        if owner == "Series":
            raise ValueError("Series.replace cannot specify both a dict-like 'to_replace' and a 'value'")
        return "columns", {k: (t, value) for k, t in to_replace.items()}, regex
    if _is_list(to_replace):
        values = list(value) if _is_list(value) else [value] * len(to_replace)
        if len(to_replace) != len(values):
            raise ValueError(
                f"Replacement lists must match in length. Expecting {len(to_replace)} got {len(values)} "
            )
        if not regex and any(isinstance(v, re.Pattern) for v in to_replace):
            # pandas compares a compiled pattern in a list with == unless regex=True (and fails)
            raise unsupported("replace", "compiled patterns in a list without regex=True")
        return "pairs", list(zip(to_replace, values)), regex
    if to_replace is None:
        if not (_compiles(regex) or _is_list(regex) or _is_dict(regex)):
            raise TypeError(
                "'regex' must be a string or a compiled regular expression or a list or dict of "
                f"strings or regular expressions, you passed a {type(regex).__name__!r}"
            )
        return _plan(regex, value, True, owner)
    if _is_dict(value):
        if owner == "Series":
            raise ValueError("Series.replace cannot use dict-value and non-None to_replace")
        return "columns", {k: (to_replace, v) for k, v in value.items()}, regex
    if _is_list(value):
        raise TypeError(f'Invalid "to_replace" type: {type(to_replace).__name__!r}')
    return "pairs", [(to_replace, value)], regex


def _split_mapping(mapping: dict) -> tuple[Any, Any]:
    """A dict of pairs -> (olds, news); a dict of dicts per column -> ({col: olds}, {col: news})."""
    nested = [_is_dict(v) for v in mapping.values()]
    if not any(nested):
        return list(mapping.keys()), list(mapping.values())
    if not all(nested):
        raise TypeError("If a nested mapping is passed, all values of the top level mapping must be mappings")
    return {k: list(v.keys()) for k, v in mapping.items()}, {k: list(v.values()) for k, v in mapping.items()}


def _compiles(pattern: Any) -> bool:
    """pandas' ``is_re_compilable``: a bad pattern (``re.error``) raises, a non-string is literal."""
    try:
        re.compile(pattern)
    except TypeError:
        return False
    return True


def has_pattern(to_replace: Any) -> bool:
    """A compiled pattern anywhere in ``to_replace`` (pandas treats it as a regex whatever ``regex``)."""
    if isinstance(to_replace, re.Pattern):
        return True
    if isinstance(to_replace, dict):
        return any(has_pattern(k) or has_pattern(v) for k, v in to_replace.items())
    if _is_list(to_replace):
        return any(isinstance(v, re.Pattern) for v in to_replace)
    return False


def _uses_regex(regex: bool, pattern: Any) -> bool:
    """pandas' ``should_use_regex``: a compiled pattern always; a string only with ``regex=True``,
    when it compiles and is not empty."""
    if isinstance(pattern, re.Pattern):
        regex = True
    return bool(regex) and _compiles(pattern) and re.compile(pattern).pattern != ""


def _series_pairs(series: Any, pairs: list[tuple[Any, Any]], regex: bool) -> Any:
    as_regex = [_uses_regex(regex, old) for old, _ in pairs]
    if not any(as_regex):
        return _replaced(series, pairs)
    if not all(as_regex):
        raise unsupported("replace", "patterns mixed with literal values (a number, an empty string)")
    column = series._column
    if isinstance(column, CategoricalColumn):
        raise unsupported("replace", "regex on a categorical column")
    if isinstance(column, (DatetimeColumn, TimedeltaColumn)):
        _check_temporal(series.dtype, pairs)
    if not isinstance(column, StringColumn):
        return series.copy(deep=False)  # a pattern matches strings only
    for _, new in pairs:
        if not (isinstance(new, str) or _missing(new)):
            raise unsupported(
                "replace",
                f"{new!r} for a pattern in a string column (pandas makes an object column)",
            )
    return _regex_replaced(series, pairs)


def _check_temporal(dtype: Any, pairs: list[tuple[Any, Any]]) -> None:
    """pandas leaves times as they are, but a pattern that reads as a time (``"2020"``) with a
    replacement a time column cannot hold makes an object column: asked of pandas on one NaT."""
    probe = pd.Series([None], dtype=dtype)
    olds, news = [old for old, _ in pairs], [new for _, new in pairs]
    if probe.replace(olds, news, regex=True).dtype != dtype:
        raise unsupported("replace", f"a pattern that reads as a time in a {dtype} column")


def _regex_replaced(series: Any, pairs: list[tuple[Any, Any]]) -> Any:
    out = series
    for old, new in pairs:
        pattern, flags = _pattern_and_flags(old)
        rows = series.str.contains(pattern, flags=flags, na=False, regex=True)
        if isinstance(new, str):
            out = out.mask(rows, out.str.replace(old, new, regex=True))
        else:  # pandas puts a non-string value where the current string still matches
            rows = rows & out.str.contains(pattern, flags=flags, na=False, regex=True)
            out = out.mask(rows)
    return out


def _pattern_and_flags(pattern: Any) -> tuple[str, int]:
    if isinstance(pattern, re.Pattern):
        if not isinstance(pattern.pattern, str):
            raise unsupported("replace", "a bytes pattern")
        return pattern.pattern, pattern.flags & ~re.UNICODE
    return pattern, 0

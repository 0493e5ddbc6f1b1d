"""Runs the ``>>>`` examples of pandas' own docstrings with ember and reports where ember differs.

Each docstring's examples run twice, in order, each run with its own namespace shared by the examples
of that docstring (as doctest does):

* the reference run: ``pd`` is the installed pandas, ``np`` NumPy;
* the ember run: ``pd`` is a module-like object (``EmberPandas``) whose attributes come from ember where
  ember has them and from pandas otherwise.

Names taken from ember (``EMBER_NAMES``, exactly): ``DataFrame``, ``Series``, ``Index``, ``MultiIndex``,
``RangeIndex``, ``concat``, ``merge``, ``merge_asof``, ``to_datetime``, ``to_numeric``, ``date_range``,
``timedelta_range``, ``cut``, ``qcut``, ``factorize``, ``get_dummies``, ``melt``, ``pivot``,
``pivot_table``, ``crosstab``, ``read_csv``, ``read_json``, ``read_parquet``, ``read_orc``,
``to_timedelta``, ``isna`` / ``notna`` / ``isnull`` / ``notnull``, ``unique``, ``array``, ``api``, the
options (``options``, ``get_option``, ``set_option``, ``reset_option``, ``describe_option``,
``option_context``) and the scalars, dtypes and offsets ember re-exports from pandas
(``ember.namespace.SCALARS_AND_DTYPES``: the same objects as pandas').

Every other attribute of ``pd`` is pandas' own: scalars (``Period``, ``Interval``), dtypes
(``IntervalDtype``, ``PeriodDtype``, ...), the index classes ember has not (``DatetimeIndex``,
``TimedeltaIndex``, ``CategoricalIndex``, ``PeriodIndex``, ``IntervalIndex``), ``Categorical``,
``testing``, ``period_range``, ``interval_range`` and every other top-level function ember does not
export. pandas' top-level
*functions* are called with ember arguments converted by ``.to_pandas()`` first; an example whose
only ember part is such an argument is classified ``pandas-only`` (pandas did the work), as is an
example that touches no ember object at all.

The printed value of an example (its last expression, and what it prints) is compared: ember objects
are converted with ``.to_pandas()``, pandas objects are compared with pandas' asserters (values,
dtypes, index, names, column order), NumPy arrays by dtype and values, scalars by kind (bool / integer /
float / string / datetime ...) and value (a NumPy scalar equals the Python scalar of the same kind: only
the repr differs), containers element by element, anything else by its text. Objects a name is bound
to by an example (``df2 = ...``, ``df["c"] = ...``, ``df.method(inplace=True)``) are compared too, so
a wrong intermediate result is reported where it is made.

Each example is classified:

``pass``          same result as pandas (or the same exception type where pandas' docstring shows one);
``unsupported``   ember raised NotImplementedError;
``error``         ember raised another exception where pandas did not (or a different exception type);
``wrong``         ember gave a different value / dtype / index / type, or accepted an input pandas rejects;
``skipped``       pandas itself fails, the example is marked ``+SKIP``, is random, prints an address,
                  needs files, the network or plotting;
``pandas-only``   no ember object took part (pandas computed everything).

An example that uses a name an earlier unsupported / failed example should have bound is ``blocked``: it
counts as ``unsupported`` (or ``error``, after the cause) and is never ``wrong``. A wrong example that
uses a name an earlier wrong example bound carries ``cascade_of`` (the first wrong example's id).

Usage::

    python scripts/pandas_docstrings.py [--areas DataFrame,Series,...] [--match REGEX] \
        [--timeout 10] [--out report.json] [--limit N] [-v]

``--out x.json`` writes the full JSON report and a markdown summary next to it (``x.md``).
Example ids are ``<docstring>#<k>`` (k: the example's 0-based position in its docstring).
"""

from __future__ import annotations

import argparse
import ast
import builtins
import contextlib
import datetime as _dt
import doctest
import hashlib
import inspect
import io
import json
import math
import os
import random
import re
import signal
import sys
import tempfile
import time
import types
import warnings
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas
import pandas._testing as tm
from pandas.api.typing import FrozenList

import ember

EMBER_NAMES = (
    "DataFrame",
    "Series",
    "Index",
    "MultiIndex",
    "RangeIndex",
    "Categorical",
    "CategoricalIndex",
    "concat",
    "merge",
    "merge_asof",
    "to_datetime",
    "to_numeric",
    "date_range",
    "timedelta_range",
    "cut",
    "qcut",
    "factorize",
    "get_dummies",
    "melt",
    "wide_to_long",
    "pivot",
    "pivot_table",
    "crosstab",
    "read_csv",
    "read_json",
    "read_parquet",
    "read_orc",
    "to_timedelta",
    "isna",
    "notna",
    "isnull",
    "notnull",
    "unique",
    "array",
    "api",
    "options",
    "get_option",
    "set_option",
    "reset_option",
    "describe_option",
    "option_context",
    *ember.namespace.SCALARS_AND_DTYPES,
)

AREAS = (
    "DataFrame",
    "Series",
    "Index",
    "GroupBy",
    "window",
    "resample",
    "str",
    "dt",
    "cat",
    "top-level",
)

TOP_LEVEL = (
    "concat",
    "merge",
    "merge_asof",
    "merge_ordered",
    "to_datetime",
    "to_numeric",
    "to_timedelta",
    "date_range",
    "timedelta_range",
    "cut",
    "qcut",
    "factorize",
    "unique",
    "get_dummies",
    "from_dummies",
    "melt",
    "wide_to_long",
    "pivot",
    "pivot_table",
    "crosstab",
    "isna",
    "notna",
)

# Members whose docstrings need files, a plotting backend, a database or a clipboard.
SKIP_MEMBERS = {
    "plot",
    "hist",
    "boxplot",
    "style",
    "to_clipboard",
    "to_excel",
    "to_hdf",
    "to_sql",
    "to_pickle",
    "to_feather",
    "to_stata",
    "to_orc",
    "to_parquet",
    "to_latex",
    "to_xml",
    "to_markdown",
    "to_gbq",
    "from_csv",
    "sparse",
}

_SKIP_SOURCE = [
    (re.compile(r"\.plot\b|\.hist\(|boxplot\(|matplotlib|plt\."), "plotting"),
    (
        re.compile(
            r"""['"][^'"\s]*\.(csv|parquet|json|xlsx?|h5|hdf|pkl|pickle|feather|dta|zip|gz|bz2|xz|"""
            r"""zst|tar|xml|html?|txt|orc|sqlite|db)['"]|open\(|os\.path|pathlib|tmp_path|"""
            r"""StringIO|BytesIO|read_(csv|json|parquet|orc|excel|html|xml|sql|table|fwf|pickle)"""
        ),
        "files",
    ),
    (re.compile(r"https?://|s3://|gs://"), "network"),
    (
        # NumPy's global generator is seeded alike before each example in both runs
        re.compile(r"default_rng\(\s*\)|\.sample\(|random_state=None|RandomState\(\s*\)"),
        "random",
    ),
    (re.compile(r"\bid\(|sys\.getsizeof|memory_usage|\.info\(|__sizeof__|nbytes"), "memory / addresses"),
    (re.compile(r"\bpyarrow\.parquet|import pyarrow\.(parquet|csv)|sqlalchemy|sqlite3"), "files"),
    (re.compile(r"%timeit|timeit"), "timing"),
]

_STATUSES = ("pass", "unsupported", "error", "wrong", "skipped", "pandas-only")


class ExampleTimeout(BaseException):
    """An example ran past its time limit (a BaseException: an example's ``except Exception`` does not
    swallow it)."""


class _NoValue:
    def __repr__(self) -> str:
        return "<no value>"


NOVALUE = _NoValue()


def _is_ember(x: Any) -> bool:
    return type(x).__module__.startswith("ember") or (
        isinstance(x, type) and x.__module__.startswith("ember")
    )


def _holds_ember(x: Any, depth: int = 2) -> bool:
    if _is_ember(x):
        return True
    if depth and isinstance(x, (list, tuple, set, frozenset)):
        return any(_holds_ember(v, depth - 1) for v in list(x)[:50])
    if depth and isinstance(x, dict):
        return any(_holds_ember(v, depth - 1) for v in list(x.values())[:50]) or any(
            _holds_ember(k, depth - 1) for k in list(x.keys())[:50]
        )
    return False


def to_pandas(x: Any, depth: int = 3) -> Any:
    """Ember objects (also inside lists, tuples and dicts) converted with ``.to_pandas()``."""
    if _is_ember(x) and hasattr(x, "to_pandas") and not isinstance(x, type):
        return x.to_pandas()
    if depth and type(x) in (list, tuple, FrozenList):  # FrozenList: MultiIndex.levels
        return type(x)(to_pandas(v, depth - 1) for v in x)
    if depth and type(x) is dict:
        return {to_pandas(k, depth - 1): to_pandas(v, depth - 1) for k, v in x.items()}
    if type(x).__module__.startswith("cupy") and hasattr(x, "get"):
        return x.get()
    return x


class _CallLog:
    converted = 0


def _wrap_pandas_function(fn: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _holds_ember(args) or _holds_ember(kwargs):
            _CallLog.converted += 1
            args = to_pandas(args)
            kwargs = to_pandas(kwargs)
        return fn(*args, **kwargs)

    wrapper.__name__ = getattr(fn, "__name__", "wrapper")
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    wrapper.__wrapped__ = fn
    return wrapper


class EmberPandas(types.ModuleType):
    """``pd`` for the ember run: ember's attribute where ember has it (``EMBER_NAMES``), pandas'
    otherwise (plain functions of pandas' namespace get their ember arguments converted first)."""

    def __init__(self, overrides: dict[str, Any] | None = None) -> None:
        super().__init__("pandas")
        for name in EMBER_NAMES:
            setattr(self, name, getattr(ember, name))
        for name, value in (overrides or {}).items():
            setattr(self, name, value)

    def __getattr__(self, name: str) -> Any:
        value = getattr(pandas, name)
        if isinstance(value, types.FunctionType):
            value = _wrap_pandas_function(value)
        return value


# ---------------------------------------------------------------------------------------------
# collecting docstrings


@dataclass
class Doc:
    name: str
    area: str
    text: str


def _area_classes() -> dict[str, list[tuple[str, Any]]]:
    from pandas.api import typing as pt
    from pandas.core.arrays.categorical import CategoricalAccessor
    from pandas.core.indexes.accessors import DatetimeProperties, TimedeltaProperties
    from pandas.core.strings.accessor import StringMethods

    return {
        "DataFrame": [("DataFrame", pandas.DataFrame)],
        "Series": [("Series", pandas.Series)],
        "Index": [
            ("Index", pandas.Index),
            ("RangeIndex", pandas.RangeIndex),
            ("MultiIndex", pandas.MultiIndex),
            ("DatetimeIndex", pandas.DatetimeIndex),
            ("TimedeltaIndex", pandas.TimedeltaIndex),
            ("CategoricalIndex", pandas.CategoricalIndex),
        ],
        "GroupBy": [
            ("DataFrameGroupBy", pt.DataFrameGroupBy),
            ("SeriesGroupBy", pt.SeriesGroupBy),
        ],
        "window": [
            ("Rolling", pt.Rolling),
            ("Expanding", pt.Expanding),
            ("ExponentialMovingWindow", pt.ExponentialMovingWindow),
        ],
        "resample": [("Resampler", pt.Resampler)],
        "str": [("Series.str", StringMethods)],
        "dt": [("Series.dt", DatetimeProperties), ("Series.dt(timedelta)", TimedeltaProperties)],
        "cat": [("Series.cat", CategoricalAccessor)],
    }


def _member_doc(cls: type, name: str) -> str | None:
    try:
        static = inspect.getattr_static(cls, name)
    except AttributeError:
        return None
    if isinstance(static, (staticmethod, classmethod)):
        static = static.__func__
    if isinstance(static, type):  # accessor classes, nested classes: their own area
        return None
    doc = getattr(static, "__doc__", None)
    if doc is None or not isinstance(doc, str):
        try:
            doc = getattr(getattr(cls, name), "__doc__", None)
        except Exception:
            return None
    return doc if isinstance(doc, str) else None


def collect_docs(areas: tuple[str, ...] = AREAS, match: str | None = None) -> list[Doc]:
    """The docstrings with ``>>>`` examples of each area, each text once (in the first area and class
    it is met in, in the order of ``AREAS``)."""
    seen: set[str] = set()
    docs: list[Doc] = []
    pattern = re.compile(match) if match else None
    classes = _area_classes()

    def add(name: str, area: str, text: str | None) -> None:
        if not text or ">>>" not in text:
            return
        # one run per set of examples: docstrings made from one template (DataFrame.eq / ne / gt ...)
        # often differ in their prose only
        try:
            examples = doctest.DocTestParser().get_examples(text)
            key = "\x00".join(ex.source + ex.want for ex in examples)
        except ValueError:
            key = text
        key = hashlib.sha1(key.encode()).hexdigest()
        if key in seen:
            return
        seen.add(key)
        if area in areas and (pattern is None or pattern.search(name)):
            docs.append(Doc(name, area, text))

    for area in AREAS:
        # every area is walked (a text belongs to the first area it is met in, whichever areas run)
        if area == "top-level":
            for fname in TOP_LEVEL:
                add(f"pd.{fname}", area, getattr(getattr(pandas, fname), "__doc__", None))
            continue
        for cname, cls in classes[area]:
            add(cname, area, cls.__doc__)
            for member in sorted(dir(cls)):
                if member.startswith("_") or member in SKIP_MEMBERS:
                    continue
                add(f"{cname}.{member}", area, _member_doc(cls, member))
    return docs


# ---------------------------------------------------------------------------------------------
# running one example


@contextlib.contextmanager
def _time_limit(seconds: float):
    def handler(signum, frame):  # noqa: ARG001
        raise ExampleTimeout(f"timed out after {seconds} s")

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    value: Any = NOVALUE
    stdout: str = ""
    exc: BaseException | None = None
    converted_calls: int = 0


def _ember_print(*args: Any, **kwargs: Any) -> None:
    builtins.print(*(to_pandas(a) for a in args), **kwargs)


def run_source(source: str, ns: dict, timeout: float, seed: int) -> Outcome:
    """Runs one example's source in ``ns``: its statements, then its last expression's value."""
    out = Outcome()
    buf = io.StringIO()
    np.random.seed(seed)
    random.seed(seed)
    before = _CallLog.converted
    try:
        tree = ast.parse(source)
        body = tree.body
        last = body[-1] if body and isinstance(body[-1], ast.Expr) else None
        head = ast.Module(body=body[:-1] if last is not None else body, type_ignores=[])
        with (
            warnings.catch_warnings(),
            contextlib.redirect_stdout(buf),
            _time_limit(timeout),
        ):
            warnings.simplefilter("ignore")
            exec(compile(head, "<doctest>", "exec"), ns)
            if last is not None:
                value = eval(compile(ast.Expression(body=last.value), "<doctest>", "eval"), ns)
                out.value = value
    except ExampleTimeout as e:
        out.exc = e
    except Exception as e:  # noqa: BLE001
        out.exc = e
    except BaseException as e:  # SystemExit, KeyboardInterrupt from an example: record, go on
        if isinstance(e, KeyboardInterrupt):
            raise
        out.exc = e
    out.stdout = buf.getvalue()
    out.converted_calls = _CallLog.converted - before
    return out


# ---------------------------------------------------------------------------------------------
# comparing


# the freq of a DatetimeIndex is not compared (an example printing ``idx.freq`` still is); pandas
# older than 3.1 has no check_freq in assert_index_equal and does not check it there
_INDEX_KW = (
    {"check_freq": False} if "check_freq" in inspect.signature(tm.assert_index_equal).parameters else {}
)


class Different(Exception):
    """The two results differ (the message says how)."""


def _kind(x: Any) -> str:
    if x is None:
        return "None"
    if x is pandas.NA:
        return "NA"
    if x is pandas.NaT:
        return "NaT"
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, (int, np.integer)):
        return "int"
    if isinstance(x, (float, np.floating)):
        return "float"
    if isinstance(x, (complex, np.complexfloating)):
        return "complex"
    if isinstance(x, str):
        return "str"
    if isinstance(x, bytes):
        return "bytes"
    if isinstance(x, np.datetime64):
        return "datetime64"
    if isinstance(x, np.timedelta64):
        return "timedelta64"
    if isinstance(x, _dt.datetime):
        return "datetime"
    if isinstance(x, _dt.timedelta):
        return "timedelta"
    if isinstance(x, _dt.date):
        return "date"
    if isinstance(x, pandas.Period):
        return "Period"
    if isinstance(x, pandas.Interval):
        return "Interval"
    return ""


def _short(x: Any, n: int = 600) -> str:
    try:
        text = repr(x)
    except Exception as e:  # noqa: BLE001
        text = f"<repr failed: {type(e).__name__}: {e}>"
    return text if len(text) <= n else text[:n] + " ..."


def _fast_same(e: Any, p: Any) -> bool:
    """Whether two frames or two Series are the same by ``equals`` (values and dtypes) plus their
    axes' dtypes and names: what pandas' asserters check, without their cost on large objects (they
    are run for the message only when this says no)."""
    try:
        dtypes = list(p.dtypes) if isinstance(p, pandas.DataFrame) else [p.dtype]
        if any(d == object for d in dtypes):  # equals takes None for NaN there; the asserter not
            return False
        if type(e) is not type(p) or not e.equals(p):
            return False
        axes = [(e.index, p.index)]
        if isinstance(p, pandas.DataFrame):
            axes.append((e.columns, p.columns))
            if list(e.dtypes) != list(p.dtypes):
                return False
        elif e.dtype != p.dtype or e.name != p.name:
            return False
        return all(_fast_same_index(a, b) for a, b in axes)
    except Exception:  # noqa: BLE001
        return False


def _fast_same_index(a: Any, b: Any) -> bool:
    try:
        return (
            b.dtype != object
            and a.dtype == b.dtype
            and list(a.names) == list(b.names)
            and a.equals(b)
            and (type(a) is type(b) or isinstance(a, pandas.RangeIndex) or isinstance(b, pandas.RangeIndex))
        )
    except Exception:  # noqa: BLE001
        return False


def compare(e: Any, p: Any, path: str = "value") -> None:
    """Raises ``Different`` when ember's (converted) result ``e`` differs from pandas' ``p``."""
    if isinstance(p, type):  # type(df.iloc[0]): ember's class of the same name is the same answer
        if e is p or (isinstance(e, type) and _is_ember(e) and e.__name__ == p.__name__):
            return
        raise Different(f"{path}: pandas gives {_short(p)}, ember {_short(e)}")
    if isinstance(p, FrozenList):  # a list whose repr differs
        p = list(p)
        e = list(e) if isinstance(e, FrozenList) else e
    if isinstance(p, (pandas.DataFrame, pandas.Series)) and _fast_same(e, p):
        return
    if isinstance(p, pandas.DataFrame):
        if not isinstance(e, pandas.DataFrame):
            raise Different(f"{path}: pandas gives a DataFrame, ember a {type(e).__name__}")
        try:
            tm.assert_frame_equal(e, p, check_flags=False, check_freq=False)
        except AssertionError as err:
            raise Different(f"{path}: {err}") from None
        return
    if isinstance(p, pandas.Series):
        if not isinstance(e, pandas.Series):
            raise Different(f"{path}: pandas gives a Series, ember a {type(e).__name__}")
        try:
            tm.assert_series_equal(e, p, check_flags=False, check_freq=False)
        except AssertionError as err:
            raise Different(f"{path}: {err}") from None
        return
    if isinstance(p, pandas.Index):
        if not isinstance(e, pandas.Index):
            raise Different(f"{path}: pandas gives an Index, ember a {type(e).__name__}")
        if _fast_same_index(e, p):
            return
        try:
            tm.assert_index_equal(e, p, exact="equiv", **_INDEX_KW)
        except AssertionError as err:
            raise Different(f"{path}: {err}") from None
        if type(p) is not type(e) and not (
            isinstance(p, pandas.RangeIndex) or isinstance(e, pandas.RangeIndex)
        ):
            raise Different(f"{path}: pandas gives {type(p).__name__}, ember {type(e).__name__}")
        return
    if isinstance(p, np.ndarray):
        if not isinstance(e, np.ndarray):
            raise Different(f"{path}: pandas gives a NumPy array, ember a {type(e).__name__}")
        try:
            tm.assert_numpy_array_equal(e, p)
        except AssertionError as err:
            raise Different(f"{path}: {err}") from None
        return
    if isinstance(p, pandas.api.extensions.ExtensionArray):
        if not isinstance(e, pandas.api.extensions.ExtensionArray):
            raise Different(f"{path}: pandas gives a {type(p).__name__}, ember a {type(e).__name__}")
        try:
            tm.assert_extension_array_equal(e, p)
        except AssertionError as err:
            raise Different(f"{path}: {err}") from None
        return
    kp, ke = _kind(p), _kind(e)
    if kp or ke:
        if kp != ke:
            raise Different(
                f"{path}: pandas gives {_short(p)} ({kp}), ember {_short(e)} ({ke or type(e).__name__})"
            )
        if isinstance(p, np.generic) and isinstance(e, np.generic) and p.dtype != e.dtype:
            raise Different(f"{path}: pandas gives {p.dtype} {_short(p)}, ember {e.dtype} {_short(e)}")
        if kp == "float":
            same = (math.isnan(p) and math.isnan(e)) or math.isclose(p, e, rel_tol=1e-7, abs_tol=1e-12)
        elif kp == "complex":
            same = np.isclose(p, e, equal_nan=True)
        elif kp in ("None", "NA", "NaT"):
            same = True
        else:
            try:
                same = bool(p == e)
            except Exception:  # noqa: BLE001
                same = str(p) == str(e)
            if same and kp == "datetime":
                same = str(getattr(p, "tzinfo", None)) == str(getattr(e, "tzinfo", None))
        if not same:
            raise Different(f"{path}: pandas gives {_short(p)}, ember {_short(e)}")
        return
    if isinstance(p, (list, tuple)):
        if type(e) is not type(p):
            raise Different(f"{path}: pandas gives a {type(p).__name__}, ember a {type(e).__name__}")
        if len(e) != len(p):
            raise Different(
                f"{path}: pandas gives {len(p)} items, ember {len(e)}: {_short(p)} vs {_short(e)}"
            )
        for i, (ev, pv) in enumerate(zip(e, p, strict=True)):
            compare(ev, pv, f"{path}[{i}]")
        return
    if isinstance(p, dict):
        if not isinstance(e, dict):
            raise Different(f"{path}: pandas gives a dict, ember a {type(e).__name__}")
        if list(e.keys()) != list(p.keys()):
            raise Different(f"{path}: keys differ: pandas {_short(list(p))}, ember {_short(list(e))}")
        for k in p:
            compare(e[k], p[k], f"{path}[{k!r}]")
        return
    if isinstance(p, (set, frozenset)):
        if type(e) is not type(p) or e != p:
            raise Different(f"{path}: pandas gives {_short(p)}, ember {_short(e)}")
        return
    # anything else (dtypes, Categorical, offsets, ...): the same type and the same text
    if type(e) is not type(p) and not (_is_ember(e) and type(e).__name__ == type(p).__name__):
        raise Different(
            f"{path}: pandas gives a {type(p).__name__}, ember a {type(e).__name__}: {_short(p)} vs {_short(e)}"
        )
    if isinstance(p, pandas.Categorical):
        try:
            tm.assert_categorical_equal(e, p)
        except AssertionError as err:
            raise Different(f"{path}: {err}") from None
        return
    if str(e) != str(p):
        raise Different(f"{path}: pandas gives {_short(p)}, ember {_short(e)}")


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+|object at|<generator|<zip|<map|<itertools")


def _is_opaque(p: Any) -> bool:
    try:
        return bool(_ADDRESS.search(repr(p)))
    except Exception:  # noqa: BLE001
        return True


# ---------------------------------------------------------------------------------------------
# the names an example binds or reads


def _base_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _names(source: str) -> tuple[set[str], set[str], set[str], set[str]]:
    """(names bound by plain assignment, names whose object is changed in place, names read, names
    whose object a method is called on: ``s.pop(0)``, ``df.update(other)`` may change it)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set(), set(), set(), set()
    receivers: set[str] = set()
    bound: set[str] = set()
    mutated: set[str] = set()
    read: set[str] = set()

    def target(t: ast.AST) -> None:
        if isinstance(t, ast.Name):
            bound.add(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for elt in t.elts:
                target(elt)
        elif isinstance(t, ast.Starred):
            target(t.value)
        else:
            b = _base_name(t)
            if b:
                mutated.add(b)

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                target(t)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            target(node.target)
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                read.add(node.target.id)
        elif isinstance(node, (ast.For, ast.comprehension)):
            target(node.target)
        elif isinstance(node, (ast.With,)):
            for item in node.items:
                if item.optional_vars is not None:
                    target(item.optional_vars)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                b = _base_name(t)
                if b:
                    mutated.add(b)
        elif isinstance(node, ast.Call):
            inplace = any(
                k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in node.keywords
            )
            if isinstance(node.func, ast.Attribute):
                b = _base_name(node.func.value)
                if b:
                    (mutated if inplace else receivers).add(b)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            read.add(node.id)
    return bound, mutated, read, receivers


def _uses_ember_names(source: str) -> bool:
    return bool(re.search(r"\bpd\.(" + "|".join(EMBER_NAMES) + r")\b", source))


# ---------------------------------------------------------------------------------------------
# one docstring


@dataclass
class Result:
    id: str
    area: str
    doc: str
    index: int
    source: str
    status: str
    detail: str = ""
    pandas: str = ""
    ember: str = ""
    blocked_by: str | None = None
    cascade_of: str | None = None
    kind: str = ""  # wrong: value / state / text / raises; error: the exception type


# Calls that only build data: a file name or address among their literals is data, not I/O.
_DATA_CONSTRUCTORS = {"Series", "DataFrame", "Index", "array"}


def _builds_data_only(source: str) -> bool:
    """Whether every call in ``source`` is a data constructor (``pd.Series([...])``, ``np.array``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    return all(isinstance(c.func, ast.Attribute) and c.func.attr in _DATA_CONSTRUCTORS for c in calls)


def _skip_reason(example: doctest.Example, source_all: str) -> str | None:
    if example.options.get(doctest.SKIP):
        return "+SKIP"
    for pattern, reason in _SKIP_SOURCE:
        if pattern.search(example.source):
            if reason in ("files", "network") and _builds_data_only(example.source):
                continue  # e.g. a Series of URLs for the .str examples
            return reason
    return None


def _fresh_namespaces(overrides: dict[str, Any] | None) -> tuple[dict, dict]:
    ref = {"pd": pandas, "np": np, "__name__": "__doctest__"}
    shim = EmberPandas(overrides)

    def ember_import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002
        # ``import pandas as pd`` / ``from pandas import merge_ordered`` inside an example: the shim
        if name == "pandas" and level == 0:
            return shim
        return builtins.__import__(name, globals, locals, fromlist, level)

    emb_builtins = dict(vars(builtins), __import__=ember_import, print=_ember_print)
    emb = {"pd": shim, "np": np, "__builtins__": emb_builtins, "__name__": "__doctest__"}
    return ref, emb


def _same_exception(e: BaseException, p: BaseException) -> bool:
    if isinstance(e, type(p)) or isinstance(p, type(e)):
        return True
    builtin = next((c for c in type(p).__mro__ if c.__module__ == "builtins"), Exception)
    return builtin is not Exception and isinstance(e, builtin)


def run_doc(doc: Doc, timeout: float = 10.0, overrides: dict[str, Any] | None = None) -> list[Result]:
    """Runs one docstring's examples in the reference and the ember namespace, example by example."""
    parser = doctest.DocTestParser()
    try:
        examples = parser.get_examples(doc.text, name=doc.name)
    except ValueError as e:
        return [Result(f"{doc.name}#0", doc.area, doc.name, 0, "", "skipped", f"unparsable: {e}")]
    ref, emb = _fresh_namespaces(overrides)
    results: list[Result] = []
    blocked: dict[str, tuple[str, str]] = {}  # name -> (root id, root status)
    tainted: dict[str, str] = {}  # name -> the wrong example's id
    skipped_names: set[str] = set()
    touches_options = "option" in doc.text
    for k, ex in enumerate(examples):
        rid = f"{doc.name}#{k}"
        res = Result(rid, doc.area, doc.name, k, ex.source.rstrip("\n"), "pass")
        results.append(res)
        bound, mutated, read, receivers = _names(ex.source)
        reason = _skip_reason(ex, doc.text)
        if reason:
            res.status, res.detail = "skipped", reason
            skipped_names |= bound | mutated
            for n in bound | mutated:
                ref.pop(n, None)
                emb.pop(n, None)
            continue
        seed = 1234 + k
        emb_before = {n: emb.get(n, NOVALUE) for n in read}
        po = run_source(ex.source, ref, timeout, seed)
        eo = run_source(ex.source, emb, timeout, seed)
        res.pandas = _short(po.exc if po.exc is not None else po.value) + (
            f"\n[stdout] {po.stdout[:400]}" if po.stdout else ""
        )
        res.ember = _short(eo.exc if eo.exc is not None else eo.value) + (
            f"\n[stdout] {eo.stdout[:400]}" if eo.stdout else ""
        )
        if po.exc is not None:
            res.pandas = f"{type(po.exc).__name__}: {str(po.exc)[:300]}"
        if eo.exc is not None:
            res.ember = f"{type(eo.exc).__name__}: {str(eo.exc)[:300]}"
        touched = (
            _uses_ember_names(ex.source)
            or any(_holds_ember(v) for v in emb_before.values())
            or _holds_ember(eo.value)
            or eo.exc is not None
        )
        blocker = next((blocked[n] for n in read | mutated if n in blocked), None)
        try:
            with _time_limit(timeout):
                _classify(res, ex, po, eo, touched, blocker, skipped_names & (read | mutated))
        except ExampleTimeout:
            res.status, res.detail = "skipped", "comparing the results timed out"

        # bookkeeping for later examples: what this example bound or changed, in either run
        candidates = bound | mutated | receivers
        if res.status in ("unsupported", "error") or (eo.exc is not None and po.exc is None):
            root = (res.blocked_by or rid, res.status if res.status != "skipped" else "error")
            # any name the refused statement left differing: pandas may have written through to an
            # array it shares (Series(arr, copy=False)), which no name in the source shows
            others = candidates | (set(ref) - set(tainted))
            differing = {n for n, _ in _state_diffs(others - bound, ref, emb)}
            for n in bound | mutated | differing:
                blocked[n] = root
                emb.pop(n, None)  # a stale binding must not stand in for the missing one
        else:
            for n in bound | mutated:
                blocked.pop(n, None)
        if res.status == "skipped":
            skipped_names |= bound | mutated
        else:
            skipped_names -= bound | mutated
        state_wrong: set[str] = set()
        if res.status in ("pass", "pandas-only", "wrong") and po.exc is None and eo.exc is None:
            try:
                with _time_limit(timeout):
                    # a name already wrong and only changed here is not reported again; one bound anew is
                    check = (bound | (candidates - set(tainted))) - set(blocked)
                    diffs = _state_diffs(check, ref, emb)
            except ExampleTimeout:
                diffs = []
            state_wrong = {n for n, _ in diffs}
            if diffs and res.status != "wrong":
                name, message = diffs[0]
                res.status, res.kind = "wrong", "state"
                res.detail = f"after this example, {message}"
                res.pandas, res.ember = _short(ref[name]), _short(to_pandas(emb[name]))
        if res.status == "wrong":
            cause = next((tainted[n] for n in read | mutated | receivers if n in tainted), None)
            if cause and cause != rid:
                res.cascade_of = cause
            for n in bound | mutated | state_wrong:
                tainted.setdefault(n, res.cascade_of or rid)
        else:
            for n in bound - mutated:
                tainted.pop(n, None)
    if touches_options:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pandas.reset_option("all")
    return results


def _classify(
    res: Result,
    ex: doctest.Example,
    po: Outcome,
    eo: Outcome,
    touched: bool,
    blocker: tuple[str, str] | None,
    uses_skipped: set[str],
) -> None:
    expects_raise = ex.exc_msg is not None
    if isinstance(po.exc, ExampleTimeout):
        res.status, res.detail = "skipped", "pandas timed out"
        return
    if po.exc is not None and not expects_raise:
        res.status = "skipped"
        res.detail = f"pandas fails: {type(po.exc).__name__}: {str(po.exc)[:200]}"
        return
    if uses_skipped and eo.exc is None:
        res.status, res.detail = "skipped", f"uses {sorted(uses_skipped)} of a skipped example"
        return
    if po.exc is not None:  # pandas raises as its docstring shows
        if eo.exc is None:
            if blocker:
                res.status, res.blocked_by = blocker[1], blocker[0]
                res.detail = "blocked (ember accepted an input built from a blocked name)"
                return
            res.status, res.kind = "wrong", "accepts"
            res.detail = f"pandas raises {type(po.exc).__name__}, ember returns {_short(eo.value, 200)}"
            return
        if isinstance(eo.exc, NotImplementedError):
            res.status, res.kind = "unsupported", type(eo.exc).__name__
            res.detail = str(eo.exc)[:300]
        elif _same_exception(eo.exc, po.exc):
            res.status = "pass" if touched else "pandas-only"
        else:
            res.status, res.kind = "error", type(eo.exc).__name__
            res.detail = (
                f"pandas raises {type(po.exc).__name__}, ember {type(eo.exc).__name__}: {str(eo.exc)[:200]}"
            )
        if blocker and res.status == "error":
            res.status, res.blocked_by = blocker[1], blocker[0]
        return
    if eo.exc is not None:
        if blocker:
            res.status, res.blocked_by = blocker[1], blocker[0]
            res.detail = f"blocked by {blocker[0]}: {type(eo.exc).__name__}: {str(eo.exc)[:200]}"
            res.kind = type(eo.exc).__name__
            return
        if isinstance(eo.exc, NotImplementedError):
            res.status = "unsupported"
        else:
            res.status = "error"
        res.kind = type(eo.exc).__name__
        res.detail = f"{type(eo.exc).__name__}: {str(eo.exc)[:300]}"
        return
    # both ran: compare what they show
    if _is_opaque(po.value):
        res.status, res.detail = "skipped", "prints an address / an iterator"
        return
    try:
        if po.value is NOVALUE or po.value is None:
            ev = eo.value
            if ev is not NOVALUE and ev is not None:
                raise Different(f"pandas returns None, ember {_short(to_pandas(ev), 300)}")
        else:
            compare(to_pandas(eo.value), po.value)
        if po.stdout != eo.stdout:
            res.kind = "text"
            raise Different(f"printed text differs:\n--- pandas\n{po.stdout}\n--- ember\n{eo.stdout}")
    except Different as d:
        if blocker:
            res.status, res.blocked_by = blocker[1], blocker[0]
            res.detail = f"blocked by {blocker[0]}; differs: {str(d)[:200]}"
            return
        res.status, res.kind = "wrong", res.kind or "value"
        res.detail = str(d)[:1500]
        return
    except Exception as err:  # noqa: BLE001  (ember's to_pandas or repr failed)
        res.status, res.kind = "error", type(err).__name__
        res.detail = f"converting ember's result: {type(err).__name__}: {str(err)[:200]}"
        return
    if not touched or (eo.converted_calls and not _holds_ember(eo.value)):
        res.status = "pandas-only"


def _state_diffs(names: set[str], ref: dict, emb: dict) -> list[tuple[str, str]]:
    """The names (of pandas objects, arrays and scalars) whose objects differ between the two runs,
    with how they differ."""
    out = []
    for n in sorted(names):
        if n not in ref:
            continue
        p = ref[n]
        if not isinstance(p, (pandas.DataFrame, pandas.Series, pandas.Index, np.ndarray)):
            continue
        if n not in emb:
            out.append((n, f"{n} is not bound in the ember run"))
            continue
        try:
            compare(to_pandas(emb[n]), p, path=n)
        except Different as d:
            out.append((n, str(d)[:1500]))
        except Exception as err:  # noqa: BLE001
            out.append((n, f"converting {n}: {type(err).__name__}: {str(err)[:200]}"))
    return out


# ---------------------------------------------------------------------------------------------
# the whole run and its report


def run_all(
    areas: tuple[str, ...] = AREAS,
    match: str | None = None,
    timeout: float = 10.0,
    limit: int | None = None,
    verbose: bool = False,
) -> list[Result]:
    docs = collect_docs(areas, match)
    if limit:
        docs = docs[:limit]
    results: list[Result] = []
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            for doc in docs:
                t0 = time.perf_counter()
                rs = run_doc(doc, timeout)
                results.extend(rs)
                if verbose:
                    c = Counter(r.status for r in rs)
                    print(f"{time.perf_counter() - t0:6.2f}s {doc.name}: {dict(c)}", file=sys.stderr)
        finally:
            os.chdir(cwd)
    return results


def counts(results: list[Result]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for area in (*AREAS, "overall"):
        rs = [r for r in results if area == "overall" or r.area == area]
        if not rs:
            continue
        c = Counter(r.status for r in rs)
        row = {s: c.get(s, 0) for s in _STATUSES}
        row["blocked"] = sum(1 for r in rs if r.blocked_by)
        row["wrong (root)"] = sum(1 for r in rs if r.status == "wrong" and not r.cascade_of)
        row["total"] = len(rs)
        table[area] = row
    return table


def markdown(results: list[Result], elapsed: float) -> str:
    table = counts(results)
    cols = [*_STATUSES, "blocked", "wrong (root)", "total"]
    lines = [
        "# pandas docstring examples with ember",
        "",
        f"pandas {pandas.__version__}, NumPy {np.__version__}, ember {ember.__version__}, "
        f"device {ember.config.get('device')}; {elapsed:.0f} s.",
        "",
        "| area | " + " | ".join(cols) + " |",
        "|---" * (len(cols) + 1) + "|",
    ]
    for area, row in table.items():
        lines.append(f"| {area} | " + " | ".join(str(row[c]) for c in cols) + " |")
    wrong = [r for r in results if r.status == "wrong"]
    lines += ["", f"## wrong ({len(wrong)})", ""]
    for r in wrong:
        lines += [
            f"### `{r.id}` ({r.area}, {r.kind})"
            + (f" — cascade of `{r.cascade_of}`" if r.cascade_of else ""),
            "",
            "```python",
            r.source,
            "```",
            "",
            "```",
            r.detail[:1500],
            "```",
            "",
        ]
    errors = Counter(
        (r.kind, re.sub(r"\d+", "N", r.detail.split("\n")[0])[:120])
        for r in results
        if r.status == "error" and not r.blocked_by
    )
    lines += ["", "## most common errors", ""]
    for (kind, msg), n in errors.most_common(40):
        lines.append(f"- {n} x {kind}: {msg}")
    unsup = Counter(
        re.sub(r" Opt in.*", "", r.detail)[:120]
        for r in results
        if r.status == "unsupported" and not r.blocked_by
    )
    lines += ["", "## most common unsupported", ""]
    for msg, n in unsup.most_common(30):
        lines.append(f"- {n} x {msg}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--areas", default=",".join(AREAS), help="comma-separated: " + ",".join(AREAS))
    ap.add_argument("--match", default=None, help="only docstrings whose name matches this regex")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per example")
    ap.add_argument("--limit", type=int, default=None, help="at most this many docstrings")
    ap.add_argument("--out", default=None, help="JSON report path (a .md summary is written beside it)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    areas = tuple(a.strip() for a in args.areas.split(",") if a.strip())
    unknown = set(areas) - set(AREAS)
    if unknown:
        ap.error(f"unknown areas {sorted(unknown)}; choose from {', '.join(AREAS)}")
    t0 = time.perf_counter()
    results = run_all(areas, args.match, args.timeout, args.limit, args.verbose)
    elapsed = time.perf_counter() - t0
    table = counts(results)
    cols = [*_STATUSES, "blocked", "total"]
    print(f"{'area':12s}" + "".join(f"{c:>13s}" for c in cols))
    for area, row in table.items():
        print(f"{area:12s}" + "".join(f"{row[c]:13d}" for c in cols))
    print(f"{elapsed:.1f} s")
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            json.dump(
                {
                    "pandas": pandas.__version__,
                    "ember_names": list(EMBER_NAMES),
                    "counts": table,
                    "results": [asdict(r) for r in results],
                },
                f,
                indent=1,
            )
        md = os.path.splitext(args.out)[0] + ".md"
        with open(md, "w") as f:
            f.write(markdown(results, elapsed))
        print(f"wrote {args.out} and {md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

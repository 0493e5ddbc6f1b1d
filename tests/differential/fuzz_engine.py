"""Differential fuzzing of ember against pandas: random frames, random chains of public operations.

A chain is a list of ``Step``s. A step is a *path* of elements (attribute, call, item, binary operator,
module function) applied to the current object; arguments may be literals, ``Sub`` paths (evaluated on
the step's input, e.g. the mask of ``r[r['a'] > 0]``) or ``Other`` objects (a second drawn pandas
frame or Series, converted with ``em.from_pandas`` on ember's side). The same steps run on pandas and on
ember, step by step; each step's result feeds the next while it is a DataFrame or Series, and the two
sides are compared after every step, so a divergence names the step that caused it.

Frames and chains are drawn through a ``Drawer``: ``RngDrawer`` (a NumPy generator, fast, for long
runs) or ``HypothesisDrawer`` (hypothesis' ``data.draw``, for the CI test, which shrinks).
"""

from __future__ import annotations

import math
import operator
import re
import time
import traceback
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pandas.testing as tm

import ember as em
from ember.testing import strategies as est

# --------------------------------------------------------------------------------------------- drawing


class Drawer:
    """Random choices the generators make; subclasses draw them from NumPy or from hypothesis."""

    def int(self, lo: int, hi: int) -> int:  # inclusive bounds
        raise NotImplementedError

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[self.int(0, len(seq) - 1)]

    def flag(self, p: float = 0.5) -> bool:
        raise NotImplementedError

    def positions(self, n: int, hi: int) -> list[int]:
        return [self.int(0, hi) for _ in range(n)]

    def values(self, dtype: str, n: int, null_p: float) -> list[Any]:
        raise NotImplementedError

    def subset(self, seq: Sequence[Any], lo: int = 1, hi: int | None = None) -> list[Any]:
        """Distinct items of ``seq`` in a drawn order."""
        pool = list(seq)
        k = self.int(min(lo, len(pool)), min(len(pool), hi if hi is not None else len(pool)))
        out = []
        for _ in range(k):
            out.append(pool.pop(self.int(0, len(pool) - 1)))
        return out


class RngDrawer(Drawer):
    def __init__(self, seed: Any) -> None:
        self.rng = np.random.default_rng(seed)

    def int(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi + 1))

    def flag(self, p: float = 0.5) -> bool:
        return bool(self.rng.random() < p)

    def positions(self, n: int, hi: int) -> list[int]:
        return self.rng.integers(0, hi + 1, n).tolist()

    def values(self, dtype: str, n: int, null_p: float) -> list[Any]:
        common, rare = est.value_pool(dtype)
        pick = self.rng.integers(0, len(common), n)
        out = [common[i] for i in pick]
        if rare:
            for i in np.flatnonzero(self.rng.random(n) < 0.04):
                out[i] = rare[int(self.rng.integers(0, len(rare)))]
        if null_p and est.can_hold_missing(dtype):
            for i in np.flatnonzero(self.rng.random(n) < null_p):
                out[i] = None
        return out


class HypothesisDrawer(Drawer):
    def __init__(self, data: Any) -> None:
        from hypothesis import strategies as st

        self.st = st
        self.data = data

    def int(self, lo: int, hi: int) -> int:
        return self.data.draw(self.st.integers(lo, hi))

    def flag(self, p: float = 0.5) -> bool:
        return self.data.draw(self.st.booleans())

    def values(self, dtype: str, n: int, null_p: float) -> list[Any]:
        st = self.st
        common, rare = est.value_pool(dtype)
        item = st.sampled_from(list(common + rare))
        if null_p and est.can_hold_missing(dtype):
            item = st.one_of(item, st.none())
        return self.data.draw(st.lists(item, min_size=n, max_size=n))


SIZES = (0, 1, 1, 2, 3, 3, 4, 5, 6, 8, 10, 12, 16, 20)
COLUMN_NAMES = ("a", "b", "c", "d", "e")


def draw_frame(d: Drawer, n: int | None = None, index: pd.Index | None = None) -> pd.DataFrame:
    """A frame of 1-4 columns of drawn dtypes, 0-20 rows, a drawn row index (or ``index``)."""
    if index is not None:
        n = len(index)
    elif n is None:
        n = d.choice(SIZES)
    names = d.subset(COLUMN_NAMES, 1, 4)
    cols = {}
    for name in names:
        dtype = d.choice(est.MIXED_DTYPES)
        null_p = d.choice((0.0, 0.0, 0.2, 0.5, 1.0))
        cols[name] = est.build_series(d.values(dtype, n, null_p), dtype, name)
    if index is None:
        index = draw_index(d, n)
    return pd.DataFrame({c: s.set_axis(index) for c, s in cols.items()}, index=index, columns=names)


def draw_index(d: Drawer, n: int) -> pd.Index:
    kind = d.choice(est.INDEX_KINDS + ("range", "range"))
    return est.build_index(kind, d.positions(n, 2 * n + 1), d.choice((None, None, "idx")))


def draw_series(d: Drawer, dtype: str | None = None, n: int | None = None, index: Any = None) -> pd.Series:
    dtype = dtype or d.choice(est.MIXED_DTYPES)
    if index is not None:
        n = len(index)
    elif n is None:
        n = d.choice(SIZES)
    s = est.build_series(d.values(dtype, n, d.choice((0.0, 0.2, 0.5))), dtype, d.choice((None, "s", "a")))
    return s.set_axis(index if index is not None else draw_index(d, n))


# ------------------------------------------------------------------------------------------- paths


@dataclass(frozen=True)
class Attr:
    name: str


@dataclass(frozen=True)
class Call:
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def __hash__(self) -> int:
        return id(self)


@dataclass(frozen=True)
class Item:
    key: Any

    def __hash__(self) -> int:
        return id(self)


@dataclass(frozen=True)
class Bin:
    op: str  # an operator symbol: + - * / // % ** == != < <= > >= & | ^
    other: Any
    reflected: bool = False

    def __hash__(self) -> int:
        return id(self)


@dataclass(frozen=True)
class Func:
    """A module function (``pd.<name>`` / ``em.<name>``); ``CUR`` in the arguments is the current object."""

    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def __hash__(self) -> int:
        return id(self)


@dataclass(frozen=True)
class Sub:
    """A path evaluated on the step's input (the mask in ``r[r['a'] > 0]``)."""

    path: tuple


class _Cur:
    def __repr__(self) -> str:
        return "r"


CUR = _Cur()


class Other:
    """A second pandas object the step uses (converted with ``em.from_pandas`` on ember's side)."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj
        self.name = "o"


BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
}


@dataclass
class Step:
    op: str  # the operation's name in the table (the dedup key)
    path: tuple
    families: tuple = ()  # dtype families the step works on (for the known-divergence list)

    def code(self, var: str = "r", others: dict[int, str] | None = None) -> str:
        return render(self.path, var, others or {})


class Side:
    """Evaluates paths for one library: 'pd' (pandas) or 'em' (ember)."""

    def __init__(self, lib: str) -> None:
        self.lib = lib
        self.mod = pd if lib == "pd" else em
        self._others: dict[int, Any] = {}

    def other(self, o: Other) -> Any:
        if self.lib == "pd":
            return o.obj
        if id(o) not in self._others:
            self._others[id(o)] = em.from_pandas(o.obj)
        return self._others[id(o)]

    def resolve(self, x: Any, base: Any) -> Any:
        if isinstance(x, Sub):
            return self.eval(x.path, base)
        if isinstance(x, Other):
            return self.other(x)
        if x is CUR:
            return base
        if isinstance(x, list):
            return [self.resolve(v, base) for v in x]
        if isinstance(x, tuple):
            return tuple(self.resolve(v, base) for v in x)
        if isinstance(x, dict):
            return {k: self.resolve(v, base) for k, v in x.items()}
        return x

    def eval(self, path: Sequence[Any], base: Any) -> Any:
        r = base
        for el in path:
            if isinstance(el, Attr):
                r = getattr(r, el.name)
            elif isinstance(el, Call):
                r = r(*self.resolve(el.args, base), **self.resolve(el.kwargs, base))
            elif isinstance(el, Item):
                r = r[self.resolve(el.key, base)]
            elif isinstance(el, Bin):
                other = self.resolve(el.other, base)
                f = BINOPS[el.op]
                r = f(other, r) if el.reflected else f(r, other)
            elif isinstance(el, Func):
                f = getattr(self.mod, el.name)
                r = f(*self.resolve(el.args, r), **self.resolve(el.kwargs, r))
            else:
                raise TypeError(f"unknown path element {el!r}")
        return r


# ----------------------------------------------------------------------------------------- rendering


def lit(x: Any, others: dict[int, str], base: str = "r", cur: str = "r") -> str:
    """Python source for an argument: ``base`` names the step's input (for ``Sub``), ``cur`` the current
    object (for ``CUR`` in a module function's arguments)."""

    def rec(v: Any) -> str:
        return lit(v, others, base, cur)

    if isinstance(x, Sub):
        return render(x.path, base, others)
    if isinstance(x, Other):
        return others.get(id(x), x.name)
    if x is CUR:
        return cur
    if isinstance(x, (float, np.floating)):
        if math.isnan(x):
            return "np.nan"
        if math.isinf(x):
            return "np.inf" if x > 0 else "-np.inf"
        return repr(float(x))
    if isinstance(x, (bool, np.bool_)):
        return repr(bool(x))
    if isinstance(x, np.integer):
        return repr(int(x))
    if isinstance(x, slice):
        parts = ["" if v is None else rec(v) for v in (x.start, x.stop)]
        return ":".join(parts) + ("" if x.step is None else f":{rec(x.step)}")
    if isinstance(x, list):
        return "[" + ", ".join(rec(v) for v in x) + "]"
    if isinstance(x, tuple):
        return "(" + ", ".join(rec(v) for v in x) + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{rec(k)}: {rec(v)}" for k, v in x.items()) + "}"
    if isinstance(x, pd.Timestamp):
        if x.tz is not None:
            return f"pd.Timestamp({str(x.tz_localize(None))!r}, tz={str(x.tz)!r})"
        return f"pd.Timestamp({str(x)!r})"
    if isinstance(x, pd.Timedelta):
        return f"pd.Timedelta({str(x)!r})"
    if x is pd.NA:
        return "pd.NA"
    return repr(x)


def render(path: Sequence[Any], var: str, others: dict[int, str], lib: str = "pd") -> str:
    """Python source applying ``path`` to the expression ``var``."""
    s = var

    def args(a: tuple, kw: dict) -> str:
        parts = [lit(v, others, var, s) for v in a] + [f"{k}={lit(v, others, var, s)}" for k, v in kw.items()]
        return ", ".join(parts)

    for el in path:
        if isinstance(el, Attr):
            s += f".{el.name}"
        elif isinstance(el, Call):
            s += f"({args(el.args, el.kwargs)})"
        elif isinstance(el, Item):
            key = el.key
            if isinstance(key, tuple):
                inner = ", ".join(lit(k, others, var, s) for k in key)
            else:
                inner = lit(key, others, var, s)
            s += f"[{inner}]"
        elif isinstance(el, Bin):
            o = lit(el.other, others, var, s)
            s = f"({o} {el.op} {s})" if el.reflected else f"({s} {el.op} {o})"
        elif isinstance(el, Func):
            s = f"{lib}.{el.name}({args(el.args, el.kwargs)})"
    return s


def _values_code(s: pd.Series) -> str:
    dtype = str(s.dtype)
    vals = s.tolist()
    if isinstance(s.dtype, pd.CategoricalDtype):
        cats = lit(list(s.cat.categories), {})
        return f"pd.Categorical({lit([None if pd.isna(v) else v for v in vals], {})}, categories={cats})"
    if dtype.startswith(("datetime64", "timedelta64")):
        strs = [None if pd.isna(v) else str(v) for v in vals]
        return f"pd.Series({strs!r}, dtype={dtype!r})"
    if dtype in ("str", "string", "object") or dtype.startswith(("Int", "UInt", "Float", "boolean")):
        vals = [
            None if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)) else v for v in vals
        ]
    return f"pd.Series({lit(vals, {})}, dtype={dtype!r})"


def index_code(index: pd.Index) -> str:
    if isinstance(index, pd.RangeIndex):
        name = f", name={index.name!r}" if index.name is not None else ""
        return f"pd.RangeIndex({index.start}, {index.stop}, {index.step}{name})"
    name = f", name={index.name!r}" if index.name is not None else ""
    if isinstance(index, pd.DatetimeIndex):
        return f"pd.DatetimeIndex({[str(v) for v in index]!r}, dtype={str(index.dtype)!r}{name})"
    return f"pd.Index({lit(index.tolist(), {})}, dtype={str(index.dtype)!r}{name})"


def obj_code(obj: Any) -> str:
    """Constructor code for a drawn pandas DataFrame or Series (checked to round-trip by ``repro``)."""
    idx = obj.index
    default = isinstance(idx, pd.RangeIndex) and idx.start == 0 and idx.step == 1 and idx.name is None
    if isinstance(obj, pd.Series):
        body = _values_code(obj)
        if not body.startswith("pd.Series("):
            body = f"pd.Series({body})"
        extra = "" if default else f", index={index_code(idx)}"
        if obj.name is not None:
            extra += f", name={obj.name!r}"
        return body[:-1] + extra + ")"
    if not len(obj.columns):
        return f"pd.DataFrame(index={index_code(idx)})"
    cols = ", ".join(f"{k!r}: {_values_code(obj[k])}" for k in obj.columns)
    if default:
        return f"pd.DataFrame({{{cols}}})"
    return f"pd.DataFrame({{{cols}}}).set_axis({index_code(idx)})"


def _roundtrips(obj: Any, code: str) -> bool:
    try:
        back = eval(code, {"pd": pd, "np": np})  # noqa: S307 - our own generated constructor code
        if isinstance(obj, pd.DataFrame):
            tm.assert_frame_equal(back, obj, check_exact=True, check_freq=False)
        else:
            tm.assert_series_equal(back, obj, check_exact=True, check_freq=False)
        return True
    except Exception:
        return False


# ------------------------------------------------------------------------------------------ comparing

ORDER_TIES = "ties"  # a step flag: rows tied on the sort key may come in any order (pandas' quicksort)


def describe(obj: Any) -> str:
    if isinstance(obj, BaseException):
        return f"{type(obj).__name__}: {str(obj).splitlines()[0][:200] if str(obj) else ''}"
    if hasattr(obj, "to_pandas") and not isinstance(obj, (pd.DataFrame, pd.Series, pd.Index)):
        try:
            obj = obj.to_pandas()
        except Exception as exc:  # noqa: BLE001
            return f"<{type(obj).__name__}: to_pandas failed: {exc}>"
    text = repr(obj)
    if isinstance(obj, (pd.DataFrame, pd.Series, pd.Index)):
        dt = obj.dtypes.to_dict() if isinstance(obj, pd.DataFrame) else obj.dtype
        text += f"\n  dtypes: {dt}; index: {getattr(obj, 'index', obj).dtype}"
    return text


def _kind_of(msg: str) -> str:
    """A short name for what an assertion found different (the dedup key's error kind)."""
    m = msg.lower()
    for key, kind in (
        ("expected two", "type"),
        ('attribute "dtype"', "dtype"),
        ("dtypes differ", "dtype"),
        ("categorical", "categories"),
        ("shape mismatch", "shape"),
        ("are different\n\n", None),
    ):
        if key in m and kind:
            return kind
    if "index are different" in m or "index values are different" in m or ".index" in m:
        return "index"
    if "columns" in m:
        return "columns"
    if "name" in m and "attribute" in m:
        return "name"
    if "length" in m or "shape" in m:
        return "shape"
    return "values"


def compare(p: Any, e: Any) -> str | None:
    """None when ember's result ``e`` equals pandas' ``p``, else the assertion message."""
    from ember.testing import assert_eq

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if isinstance(p, (pd.DataFrame, pd.Series)):
                assert_eq(e, p, check_exact=False, check_freq=False)
            elif isinstance(p, pd.Index):
                assert_eq(e, p, exact="equiv")
            elif isinstance(p, tuple) and not isinstance(e, tuple):
                return f"expected a tuple, got {type(e).__name__}"
            else:
                assert_eq(e, p, check_exact=False)
    except AssertionError as exc:
        return str(exc) or "assertion failed"
    except Exception as exc:  # noqa: BLE001 - a conversion of ember's result failed: a divergence too
        return f"comparing raised {type(exc).__name__}: {exc}"
    return None


def compare_ties(p: Any, e: Any) -> str | None:
    """Equal up to the order of rows tied on their values (both sorted by values then labels)."""
    msg = compare(p, e)
    if msg is None:
        return None
    try:
        ep = e.to_pandas()
        if isinstance(p, pd.Series) and isinstance(ep, pd.Series):
            pv, ev = p.reset_index(drop=True), ep.reset_index(drop=True)
            if compare(pv, em.from_pandas(ev)) is not None:
                return msg  # the values themselves differ in order: a real difference
            key = lambda s: s.index.to_frame(index=False).astype(str).agg("|".join, axis=1)  # noqa: E731
            ps = p.iloc[np.lexsort([key(p).to_numpy(), p.to_numpy(dtype=object).astype(str)])]
            es = ep.iloc[np.lexsort([key(ep).to_numpy(), ep.to_numpy(dtype=object).astype(str)])]
            return compare(ps, em.from_pandas(es))
    except Exception:  # noqa: BLE001
        return msg
    return msg


# ------------------------------------------------------------------------------------------- running

PASS, UNSUPPORTED, BOTH_RAISE, DIVERGENCE = "pass", "unsupported", "both-raise", "divergence"


@dataclass
class Outcome:
    status: str
    steps_run: int = 0
    step: Step | None = None
    kind: str = ""  # for a divergence: the error kind; for both-raise: "pd:Type/em:Type"
    detail: str = ""
    pandas_result: str = ""
    ember_result: str = ""
    type_differs: bool = False

    @property
    def key(self) -> tuple[str, str]:
        return (self.step.op if self.step else "?", self.kind)

    @property
    def signature(self) -> str:
        """What went wrong, without the values: shrinking keeps it, so a repro shows the same bug."""
        if self.kind.startswith("raises"):
            return f"{self.kind} at {self.detail}"
        if self.kind == "accepted":
            text = re.sub(r"(?<!\w)-?\d+(\.\d+)?|'[^']*'", "#", self.pandas_result)
            return f"accepted: pandas {text[:120]}"
        lines = [ln.strip() for ln in self.detail.splitlines() if ln.strip()]
        pick = next((ln for ln in lines if ln.startswith("Attribute ")), lines[0] if lines else "")
        if pick.startswith("Attribute ") or len(lines) < 2:
            pick = (lines[0] if lines else "") + " / " + pick
        if self.kind == "dtype":
            pick += " " + " ".join(ln for ln in lines if ln.startswith(("[left]", "[right]")))
        return f"{self.kind}: " + re.sub(r"(?<!\w)-?\d+(\.\d+)?|name=\"[^\"]*\"|'[^']*'", "#", pick)[:200]


def _call(side: Side, path: tuple, obj: Any) -> tuple[Any, BaseException | None]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return side.eval(path, obj), None
    except RecursionError:
        raise
    except Exception as exc:  # noqa: BLE001 - any exception is an outcome to compare
        return None, exc


def run_chain(pobj: Any, steps: Sequence[Step]) -> Outcome:
    """Runs ``steps`` on pandas' ``pobj`` and on ``em.from_pandas(pobj)``, comparing after each step."""
    return _run(pobj, lambda i, p: steps[i] if i < len(steps) else None)


def _run(pobj: Any, next_step: Callable[[int, Any], Step | None]) -> Outcome:
    """Runs the steps ``next_step(i, pandas' current object)`` gives until it gives None."""
    pside, eside = Side("pd"), Side("em")
    ecopy = pobj.copy(deep=True)
    try:
        eobj = em.from_pandas(ecopy)
    except NotImplementedError as exc:
        return Outcome(UNSUPPORTED, 0, Step("from_pandas", ()), "NotImplementedError", str(exc))
    except Exception as exc:  # noqa: BLE001
        return Outcome(
            DIVERGENCE, 0, Step("from_pandas", ()), type(exc).__name__, describe(exc), "", describe(exc)
        )
    p, e = pobj, eobj
    i = -1
    last = None
    while True:
        i += 1
        step = next_step(i, p)
        if step is None:
            break
        pres, perr = _call(pside, step.path, p)
        eres, eerr = _call(eside, step.path, e)
        if perr is not None:
            if eerr is None:
                return Outcome(
                    DIVERGENCE,
                    i + 1,
                    step,
                    "accepted",
                    "pandas raises, ember answers",
                    describe(perr),
                    describe(eres),
                )
            related = isinstance(eerr, type(perr)) or isinstance(perr, type(eerr))  # e.g. UFuncTypeError
            differs = not related and not isinstance(eerr, NotImplementedError)
            return Outcome(
                BOTH_RAISE,
                i + 1,
                step,
                f"pd:{type(perr).__name__}/em:{type(eerr).__name__}",
                describe(eerr),
                describe(perr),
                describe(eerr),
                differs,
            )
        if eerr is not None:
            if isinstance(eerr, NotImplementedError):
                return Outcome(UNSUPPORTED, i + 1, step, "NotImplementedError", str(eerr)[:200])
            tb = traceback.extract_tb(eerr.__traceback__)
            where = next(
                (
                    f"{f.filename.split('src/ember/')[-1]}:{f.lineno}"
                    for f in reversed(tb)
                    if "src/ember" in f.filename
                ),
                "",
            )
            return Outcome(
                DIVERGENCE,
                i + 1,
                step,
                f"raises {type(eerr).__name__}",
                where,
                describe(pres),
                describe(eerr),
            )
        cmp = compare_ties if ORDER_TIES in step.families else compare
        msg = cmp(pres, eres)
        if msg is not None:
            return Outcome(DIVERGENCE, i + 1, step, _kind_of(msg), msg[:600], describe(pres), describe(eres))
        last = step
        if not isinstance(pres, (pd.DataFrame, pd.Series)):
            i += 1
            break
        p, e = pres, eres
    # ember must not have written into the frame it was built from
    try:
        tm.assert_frame_equal(ecopy, pobj) if isinstance(pobj, pd.DataFrame) else tm.assert_series_equal(
            ecopy, pobj
        )
    except AssertionError as exc:
        return Outcome(DIVERGENCE, i, last, "mutated input", str(exc)[:300])
    return Outcome(PASS, i)


# -------------------------------------------------------------------------------------- chain drawing


def pick_step(
    d: Drawer, obj: Any, table: Sequence[Any], skip_known: bool, known: Callable[[Step], str | None]
) -> Step | None:
    ops = [op for op in table if op.applies(obj)]
    for _ in range(8):
        if not ops:
            return None
        weights = [op.weight for op in ops]
        total = sum(weights)
        x = d.int(0, 10**6) / 10**6 * total
        acc = 0.0
        chosen = ops[-1]
        for op, w in zip(ops, weights):
            acc += w
            if x < acc:
                chosen = op
                break
        step = chosen.make(d, obj)
        if step is None:
            continue
        if skip_known and known(step):
            continue
        return step
    return None


def fuzz_one(
    d: Drawer,
    table: Sequence[Any],
    known: Callable[[Step], str | None],
    skip_known: bool = True,
    max_steps: int = 5,
) -> tuple[Any, list[Step], Outcome]:
    """Draws an input and a chain of 1..``max_steps`` steps, runs it; returns (input, steps, outcome).

    Steps are drawn one at a time against the current pandas result (so they fit its columns and
    dtypes), and each is run on both sides before the next is drawn.
    """
    pobj = draw_frame(d) if d.flag(0.7) else draw_series(d)
    n = d.int(1, max_steps)
    steps: list[Step] = []

    def next_step(i: int, cur: Any) -> Step | None:
        if i >= n:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            step = pick_step(d, cur, table, skip_known, known)
        if step is not None:
            steps.append(step)
        return step

    outcome = _run(pobj, next_step)
    return pobj, steps, outcome


# ------------------------------------------------------------------------------------------ shrinking


def _same(o: Outcome, target: Outcome) -> bool:
    return o.status == DIVERGENCE and o.key == target.key and o.signature == target.signature


def shrink(
    pobj: Any, steps: list[Step], outcome: Outcome, budget: int = 200
) -> tuple[Any, list[Step], Outcome]:
    """Smaller input and chain that still give the same divergence (same op, same kind)."""
    steps = steps[: outcome.steps_run]
    tries = 0

    def check(obj: Any, st: list[Step]) -> Outcome | None:
        nonlocal tries
        tries += 1
        o = run_chain(obj, st)
        return o if _same(o, outcome) else None

    # drop earlier steps
    i = 0
    while i < len(steps) - 1 and tries < budget:
        cand = steps[:i] + steps[i + 1 :]
        o = check(pobj, cand)
        if o:
            steps, outcome = cand, o
        else:
            i += 1
    # drop columns, then rows (halves first, then one at a time)
    if isinstance(pobj, pd.DataFrame):
        for col in list(pobj.columns):
            if tries >= budget or len(pobj.columns) <= 1:
                break
            cand = pobj.drop(columns=[col])
            o = check(cand, steps)
            if o:
                pobj, outcome = cand, o
    chunk = max(len(pobj) // 2, 1)
    while chunk >= 1 and tries < budget:
        start = 0
        while start < len(pobj) and tries < budget:
            keep = np.r_[0:start, min(start + chunk, len(pobj)) : len(pobj)]
            cand = pobj.iloc[keep]
            o = check(cand, steps)
            if o:
                pobj, outcome = cand, o
            else:
                start += chunk
        chunk //= 2
    # rows of the other frames / Series the steps use
    holders = _other_holders(steps)
    for x in holders:
        chunk = max(len(x.obj) // 2, 1)
        while chunk >= 1 and tries < budget:
            start = 0
            while start < len(x.obj) and tries < budget:
                before = x.obj
                x.obj = before.iloc[np.r_[0:start, min(start + chunk, len(before)) : len(before)]]
                o = check(pobj, steps)
                if o:
                    outcome = o
                else:
                    x.obj = before
                    start += chunk
            chunk //= 2
    # a plain RangeIndex when the labels do not matter
    if not isinstance(pobj.index, pd.RangeIndex) and tries < budget:
        cand = pobj.reset_index(drop=True)
        o = check(cand, steps)
        if o:
            pobj, outcome = cand, o
    return pobj, steps, outcome


def repro(pobj: Any, steps: Sequence[Step], outcome: Outcome) -> str:
    """A runnable repro: the input's constructor, the chain on pandas and on ember, both results."""
    others: dict[int, str] = {}
    lines = []
    for st in steps:
        _collect_others(st.path, others)
    code = obj_code(pobj)
    if not _roundtrips(pobj, code):
        code += "  # (approximate: the drawn input did not round-trip through this code)"
    lines.append(f"df = {code}")
    for name, obj in others.values():
        oc = obj_code(obj)
        lines.append(f"{name} = {oc}")
    names = {k: v[0] for k, v in others.items()}
    if len(steps) == 1:
        lines.append(f"pandas: {render(steps[0].path, 'df', names)}")
        enames = {k: f"em.from_pandas({v})" for k, v in names.items()}
        lines.append(f"ember:  {render(steps[0].path, 'em.from_pandas(df)', enames, lib='em')}")
    else:
        lines.append(
            "r = df  # ember: r = em.from_pandas(df), other frames through em.from_pandas, em.<f> for pd.<f>"
        )
        for st in steps:
            lines.append(f"r = {render(st.path, 'r', names)}")
    lines.append(f"# pandas -> {outcome.pandas_result}".replace("\n", "\n#   "))
    lines.append(f"# ember  -> {outcome.ember_result}".replace("\n", "\n#   "))
    if outcome.detail and outcome.kind not in ("accepted",):
        lines.append(f"# [{outcome.kind}] {outcome.detail}".replace("\n", "\n#   "))
    return "\n".join(lines)


def _collect_others(x: Any, acc: dict[int, tuple[str, Any]]) -> None:
    if isinstance(x, Other):
        if id(x) not in acc:
            acc[id(x)] = (f"o{len(acc) + 1}", x.obj)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _collect_others(v, acc)
    elif isinstance(x, dict):
        for v in x.values():
            _collect_others(v, acc)
    elif isinstance(x, (Call, Func)):
        _collect_others(x.args, acc)
        _collect_others(x.kwargs, acc)
    elif isinstance(x, Item):
        _collect_others(x.key, acc)
    elif isinstance(x, Bin):
        _collect_others(x.other, acc)
    elif isinstance(x, Sub):
        _collect_others(x.path, acc)


def _other_holders(steps: Sequence[Step]) -> list[Other]:
    found: list[Other] = []

    def walk(x: Any) -> None:
        if isinstance(x, Other):
            if all(x is not y for y in found) and isinstance(x.obj, (pd.DataFrame, pd.Series)):
                found.append(x)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, (Call, Func)):
            walk(x.args)
            walk(x.kwargs)
        elif isinstance(x, Item):
            walk(x.key)
        elif isinstance(x, Bin):
            walk(x.other)
        elif isinstance(x, Sub):
            walk(x.path)

    for st in steps:
        walk(st.path)
    return found


def timed(f: Callable[[], Any]) -> tuple[Any, float]:
    t = time.perf_counter()
    return f(), time.perf_counter() - t

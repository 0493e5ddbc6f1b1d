"""The operation table of the differential fuzzer: data, easy to extend.

Each ``Op`` names a public operation, the objects it applies to (``target``: 'series' / 'frame', and
``when``: a predicate on the current pandas object, usually on its dtypes) and ``make``: a function of
(drawer, current pandas object) that returns the ``Step`` to run (its path of attribute / call / item /
operator elements) or None when the object has nothing it fits. To add an operation, write its ``make``
and append an ``Op`` to ``TABLE``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from fuzz_engine import (
    CUR,
    ORDER_TIES,
    Attr,
    Bin,
    Call,
    Drawer,
    Func,
    Item,
    Other,
    Step,
    Sub,
    draw_frame,
    draw_series,
)

from ember.testing import strategies as est

# ------------------------------------------------------------------------------------------ families


def fam(dtype: Any) -> str:
    """The dtype family: int uint float Int Float bool boolean str string object dt dttz td cat other."""
    if isinstance(dtype, pd.CategoricalDtype):
        return "cat"
    s = str(dtype)
    if s.startswith("datetime64"):
        return "dttz" if "," in s else "dt"
    if s.startswith("timedelta64"):
        return "td"
    if s in ("str", "string", "object", "bool", "boolean"):
        return s
    if s.startswith(("Int", "UInt")):
        return "Int"
    if s.startswith("Float"):
        return "Float"
    if s.startswith("uint"):
        return "uint"
    if s.startswith("int"):
        return "int"
    if s.startswith("float"):
        return "float"
    return "other"


NUMERIC = frozenset({"int", "uint", "float", "Int", "Float"})
BOOLS = frozenset({"bool", "boolean"})
STRS = frozenset({"str", "string", "object"})
DATES = frozenset({"dt", "dttz"})
ORDERED = NUMERIC | BOOLS | STRS | DATES | {"td"}
DTYPES_OF = {f: [d for d in est.MIXED_DTYPES if fam(pd.Series([], dtype=d).dtype) == f] for f in (
    "int", "uint", "float", "Int", "Float", "bool", "boolean", "str", "string", "object", "dt", "dttz", "td", "cat"
)}  # fmt: skip
RELATED = {  # dtypes an operand of another object may have, by family
    **{
        f: [*DTYPES_OF["int"], *DTYPES_OF["uint"], *DTYPES_OF["float"], "Int64", "Float64", "bool"]
        for f in NUMERIC
    },
    "bool": ["bool", "boolean", "int64"],
    "boolean": ["bool", "boolean", "Int64"],
    **{f: ["str", "string", "object"] for f in STRS},
    "dt": ["datetime64[ns]", "datetime64[s]", "datetime64[us]"],
    "dttz": ["datetime64[ms, UTC]", "datetime64[ns, Europe/Berlin]"],
    "td": ["timedelta64[ns]", "timedelta64[s]"],
    "cat": ["category"],
}


def pool_dtype(dtype: Any) -> str | None:
    """The dtype name to draw more values of ``dtype`` with, or None when the strategies have no pool."""
    if isinstance(dtype, pd.CategoricalDtype):
        return "category"
    try:
        est.value_pool(str(dtype))
    except (ValueError, KeyError):
        return None
    return str(dtype)


def sfam(s: pd.Series) -> str:
    return fam(s.dtype)


def cols_of(df: pd.DataFrame, fams: frozenset[str] | set[str] | None = None) -> list[Any]:
    """Column labels whose dtype family is in ``fams`` (all when None); unique labels only."""
    if not df.columns.is_unique:
        return []
    return [c for c, t in df.dtypes.items() if fams is None or fam(t) in fams]


def fams_of(df: pd.DataFrame, cols: list[Any]) -> tuple[str, ...]:
    return tuple(sorted({fam(df[c].dtype) for c in cols}))


# ------------------------------------------------------------------------------------------- scalars


def scalar_for(d: Drawer, f: str, dtype: Any = None) -> Any:
    if f in ("int", "uint", "Int"):
        return d.choice((0, 1, 2, -1, 3, 7, 2.5))
    if f in ("float", "Float"):
        return d.choice((0.5, 2.0, -1.5, 0.0, np.nan, np.inf, 3, 1))
    if f in BOOLS:
        return d.choice((True, False))
    if f in STRS:
        return d.choice(("a", "b", "", "ab", "B", "日本"))
    if f in DATES:
        tz = getattr(dtype, "tz", None)
        return pd.Timestamp(
            d.choice(("2020-01-01", "2020-01-02 00:00:00", "2020-01-01 01:00:00", "2021-01-01")), tz=tz
        )
    if f == "td":
        return pd.Timedelta(d.choice(("1h", "1D", "0s", "-1s", "1ms")))
    if f == "cat":
        cats = (
            list(dtype.categories)
            if isinstance(dtype, pd.CategoricalDtype) and len(dtype.categories)
            else ["a"]
        )
        return d.choice(cats)
    return d.choice((0, "a"))


FLEX = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod", "**": "pow",
        "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}  # fmt: skip
COMPARE = ("==", "!=", "<", "<=", ">", ">=")


def arith_for(d: Drawer, f: str, dtype: Any) -> tuple[str, Any] | None:
    """(operator symbol, scalar operand) that fits family ``f``."""
    if f in NUMERIC:
        return d.choice(("+", "-", "*", "/", "//", "%", "**")), scalar_for(d, f, dtype)
    if f in BOOLS:
        op = d.choice(("&", "|", "^", "+", "*"))
        return op, (d.choice((True, False)) if op in "&|^" else d.choice((1, 2, True, 0.5)))
    if f in STRS:
        return ("+", scalar_for(d, f)) if d.flag(0.7) else ("*", d.choice((0, 2, 3)))
    if f in DATES:
        if d.flag():
            return "-", scalar_for(d, f, dtype)
        return d.choice(("+", "-")), scalar_for(d, "td")
    if f == "td":
        op = d.choice(("+", "-", "*", "/", "//", "%"))
        if op in "+-" or d.flag(0.3):
            return op, scalar_for(d, "td")
        return op, d.choice((2, 3, 0.5, -1))
    return None


# ------------------------------------------------------------------------------------------ table type


@dataclass
class Op:
    name: str
    target: str  # 'series' or 'frame'
    make: Callable[[Drawer, Any], Step | None]
    when: Callable[[Any], bool] = lambda obj: True
    weight: float = 1.0

    def applies(self, obj: Any) -> bool:
        kind = pd.Series if self.target == "series" else pd.DataFrame
        return isinstance(obj, kind) and self.when(obj)


def step(name: str, *path: Any, fams: tuple[str, ...] = ()) -> Step:
    return Step(name, tuple(path), fams)


def call(*args: Any, **kwargs: Any) -> Call:
    return Call(args, kwargs)


def method(_name: str, *args: Any, **kwargs: Any) -> tuple[Attr, Call]:
    return Attr(_name), Call(args, kwargs)


def kw(d: Drawer, **options: tuple) -> dict[str, Any]:
    """Keyword arguments, each included half of the time with a drawn value."""
    return {k: d.choice(v) for k, v in options.items() if d.flag()}


def related_series(d: Drawer, s: pd.Series, same_index: bool | None = None) -> pd.Series:
    """A second Series for a binary operation with ``s``: a related dtype, the same labels or others."""
    f = sfam(s)
    own = pool_dtype(s.dtype) or "int64"
    dtype = d.choice(RELATED.get(f, [own])) if d.flag(0.7) else own
    same = d.flag(0.6) if same_index is None else same_index
    if same:
        return draw_series(d, dtype, index=s.index)
    return draw_series(d, dtype)


# ---------------------------------------------------------------------------------------- series ops


def s_arith_scalar(d: Drawer, s: pd.Series) -> Step | None:
    f = sfam(s)
    got = arith_for(d, f, s.dtype)
    if got is None:
        return None
    op, x = got
    if op in FLEX and d.flag(0.4):
        name = FLEX[op]
        if d.flag(0.3) and op not in COMPARE:
            name = "r" + name
        return step(f"series.{name}(scalar)", *method(name, x), fams=(f,))
    return step(f"series {op} scalar", Bin(op, x, reflected=d.flag(0.2)), fams=(f,))


def s_compare_scalar(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    op = d.choice(COMPARE if f != "cat" else ("==", "!="))
    return step(f"series {op} scalar", Bin(op, scalar_for(d, f, s.dtype)), fams=(f,))


def s_binop_series(d: Drawer, s: pd.Series) -> Step | None:
    f = sfam(s)
    o = related_series(d, s)
    same = o.index.equals(s.index)
    tag = "aligned" if same else "other labels"
    if f in NUMERIC | BOOLS and d.flag(0.5):
        op = d.choice(("+", "-", "*", "/", "//", "%")) if d.flag(0.7) else d.choice(COMPARE)
    elif f in BOOLS:
        op = d.choice(("&", "|", "^", "=="))
    elif f in STRS:
        op = d.choice(("+", "==", "<", "!="))
    elif f in DATES:
        op = d.choice(("-", "==", "<", ">="))
    elif f == "td":
        op = d.choice(("+", "-", "/", "==", "<"))
    elif f == "cat":
        op = "=="
    else:
        op = d.choice(COMPARE)
    if op in FLEX and d.flag(0.5):
        kwargs = {}
        if op not in COMPARE and d.flag(0.6):
            kwargs["fill_value"] = (
                d.choice((0, 1, 2.5)) if f in NUMERIC | BOOLS else scalar_for(d, f, s.dtype)
            )
            tag += ", fill_value"
        return step(
            f"series.{FLEX[op]}(series, {tag})", *method(FLEX[op], Other(o), **kwargs), fams=(f, sfam(o))
        )
    return step(f"series {op} series ({tag})", Bin(op, Other(o)), fams=(f, sfam(o)))


REDUCE = {
    "num": (
        "sum",
        "mean",
        "min",
        "max",
        "std",
        "var",
        "prod",
        "median",
        "count",
        "nunique",
        "any",
        "all",
        "idxmin",
        "idxmax",
        "sem",
        "skew",
        "kurt",
    ),
    "bool": ("sum", "mean", "min", "max", "any", "all", "count", "nunique", "prod"),
    "str": ("min", "max", "count", "nunique", "sum"),
    "dt": ("min", "max", "mean", "median", "count", "nunique", "idxmin", "idxmax", "std"),
    "td": ("sum", "mean", "min", "max", "median", "std", "count", "nunique"),
    "cat": ("count", "nunique", "min", "max"),
}


def _group(f: str) -> str:
    return ("num" if f in NUMERIC else "bool" if f in BOOLS else "str" if f in STRS
            else "dt" if f in DATES else "td" if f == "td" else "cat")  # fmt: skip


def s_reduce(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    name = d.choice(REDUCE[_group(f)])
    kwargs = {}
    if name not in ("count", "nunique") and d.flag(0.3):
        kwargs["skipna"] = d.choice((True, False))
    if name == "nunique" and d.flag(0.3):
        kwargs["dropna"] = False
    if name in ("std", "var", "sem") and d.flag(0.3):
        kwargs["ddof"] = d.choice((0, 1, 2))
    if name in ("sum", "prod") and d.flag(0.2):
        kwargs["min_count"] = d.choice((0, 1, 3))
    return step(f"series.{name}", *method(name, **kwargs), fams=(f,))


def s_quantile(d: Drawer, s: pd.Series) -> Step:
    q = d.choice((0.5, 0.0, 1.0, 0.25, [0.1, 0.9]))
    kwargs = kw(d, interpolation=("linear", "lower", "higher", "nearest", "midpoint"))
    return step("series.quantile", *method("quantile", q, **kwargs), fams=(sfam(s),))


def s_cum(d: Drawer, s: pd.Series) -> Step | None:
    f = sfam(s)
    names = {"num": ("cumsum", "cumprod", "cummin", "cummax"), "bool": ("cumsum", "cummin", "cummax", "cumprod"),
             "dt": ("cummin", "cummax"), "td": ("cumsum", "cummin", "cummax"), "str": ("cummin", "cummax"),
             "cat": ("cummin",)}[_group(f)]  # fmt: skip
    name = d.choice(names)
    return step(f"series.{name}", *method(name, **kw(d, skipna=(True, False))), fams=(f,))


def s_sort_values(d: Drawer, s: pd.Series) -> Step:
    kwargs = {
        "kind": "stable",
        **kw(d, ascending=(True, False), na_position=("first", "last"), ignore_index=(True,)),
    }
    return step("series.sort_values", *method("sort_values", **kwargs), fams=(sfam(s),))


def sort_index(d: Drawer, obj: Any) -> Step:
    kwargs = {
        "kind": "stable",
        **kw(d, ascending=(True, False), na_position=("first", "last"), ignore_index=(True,)),
    }
    t = "series" if isinstance(obj, pd.Series) else "frame"
    return step(f"{t}.sort_index", *method("sort_index", **kwargs), fams=(fam(obj.index.dtype),))


def s_fill(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    which = d.choice(("fillna", "ffill", "bfill", "dropna", "isna", "notna"))
    if which == "fillna":
        return step("series.fillna", *method("fillna", scalar_for(d, f, s.dtype)), fams=(f,))
    if which in ("ffill", "bfill"):
        return step(f"series.{which}", *method(which, **kw(d, limit=(1, 2))), fams=(f,))
    return step(f"series.{which}", *method(which), fams=(f,))


ASTYPE = {
    "num": (
        "float64",
        "int64",
        "Int64",
        "Float64",
        "str",
        "string",
        "bool",
        "category",
        "int32",
        "float32",
        "uint8",
        "boolean",
        "object",
    ),
    "bool": ("int64", "float64", "boolean", "str", "Int64", "category", "bool"),
    "str": ("category", "string", "object", "str", "int64", "float64", "datetime64[ns]"),
    "dt": ("str", "datetime64[s]", "datetime64[ms]", "datetime64[ns]", "int64", "category", "object"),
    "td": ("str", "timedelta64[s]", "timedelta64[ns]", "int64", "float64"),
    "cat": ("str", "object", "string", "category"),
}


def s_astype(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    target = d.choice(ASTYPE[_group(f)])
    if f == "dttz" and target.startswith("datetime64["):
        target = target[:-1] + ", UTC]"
    return step(f"series.astype({target})", *method("astype", target), fams=(f,))


def s_dedup(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    which = d.choice(("drop_duplicates", "duplicated", "unique", "nunique", "value_counts", "mode", "isin"))
    if which in ("drop_duplicates", "duplicated"):
        return step(f"series.{which}", *method(which, **kw(d, keep=("first", "last", False))), fams=(f,))
    if which == "value_counts":
        kwargs = kw(
            d, normalize=(True, False), sort=(True, False), ascending=(True, False), dropna=(True, False)
        )
        return step("series.value_counts", *method("value_counts", **kwargs), fams=(f, ORDER_TIES))
    if which == "isin":
        vals = [scalar_for(d, f, s.dtype) for _ in range(d.int(0, 3))]
        return step("series.isin", *method("isin", vals), fams=(f,))
    if which == "mode":
        return step("series.mode", *method("mode", **kw(d, dropna=(True, False))), fams=(f,))
    return step(f"series.{which}", *method(which), fams=(f,))


def s_nlargest(d: Drawer, s: pd.Series) -> Step:
    name = d.choice(("nlargest", "nsmallest"))
    return step(
        f"series.{name}", *method(name, d.int(0, 6), **kw(d, keep=("first", "last", "all"))), fams=(sfam(s),)
    )


def rank(d: Drawer, obj: Any) -> Step:
    kwargs = kw(d, method=("average", "min", "max", "first", "dense"), ascending=(True, False),
                na_option=("keep", "top", "bottom"), pct=(True, False))  # fmt: skip
    t = "series" if isinstance(obj, pd.Series) else "frame"
    fs = (sfam(obj),) if t == "series" else tuple(fam(x) for x in obj.dtypes)
    return step(f"{t}.rank", *method("rank", **kwargs), fams=fs)


def shift_diff(d: Drawer, obj: Any) -> Step:
    t = "series" if isinstance(obj, pd.Series) else "frame"
    which = d.choice(("shift", "shift", "diff", "pct_change"))
    periods = d.choice((1, 1, 2, -1, 0, 5))
    kwargs = {}
    if which == "shift" and d.flag(0.3) and t == "series":
        kwargs["fill_value"] = scalar_for(d, sfam(obj), obj.dtype)
    fs = (sfam(obj),) if t == "series" else tuple(sorted({fam(x) for x in obj.dtypes}))
    return step(f"{t}.{which}", *method(which, periods, **kwargs), fams=fs)


def s_where(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    name = d.choice(("where", "mask"))
    if d.flag(0.75):
        cond = (
            Sub((Attr("isna"), Call()))
            if d.flag(0.3) or f == "cat"
            else Sub((Bin(d.choice(COMPARE), scalar_for(d, f, s.dtype)),))
        )
        tag = "own mask"
    else:
        cond = Other(draw_series(d, "bool", index=s.index if d.flag(0.6) else None))
        tag = "aligned mask" if cond.obj.index.equals(s.index) else "mask on other labels"
    args = (cond,) if d.flag(0.4) else (cond, scalar_for(d, f, s.dtype))
    return step(f"series.{name}({tag})", *method(name, *args), fams=(f,))


def s_numeric_misc(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    which = d.choice(("clip", "abs", "round", "between", "neg"))
    if which == "clip":
        lo, hi = sorted([scalar_for(d, "int"), scalar_for(d, "int")])
        return step("series.clip", *method("clip", **kw(d, lower=(lo, None), upper=(hi,))), fams=(f,))
    if which == "round":
        return step("series.round", *method("round", d.choice((0, 1, 2, -1))), fams=(f,))
    if which == "between":
        lo, hi = sorted([scalar_for(d, "int"), scalar_for(d, "int")])
        return step("series.between", *method("between", lo, hi, **kw(d, inclusive=("both", "neither", "left", "right"))),
                    fams=(f,))  # fmt: skip
    if which == "neg":
        return step("series neg", *method("__neg__"), fams=(f,))
    return step("series.abs", *method("abs"), fams=(f,))


def positions(d: Drawer, n: int) -> list[int]:
    return [d.int(-n, n - 1) for _ in range(d.int(0, 4))] if n else []


def slicing(d: Drawer, obj: Any) -> Step | None:
    t = "series" if isinstance(obj, pd.Series) else "frame"
    fs = (sfam(obj),) if t == "series" else ()
    n = len(obj)
    which = d.choice(("head", "tail", "iloc_slice", "iloc_list", "loc_slice", "loc_list", "iloc_neg"))
    if which in ("head", "tail"):
        return step(f"{t}.{which}", *method(which, d.choice((0, 1, 3, 5, -2))), fams=fs)
    if which == "iloc_slice":
        sl = slice(d.choice((None, 0, 1, 3, -3)), d.choice((None, 2, 5, -1)), d.choice((None, None, 2, -1)))
        return step(f"{t}.iloc[slice]", Attr("iloc"), Item(sl), fams=fs)
    if which == "iloc_list":
        return step(f"{t}.iloc[list]", Attr("iloc"), Item(positions(d, n)), fams=fs)
    if which == "iloc_neg" and n:
        return step(f"{t}.iloc[int]", Attr("iloc"), Item(d.int(-n, n - 1)), fams=fs)
    labels = obj.index
    if not n or not labels.is_unique:
        return None
    if which == "loc_slice":
        if not labels.is_monotonic_increasing:
            return None
        a, b = sorted([d.int(0, n - 1), d.int(0, n - 1)])
        return step(
            f"{t}.loc[slice]", Attr("loc"), Item(slice(labels[a], labels[b])), fams=(fam(labels.dtype),)
        )
    picks = [labels[p] for p in positions(d, n)]
    picks = [p.item() if hasattr(p, "item") and not isinstance(p, pd.Timestamp) else p for p in picks]
    return step(f"{t}.loc[list]", Attr("loc"), Item(picks), fams=(fam(labels.dtype),))


def s_filter(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    if f in BOOLS and d.flag(0.3):
        return step("series[bool self]", Item(Sub(())), fams=(f,))
    cond = (
        Sub((Attr("notna"), Call()))
        if f == "cat" or d.flag(0.2)
        else Sub((Bin(d.choice(COMPARE), scalar_for(d, f, s.dtype)),))
    )
    return step("series[mask]", Item(cond), fams=(f,))


STR_METHODS = (
    ("lower",), ("upper",), ("len",), ("strip",), ("title",), ("capitalize",), ("swapcase",),
    ("contains", "a"), ("contains", "a", {"regex": False}), ("contains", "^a|b$"), ("contains", "A", {"case": False}),
    ("startswith", "a"), ("endswith", "b"), ("slice", 0, 2), ("slice", 1), ("slice", None, None, -1),
    ("slice", -2, None), ("replace", "a", "X"), ("replace", "a", "", {"regex": False}), ("get", 0), ("get", -1),
    ("find", "b"), ("count", "a"), ("zfill", 3), ("pad", 4), ("isdigit",), ("isalpha",), ("isupper",),
    ("cat", None, {"sep": "-"}), ("repeat", 2), ("center", 5, "*"), ("rstrip", "b"), ("fullmatch", "a+"),
    ("match", "a"), ("removeprefix", "a"), ("split", "b"), ("islower",), ("isspace",),
)  # fmt: skip


def s_str(d: Drawer, s: pd.Series) -> Step:
    spec = d.choice(STR_METHODS)
    name, args = spec[0], [a for a in spec[1:] if not isinstance(a, dict)]
    kwargs = next((a for a in spec[1:] if isinstance(a, dict)), {})
    if name == "cat":
        args = []
    return step(f"series.str.{name}", Attr("str"), *method(name, *args, **kwargs), fams=(sfam(s),))


DT_FIELDS = ("year", "month", "day", "hour", "minute", "second", "microsecond", "nanosecond", "dayofweek",
             "dayofyear", "quarter", "is_month_start", "is_month_end", "is_leap_year", "days_in_month", "date",
             "time", "weekday")  # fmt: skip
DT_METHODS = (("normalize",), ("floor", "h"), ("ceil", "D"), ("round", "min"), ("strftime", "%Y-%m-%d %H"),
              ("day_name",), ("month_name",), ("to_period", "M"), ("isocalendar",))  # fmt: skip
TD_FIELDS = ("days", "seconds", "microseconds", "nanoseconds")
TD_METHODS = (("total_seconds",), ("floor", "s"), ("round", "h"), ("to_pytimedelta",))


def s_dt(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    if f == "td":
        if d.flag(0.5):
            return step("series.dt.<td field>", Attr("dt"), Attr(d.choice(TD_FIELDS)), fams=(f,))
        spec = d.choice(TD_METHODS)
        return step(f"series.dt.{spec[0]}", Attr("dt"), *method(spec[0], *spec[1:]), fams=(f,))
    if d.flag(0.6):
        name = d.choice(DT_FIELDS)
        return step(f"series.dt.{name}", Attr("dt"), Attr(name), fams=(f,))
    spec = d.choice(
        DT_METHODS
        + (
            (("tz_convert", "Asia/Tokyo"), ("tz_localize", None))
            if f == "dttz"
            else (("tz_localize", "UTC"),)
        )
    )
    return step(f"series.dt.{spec[0]}", Attr("dt"), *method(spec[0], *spec[1:]), fams=(f,))


def rolling(d: Drawer, obj: Any) -> Step:
    t = "series" if isinstance(obj, pd.Series) else "frame"
    agg = d.choice(("sum", "mean", "min", "max", "count", "std", "var", "median"))
    if d.flag(0.8):
        kwargs = kw(d, min_periods=(0, 1, 2), center=(True, False))
        win = method("rolling", d.choice((1, 2, 3, 5)), **kwargs)
        name = f"{t}.rolling.{agg}"
    else:
        win = method("expanding", **kw(d, min_periods=(1, 2)))
        name = f"{t}.expanding.{agg}"
    fs = (sfam(obj),) if t == "series" else tuple(sorted({fam(x) for x in obj.dtypes}))
    return step(name, *win, *method(agg), fams=fs)


GB_AGGS = ("sum", "mean", "min", "max", "count", "size", "nunique", "first", "last", "std", "var", "median",
           "prod", "cumsum", "cumcount", "any", "all", "idxmax", "cummax", "ngroup")  # fmt: skip


def s_groupby(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    agg = d.choice(GB_AGGS)
    if d.flag(0.4):
        key, tag = Sub(()), "self"
    else:
        kdtype = d.choice(("int64", "str", "Int64", "bool", "category", "float64", "datetime64[s]"))
        key, tag = Other(draw_series(d, kdtype, index=s.index)), f"key {kdtype}"
    kwargs = kw(d, sort=(True, False), dropna=(True, False))
    return step(f"series.groupby.{agg}", *method("groupby", key, **kwargs), *method(agg), fams=(f, tag))


def s_reshape(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    which = d.choice(
        ("to_frame", "reset_index", "rename", "reset_index_drop", "concat", "replace", "map", "cat")
    )
    if which == "to_frame":
        return step(
            "series.to_frame", *method("to_frame", *((d.choice(("x", "a")),) if d.flag() else ())), fams=(f,)
        )
    if which == "reset_index":
        return step("series.reset_index", *method("reset_index", **kw(d, name=("v",))), fams=(f,))
    if which == "reset_index_drop":
        return step("series.reset_index(drop)", *method("reset_index", drop=True), fams=(f,))
    if which == "rename":
        return step("series.rename", *method("rename", d.choice(("x", None, 0))), fams=(f,))
    if which == "concat":
        o = related_series(d, s, same_index=False)
        kwargs = kw(d, ignore_index=(True,), axis=(0, 1))
        return step(
            f"concat(series, axis={kwargs.get('axis', 0)})",
            Func("concat", ([CUR, Other(o)],), kwargs),
            fams=(f, sfam(o)),
        )
    if which == "replace":
        return step(
            "series.replace",
            *method("replace", scalar_for(d, f, s.dtype), scalar_for(d, f, s.dtype)),
            fams=(f,),
        )
    if which == "map":
        m = {scalar_for(d, f, s.dtype): scalar_for(d, "int") for _ in range(3)}
        return step("series.map(dict)", *method("map", m), fams=(f,))
    if f == "cat":
        spec = d.choice(
            (
                ("codes",),
                ("remove_unused_categories",),
                ("add_categories", "zz"),
                ("as_ordered",),
                ("reorder_categories", list(reversed(s.cat.categories))),
                ("rename_categories", {"a": "A"}),
            )
        )
        if spec[0] == "codes":
            return step("series.cat.codes", Attr("cat"), Attr("codes"), fams=(f,))
        return step(f"series.cat.{spec[0]}", Attr("cat"), *method(spec[0], *spec[1:]), fams=(f,))
    return step("series.rename", *method("rename", "x"), fams=(f,))


def s_combine(d: Drawer, s: pd.Series) -> Step:
    f = sfam(s)
    o = related_series(d, s)
    which = d.choice(("combine_first", "fillna(series)", "update_like_where", "align_eq"))
    if which == "combine_first":
        return step("series.combine_first", *method("combine_first", Other(o)), fams=(f, sfam(o)))
    if which == "fillna(series)":
        return step("series.fillna(series)", *method("fillna", Other(o)), fams=(f, sfam(o)))
    if which == "align_eq":
        return step("series.equals", *method("equals", Other(o)), fams=(f, sfam(o)))
    return step("series.isin(series)", *method("isin", Other(o)), fams=(f, sfam(o)))


# ----------------------------------------------------------------------------------------- frame ops


def f_getitem(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df)
    if not cols:
        return None
    if d.flag(0.6):
        c = d.choice(cols)
        return step("frame[col]", Item(c), fams=(fam(df[c].dtype),))
    if d.flag(0.5):
        sub = d.subset(cols, 1)
        return step("frame[[cols]]", Item(sub), fams=fams_of(df, sub))
    sub = d.subset(cols, 1, max(len(cols) - 1, 1))
    return step("frame.drop(columns)", *method("drop", columns=sub), fams=fams_of(df, sub))


def _cols_in(d: Drawer, df: pd.DataFrame, fams: frozenset[str]) -> list[Any] | None:
    cols = cols_of(df, fams)
    return d.subset(cols, 1) if cols else None


def f_arith_scalar(d: Drawer, df: pd.DataFrame) -> Step | None:
    fams = d.choice((NUMERIC, NUMERIC | BOOLS, frozenset({"td"}), STRS))
    cols = _cols_in(d, df, fams)
    if not cols:
        return None
    f = fam(df[cols[0]].dtype)
    got = (
        arith_for(d, f, df[cols[0]].dtype)
        if d.flag(0.7)
        else (d.choice(COMPARE), scalar_for(d, f, df[cols[0]].dtype))
    )
    if got is None:
        return None
    op, x = got
    if op in FLEX and d.flag(0.4):
        return step(f"frame.{FLEX[op]}(scalar)", Item(cols), *method(FLEX[op], x), fams=fams_of(df, cols))
    return step(f"frame {op} scalar", Item(cols), Bin(op, x), fams=fams_of(df, cols))


def f_arith_frame(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = _cols_in(d, df, NUMERIC | BOOLS)
    if not cols:
        return None
    same = d.flag(0.5)
    other = draw_frame(d, index=df.index if same else None)
    other.columns = [cols[i] if i < len(cols) else f"o{i}_" for i in range(len(other.columns))]
    if not other.columns.is_unique:  # labels such as 1 and True are one label to pandas
        return None
    keep = [c for c in other.columns if fam(other[c].dtype) in NUMERIC | BOOLS]
    if not keep:
        return None
    other = other[keep]
    op = d.choice(("+", "-", "*", "/", "==", "<"))
    tag = "aligned" if same else "other labels"
    if op in FLEX and d.flag(0.5):
        kwargs = {"fill_value": d.choice((0, 1.5))} if op not in COMPARE and d.flag(0.6) else {}
        tag += ", fill_value" if kwargs else ""
        return step(f"frame.{FLEX[op]}(frame, {tag})", Item(cols), *method(FLEX[op], Other(other), **kwargs),
                    fams=fams_of(df, cols))  # fmt: skip
    return step(f"frame {op} frame ({tag})", Item(cols), Bin(op, Other(other)), fams=fams_of(df, cols))


def f_column_op_column(d: Drawer, df: pd.DataFrame) -> Step | None:
    """``r[a] <op> r[b]``: two columns of the frame, of related dtypes."""
    cols = cols_of(df)
    if len(cols) < 2:
        return None
    a = d.choice(cols)
    fa = fam(df[a].dtype)
    group = next((g for g in (NUMERIC | BOOLS, STRS, DATES | {"td"}) if fa in g), frozenset({fa}))
    others = [c for c in cols if c != a and fam(df[c].dtype) in group] or [c for c in cols if c != a]
    b = d.choice(others)
    fb = fam(df[b].dtype)
    if fa in NUMERIC | BOOLS and fb in NUMERIC | BOOLS:
        op = d.choice(
            ("+", "-", "*", "/", "//", "%", "**", *COMPARE, "&" if fa in BOOLS and fb in BOOLS else "==")
        )
    elif fa in STRS and fb in STRS:
        op = d.choice(("+", *COMPARE))
    elif {fa, fb} <= DATES | {"td"}:
        op = d.choice(("-", "+", *COMPARE))
    else:
        op = d.choice(("==", "+", "<"))
    return step(f"column {op} column", Item(a), Bin(op, Sub((Item(b),))), fams=(fa, fb))


def f_arith_series(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = _cols_in(d, df, NUMERIC)
    if not cols:
        return None
    name = d.choice(("add", "sub", "mul", "div", "lt"))
    if d.flag():
        return step(f"frame.{name}(column, axis=0)", Item(cols), *method(name, Sub((Item(cols[0]),)), axis=0),
                    fams=fams_of(df, cols))  # fmt: skip
    o = pd.Series([d.choice((1, 2.5, -1)) for _ in cols], index=pd.Index(cols, dtype=df.columns.dtype))
    if d.flag(0.3):
        o = o.iloc[:-1]
    return step(f"frame.{name}(row series)", Item(cols), *method(name, Other(o)), fams=fams_of(df, cols))


F_REDUCE = ("sum", "mean", "min", "max", "count", "nunique", "std", "var", "prod", "median", "any", "all",
            "idxmax", "idxmin", "sem")  # fmt: skip


def f_reduce(d: Drawer, df: pd.DataFrame) -> Step | None:
    name = d.choice(F_REDUCE)
    kwargs = (
        kw(d, axis=(0, 1), skipna=(True, False), numeric_only=(True, False))
        if name not in ("count", "nunique")
        else kw(d, axis=(0, 1))
    )
    if d.flag(0.5):
        cols = _cols_in(d, df, NUMERIC | BOOLS)
        if cols:
            return step(f"frame.{name}", Item(cols), *method(name, **kwargs), fams=fams_of(df, cols))
    return step(
        f"frame.{name}",
        *method(name, **kwargs),
        fams=fams_of(df, list(df.columns)) if df.columns.is_unique else (),
    )


def f_cum(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = _cols_in(d, df, NUMERIC | BOOLS | {"td"})
    if not cols:
        return None
    name = d.choice(("cumsum", "cumprod", "cummin", "cummax"))
    return step(
        f"frame.{name}", Item(cols), *method(name, **kw(d, skipna=(True, False))), fams=fams_of(df, cols)
    )


def f_sort_values(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df, ORDERED | {"cat"})
    if not cols:
        return None
    by = d.subset(cols, 1, 3)
    kwargs = {"kind": "stable", **kw(d, na_position=("first", "last"), ignore_index=(True,))}
    if d.flag(0.5):
        kwargs["ascending"] = [d.flag() for _ in by] if len(by) > 1 and d.flag() else d.flag()
    return step("frame.sort_values", *method("sort_values", by if len(by) > 1 or d.flag() else by[0], **kwargs),
                fams=fams_of(df, by))  # fmt: skip


KEY_FAMS = NUMERIC | BOOLS | STRS | DATES | {"td", "cat"}


def _same_label(a: Any, b: Any) -> bool:
    """Label equality that survives pd.NA labels (whose == gives NA, not a bool)."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except TypeError:
        return False


def f_groupby(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df, KEY_FAMS)
    if not cols:
        return None
    keys = d.subset(cols, 1, 2)
    agg = d.choice(GB_AGGS)
    kwargs = kw(d, sort=(True, False), dropna=(True, False), as_index=(True, False), observed=(True, False))
    by = keys[0] if len(keys) == 1 and d.flag() else keys
    path = [*method("groupby", by, **kwargs)]
    rest = [c for c in df.columns if not any(_same_label(c, k) for k in keys)]
    if rest and d.flag(0.5):
        sel = d.choice(rest) if d.flag() else d.subset(rest, 1)
        path.append(Item(sel))
        vals = [sel] if not isinstance(sel, list) else sel
    else:
        vals = rest
    if agg in ("sum", "mean", "median", "std", "var", "prod", "min", "max", "first", "last") and d.flag(0.3):
        aargs: dict[str, Any] = {"numeric_only": d.flag()}
    else:
        aargs = {}
    if d.flag(0.15) and agg not in ("size", "cumsum", "cumcount", "cummax", "ngroup"):
        path += method("agg", agg)
        name = f"frame.groupby.agg({agg})"
    elif d.flag(0.1) and agg in ("sum", "mean", "min", "max", "count", "first"):
        path += method("transform", agg)
        name = f"frame.groupby.transform({agg})"
    else:
        path += method(agg, **aargs)
        name = f"frame.groupby.{agg}"
    return step(name, *path, fams=fams_of(df, keys) + tuple(f"v:{f}" for f in fams_of(df, vals)))


def _key_frame(d: Drawer, df: pd.DataFrame, keys: list[Any], names: list[Any] | None = None) -> pd.DataFrame:
    """A second frame holding key columns of the dtypes of ``df[keys]`` (renamed to ``names``)."""
    other = draw_frame(d)
    names = names or keys
    for k, nk in zip(keys, names):
        dtype = pool_dtype(df[k].dtype) or "int64"
        if d.flag(0.2):
            dtype = d.choice(RELATED.get(fam(df[k].dtype), [dtype]))
        values = d.values(dtype, len(other), d.choice((0.0, 0.2)))
        other[nk] = est.build_series(values, dtype).set_axis(other.index)
    return other


def f_merge(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df, KEY_FAMS)
    if not cols:
        return None
    keys = d.subset(cols, 1, 2)
    how = d.choice(("inner", "left", "right", "outer", "cross", "left_anti", "right_anti"))
    kwargs = kw(d, sort=(True, False), indicator=(True,), suffixes=(("_l", "_r"),))
    if how == "cross":
        other = draw_frame(d)
        other = (
            other.rename(columns={c: f"{c}2" for c in other.columns if c in df.columns})
            if d.flag(0.5)
            else other
        )
        return step("merge(cross)", *method("merge", Other(other), how="cross", **kwargs), fams=())
    if d.flag(0.25):
        names = [f"{k}_k" for k in keys]
        other = _key_frame(d, df, keys, names)
        return step(f"merge({how}, left_on/right_on)", *method("merge", Other(other), how=how, left_on=keys, right_on=names,
                                                            **kwargs), fams=fams_of(df, keys))  # fmt: skip
    other = _key_frame(d, df, keys)
    if d.flag(0.2):
        return step(f"pd.merge({how})", Func("merge", (CUR, Other(other)), {"how": how, "on": keys, **kwargs}),
                    fams=fams_of(df, keys))  # fmt: skip
    return step(f"merge({how})", *method("merge", Other(other), how=how, on=keys if len(keys) > 1 else keys[0], **kwargs),
                fams=fams_of(df, keys))  # fmt: skip


def f_join(d: Drawer, df: pd.DataFrame) -> Step | None:
    how = d.choice(("left", "right", "inner", "outer"))
    if d.flag(0.5):
        other = draw_frame(d, index=df.index[::-1] if d.flag() else None)
        other = other.rename(columns={c: f"{c}_o" for c in other.columns})
        return step(f"join(index, {how})", *method("join", Other(other), how=how, **kw(d, sort=(True, False))),
                    fams=(fam(df.index.dtype),))  # fmt: skip
    cols = cols_of(df, KEY_FAMS)
    if not cols:
        return None
    k = d.choice(cols)
    other = draw_frame(d)
    kt = pool_dtype(df[k].dtype)
    if kt is None:
        return None
    other.index = pd.Index(est.build_series(d.values(kt, len(other), 0.1), kt))
    other = other.rename(columns={c: f"{c}_o" for c in other.columns})
    return step(
        f"join(on, {how})",
        *method("join", Other(other), on=k, how=how, lsuffix="_l"),
        fams=(fam(df[k].dtype),),
    )


def f_filter(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df)
    if not cols:
        return None
    c = d.choice(cols)
    f = fam(df[c].dtype)
    if f in BOOLS and d.flag(0.4):
        mask = Sub((Item(c),)) if f == "bool" else Sub((Item(c), *method("fillna", False)))
    elif f == "cat" or d.flag(0.2):
        mask = Sub((Item(c), *method(d.choice(("isna", "notna")))))
    else:
        mask = Sub((Item(c), Bin(d.choice(COMPARE), scalar_for(d, f, df[c].dtype))))
    if d.flag(0.3):
        sel = d.subset(cols, 1)
        return step("frame.loc[mask, cols]", Attr("loc"), Item((mask, sel)), fams=(f,))
    if d.flag(0.15):
        o = Other(draw_series(d, "bool", index=df.index if d.flag(0.5) else None))
        return step("frame[bool series]", Item(o), fams=(f,))
    return step("frame[mask]", Item(mask), fams=(f,))


def f_missing(d: Drawer, df: pd.DataFrame) -> Step | None:
    which = d.choice(("fillna", "fillna_dict", "dropna", "isna", "notna", "ffill", "bfill"))
    cols = cols_of(df)
    if which == "fillna" and cols:
        c = d.choice(cols)
        return step("frame.fillna(scalar)", *method("fillna", scalar_for(d, fam(df[c].dtype), df[c].dtype)),
                    fams=fams_of(df, cols))  # fmt: skip
    if which == "fillna_dict" and cols:
        sub = d.subset(cols, 1)
        return step("frame.fillna(dict)", *method("fillna", {c: scalar_for(d, fam(df[c].dtype), df[c].dtype) for c in sub}),
                    fams=fams_of(df, sub))  # fmt: skip
    if which == "dropna":
        kwargs = kw(d, how=("any", "all"), axis=(0, 1))
        if cols and d.flag(0.3):
            kwargs["subset"] = d.subset(cols, 1)
        elif d.flag(0.2):
            kwargs = {"thresh": d.int(0, 3)}
        return step("frame.dropna", *method("dropna", **kwargs), fams=fams_of(df, cols))
    if which in ("ffill", "bfill"):
        return step(f"frame.{which}", *method(which, **kw(d, limit=(1,))), fams=fams_of(df, cols))
    return step(
        f"frame.{which}", *method(which if which in ("isna", "notna") else "isna"), fams=fams_of(df, cols)
    )


def f_astype(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df)
    if not cols:
        return None
    c = d.choice(cols)
    f = fam(df[c].dtype)
    target = d.choice(ASTYPE[_group(f)])
    if f == "dttz" and target.startswith("datetime64["):
        target = target[:-1] + ", UTC]"
    return step(f"frame.astype({{col: {target}}})", *method("astype", {c: target}), fams=(f,))


def f_labels(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df)
    which = d.choice(("rename", "rename_dup", "add_prefix", "set_index", "reset_index", "reset_index_drop", "assign",
                      "insert_like", "reindex_cols", "T_like"))  # fmt: skip
    if not cols:
        return step("frame.reset_index", *method("reset_index"), fams=())
    if which == "rename":
        sub = d.subset(cols, 1)
        return step("frame.rename(columns)", *method("rename", columns={c: f"{c}x" for c in sub}), fams=())
    if which == "rename_dup" and len(cols) > 1:
        return step(
            "frame.rename(columns, duplicate)", *method("rename", columns={cols[0]: cols[1]}), fams=()
        )
    if which == "add_prefix":
        return step("frame.add_prefix", *method("add_prefix", "p_"), fams=())
    if which == "set_index":
        keys = d.subset(cols, 1, 2 if d.flag(0.2) else 1)
        return step("frame.set_index", *method("set_index", keys if len(keys) > 1 else keys[0], **kw(d, drop=(True, False))),
                    fams=fams_of(df, keys))  # fmt: skip
    if which == "reset_index":
        return step("frame.reset_index", *method("reset_index"), fams=(fam(df.index.dtype),))
    if which == "reset_index_drop":
        return step("frame.reset_index(drop)", *method("reset_index", drop=True), fams=())
    if which == "assign":
        c = d.choice(cols)
        f = fam(df[c].dtype)
        got = arith_for(d, f, df[c].dtype)
        if got is None:
            return None
        return step("frame.assign(expr)", *method("assign", z=Sub((Item(c), Bin(*got)))), fams=(f,))
    if which == "reindex_cols":
        new = d.subset([*cols, "zz"], 1)
        return step(
            "frame.reindex(columns)",
            *method("reindex", columns=new),
            fams=fams_of(df, [c for c in new if c in cols]),
        )
    if which == "insert_like":
        c = d.choice(cols)
        t = pool_dtype(df[c].dtype)
        if t is None:
            return None
        return step(
            "frame.assign(from other labels)",
            *method("assign", w=Other(draw_series(d, t))),
            fams=(fam(df[c].dtype),),
        )
    return step(
        "frame.melt", *method("melt", **({"id_vars": [cols[0]]} if d.flag() else {})), fams=fams_of(df, cols)
    )


def f_dedup(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df)
    if not cols:
        return None
    which = d.choice(("drop_duplicates", "duplicated", "value_counts", "nunique"))
    kwargs: dict[str, Any] = {}
    if d.flag(0.5) and which != "nunique":
        kwargs["subset"] = d.subset(cols, 1)
    if which in ("drop_duplicates", "duplicated"):
        kwargs.update(kw(d, keep=("first", "last", False)))
        if which == "drop_duplicates" and d.flag(0.2):
            kwargs["ignore_index"] = True
        return step(f"frame.{which}", *method(which, **kwargs), fams=fams_of(df, kwargs.get("subset", cols)))
    if which == "value_counts":
        kwargs.update(
            kw(d, normalize=(True, False), sort=(True, False), ascending=(True, False), dropna=(True, False))
        )
        return step("frame.value_counts", *method("value_counts", **kwargs),
                    fams=(*fams_of(df, kwargs.get("subset", cols)), ORDER_TIES))  # fmt: skip
    return step("frame.nunique", *method("nunique", **kw(d, dropna=(True, False))), fams=fams_of(df, cols))


def f_nlargest(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df, NUMERIC | BOOLS | DATES | {"td"})
    if not cols:
        return None
    name = d.choice(("nlargest", "nsmallest"))
    by = d.subset(cols, 1, 2)
    return step(f"frame.{name}", *method(name, d.int(0, 6), by if len(by) > 1 else by[0], **kw(d, keep=("first", "last", "all"))),
                fams=fams_of(df, by))  # fmt: skip


def f_numeric_only(make: Callable[[Drawer, Any], Step]) -> Callable[[Drawer, pd.DataFrame], Step | None]:
    """Applies a Series-or-frame op maker to a frame's numeric columns (``r[cols].<op>``)."""

    def inner(d: Drawer, df: pd.DataFrame) -> Step | None:
        cols = _cols_in(d, df, NUMERIC | (BOOLS if d.flag(0.2) else frozenset()))
        if not cols:
            return None
        st = make(d, df[cols])
        return Step(st.op, (Item(cols), *st.path), st.families)

    return inner


def f_where(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = _cols_in(d, df, NUMERIC)
    if not cols:
        return None
    name = d.choice(("where", "mask"))
    f = fam(df[cols[0]].dtype)
    cond = Sub((Item(cols), Bin(d.choice(COMPARE), scalar_for(d, "int"))))
    args = (cond,) if d.flag(0.4) else (cond, scalar_for(d, f))
    return step(f"frame.{name}", Item(cols), *method(name, *args), fams=fams_of(df, cols))


def f_concat(d: Drawer, df: pd.DataFrame) -> Step:
    axis = d.choice((0, 0, 1))
    if axis == 0:
        other = draw_frame(d)
        same = {c: pool_dtype(df[c].dtype) for c in cols_of(df)}
        same = {c: t for c, t in same.items() if t is not None}
        if d.flag(0.5) and same:
            # the same columns and dtypes, new rows
            n = d.choice((0, 1, 3, 5))
            other = pd.DataFrame({c: est.build_series(d.values(t, n, 0.2), t) for c, t in same.items()})
    else:
        other = draw_frame(d, index=df.index if d.flag() else None)
        other = other.rename(columns={c: f"{c}{d.choice(('', '2'))}" for c in other.columns})
    kwargs = kw(d, ignore_index=(True,), join=("outer", "inner"), sort=(True, False))
    fs = tuple(sorted({fam(t) for t in df.dtypes}))
    opts = "".join(f", {k}" for k in ("sort", "join") if k in kwargs)
    return step(
        f"concat(frames, axis={axis}{opts})",
        Func("concat", ([CUR, Other(other)],), {"axis": axis, **kwargs}),
        fams=fs,
    )


def f_pivot_table(d: Drawer, df: pd.DataFrame) -> Step | None:
    keys = cols_of(df, KEY_FAMS)
    vals = cols_of(df, NUMERIC | BOOLS)
    if not keys or not vals:
        return None
    idx = d.choice(keys)
    rest = [k for k in keys if k != idx]
    kwargs: dict[str, Any] = {"values": d.choice([v for v in vals if v != idx] or vals), "index": idx}
    if rest and d.flag(0.6):
        kwargs["columns"] = d.choice(rest)
    kwargs.update(kw(d, aggfunc=("sum", "mean", "count", "max", "min", "size"), fill_value=(0,), dropna=(True, False),
                     observed=(True, False), margins=(True,)))  # fmt: skip
    return step("frame.pivot_table", *method("pivot_table", **kwargs), fams=fams_of(df, [kwargs["index"]]))


def f_misc(d: Drawer, df: pd.DataFrame) -> Step | None:
    cols = cols_of(df)
    which = d.choice(("isin", "clip", "abs", "round", "transpose", "describe_like", "iterrows_like", "T"))
    if which == "isin" and cols:
        c = d.choice(cols)
        return step("frame.isin(list)", *method("isin", [scalar_for(d, fam(df[c].dtype), df[c].dtype) for _ in range(2)]),
                    fams=fams_of(df, cols))  # fmt: skip
    num = cols_of(df, NUMERIC)
    if not num:
        return None
    sub = d.subset(num, 1)
    if which == "clip":
        return step(
            "frame.clip",
            Item(sub),
            *method("clip", d.choice((-1, 0, None)), d.choice((3, 5.5))),
            fams=fams_of(df, sub),
        )
    if which == "round":
        return step("frame.round", Item(sub), *method("round", d.choice((0, 1))), fams=fams_of(df, sub))
    if which in ("transpose", "T"):
        return step("frame.T", Item(sub), Attr("T"), fams=fams_of(df, sub))
    return step("frame.abs", Item(sub), *method("abs"), fams=fams_of(df, sub))


def has_fam(*families: str) -> Callable[[pd.Series], bool]:
    fs = frozenset(families)
    return lambda s: sfam(s) in fs


TABLE: list[Op] = [
    # Series
    Op("series arithmetic", "series", s_arith_scalar, has_fam(*NUMERIC, *BOOLS, *STRS, *DATES, "td"), 3),
    Op("series comparison", "series", s_compare_scalar, weight=2),
    Op("series op series", "series", s_binop_series, weight=3),
    Op("series reduction", "series", s_reduce, weight=2),
    Op("series quantile", "series", s_quantile, has_fam(*NUMERIC, "bool", *DATES, "td"), 0.3),
    Op("series cumulative", "series", s_cum, weight=1),
    Op("series sort_values", "series", s_sort_values),
    Op("series sort_index", "series", sort_index, weight=0.5),
    Op("series missing", "series", s_fill, weight=1.5),
    Op("series astype", "series", s_astype, weight=1.5),
    Op("series dedup", "series", s_dedup, weight=1.5),
    Op("series nlargest", "series", s_nlargest, has_fam(*NUMERIC, "bool", *DATES, "td"), 0.5),
    Op("series rank", "series", rank, weight=0.7),
    Op("series shift", "series", shift_diff),
    Op("series where", "series", s_where),
    Op("series numeric", "series", s_numeric_misc, has_fam(*NUMERIC), 0.7),
    Op("series slicing", "series", slicing, weight=1.5),
    Op("series filter", "series", s_filter),
    Op("series str", "series", s_str, has_fam(*STRS), 3),
    Op("series dt", "series", s_dt, has_fam(*DATES, "td"), 3),
    Op("series rolling", "series", rolling, has_fam(*NUMERIC, *BOOLS), 0.7),
    Op("series groupby", "series", s_groupby, weight=1.5),
    Op("series reshape", "series", s_reshape, weight=1),
    Op("series combine", "series", s_combine, weight=0.7),
    # DataFrame
    Op("frame getitem", "frame", f_getitem, weight=3),
    Op("frame arithmetic", "frame", f_arith_scalar, weight=2),
    Op("frame op frame", "frame", f_arith_frame, weight=1.5),
    Op("frame op series", "frame", f_arith_series, weight=0.7),
    Op("frame column op column", "frame", f_column_op_column, weight=1.5),
    Op("frame reduction", "frame", f_reduce, weight=1.5),
    Op("frame cumulative", "frame", f_cum, weight=0.7),
    Op("frame sort_values", "frame", f_sort_values, weight=1.5),
    Op("frame sort_index", "frame", sort_index, weight=0.5),
    Op("frame groupby", "frame", f_groupby, weight=4),
    Op("frame merge", "frame", f_merge, weight=3),
    Op("frame join", "frame", f_join, weight=1),
    Op("frame filter", "frame", f_filter, weight=2),
    Op("frame slicing", "frame", slicing, weight=1.5),
    Op("frame missing", "frame", f_missing, weight=1.5),
    Op("frame astype", "frame", f_astype, weight=1),
    Op("frame labels", "frame", f_labels, weight=2),
    Op("frame dedup", "frame", f_dedup, weight=1.5),
    Op("frame nlargest", "frame", f_nlargest, weight=0.5),
    Op("frame rank", "frame", f_numeric_only(rank), weight=0.5),
    Op("frame shift", "frame", f_numeric_only(shift_diff), weight=0.7),
    Op("frame where", "frame", f_where, weight=0.7),
    Op("frame concat", "frame", f_concat, weight=1.5),
    Op("frame pivot_table", "frame", f_pivot_table, weight=1),
    Op("frame rolling", "frame", f_numeric_only(rolling), weight=0.7),
    Op("frame misc", "frame", f_misc, weight=1),
]

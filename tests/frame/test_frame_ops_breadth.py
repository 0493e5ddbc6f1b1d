"""DataFrame methods against pandas: replace with regular expressions, arithmetic / comparison with
dict and list operands, apply with NumPy functions, quantile(method=), join(suffixes=), eval with
assignments, query with backquoted names, round with per-column decimals."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.frame._fallback import Unsupported
from ember.testing import assert_eq


def _both(pobj, fn) -> None:
    """fn on pandas and ember: equal results, or the same exception type."""
    try:
        expected = fn(pobj)
    except Exception as e:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises(type(e)):
            fn(em.from_pandas(pobj))
        return
    assert_eq(fn(em.from_pandas(pobj)), expected)


def _refused(pobj, fn) -> None:
    with pytest.raises(Unsupported):
        fn(em.from_pandas(pobj))


# --- replace with regex ----------------------------------------------------------------------------


def _text_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "A": ["bat", "foo", "bait", None],
            "B": ["abc", "bar", "xyz", "ab"],
            "N": [0, 1, 2, 3],
            "F": [1.5, np.nan, 2.0, 3.0],
            "T": pd.to_datetime(["2020-01-01", None, "2021-05-06", "2020-01-01"]),
            "L": [True, False, True, False],
            "S": pd.array(["ba", None, "xa", "b"], dtype="string"),
        }
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda df: df.replace(to_replace=r"^ba.$", value="new", regex=True),
        lambda df: df.replace({"A": r"^ba.$"}, {"A": "new"}, regex=True),
        lambda df: df.replace(regex=r"^ba.$", value="new"),
        lambda df: df.replace(regex={r"^ba.$": "new", "foo": "xyz"}),
        lambda df: df.replace(regex=[r"^ba.$", "foo"], value="new"),
        lambda df: df.replace([r"^ba.$", "foo"], ["x", "y"], regex=True),
        lambda df: df.replace(regex={"a": "b", "b": "c"}),  # masks of the original strings
        lambda df: df.replace({"A": {"a": "b", "b": "c"}}, regex=True),
        lambda df: df.replace({"A": "^b", "B": "^[a-c]"}, value="e", regex=True),
        lambda df: df.replace(r"(b)a", r"\1\1", regex=True),
        lambda df: df.replace(re.compile("BA", re.IGNORECASE), "new", regex=True),
        lambda df: df.replace(re.compile("BA", re.IGNORECASE), "new"),
        lambda df: df.replace([re.compile("BA", re.IGNORECASE)], "new", regex=True),
        lambda df: df.replace("a", np.nan, regex=True),
        lambda df: df.replace("a", None, regex=True),
        lambda df: df[["A", "B", "N"]].replace("", "x", regex=True),  # empty pattern: a literal
        lambda df: df.replace("1", "x", regex=True),
        lambda df: df.replace(0, 5, regex=True),
        lambda df: df.replace({"N": 0}, 5, regex=True),
        lambda df: df.replace("(", "x", regex=True),  # pandas' re.error
        lambda df: df.replace("foo", "x", regex="a"),
        lambda df: df.replace(regex=5),
        lambda df: df.replace(regex=5, value="x"),
        lambda df: df.replace(["a", "b"], ["x"], regex=True),
        lambda df: df.replace("a", ["x"], regex=True),
        lambda df: df.replace({"A": {"a": "x"}, "B": "b"}, regex=True),
    ],
)
def test_replace_regex_frame(call):
    _both(_text_frame(), call)


def test_replace_regex_inplace_and_empty():
    pdf = _text_frame()
    edf = em.from_pandas(pdf)
    assert edf.replace(r"^ba", "X", regex=True, inplace=True) is None
    pdf.replace(r"^ba", "X", regex=True, inplace=True)
    assert_eq(edf, pdf)
    _both(_text_frame().iloc[:0], lambda df: df.replace("a", "b", regex=True))


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.replace(r"^ba", "x", regex=True),
        lambda s: s.replace(regex={"a": "b"}),
        lambda s: s.replace({"a": "b"}, regex=True),
        lambda s: s.replace({"a": "b"}, "c", regex=True),
        lambda s: s.replace(["a", "b"], "c", regex=True),
        lambda s: s.replace(regex="a", value="q"),
        lambda s: s.replace("a", np.nan, regex=True),
    ],
)
@pytest.mark.parametrize("dtype", ["str", "string"])
def test_replace_regex_series(call, dtype):
    _both(pd.Series(["bat", "foo", None, "ab"], dtype=dtype), call)


@pytest.mark.parametrize(
    "call",
    [
        lambda df: df.replace("a", 1, regex=True),  # pandas: an object column
        lambda df: df.replace("zzz", 1, regex=True),
        lambda df: df.replace("2020", "e", regex=True),  # reads as a time: object in pandas
        lambda df: df.replace(regex=[r"^ba.$", 1], value="new"),
    ],
)
def test_replace_regex_refused(call):
    _refused(_text_frame(), call)


def test_replace_regex_categorical_refused():
    _refused(pd.DataFrame({"A": pd.Categorical(["a", "b"])}), lambda df: df.replace("a", "x", regex=True))


# --- arithmetic and comparison with a dict operand ------------------------------------------------


def _shapes() -> pd.DataFrame:
    return pd.DataFrame(
        {"angles": [0, 3, 4], "degrees": [360, 180, 360]}, index=["circle", "triangle", "rectangle"]
    )


@pytest.mark.parametrize(
    "op",
    ["add", "sub", "mul", "truediv", "radd", "rsub", "rtruediv", "floordiv", "mod", "pow", "eq", "lt", "ge"],
)
@pytest.mark.parametrize(
    "operand, axis",
    [
        ({"angles": 0, "degrees": 2}, "columns"),
        ({"degrees": 2.5, "angles": 1}, "columns"),  # matched by label, not by position
        ({"circle": 0, "triangle": 2, "rectangle": 3}, "index"),
        ({"angles": 1, "other": 2}, "columns"),  # a label the frame lacks: missing
        ({"angles": 1}, "columns"),  # pandas' length ValueError
        ({"circle": 1}, 0),
    ],
)
def test_flex_method_dict_operand(op, operand, axis):
    _both(_shapes(), lambda df: getattr(df, op)(operand, axis=axis))


@pytest.mark.parametrize(
    "fn",
    [
        lambda df: df + {"angles": 1.5, "degrees": 2},
        lambda df: {"angles": 1.5, "degrees": 2} - df,
        lambda df: df == {"angles": 0, "degrees": 360},
        lambda df: df.add({"angles": 1, "degrees": None}, fill_value=0),
        lambda df: df.iloc[:0].mul({"angles": 1, "degrees": 2}),
    ],
)
def test_dict_operand_operators(fn):
    _both(_shapes(), fn)


# --- apply with NumPy functions --------------------------------------------------------------------

APPLY_FRAMES = {
    "int": pd.DataFrame([[4, 9]] * 3, columns=["A", "B"]),
    "mixed": pd.DataFrame(
        {"A": [1, 2, 3], "B": [0.5, np.nan, 2.5], "C": np.array([1, 2, 3], dtype="int32")},
        index=list("xyz"),
    ),
    "f32": pd.DataFrame({"A": np.array([1, 2, 3], dtype="float32"), "B": np.array([1, 2, 3], dtype="int8")}),
    "nan": pd.DataFrame({"A": [np.nan, np.nan], "B": [np.nan, 1.0]}),
    "dup": pd.DataFrame([[1.0, 2.0], [3.0, 4.0]], index=["r", "r"], columns=["A", "B"]),
}


@pytest.mark.parametrize("func", [np.sum, np.mean, np.min, np.max, np.prod, np.sqrt, np.abs])
@pytest.mark.parametrize("frame", list(APPLY_FRAMES))
@pytest.mark.parametrize("axis", [0, 1])
def test_apply_numpy_function(func, frame, axis):
    pdf = APPLY_FRAMES[frame]
    if func in (np.sqrt, np.abs) and axis == 1 and frame in ("mixed", "f32"):
        _refused(pdf, lambda df: df.apply(func, axis=1))  # rows of a common dtype: other results
        return
    _both(pdf, lambda df: df.apply(func, axis=axis))


@pytest.mark.parametrize(
    "pdf",
    [
        pd.DataFrame({"A": [True, False], "B": [1, 2]}),
        pd.DataFrame({"A": pd.array([1, None], dtype="Int64"), "B": [1, 2]}),
        pd.DataFrame({"A": pd.Series([], dtype="int64")}),
    ],
)
def test_apply_numpy_reduction_rows_refused(pdf):
    _refused(pdf, lambda df: df.apply(np.sum, axis=1))


# --- quantile(method=) -----------------------------------------------------------------------------

QUANTILE_FRAMES = {
    "doc": pd.DataFrame(np.array([[1, 1], [2, 10], [3, 100], [4, 100]]), columns=["a", "b"]),
    "mixed": pd.DataFrame({"a": [3, 1, 2, 1, 5], "b": [0.5, np.nan, 2.5, 0.1, 3.0]}, index=list("vwxyz")),
    "nan": pd.DataFrame({"a": [np.nan, 1.0, np.nan, 0.5], "b": [2.0, 1.0, 1.0, 0.0]}),
    "one": pd.DataFrame({"a": [5, 3, 9]}),
    "time": pd.DataFrame({"a": pd.to_datetime(["2020", "2019", "2021"])}),
    "nocol": pd.DataFrame(index=[1, 2]),
}


@pytest.mark.parametrize("frame", list(QUANTILE_FRAMES))
@pytest.mark.parametrize("q", [0.1, [0.1, 0.5], [0.0, 1.0, 0.33], 1.5])
@pytest.mark.parametrize("interpolation", ["nearest", "lower", "higher", "linear"])
@pytest.mark.parametrize("numeric_only", [False, True])
def test_quantile_table(frame, q, interpolation, numeric_only):
    _both(
        QUANTILE_FRAMES[frame],
        lambda df: df.quantile(q, method="table", interpolation=interpolation, numeric_only=numeric_only),
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda df: df.quantile(0.5, method="bad"),
        lambda df: df.quantile([0.5], method="single"),
        lambda df: df.quantile(0.5, axis="index"),
        lambda df: df.quantile(0.5, "index", True, "lower"),  # pandas' positional order
        lambda df: df.quantile(-0.1),
        lambda df: df.quantile(0.5, axis="bad"),
    ],
)
def test_quantile_arguments(call):
    _both(QUANTILE_FRAMES["mixed"], call)


def test_quantile_table_refused():
    _refused(
        pd.DataFrame({"a": [5, 3], "s": ["x", "y"]}),
        lambda df: df.quantile(0.5, method="table", interpolation="lower"),
    )
    _refused(
        pd.DataFrame({"a": pd.Series([], dtype="int64")}),
        lambda df: df.quantile([0.5], method="table", interpolation="lower"),
    )
    _refused(QUANTILE_FRAMES["doc"], lambda df: df.quantile(0.5, axis=1))


# --- join(suffixes=) -------------------------------------------------------------------------------


def _join_pair() -> tuple[pd.DataFrame, pd.DataFrame]:
    left = pd.DataFrame(
        {"key": ["K0", "K1", "K2", "K3", "K4", "K5"], "A": ["A0", "A1", "A2", "A3", "A4", "A5"]}
    )
    right = pd.DataFrame({"key": ["K0", "K1", "K2"], "B": ["B0", "B1", "B2"]})
    return left, right


JOIN_CALLS = [
    lambda a, b: a.join(b, lsuffix="_caller", rsuffix="_other"),
    lambda a, b: a.join(b, lsuffix="_caller"),
    lambda a, b: a.join(b),
    lambda a, b: a.set_index("key").join(b.set_index("key")),
    lambda a, b: a.join(b.set_index("key"), on="key"),
    lambda a, b: a.join(b.set_index("key"), on="key", validate="m:1"),
    lambda a, b: a.join(b.set_index("key"), on="key", validate="1:1", how="inner"),
    lambda a, b: a.set_index("key").join(b.set_index("key"), how="outer", sort=True),
    lambda a, b: a.join(b["B"]),
    lambda a, b: a.join(b["B"].rename(None)),
]
JOIN_CALLS_31 = [
    lambda a, b: a.join(b, suffixes=("_caller", "_other")),
    lambda a, b: a.join(b, suffixes=(None, "_r")),
    lambda a, b: a.join(b, suffixes=(None, None)),
    lambda a, b: a.join(b, lsuffix="_c", suffixes=("_caller", "_other")),
    lambda a, b: a.join(b, how="cross", suffixes=("_l", "_r")),
    lambda a, b: a.join(b, how="outer", suffixes=("_l", "_r"), sort=True),
]


@pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning")
@pytest.mark.parametrize("call", JOIN_CALLS + JOIN_CALLS_31)
def test_join_suffixes(call):
    left, right = _join_pair()
    try:
        expected = call(left, right)
    except Exception as e:  # noqa: BLE001 - pandas' error type is the oracle (a TypeError on 3.0)
        with pytest.raises(type(e)):
            call(em.from_pandas(left), em.from_pandas(right))
        return
    assert_eq(call(em.from_pandas(left), em.from_pandas(right)), expected)


@pytest.mark.skipif(not PANDAS_31, reason="lsuffix / rsuffix are deprecated in pandas 3.1")
def test_join_lsuffix_warns_as_pandas():
    left, right = _join_pair()
    with pytest.warns(pd.errors.Pandas4Warning):
        em.from_pandas(left).join(em.from_pandas(right), lsuffix="_l", rsuffix="_r")


# --- eval with assignments, query / eval with backquoted names ---------------------------------------


def _eval_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {"A": range(1, 6), "B": range(10, 0, -2), "C&C": range(10, 5, -1), "my col": [1.5, np.nan, 2, 3, 4]}
    )


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(
    "expr",
    [
        "A + B",
        "D = A + B",
        "\nD = A + B\nE = A - B\n",
        "D = A + B\nE = D * 2",
        "A = A * 2",
        "B * `C&C`",
        "D = `my col` * `C&C`",
        "D = A > 2 and B < 8",
        "D = A + B\nA + B",  # pandas' ValueError
        "",
    ],
)
def test_eval_assignments(expr):
    _both(_eval_frame(), lambda df: df.eval(expr))


@pytest.mark.filterwarnings("ignore")
def test_eval_inplace():
    pdf, edf = _eval_frame(), em.from_pandas(_eval_frame())
    assert edf.eval("D = A + B\nE = D - 1", inplace=True) is None
    pdf.eval("D = A + B\nE = D - 1", inplace=True)
    assert_eq(edf, pdf)
    _both(_eval_frame(), lambda df: df.eval("A + B", inplace=True))
    _refused(_eval_frame(), lambda df: df.eval("`new col` = A + B"))


@pytest.mark.parametrize("expr", ["B == `C&C`", "`my col` > 1 and A > 2", "`C&C` in [8, 9]"])
def test_query_backquoted(expr):
    _both(_eval_frame(), lambda df: df.query(expr))


# --- round with places per column ------------------------------------------------------------------


@pytest.mark.parametrize(
    "decimals",
    [
        1,
        {"dogs": 1, "cats": 0},
        {"dogs": 1, "zzz": 2},
        {"dogs": 1.5},
        {"n": -1},
        pd.Series([0, 1], index=["cats", "dogs"]),
        pd.Series([0, 1], index=["cats", "cats"]),
        pd.Series([0.5, 1], index=["cats", "dogs"]),
        1.5,
    ],
)
@pytest.mark.parametrize("as_ember", [False, True])
def test_round_per_column(decimals, as_ember):
    pdf = pd.DataFrame([(0.21, 0.32), (0.01, 0.67), (0.66, 0.03), (0.21, 0.18)], columns=["dogs", "cats"])
    pdf["n"], pdf["s"] = [15, 24, 35, 41], list("abcd")
    given = em.from_pandas(decimals) if as_ember and isinstance(decimals, pd.Series) else decimals
    try:
        expected = pdf.round(decimals)
    except Exception as e:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises(type(e)):
            em.from_pandas(pdf).round(given)
        return
    assert_eq(em.from_pandas(pdf).round(given), expected)

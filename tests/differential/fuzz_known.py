"""Known open divergences, which the CI fuzz test lets pass; prune an entry when its fix lands.

KNOWN: (op glob, dtype family or '*', reason). A drawn step whose op name matches the glob
(``fnmatch``; write a literal '[' as '?') and whose families include the family is not drawn at all
(run.py --include-known draws it, to see whether a fix has landed).

KNOWN_RESULTS: (op glob, regex, reason). A divergence whose op matches and whose signature (what
differs, without the values: see ``Outcome.signature``), or signature and first differing values
(`` first diff: <ember> != <pandas>``), matches the regex is counted as known: these families cut
across many ops and dtypes, so no (op, dtype) pair can name them before the chain runs.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

import numpy as np
import pandas as pd

# fmt: off
KNOWN: list[tuple[str, str, str]] = [
    ("frame.pivot_table", "*", "pivot_table: empty results' labels, margins, observed=, size on a Series"),
]

#: divergences recognised by what differs (op glob, regex on the signature, reason): families that
#: cut across many ops, so that no (op, dtype) entry can name them before the chain runs
KNOWN_RESULTS: list[tuple[str, str, str]] = [
    ("*", r"(bool|double|u?int\d+)\[pyarrow\]", "pandas 3.1 gives bool[pyarrow] / double[pyarrow] / int64[pyarrow] from 'string' (pyarrow) data: ember gives the NumPy / masked types (deliberate: it holds no pyarrow-typed numbers)"),
    ("*", r"raises TypeError at column/convert\.py", "results pandas makes object (concat / melt of mixed dtypes): TypeError"),
    ("*", 'Attribute "names" are different', "binary ops of differently named indexes keep a name (pandas: None)"),
    ("frame.assign(from other labels)", "^shape|^dtype|accepted", "assign of a Series with other / duplicate labels"),
    ("frame.fillna(*", "^raises", "fillna with a value of another kind raises where pandas upcasts or skips"),

    ("*", "both an index level and a column label", "a label both index level and column is accepted"),
    ("*fillna(series)", "accepted|^dtype|^raises", "fillna(Series): duplicate labels, dtype of the filled result"),
    ("*floordiv*", "accepted: pandas ZeroDivisionError", "bool // 0 with fill_value gives inf (pandas raises)"),
    ("frame.skew*", r"\[left\]:  U?Float64 \[right\]: U?Float32", "skew(axis=1) of float32 beside other columns: float64 (pandas float32)"),
    ("frame.kurt*", r"\[left\]:  U?Float64 \[right\]: U?Float32", "kurt(axis=1) of float32 beside other columns: float64 (pandas float32)"),
    ("*where*", "raises TypeError at ops/missing", "where / mask with another kind of value raise (pandas upcasts)"),
    *[(op, r"\[left\]:  U?Int\d+ \[right\]: Float64", "masked ints // or % a divisor holding 0 only beneath its mask (e.g. 2 * an all-NA boolean): pandas checks its hidden data for zeros and gives Float64; ember looks at the valid rows") for op in ("*%*", "*//*", "*mod*", "*floordiv*")],
]
# fmt: on

#: float results that differ by how the additions are rounded, where ember's is the closer answer
_WINDOW_SUMS = ("*.rolling.sum", "*.rolling.mean", "*.expanding.sum", "*.expanding.mean")
_WINDOW_SPREADS = ("*.rolling.std", "*.rolling.var", "*.expanding.std", "*.expanding.var")
PRECISION: list[tuple[str, str, str]] = [
    *[(op, r"\[(right|left)\]: .*(\d{16,}\.|\de\+(1[6-9]|[2-9]\d))", "window sums of values beyond 2**53: pandas' sequential Kahan update rounds them away, ember's compensated scan keeps the digits") for op in _WINDOW_SUMS],
    *[(op, r"first diff: 0\.0 != \d(\.\d+)?e-\d\d$", "a window of equal values after others: pandas' online update leaves a rounding residue, ember gives the exact 0") for op in _WINDOW_SPREADS],
]  # fmt: skip

#: which of two equal zeros a min / max keeps: pandas' loops differ by path (NumPy floats, masked
#: floats, NaN before them), ember's scatter keeps either; -0.0 == 0.0, only text shows the sign
SIGNED_ZERO: list[tuple[str, str, str]] = [
    (
        "*",
        r"first diff: '?-0\.0'? != '?0\.0'?$|first diff: '?0\.0'? != '?-0\.0'?$",
        "the sign of a zero min / max",
    ),
]

#: where pandas itself is wrong (an internal error, or an answer that contradicts its own documented
#: behaviour) and ember keeps the sane answer; each is a divergence by design, not an open one
PANDAS_BUGS: list[tuple[str, str, str]] = [
    (
        "frame.sort_values",
        r"^(index|values).* pandas: (?s:.*\binf\b.*\bNaN\b|.*\bNaN\b.*\binf\b)",
        "pandas' sort over several keys (lexsort of factorized keys) puts inf beside NaN against "
        "na_position; its one-key sort and ember follow na_position",
    ),
    (
        "*quantile",
        "^values",
        "NumPy interpolates integers in their own dtype and wraps (int8 [-128, 0] midpoint: pandas 64, "
        "ember -64, the float64 quantile); regression tests pin ember's answers against float64 data",
    ),
    (
        "series*",
        r"accepted: pandas TypeError: int\(\) argument must be",
        "pandas' alignment takes a missing indexer from a datetime / timedelta array and fails "
        "(ensure_platform_int); ember aligns",
    ),
    (
        "*",
        "accepted: pandas (IndexError|AttributeError)",
        "pandas fails with an internal error; ember answers",
    ),
    (
        "*",
        "accepted: pandas TypeError: boolean value of NA is ambiguous",
        "pandas' own code takes the truth of pd.NA (object comparisons of a row or a categorical "
        "beside pd.NA values) and fails; ember answers as NumPy values compare",
    ),
    (
        "series.[en][qe](series, other labels)",
        r"accepted: pandas TypeError: # not supported between instances of # and #",
        "an equality test fails on an ordering inside pandas' join of the labels (a named RangeIndex "
        "beside floats: None >= int); ember aligns",
    ),
    (
        "*groupby.a[nl][yl]",
        r"accepted: pandas ValueError: cannot convert to #-dtype NumPy array with missing values",
        "pandas' groupby any / all of a categorical holding NaN converts it to NumPy bools and fails",
    ),
    (
        "*groupby*",
        r"^index.* pandas: [^\n]*\n#?\s*(\S+) +\1 *\n",
        "pandas' groupby by several keys where one is an all-missing categorical (observed=False) "
        "repeats another key's values and name in both levels; ember keeps each key's level",
    ),
    (
        "series.*(series, * fill_value)",
        r"accepted: pandas TypeError: unsupported operand type\(s\) for [^:]*: # and #",
        "pandas applies the operator to rows missing on both sides (NaT objects beside NaN) and "
        "fails; ember leaves them missing, as fill_value's documented rule",
    ),
    (
        "frame.std",
        r"\[left\]:  Float32 \[right\]: Float64",
        "pandas' std(axis=1) over float32 beside masked columns is Float32 or Float64 by the values "
        "(1.5: Float32, 1e7: Float64; its var / mean stay Float32): ember keeps Float32",
    ),
    (
        "frame // scalar",
        r"\[left\]:  int64 \[right\]: float64",
        "pandas divides a frame block by block: a NaT in one timedelta column makes float64 the "
        "other columns of its block (a Series, or the column alone, gives int64, as ember)",
    ),
    (
        "frame.idxmax",
        "^values",
        "pandas' DataFrame.idxmax takes a masked bool's NA as True (its Series.idxmax does not)",
    ),
    (
        "frame.sort_values",
        "accepted: pandas TypeError",
        "sort_values(by=<NA label>): pandas' own label check fails on NA",
    ),
    (
        "*merge(*",
        r"accepted: pandas (OverflowError|TypeError: cannot safely cast)",
        "pandas' _maybe_add_join_keys casts a right-only float key into the masked left key's dtype (Index.where) and fails; ember merges",
    ),
    (
        "series.sort_index",
        "^categories",
        "pandas skips sorting a CategoricalIndex monotonic by its codes, leaving a NaN first despite na_position='last'",
    ),
    (
        "*cumm[ai][nx]",
        r"first diff: -?inf != -?1\.7976931348623157e\+308$|\[right\]: .*-?179769313486231570814527423731704356798",
        "pandas' masked cummin / cummax after a leading NA turns inf into the largest float (its fill value); ember keeps inf, as pandas' float64 and groupby do",
    ),
]

#: where pandas 3.0 (the GPU host's) answers otherwise than 3.1, whose behaviour ember follows
PANDAS30_RESULTS: list[tuple[str, str, str]] = [
    (
        "column + column",
        r"raises TypeError at ops/binary",
        "pandas 3.0 adds bools to timedeltas; 3.1 raises TypeError",
    ),
    (
        "series.sort_values",
        r"^index|Series\.index are different",
        "pandas 3.0's sort_values(ignore_index=True) of masked data keeps the index",
    ),
    ("frame.duplicated", r"^index", "pandas 3.0's duplicated of a frame with no rows: a RangeIndex"),
    (
        "merge(*",
        r"accepted: pandas TypeError",
        "pandas 3.0 fails to cast a masked key's NaN back (3.1 merges)",
    ),
]
#: differences of the comparison, not of the results
COMPARISON: list[tuple[str, str, str]] = [
    (
        "*",
        r"^name: .* \[right\]: .*\bnan\b",
        "a name holding NaN (a tuple of group keys): assert_series_equal compares NaN objects by "
        "identity, the names print the same",
    ),
]

KNOWN_RESULTS = KNOWN_RESULTS + PANDAS_BUGS + PRECISION + SIGNED_ZERO + COMPARISON
if tuple(int(p) for p in pd.__version__.split(".")[:2]) < (3, 1):
    KNOWN_RESULTS = KNOWN_RESULTS + PANDAS30_RESULTS


def known(step) -> str | None:  # noqa: ANN001 - a fuzz_engine.Step
    """The reason a step is a known divergence, or None."""
    for pattern, family, reason in KNOWN:
        if fnmatchcase(step.op, pattern) and (family == "*" or family in step.families):
            return reason
    return None


#: pandas computes these by online updates, row after row (Welford's variance, Kahan sums; groupby's
#: variance too), which ember's parallel scans match to the last bit or two only
ONLINE_FLOAT_OPS = ("*.rolling.std", "*.rolling.var", "*.rolling.mean", "*.rolling.sum",
                    "*.expanding.std", "*.expanding.var", "*.expanding.sum", "*.expanding.mean",
                    "*.groupby.std", "*.groupby.var",
                    "*.groupby.sem")  # fmt: skip
#: later ops that turn such last-bit differences into other rows, ranks or text
DISCONTINUOUS_OPS = ("*groupby*", "*rank*", "*duplicat*", "*astype(str*", "*astype({col: str*", "*unique*",
                     "*value_counts*", "*mode*", "*sort_*", "*nlargest*", "*nsmallest*", "*%*", "*//*",
                     "*mod*", "*floordiv*", "*astype(categ*", "*astype({col: categ*", "*merge(*",
                     "*assign(expr)*")  # fmt: skip


def known_chain(outcome, steps) -> str | None:  # noqa: ANN001 - fuzz_engine types
    """A divergence at a discontinuous op fed by a rolling / expanding statistic: the statistic's
    last-bit difference from pandas' online update becomes different groups, ranks or strings."""
    if outcome.step is None or not steps or outcome.kind.startswith("accepted"):
        return None
    if outcome.kind.startswith("raises") and outcome.kind != "raises KeyError":
        return None  # a label the statistic made, looked up: KeyError; other errors are not its doing
    ran = steps[: outcome.steps_run]
    first = next(
        (i for i, s in enumerate(ran[:-1]) if any(fnmatchcase(s.op, p) for p in ONLINE_FLOAT_OPS)), None
    )
    if first is None:
        return None
    # the discontinuous step may be the diverging one or any after the statistic: its groups, ranks
    # or labels carry the difference on (a later concat, lookup or name shows it)
    if any(fnmatchcase(s.op, p) for s in ran[first + 1 :] for p in DISCONTINUOUS_OPS):
        return "a rolling / expanding statistic's last bit (pandas' online update) decides a later step"
    return None


def _holds_huge_ints(source) -> bool:  # noqa: ANN001 - the chain's pandas input
    """Whether the input holds integers beyond 2**53 in magnitude (float64 rounds them)."""
    frame = source.to_frame() if isinstance(source, pd.Series) else source
    if not isinstance(frame, pd.DataFrame):
        return False
    for _, col in frame.items():
        if col.dtype.kind in "iu" and len(col.dropna()):
            values = col.dropna().astype(object)
            if max(abs(int(v)) for v in values) > 2**53:
                return True
    return False


def _groupby_keys_label_zero(step) -> bool:  # noqa: ANN001 - a fuzz_engine.Step
    """A groupby(as_index=False) step by a list of several keys, one of them the label 0 / 0.0."""
    if not step.op.startswith("frame.groupby"):
        return False
    for part in step.path:
        args, kwargs = getattr(part, "args", None), getattr(part, "kwargs", None)
        if args and isinstance(args[0], list) and kwargs is not None and kwargs.get("as_index") is False:
            keys = args[0]
            return len(keys) > 1 and any(
                isinstance(k, (int, float, np.number)) and not isinstance(k, bool) and k == 0 for k in keys
            )
    return False


def known_result(outcome, steps=None, source=None) -> str | None:  # noqa: ANN001 - a fuzz_engine.Outcome
    """The reason a divergence is a known one (by op and what differs, by the chain ``steps`` that led
    to it, or by its ``source`` data), or None."""
    import re

    chained = known_chain(outcome, steps)
    if chained:
        return chained
    op = outcome.key[0]
    if outcome.step is not None and _groupby_keys_label_zero(outcome.step):
        return (
            "pandas' groupby(as_index=False) by several keys one of which is labelled 0 inserts the "
            "key columns into the wrong places (its values under another key's label); ember's keys "
            "are right"
        )
    if source is not None and any(fnmatchcase(op, p) for p in _WINDOW_SUMS) and _holds_huge_ints(source):
        return "window sums of integers beyond 2**53: pandas' float64 running sum rounds them in its order"
    op = outcome.key[0]
    texts = [outcome.signature, outcome.signature + " pandas: " + (outcome.pandas_result or "")]
    # pandas' first differing value / values; ember's (a detail cut short may lack pandas' line)
    for what in (r"first diff: [^\n]*", r"\[right\]: [^\n]*", r"\[left\]: [^\n]*"):
        found = re.search(what, outcome.detail or "")
        if found:
            texts.append(outcome.signature + " " + found.group(0))
    for pattern, regex, reason in KNOWN_RESULTS:
        if fnmatchcase(op, pattern) and any(re.search(regex, text) for text in texts):
            return reason
    return known_step_reason(outcome.step)


def known_step_reason(step) -> str | None:  # noqa: ANN001
    return known(step) if step is not None else None

"""Binary operators against pandas: object columns of Python objects, comparisons of mixed kinds,
logical operators of masked integers, frames and aligned remainders (families the differential
fuzzer found; each test computes pandas' answer with the installed pandas)."""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _outcome(fn):
    """('ok', result) or ('raises', exception type)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", fn()
    except Exception as exc:  # noqa: BLE001 - the exception type is what is compared
        return "raises", type(exc)


def _ember(obj):
    return em.from_pandas(obj) if isinstance(obj, (pd.Series, pd.DataFrame)) else obj


def check(fn, *objs, refuse_ok=False):
    """ember gives pandas' result or raises pandas' exception type (NotImplementedError only with
    ``refuse_ok``)."""
    pkind, pres = _outcome(lambda: fn(*objs))
    ekind, eres = _outcome(lambda: fn(*(_ember(o) for o in objs)))
    if refuse_ok and ekind == "raises" and issubclass(eres, NotImplementedError):
        return
    if pkind == "raises":
        assert ekind == "raises", f"pandas raises {pres.__name__}, ember answers {eres!r}"
        assert issubclass(eres, pres), f"pandas raises {pres.__name__}, ember {eres.__name__}"
        return
    assert ekind == "ok", f"ember raises {eres.__name__}, pandas answers {pres!r}"
    assert_eq(eres, pres)


def obj_series(values, **kw):
    return pd.Series(values, dtype=object, **kw)


# --- object columns of Python objects ---------------------------------------------------------------

_OBJECTS = {
    "na": [pd.NA, pd.NA, pd.NA],
    "na_str": [pd.NA, "a", "b"],
    "nan_str": [np.nan, "", "B"],
    "none_str": [None, "", "B"],
    "strs": ["x", "y", "z"],
    "none": [None, None, None],
}


@pytest.mark.parametrize("right", list(_OBJECTS))
@pytest.mark.parametrize("left", list(_OBJECTS))
def test_object_plus_object(left, right):
    """pd.NA + NaN is NA and keeps the result NA unless another row fails (then NaN everywhere
    missing): Python's operators row by row, pandas' masked retry (NA + NaN was NaN)."""
    check(operator.add, obj_series(_OBJECTS[left]), obj_series(_OBJECTS[right]))


def test_string_sum_as_object_plus_object():
    df = pd.DataFrame(
        {"d": pd.Series([None] * 3, dtype="string"), "c": pd.Series(["", "AB", "B"], dtype="string")}
    )
    o1 = obj_series([np.nan, "", "B"])
    check(lambda d, o: (d["c"] + d["d"]).astype("object") + o, df, o1)


@pytest.mark.parametrize("source", ["string", "object", "str"])
@pytest.mark.parametrize("values", [[], ["abc", None], ["b", "", "abba"]])
def test_lists_times_int(source, values):
    """3 * lists of str.split repeats each list (was TypeError), empty or not."""
    s = pd.Series(values, dtype=source, name="s")
    check(lambda x: 3 * x.str.split("b"), s)
    check(lambda x: x.str.split("b") * 2, s)


@pytest.mark.parametrize("op", ["eq", "ne", "lt"])
@pytest.mark.parametrize("values", [[], ["abc", None]])
def test_lists_compared(op, values):
    """lists == '' is False, != True, missing rows False (!= True); < raises Python's TypeError."""
    s = pd.Series(values, dtype=object, name="a")
    check(lambda x: getattr(x.str.split("b"), op)(""), s)
    check(lambda x: getattr(x.str.split("b"), f"__{op}__")(x.str.split("b")), s)


def test_lists_plus_lists_and_strings():
    s = obj_series(["abc", None])
    check(lambda x: x.str.split("b") + x.str.split("b"), s)
    check(lambda x: x.str.split("b") + "x", s)


@pytest.mark.parametrize("objects", [[None, None], [None, np.nan], [pd.NaT, None], ["a", None], []])
@pytest.mark.parametrize("unit", ["s", "ns"])
def test_timedeltas_and_objects(objects, unit):
    """timedelta + an object column of missing values gives NaT objects (was TypeError)."""
    td = pd.Series(pd.to_timedelta(["-1D", "2D"][: len(objects)]).as_unit(unit))
    obj = obj_series(objects)
    check(operator.add, td, obj)
    check(operator.add, obj, td)
    check(operator.sub, td, obj)
    check(operator.sub, obj, td)


@pytest.mark.parametrize("objects", [[None, None], ["a", None], []])
def test_datetimes_and_objects(objects):
    dt = pd.Series(pd.to_datetime(["2020-01-01", "2021-01-01"][: len(objects)]))
    obj = obj_series(objects)
    check(operator.add, dt, obj)
    check(operator.sub, dt, obj)
    check(operator.sub, obj, dt)


def test_one_timedelta_beside_objects_refused_or_pandas():
    check(operator.add, pd.Series(pd.to_timedelta(["1D"])), obj_series([None]), refuse_ok=True)


@pytest.mark.parametrize(
    "other",
    [pd.Series([1.0, np.nan]), pd.Series([2, 3]), 1, "x", pd.Timedelta(1), None],
    ids=["float", "int", "int_scalar", "str_scalar", "td_scalar", "none"],
)
@pytest.mark.parametrize("values", [["a", None], [None, None], [pd.NA, "b"]])
def test_object_strings_with_numbers_and_scalars(values, other):
    s = obj_series(values)
    for op in (operator.add, operator.mul, operator.pow, operator.mod):
        check(op, s, other)
        check(op, other, s)


# --- comparisons of mixed kinds ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "left",
    [([None], "Int64"), ([1], "Int64"), ([False], "boolean"), ([1.5, None], "Float64"), ([], "Int64")],
)
@pytest.mark.parametrize("right", ["missing", "values"])
@pytest.mark.parametrize("op", ["lt", "ge", "eq", "ne"])
def test_masked_compared_with_str(left, right, op):
    """A masked column < str data of missing values only is all NA (was TypeError); beside str
    values pandas raises TypeError."""
    values, dtype = left
    strs = [None] * len(values) if right == "missing" else ["a"] * len(values)
    check(lambda a, b: getattr(a, op)(b), pd.Series(values, dtype=dtype), pd.Series(strs, dtype="str"))


@pytest.mark.parametrize("dtype", ["Int64", "Int32", "boolean"])
@pytest.mark.parametrize("op", ["lt", "le", "eq", "ne", "gt", "ge"])
def test_masked_ints_compared_with_timedeltas(dtype, op):
    """NumPy reads the int64 minimum as NaT: it compares False (!= True), not as the smallest count."""
    values = [-(2**63), 5, -5, None] if dtype == "Int64" else [True, False, None, True]
    if dtype == "Int32":
        values = [-(2**31), 5, -5, None]
    td = pd.Series(pd.to_timedelta(["1h", "-1h", "0s", None]))
    s = pd.Series(values, dtype=dtype)
    check(lambda a, b: getattr(a, op)(b), s, td)
    check(lambda a, b: getattr(a, op)(b), td, s)


_CATS = ["a", "b", "ç", "日本", ""]


@pytest.mark.parametrize("values", [[], ["a", "b", None, ""]])
@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("op", ["eq", "ne", "lt"])
def test_categoricals_with_permuted_categories(values, ordered, op):
    """Unordered categoricals whose categories are one set in another order compare (pandas recodes;
    was TypeError); ordered ones, or other sets, raise pandas' TypeError."""
    s1 = pd.Series(pd.Categorical(values, categories=_CATS, ordered=ordered), name="a")
    s2 = pd.Series(pd.Categorical(values[::-1], categories=_CATS, ordered=ordered), name="a")
    check(lambda a, b: getattr(a.cat.reorder_categories(_CATS[::-1]), op)(b), s1, s2)
    other = pd.Series(pd.Categorical(values, categories=[*_CATS, "z"], ordered=ordered))
    check(lambda a, b: getattr(a, op)(b), s1, other)


# --- logical operators of masked integers -----------------------------------------------------------

_LOGICAL = {
    "Int64_na": ([1, None, 3], "Int64"),
    "Int64": ([1, 2, 3], "Int64"),
    "boolean_na": ([True, None, False], "boolean"),
    "bool": ([True, False, True], "bool"),
    "int64": ([1, 0, 3], "int64"),
}


@pytest.mark.parametrize("labels", ["aligned", "other"])
@pytest.mark.parametrize("right", list(_LOGICAL))
@pytest.mark.parametrize("left", list(_LOGICAL))
def test_logical_ops_of_masked_ints(left, right, labels):
    """& | ^ with NA-holding Int64 beside booleans: pandas' ValueError (missing values cannot become
    NumPy bools), Kleene logic where both are masked."""
    a = pd.Series(*_LOGICAL[left][:1], dtype=_LOGICAL[left][1])
    b = pd.Series(
        *_LOGICAL[right][:1], dtype=_LOGICAL[right][1], index=None if labels == "aligned" else [1, 2, 5]
    )
    for op in (operator.and_, operator.or_, operator.xor):
        check(op, a, b, refuse_ok=labels == "other")

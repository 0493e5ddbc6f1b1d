"""repr of DataFrame / Series / Index as pandas' under its display options, and the Index methods
composed from the Series' ones."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

SIZES = [0, 1, 10, 59, 60, 61, 100, 10_000]


def _frame(n: int, m: int = 9) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    makers = [
        lambda: np.arange(n),
        lambda: np.where(np.arange(n) % 7 == 0, np.nan, rng.random(n) * 1000),
        lambda: pd.array([f"s{i}" if i % 5 else None for i in range(n)], dtype="str"),
        lambda: pd.date_range("2020", periods=n, freq="h"),
        lambda: pd.Categorical([("x", "yy", "zzz")[i % 3] for i in range(n)]),
        lambda: np.arange(n) % 2 == 0,
        lambda: pd.date_range("2020", periods=n, freq="min", tz="UTC"),
        lambda: pd.to_timedelta(np.arange(n), unit="s"),
        lambda: pd.array([i if i % 4 else None for i in range(n)], dtype="Int64"),
    ]
    return pd.DataFrame({f"c{j}": makers[j % len(makers)]() for j in range(m)})


@pytest.mark.parametrize("n", SIZES)
def test_frame_repr_as_pandas(n):
    pdf = _frame(n)
    df = em.from_pandas(pdf)
    assert repr(df) == repr(pdf)
    assert df._repr_html_() == pdf._repr_html_()


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("col", [f"c{j}" for j in range(9)])
def test_series_and_index_repr_as_pandas(n, col):
    ps = _frame(n)[col]
    s = em.from_pandas(ps)
    assert repr(s) == repr(ps)
    assert repr(s.rename(None)) == repr(ps.rename(None))
    assert repr(em.from_pandas(pd.Index(ps))) == repr(pd.Index(ps))


@pytest.mark.parametrize("n", [0, 5, 10_000])
def test_index_kinds_repr(n):
    for pidx in [
        pd.RangeIndex(n, name="r"),
        pd.Index(np.arange(n) * 2, name="x"),
        pd.MultiIndex.from_arrays([np.arange(n), np.arange(n) % 3], names=["a", None]),
        pd.CategoricalIndex(np.arange(n) % 3),
    ]:
        assert repr(em.from_pandas(pidx)) == repr(pidx)


OPTIONS = [
    ("display.max_rows", 5),
    ("display.max_rows", 5, "display.min_rows", 3),
    ("display.max_rows", 0),
    ("display.min_rows", 0),
    ("display.min_rows", 1),
    ("display.max_rows", None),
    ("display.max_columns", 4),
    ("display.max_columns", 1),
    ("display.max_columns", None),
    ("display.max_columns", 20),
    ("display.width", 40),
    ("display.show_dimensions", True),
    ("display.show_dimensions", False),
    ("display.max_seq_items", 5),
    ("display.expand_frame_repr", False),
]


@pytest.mark.parametrize("opts", OPTIONS, ids=str)
@pytest.mark.parametrize("shape", [(3, 9), (7, 30), (100, 100), (100, 300)])
def test_repr_under_pandas_options(opts, shape):
    pdf = _frame(*shape)
    df = em.from_pandas(pdf)
    with pd.option_context(*opts):
        assert repr(df) == repr(pdf)
        assert df._repr_html_() == pdf._repr_html_()
        assert repr(df.c4) == repr(pdf.c4)
        assert repr(df.c1) == repr(pdf.c1)
        assert repr(em.from_pandas(pd.Index(pdf.c2))) == repr(pd.Index(pdf.c2))


def test_repr_gathers_the_rows_shown_only(monkeypatch):
    pdf = _frame(10_000, 300)
    df = em.from_pandas(pdf)
    seen = []
    for cls in (em.DataFrame, em.Series):
        real = cls.to_pandas

        def spy(self, *a, _real=real, **k):
            seen.append(len(self) * (len(self.columns) if hasattr(self, "columns") else 1))
            return _real(self, *a, **k)

        monkeypatch.setattr(cls, "to_pandas", spy)
    assert repr(df) == repr(pdf)
    assert repr(df.c0) == repr(pdf.c0)
    assert seen and max(seen) < 200 * 300


# --- Index methods composed from the Series' ones ---------------------------------------------------

INDEXES = {
    "int": lambda: pd.Index([3, 1, 2, 3, 5], name="x"),
    "float": lambda: pd.Index([3.0, np.nan, 1.0, 3.0, np.nan], name="x"),
    "str": lambda: pd.Index(["b", None, "a", "b", "c"], dtype="str"),
    "datetime": lambda: pd.DatetimeIndex(["2020-01-02", None, "2020-01-01", "2020-01-02"], name="t"),
    "range": lambda: pd.RangeIndex(0, 10, 2, name="r"),
    "int_unique": lambda: pd.Index([5, 1, 3], name="x"),
    "empty": lambda: pd.Index([], dtype="int64"),
}


def _first(p):
    return p[0] if len(p) else None


METHODS = {
    "isin": lambda i, f: i.isin([f, 99]),
    "isna": lambda i, f: i.isna(),
    "notna": lambda i, f: i.notna(),
    "unique": lambda i, f: i.unique(),
    "nunique": lambda i, f: i.nunique(),
    "nunique_dropna_false": lambda i, f: i.nunique(dropna=False),
    "duplicated": lambda i, f: i.duplicated(),
    "duplicated_last": lambda i, f: i.duplicated(keep="last"),
    "drop_duplicates": lambda i, f: i.drop_duplicates(),
    "to_series": lambda i, f: i.to_series(),
    "to_series_named": lambda i, f: i.to_series(name="n"),
    "to_frame": lambda i, f: i.to_frame(),
    "argsort": lambda i, f: i.argsort(),
    "min": lambda i, f: i.min(),
    "max": lambda i, f: i.max(),
    "where": lambda i, f: i.where(np.arange(len(i)) % 2 == 0),
    "putmask": lambda i, f: i.putmask(np.arange(len(i)) % 2 == 0, f),
    "append": lambda i, f: i.append(i),
    "insert": lambda i, f: i.insert(1, f),
    "delete": lambda i, f: i.delete(0),
    "delete_list": lambda i, f: i.delete([0, -1]),
    "drop": lambda i, f: i.drop([f]),
    "drop_absent": lambda i, f: i.drop([12345]),
    "drop_ignore": lambda i, f: i.drop([f, 12345], errors="ignore"),
    "fillna": lambda i, f: i.fillna(f),
    "dropna": lambda i, f: i.dropna(),
    "astype_str": lambda i, f: i.astype(str),
    "is_unique": lambda i, f: i.is_unique,
    "has_duplicates": lambda i, f: i.has_duplicates,
    "is_monotonic_increasing": lambda i, f: i.is_monotonic_increasing,
    "is_monotonic_decreasing": lambda i, f: i.is_monotonic_decreasing,
    "sorted_is_decreasing": lambda i, f: i.sort_values().is_monotonic_decreasing,
    "map": lambda i, f: i.map({f: 100}) if i.dtype.kind in "if" else i.map({f: "z"}),
}


def _same(got, want):
    if isinstance(want, (pd.Index, pd.Series, pd.DataFrame)):
        assert type(got).__module__.startswith("ember")
        assert_eq(got, want)
    elif isinstance(want, np.ndarray):
        got = np.asarray(got.get() if hasattr(got, "get") else got)
        np.testing.assert_array_equal(got, want)
        assert got.dtype.kind == want.dtype.kind
    else:
        assert got == want or (pd.isna(got) and pd.isna(want))


@pytest.mark.parametrize("method", list(METHODS))
@pytest.mark.parametrize("kind", list(INDEXES))
def test_index_method_as_pandas(kind, method):
    p = INDEXES[kind]()
    f = _first(p)
    if f is None and method in (
        "isin",
        "putmask",
        "insert",
        "delete",
        "delete_list",
        "drop",
        "fillna",
        "map",
    ):
        pytest.skip("needs a label")
    if method == "map" and kind in ("str", "datetime"):
        pytest.skip("Series.map of these dtypes is covered by the Series tests")
    fn = METHODS[method]
    try:
        want = fn(p, f)
    except Exception as exc:
        with pytest.raises((type(exc), NotImplementedError)):
            fn(em.from_pandas(p), f)
        return
    _same(fn(em.from_pandas(p), f), want)


SETOP_OTHERS = {
    "int": [pd.Index([1, 7, 3]), pd.Index([], dtype="int64"), pd.Index([3, 1, 2, 3, 5], name="x"), [5, 9]],
    "float": [pd.Index([1.0, np.nan, 9.0]), pd.Index([3.0, np.nan, 1.0, 3.0, np.nan], name="x")],
    "str": [pd.Index(["a", "q"], dtype="str"), pd.Index(["a", None], dtype="str")],
    "datetime": [pd.DatetimeIndex(["2020-01-01", "2021-01-01"])],
    "range": [pd.RangeIndex(0, 6, 3), pd.Index([4, 100])],
    "int_unique": [pd.Index([1, 7], name="x"), pd.Index([2, 1], name="y"), pd.Index([5, 1, 3], name="x")],
    "empty": [pd.Index([1, 2])],
}


@pytest.mark.parametrize("sort", [None, False, True])
@pytest.mark.parametrize("op", ["union", "intersection", "difference", "symmetric_difference"])
@pytest.mark.parametrize("kind", list(INDEXES))
def test_index_set_operations(kind, op, sort):
    p = INDEXES[kind]()
    e = em.from_pandas(p)
    for other in SETOP_OTHERS[kind]:
        want = getattr(p, op)(other, sort=sort)
        theirs = em.from_pandas(other) if isinstance(other, pd.Index) else other
        _same(getattr(e, op)(theirs, sort=sort), want)

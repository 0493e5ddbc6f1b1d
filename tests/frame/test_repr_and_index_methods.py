"""repr of DataFrame / Series / Index as pandas' under its display options, and the Index methods
composed from the Series' ones."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em

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

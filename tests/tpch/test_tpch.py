"""TPC-H conformance: the 22 queries of ``queries.py`` run with ember and with pandas give one answer.

The tables come from ``tpchgen-cli`` at scale factor 0.01, generated once per module. tpchgen writes
money as decimal128 and dates as date32, which pandas reads as object columns of ``Decimal`` and
``datetime.date``; a pandas user computing TPC-H converts them first, so the fixture writes them back
as float64 and timestamp columns, and both libraries read those files with ``read_parquet``. How ember
reads the unconverted columns is checked on its own at the end.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ember as em
from ember.testing import assert_eq

_spec = importlib.util.spec_from_file_location("tpch_queries", Path(__file__).with_name("queries.py"))
queries = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(queries)

TABLES = ("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem")

# Queries ember cannot yet run or answers differently, each with the cause (strict: a pass fails).
XFAIL: dict[str, str] = {}


def _tpchgen() -> str | None:
    beside_python = Path(sys.executable).with_name("tpchgen-cli")
    return str(beside_python) if beside_python.exists() else shutil.which("tpchgen-cli")


def _as_pandas_user_types(table: pa.Table) -> pa.Table:
    """decimal128 -> float64 and date32 -> timestamp[ms], the types a pandas user computes with."""
    fields = []
    for field in table.schema:
        if pa.types.is_decimal(field.type):
            field = field.with_type(pa.float64())
        elif pa.types.is_date(field.type):
            field = field.with_type(pa.timestamp("ms"))
        fields.append(field)
    return table.cast(pa.schema(fields))


@pytest.fixture(scope="module")
def tpch_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tool = _tpchgen()
    if tool is None:
        pytest.skip("tpchgen-cli is not installed (pip install tpchgen-cli; `make setup` installs it)")
    raw = tmp_path_factory.mktemp("tpch_raw")
    subprocess.run(
        [tool, "parquet", "-s", str(queries.SCALE_FACTOR), "-q", "--output-dir", str(raw)],
        check=True,
    )
    converted = tmp_path_factory.mktemp("tpch")
    for name in TABLES:
        table = _as_pandas_user_types(pq.read_table(raw / f"{name}.parquet"))
        pq.write_table(table, converted / f"{name}.parquet")
    return converted, raw


@pytest.fixture(scope="module")
def pandas_tables(tpch_dir) -> dict:
    converted, _ = tpch_dir
    return {name: pd.read_parquet(converted / f"{name}.parquet") for name in TABLES}


@pytest.fixture(scope="module")
def ember_tables(tpch_dir) -> dict:
    converted, _ = tpch_dir
    return {name: em.read_parquet(converted / f"{name}.parquet") for name in TABLES}


def _marked(name: str):
    if name in XFAIL:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=XFAIL[name]))
    return name


@pytest.mark.parametrize("name", [_marked(name) for name in queries.QUERIES])
def test_query(name: str, pandas_tables: dict, ember_tables: dict) -> None:
    query = queries.QUERIES[name]
    expected = query(pandas_tables, pd)
    assert len(expected) > 0, f"{name} selects no rows at this scale: the comparison would be empty"
    result = query(ember_tables, em)
    assert_eq(result, expected, check_exact=False, rtol=1e-9)


def test_tables_read_alike(pandas_tables: dict, ember_tables: dict) -> None:
    for name in TABLES:
        assert_eq(ember_tables[name], pandas_tables[name])


def test_raw_decimal_columns(tpch_dir) -> None:
    """decimal128 money columns: pandas reads them as object columns of Decimal; ember holds them as
    decimal columns, and the money math of q1 / q6 (sums of extendedprice * (1 - discount)) gives
    pandas' exact Decimals."""
    _, raw = tpch_dir
    path = raw / "lineitem.parquet"
    cols = ["l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount", "l_tax"]
    got, want = em.read_parquet(path, columns=cols), pd.read_parquet(path, columns=cols)
    assert_eq(got, want)
    orders = raw / "orders.parquet"
    assert_eq(
        em.read_parquet(orders, columns=["o_totalprice"]), pd.read_parquet(orders, columns=["o_totalprice"])
    )
    for frame in (got, want):
        frame["disc_price"] = frame.l_extendedprice * (1 - frame.l_discount)
        frame["charge"] = frame.disc_price * (1 + frame.l_tax)
    assert_eq(got.disc_price, want.disc_price)
    assert_eq(got.charge, want.charge)
    keys = ["l_returnflag", "l_linestatus"]
    money = ["l_quantity", "l_extendedprice", "disc_price", "charge"]
    assert_eq(got.groupby(keys)[money].sum(), want.groupby(keys)[money].sum())  # q1
    assert_eq(got.groupby(keys).l_discount.count(), want.groupby(keys).l_discount.count())
    for frame in (got, want):  # q6: a filter on the decimals, then the revenue
        frame["q6"] = (frame.l_discount >= 0.05) & (frame.l_discount <= 0.07) & (frame.l_quantity < 24)
    assert_eq(got.q6, want.q6)
    revenue = (got.l_extendedprice * got.l_discount)[got.q6].sum()
    assert repr(revenue) == repr((want.l_extendedprice * want.l_discount)[want.q6].sum())


def test_raw_date_columns(tpch_dir) -> None:
    """date32 columns: pandas gives datetime.date objects, which ember refuses; with
    ``date_as_object=False`` both give datetime64[ms]."""
    _, raw = tpch_dir
    path = raw / "orders.parquet"
    with pytest.raises(NotImplementedError, match="datetime.date objects"):
        em.read_parquet(path, columns=["o_orderdate"])
    dates = {"to_pandas_kwargs": {"date_as_object": False}}
    assert_eq(
        em.read_parquet(path, columns=["o_orderdate"], **dates),
        pd.read_parquet(path, columns=["o_orderdate"], **dates),
    )

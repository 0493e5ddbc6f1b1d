"""The 22 TPC-H queries written as ordinary pandas code.

Each ``qN(tables, pd)`` takes the tables (name -> DataFrame, as ``pd.read_parquet`` reads them) and the
namespace to run with (pandas or ember), so the very same code gives the oracle's answer and ember's.
The parameters are the TPC-H specification's default substitution values (its validation run);
decimal columns are floats and dates are timestamps (see ``test_tpch.py``).
"""

from __future__ import annotations

import datetime
from types import ModuleType

SCALE_FACTOR = 0.01  # Q11's FRACTION depends on it


def _revenue(frame):
    return frame["l_extendedprice"] * (1 - frame["l_discount"])


def q1(tables: dict, pd: ModuleType):
    lineitem = tables["lineitem"]
    cutoff = pd.Timestamp("1998-12-01") - pd.Timedelta(days=90)
    items = lineitem.loc[lineitem["l_shipdate"] <= cutoff].assign(
        disc_price=lambda df: df["l_extendedprice"] * (1 - df["l_discount"]),
        charge=lambda df: df["disc_price"] * (1 + df["l_tax"]),
    )
    result = items.groupby(["l_returnflag", "l_linestatus"], as_index=False).agg(
        sum_qty=("l_quantity", "sum"),
        sum_base_price=("l_extendedprice", "sum"),
        sum_disc_price=("disc_price", "sum"),
        sum_charge=("charge", "sum"),
        avg_qty=("l_quantity", "mean"),
        avg_price=("l_extendedprice", "mean"),
        avg_disc=("l_discount", "mean"),
        count_order=("l_orderkey", "count"),
    )
    return result.sort_values(["l_returnflag", "l_linestatus"])


def q2(tables: dict, pd: ModuleType):
    part, partsupp = tables["part"], tables["partsupp"]
    europe = tables["region"][tables["region"]["r_name"] == "EUROPE"]
    nations = tables["nation"].merge(europe, left_on="n_regionkey", right_on="r_regionkey")
    suppliers = tables["supplier"].merge(nations, left_on="s_nationkey", right_on="n_nationkey")
    offers = partsupp.merge(suppliers, left_on="ps_suppkey", right_on="s_suppkey")
    brass = part[(part["p_size"] == 15) & part["p_type"].str.endswith("BRASS")]
    offers = offers.merge(brass, left_on="ps_partkey", right_on="p_partkey")
    cheapest = offers.groupby("ps_partkey")["ps_supplycost"].transform("min")
    best = offers[offers["ps_supplycost"] == cheapest]
    columns = ["s_acctbal", "s_name", "n_name", "p_partkey", "p_mfgr", "s_address", "s_phone"]
    best = best[columns + ["s_comment"]]
    best = best.sort_values(
        ["s_acctbal", "n_name", "s_name", "p_partkey"], ascending=[False, True, True, True]
    )
    return best.head(100)


def q3(tables: dict, pd: ModuleType):
    customer, orders, lineitem = tables["customer"], tables["orders"], tables["lineitem"]
    day = pd.Timestamp(datetime.date(1995, 3, 15))
    building = customer[customer["c_mktsegment"] == "BUILDING"]
    early = orders[orders["o_orderdate"] < day]
    late = lineitem[lineitem["l_shipdate"] > day]
    joined = building.merge(early, left_on="c_custkey", right_on="o_custkey").merge(
        late, left_on="o_orderkey", right_on="l_orderkey"
    )
    joined["revenue"] = _revenue(joined)
    result = joined.groupby(["l_orderkey", "o_orderdate", "o_shippriority"], as_index=False)["revenue"].sum()
    result = result[["l_orderkey", "revenue", "o_orderdate", "o_shippriority"]]
    result = result.sort_values(["revenue", "o_orderdate"], ascending=[False, True])
    return result.head(10)


def q4(tables: dict, pd: ModuleType):
    orders, lineitem = tables["orders"], tables["lineitem"]
    start = pd.Timestamp("1993-07-01")
    end = start + pd.DateOffset(months=3)
    in_quarter = orders[(orders["o_orderdate"] >= start) & (orders["o_orderdate"] < end)]
    late = lineitem[lineitem["l_commitdate"] < lineitem["l_receiptdate"]]
    late_orders = late[["l_orderkey"]].drop_duplicates()
    with_late = in_quarter.merge(late_orders, left_on="o_orderkey", right_on="l_orderkey")
    result = (
        with_late.groupby("o_orderpriority")
        .agg(order_count=pd.NamedAgg(column="o_orderkey", aggfunc="count"))
        .reset_index()
    )
    return result.sort_values("o_orderpriority")


def q5(tables: dict, pd: ModuleType):
    start = pd.Timestamp("1994-01-01")
    end = start + pd.DateOffset(years=1)
    orders = tables["orders"]
    orders = orders[(orders["o_orderdate"] >= start) & (orders["o_orderdate"] < end)]
    region = tables["region"][tables["region"]["r_name"] == "ASIA"]
    customers = tables["customer"].rename(columns={"c_custkey": "custkey", "c_nationkey": "nationkey"})
    orders = orders.rename(columns={"o_custkey": "custkey"})
    suppliers = tables["supplier"].rename(columns={"s_suppkey": "l_suppkey", "s_nationkey": "nationkey"})
    joined = pd.merge(customers, orders, on="custkey")
    joined = pd.merge(joined, tables["lineitem"], left_on="o_orderkey", right_on="l_orderkey")
    joined = pd.merge(joined, suppliers, on=["l_suppkey", "nationkey"])
    joined = pd.merge(joined, tables["nation"], left_on="nationkey", right_on="n_nationkey")
    joined = pd.merge(joined, region, left_on="n_regionkey", right_on="r_regionkey")
    joined["revenue"] = _revenue(joined)
    result = joined.groupby("n_name", as_index=False)["revenue"].sum()
    return result.sort_values("revenue", ascending=False)


def q6(tables: dict, pd: ModuleType):
    lineitem = tables["lineitem"]
    start = pd.Timestamp("1994-01-01")
    end = pd.Timestamp("1995-01-01")
    mask = (
        (lineitem["l_shipdate"] >= start)
        & (lineitem["l_shipdate"] < end)
        & lineitem["l_discount"].between(0.05, 0.07)
        & (lineitem["l_quantity"] < 24)
    )
    selected = lineitem[mask]
    revenue = (selected["l_extendedprice"] * selected["l_discount"]).sum()
    return pd.DataFrame({"revenue": [revenue]})


def q7(tables: dict, pd: ModuleType):
    nation = tables["nation"]
    pair = nation[nation["n_name"].isin(["FRANCE", "GERMANY"])]
    suppliers = tables["supplier"].merge(
        pair.rename(columns={"n_name": "supp_nation"}), left_on="s_nationkey", right_on="n_nationkey"
    )[["s_suppkey", "supp_nation"]]
    customers = tables["customer"].merge(
        pair.rename(columns={"n_name": "cust_nation"}), left_on="c_nationkey", right_on="n_nationkey"
    )[["c_custkey", "cust_nation"]]
    lineitem = tables["lineitem"]
    shipped = lineitem[lineitem["l_shipdate"].between(pd.Timestamp("1995-01-01"), pd.Timestamp("1996-12-31"))]
    joined = (
        shipped.merge(suppliers, left_on="l_suppkey", right_on="s_suppkey")
        .merge(tables["orders"], left_on="l_orderkey", right_on="o_orderkey")
        .merge(customers, left_on="o_custkey", right_on="c_custkey")
    )
    across = ((joined["supp_nation"] == "FRANCE") & (joined["cust_nation"] == "GERMANY")) | (
        (joined["supp_nation"] == "GERMANY") & (joined["cust_nation"] == "FRANCE")
    )
    joined = joined[across].copy()
    joined["l_year"] = joined["l_shipdate"].dt.year
    joined["volume"] = _revenue(joined)
    result = (
        joined.groupby(["supp_nation", "cust_nation", "l_year"])["volume"].sum().reset_index(name="revenue")
    )
    return result.sort_values(["supp_nation", "cust_nation", "l_year"])


def q8(tables: dict, pd: ModuleType):
    part = tables["part"]
    steel = part[part["p_type"] == "ECONOMY ANODIZED STEEL"]
    america = tables["region"][tables["region"]["r_name"] == "AMERICA"]
    nation = tables["nation"]
    customer_nations = nation.merge(america, left_on="n_regionkey", right_on="r_regionkey")
    customers = tables["customer"].merge(customer_nations, left_on="c_nationkey", right_on="n_nationkey")[
        ["c_custkey"]
    ]
    orders = tables["orders"]
    orders = orders[
        (orders["o_orderdate"] >= pd.Timestamp("1995-01-01"))
        & (orders["o_orderdate"] <= pd.Timestamp("1996-12-31"))
    ]
    supplier_nations = tables["supplier"].merge(nation, left_on="s_nationkey", right_on="n_nationkey")[
        ["s_suppkey", "n_name"]
    ]
    joined = (
        tables["lineitem"]
        .merge(steel, left_on="l_partkey", right_on="p_partkey")
        .merge(orders, left_on="l_orderkey", right_on="o_orderkey")
        .merge(customers, left_on="o_custkey", right_on="c_custkey")
        .merge(supplier_nations, left_on="l_suppkey", right_on="s_suppkey")
    )
    joined["o_year"] = joined["o_orderdate"].dt.year
    joined["volume"] = _revenue(joined)
    joined["brazil_volume"] = joined["volume"].where(joined["n_name"] == "BRAZIL", 0.0)
    sums = joined.groupby("o_year")[["brazil_volume", "volume"]].sum()
    result = (sums["brazil_volume"] / sums["volume"]).rename("mkt_share").reset_index()
    return result.sort_values("o_year")


def q9(tables: dict, pd: ModuleType):
    part = tables["part"]
    green = part[part["p_name"].str.contains("green", regex=False)][["p_partkey"]]
    joined = (
        tables["lineitem"]
        .merge(green, left_on="l_partkey", right_on="p_partkey")
        .merge(
            tables["partsupp"],
            left_on=["l_suppkey", "l_partkey"],
            right_on=["ps_suppkey", "ps_partkey"],
        )
        .merge(tables["supplier"], left_on="l_suppkey", right_on="s_suppkey")
        .merge(tables["orders"], left_on="l_orderkey", right_on="o_orderkey")
        .merge(tables["nation"], left_on="s_nationkey", right_on="n_nationkey")
    )
    profit = pd.DataFrame(
        {
            "nation": joined["n_name"],
            "o_year": joined["o_orderdate"].dt.year,
            "amount": _revenue(joined) - joined["ps_supplycost"] * joined["l_quantity"],
        }
    )
    result = profit.groupby(["nation", "o_year"], as_index=False).agg(sum_profit=("amount", "sum"))
    return result.sort_values(["nation", "o_year"], ascending=[True, False])


def q10(tables: dict, pd: ModuleType):
    start = pd.Timestamp("1993-10-01")
    end = start + pd.DateOffset(months=3)
    orders = tables["orders"]
    orders = orders[(orders["o_orderdate"] >= start) & (orders["o_orderdate"] < end)]
    lineitem = tables["lineitem"]
    returned = lineitem[lineitem["l_returnflag"] == "R"]
    joined = (
        tables["customer"]
        .merge(orders, left_on="c_custkey", right_on="o_custkey")
        .merge(returned, left_on="o_orderkey", right_on="l_orderkey")
        .merge(tables["nation"], left_on="c_nationkey", right_on="n_nationkey")
    )
    joined["revenue"] = _revenue(joined)
    keys = ["c_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address", "c_comment"]
    result = joined.groupby(keys, as_index=False)["revenue"].sum()
    result = result[
        ["c_custkey", "c_name", "revenue", "c_acctbal", "n_name", "c_address", "c_phone", "c_comment"]
    ]
    return result.nlargest(20, "revenue")


def q11(tables: dict, pd: ModuleType):
    nation = tables["nation"]
    germany = nation[nation["n_name"] == "GERMANY"]
    suppliers = tables["supplier"].merge(germany, left_on="s_nationkey", right_on="n_nationkey")
    stock = tables["partsupp"].merge(suppliers, left_on="ps_suppkey", right_on="s_suppkey")
    stock["value"] = stock["ps_supplycost"] * stock["ps_availqty"]
    threshold = stock["value"].sum() * (0.0001 / SCALE_FACTOR)
    result = stock.groupby("ps_partkey", as_index=False)["value"].sum()
    result = result[result["value"] > threshold]
    return result.sort_values("value", ascending=False)


def q12(tables: dict, pd: ModuleType):
    lineitem = tables["lineitem"]
    start = datetime.date(1994, 1, 1)
    mask = (
        lineitem["l_shipmode"].isin(["MAIL", "SHIP"])
        & (lineitem["l_commitdate"] < lineitem["l_receiptdate"])
        & (lineitem["l_shipdate"] < lineitem["l_commitdate"])
        & (lineitem["l_receiptdate"] >= pd.Timestamp(start))
        & (lineitem["l_receiptdate"] < pd.Timestamp(start.replace(year=1995)))
    )
    joined = lineitem[mask].merge(tables["orders"], left_on="l_orderkey", right_on="o_orderkey")
    urgent = joined["o_orderpriority"].isin(["1-URGENT", "2-HIGH"])
    joined["high_line_count"] = urgent.astype(int)
    joined["low_line_count"] = (~urgent).astype(int)
    result = joined.groupby("l_shipmode")[["high_line_count", "low_line_count"]].sum()
    return result.reset_index().sort_values("l_shipmode")


def q13(tables: dict, pd: ModuleType):
    orders = tables["orders"]
    ordinary = orders[~orders["o_comment"].str.contains("special.*requests", regex=True)]
    joined = tables["customer"].merge(ordinary, left_on="c_custkey", right_on="o_custkey", how="left")
    counts = joined.groupby("c_custkey")["o_orderkey"].count().reset_index(name="c_count")
    result = counts["c_count"].value_counts().reset_index(name="custdist")
    return result.sort_values(["custdist", "c_count"], ascending=[False, False])


def q14(tables: dict, pd: ModuleType):
    lineitem = tables["lineitem"]
    start = pd.Timestamp("1995-09-01")
    shipped = lineitem[
        (lineitem["l_shipdate"] >= start) & (lineitem["l_shipdate"] < start + pd.DateOffset(months=1))
    ]
    joined = shipped.merge(tables["part"], left_on="l_partkey", right_on="p_partkey")
    revenue = _revenue(joined)
    promo = revenue[joined["p_type"].str.startswith("PROMO")].sum()
    return pd.DataFrame({"promo_revenue": [100.0 * promo / revenue.sum()]})


def q15(tables: dict, pd: ModuleType):
    lineitem = tables["lineitem"]
    start = pd.Timestamp("1996-01-01")
    shipped = lineitem[
        (lineitem["l_shipdate"] >= start) & (lineitem["l_shipdate"] < start + pd.DateOffset(months=3))
    ].copy()
    shipped["total_revenue"] = _revenue(shipped)
    revenue = shipped.groupby("l_suppkey", as_index=False)["total_revenue"].sum()
    top = revenue.loc[lambda df: df["total_revenue"] == df["total_revenue"].max()]
    result = tables["supplier"].merge(top, left_on="s_suppkey", right_on="l_suppkey")
    result = result[["s_suppkey", "s_name", "s_address", "s_phone", "total_revenue"]]
    return result.sort_values("s_suppkey")


def q16(tables: dict, pd: ModuleType):
    part, supplier = tables["part"], tables["supplier"]
    complaints = supplier[supplier["s_comment"].str.contains("Customer.*Complaints")]["s_suppkey"]
    wanted = part[
        (part["p_brand"] != "Brand#45")
        & ~part["p_type"].str.startswith("MEDIUM POLISHED")
        & part["p_size"].isin([49, 14, 23, 45, 19, 3, 36, 9])
    ]
    partsupp = tables["partsupp"]
    offers = partsupp[~partsupp["ps_suppkey"].isin(complaints)].merge(
        wanted, left_on="ps_partkey", right_on="p_partkey"
    )
    result = offers.groupby(["p_brand", "p_type", "p_size"], as_index=False).agg(
        supplier_cnt=("ps_suppkey", "nunique")
    )
    return result.sort_values(
        ["supplier_cnt", "p_brand", "p_type", "p_size"], ascending=[False, True, True, True]
    )


def q17(tables: dict, pd: ModuleType):
    part = tables["part"]
    chosen = part[(part["p_brand"] == "Brand#23") & (part["p_container"] == "MED BOX")]
    joined = tables["lineitem"].merge(chosen, left_on="l_partkey", right_on="p_partkey")
    average = joined.groupby("l_partkey")["l_quantity"].transform("mean")
    small = joined[joined["l_quantity"] < 0.2 * average]
    return pd.DataFrame({"avg_yearly": [small["l_extendedprice"].sum() / 7.0]})


def q18(tables: dict, pd: ModuleType):
    lineitem = tables["lineitem"]
    totals = lineitem.groupby("l_orderkey", as_index=False)["l_quantity"].sum()
    large = totals.query("l_quantity > 300")["l_orderkey"]
    orders = tables["orders"]
    joined = (
        orders[orders["o_orderkey"].isin(large)]
        .merge(tables["customer"], left_on="o_custkey", right_on="c_custkey")
        .merge(lineitem, left_on="o_orderkey", right_on="l_orderkey")
    )
    keys = ["c_name", "c_custkey", "o_orderkey", "o_orderdate", "o_totalprice"]
    result = joined.groupby(keys, as_index=False).agg(sum_qty=("l_quantity", "sum"))
    result = result.sort_values(["o_totalprice", "o_orderdate"], ascending=[False, True])
    return result.head(100)


def q19(tables: dict, pd: ModuleType):
    lineitem = tables["lineitem"]
    shipped = lineitem[
        lineitem["l_shipmode"].isin(["AIR", "AIR REG"]) & (lineitem["l_shipinstruct"] == "DELIVER IN PERSON")
    ]
    joined = shipped.merge(tables["part"], left_on="l_partkey", right_on="p_partkey")

    def bracket(brand, containers, low, sizes):
        return (
            (joined["p_brand"] == brand)
            & joined["p_container"].isin(containers)
            & joined["l_quantity"].between(low, low + 10)
            & joined["p_size"].between(1, sizes)
        )

    chosen = (
        bracket("Brand#12", ["SM CASE", "SM BOX", "SM PACK", "SM PKG"], 1, 5)
        | bracket("Brand#23", ["MED BAG", "MED BOX", "MED PKG", "MED PACK"], 10, 10)
        | bracket("Brand#34", ["LG CASE", "LG BOX", "LG PACK", "LG PKG"], 20, 15)
    )
    return pd.DataFrame({"revenue": [_revenue(joined[chosen]).sum()]})


def q20(tables: dict, pd: ModuleType):
    part, lineitem, partsupp = tables["part"], tables["lineitem"], tables["partsupp"]
    forest = part[part["p_name"].str.startswith("forest")]["p_partkey"]
    start = pd.Timestamp("1994-01-01")
    shipped = lineitem[
        (lineitem["l_shipdate"] >= start) & (lineitem["l_shipdate"] < start + pd.DateOffset(years=1))
    ]
    shipped_qty = shipped.groupby(["l_partkey", "l_suppkey"], as_index=False)["l_quantity"].sum()
    stock = partsupp[partsupp["ps_partkey"].isin(forest)].merge(
        shipped_qty, left_on=["ps_partkey", "ps_suppkey"], right_on=["l_partkey", "l_suppkey"]
    )
    excess = stock[stock["ps_availqty"] > 0.5 * stock["l_quantity"]]["ps_suppkey"]
    nation = tables["nation"]
    canada = nation[nation["n_name"] == "CANADA"]
    supplier = tables["supplier"].merge(canada, left_on="s_nationkey", right_on="n_nationkey")
    result = supplier[supplier["s_suppkey"].isin(excess)][["s_name", "s_address"]]
    return result.sort_values("s_name")


def q21(tables: dict, pd: ModuleType):
    lineitem, orders = tables["lineitem"], tables["orders"]
    suppliers_per_order = lineitem.groupby("l_orderkey")["l_suppkey"].nunique()
    late = lineitem[lineitem["l_receiptdate"] > lineitem["l_commitdate"]]
    late_per_order = late.groupby("l_orderkey")["l_suppkey"].nunique()
    shared = suppliers_per_order[suppliers_per_order > 1].index
    alone_late = late_per_order[late_per_order == 1].index
    nation = tables["nation"]
    saudi = nation[nation["n_name"] == "SAUDI ARABIA"]
    suppliers = tables["supplier"].merge(saudi, left_on="s_nationkey", right_on="n_nationkey")
    failed = orders[orders["o_orderstatus"] == "F"]
    waiting = (
        late[late["l_orderkey"].isin(shared) & late["l_orderkey"].isin(alone_late)]
        .merge(failed, left_on="l_orderkey", right_on="o_orderkey")
        .merge(suppliers, left_on="l_suppkey", right_on="s_suppkey")
    )
    result = waiting.groupby("s_name").size().reset_index(name="numwait")
    result = result.sort_values(["numwait", "s_name"], ascending=[False, True])
    return result.head(100)


def q22(tables: dict, pd: ModuleType):
    customer = tables["customer"].copy()
    customer["cntrycode"] = customer["c_phone"].str[:2]
    codes = ["13", "31", "23", "29", "30", "18", "17"]
    customer = customer[customer["cntrycode"].isin(codes)]
    average = customer[customer["c_acctbal"] > 0.0]["c_acctbal"].mean()
    no_orders = ~customer["c_custkey"].isin(tables["orders"]["o_custkey"])
    chosen = customer[(customer["c_acctbal"] > average) & no_orders]
    result = chosen.groupby("cntrycode").agg(numcust=("c_custkey", "count"), totacctbal=("c_acctbal", "sum"))
    return result.reset_index().sort_values("cntrycode")


QUERIES = {f"q{n}": globals()[f"q{n}"] for n in range(1, 23)}

"""List results of string methods (split(expand=False), rsplit, findall) and what works on them."""

import numpy as np
import pandas as pd
import pytest

import ember as em

VALUES = ["a b c", None, "", "x  y", "é z", "b"]
MAKERS = {
    "split": lambda s: s.str.split(),
    "split_literal": lambda s: s.str.split(" "),
    "split_n": lambda s: s.str.split(" ", n=1),
    "rsplit_n": lambda s: s.str.rsplit(" ", n=1),
    "split_regex": lambda s: s.str.split(r"\s+", regex=True),
    "findall": lambda s: s.str.findall("[a-z]"),
}


@pytest.mark.parametrize("dtype", ["str", "string", "object"])
@pytest.mark.parametrize("maker", list(MAKERS))
def test_list_results_equal_pandas(dtype, maker):
    ps = pd.Series(VALUES, dtype=dtype)
    got = MAKERS[maker](em.from_pandas(ps)).to_pandas()
    pd.testing.assert_series_equal(got, MAKERS[maker](ps))


OPS = {
    "get1": lambda r: r.str.get(1),
    "get_last": lambda r: r.str[-1],
    "len": lambda r: r.str.len(),
    "join": lambda r: r.str.join("-"),
    "explode": lambda r: r.explode(),
    "explode_ignore": lambda r: r.explode(ignore_index=True),
}


@pytest.mark.parametrize("maker", ["split", "split_literal", "findall"])
@pytest.mark.parametrize("op", list(OPS))
def test_list_methods_equal_pandas(maker, op):
    ps = pd.Series(VALUES, dtype="str", index=[10, 11, 12, 13, 14, 15])
    got = OPS[op](MAKERS[maker](em.from_pandas(ps))).to_pandas()
    pd.testing.assert_series_equal(got, OPS[op](MAKERS[maker](ps)))


@pytest.mark.parametrize("dtype", ["string", "object"])
@pytest.mark.parametrize("op", ["get1", "join", "len"])
def test_list_methods_of_other_string_dtypes_agree_on_values_and_missing(dtype, op):
    """pandas marks a missing list's result with the source's own missing value (pd.NA, None) and an
    out-of-range item with NaN; ember's object results use NaN for both, and len is float64."""
    ps = pd.Series(VALUES, dtype=dtype)
    got = OPS[op](MAKERS["split"](em.from_pandas(ps))).to_pandas()
    exp = OPS[op](MAKERS["split"](ps))
    np.testing.assert_array_equal(got.isna().to_numpy(), exp.isna().to_numpy())
    keep = ~exp.isna().to_numpy()
    assert got[keep].tolist() == exp[keep].tolist()


def test_list_series_rows_select_like_pandas():
    ps = pd.Series(VALUES, dtype="str").str.split()
    s = em.from_pandas(pd.Series(VALUES, dtype="str")).str.split()
    pd.testing.assert_series_equal(s.iloc[[4, 0, 1]].to_pandas(), ps.iloc[[4, 0, 1]])
    pd.testing.assert_series_equal(s.head(2).to_pandas(), ps.head(2))
    keep = np.array([True, False, True, True, False, True])
    pd.testing.assert_series_equal(s[em.Series(keep)].to_pandas(), ps[keep])


def test_list_series_refuses_string_methods_clearly():
    s = em.from_pandas(pd.Series(VALUES, dtype="str")).str.split()
    with pytest.raises(NotImplementedError, match="holds lists"):  # pandas answers (NaN per list)
        s.str.upper()
    with pytest.raises(AttributeError):
        s.str.no_such_method()
    with pytest.raises(NotImplementedError, match="groups"):
        em.from_pandas(pd.Series(["ab"], dtype="str")).str.findall("(a)(b)")


def test_explode_of_a_series_without_lists_is_a_copy():
    s = em.Series([1, 2, 3])
    pd.testing.assert_series_equal(s.explode().to_pandas(), pd.Series([1, 2, 3]).explode())


def test_list_column_to_arrow_and_in_a_frame():
    import pyarrow as pa

    s = em.from_pandas(pd.Series(["a b", None, ""], dtype="str")).str.split()
    assert s.column.to_arrow().to_pylist() == [["a", "b"], None, []]
    assert s.column.to_arrow().type == pa.large_list(pa.large_string())
    df = em.DataFrame({"t": ["a b", "c"]})
    df["p"] = df.t.str.split()
    expected = pd.DataFrame({"t": ["a b", "c"]})
    expected["p"] = expected.t.str.split()
    pd.testing.assert_frame_equal(df.to_pandas(), expected)


@pytest.mark.parametrize(
    "ps",
    [
        pd.Series([["a"], ["b", "c"], None, []]),
        pd.Series([["a"], np.nan]),
        pd.Series(["a b", None], dtype="str").str.split(),
    ],
    ids=["none", "nan", "from_split"],
)
def test_lists_of_strings_convert_from_pandas_and_back(ps):
    pd.testing.assert_series_equal(em.from_pandas(ps).to_pandas(), ps)


def test_parquet_list_columns_read_and_write_like_pandas(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = str(tmp_path / "lists.parquet")
    table = pa.table(
        {"l": pa.array([["x"], None, ["y", "z"], []], type=pa.list_(pa.string())), "v": [1, 2, 3, 4]}
    )
    pq.write_table(table, path)
    pd.testing.assert_frame_equal(em.read_parquet(path).to_pandas(), pd.read_parquet(path))
    df = em.DataFrame({"t": ["a b", "c", None]})
    df["p"] = df.t.str.split()
    out = str(tmp_path / "out.parquet")
    df.to_parquet(out)
    pd.testing.assert_frame_equal(em.read_parquet(out).to_pandas(), pd.read_parquet(out))


@pytest.mark.parametrize("dtype", ["str", "string", "object"])
@pytest.mark.parametrize("method", ["partition", "rpartition"])
@pytest.mark.parametrize(
    "values",
    [["a-b-c", "abc", None, "-x", "", "x-", "é-ü"], ["abc", None], ["a-b"], [None, None], []],
    ids=["mixed", "no_sep", "one", "all_missing", "empty"],
)
def test_partition_equals_pandas(dtype, method, values):
    """(before, sep, after) of the first / last separator; a row without it (itself, '', '') or
    ('', '', itself); as many columns as pandas makes (one for all-missing, none for empty)."""
    ps = pd.Series(values, dtype=dtype)
    got = getattr(em.from_pandas(ps).str, method)("-").to_pandas()
    want = getattr(ps.str, method)("-")
    if dtype == "object":  # missing values as NaN on both sides (ember's results of str methods hold NaN)
        want = want.astype(object).where(want.notna(), np.nan)
        got = got.astype(object).where(got.notna(), np.nan)
    pd.testing.assert_frame_equal(got, want, check_column_type=False)


def test_partition_arguments():
    s = em.from_pandas(pd.Series(["a b"]))
    with pytest.raises(ValueError, match="empty separator"):
        s.str.partition("")
    with pytest.raises(NotImplementedError, match="expand=False"):
        s.str.rpartition(" ", expand=False)
    pd.testing.assert_frame_equal(s.str.partition().to_pandas(), pd.Series(["a b"]).str.partition())

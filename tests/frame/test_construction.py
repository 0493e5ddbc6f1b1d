"""DataFrame / Series / Index construction and conversion, against pandas."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import ember as em
from ember.testing import assert_eq


def test_dataframe_from_dict_matches_pandas():
    data = {"x": [1.5, 2.0, None], "y": [1, 2, 3], "s": ["a", None, "ü"], "b": [True, False, True]}
    assert_eq(em.DataFrame(data), pd.DataFrame(data))


def test_dataframe_from_pandas_roundtrip_all_dtypes():
    pdf = pd.DataFrame(
        {
            "i8": np.array([1, -2, 3], dtype="int8"),
            "u64": np.array([1, 2, 2**63], dtype="uint64"),
            "f32": np.array([1.5, np.nan, 3], dtype="float32"),
            "Int64": pd.array([1, None, 3], dtype="Int64"),
            "boolean": pd.array([True, None, False], dtype="boolean"),
            "Float64": pd.array([1.0, None, 2.5], dtype="Float64"),
            "str": pd.Series(["a", None, "ccc"]),
            "string": pd.array(["a", None, "ccc"], dtype="string"),
            "dt": pd.to_datetime(["2020-01-01", None, "2021-06-30"]),
            "dt_utc": pd.to_datetime(["2020-01-01", None, "2021-06-30"]).tz_localize("UTC"),
            "td": pd.to_timedelta([1, None, 3], unit="s"),
            "cat": pd.Categorical(["b", "a", None]),
        },
        index=pd.Index([10, 20, 30], name="k"),
    )
    df = em.from_pandas(pdf)
    assert_eq(df, pdf)
    assert list(df.dtypes) == list(pdf.dtypes)


def test_series_constructors():
    assert_eq(em.Series([1, 2, 3], name="a"), pd.Series([1, 2, 3], name="a"))
    assert_eq(em.Series(np.arange(4.0), index=list("abcd")), pd.Series(np.arange(4.0), index=list("abcd")))
    assert_eq(em.Series({"a": 1, "b": 2}), pd.Series({"a": 1, "b": 2}))
    assert_eq(em.Series(5, index=[1, 2]), pd.Series(5, index=[1, 2]))
    assert_eq(em.Series([], dtype="float64"), pd.Series([], dtype="float64"))


def test_scalars_broadcast_with_index():
    assert_eq(
        em.DataFrame({"a": 1, "b": "x"}, index=[0, 1, 2]), pd.DataFrame({"a": 1, "b": "x"}, index=[0, 1, 2])
    )


def test_from_arrow_and_to_arrow():
    table = pa.table({"a": [1, None, 3], "b": ["x", "y", None], "c": [1.5, 2.5, None]})
    df = em.from_arrow(table)
    assert_eq(df, table.to_pandas())
    back = df.to_arrow()
    assert back.column("b").to_pylist() == ["x", "y", None]
    assert back.column("a").to_pylist() == [1, None, 3]


def test_two_d_array_and_records():
    arr = np.arange(6).reshape(3, 2)
    assert_eq(em.DataFrame(arr, columns=["a", "b"]), pd.DataFrame(arr, columns=["a", "b"]))
    rows = [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]
    assert_eq(em.DataFrame(rows), pd.DataFrame(rows))


def test_empty_frame():
    df = em.DataFrame()
    assert df.shape == (0, 0) and df.empty
    assert_eq(em.DataFrame({"a": []}), pd.DataFrame({"a": []}))


def test_to_numpy_and_attributes():
    pdf = pd.DataFrame({"x": [1.0, 2.0], "y": [3, 4]})
    df = em.from_pandas(pdf)
    assert df.shape == pdf.shape and df.size == pdf.size and list(df.columns) == list(pdf.columns)
    np.testing.assert_array_equal(df.to_numpy(), pdf.to_numpy())
    np.testing.assert_array_equal(df.x.to_numpy(), pdf.x.to_numpy())
    assert df.x.tolist() == [1.0, 2.0]


# --- bad input -------------------------------------------------------------------------------------
def test_mismatched_lengths_raise_value_error():
    with pytest.raises(ValueError, match="same length"):
        em.DataFrame({"a": [1, 2], "b": [1, 2, 3]})
    with pytest.raises(ValueError, match="does not match length of index"):
        em.Series([1, 2, 3], index=[1, 2])
    df = em.DataFrame({"a": [1, 2]})
    with pytest.raises(ValueError, match="does not match length"):
        df["b"] = [1, 2, 3]


def test_unknown_column_raises_key_error_with_name():
    df = em.DataFrame({"a": [1, 2]})
    with pytest.raises(KeyError, match="zz"):
        df["zz"]
    with pytest.raises(KeyError, match="zz"):
        df[["a", "zz"]]
    with pytest.raises(AttributeError):
        df.zz  # noqa: B018 - the attribute access is what raises


def test_mixed_python_objects_raise_type_error_naming_column():
    # pandas makes an object column ember cannot hold: NotImplementedError (the fallback can run it)
    with pytest.raises(NotImplementedError, match="'mixed'"):
        em.DataFrame({"mixed": [1, "a", 2.5]})
    with pytest.raises(NotImplementedError, match="mixed"):
        em.DataFrame(pd.DataFrame({"mixed": pd.Series([1, "a"], dtype=object)}))


def test_all_scalars_need_an_index():
    with pytest.raises(ValueError, match="must pass an index"):
        em.DataFrame({"a": 1})

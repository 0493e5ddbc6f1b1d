"""Interchange protocols on columns: NumPy ``__array__``, DLPack, CUDA array interface, Arrow capsules.

``Holder`` plays the frame: its dunder methods delegate to ember.interop exactly as Series/DataFrame do,
so the consumers (numpy, pyarrow, torch, cupy, jax, numba) are exercised through the real protocols.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd
import pandas.testing as tm
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember import interop
from ember.column import Column, NumericColumn, from_pandas
from ember.interop.numpy_protocol import DEVICE_MESSAGE
from ember.testing import assert_eq
from ember.testing import strategies as est

SETTINGS = settings(max_examples=40, deadline=None)


class Holder:
    """A stand-in for an ember Series: one column behind every protocol."""

    def __init__(self, col: Column) -> None:
        self.col = col

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return interop.array_protocol(self.col, dtype, copy)

    def __dlpack__(self, **kwargs: Any) -> Any:
        return interop.to_dlpack(self.col, **kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return interop.dlpack_device(self.col)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        return interop.cuda_array_interface(self.col)

    def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
        return interop.arrow_c_array(self.col, requested_schema)


class DeviceArrayHolder:
    def __init__(self, col: Column) -> None:
        self.col = col

    def __arrow_c_device_array__(self, requested_schema: Any = None, **kwargs: Any) -> Any:
        return interop.arrow_c_device_array(self.col, requested_schema, **kwargs)


class StreamHolder:
    def __init__(self, columns: dict[Any, Column]) -> None:
        self.columns = columns

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return interop.arrow_c_stream(self.columns, requested_schema)


def host_col(s: pd.Series) -> Column:
    return from_pandas(s, np)


def pandas_arrow_values(s: pd.Series) -> list[Any]:
    """What pyarrow itself makes of the pandas Series (NaN -> null, as from_pandas does)."""
    return pa.array(s, from_pandas=True).to_pylist()


# --- __array__ ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype", ["int8", "uint64", "float32", "float64", "bool", "datetime64[ns]", "timedelta64[ms]"]
)
def test_array_zero_copy_without_nulls(dtype: str) -> None:
    s = pd.Series(np.arange(5).astype(dtype))
    col = host_col(s)
    out = np.asarray(Holder(col))
    assert_eq(out, np.asarray(s))
    assert np.shares_memory(out, col.data)
    assert not out.flags.writeable  # columns are immutable


@settings(max_examples=15, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("dtype", est.ALL_DTYPES)
def test_array_matches_pandas(dtype: str, data: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    out = np.asarray(Holder(host_col(s)))
    assert_eq(out, np.asarray(s))


def test_array_copy_semantics() -> None:
    col = host_col(pd.Series([1, 2, 3], dtype="int64"))
    copied = np.array(Holder(col), copy=True)
    assert copied.flags.writeable and not np.shares_memory(copied, col.data)
    assert np.shares_memory(np.array(Holder(col), copy=False), col.data)
    assert_eq(np.asarray(Holder(col), dtype="float64"), np.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="avoid copy"):
        np.array(Holder(col), dtype="float64", copy=False)


def test_array_with_nulls_copies_like_pandas() -> None:
    s = pd.Series([1, None, 3], dtype="Int64")
    holder = Holder(host_col(s))
    assert_eq(np.asarray(holder), np.asarray(s))
    with pytest.raises(ValueError, match="avoid copy"):
        np.array(holder, copy=False)


def test_array_strings_and_categoricals() -> None:
    for s in (pd.Series(["a", None, "日本"]), pd.Series(["x", "y", None], dtype="category")):
        assert_eq(np.asarray(Holder(host_col(s))), np.asarray(s))


def test_array_empty() -> None:
    out = np.asarray(Holder(host_col(pd.Series([], dtype="float64"))))
    assert out.shape == (0,) and out.dtype == np.float64


# --- DLPack ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype", ["int8", "int16", "int32", "int64", "uint8", "uint32", "float32", "float64", "bool"]
)
def test_dlpack_to_numpy_zero_copy(dtype: str) -> None:
    col = host_col(pd.Series(np.arange(6).astype(dtype)))
    out = np.from_dlpack(Holder(col))
    assert out.dtype == np.dtype(dtype)
    assert_eq(out, col.data)
    assert np.shares_memory(out, col.data)
    assert interop.dlpack_device(col) == (1, 0)


def test_dlpack_nullable_without_nulls_exports() -> None:
    col = host_col(pd.Series([1, 2], dtype="Int64"))
    assert_eq(np.from_dlpack(Holder(col)), np.array([1, 2]))


def test_dlpack_rejects_nulls_and_non_numeric() -> None:
    with pytest.raises(ValueError, match=r"\.fillna"):
        np.from_dlpack(Holder(host_col(pd.Series([1, None], dtype="Int64"))))
    with pytest.raises(TypeError, match="numeric and boolean"):
        interop.to_dlpack(host_col(pd.Series(["a", "b"])))
    with pytest.raises(TypeError, match="numeric and boolean"):
        interop.to_dlpack(host_col(pd.Series(pd.to_datetime(["2020-01-01"]))))


@pytest.mark.parametrize("dtype", ["int64", "uint16", "float32", "bool"])
def test_from_dlpack_numpy(dtype: str) -> None:
    a = np.arange(5).astype(dtype)
    col = interop.from_dlpack(a, np)
    assert isinstance(col, NumericColumn)
    tm.assert_series_equal(col.to_pandas(), pd.Series(a))
    assert np.shares_memory(col.data, a)


def test_from_dlpack_on_backend(xp: Any) -> None:
    a = np.array([1.5, np.nan, 3.0])
    col = interop.from_dlpack(a, xp)
    assert col.xp is xp
    tm.assert_series_equal(col.to_pandas(), pd.Series(a))


def test_from_dlpack_errors() -> None:
    with pytest.raises(TypeError, match="DLPack"):
        interop.from_dlpack([1, 2, 3], np)
    with pytest.raises(ValueError, match="1-D"):
        interop.from_dlpack(np.zeros((2, 2)), np)


def test_dlpack_torch_cpu_round_trip() -> None:
    torch = pytest.importorskip("torch")
    col = host_col(pd.Series(np.arange(4, dtype=np.float32)))
    t = torch.from_dlpack(Holder(col))
    assert t.data_ptr() == col.data.ctypes.data
    back = interop.from_dlpack(t, np)
    assert back.data.ctypes.data == t.data_ptr()
    tm.assert_series_equal(back.to_pandas(), pd.Series(np.arange(4, dtype=np.float32)))


# --- CUDA array interface (host side) ----------------------------------------------------------


def test_cuda_array_interface_refuses_host_columns() -> None:
    holder = Holder(host_col(pd.Series([1, 2, 3])))
    with pytest.raises(TypeError, match=r"host memory; use __array__ / \.to_numpy\(\)"):
        holder.__cuda_array_interface__  # noqa: B018


# --- Arrow -------------------------------------------------------------------------------------


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", est.ALL_DTYPES)
def test_arrow_c_array_consumed_by_pyarrow(dtype: str, data: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    col = host_col(s)
    arr = pa.array(Holder(col))
    assert arr.equals(col.to_arrow())
    assert arr.to_pylist() == pandas_arrow_values(s)


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", est.ALL_DTYPES)
def test_arrow_c_device_array_host(dtype: str, data: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    arr = pa.array(DeviceArrayHolder(host_col(s)))
    assert arr.to_pylist() == pandas_arrow_values(s)


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize(
    "dtype",
    [
        "int8",
        "uint64",
        "float32",
        "float64",
        "bool",
        "Int64",
        "boolean",
        "Float64",
        "str",
        "datetime64[ns]",
        "datetime64[s, UTC]",
        "timedelta64[us]",
    ],
)
def test_arrow_buffers_layout(dtype: str, data: Any) -> None:
    """The buffer layout used for zero-copy device export, checked on the host against to_arrow."""
    col = host_col(data.draw(est.series_strategy(dtype)))
    arr = interop.arrow_array_from_buffers(col, pa.py_buffer)
    arr.validate(full=True)
    assert arr.equals(col.to_arrow())


def test_arrow_buffers_of_slices() -> None:
    col = host_col(pd.Series(["a", "bé", None, "日本", "z"]))
    part = col.slice(1, 4)
    arr = interop.arrow_array_from_buffers(part, pa.py_buffer)
    assert arr.to_pylist() == ["bé", None, "日本"]
    strided = host_col(pd.Series(np.arange(10, dtype=np.int16))).slice(0, 10, 3)
    assert interop.arrow_array_from_buffers(strided, pa.py_buffer).to_pylist() == [0, 3, 6, 9]


def test_arrow_buffers_categorical_is_none() -> None:
    col = host_col(pd.Series(["a", "b"], dtype="category"))
    assert interop.arrow_buffers(col) is None
    with pytest.raises(TypeError, match="flat Arrow buffer layout"):
        interop.arrow_array_from_buffers(col, pa.py_buffer)


def test_arrow_requested_schema_casts() -> None:
    col = host_col(pd.Series([1, 2, None], dtype="Int64"))
    arr = pa.array(Holder(col), type=pa.float64())
    assert arr.type == pa.float64()
    assert arr.to_pylist() == [1.0, 2.0, None]


def test_arrow_zero_copy_on_host() -> None:
    col = host_col(pd.Series(np.arange(4, dtype=np.int64)))
    arr = pa.array(Holder(col))
    assert arr.buffers()[1].address == col.data.ctypes.data


@SETTINGS
@given(
    df=est.frame_strategy(
        {
            "i": "int32",
            "f": "float64",
            "s": "str",
            "n": "Int64",
            "t": "datetime64[us]",
            "c": "category",
            "b": "boolean",
        }
    )
)
def test_arrow_c_stream_consumed_by_pyarrow(df: pd.DataFrame) -> None:
    cols = {name: host_col(df[name]) for name in df.columns}
    table = pa.table(StreamHolder(cols))
    expected = pa.Table.from_pandas(df, preserve_index=False)
    assert table.column_names == list(df.columns)
    assert table.num_rows == len(df)
    assert table.to_pylist() == expected.to_pylist()
    reader = pa.RecordBatchReader.from_stream(StreamHolder(cols))
    assert reader.read_all().equals(table)


def test_arrow_c_stream_names_and_empty() -> None:
    cols = {0: host_col(pd.Series([1, 2])), "x": host_col(pd.Series(["a", "b"]))}
    table = pa.table(StreamHolder(cols))
    assert table.column_names == ["0", "x"]
    assert pa.table(StreamHolder({})).num_columns == 0
    pairs = [("a", host_col(pd.Series([1]))), ("a", host_col(pd.Series([2])))]
    assert interop.arrow_table(pairs).column_names == ["a", "a"]


def test_arrow_c_stream_requested_schema() -> None:
    cols = {"a": host_col(pd.Series([1, 2], dtype="int64"))}
    schema = pa.schema([("a", pa.int32())])
    reader = pa.RecordBatchReader.from_stream(StreamHolder(cols), schema=schema)
    assert reader.read_all().schema == schema


# --- GPU: zero-copy with CuPy, PyTorch, JAX and Numba -------------------------------------------


def device_col(s: pd.Series) -> Column:
    from ember.backend import cupy_module

    return from_pandas(s, cupy_module())


def ptr(col: Column) -> int:
    return int(col.data.data.ptr)


@pytest.mark.gpu
def test_gpu_array_refuses_implicit_host_copy() -> None:
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array is not allowed"):
        np.asarray(Holder(device_col(pd.Series([1, 2]))))
    assert "to_numpy()" in DEVICE_MESSAGE


@pytest.mark.gpu
def test_gpu_cuda_array_interface_cupy() -> None:
    from ember.backend import cupy_module

    cp = cupy_module()
    col = device_col(pd.Series(np.arange(8, dtype=np.float32)))
    cai = Holder(col).__cuda_array_interface__
    assert cai["version"] == 3 and cai["data"][0] == ptr(col) and cai["shape"] == (8,)
    out = cp.asarray(Holder(col))
    assert int(out.data.ptr) == ptr(col)
    with pytest.raises(ValueError, match=r"\.fillna"):
        interop.cuda_array_interface(device_col(pd.Series([1, None], dtype="Int64")))
    with pytest.raises(TypeError, match="numeric and boolean"):
        interop.cuda_array_interface(device_col(pd.Series(["a"])))


@pytest.mark.gpu
def test_gpu_dlpack_cupy_round_trip() -> None:
    from ember.backend import cupy_module

    cp = cupy_module()
    col = device_col(pd.Series(np.arange(8, dtype=np.int64)))
    assert interop.dlpack_device(col)[0] == 2
    out = cp.from_dlpack(Holder(col))
    assert int(out.data.ptr) == ptr(col)
    back = interop.from_dlpack(out, cp)
    assert ptr(back) == ptr(col)


@pytest.mark.gpu
def test_gpu_dlpack_torch_round_trip() -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    from ember.backend import cupy_module

    col = device_col(pd.Series(np.arange(8, dtype=np.float32)))
    t = torch.from_dlpack(Holder(col))
    assert t.is_cuda and t.data_ptr() == ptr(col)
    src = torch.arange(5, dtype=torch.int32, device="cuda")
    back = interop.from_dlpack(src, cupy_module())
    assert ptr(back) == src.data_ptr()
    tm.assert_series_equal(back.to_pandas(), pd.Series(np.arange(5, dtype=np.int32)))


@pytest.mark.gpu
def test_gpu_dlpack_jax_round_trip() -> None:
    # JAX would otherwise reserve most of the GPU's memory for itself on first use
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jax = pytest.importorskip("jax")
    jax_dlpack = pytest.importorskip("jax.dlpack")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("jax has no GPU device")
    from ember.backend import cupy_module

    col = device_col(pd.Series(np.arange(16, dtype=np.float32)))
    x = jax_dlpack.from_dlpack(Holder(col))
    assert x.unsafe_buffer_pointer() == ptr(col)
    y = jax.numpy.arange(6, dtype=jax.numpy.int32)
    back = interop.from_dlpack(y, cupy_module())
    assert ptr(back) == y.unsafe_buffer_pointer()


@pytest.mark.gpu
def test_gpu_numba_cuda_array_interface() -> None:
    try:
        from numba import cuda as numba_cuda
    except Exception as exc:  # numba's CUDA target fails to import with NumPy >= 2.5 (np.row_stack)
        pytest.skip(f"numba.cuda does not import: {type(exc).__name__}: {exc}")
    col = device_col(pd.Series(np.arange(8, dtype=np.float64)))
    d = numba_cuda.as_cuda_array(Holder(col))  # a failure to read ember's interface fails the test
    assert d.device_ctypes_pointer.value == ptr(col)
    assert_eq(d.copy_to_host(), np.arange(8, dtype=np.float64))


GPU_ARROW_SERIES = {
    "int32": pd.Series(np.arange(20, dtype=np.int32)),
    "float64": pd.Series([1.5, np.nan, -2.0] * 7),
    "bool": pd.Series([True, False, True] * 7),
    "Int64": pd.Series([1, None, 3] * 7, dtype="Int64"),
    "str": pd.Series(["a", None, "日本"] * 7),
    "datetime64[ns]": pd.Series(pd.to_datetime(["2020-01-01", None, "1999-12-31"] * 7)),
    "category": pd.Series(["x", None, "y"] * 7, dtype="category"),
}


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", list(GPU_ARROW_SERIES))
def test_gpu_arrow_device_array(dtype: str) -> None:
    s = GPU_ARROW_SERIES[dtype]
    col = device_col(s)
    holder = DeviceArrayHolder(col)
    schema_capsule, array_capsule = holder.__arrow_c_device_array__()
    if interop.pyarrow_has_cuda() and dtype != "category":
        arr = pa.Array._import_from_c_device_capsule(schema_capsule, array_capsule)
        assert arr.device_type == pa.DeviceAllocationType.CUDA
        assert arr.buffers()[-1].address == int(
            col.chars.data.ptr if dtype == "str" else col.data.data.ptr
        ) or (dtype == "bool")
    else:  # host copy, documented: the CPU device type
        arr = pa.array(holder)
        assert arr.to_pylist() == pandas_arrow_values(s)


@pytest.mark.gpu
def test_gpu_arrow_c_array_and_stream_copy_to_host() -> None:
    s = pd.Series([1.5, None, 3.0])
    col = device_col(s)
    assert pa.array(Holder(col)).to_pylist() == [1.5, None, 3.0]
    assert pa.table(StreamHolder({"a": col})).column("a").to_pylist() == [1.5, None, 3.0]

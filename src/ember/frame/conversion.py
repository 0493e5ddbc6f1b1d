"""Conversion and interchange methods of Series and DataFrame: to pandas / NumPy / CuPy / Arrow and
the array protocols (``__array__``, ``__cuda_array_interface__``, DLPack, the Arrow C interfaces).
Mixins of the two classes; the work itself is in ``ember.interop`` and the columns."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import NumericColumn
from ember.frame.index import RangeIndex

_NO_NAME = object()  # to_frame(name=) not given: the Series name, or 0


def named_axis(labels: pd.Index, names: tuple | None) -> pd.Index:
    """``labels`` with the column axis' level names (kept off when their count does not fit)."""
    if names is None or len(names) != labels.nlevels:
        return labels
    return labels.set_names(list(names) if labels.nlevels > 1 else names[0])


def host_values(out: np.ndarray, column: Any, copy: bool = False) -> np.ndarray:
    """``out`` (host values of ``column``) as pandas 3 hands values out: where it shares the column's
    memory a read-only view (columns are immutable; copy-on-write pandas does the same), or with
    ``copy`` a writable copy; a new array as it is."""
    if column.on_device or not np.may_share_memory(out, column.data):
        return out
    if copy:
        return out.copy()
    view = out.view()
    view.flags.writeable = False
    return view


class SeriesConversion:
    """Series: to pandas, NumPy, CuPy, Arrow, a frame, and the array protocols."""

    def to_pandas(self) -> pd.Series:
        """A pandas Series of its own: its arrays are writable and share no memory with this Series
        (a host column is copied once; a device column's transfer is the copy)."""
        c = self._column
        out = c.to_pandas(index=self._index.to_pandas(), name=self.name)
        return out if c.on_device else out.copy(deep=True)

    def to_numpy(self, dtype: Any = None, copy: bool = False, na_value: Any = None) -> np.ndarray:
        """As pandas 3: a read-only view of the values where no copy is needed (``copy=True``: a
        writable copy of its own), else a new array."""
        c = self._column
        if isinstance(c, NumericColumn) and not c.nullable:
            out = c.to_numpy(na_value=na_value)
        elif na_value is not None:
            out = c.to_pandas().to_numpy(na_value=na_value)
        else:
            out = c.to_pandas().to_numpy()
        out = out if dtype is None else np.asarray(out, dtype=dtype)
        return host_values(out, c, copy)

    def to_cupy(self, dtype: Any = None) -> Any:
        """The values as a CuPy array (copied to the device on the CPU backend); nulls must be filled."""
        from ember.backend import cupy_module

        c = self._column
        if not isinstance(c, NumericColumn):
            raise TypeError(f"to_cupy needs a numeric or bool Series, not {self.dtype}")
        if c.mask is not None:
            raise ValueError("the Series has missing values; fill them first with .fillna(value)")
        out = cupy_module().asarray(c.data)
        return out if dtype is None else out.astype(dtype)

    def to_arrow(self) -> Any:
        return self._column.to_arrow()

    def tolist(self) -> list:
        return self.to_pandas().tolist()

    to_list = tolist

    def to_frame(self, name: Any = _NO_NAME) -> Any:
        """The Series as a frame's one column: labelled ``name`` where given (None included), else
        by the Series' name, else 0 (pandas: a RangeIndex of the one column)."""
        from ember.frame.frame_labels import RANGE_KIND, axis_kind

        label = self.name if name is _NO_NAME else name
        unnamed = name is _NO_NAME and label is None
        kind = RANGE_KIND if unnamed else axis_kind(pd.Index([label])) if label is None else None
        return self._constructor_expanddim._from_columns(
            {0 if unnamed else label: self._column}, self._index, kind=kind
        )

    def __iter__(self):
        return iter(self.tolist())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        from ember.interop import array_protocol

        return array_protocol(self._column, dtype=dtype, copy=copy)

    @property
    def __cuda_array_interface__(self) -> dict:
        from ember.interop import cuda_array_interface

        return cuda_array_interface(self._column)

    def __dlpack__(self, *, stream: Any = None, **kwargs: Any) -> Any:
        from ember.interop import to_dlpack

        return to_dlpack(self._column, stream=stream, **kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        from ember.interop import dlpack_device

        return dlpack_device(self._column)

    def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
        from ember.interop import arrow_c_array

        return arrow_c_array(self._column, requested_schema)

    def __arrow_c_device_array__(self, requested_schema: Any = None, **kwargs: Any) -> Any:
        from ember.interop import arrow_c_device_array

        return arrow_c_device_array(self._column, requested_schema, **kwargs)


class FrameConversion:
    """DataFrame: to pandas, NumPy, CuPy, Arrow, dicts, and the array / interchange protocols."""

    def to_pandas(self) -> pd.DataFrame:
        """A pandas DataFrame of its own: its arrays are writable and share no memory with this frame
        (host columns are copied once, into pandas' consolidated blocks; a device column's transfer
        is the copy)."""
        index = self._index.to_pandas()
        data = {k: c.to_pandas(index=index) for k, c in self._columns.items()}
        on_host = not any(c.on_device for c in self._columns.values())
        out = pd.DataFrame(data, index=index, copy=on_host) if data else pd.DataFrame(index=index)
        if self._axis_names is not None or self._kind is not None or not data:
            out.columns = self.columns  # the axis' type and names (pandas infers them from the labels)
        return out

    def to_arrow(self, preserve_index: bool | None = None) -> Any:
        import pyarrow as pa

        from ember.frame.series import _index_columns

        arrays = [c.to_arrow() for c in self._columns.values()]
        names = [str(n) for n in self._names]
        if preserve_index or (preserve_index is None and not isinstance(self._index, RangeIndex)):
            for i, col in enumerate(_index_columns(self._index)):
                arrays.append(col.to_arrow())
                names.append(
                    self._index.names[i] if self._index.names[i] is not None else f"__index_level_{i}__"
                )
        return pa.Table.from_arrays(arrays, names=names)

    def to_numpy(self, dtype: Any = None, na_value: Any = None) -> np.ndarray:
        return self.to_pandas().to_numpy(
            dtype=dtype, na_value=na_value if na_value is not None else pd.api.extensions.no_default
        )

    def to_cupy(self, dtype: Any = None) -> Any:
        """A 2-D CuPy array (columns stacked; numeric columns without nulls)."""
        from ember.backend import cupy_module

        cp = cupy_module()
        arrays = [
            self._constructor_sliced._from_column(c, self._index).to_cupy() for c in self._columns.values()
        ]
        out = cp.stack(arrays, axis=1) if arrays else cp.empty((len(self), 0))
        return out if dtype is None else out.astype(dtype)

    @property
    def values(self) -> Any:
        """A 2-D array of the backend (CuPy on the GPU, like ``Series.values``) when every column is
        numeric without missing-value masks; otherwise pandas' host array (``to_numpy()``)."""
        cols = list(self._columns.values())
        if cols and all(type(c) is NumericColumn and c.mask is None for c in cols):
            xp = cols[0].xp
            dtype = np.result_type(*(c.data.dtype for c in cols))
            return xp.stack([c.data.astype(dtype, copy=False) for c in cols], axis=1)
        return self.to_numpy()

    def to_dict(self, orient: str = "dict") -> Any:
        return self.to_pandas().to_dict(orient=orient)

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        from ember.interop import arrow_c_stream

        return arrow_c_stream(self._columns, requested_schema)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        from ember.interop import array_protocol

        if any(c.on_device for c in self._columns.values()):
            return array_protocol(next(iter(self._columns.values())), dtype=dtype, copy=copy)
        return self.to_numpy(dtype=dtype)

    def __dataframe__(self, nan_as_null: bool = False, allow_copy: bool = True) -> Any:
        return self.to_arrow().__dataframe__(nan_as_null=nan_as_null, allow_copy=allow_copy)

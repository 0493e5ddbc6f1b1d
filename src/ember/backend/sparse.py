"""Sparse matrices on either device: scipy.sparse on the host, cupyx.scipy.sparse on the GPU.

Kept in the backend because it is the only layer allowed to import CuPy; scipy is imported lazily so
that ``import ember`` does not import it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np


def is_device_sparse(a: Any) -> bool:
    """True for cupyx.scipy.sparse matrices (checked without importing CuPy)."""
    return type(a).__module__.startswith("cupyx.scipy.sparse")


def is_host_sparse(a: Any) -> bool:
    """True for scipy.sparse matrices and arrays (checked without importing scipy)."""
    return type(a).__module__.startswith("scipy.sparse")


def is_sparse(a: Any) -> bool:
    """True for a sparse matrix of either device."""
    return is_device_sparse(a) or is_host_sparse(a)


def sparse_module(xp: ModuleType) -> ModuleType:
    """``scipy.sparse`` for NumPy, ``cupyx.scipy.sparse`` for CuPy."""
    if xp is np:
        import scipy.sparse

        return scipy.sparse
    import cupyx.scipy.sparse

    return cupyx.scipy.sparse


def device_sparse_dtype(dtype: Any) -> np.dtype:
    """The dtype a cupyx.scipy.sparse matrix stores for ``dtype``: it holds only bool, float32/64 and
    complex, so integer counts travel as float64 (exact below 2**53) and float16 as float32."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return np.dtype(np.float64)
    if dtype == np.float16:
        return np.dtype(np.float32)
    return dtype


def csr_matrix(data: Any, indices: Any, indptr: Any, shape: tuple[int, int]) -> Any:
    """A CSR matrix of the module that owns ``data`` (no copy of the three arrays, except integer data
    on the device, which becomes float64: see ``device_sparse_dtype``)."""
    from ember.backend.arrays import array_module

    xp = array_module(data)
    if xp is not np:
        data = data.astype(device_sparse_dtype(data.dtype), copy=False)
    return sparse_module(xp).csr_matrix((data, indices, indptr), shape=shape)


def sparse_to(a: Any, xp: ModuleType) -> Any:
    """A CSR copy of sparse ``a`` on the device of module ``xp`` (``a`` itself when already there)."""
    if xp is np:
        if is_device_sparse(a):
            return a.get().tocsr()
        return a.tocsr()
    if is_device_sparse(a):
        return a.tocsr()
    import cupyx.scipy.sparse as csp

    from ember.backend.arrays import to_device

    a = a.tocsr()
    data = to_device(a.data.astype(device_sparse_dtype(a.dtype), copy=False))
    return csp.csr_matrix((data, to_device(a.indices), to_device(a.indptr)), shape=a.shape)

"""GPU out-of-memory becomes a MemoryError that says how much was asked and points to Dask/spilling."""

import types

import numpy as np
import pytest

from ember.backend import memory


class _FakeOOM(Exception):
    pass


def _fake_cupy(free_bytes: int, total_bytes: int):
    cuda = types.SimpleNamespace(
        memory=types.SimpleNamespace(OutOfMemoryError=_FakeOOM),
        runtime=types.SimpleNamespace(memGetInfo=lambda: (free_bytes, total_bytes)),
    )
    return types.SimpleNamespace(cuda=cuda)


class _FullPool:
    def __init__(self) -> None:
        self.freed = False

    def malloc(self, nbytes: int):
        raise _FakeOOM(nbytes)

    def free_all_blocks(self) -> None:
        self.freed = True


def test_out_of_memory_message_names_size_and_the_way_out(monkeypatch):
    pool = _FullPool()
    monkeypatch.setitem(memory._state, "pool", pool)
    monkeypatch.setattr(memory._device, "cupy_module", lambda: _fake_cupy(2 << 20, 80 << 30))
    with pytest.raises(MemoryError, match=r"asked for 3072\.0 MiB with 2\.0 MiB free of 80\.0 GiB") as info:
        memory._allocator(3 << 30)
    assert "ember.dask" in str(info.value) and "spills" in str(info.value)
    assert pool.freed, "the pool's cached blocks are released before giving up"


@pytest.mark.gpu
def test_real_device_out_of_memory_is_a_memory_error():
    import ember as em

    cp = em.backend.cupy_module()
    free, _ = cp.cuda.runtime.memGetInfo()
    with pytest.raises(MemoryError, match="GPU out of memory"):
        cp.empty(free * 4, dtype=np.uint8)

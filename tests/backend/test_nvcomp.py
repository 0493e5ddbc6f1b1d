"""nvCOMP's batched decompression (``backend.nvcomp``) against the host codecs that made the bytes."""

import numpy as np
import pytest

from ember.backend import nvcomp


def test_no_device_codecs_on_the_cpu_backend(backend):
    if backend == "cpu":
        assert nvcomp.device_codecs() == frozenset()


def _payloads(rng: np.random.Generator, n: int) -> list[bytes]:
    """Buffers from empty-ish to compressible to random, of varied lengths."""
    out = []
    for i in range(n):
        size = int(rng.integers(1, 40_000))
        kind = i % 3
        if kind == 0:
            out.append(bytes(rng.integers(0, 4, size, dtype=np.uint8)))
        elif kind == 1:
            out.append(np.arange(size // 8 + 1, dtype=np.int64).tobytes())
        else:
            out.append(bytes(rng.integers(0, 256, size, dtype=np.uint8)))
    return out


def _compress(codec: str, data: bytes) -> bytes:
    import pyarrow as pa

    return pa.compress(data, codec=codec.lower(), asbytes=True)


@pytest.mark.gpu
@pytest.mark.parametrize("codec", ["ZSTD", "LZ4_RAW"])
def test_batched_decompression_matches_the_host_codec(codec):
    if codec not in nvcomp.device_codecs():
        pytest.skip("nvCOMP is not installed")
    import cupy as cp

    rng = np.random.default_rng(3)
    plain = _payloads(rng, 60)
    packed = [_compress(codec, p) for p in plain]
    # inputs at odd places of one buffer, as pages sit in a file
    gaps = rng.integers(0, 7, len(packed))
    src_at = np.cumsum([0] + [len(p) + g for p, g in zip(packed, gaps)])[:-1] + 3
    src = np.zeros(int(src_at[-1]) + len(packed[-1]) + 8, dtype=np.uint8)
    for at, p in zip(src_at, packed):
        src[at : at + len(p)] = np.frombuffer(p, np.uint8)
    align = nvcomp.output_alignment(codec)
    sizes = np.array([len(p) for p in plain], dtype=np.int64)
    slots = -(-sizes // align) * align
    dst_at = np.concatenate([[0], np.cumsum(slots)[:-1]]).astype(np.int64)
    dst = cp.zeros(int(slots.sum()), dtype=np.uint8)
    error = cp.zeros(1, dtype=np.int32)
    in_size = np.array([len(p) for p in packed], dtype=np.int64)
    nvcomp.decompress(codec, cp.asarray(src), src_at, in_size, dst, dst_at, sizes, error)
    assert int(error.get()[0]) == 0
    host = dst.get()
    for at, p in zip(dst_at, plain):
        assert host[at : at + len(p)].tobytes() == p

    # a size that disagrees with what the buffer holds, or bytes that are not the codec's, flag the error
    wrong = sizes.copy()
    wrong[5] += align
    nvcomp.decompress(codec, cp.asarray(src), src_at, in_size, dst, dst_at, wrong, error)
    assert int(error.get()[0]) == nvcomp.CORRUPT
    error[:] = 0
    if codec == "LZ4_RAW":  # zstd garbage faults inside nvCOMP: the Parquet reader checks headers first
        garbage = cp.asarray(np.frombuffer(rng.bytes(src.size), np.uint8))
        nvcomp.decompress(codec, garbage, src_at, in_size, dst, dst_at, sizes, error)
        assert int(error.get()[0]) == nvcomp.CORRUPT


@pytest.mark.gpu
def test_zstd_pages_with_a_broken_frame_header_are_read_on_the_host(tmp_path, monkeypatch):
    """A zstd page whose frame header is garbage never reaches nvCOMP (which would fault): the host
    decompressor reads it and names the corruption; intact pages still go to nvCOMP."""
    import pandas as pd

    import ember as em
    from ember.io.parquet import ParquetError

    if "ZSTD" not in nvcomp.device_codecs():
        pytest.skip("nvCOMP is not installed")
    sent = []
    real = nvcomp.decompress
    monkeypatch.setattr(
        nvcomp, "decompress", lambda codec, src, at, *a: sent.append(len(at)) or real(codec, src, at, *a)
    )
    df = pd.DataFrame({"a": np.arange(60_000), "b": np.random.default_rng(0).random(60_000)})
    path = tmp_path / "z.parquet"
    df.to_parquet(path, compression="zstd", data_page_size=20_000)
    pd.testing.assert_frame_equal(em.read_parquet(path, engine="ember").to_pandas(), df)
    assert sum(sent) > 4
    data = bytearray(path.read_bytes())
    frame = data.find(b"\x28\xb5\x2f\xfd", len(data) // 2)  # a zstd frame's magic, halfway in
    data[frame : frame + 12] = b"\xee" * 12
    path.write_bytes(bytes(data))
    with pytest.raises(ParquetError, match="z.parquet.*corrupt compressed page"):
        em.read_parquet(path, engine="ember")

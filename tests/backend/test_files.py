"""``backend.files``: file bytes (``read_into``) or filled pieces (``fill_pieces``) into a device (or host)
buffer in pieces, against the file or the fill."""

from __future__ import annotations

import numpy as np
import pytest

from ember.backend import files
from ember.backend.arrays import to_host


@pytest.mark.parametrize("offset,size", [(0, 0), (0, 1), (7, 10_000), (123, 50_000), (0, 65_536)])
def test_pieces_land_in_place(tmp_path, monkeypatch, xp, offset, size):
    """Small pieces (the ring of pinned buffers wraps on the GPU), an offset into the file and into the
    buffer; ``on_piece`` sees each piece once, in order, covering the range."""
    monkeypatch.setattr(files, "FILE_PIECE", 4096)
    monkeypatch.setattr(files, "FILE_BUFFERS", 3)
    raw = np.random.default_rng(size).integers(0, 256, 70_000, dtype=np.uint8)
    path = tmp_path / "bytes.bin"
    path.write_bytes(raw.tobytes())
    buf = xp.zeros(size + 16, dtype=np.uint8)
    seen = []
    files.read_into(
        str(path), offset, size, buf, at=5, on_piece=lambda start, k, stream: seen.append((start, k))
    )
    got = to_host(buf)
    np.testing.assert_array_equal(got[5 : 5 + size], raw[offset : offset + size])
    assert not got[:5].any() and not got[5 + size :].any()
    assert [s for s, _ in seen] == list(range(0, size, 4096))
    assert sum(k for _, k in seen) == size


def test_a_file_shorter_than_asked_names_it(tmp_path, xp):
    path = tmp_path / "short.bin"
    path.write_bytes(b"x" * 100)
    with pytest.raises(OSError, match="short.bin.*ended at byte 100"):
        files.read_into(str(path), 0, 200, xp.zeros(200, dtype=np.uint8))


def test_fill_pieces_places_each_piece_and_takes_long_ones(monkeypatch, xp):
    """Pieces in any order of destination, one longer than a pinned buffer (its own pageable buffer on
    the GPU), one empty: each lands where it says, nothing else is written."""
    monkeypatch.setattr(files, "FILE_PIECE", 64)
    monkeypatch.setattr(files, "FILE_BUFFERS", 2)
    pieces = [(300, 10), (0, 64), (100, 150), (90, 0), (64, 20)]
    buf = xp.zeros(320, dtype=np.uint8)
    order = []

    def fill(i, out):
        assert out.shape == (pieces[i][1],)
        out[:] = i + 1

    files.fill_pieces(buf, pieces, fill, after=lambda i, stream: order.append(i))
    want = np.zeros(320, dtype=np.uint8)
    for i, (at, size) in enumerate(pieces):
        want[at : at + size] = i + 1
    np.testing.assert_array_equal(to_host(buf), want)
    assert order == list(range(len(pieces)))


def test_a_failing_fill_raises_its_error(xp):
    def fill(i, out):
        if i == 1:
            raise ValueError("piece 1 is corrupt")

    with pytest.raises(ValueError, match="piece 1 is corrupt"):
        files.fill_pieces(xp.zeros(30, dtype=np.uint8), [(0, 10), (10, 10), (20, 10)], fill)


def test_read_ranges_of_several_files_in_one_pool(tmp_path, monkeypatch, xp):
    """Ranges of two files, out of order and of different sizes, each lands at its place; the pieces
    reported cover every range once."""
    monkeypatch.setattr(files, "FILE_PIECE", 4096)
    monkeypatch.setattr(files, "FILE_BUFFERS", 3)
    r = np.random.default_rng(3)
    raws = [r.integers(0, 256, 30_000, dtype=np.uint8), r.integers(0, 256, 9_000, dtype=np.uint8)]
    paths = []
    for i, raw in enumerate(raws):
        paths.append(str(tmp_path / f"f{i}.bin"))
        (tmp_path / f"f{i}.bin").write_bytes(raw.tobytes())
    ranges = [(paths[1], 100, 8_000, 0), (paths[0], 5, 20_001, 8_000), (paths[1], 0, 3, 28_001)]
    buf = xp.zeros(28_004 + 8, dtype=np.uint8)
    seen = []
    files.read_ranges(ranges, buf, on_piece=lambda at, k, stream: seen.append((at, k)))
    got = to_host(buf)
    np.testing.assert_array_equal(got[:8_000], raws[1][100:8_100])
    np.testing.assert_array_equal(got[8_000:28_001], raws[0][5:20_006])
    np.testing.assert_array_equal(got[28_001:28_004], raws[1][:3])
    assert not got[28_004:].any()
    assert sorted(seen) == seen and sum(k for _, k in seen) == 28_004


def test_host_buffer_upload(xp):
    from ember.backend.arrays import host_buffer, upload

    host = host_buffer(1_000, xp)
    host[:] = np.arange(1_000) % 251
    got = upload(host, xp)
    np.testing.assert_array_equal(to_host(got), np.arange(1_000) % 251)
    assert host_buffer(0, xp).shape == (0,)


def test_shared_pool_is_kept_and_made_again_in_a_child(monkeypatch):
    from ember.backend import pools

    first = pools.shared_pool("test-pool", 2)
    assert pools.shared_pool("test-pool", 2) is first
    monkeypatch.setattr(pools.os, "getpid", lambda: -1)  # as in a forked child
    assert pools.shared_pool("test-pool", 2) is not first


def test_a_failing_piece_leaves_no_task_running(xp, monkeypatch):
    """The shared pool outlives the call: when one piece fails, the call returns only after every
    other piece's task has finished (none may write into buffers the caller then releases)."""
    import threading
    import time

    monkeypatch.setattr(files, "FILE_PIECE", 16)
    finished = []
    lock = threading.Lock()

    def fill(i, out):
        if i == 0:
            raise OSError("piece 0 failed")
        time.sleep(0.05)
        out[:] = i
        with lock:
            finished.append(i)

    pieces = [(16 * i, 16) for i in range(4)]
    with pytest.raises(OSError, match="piece 0 failed"):
        files.fill_pieces(xp.zeros(64, dtype=np.uint8), pieces, fill)
    assert sorted(finished) == [1, 2, 3]

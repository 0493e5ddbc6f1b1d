"""``backend.files.read_into``: file bytes into a device (or host) buffer in pieces, against the file."""

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

"""The CUDA C++ kernel sources compile for Hopper (sm_90) with nvcc, where nvcc is installed.

CI has no GPU: this catches syntax and type errors in kernels before they reach a GPU host. Running
them, and comparing with their NumPy references, happens in the GPU suite (``--backend gpu``).
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from ember.backend import primitives
from ember.backend.kernels import segment

NVCC = shutil.which("nvcc")
pytestmark = pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")

KERNELS = Path(__file__).resolve().parents[2] / "src" / "ember" / "backend" / "kernels"


def _compile(tmp_path: Path, name: str, source: str) -> None:
    path = tmp_path / f"{name}.cu"
    path.write_text(source)
    done = subprocess.run(
        [NVCC, "-arch=sm_90", "-c", str(path), "-o", str(tmp_path / f"{name}.o")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def test_segment_kernels_compile(tmp_path):
    _compile(tmp_path, "segment", segment._SOURCE)


def test_float_divmod_kernel_compiles(tmp_path):
    body = primitives._DIVMOD_SOURCE
    source = (
        '#include <cmath>\nextern "C" __global__ void k(const double* A, const double* B, double* D, '
        "double* M) { double a = A[0], b = B[0]; double out_div, out_mod;" + body + " D[0] = out_div; "
        "M[0] = out_mod; }"
    )
    _compile(tmp_path, "divmod", source)


@pytest.mark.parametrize("path", sorted(KERNELS.glob("*.cu")), ids=lambda p: p.name)
def test_kernel_files_compile(tmp_path, path):
    _compile(tmp_path, path.stem, path.read_text())


@pytest.mark.parametrize(
    "types", [("i1", "f8", "f8"), ("u2", "i8", "u8"), ("i8", "u8", "u8"), ("u8", "i8", "f8")], ids="-".join
)
def test_slot_kernels_compile_for_each_type_family(tmp_path, types):
    from ember.backend.kernels import slots

    _compile(tmp_path, "slots_" + "_".join(types), slots.source(*types))


def test_gather_bytes_kernel_compiles(tmp_path):
    from ember.backend.kernels import bytes as byte_kernels

    _compile(tmp_path, "gather_bytes", byte_kernels._SOURCE)

"""The ``ember`` command: ``ember info`` (what ember sees), ``ember demo`` and ``ember bench``.

``demo`` and ``bench`` hand their arguments to ``ember.demo.main`` / ``ember.bench.main``, imported
only when asked for, so ``ember info`` stays quick and works with nothing but the core dependencies.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import subprocess
import sys
from importlib import metadata
from typing import Any

_DELEGATED = {
    "demo": "run the ember demo (ember.demo)",
    "bench": "run the benchmarks (ember.bench)",
    "worker": "start Dask workers, one per local GPU (ember.dask.worker)",
}


def _version(dist: str, module: str | None = None) -> str | None:
    """Installed version of a distribution (without importing it), or of an already-imported module."""
    if module and module in sys.modules:
        return getattr(sys.modules[module], "__version__", None)
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _cupy_version() -> str | None:
    for dist in ("cupy-cuda13x", "cupy-cuda12x", "cupy-cuda11x", "cupy"):
        v = _version(dist, "cupy")
        if v:
            return v
    return None


def _cuda_version(v: int) -> str:
    """13000 -> '13.0' (CUDA's integer version encoding)."""
    return f"{v // 1000}.{(v % 1000) // 10}"


def _nvidia_driver() -> str | None:
    """The kernel driver version from nvidia-smi (best effort; CUDA reports only its API version)."""
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    lines = out.stdout.strip().splitlines()
    return lines[0].strip() if lines else None


def _gpu_info(cp: Any) -> dict[str, Any]:
    """Name, compute capability, driver/runtime versions and memory of the current CUDA device."""
    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    name = props["name"]
    free, total = dev.mem_info
    return {
        "gpu_name": name.decode() if isinstance(name, bytes) else str(name),
        "gpu_index": int(dev.id),
        "gpu_count": int(cp.cuda.runtime.getDeviceCount()),
        "compute_capability": f"{props['major']}.{props['minor']}",
        "driver_version": _nvidia_driver(),
        "cuda_driver_api": _cuda_version(cp.cuda.runtime.driverGetVersion()),
        "cuda_runtime": _cuda_version(cp.cuda.runtime.runtimeGetVersion()),
        "gpu_memory_total_gib": round(total / 2**30, 2),
        "gpu_memory_free_gib": round(free / 2**30, 2),
    }


def collect_info() -> dict[str, Any]:
    """What ``ember info`` reports, as a dict (the device probe imports CuPy if it is installed)."""
    import ember
    from ember import backend

    info: dict[str, Any] = {"device_option": ember.config.get("device")}
    try:
        info["device"] = backend.current_device()
    except backend.DeviceUnavailableError as exc:
        info["device"] = f"unavailable ({exc})"
    try:
        cp = backend.cupy_module()
    except backend.DeviceUnavailableError as exc:
        info["gpu"] = None
        info["gpu_unavailable_reason"] = str(exc)
    else:
        info["gpu"] = True
        info.update(_gpu_info(cp))
    info["versions"] = {
        "ember": ember.__version__,
        "cupy": _cupy_version(),
        "numpy": _version("numpy", "numpy"),
        "pandas": _version("pandas", "pandas"),
        "pyarrow": _version("pyarrow", "pyarrow"),
        "python": platform.python_version(),
    }
    return info


def format_info(info: dict[str, Any]) -> str:
    """The human-readable ``ember info`` report."""
    lines = [f"device in use     {info['device']}  (ember.config device={info['device_option']!r})"]
    if info["gpu"]:
        lines += [
            f"GPU               {info['gpu_name']} (device {info['gpu_index']} of {info['gpu_count']}, "
            f"compute capability {info['compute_capability']})",
            f"driver            {info['driver_version'] or 'unknown'} (CUDA driver API {info['cuda_driver_api']})",
            f"CUDA runtime      {info['cuda_runtime']}",
            f"GPU memory        {info['gpu_memory_free_gib']:.1f} GiB free of "
            f"{info['gpu_memory_total_gib']:.1f} GiB",
        ]
    else:
        lines.append("GPU               none")
        lines.append(f"                  {info['gpu_unavailable_reason']}")
    lines.append("versions")
    for name, version in info["versions"].items():
        lines.append(f"  {name:<16}{version or 'not installed'}")
    return "\n".join(lines)


def _info(args: argparse.Namespace) -> int:
    info = collect_info()
    print(json.dumps(info, indent=2) if args.json else format_info(info))
    return 0


def _delegate(command: str, argv: list[str]) -> int:
    if command == "worker":
        from ember.dask.worker import main as worker_main

        return int(worker_main(argv) or 0)
    try:
        module = importlib.import_module(f"ember.{command}")
    except ModuleNotFoundError as exc:
        if exc.name != f"ember.{command}":
            raise
        print(f"ember {command}: this installation has no ember.{command} module", file=sys.stderr)
        return 2
    result = module.main(argv)
    return int(result or 0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ember", description="ember: pandas-compatible DataFrames on GPUs.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{info,demo,bench,worker}")
    info = sub.add_parser("info", help="show the device in use, the GPU, CUDA and library versions")
    info.add_argument("--json", action="store_true", help="print the report as JSON")
    for name, help_text in _DELEGATED.items():
        # their own parsers read the rest of the line, --help included
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``ember`` console script and of ``python -m ember``; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in _DELEGATED:
        return _delegate(argv[0], argv[1:])
    args = build_parser().parse_args(argv)
    return _info(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

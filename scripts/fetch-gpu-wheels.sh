#!/usr/bin/env bash
# Downloads into .whl/ the wheels the GPU host lacks and cannot fetch (it has no package index):
# Dask and its pure-Python dependencies, tzdata, tpchgen-cli (the TPC-H tests' data) and NVIDIA's
# nvCOMP library (zstd / LZ4 Parquet pages on the GPU). scripts/gpu-env.sh installs them there. Usage: scripts/fetch-gpu-wheels.sh [python version]
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-3.12}
for name in dask distributed partd locket tblib zict tornado tzdata nvidia-libnvcomp-cu13 tpchgen-cli; do
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version "$version" --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 -d .whl "$name"
done
ls -la .whl

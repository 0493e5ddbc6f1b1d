# Sourced by the GPU scripts: carried wheels, an offline editable install, a CuPy kernel cache.
# shellcheck shell=bash
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
if [ -d .whl ]; then  # wheels carried to hosts that cannot reach a package index (dask, tzdata, nvidia-libnvcomp-cu13)
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH="/tmp/site:${PYTHONPATH:-}" PATH="/tmp/site/bin:$PATH"  # bin/: tpchgen-cli
fi
# Polars is not on the GPU image; its wheels (~55 MB, most of a call's 64 MiB transfer) travel only
# when a call carries .whl-polars (the string / time-series benchmark's Polars column)
if [ -d .whl-polars ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl-polars/*.whl
  export PYTHONPATH="/tmp/site:${PYTHONPATH:-}"
fi
# an editable install registers ember's entry points (the Dask backend), offline
python3 -m pip install -q --no-deps --no-build-isolation --no-index -e . >/dev/null 2>&1 || echo "note: editable install failed"
export PYTHONPATH="$PWD/src:${PYTHONPATH:-}" PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 PYTHONHASHSEED=0
# CuPy compiles each kernel on first use (NVRTC, ~0.1-1 s each) and a fresh host has no cache: a cache
# brought back from an earlier run (cupy-cache.tgz in $OUT, copied to the repo root and carried) skips that.
export CUPY_CACHE_DIR="$PWD/.cupy-cache"
mkdir -p "$CUPY_CACHE_DIR"
[ -f cupy-cache.tgz ] && tar xzf cupy-cache.tgz -C "$CUPY_CACHE_DIR" 2>/dev/null

#!/usr/bin/env bash
# On a GPU host: the test suite on the GPU backend, then the benchmarks, with logs under $OUT (or ./gpu-out).
# Usage: scripts/gpu-check.sh [test paths...]   (env BENCH_WORKLOADS, BENCH_ROWS, BENCH_LIBS, SKIP_TESTS)
set -uo pipefail
source "$(dirname "$0")/gpu-env.sh"
python3 -m ember info 2>&1 | tee "$OUT/info.txt"
if [ -z "${SKIP_TESTS:-}" ]; then
  # pytest-xdist (on the GPU image) spreads the Python-bound test work over the cores; SIGINT at the
  # time limit still prints the failures so far
  timeout -s INT -k 30 "${TEST_TIMEOUT:-400}" python3 -m pytest ${@:-tests} --backend gpu -q -p no:warnings -p no:cacheprovider \
    -n "${GPU_WORKERS:-8}" --tb=short --maxfail=400 --no-header --durations=15 > "$OUT/tests.log" 2>&1
  grep -E "^(FAILED|ERROR)" "$OUT/tests.log" | head -60
  tail -n 3 "$OUT/tests.log"
  # on the GPU host pytest has hung after the last test (xdist teardown) until the time limit, with no
  # summary line: count the progress characters instead
  if ! grep -qE "[0-9]+ passed" "$OUT/tests.log"; then
    progress=$(grep -E "^[.sxXFE]+ *\[ *[0-9]+%\]|^[.sxXFE]+\s*$" "$OUT/tests.log" | sed 's/\[.*//')
    for c in . s x X F E; do printf "%s=%s " "$c" "$(printf "%s" "$progress" | tr -cd "$c" | wc -c)"; done
    echo "(progress characters: . passed, s skipped, x xfailed, X xpassed, F failed, E error)"
  fi
fi
if [ -n "${PROFILE:-}" ]; then
  python3 benchmarks/profile_seed.py --rows 1e7 2>&1 | tee "$OUT/profile.txt"
fi
if [ -n "${BENCH_WORKLOADS:-}" ]; then
  timeout "${BENCH_TIMEOUT:-300}" python3 -m ember bench --device gpu --no-progress --workloads "$BENCH_WORKLOADS" \
    --rows "${BENCH_ROWS:-1e7}" --libraries "${BENCH_LIBS:-ember,cupy,pandas,numpy}" --runs "${BENCH_RUNS:-3}" \
    --json "$OUT/bench.json" --out "$OUT" 2>&1 | tail -n 80
fi
tar czf "$OUT/cupy-cache.tgz" -C "$CUPY_CACHE_DIR" . 2>/dev/null && ls -la "$OUT/cupy-cache.tgz"

#!/usr/bin/env bash
# On a GPU host: the benchmark scripts beyond `ember bench` (groupby profile, IO, time series, ML, demo),
# each under its own time limit, all output in $OUT/bench-extra.txt.
# Usage: scripts/gpu-bench.sh [step ...]   steps: profile profile_csv profile_parquet io ml_linear ml_models timeseries demo dask
# (default: all but dask, which needs minutes of data generation at its 1e8 rows: name it)
set -uo pipefail
source "$(dirname "$0")/gpu-env.sh"
LOG="$OUT/bench-extra.txt"
LIMIT=${STEP_TIMEOUT:-120}
step() {  # step NAME COMMAND...: run with a limit, log it, keep going on failure
  local name=$1
  shift
  echo "=== $name: $*" | tee -a "$LOG"
  local t0=$SECONDS
  timeout "$LIMIT" "$@" 2>&1 | grep -v -i "warning" | tee -a "$LOG" | tail -n 40
  echo "=== $name: rc=${PIPESTATUS[0]} in $((SECONDS - t0)) s" | tee -a "$LOG"
}
for s in ${@:-profile io ml_linear ml_models timeseries demo}; do
  case $s in
    profile) step profile python3 benchmarks/profile_groupby.py --queries 2,3,5,10 ;;
    profile_csv) step profile_csv python3 benchmarks/profile_csv.py --rows "${IO_ROWS:-10000000}" ;;
    profile_parquet) step profile_parquet python3 benchmarks/profile_parquet.py --rows "${IO_ROWS:-10000000}" --variants ;;
    io) step io python3 benchmarks/io_workloads.py --rows "${IO_ROWS:-10000000}" ;;
    timeseries) step timeseries python3 benchmarks/timeseries.py --rows "${TS_ROWS:-100000000}" --asof-rows 10000000 --string-rows 10000000 --repeat "${TS_REPEAT:-3}" ;;
    ml_linear) step ml_linear python3 benchmarks/ml_linear.py --no-sklearn --only "${ML_LINEAR_ONLY:-hashing,tfidf,logreg_tfidf,logreg_dense,linreg,ridge}" ;;
    ml_models) step ml_models python3 benchmarks/ml_models.py --no-sklearn --only rf,kmeans,pca,knn ;;
    dask) step dask python3 benchmarks/dask_overhead.py --rows "${DASK_ROWS:-1e8}" --spill-limit "${DASK_SPILL:-8GB}" ${DASK_ARGS:-} ;;
    demo) step demo python3 -m ember demo --no-progress --rows "${DEMO_ROWS:-200000}" --out /tmp/ember-demo ;;
    *) echo "unknown step $s" ;;
  esac
done
tar czf "$OUT/cupy-cache.tgz" -C "$CUPY_CACHE_DIR" . 2>/dev/null

// Moments of short row windows [start[i], end[i]) of a float64 column (NaN = missing), read directly:
// one thread per window, grid-stride. Neighbouring threads read overlapping windows, so the loads are
// served from L1/L2; the cost is O(window length) per row, which beats the prefix-sum path's many
// full-column passes for windows up to ~1k rows. Loader and NumPy reference: kernels/window.py and
// ember.backend.primitives.window_moments (same summation order, so the backends agree).
//
// Per window: the count of valid values, their sum, their mean (exactly the value when every valid
// value is equal, as pandas' online algorithm), the sum of squared deviations from that mean (a second
// pass over the window: no cancellation), min and max (NaN for a window with no valid value).
extern "C" __global__ void ember_window_moments(const double* v, const long long* start,
                                                const long long* end, long long n_windows,
                                                long long* nobs, double* total, double* mean,
                                                double* m2, double* vmin, double* vmax) {
    const double inf = __longlong_as_double(0x7ff0000000000000LL);
    const double nan = __longlong_as_double(0x7ff8000000000000LL);
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n_windows; i += stride) {
        const long long s = start[i], e = end[i];
        long long cnt = 0;
        double tot = 0.0, lo = inf, hi = -inf;
        for (long long j = s; j < e; ++j) {
            const double x = v[j];
            if (x == x) {
                ++cnt;
                tot += x;
                lo = fmin(lo, x);
                hi = fmax(hi, x);
            }
        }
        double mu = nan, ss = 0.0;
        if (cnt > 0) {
            if (lo == hi) {
                mu = lo;
            } else {
                mu = tot / (double)cnt;
                for (long long j = s; j < e; ++j) {
                    const double x = v[j];
                    if (x == x) {
                        const double d = x - mu;
                        ss = __fma_rn(d, d, ss);
                    }
                }
            }
        }
        nobs[i] = cnt;
        total[i] = tot;
        mean[i] = mu;
        m2[i] = ss;
        vmin[i] = cnt > 0 ? lo : nan;
        vmax[i] = cnt > 0 ? hi : nan;
    }
}

// The k smallest entries of every row of a dense matrix, ascending, ties by column index (k <= 16).
// Loader and NumPy reference: ember/backend/kernels/topk.py.
//
// Block (x, y) scans columns [y * chunk, (y + 1) * chunk) of rows x, x + gridDim.x, ...: each thread keeps
// a sorted list of its k best (value, column) pairs over the columns it strides through (four loads in
// flight at a time), the block's lists are merged pairwise in shared memory (log2(blockDim) rounds), and
// thread 0 writes the chunk's answer to output row (row * gridDim.y + y). Splitting long rows into chunks
// keeps every SM busy when there are few rows; the launcher merges the chunks' answers with a second
// launch. The matrix is read once. ``bias`` (optional, one value per column) is added to every entry as
// it is read. NaN ranks as +inf. Shared memory: blockDim * k * (sizeof(T) + 8) bytes.
#define EMBER_TOPK_MAX 16

template <typename T>
__device__ __forceinline__ bool ember_less(T a, long long ia, T b, long long ib) {
    return a < b || (a == b && ia < ib);
}

template <typename T>
__device__ __forceinline__ void ember_topk_insert(T v, long long j, int k, T* bv, long long* bi, T inf) {
    if (v != v) v = inf;
    if (!ember_less(v, j, bv[k - 1], bi[k - 1])) return;
    int p = k - 1;
    while (p > 0 && ember_less(v, j, bv[p - 1], bi[p - 1])) { bv[p] = bv[p - 1]; bi[p] = bi[p - 1]; --p; }
    bv[p] = v;
    bi[p] = j;
}

template <typename T>
__device__ void ember_row_topk(const T* d, const T* bias, long long n_rows, long long n_cols, long long chunk,
                               int k, T* out_v, long long* out_i, T inf) {
    extern __shared__ unsigned char ember_topk_smem[];
    T* sv = reinterpret_cast<T*>(ember_topk_smem);
    long long* si = reinterpret_cast<long long*>(sv + (long long)blockDim.x * k);
    const long long none = 0x7fffffffffffffffLL;
    const long long c0 = (long long)blockIdx.y * chunk;
    const long long c1 = c0 + chunk < n_cols ? c0 + chunk : n_cols;
    const long long step = blockDim.x;
    for (long long row = blockIdx.x; row < n_rows; row += gridDim.x) {
        const T* r = d + row * n_cols;
        T bv[EMBER_TOPK_MAX];
        long long bi[EMBER_TOPK_MAX];
        for (int q = 0; q < k; ++q) { bv[q] = inf; bi[q] = none; }
        long long j = c0 + threadIdx.x;
        for (; j + 3 * step < c1; j += 4 * step) {
            T v0 = r[j], v1 = r[j + step], v2 = r[j + 2 * step], v3 = r[j + 3 * step];
            if (bias) {
                v0 += bias[j]; v1 += bias[j + step]; v2 += bias[j + 2 * step]; v3 += bias[j + 3 * step];
            }
            ember_topk_insert(v0, j, k, bv, bi, inf);
            ember_topk_insert(v1, j + step, k, bv, bi, inf);
            ember_topk_insert(v2, j + 2 * step, k, bv, bi, inf);
            ember_topk_insert(v3, j + 3 * step, k, bv, bi, inf);
        }
        for (; j < c1; j += step) ember_topk_insert(bias ? r[j] + bias[j] : r[j], j, k, bv, bi, inf);
        T* mv = sv + (long long)threadIdx.x * k;
        long long* mi = si + (long long)threadIdx.x * k;
        for (int q = 0; q < k; ++q) { mv[q] = bv[q]; mi[q] = bi[q]; }
        __syncthreads();
        for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
            if (threadIdx.x < stride) {
                const T* ov = sv + (long long)(threadIdx.x + stride) * k;
                const long long* oi = si + (long long)(threadIdx.x + stride) * k;
                int a = 0, b = 0;
                for (int q = 0; q < k; ++q) {  // the k smallest of two sorted lists
                    if (ember_less(mv[a], mi[a], ov[b], oi[b])) { bv[q] = mv[a]; bi[q] = mi[a]; ++a; }
                    else { bv[q] = ov[b]; bi[q] = oi[b]; ++b; }
                }
                for (int q = 0; q < k; ++q) { mv[q] = bv[q]; mi[q] = bi[q]; }
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            const long long o = (row * gridDim.y + blockIdx.y) * k;
            for (int q = 0; q < k; ++q) { out_v[o + q] = sv[q]; out_i[o + q] = si[q]; }
        }
        __syncthreads();
    }
}

extern "C" __global__ void ember_row_topk_f64(const double* d, const double* bias, long long n_rows,
                                              long long n_cols, long long chunk, int k, double* out_v,
                                              long long* out_i) {
    ember_row_topk<double>(d, bias, n_rows, n_cols, chunk, k, out_v, out_i,
                           __longlong_as_double(0x7ff0000000000000LL));
}

extern "C" __global__ void ember_row_topk_f32(const float* d, const float* bias, long long n_rows,
                                              long long n_cols, long long chunk, int k, float* out_v,
                                              long long* out_i) {
    ember_row_topk<float>(d, bias, n_rows, n_cols, chunk, k, out_v, out_i, __int_as_float(0x7f800000));
}

// The first minimum of every row of (d + bias) and its value: NumPy's argmin (NaN counts as the minimum,
// its first occurrence wins). One warp per row, lanes striding the columns, a shuffle reduction: for the
// narrow rows of a distance-to-centers block (k ~ 100 columns), where a block per row would idle.
template <typename T>
__device__ __forceinline__ bool ember_argmin_better(T a, long long ia, T b, long long ib) {
    if (a != a) return b == b || ia < ib;
    if (b != b) return false;
    return a < b || (a == b && ia < ib);
}

template <typename T>
__device__ void ember_row_argmin(const T* d, const T* bias, long long n_rows, long long n_cols,
                                 long long* out_i, T* out_v, T inf) {
    const long long lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; row < n_rows; row += warps) {
        const T* r = d + row * n_cols;
        T best = inf;
        long long bi = 0x7fffffffffffffffLL;
        for (long long j = lane; j < n_cols; j += 32) {
            T v = bias ? r[j] + bias[j] : r[j];
            if (ember_argmin_better(v, j, best, bi)) { best = v; bi = j; }
        }
        for (int off = 16; off > 0; off >>= 1) {
            T ov = __shfl_down_sync(0xffffffffu, best, off);
            long long oi = __shfl_down_sync(0xffffffffu, bi, off);
            if (ember_argmin_better(ov, oi, best, bi)) { best = ov; bi = oi; }
        }
        if (lane == 0) {
            out_i[row] = bi == 0x7fffffffffffffffLL ? 0 : bi;  // a row of +inf: column 0, as NumPy
            out_v[row] = best;
        }
    }
}

extern "C" __global__ void ember_row_argmin_f64(const double* d, const double* bias, long long n_rows,
                                                long long n_cols, long long* out_i, double* out_v) {
    ember_row_argmin<double>(d, bias, n_rows, n_cols, out_i, out_v, __longlong_as_double(0x7ff0000000000000LL));
}

extern "C" __global__ void ember_row_argmin_f32(const float* d, const float* bias, long long n_rows,
                                                long long n_cols, long long* out_i, float* out_v) {
    ember_row_argmin<float>(d, bias, n_rows, n_cols, out_i, out_v, __int_as_float(0x7f800000));
}

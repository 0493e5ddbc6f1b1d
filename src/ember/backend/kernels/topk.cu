// The k smallest entries of every row of a dense matrix, ascending, ties by column index (k <= 16).
// Loader and NumPy reference: ember/backend/kernels/topk.py.
//
// One block per row (grid-stride over rows): each thread keeps a sorted list of its k best (value,
// column) pairs over the columns it strides through, the block's lists are merged pairwise in shared
// memory (log2(blockDim) rounds), and thread 0 writes the row's answer. The matrix is read once.
// NaN ranks as +inf. Shared memory: blockDim * k * (sizeof(T) + 8) bytes.
#define EMBER_TOPK_MAX 16

template <typename T>
__device__ __forceinline__ bool ember_less(T a, long long ia, T b, long long ib) {
    return a < b || (a == b && ia < ib);
}

template <typename T>
__device__ void ember_row_topk(const T* d, long long n_rows, long long n_cols, int k, T* out_v,
                               long long* out_i, T inf) {
    extern __shared__ unsigned char ember_topk_smem[];
    T* sv = reinterpret_cast<T*>(ember_topk_smem);
    long long* si = reinterpret_cast<long long*>(sv + (long long)blockDim.x * k);
    const long long none = 0x7fffffffffffffffLL;
    for (long long row = blockIdx.x; row < n_rows; row += gridDim.x) {
        const T* r = d + row * n_cols;
        T bv[EMBER_TOPK_MAX];
        long long bi[EMBER_TOPK_MAX];
        for (int q = 0; q < k; ++q) { bv[q] = inf; bi[q] = none; }
        for (long long j = threadIdx.x; j < n_cols; j += blockDim.x) {
            T v = r[j];
            if (v != v) v = inf;
            if (!ember_less(v, j, bv[k - 1], bi[k - 1])) continue;
            int p = k - 1;
            while (p > 0 && ember_less(v, j, bv[p - 1], bi[p - 1])) { bv[p] = bv[p - 1]; bi[p] = bi[p - 1]; --p; }
            bv[p] = v;
            bi[p] = j;
        }
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
            for (int q = 0; q < k; ++q) { out_v[row * k + q] = sv[q]; out_i[row * k + q] = si[q]; }
        }
        __syncthreads();
    }
}

extern "C" __global__ void ember_row_topk_f64(const double* d, long long n_rows, long long n_cols, int k,
                                              double* out_v, long long* out_i) {
    ember_row_topk<double>(d, n_rows, n_cols, k, out_v, out_i, __longlong_as_double(0x7ff0000000000000LL));
}

extern "C" __global__ void ember_row_topk_f32(const float* d, long long n_rows, long long n_cols, int k,
                                              float* out_v, long long* out_i) {
    ember_row_topk<float>(d, n_rows, n_cols, k, out_v, out_i, __int_as_float(0x7f800000));
}

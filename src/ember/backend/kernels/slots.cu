// Per-slot reductions straight from an integer key: the slot of row i is key[i] - lo, and a missing key
// (key_valid[i] == 0, or a slot outside [0, null_slot): a categorical's code -1) goes to null_slot, the
// last slot. No per-row group codes are written: a groupby over a small key range reads the key and the
// values once.
//
// The loader prepends the types: ember_key_t (the key's integer type), ember_val_t (double, long long or unsigned
// long long) and ember_acc_t (double, or unsigned long long for exact wrapping integer sums).
//
// Few slots: each block accumulates in shared memory and adds its partial results once per slot. Many
// slots: global atomics, one per warp when the warp's rows all fall in one slot (sorted keys). Every lane
// of a warp runs the same iterations (rows past n get slot -1), so the full-mask votes are safe.

#ifndef EMBER_SLOT_TYPES  // the loader defines the types; these defaults let the file compile alone
typedef long long ember_key_t;
typedef double ember_val_t;
typedef double ember_acc_t;
#endif

#define EMBER_FULL_MASK 0xffffffffu

__device__ __forceinline__ long long ember_slot(const ember_key_t* key, long long lo, const unsigned char* key_valid,
                                                long long null_slot, long long i) {
    long long s = (long long)key[i] - lo;
    if ((key_valid && !key_valid[i]) || s < 0 || s >= null_slot) s = null_slot;
    return s;
}

__device__ __forceinline__ bool ember_is_nan(double v) { return v != v; }
__device__ __forceinline__ bool ember_is_nan(long long) { return false; }
__device__ __forceinline__ bool ember_is_nan(unsigned long long) { return false; }

__device__ __forceinline__ double ember_shfl_xor(double v, int off) {
    return __shfl_xor_sync(EMBER_FULL_MASK, v, off);
}
__device__ __forceinline__ unsigned long long ember_shfl_xor(unsigned long long v, int off) {
    return __shfl_xor_sync(EMBER_FULL_MASK, v, off);
}

// Sums (ember_acc_t) and counts of the rows kept: valid (when given) and, with nan_missing, not NaN. Either
// output may be null (not computed).
extern "C" __global__ void ember_slot_sums(const ember_key_t* key, long long lo, const unsigned char* key_valid,
                                           const ember_val_t* values, const unsigned char* valid, int nan_missing,
                                           long long n, int nslots, int use_shared, ember_acc_t* sums,
                                           unsigned long long* counts) {
    extern __shared__ unsigned long long ember_smem[];
    ember_acc_t* ssum = sums ? (ember_acc_t*)ember_smem : 0;
    unsigned long long* scnt = counts ? ember_smem + (sums ? nslots : 0) : 0;
    if (use_shared) {
        for (int i = threadIdx.x; i < nslots; i += blockDim.x) {
            if (ssum) ssum[i] = (ember_acc_t)0;
            if (scnt) scnt[i] = 0ULL;
        }
        __syncthreads();
    }
    ember_acc_t* tsum = use_shared ? ssum : sums;
    unsigned long long* tcnt = use_shared ? scnt : counts;
    const long long null_slot = nslots - 1;
    const int lane = threadIdx.x & 31;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long base = ((long long)blockIdx.x * blockDim.x + threadIdx.x) - lane; base < n; base += stride) {
        const long long i = base + lane;
        long long s = -1;
        ember_acc_t v = (ember_acc_t)0;
        bool keep = false;
        if (i < n) {
            s = ember_slot(key, lo, key_valid, null_slot, i);
            const ember_val_t x = values[i];
            keep = (!valid || valid[i]) && !(nan_missing && ember_is_nan(x));
            if (keep) v = (ember_acc_t)x;
        }
        if (!use_shared) {
            const long long s0 = __shfl_sync(EMBER_FULL_MASK, s, 0);
            const unsigned kept = __ballot_sync(EMBER_FULL_MASK, keep);
            if (__all_sync(EMBER_FULL_MASK, s == s0 || s < 0)) {
                if (tsum)
                    for (int off = 16; off > 0; off >>= 1) v += ember_shfl_xor(v, off);
                if (lane == 0 && kept) {
                    if (tsum) atomicAdd(&tsum[s0], v);
                    if (tcnt) atomicAdd(&tcnt[s0], (unsigned long long)__popc(kept));
                }
                continue;
            }
        }
        if (keep) {
            if (tsum) atomicAdd(&tsum[s], v);
            if (tcnt) atomicAdd(&tcnt[s], 1ULL);
        }
    }
    if (use_shared) {
        __syncthreads();
        for (int i = threadIdx.x; i < nslots; i += blockDim.x) {
            if (ssum && ssum[i] != (ember_acc_t)0) atomicAdd(&sums[i], ssum[i]);
            if (scnt && scnt[i]) atomicAdd(&counts[i], scnt[i]);
        }
    }
}

// Rows per slot and each slot's first row (first must start at n or above).
extern "C" __global__ void ember_slot_rows(const ember_key_t* key, long long lo, const unsigned char* key_valid,
                                           long long n, int nslots, int use_shared, unsigned long long* counts,
                                           long long* first) {
    extern __shared__ unsigned long long ember_smem[];
    unsigned long long* scnt = ember_smem;
    long long* sfirst = (long long*)(ember_smem + nslots);
    if (use_shared) {
        for (int i = threadIdx.x; i < nslots; i += blockDim.x) {
            scnt[i] = 0ULL;
            sfirst[i] = n;
        }
        __syncthreads();
    }
    unsigned long long* tcnt = use_shared ? scnt : counts;
    long long* tfirst = use_shared ? sfirst : first;
    const long long null_slot = nslots - 1;
    const int lane = threadIdx.x & 31;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long base = ((long long)blockIdx.x * blockDim.x + threadIdx.x) - lane; base < n; base += stride) {
        const long long i = base + lane;
        const long long s = i < n ? ember_slot(key, lo, key_valid, null_slot, i) : -1;
        if (!use_shared) {
            const long long s0 = __shfl_sync(EMBER_FULL_MASK, s, 0);
            const unsigned in_range = __ballot_sync(EMBER_FULL_MASK, s >= 0);
            if (__all_sync(EMBER_FULL_MASK, s == s0 || s < 0)) {
                if (lane == 0) {  // lane 0 holds the warp's lowest row
                    atomicAdd(&tcnt[s0], (unsigned long long)__popc(in_range));
                    if (i < tfirst[s0]) atomicMin(&tfirst[s0], i);
                }
                continue;
            }
        }
        if (s >= 0) {
            atomicAdd(&tcnt[s], 1ULL);
            // a thread's rows ascend: once a slot's first row is known, most rows only read it
            if (i < tfirst[s]) atomicMin(&tfirst[s], i);
        }
    }
    if (use_shared) {
        __syncthreads();
        for (int i = threadIdx.x; i < nslots; i += blockDim.x) {
            if (scnt[i]) {
                atomicAdd(&counts[i], scnt[i]);
                atomicMin(&first[i], sfirst[i]);
            }
        }
    }
}

// A slot per distinct key, for keys too wide for key - lo: open addressing with linear probing in a table
// of capacity_mask + 1 (a power of two) entries, empty key = ~0. The key is a non-negative long long below
// span (keys relative to their minimum, or several keys combined); a row whose key is invalid or outside
// [0, span) gets the null slot, capacity_mask + 1. The first probe is the key's Fibonacci hash (its top
// bits after a multiply), so runs of consecutive keys spread over the table. An entry is 16 bytes: the
// key, then its first row (int, starting at n or above) and its row count (unsigned int), so a row's
// probe, count and first-row update touch one memory sector.
extern "C" __global__ void ember_hash_slots(const long long* key, const unsigned char* key_valid, long long n,
                                            long long span, unsigned long long capacity_mask, int hash_shift,
                                            unsigned long long* table, int* row_slot) {
    const unsigned long long empty = ~0ULL;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const long long k = key[i];
        unsigned long long h = capacity_mask + 1;
        if (!((key_valid && !key_valid[i]) || k < 0 || k >= span)) {
            const unsigned long long want = (unsigned long long)k;
            h = (want * 0x9E3779B97F4A7C15ULL) >> hash_shift;
            while (true) {
                unsigned long long held = table[2 * h];
                if (held == empty) held = atomicCAS(&table[2 * h], empty, want);
                if (held == empty || held == want) break;
                h = (h + 1) & capacity_mask;
            }
        }
        row_slot[i] = (int)h;
        int* first = (int*)&table[2 * h + 1];
        atomicAdd((unsigned int*)first + 1, 1u);
        if ((int)i < *first) atomicMin(first, (int)i);
    }
}

// The least and greatest valid key, one pass: out[0] = min, out[1] = max as long long (unsigned long long
// for unsigned keys, through ember_minmax_t), initialized by the caller to (greatest, least) of the type.
#ifndef EMBER_MINMAX_TYPE
typedef long long ember_minmax_t;
#endif
extern "C" __global__ void ember_key_min_max(const ember_key_t* key, const unsigned char* key_valid, long long n,
                                             ember_minmax_t* out) {
    ember_minmax_t lo = out[0], hi = out[1];
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        if (key_valid && !key_valid[i]) continue;
        const ember_minmax_t v = (ember_minmax_t)key[i];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    for (int off = 16; off > 0; off >>= 1) {
        const ember_minmax_t olo = __shfl_xor_sync(EMBER_FULL_MASK, lo, off);
        const ember_minmax_t ohi = __shfl_xor_sync(EMBER_FULL_MASK, hi, off);
        lo = olo < lo ? olo : lo;
        hi = ohi > hi ? ohi : hi;
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMin(&out[0], lo);
        atomicMax(&out[1], hi);
    }
}

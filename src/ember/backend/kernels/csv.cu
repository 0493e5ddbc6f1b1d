// CSV tokenizer and value parser kernels (reference: ember/io/csv_reference.py).
//
// The buffer is cut into CSV_CHUNK-byte chunks, one thread each:
//   csv_count_quotes      quote bytes per chunk                -> exclusive scan on the host side (CuPy)
//   csv_count_boundaries  separators/newlines outside quotes   -> exclusive scan
//   csv_write_boundaries  their positions and newline flags, in order
// csv_parse_fields then handles one field per thread: outer quotes stripped, NA/bool words matched,
// integers parsed exactly, floats exactly on Clinger's fast path (<= 15 digits, |power of ten| <= 22),
// everything else flagged for the exact host fallback.

#define CSV_CHUNK 64
#define QUOTE 34
#define NEWLINE 10

#define F_NA 1
#define F_INT 2
#define F_FLOAT 4
#define F_TRUE 8
#define F_FALSE 16
#define F_SLOW 32
#define F_LONGINT 64
#define F_INF 128

__device__ __forceinline__ unsigned long long csv_load8(const unsigned char* buf, long long pos, long long n) {
    // bytes [pos, pos + 8) little-endian; zero beyond n (zero never matches a quote, separator or newline)
    if (pos + 8 <= n) {
        return *reinterpret_cast<const unsigned long long*>(buf + pos);
    }
    unsigned long long v = 0ULL;
    for (int k = 0; k < 8 && pos + k < n; ++k) {
        v |= ((unsigned long long)buf[pos + k]) << (8 * k);
    }
    return v;
}

extern "C" __global__ void csv_count_quotes(const unsigned char* buf, long long n, long long first_chunk,
                                            long long nchunks, int* counts) {
    // chunks [first_chunk, first_chunk + nchunks) of a buffer of n valid bytes (buf 8-byte aligned)
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nchunks) return;
    long long chunk = first_chunk + t;
    long long base = chunk * CSV_CHUNK;
    int c = 0;
    #pragma unroll
    for (int w = 0; w < CSV_CHUNK; w += 8) {
        unsigned long long v = csv_load8(buf, base + w, n);
        #pragma unroll
        for (int k = 0; k < 8; ++k) {
            c += (int)(((v >> (8 * k)) & 0xFFULL) == QUOTE);
        }
    }
    counts[chunk] = c;
}

extern "C" __global__ void csv_count_boundaries(const unsigned char* buf, long long n, int sep,
                                                const long long* quotes_before, long long nchunks, int* counts) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nchunks) return;
    long long base = t * CSV_CHUNK;
    int inside = (int)(quotes_before[t] & 1LL);
    int c = 0;
    for (int w = 0; w < CSV_CHUNK; w += 8) {
        unsigned long long v = csv_load8(buf, base + w, n);
        for (int k = 0; k < 8; ++k) {
            int b = (int)((v >> (8 * k)) & 0xFFULL);
            if (b == QUOTE) {
                inside ^= 1;
            } else if (!inside && (b == sep || b == NEWLINE)) {
                ++c;
            }
        }
    }
    counts[t] = c;
}

extern "C" __global__ void csv_write_boundaries(const unsigned char* buf, long long n, int sep,
                                                const long long* quotes_before, const long long* out_before,
                                                long long nchunks, long long* pos, unsigned char* is_nl) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nchunks) return;
    long long base = t * CSV_CHUNK;
    int inside = (int)(quotes_before[t] & 1LL);
    long long o = out_before[t];
    for (int w = 0; w < CSV_CHUNK; w += 8) {
        unsigned long long v = csv_load8(buf, base + w, n);
        for (int k = 0; k < 8; ++k) {
            int b = (int)((v >> (8 * k)) & 0xFFULL);
            if (b == QUOTE) {
                inside ^= 1;
            } else if (!inside && (b == sep || b == NEWLINE)) {
                pos[o] = base + w + k;
                is_nl[o] = (unsigned char)(b == NEWLINE);
                ++o;
            }
        }
    }
}

__device__ const double CSV_P10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

__device__ __forceinline__ int csv_lower(int c) {
    return (c >= 65 && c <= 90) ? c + 32 : c;
}

__device__ bool csv_is_inf(const unsigned char* buf, long long s, long long e) {
    // inf / infinity with an optional sign, ASCII case-insensitive
    if (s < e && (buf[s] == 43 || buf[s] == 45)) ++s;
    long long len = e - s;
    const char* word = "infinity";
    if (len != 3 && len != 8) return false;
    for (long long k = 0; k < len; ++k) {
        if (csv_lower(buf[s + k]) != word[k]) return false;
    }
    return true;
}

extern "C" __global__ void csv_parse_fields(const unsigned char* buf, const long long* starts,
                                            const long long* ends, long long m,
                                            const unsigned char* words, const int* word_offsets,
                                            const unsigned char* word_flags, int nwords,
                                            long long* ival, double* fval, unsigned char* flags) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    long long s = starts[i];
    long long e = ends[i];
    if (e - s >= 2 && buf[s] == QUOTE && buf[e - 1] == QUOTE) {
        ++s;
        --e;
    }
    long long len = e - s;
    int f = 0;
    for (int w = 0; w < nwords; ++w) {
        int ws = word_offsets[w];
        int wl = word_offsets[w + 1] - ws;
        if (wl != len) continue;
        bool eq = true;
        for (int k = 0; k < wl; ++k) {
            if (buf[s + k] != words[ws + k]) {
                eq = false;
                break;
            }
        }
        if (eq) f |= word_flags[w];
    }
    // numbers: [sign] digits [. digits] [e [sign] digits]
    long long p = s;
    bool neg = false;
    if (p < e && (buf[p] == 43 || buf[p] == 45)) {
        neg = buf[p] == 45;
        ++p;
    }
    long long mant = 0;
    int nd = 0;
    int frac = 0;
    bool dot = false;
    for (; p < e; ++p) {
        int c = buf[p];
        if (c >= 48 && c <= 57) {
            if (nd < 18) mant = mant * 10 + (c - 48);
            ++nd;
            if (dot) ++frac;
        } else if (c == 46 && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    bool has_e = false;
    int expv = 0;
    int ned = 0;
    if (p < e && (buf[p] == 101 || buf[p] == 69)) {
        has_e = true;
        ++p;
        bool eneg = false;
        if (p < e && (buf[p] == 43 || buf[p] == 45)) {
            eneg = buf[p] == 45;
            ++p;
        }
        for (; p < e && buf[p] >= 48 && buf[p] <= 57; ++p) {
            if (ned < 5) expv = expv * 10 + (buf[p] - 48);
            ++ned;
        }
        if (eneg) expv = -expv;
    }
    bool number = (p == e) && nd >= 1 && (!has_e || ned >= 1);
    long long iv = 0;
    double fv = 0.0;
    if (number) {
        f |= F_FLOAT;
        if (!dot && !has_e) {
            if (nd <= 18) {
                f |= F_INT;
                iv = neg ? -mant : mant;
                fv = (double)iv;
            } else {
                f |= F_LONGINT | F_SLOW;
            }
        } else {
            int power = expv - frac;
            int apower = power < 0 ? -power : power;
            if (nd <= 15 && apower <= 22 && ned <= 4) {
                double mag = (double)mant;
                fv = power >= 0 ? mag * CSV_P10[apower] : mag / CSV_P10[apower];
                if (neg) fv = -fv;
            } else {
                f |= F_SLOW;
            }
        }
    } else if (csv_is_inf(buf, s, e)) {
        f |= F_INF;
        fv = (s < e && buf[s] == 45) ? -__longlong_as_double(0x7FF0000000000000LL)
                                     : __longlong_as_double(0x7FF0000000000000LL);
    }
    ival[i] = iv;
    fval[i] = fv;
    flags[i] = (unsigned char)f;
}

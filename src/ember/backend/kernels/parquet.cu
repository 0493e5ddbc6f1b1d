// Parquet dictionary indices (the RLE / bit-packed hybrid) decoded on the device, one block per page.
//
// Thread 0 walks the page's run headers (varints: sequential by nature); the block's threads then write
// the run's values together: a repeated value, or up to 8 x 63 bit-packed values, each read from the
// five bytes that hold its <= 32 bits. Reads never pass ``data_len``: a corrupt page sets ``error``
// (1: a run header or value past the data, 2: a bit width above 32, 3: an index past the dictionary)
// and stops its block (an index past the dictionary is only flagged: the caller raises).

extern "C" __global__ void ember_parquet_rle_indices(const unsigned char* data, long long data_len,
                                                     const long long* values_at, const long long* count,
                                                     const long long* out_start, long long dict_size,
                                                     int* out, int* error) {
    __shared__ long long s_bits_at, s_take;
    __shared__ int s_packed, s_width, s_stop;
    __shared__ unsigned int s_value;
    const int page = blockIdx.x;
    long long pos = values_at[page], left = count[page], o = out_start[page];
    if (threadIdx.x == 0) {
        s_stop = 0;
        if (pos >= data_len) { s_stop = 1; atomicExch(error, 1); }
        else { s_width = data[pos]; if (s_width > 32) { s_stop = 1; atomicExch(error, 2); } }
    }
    __syncthreads();
    if (s_stop) return;
    pos += 1;
    while (left > 0) {
        if (threadIdx.x == 0) {
            unsigned long long header = 0;
            int shift = 0;
            bool ok = true;
            while (true) {  // the run header: a varint
                if (pos >= data_len || shift > 63) { ok = false; break; }
                const unsigned char b = data[pos++];
                header |= (unsigned long long)(b & 0x7F) << shift;
                if (b < 0x80) break;
                shift += 7;
            }
            const int width = s_width;
            s_packed = (int)(header & 1);
            const long long n = s_packed ? (long long)(header >> 1) * 8 : (long long)(header >> 1);
            s_take = n < left ? n : left;
            if (s_packed) {
                s_bits_at = pos * 8;
                pos += (long long)(header >> 1) * width;
                if (pos > data_len) ok = false;
            } else {
                const int nbytes = (width + 7) / 8;
                unsigned int v = 0;
                for (int k = 0; k < nbytes; ++k) {
                    if (pos + k >= data_len) { ok = false; break; }
                    v |= (unsigned int)data[pos + k] << (8 * k);
                }
                s_value = v;
                pos += nbytes;
            }
            if (!ok || n == 0) { s_stop = 1; if (!ok) atomicExch(error, 1); }
        }
        __syncthreads();
        if (s_stop) {
            if (left > 0 && threadIdx.x == 0 && s_take == 0) atomicExch(error, 1);  // runs end too early
            return;
        }
        const long long take = s_take;
        if (s_packed) {
            const int width = s_width;
            const unsigned long long mask = width == 32 ? 0xffffffffULL : ((1ULL << width) - 1);
            for (long long i = threadIdx.x; i < take; i += blockDim.x) {
                const long long bit = s_bits_at + i * width;
                const long long byte = bit >> 3;
                unsigned long long window = 0;
                for (int k = 0; k < 5; ++k) {
                    if (byte + k < data_len) window |= (unsigned long long)data[byte + k] << (8 * k);
                }
                const unsigned long long v = (window >> (bit & 7)) & mask;
                if (v >= (unsigned long long)dict_size) atomicExch(error, 3);
                out[o + i] = (int)v;
            }
        } else {
            const int v = (int)s_value;
            if (threadIdx.x == 0 && (unsigned long long)s_value >= (unsigned long long)dict_size) atomicExch(error, 3);
            for (long long i = threadIdx.x; i < take; i += blockDim.x) out[o + i] = v;
        }
        o += take;
        left -= take;
        __syncthreads();  // thread 0 overwrites the shared run facts next
    }
}

// Parquet pages on the device: page headers walked, pages decompressed, dictionary indices decoded
// and PLAIN values copied into place. Error codes (the launcher raises): 1 a run header or value past
// its page, 2 a bit width above 32, 3 an index past the dictionary, 10 a corrupt page header, 11 a
// corrupt compressed page, 12 PLAIN values past their page.

// ---- dictionary indices (the RLE / bit-packed hybrid), one block per page ------------------------
//
// Thread 0 walks the page's run headers (varints: sequential by nature); the block's threads then write
// the run's values together: a repeated value, or up to 8 x 63 bit-packed values, each read from the
// five bytes that hold its <= 32 bits. Reads never pass the page's end: a corrupt page sets ``error``
// and stops its block (an index past the dictionary is only flagged). Each index is written plus its
// page's ``dict_base`` (the page's dictionary's place among several laid end to end). ``widths[p]``
// >= 0: the runs' bit width, with no width byte before them (definition levels); < 0: read it.

extern "C" __global__ void ember_parquet_rle_indices(const unsigned char* data, const long long* values_at,
                                                     const long long* values_end, const long long* count,
                                                     const long long* out_start, const long long* dict_base,
                                                     const long long* dict_sizes, const long long* widths,
                                                     int* out, int* error) {
    __shared__ long long s_bits_at, s_take;
    __shared__ int s_packed, s_width, s_stop;
    __shared__ unsigned int s_value;
    const int page = blockIdx.x;
    long long pos = values_at[page], left = count[page], o = out_start[page];
    const long long data_len = values_end[page], dict_size = dict_sizes[page], fixed = widths[page];
    const int base = (int)dict_base[page];
    if (left <= 0) return;  // nothing to decode (a page of nulls): its data is not read
    if (threadIdx.x == 0) {
        s_stop = 0;
        if (fixed >= 0) {  // a known width (definition levels): no width byte before the runs
            s_width = (int)fixed;
            if (fixed > 32) { s_stop = 1; atomicExch(error, 2); }
        } else if (pos >= data_len) { s_stop = 1; atomicExch(error, 1); }
        else { s_width = data[pos]; if (s_width > 32) { s_stop = 1; atomicExch(error, 2); } }
    }
    __syncthreads();
    if (s_stop) return;
    if (fixed < 0) pos += 1;
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
                out[o + i] = base + (int)v;
            }
        } else {
            const int v = base + (int)s_value;
            if (threadIdx.x == 0 && (unsigned long long)s_value >= (unsigned long long)dict_size) atomicExch(error, 3);
            for (long long i = threadIdx.x; i < take; i += blockDim.x) out[o + i] = v;
        }
        o += take;
        left -= take;
        __syncthreads();  // thread 0 overwrites the shared run facts next
    }
}

// ---- page headers: Thrift compact protocol, one thread per column chunk ---------------------------
//
// A chunk's data pages follow each other: each header says how long its page is, so a chunk is walked
// by one thread (tens of pages); chunks are independent. The walk runs twice: counting pages
// per chunk, then filling the page table at offsets the host computed.

#define EMBER_PQ_FIELDS 8  // kind, encoding, num_values, in_at, in_size, out_size, levels, compressed

struct PqCursor {
    const unsigned char* buf;
    long long pos, end;
    bool ok;
};

__device__ __forceinline__ int pq_byte(PqCursor& c) {
    if (c.pos >= c.end) { c.ok = false; return 0; }
    return c.buf[c.pos++];
}

__device__ unsigned long long pq_varint(PqCursor& c) {
    unsigned long long out = 0;
    for (int shift = 0; shift < 70 && c.ok; shift += 7) {
        const int b = pq_byte(c);
        out |= (unsigned long long)(b & 0x7F) << shift;
        if (b < 0x80) return out;
    }
    c.ok = false;
    return 0;
}

__device__ __forceinline__ long long pq_zigzag(PqCursor& c) {
    const unsigned long long v = pq_varint(c);
    return (long long)(v >> 1) ^ -(long long)(v & 1);
}

__device__ void pq_skip(PqCursor& c, int type, int depth);

__device__ void pq_skip_struct(PqCursor& c, int depth) {
    if (depth > 16) { c.ok = false; return; }
    while (c.ok) {
        const int head = pq_byte(c);
        const int type = head & 0x0F;
        if (type == 0) return;
        if ((head >> 4) == 0) pq_zigzag(c);
        pq_skip(c, type, depth + 1);
    }
}

// skip one value of a compact type (1/2: a struct field's bool, held in its type nibble)
__device__ void pq_skip(PqCursor& c, int type, int depth) {
    if (depth > 16) { c.ok = false; return; }
    switch (type) {
        case 1: case 2: return;
        case 3: pq_byte(c); return;
        case 4: case 5: case 6: pq_varint(c); return;
        case 7: c.pos += 8; if (c.pos > c.end) c.ok = false; return;
        case 8: { const long long n = (long long)pq_varint(c); c.pos += n; if (n < 0 || c.pos > c.end) c.ok = false; return; }
        case 9: case 10: {
            const int head = pq_byte(c);
            long long n = head >> 4;
            const int elem = head & 0x0F;
            if (n == 15) n = (long long)pq_varint(c);
            for (long long i = 0; i < n && c.ok; ++i) {
                if (elem == 1 || elem == 2) pq_byte(c); else pq_skip(c, elem, depth + 1);
            }
            return;
        }
        case 11: {
            const long long n = (long long)pq_varint(c);
            const int kinds = n ? pq_byte(c) : 0;
            for (long long i = 0; i < n && c.ok; ++i) {
                pq_skip(c, kinds >> 4, depth + 1);
                pq_skip(c, kinds & 0x0F, depth + 1);
            }
            return;
        }
        case 12: pq_skip_struct(c, depth); return;
        default: c.ok = false;
    }
}

// the fields of a page's sub-header: data page v1 / dictionary page (1 num_values, 2 encoding) or
// data page v2 (1 num_values, 4 encoding, 5 / 6 definition / repetition level bytes, 7 is_compressed)
__device__ void pq_sub_header(PqCursor& c, bool v2, long long* f) {
    int last = 0;
    while (c.ok) {
        const int head = pq_byte(c);
        const int type = head & 0x0F;
        if (type == 0) return;
        const int delta = head >> 4;
        const int id = delta ? last + delta : (int)pq_zigzag(c);
        last = id;
        const bool integer = type == 5;
        if (id == 1 && integer) f[2] = pq_zigzag(c);
        else if (id == (v2 ? 4 : 2) && integer) f[1] = pq_zigzag(c);
        else if (v2 && (id == 5 || id == 6) && integer) f[6] += pq_zigzag(c);
        else if (v2 && id == 7 && (type == 1 || type == 2)) f[7] = type == 1;
        else pq_skip(c, type, 1);
    }
}

// one page header at c.pos: its fields in f (in_at: where the page's bytes start); c.pos past the page
__device__ void pq_page_header(PqCursor& c, long long* f) {
    for (int k = 0; k < EMBER_PQ_FIELDS; ++k) f[k] = 0;
    f[0] = -1;
    f[7] = 1;
    int last = 0;
    while (c.ok) {
        const int head = pq_byte(c);
        const int type = head & 0x0F;
        if (type == 0) break;
        const int delta = head >> 4;
        const int id = delta ? last + delta : (int)pq_zigzag(c);
        last = id;
        if (id == 1 && type == 5) f[0] = pq_zigzag(c);
        else if (id == 2 && type == 5) f[5] = pq_zigzag(c);
        else if (id == 3 && type == 5) f[4] = pq_zigzag(c);
        else if ((id == 5 || id == 7 || id == 8) && type == 12) pq_sub_header(c, id == 8, f);
        else pq_skip(c, type, 1);
    }
    f[3] = c.pos;
    if (f[4] < 0 || f[5] < 0 || f[6] < 0 || f[6] > f[4] || f[2] < 0) c.ok = false;
    c.pos += f[4];
    if (c.pos > c.end) c.ok = false;
}

extern "C" __global__ void ember_parquet_page_walk(const unsigned char* buf, const long long* chunk_at,
                                                   const long long* chunk_end, int chunks,
                                                   const long long* page_first, long long* page_count,
                                                   long long* table,
                                                   long long pages_total, int* error) {
    const int chunk = blockIdx.x * blockDim.x + threadIdx.x;
    if (chunk >= chunks) return;
    PqCursor c{buf, chunk_at[chunk], chunk_end[chunk], true};
    long long pages = 0, f[EMBER_PQ_FIELDS];
    while (c.pos < c.end) {
        pq_page_header(c, f);
        if (!c.ok) { atomicExch(error, 10); return; }
        if (page_first != nullptr) {
            const long long p = page_first[chunk] + pages;
            if (p >= pages_total) { atomicExch(error, 10); return; }
            for (int k = 0; k < EMBER_PQ_FIELDS; ++k) table[k * pages_total + p] = f[k];
        }
        pages += 1;
    }
    if (page_first == nullptr) page_count[chunk] = pages;
}

// ---- page decompression: one warp per page --------------------------------------------------------
//
// Snappy (raw, as Parquet stores it): a varint of the decompressed length, then elements, each a tag
// byte: a literal (its bytes follow) or a copy of earlier output (offset, length; an offset below the
// length repeats the last ``offset`` bytes). Lane 0 reads the tags (sequential by nature); the warp
// copies each element together, the overlapping copy as out[d + i] = out[d - offset + i % offset].
// ``raw[p]`` leading bytes are stored uncompressed (data page v2 levels). Codec 0 is a plain copy.
// After its page, lane 0 writes where the values start: after the levels (level_kind 1: a v1 page's
// 4-byte length and its levels; 2: v2's raw levels; 0: none) and where the page's bytes end.

// A warp copies ``len`` bytes, 256 at a time: lane l moves bytes l, l + 32, ... l + 224 of each stretch
// (every load coalesced across the warp), its eight loads issued before its stores (``dst`` and ``src``
// may be the same buffer), so long literals move at memory speed rather than one load's latency per
// 32 bytes. ``period`` > 0: an overlapping copy, byte i from src[i % period] (all written before).
__device__ __forceinline__ void pq_warp_copy(unsigned char* dst, const unsigned char* src, long long len,
                                             long long period, int lane) {
    for (long long base = 0; base < len; base += 256) {
        unsigned char held[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            const long long i = base + k * 32 + lane;
            held[k] = i < len ? src[period ? i % period : i] : 0;
        }
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            const long long i = base + k * 32 + lane;
            if (i < len) dst[i] = held[k];
        }
    }
}

extern "C" __global__ void ember_parquet_decompress(const unsigned char* buf, const long long* in_at,
                                                    const long long* in_size, const long long* raw,
                                                    const int* codec, const int* level_kind,
                                                    const long long* out_at, const long long* out_size,
                                                    unsigned char* out, long long* values_at,
                                                    long long* values_end, int* error) {
    const int page = blockIdx.x;
    const int lane = threadIdx.x;
    const unsigned char* src = buf + in_at[page];
    unsigned char* dst = out + out_at[page];
    const long long n_in = in_size[page], n_out = out_size[page], prefix = raw[page];
    bool ok = prefix <= n_in && prefix <= n_out;
    if (ok) {
        for (long long i = lane; i < prefix; i += 32) dst[i] = src[i];
    }
    if (ok && codec[page] == 0) {
        ok = n_in == n_out;
        if (ok) pq_warp_copy(dst + prefix, src + prefix, n_out - prefix, 0, lane);
    } else if (ok) {
        const unsigned char* s = src + prefix;
        unsigned char* d = dst + prefix;
        const long long sn = n_in - prefix, dn = n_out - prefix;
        long long pos = 0, op = 0;
        if (lane == 0) {  // the decompressed length
            unsigned long long length = 0;
            int shift = 0;
            while (true) {
                if (pos >= sn || shift > 35) { ok = false; break; }
                const unsigned char b = s[pos++];
                length |= (unsigned long long)(b & 0x7F) << shift;
                if (b < 0x80) break;
                shift += 7;
            }
            if ((long long)length != dn) ok = false;
        }
        ok = __shfl_sync(0xffffffffu, ok, 0);
        while (ok && op < dn) {
            long long len = 0, from = 0;  // from >= 0: literal at s[from]; < 0: copy at offset -from
            if (lane == 0) {
                if (pos >= sn) ok = false;
                else {
                    const int tag = s[pos++];
                    const int kind = tag & 3;
                    if (kind == 0) {
                        len = tag >> 2;
                        if (len >= 60) {
                            const int extra = (int)len - 59;
                            if (pos + extra > sn) { ok = false; len = 0; }
                            else {
                                len = 0;
                                for (int k = 0; k < extra; ++k) len |= (long long)s[pos + k] << (8 * k);
                                pos += extra;
                            }
                        }
                        len += 1;
                        from = pos;
                        pos += len;
                        if (pos > sn) ok = false;
                    } else {
                        long long offset = 0;
                        if (kind == 1) {
                            if (pos + 1 > sn) ok = false;
                            else { len = 4 + ((tag >> 2) & 7); offset = ((long long)(tag >> 5) << 8) | s[pos]; pos += 1; }
                        } else {
                            const int extra = kind == 2 ? 2 : 4;
                            if (pos + extra > sn) ok = false;
                            else {
                                len = (tag >> 2) + 1;
                                for (int k = 0; k < extra; ++k) offset |= (long long)s[pos + k] << (8 * k);
                                pos += extra;
                            }
                        }
                        if (offset == 0 || offset > op) ok = false;
                        from = -offset;
                    }
                    if (op + len > dn) ok = false;
                }
            }
            ok = __shfl_sync(0xffffffffu, ok, 0);
            len = __shfl_sync(0xffffffffu, len, 0);
            from = __shfl_sync(0xffffffffu, from, 0);
            if (!ok) break;
            if (from >= 0) {
                pq_warp_copy(d + op, s + from, len, 0, lane);
            } else {
                pq_warp_copy(d + op, d + op + from, len, -from < len ? -from : 0, lane);
            }
            __syncwarp();
            op += len;
        }
        if (lane == 0 && ok && pos != sn) ok = false;
    }
    __syncwarp();
    if (lane == 0) {
        long long at = 0;
        if (ok && level_kind[page] == 1) {
            if (n_out < 4) ok = false;
            else {
                const long long levels = (long long)dst[0] | ((long long)dst[1] << 8) | ((long long)dst[2] << 16) | ((long long)dst[3] << 24);
                at = 4 + levels;
            }
        } else if (level_kind[page] == 2) {
            at = prefix;
        }
        if (at > n_out) ok = false;
        if (!ok) atomicExch(error, 11);
        values_at[page] = out_at[page] + at;
        values_end[page] = out_at[page] + n_out;
    }
}

// ---- PLAIN fixed-width pages: a byte copy into place, one block per page --------------------------

extern "C" __global__ void ember_parquet_plain_copy(const unsigned char* data, const long long* values_at,
                                                    const long long* values_end, const long long* count,
                                                    const long long* out_start, int itemsize,
                                                    unsigned char* out, int* error) {
    const int page = blockIdx.x;
    const long long from = values_at[page], bytes = count[page] * itemsize;
    if (from + bytes > values_end[page]) {
        if (threadIdx.x == 0) atomicExch(error, 12);
        return;
    }
    unsigned char* to = out + out_start[page] * itemsize;
    for (long long i = threadIdx.x; i < bytes; i += blockDim.x) to[i] = data[from + i];
}

// ---- PLAIN byte arrays: where each value's bytes are, one thread per page ---------------------------
//
// A PLAIN BYTE_ARRAY page is (4-byte length, bytes) after (4-byte length, bytes): each length says
// where the next one is, so a page is walked by one thread; pages are independent. Value i of page p
// gets its first byte and length at out_start[p] + i. A length past the page sets error 12.

extern "C" __global__ void ember_parquet_byte_array_spans(const unsigned char* data, const long long* values_at,
                                                          const long long* values_end, const long long* count,
                                                          const long long* out_start, long long pages,
                                                          long long* starts, long long* lengths, int* error) {
    const long long page = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (page >= pages) return;
    long long pos = values_at[page];
    const long long end = values_end[page], n = count[page], o = out_start[page];
    for (long long i = 0; i < n; ++i) {
        if (pos + 4 > end) { atomicExch(error, 12); return; }
        const long long len = (long long)data[pos] | ((long long)data[pos + 1] << 8) |
                              ((long long)data[pos + 2] << 16) | ((long long)data[pos + 3] << 24);
        pos += 4;
        if (pos + len > end) { atomicExch(error, 12); return; }
        starts[o + i] = pos;
        lengths[o + i] = len;
        pos += len;
    }
}

// ISO 8601 parsing of a string column, one thread per row (grid-stride), each row's bytes read once
// from left to right. Loader: ember/backend/kernels/iso.py. NumPy reference: parse_iso in
// ember/ops/datetimes.py (a per-row cursor written as vectorized passes); the kernel walks the same
// cursor for one row, so every output is bit-identical to the reference, failed rows included:
//
//   YYYY-M[M][-D[D]][(T| )HH:MM[:SS[.f{1,9}]]][Z|(+|-)HH[:][M[M]]]
//
// The cursor's rules: once a row fails (ok false) no later field moves it, and every later field reads
// as 0; a field that fails its minimum width still keeps the digits it read (value and position).
//
// chars, offsets : Arrow layout, row i is chars[offsets[i] .. offsets[i+1])
// mask, has_mask : mask[i] true = valid row (read only when has_mask != 0); a null row fails at once
// days, nsod     : wall time as days since 1970-01-01 and nanoseconds into the day
// ok             : the row parsed and is a real date and time
// tzoff, has_tz  : the offset in seconds (+ east of UTC) and whether a 'Z' or an offset was present
// fcnt           : number of fraction digits read

struct IsoCursor {
    const unsigned char* chars;
    long long pos;
    long long end;
    bool ok;

    // The byte k past the cursor, 0 past the row's end.
    __device__ __forceinline__ int at(int k) const {
        const long long p = pos + k;
        return p < end ? (int)__ldg(chars + p) : 0;
    }

    // An expected byte (when `where`): consumed when present, else the row fails.
    __device__ __forceinline__ void lit(int b, bool where) {
        if (ok && where) {
            if (at(0) == b) ++pos;
            else ok = false;
        }
    }

    // Up to maxw digits (when `where` and the row is still good); fewer than minw fails the row.
    __device__ __forceinline__ long long num(int minw, int maxw, bool where, int* count) {
        long long v = 0;
        int cnt = 0;
        if (ok && where) {
            for (; cnt < maxw; ++cnt) {
                const int b = at(cnt);
                if (b < 48 || b > 57) break;
                v = v * 10 + (b - 48);
            }
            if (cnt < minw) ok = false;
            pos += cnt;
        }
        if (count) *count = cnt;
        return v;
    }
};

// Python's floor division for int64 (the divisor is positive here).
__device__ __forceinline__ long long iso_floordiv(long long a, long long b) {
    long long q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

__device__ __forceinline__ long long iso_clip(long long v, long long lo, long long hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

// Hinnant's days_from_civil, as ember.ops.datetimes.days_from_civil computes it.
__device__ __forceinline__ long long iso_days_from_civil(long long y, long long m, long long d) {
    y -= (m <= 2);
    const long long era = iso_floordiv(y, 400);
    const long long yoe = y - era * 400;
    const long long mp = m > 2 ? m - 3 : m + 9;
    const long long doy = iso_floordiv(153 * mp + 2, 5) + d - 1;
    const long long doe = yoe * 365 + iso_floordiv(yoe, 4) - iso_floordiv(yoe, 100) + doy;
    return era * 146097 + doe - 719468;
}

__device__ __forceinline__ bool iso_is_leap(long long y) {
    // y >= 0 here (a value read from digits), so C's remainder is Python's
    return ((y % 4 == 0) && (y % 100 != 0)) || (y % 400 == 0);
}

// m in 1..12: 31 for Jan Mar May Jul Aug Oct Dec, 30 for the others, February by the leap rule.
__device__ __forceinline__ long long iso_days_in_month(long long y, long long m) {
    if (m == 2) return iso_is_leap(y) ? 29 : 28;
    return 30 + ((m + (m >> 3)) & 1);
}

extern "C" __global__ void ember_parse_iso(const unsigned char* chars, const long long* offsets,
                                           const bool* mask, int has_mask, long long n,
                                           long long* days_out, long long* nsod_out, bool* ok_out,
                                           long long* tzoff_out,
                                           bool* has_tz_out, long long* fcnt_out) {
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        IsoCursor cur;
        cur.chars = chars;
        cur.pos = offsets[i];
        cur.end = offsets[i + 1];
        cur.ok = has_mask ? mask[i] : true;

        const long long y = cur.num(4, 4, true, nullptr);
        cur.lit(45, true);  // '-'
        const long long mo = cur.num(1, 2, true, nullptr);
        const bool has_day = cur.ok && cur.at(0) == 45;
        cur.lit(45, has_day);
        long long d = cur.num(1, 2, has_day, nullptr);
        if (!has_day) d = 1;
        const int sep = cur.at(0);
        const bool has_time = cur.ok && (sep == 84 || sep == 32) && cur.pos < cur.end;  // 'T' or ' '
        cur.pos += has_time;
        const long long hh = cur.num(2, 2, has_time, nullptr);
        cur.lit(58, has_time);  // ':'
        const long long mi = cur.num(2, 2, has_time, nullptr);
        // the reference does not gate these two on ok; only the cursor moves they allow matter, and
        // those are gated on ok inside lit/num
        const bool has_sec = has_time && cur.at(0) == 58;
        cur.lit(58, has_sec);
        const long long ss = cur.num(2, 2, has_sec, nullptr);
        const bool has_frac = has_sec && cur.at(0) == 46;  // '.'
        cur.lit(46, has_frac);
        int fcnt = 0;
        const long long frac = cur.num(1, 9, has_frac, &fcnt);

        // optional 'Z' or (+|-)HH[:][M[M]]
        const int tb = cur.at(0);
        const bool z = cur.ok && tb == 90;  // 'Z'
        cur.pos += z;
        const bool sign = cur.ok && (tb == 43 || tb == 45);  // '+' or '-'
        cur.pos += sign;
        const long long tzh = cur.num(2, 2, sign, nullptr);
        const bool colon = sign && cur.at(0) == 58;
        cur.pos += colon;
        const long long tzm = cur.num(0, 2, sign, nullptr);
        const long long tzoff = sign ? (tzh * 3600 + tzm * 60) * (tb == 45 ? -1 : 1) : 0;

        const bool parsed = cur.ok && cur.pos == cur.end;

        // _assemble: the year only of parsed rows, month and day clipped into the calendar; days and
        // the nanoseconds into the day apart (years outside 1677-2262 overflow int64 ns)
        const long long days =
            iso_days_from_civil(parsed ? y : 1970, iso_clip(mo, 1, 12), iso_clip(d, 1, 31));
        long long scale = 1;
        for (int k = fcnt; k < 9; ++k) scale *= 10LL;
        const long long nsod = ((hh * 60 + mi) * 60 + ss) * 1000000000LL + frac * scale;

        // _valid_date
        const bool valid = mo >= 1 && mo <= 12 && d >= 1 && hh < 24 && mi < 60 && ss < 60 &&
                           d <= iso_days_in_month(y, iso_clip(mo, 1, 12));

        days_out[i] = days;
        nsod_out[i] = nsod;
        ok_out[i] = parsed && valid;
        tzoff_out[i] = tzoff;
        has_tz_out[i] = z || sign;
        fcnt_out[i] = fcnt;
    }
}

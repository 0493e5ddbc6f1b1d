// ISO 8601 parsing of a string column, one thread per row (grid-stride), each row's bytes read once
// from left to right, with pandas' format="ISO8601" grammar (its vendored NumPy parser). Loader:
// ember/backend/kernels/iso.py. NumPy reference: parse_iso / _IsoParse in ember/ops/datetime_parse.py (the
// same grammar as vectorized passes); the two agree on every row's ok and, where ok, on every output.
//
//   [ws] YYYY [S M[M] [S D[D]]] | YYYYMMDD            S one of - / . and space, the same twice
//   then optionally (T|space) H[H] [[:]MM [[:]SS [.f{0,18}]]]    one-digit fields only with ':'
//   then optionally [ws] Z | (+|-)H[H][[:]M[M]] [ws]
//
// chars, offsets : Arrow layout, row i is chars[offsets[i] .. offsets[i+1])
// mask, has_mask : mask[i] true = valid row (read only when has_mask != 0); a null row fails at once
// days, nsod     : wall time as days since 1970-01-01 and nanoseconds into the day
// ok             : the row parsed and is a real date and time
// tzoff, has_tz  : the offset in seconds (+ east of UTC) and whether a 'Z' or an offset was present
// fcnt           : number of fraction digits kept (at most 9)
#define ISO_MAX_SPACES 8

struct IsoCursor {
    const unsigned char* chars;
    long long pos;
    long long end;

    // The byte k past the cursor, 0 past the row's end.
    __device__ __forceinline__ int at(int k) const {
        const long long p = pos + k;
        return p < end ? (int)__ldg(chars + p) : 0;
    }
    __device__ __forceinline__ static bool digit(int b) { return b >= 48 && b <= 57; }
    __device__ __forceinline__ static bool space(int b) { return b == 32 || (b >= 9 && b <= 13); }
    __device__ __forceinline__ void skip_spaces() {
        for (int k = 0; k < ISO_MAX_SPACES && space(at(0)); ++k) ++pos;
    }
    // A one- or two-digit field (first digit required, the second when two_needed); false on error.
    __device__ __forceinline__ bool field(bool two_needed, long long* v, bool* two) {
        const int b0 = at(0);
        if (!digit(b0)) return false;
        *v = b0 - 48;
        ++pos;
        const int b1 = at(0);
        *two = digit(b1);
        if (*two) {
            *v = *v * 10 + (b1 - 48);
            ++pos;
        }
        return *two || !two_needed;
    }
    // Two digits, else one (one required): the zone's hours and minutes; false on error.
    __device__ __forceinline__ bool offset_part(long long* v, int* count) {
        const int b0 = at(0), b1 = at(1);
        if (!digit(b0)) return false;
        if (digit(b1)) {
            *v = (b0 - 48) * 10 + (b1 - 48);
            *count = 2;
        } else {
            *v = b0 - 48;
            *count = 1;
        }
        pos += *count;
        return true;
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

// The row's parse; false on any error. Outputs are the fields read (defaults where absent).
__device__ bool iso_parse_row(IsoCursor& c, long long& y, long long& mo, long long& d, long long& hh,
                              long long& mi, long long& ss, long long& frac, int& fcnt, long long& tzoff,
                              bool& has_tz) {
    c.skip_spaces();
    for (int k = 0; k < 4; ++k) {
        const int b = c.at(k);
        if (!IsoCursor::digit(b)) return false;
        y = y * 10 + (b - 48);
    }
    c.pos += 4;
    if (c.pos == c.end) return true;  // the year alone
    int b = c.at(0);
    const int sep = (b == 45 || b == 47 || b == 46 || b == 32) ? b : 0;
    if (!sep && !IsoCursor::digit(b)) return false;
    if (sep) ++c.pos;
    bool two = false;
    if (!c.field(!sep, &mo, &two)) return false;
    if (c.pos == c.end) return sep != 0;  // YYYYMM is not a date
    if (sep) {
        if (c.at(0) != sep || c.pos + 1 >= c.end) return false;
        ++c.pos;
    }
    if (!c.field(!sep, &d, &two)) return false;
    if (c.pos == c.end) return true;  // a date alone
    b = c.at(0);
    if ((b != 84 && b != 32) || c.pos + 1 >= c.end) return false;  // 'T' or ' ', not last
    ++c.pos;
    bool two_h = false;
    if (!c.field(false, &hh, &two_h)) return false;
    if (c.pos == c.end) return two_h;  // an hour alone has two digits
    b = c.at(0);
    const bool has_hms = b == 58;  // ':'
    bool zone = false;
    if (has_hms) {
        ++c.pos;
        if (!IsoCursor::digit(c.at(0))) return false;
    } else if (!IsoCursor::digit(b)) {
        if (!two_h) return false;
        zone = true;
    }
    if (!zone) {
        if (!c.field(!has_hms, &mi, &two)) return false;
        if (c.pos == c.end) return true;
        b = c.at(0);
        const bool sec = (has_hms && b == 58) || (!has_hms && IsoCursor::digit(b));
        if (sec) {
            if (has_hms) {
                ++c.pos;
                if (!IsoCursor::digit(c.at(0))) return false;
            }
            if (!c.field(!has_hms, &ss, &two)) return false;
            if (c.at(0) == 46) {  // '.': up to 18 digits read (pandas reads to attoseconds), 9 kept
                ++c.pos;
                for (int k = 0; k < 18 && IsoCursor::digit(c.at(0)); ++k) {
                    if (k < 9) {
                        frac = frac * 10 + (c.at(0) - 48);
                        ++fcnt;
                    }
                    ++c.pos;
                }
            }
        }
    }
    // the zone: [ws] Z | (+|-)H[H][[:]M[M]] [ws], then the end
    c.skip_spaces();
    if (c.pos == c.end) return true;
    b = c.at(0);
    if (b == 90) {  // 'Z'
        ++c.pos;
        has_tz = true;
    } else if (b == 43 || b == 45) {  // '+' or '-'
        ++c.pos;
        has_tz = true;
        long long th = 0, tm = 0;
        int count = 0;
        if (!c.offset_part(&th, &count) || th >= 24) return false;
        if (c.pos < c.end) {
            if (c.at(0) == 58) ++c.pos;
            if (!c.offset_part(&tm, &count) || tm >= 60) return false;
        }
        tzoff = (th * 3600 + tm * 60) * (b == 45 ? -1 : 1);
    }
    c.skip_spaces();
    return c.pos == c.end;
}

extern "C" __global__ void ember_parse_iso(const unsigned char* chars, const long long* offsets,
                                           const bool* mask, int has_mask, long long n,
                                           long long* days_out, long long* nsod_out, bool* ok_out,
                                           long long* tzoff_out, bool* has_tz_out, long long* fcnt_out) {
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        IsoCursor c;
        c.chars = chars;
        c.pos = offsets[i];
        c.end = offsets[i + 1];
        long long y = 0, mo = 1, d = 1, hh = 0, mi = 0, ss = 0, frac = 0, tzoff = 0;
        int fcnt = 0;
        bool has_tz = false;
        const bool parsed = (!has_mask || mask[i]) &&
                            iso_parse_row(c, y, mo, d, hh, mi, ss, frac, fcnt, tzoff, has_tz);
        const bool valid = mo >= 1 && mo <= 12 && d >= 1 && hh < 24 && mi < 60 && ss < 60 &&
                           d <= iso_days_in_month(y, iso_clip(mo, 1, 12));
        long long scale = 1;
        for (int k = fcnt; k < 9; ++k) scale *= 10LL;
        days_out[i] = iso_days_from_civil(parsed ? y : 1970, iso_clip(mo, 1, 12), iso_clip(d, 1, 31));
        nsod_out[i] = ((hh * 60 + mi) * 60 + ss) * 1000000000LL + frac * scale;
        ok_out[i] = parsed && valid;
        tzoff_out[i] = tzoff;
        has_tz_out[i] = has_tz;
        fcnt_out[i] = fcnt;
    }
}

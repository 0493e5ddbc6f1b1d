// Regex matching on the device: a Glushkov automaton of at most 64 states run as a bit set, one thread
// per string (loader and NumPy reference: ember/backend/kernels/regex.py; compiler: ember/ops/regex.py).
//
// member[c]   : states whose character class holds the code point at character c (bit s = state s)
// offs[i]     : row i's characters are member[offs[i] .. offs[i+1])
// follow[s]   : states that may follow state s
// first/last  : states that may start / end a match
// start_anchor: 1 when a match must start at the row's first character (^, \A, re.match, fullmatch)
// end_mode    : 0 a match may end anywhere, 1 at the end or before a final newline ($), 2 only at the end
// found[i]    : in: the empty-match answer computed by the caller; out: whether the row matches
extern "C" __global__ void ember_regex_nfa64(const unsigned long long* member, const long long* offs,
                                             const unsigned long long* follow, unsigned long long first,
                                             unsigned long long last, int start_anchor, int end_mode,
                                             const bool* ends_nl, bool* found, long long n) {
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        if (found[i]) continue;
        const long long begin = offs[i];
        const long long len = offs[i + 1] - begin;
        unsigned long long state = 0ULL;
        bool hit = false;
        for (long long t = 0; t < len && !hit; ++t) {
            unsigned long long next = 0ULL;
            for (unsigned long long s = state; s; s &= s - 1) next |= follow[__ffsll((long long)s) - 1];
            if (!start_anchor || t == 0) next |= first;
            state = next & member[begin + t];
            if (state & last) {
                if (end_mode == 0) hit = true;
                else if (t == len - 1) hit = true;
                else if (end_mode == 1 && t == len - 2 && ends_nl[i]) hit = true;
            }
            if (state == 0ULL && start_anchor) break;  // an anchored match cannot start later
        }
        if (hit) found[i] = true;
    }
}

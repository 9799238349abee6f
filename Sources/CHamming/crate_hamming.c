#include "crate_hamming.h"

// Swift's default x86-64 target has no POPCNT, so `nonzeroBitCount` becomes a bit-twiddling
// sequence; tier 0 at 100 000 albums is ~70 M of these. Dispatch once on the CPU's features.
#if defined(__x86_64__)
__attribute__((target("popcnt")))
static int nearest_popcnt(const uint64_t *w, size_t count, const uint64_t *t) {
    int best = 256;
    for (size_t i = 0; i < count; i++, w += 4) {
        int d = __builtin_popcountll(w[0] ^ t[0]) + __builtin_popcountll(w[1] ^ t[1])
              + __builtin_popcountll(w[2] ^ t[2]) + __builtin_popcountll(w[3] ^ t[3]);
        if (d < best) best = d;
    }
    return best;
}
#endif

static int nearest_portable(const uint64_t *w, size_t count, const uint64_t *t) {
    int best = 256;
    for (size_t i = 0; i < count; i++, w += 4) {
        int d = __builtin_popcountll(w[0] ^ t[0]) + __builtin_popcountll(w[1] ^ t[1])
              + __builtin_popcountll(w[2] ^ t[2]) + __builtin_popcountll(w[3] ^ t[3]);
        if (d < best) best = d;
    }
    return best;
}

int crate_nearest256(const uint64_t *words, size_t count, const uint64_t *target) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("popcnt")) return nearest_popcnt(words, count, target);
#endif
    return nearest_portable(words, count, target);
}

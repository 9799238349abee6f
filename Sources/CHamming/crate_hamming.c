#include "crate_hamming.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Tier 0 at 100 000 albums is ~70 M comparisons of 256-bit hashes. Swift's default x86-64
// target has neither POPCNT, AVX2 nor AVX-512, so this loop lives in C with per-function targets and a
// dispatch on the CPU's features at run time.

static inline int before(int64_t id, int32_t distance, const crate_hit *other) {
    return distance < other->distance || (distance == other->distance && id < other->id);
}

void crate_top2_insert(crate_top2 *top, int64_t id, int32_t distance) {
    crate_hit hit = { id, distance };
    if (top->filled == 0 || before(id, distance, &top->best)) {
        top->second = top->best;
        top->best = hit;
        if (top->filled < 2) top->filled++;
    } else if (top->filled == 1 || before(id, distance, &top->second)) {
        top->second = hit;
        top->filled = 2;
    }
}

size_t crate_interleaved_words(size_t count) {
    return (count + 3) / 4 * 16;
}

void crate_interleave4(const uint64_t *hashes, size_t count, uint64_t *out) {
    size_t groups = (count + 3) / 4;
    for (size_t g = 0; g < groups; g++) {
        for (size_t lane = 0; lane < 4; lane++) {
            size_t h = g * 4 + lane < count ? g * 4 + lane : count - 1;  // Pad with a repeat.
            for (size_t w = 0; w < 4; w++) out[g * 16 + w * 4 + lane] = hashes[h * 4 + w];
        }
    }
}

// Scalar: one album against every photo hash, four at a time from the interleaved layout.
#define SCALAR_BODY                                                                     \
    for (size_t a = 0; a < count; a++) {                                                \
        const uint64_t *h = hashes + 4 * a;                                             \
        int best = 256;                                                                 \
        for (size_t g = 0; g < groups; g++) {                                           \
            const uint64_t *p = interleaved + 16 * g;                                   \
            for (int lane = 0; lane < 4; lane++) {                                      \
                int d = __builtin_popcountll(p[lane] ^ h[0])                            \
                      + __builtin_popcountll(p[4 + lane] ^ h[1])                        \
                      + __builtin_popcountll(p[8 + lane] ^ h[2])                        \
                      + __builtin_popcountll(p[12 + lane] ^ h[3]);                      \
                if (d < best) best = d;                                                 \
            }                                                                           \
        }                                                                               \
        crate_top2_insert(top, ids[a], best);                                           \
    }

static void scan_portable(const uint64_t *hashes, const int64_t *ids, size_t count,
                          const uint64_t *interleaved, size_t groups, crate_top2 *top) { SCALAR_BODY }

#if defined(__x86_64__)
__attribute__((target("popcnt")))
static void scan_popcnt(const uint64_t *hashes, const int64_t *ids, size_t count,
                        const uint64_t *interleaved, size_t groups, crate_top2 *top) { SCALAR_BODY }

// AVX2: per-byte popcounts by nibble lookup (Muła), summed over the four words, then
// `vpsadbw` gives the four hashes' distances in one register.
__attribute__((target("avx2")))
static void scan_avx2(const uint64_t *hashes, const int64_t *ids, size_t count,
                      const uint64_t *interleaved, size_t groups, crate_top2 *top) {
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                         0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    const __m256i zero = _mm256_setzero_si256();
    for (size_t a = 0; a < count; a++) {
        const uint64_t *h = hashes + 4 * a;
        const __m256i h0 = _mm256_set1_epi64x((long long)h[0]), h1 = _mm256_set1_epi64x((long long)h[1]);
        const __m256i h2 = _mm256_set1_epi64x((long long)h[2]), h3 = _mm256_set1_epi64x((long long)h[3]);
        __m256i best = _mm256_set1_epi32(256);
        const __m256i *p = (const __m256i *)interleaved;
        for (size_t g = 0; g < groups; g++, p += 4) {
            __m256i x0 = _mm256_xor_si256(_mm256_loadu_si256(p), h0);
            __m256i x1 = _mm256_xor_si256(_mm256_loadu_si256(p + 1), h1);
            __m256i x2 = _mm256_xor_si256(_mm256_loadu_si256(p + 2), h2);
            __m256i x3 = _mm256_xor_si256(_mm256_loadu_si256(p + 3), h3);
            __m256i c = _mm256_add_epi8(
                _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_and_si256(x0, low)),
                                _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(x0, 4), low))),
                _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_and_si256(x1, low)),
                                _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(x1, 4), low))));
            c = _mm256_add_epi8(c, _mm256_add_epi8(
                _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_and_si256(x2, low)),
                                _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(x2, 4), low))),
                _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_and_si256(x3, low)),
                                _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(x3, 4), low)))));
            // Each byte is ≤ 32; the sums per 64-bit lane are the four distances (≤ 256).
            best = _mm256_min_epu32(best, _mm256_sad_epu8(c, zero));
        }
        uint32_t lanes[8];
        _mm256_storeu_si256((__m256i *)lanes, best);
        uint32_t d = lanes[0];
        if (lanes[2] < d) d = lanes[2];
        if (lanes[4] < d) d = lanes[4];
        if (lanes[6] < d) d = lanes[6];
        crate_top2_insert(top, ids[a], (int32_t)d);
    }
}

// AVX-512 VPOPCNTDQ on 256-bit registers (AVX512VL): the CPU counts each 64-bit word's bits in
// one instruction, so a group of four photo hashes is 4 xors, 4 counts, 3 adds and a min — about
// a third of the nibble lookup's work. Zen 4 and Ice Lake onwards have it; the layout is the
// same as AVX2's.
__attribute__((target("avx2,avx512f,avx512vl,avx512vpopcntdq")))
static void scan_avx512(const uint64_t *hashes, const int64_t *ids, size_t count,
                        const uint64_t *interleaved, size_t groups, crate_top2 *top) {
    for (size_t a = 0; a < count; a++) {
        const uint64_t *h = hashes + 4 * a;
        const __m256i h0 = _mm256_set1_epi64x((long long)h[0]), h1 = _mm256_set1_epi64x((long long)h[1]);
        const __m256i h2 = _mm256_set1_epi64x((long long)h[2]), h3 = _mm256_set1_epi64x((long long)h[3]);
        __m256i best = _mm256_set1_epi64x(256);
        const __m256i *p = (const __m256i *)interleaved;
        for (size_t g = 0; g < groups; g++, p += 4) {
            __m256i c0 = _mm256_popcnt_epi64(_mm256_xor_si256(_mm256_loadu_si256(p), h0));
            __m256i c1 = _mm256_popcnt_epi64(_mm256_xor_si256(_mm256_loadu_si256(p + 1), h1));
            __m256i c2 = _mm256_popcnt_epi64(_mm256_xor_si256(_mm256_loadu_si256(p + 2), h2));
            __m256i c3 = _mm256_popcnt_epi64(_mm256_xor_si256(_mm256_loadu_si256(p + 3), h3));
            best = _mm256_min_epu64(best, _mm256_add_epi64(_mm256_add_epi64(c0, c1), _mm256_add_epi64(c2, c3)));
        }
        uint64_t lanes[4];
        _mm256_storeu_si256((__m256i *)lanes, best);
        uint64_t d = lanes[0];
        if (lanes[1] < d) d = lanes[1];
        if (lanes[2] < d) d = lanes[2];
        if (lanes[3] < d) d = lanes[3];
        crate_top2_insert(top, ids[a], (int32_t)d);
    }
}
#endif

int crate_top2_scan_using(int path, const uint64_t *hashes, const int64_t *ids, size_t count,
                          const uint64_t *interleaved, size_t groups, crate_top2 *top) {
#if defined(__x86_64__)
    if ((path == CRATE_SCAN_AUTO || path == CRATE_SCAN_AVX512) && __builtin_cpu_supports("avx512vpopcntdq")
        && __builtin_cpu_supports("avx512vl")) {
        scan_avx512(hashes, ids, count, interleaved, groups, top);
        return CRATE_SCAN_AVX512;
    }
    if ((path == CRATE_SCAN_AUTO || path == CRATE_SCAN_AVX2) && __builtin_cpu_supports("avx2")) {
        scan_avx2(hashes, ids, count, interleaved, groups, top);
        return CRATE_SCAN_AVX2;
    }
    if ((path == CRATE_SCAN_AUTO || path == CRATE_SCAN_POPCNT) && __builtin_cpu_supports("popcnt")) {
        scan_popcnt(hashes, ids, count, interleaved, groups, top);
        return CRATE_SCAN_POPCNT;
    }
#endif
    scan_portable(hashes, ids, count, interleaved, groups, top);
    return CRATE_SCAN_PORTABLE;
}

void crate_top2_scan(const uint64_t *hashes, const int64_t *ids, size_t count,
                     const uint64_t *interleaved, size_t groups, crate_top2 *top) {
    crate_top2_scan_using(CRATE_SCAN_AUTO, hashes, ids, count, interleaved, groups, top);
}

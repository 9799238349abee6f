#ifndef CRATE_HAMMING_H
#define CRATE_HAMMING_H
#include <stddef.h>
#include <stdint.h>

/// One album and its distance to the photo.
typedef struct {
    int64_t id;
    int32_t distance;
} crate_hit;

/// The two nearest albums so far, ordered by distance then id; `filled` is 0, 1 or 2.
typedef struct {
    crate_hit best;
    crate_hit second;
    int32_t filled;
} crate_top2;

/// Words needed by `crate_interleave4` for `count` hashes.
size_t crate_interleaved_words(size_t count);

/// Lays out `count` 256-bit hashes (4 words each) in groups of four, word-major within a group
/// (w0 of hashes 0–3, then w1 of hashes 0–3, …), the last group padded by repeating a hash.
/// This lets one AVX2 register hold the same word of four hashes.
void crate_interleave4(const uint64_t *hashes, size_t count, uint64_t *out);

/// Folds `count` albums (`hashes`: 4 words each, `ids`) into `top`: each album's distance is its
/// smallest Hamming distance to any photo hash (`groups` groups from `crate_interleave4`).
/// Uses AVX-512 VPOPCNTDQ, AVX2 or POPCNT when the CPU has them; the answer is the same either way.
void crate_top2_scan(const uint64_t *hashes, const int64_t *ids, size_t count,
                     const uint64_t *interleaved, size_t groups, crate_top2 *top);

/// Which loop runs: the CPU's best, or one forced (tests compare them).
enum { CRATE_SCAN_AUTO = 0, CRATE_SCAN_PORTABLE = 1, CRATE_SCAN_POPCNT = 2, CRATE_SCAN_AVX2 = 3, CRATE_SCAN_AVX512 = 4 };

/// `crate_top2_scan` with a chosen loop, falling back when the CPU lacks it; returns the one used.
int crate_top2_scan_using(int path, const uint64_t *hashes, const int64_t *ids, size_t count,
                          const uint64_t *interleaved, size_t groups, crate_top2 *top);

/// Inserts one album into `top` (the same order the scan uses).
void crate_top2_insert(crate_top2 *top, int64_t id, int32_t distance);

#endif

#ifndef CRATE_HAMMING_H
#define CRATE_HAMMING_H
#include <stddef.h>
#include <stdint.h>

/// Smallest Hamming distance between the 256-bit `target` (4 words) and any of `count` 256-bit
/// hashes stored as 4 consecutive words each. Uses the POPCNT instruction when the CPU has it.
int crate_nearest256(const uint64_t *words, size_t count, const uint64_t *target);

#endif

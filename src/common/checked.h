/* Overflow-checked arithmetic for sizes: every "count times width" product that becomes an
 * allocation size or a byte count goes through here, so that a huge element count (from a
 * config, --profile or a CSV) is refused instead of wrapping to a small number and
 * corrupting memory ((size_t)2^62 * sizeof(float) == 0 on a 64-bit machine). */
#ifndef FB_COMMON_CHECKED_H
#define FB_COMMON_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* *out = a * b. Returns true when the product fits, false (and *out = SIZE_MAX) when it
 * overflows. */
static inline bool fb_mul_size(size_t a, size_t b, size_t *out)
{
    if (__builtin_mul_overflow(a, b, out)) {
        *out = SIZE_MAX;
        return false;
    }
    return true;
}

/* The same for uint64_t byte counts. */
static inline bool fb_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (__builtin_mul_overflow(a, b, out)) {
        *out = UINT64_MAX;
        return false;
    }
    return true;
}

/* a * b, or UINT64_MAX when the product does not fit: for sums and comparisons against a
 * memory size, where "too big" is the right answer to an overflow. */
static inline uint64_t fb_mul_u64_saturating(uint64_t a, uint64_t b)
{
    uint64_t r;
    (void)fb_mul_u64(a, b, &r);
    return r;
}

#endif

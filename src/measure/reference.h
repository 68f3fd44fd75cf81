/* The host-side truth a measured point is checked against before it is timed. */
#ifndef FB_MEASURE_REFERENCE_H
#define FB_MEASURE_REFERENCE_H

#include <stdint.h>

#include "plan/variants.h"

/* Computes variant v on the host, one plain single-threaded loop per step, into out
 * (tmp is scratch for chains that need it, may be NULL otherwise). */
void fb_reference_run(const struct fb_variant *v, const float *a, const float *b, float *tmp,
                      float *out, int64_t n);

/* Index of the first element of got that does not match want under the contract of
 * kernels/elementwise_contract.h (fb_result_matches: the same bits, except that any NaN
 * matches a NaN); -1 when all match. */
int64_t fb_first_mismatch(const float *got, const float *want, int64_t n);

/* Fills x[0..n) with values uniform in [-1, 1), a pure function of (seed, i), computed in
 * parallel (counter-based: splitmix64 of seed + i). Half the sums a + b are negative, so relu
 * has real work on both sides. */
void fb_fill_random(float *x, int64_t n, uint64_t seed);

#endif

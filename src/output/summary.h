/* The terminal summary printed after a sweep: per size, every variant that has a pair (an
 * eager variant and its fused one; the generic fused kernel and the handwritten one) with
 * both times, the speedup and copy fraction as the records hold them (computed once, in
 * measure/pairing.c: never recomputed here), launches per call, and the copy ceiling's
 * bandwidth (its row found by role). Formatting only. */
#ifndef FB_OUTPUT_SUMMARY_H
#define FB_OUTPUT_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "measure/fit.h"
#include "measure/record.h"

/* Prints one line per size and paired variant found in records (rows with status ok, and
 * noisy ones marked '*'; others are counted at the end, as are the points whose disturbed
 * samples were retaken), variants in name order. A row, its pair and the copy ceiling of a
 * line are the same point but for the variant (backend, device, dtype, cache:
 * results/point_index.h); when the records hold both cache modes, each line's size says
 * which. A column missing (pair not run, speedup empty, launches not counted) prints as "-",
 * e.g. launches "2/-". O(count log count). */
void fb_summary_print(FILE *out, const struct fb_record *records, size_t count);

/* Prints the run's fitted model (fb_fit_decompose): the launch cost L and the bandwidths B
 * beyond the cache and B_c within it (cache_name: "L2", "L3", or "" for "the cache"), each
 * with its number of points and spread, or why it was not fitted. Prints nothing when the
 * fit saw no point (fit->used == 0, e.g. a run interrupted before the fit). */
void fb_summary_print_fit(FILE *out, const struct fb_fit *fit, const char *cache_name);

#endif

/* What the terminal says after a run that left points noisy or a bandwidth unfitted: how
 * to retake the noisy points, and why B or B_c came out as "?" with what to do about it.
 *
 *   noisy rows:  their count and sizes, and the command: the same one with --resume, which
 *                measures again every point of a noisy row's size and format (app/sweep.c:
 *                the pairs' rounds stay interleaved) and keeps every other row; the results
 *                file is replaced only when that run completes (results/results.h)
 *   B = ?:       the ok rows beyond FB_FIT_MEMORY_FACTOR x the cache (the fit's memory-bound
 *                set, measure/fit.h) against the FB_FIT_MIN_POINTS needed, and the noisy rows
 *                there that the fit left out; then: retake them (on a quieter machine, or
 *                with fewer threads than free cores) when there are such rows, else measure
 *                larger sizes (calls over that many bytes)
 *   B_c = ?:     the same within FB_FIT_CACHE_FACTOR x the cache (warm runs only) */
#ifndef FB_OUTPUT_RETAKE_HINT_H
#define FB_OUTPUT_RETAKE_HINT_H

#include <stdint.h>
#include <stdio.h>

#include "measure/fit.h"
#include "measure/record.h"

/* Prints the lines above for records[0..count-1] and their fit (NULL: no fit lines), the
 * device's cache_bytes (0 unknown: the bandwidth lines say that instead) and cache_name ("L3",
 * "" for "the cache"). Prints nothing when no row is noisy and the fit has B and B_c (or no
 * point at all). */
void fb_retake_hint_print(FILE *out, const struct fb_record *records, size_t count,
                          const struct fb_fit *fit, uint64_t cache_bytes, const char *cache_name);

#endif

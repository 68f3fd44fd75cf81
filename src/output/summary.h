/* The terminal summary printed after a sweep: per size, every variant that has a pair (an
 * eager variant and its fused one; the generic fused kernel and the handwritten one) with
 * both times, the speedup and copy fraction as the records hold them (computed once, in
 * measure/pairing.c: never recomputed here), launches per call, and the copy ceiling's
 * bandwidth (its row found by role). Formatting only. */
#ifndef FB_OUTPUT_SUMMARY_H
#define FB_OUTPUT_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "measure/record.h"

/* Prints one line per size and paired variant found in records (rows with status ok; others
 * are counted at the end). Columns missing (pair not run, speedup empty) print as "-". */
void fb_summary_print(FILE *out, const struct fb_record *records, size_t count);

#endif

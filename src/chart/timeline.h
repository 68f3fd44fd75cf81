/* The timeline chart's numbers (plots/timeline.gp only draws them): --profile's traced
 * records (output/trace_json.h's tracks) as bars on a time axis, one lane per variant, each
 * lane its median call: the call whose span (first record's start to last record's end) is the
 * median of its calls' (the lower one of an even count), so that a call another program
 * disturbed does not stand for the variant; drawn from that call's first record (its launch),
 * so that every lane starts at 0 and eager, graph and fused compare end to end.
 *
 * The table: one file, written beside the trace by --profile --trace (FILE.json's is
 * FILE-timeline.tsv) and read only by plots/timeline.gp, so that --plot redraws the chart from
 * it without reading the trace back. TAB-separated; after the line FB_TIMELINE_SIGNATURE (output/trace_output.h), five
 * tables as gnuplot's index blocks (two blank lines before each, a comment, a header row;
 * text through fb_chart_label, chart/label.h):
 *   index 0  x0, x1 (us), y, k: a kernel or platform record drawn
 *   index 1  x (us), y: a host launch drawn
 *   index 2  k, name (the kernel or platform routine), colour (#rrggbb; Okabe-Ito, in order
 *            of first appearance)
 *   index 3  i (1 = the top lane), y (the lane's height: ntracks + 1 - i), name (the
 *            variant), note ("2 kernels, 2 host launches per call" over all its calls'
 *            records; "1 platform call" for memcpy)
 *   index 4  one row: ntracks, nkinds, nbars, nlaunches, xmax (us: the end of the last bar or
 *            launch drawn), device, title ("n = 1000 elements, the median call of 20 per
 *            variant"), timing (how the records were timed) */
#ifndef FB_CHART_TIMELINE_H
#define FB_CHART_TIMELINE_H

#include <stddef.h>

#include <stdio.h>

#include "chart/table.h"
#include "common/error.h"
#include "output/trace_json.h"
#include "output/trace_output.h"

/* Calls past this many are not looked at (--profile makes 20). */
#define FB_TIMELINE_MAX_CALLS 1024

/* The largest table --plot hands to gnuplot (--profile's 20 calls of 64 variants make some
 * hundred KB). */
#define FB_TIMELINE_MAX_BYTES ((long long)64 << 20)

/* Prints the table above to f for tracks[0..count-1] (records numbered by call:
 * correlation_id, measure/host_trace.h). Returns 0, or the errno of its first failed write. */
int fb_chart_timeline_print(FILE *f, const struct fb_trace_track *tracks, size_t count,
                            const struct fb_trace_info *info);

/* Writes the table to path (a regular file or a new name) atomically (results/atomic_file.h).
 * Returns FB_OK, or FB_ERR_RUNTIME / FB_ERR_USAGE as fb_atomic_write. */
int fb_chart_timeline_save(const char *path, const struct fb_trace_track *tracks, size_t count,
                           const struct fb_trace_info *info, struct fb_error *err);

#endif

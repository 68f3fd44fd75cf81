/* The timeline chart's numbers (plots/timeline.gp only draws them): --profile's traced
 * records (output/trace_json.h's tracks) as bars on a time axis, one lane per variant, each
 * lane its median call: the call whose span (first record's start to last record's end) is the
 * median of its calls' (the lower one of an even count), so that a call another program
 * disturbed does not stand for the variant; drawn from that call's first record (its launch),
 * so that every lane starts at 0 and eager, graph and fused compare end to end.
 *
 * Tables written (TAB-separated, a header row; text through fb_chart_label, chart/label.h):
 *   timeline.tsv          one row: ntracks, nkinds, nbars, nlaunches (the rows below)
 *   timeline_range.tsv    one row: xmax (us: the end of the last bar or launch drawn)
 *   timeline_text.tsv     one row: title (what is drawn: "n = 1000 elements, the median call
 *                         of 20 per variant"), timing (how the records were timed)
 *   timeline_tracks.tsv   i (1 = the top lane), y (the lane's height: ntracks + 1 - i), name
 *                         (the variant), note ("2 kernels, 2 host launches per call" over all
 *                         its calls' records; "1 platform call" for memcpy)
 *   timeline_kinds.tsv    k, name (the kernel or platform routine), colour (#rrggbb; Okabe-Ito,
 *                         in order of first appearance)
 *   timeline_bars.dat     x0, x1 (us), y, k: one row per kernel or platform record drawn
 *   timeline_launches.dat x (us), y: one row per host launch drawn */
#ifndef FB_CHART_TIMELINE_H
#define FB_CHART_TIMELINE_H

#include <stddef.h>

#include "common/error.h"
#include "output/trace_json.h"

/* Calls past this many are not looked at (--profile makes 20). */
#define FB_TIMELINE_MAX_CALLS 1024

/* Writes the tables above into the directory dirfd (each created new) for tracks[0..count-1]
 * (records numbered by call: correlation_id, measure/host_trace.h). Returns FB_OK, or
 * FB_ERR_RUNTIME naming the table that could not be created or written in full. */
int fb_chart_timeline_write(int dirfd, const struct fb_trace_track *tracks, size_t count,
                            const struct fb_trace_info *info, struct fb_error *err);

#endif

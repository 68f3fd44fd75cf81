/* The one-page report of a run: a markdown page beside its charts (fusebench --report
 * RESULTS.csv, or after a sweep with --report or [output] report = yes), made of numbers the
 * C core derived (chart/derive.h) and the results file's metadata:
 *
 *   # fusebench: STEM                       the results file's name less ".csv"
 *   machine and build                       a table of metadata lines (device, backend, host,
 *                                           runtime, compute units, memory, cache, peak
 *                                           bandwidth, fusebench version and commit, date,
 *                                           config and its hash, label), those the file has
 *   the fitted model                        L, B, B_c (or "? (not fitted)") and fit_points
 *   headline speedups                       per pair of the run, at three sizes: launch-bound
 *                                           (the largest measured n <= n_launch, else the
 *                                           smallest), in-cache (the measured n in
 *                                           (n_launch, n_cache] closest to their geometric
 *                                           mean on a log scale) and memory-bound (the
 *                                           largest n beyond n_cache), each with its 95%
 *                                           interval from the interleaved rounds ("-" where none)
 *   noisy points                            their count, drawn hollow; how to retake them
 *   figures                                 the charts given, embedded by relative links
 *
 * Every string from a results file (metadata values, variant names, the stem) is written
 * through fb_text_markdown (common/text.h): nothing from data becomes markdown syntax, HTML
 * or a link. */
#ifndef FB_REPORT_REPORT_H
#define FB_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "chart/derive.h"
#include "results/csv.h"

/* Writes a relative link target: bytes outside [A-Za-z0-9._-] percent-encoded (%XX), so a
 * file name from data cannot close the link or add a title. */
void fb_report_md_target(FILE *out, const char *path);

/* The page's first bytes: what tells a report fusebench wrote from a foreign file. */
#define FB_REPORT_SIGNATURE "# fusebench: "

/* Writes the page above for table t (the run, read with output/csv.h; stem: its file name
 * less ".csv") derived into d, embedding charts[0..n_charts-1] (file names relative to the
 * page, e.g. "default-speedup.png"; their titles are the part after "STEM-"). Returns 0, or
 * -1 when a write failed (ferror after a flush). */
int fb_report_write(FILE *out, const struct fb_csv_table *t, const char *stem,
                    const struct fb_chart_derived *d, const char *const *charts,
                    size_t n_charts);

#endif

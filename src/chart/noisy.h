/* Noisy points, kept visible: rows of the charted run with status noisy (another program
 * disturbed too many of their samples: measure/record.h) are not points of their series
 * (chart/derive.h draws ok rows only), but the charts draw them hollow beside the series, so
 * that a loaded run shows where its points are doubtful instead of leaving gaps that read as
 * sizes never measured.
 *
 *   a noisy time point:    each noisy row with a positive time whose series (same variant
 *                          and format) has ok points: n, time_s, bandwidth (bytes_model /
 *                          time / 1e9), in its series' colour with the open form of its marker
 *   a noisy speedup point: each eager row with a pair, where the row and its pair's row
 *                          (same file, format and n) both have a positive time, both are ok
 *                          or noisy and at least one is noisy: speedup = t_row / t_pair, the
 *                          ratio of medians as measure/pairing.h defines it, which pairing
 *                          itself leaves empty for a row that is not ok; drawn in its pair's
 *                          colour, open marker, never with an interval
 *
 * Both come from file 0 only (the run charted; d->noisy counts its noisy rows). */
#ifndef FB_CHART_NOISY_H
#define FB_CHART_NOISY_H

#include <stddef.h>

#include "chart/derive.h"
#include "common/error.h"
#include "results/csv.h"

/* gnuplot's open marker for a filled one (7 -> 6, 5 -> 4, 9 -> 8, ...); an open one as is. */
int fb_chart_open_marker(int point_type);

/* Fills d->noisy_times and d->noisy_speedups from t0 (the table d was derived from, first
 * file), d's series and pairs being derived already. Returns FB_OK, or FB_ERR_RUNTIME when
 * out of memory. */
int fb_chart_add_noisy(struct fb_chart_derived *d, const struct fb_csv_table *t0,
                       struct fb_error *err);

#endif

/* The run's tables, which plots/style.gp reads for every chart: derived numbers
 * (chart/derive.h) filled into the table model (chart/table.h) and written into the staging
 * directory, a file each; each chart adds its own (src/chart/<chart>.c, chart/charts.h).
 * Every table named *.tsv has its row count given to gnuplot as rows_<name>.
 *
 *   numbers.tsv   one row of scalars (-1 unknown): the drawn range (nmin, nmax), the cache
 *                 (cache_bytes, n_cache), peak_gbps, bandwidth_max, copy_max, speedup_max,
 *                 the end of the launch-bound regime (n_launch, n_launch_fit 1 when from the
 *                 fit), noisy, speedup_level and ours_level (the levels, in percent, of the
 *                 speedup's and ours_ratio's intervals: measure/interval.h, measure/pairing.h)
 *   labels.tsv    one row of text: device, day, cache_text, cache_name, noisy_text
 *   fit.tsv       text: the fit's numbers, one line each (none without a fit)
 *   page.tsv      one row: format (png, svg, pdf), width, height (pixels; inches for
 *                 pdf), font, small, rows (points), lw (line width factor), ps (marker scale) of
 *                 the chart being drawn (chart/page.h); rewritten before each one
 *   series.tsv    i, title, colour (#rrggbb), pt, dt, copy (1: the copy ceiling, drawn
 *                 thick); s<i>.dat: n, time_s, p10_s, p90_s, bandwidth_gbps, dram_elements,
 *                 launches, kernel_time_s, copy_fraction, speedup, ours_ratio, ours_lo, ours_hi
 *   pairs.tsv     i, title, colour, pt, dt, primary; x<i>.dat: n, speedup, speedup_lo,
 *                 speedup_hi (the speedup's 95% interval from the interleaved rounds; NaN none)
 *   noisy_time.tsv n, time_s, bandwidth_gbps, colour (an integer), pt (open);
 *   noisy_speedup.tsv n, speedup, colour, pt: the noisy rows drawn hollow beside their
 *                 series and pairs (chart/noisy.h) */
#ifndef FB_CHART_TABLES_H
#define FB_CHART_TABLES_H

#include "chart/derive.h"
#include "chart/page.h"
#include "chart/table.h"

/* Adds the run's tables above but page.tsv to ts, in that order. */
void fb_chart_tables_fill(const struct fb_chart_derived *d, struct fb_tables *ts);

/* Adds page.tsv for a chart drawn in `format` (fb_chart_formats) on `page` (chart/page.h). */
void fb_chart_page_table(struct fb_tables *ts, const char *format,
                         const struct fb_chart_page *page);

#endif

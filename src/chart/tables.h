/* The tables the chart scripts read: derived numbers (chart/derive.h) filled into the table
 * model (chart/table.h), written into the staging directory as one file each. Every table
 * named *.tsv has its row count given to gnuplot as rows_<name> (fb_tables_row_counts).
 * The chart scripts are plots/ (one .gp per chart); plots/README.md lists the same tables.
 *
 *   numbers.tsv   one row of scalars (-1 unknown): the drawn range (nmin, nmax), the cache
 *                 (cache_bytes, n_cache), peak_gbps, bandwidth_max, copy_max, speedup_max,
 *                 the end of the launch-bound regime (n_launch, n_launch_fit 1 when from the
 *                 fit), noisy, dtype_cache_x (bytes per tensor at which the dtype chart's
 *                 eager chain fills the cache), chain_wa (1: a chain length has a
 *                 write-allocate ratio), speedup_level and ours_level (the levels, in percent,
 *                 of the speedup's and ours_ratio's intervals: measure/interval.h,
 *                 measure/pairing.h)
 *   labels.tsv    one row of text: device, day, cache_text, cache_name, noisy_text,
 *                 dtype_variant, dtype_pair, dtype_cache_text
 *   fit.tsv       text: the fit's numbers, one line each (none without a fit)
 *   page.tsv      one row: format (png, svg, pdf), width, height (pixels; inches for
 *                 pdf), font, small (points), lw (line width factor), ps (marker scale) of
 *                 the chart being drawn (chart/page.h); rewritten before each one
 *   series.tsv    i, title, colour (#rrggbb), pt, dt, copy (1: the copy ceiling, drawn
 *                 thick); s<i>.dat: n, time_s, p10_s, p90_s, bandwidth_gbps, dram_elements,
 *                 launches, kernel_time_s, copy_fraction, speedup, ours_ratio, ours_lo, ours_hi
 *   fused.tsv     j, i: the series drawn on the copy-fraction chart; dram.tsv: those with
 *                 measured DRAM bytes; ours.tsv: those with an ours_ratio
 *   pairs.tsv     i, title, colour, pt, dt, primary; x<i>.dat: n, speedup, speedup_lo,
 *                 speedup_hi (the speedup's 95% interval from the interleaved rounds; NaN none)
 *   speedup_lines.tsv, copy_lines.tsv (percent), bytes_lines.tsv: i, value, title, colour, dt,
 *                 from, to (the n over which the line's model applies; 0 and 1e300: all)
 *   curves.tsv    i, colour (the time chart's fitted model per series); m<i>.dat: n, t, t_cache
 *   predicted.tsv i, colour (the speedup the fit predicts per pair); p<i>.dat: n, speedup,
 *                 speedup_cache
 *   launches.tsv  i, label, counted, model (-1 none), colour (an integer, 0xRRGGBB)
 *   dtypes.tsv    i, dtype, colour, pt; d<i>.dat: n, bytes_per_tensor, speedup
 *   chains.tsv    i, title ("n = 1K"), colour, pt: one per size (none below 3 chain
 *                 lengths); c<i>.dat: kernels, speedup (the first chain at each length);
 *                 chain_others.tsv: kernels, speedup, name, i, colour (an integer; the other
 *                 chains), label (the name on each chain's highest point, "" on the others);
 *                 chain_model.dat: kernels, launch_limit, traffic_ratio, traffic_ratio_wa
 *   glance_pairs.tsv, glance.tsv, g<j>.dat: the at-a-glance figure's (chart/glance.h);
 *   noisy_time.tsv n, time_s, bandwidth_gbps, colour (an integer), pt (open);
 *   noisy_speedup.tsv n, speedup, colour, pt: the noisy rows drawn hollow beside their
 *                 series and pairs (chart/noisy.h) */
#ifndef FB_CHART_TABLES_H
#define FB_CHART_TABLES_H

#include "chart/derive.h"
#include "chart/page.h"
#include "chart/table.h"

/* Adds every table above but page.tsv to ts, in that order. */
void fb_chart_tables_fill(const struct fb_chart_derived *d, struct fb_tables *ts);

/* Adds page.tsv for a chart drawn in `format` (fb_chart_formats) on `page` (chart/page.h). */
void fb_chart_page_table(struct fb_tables *ts, const char *format,
                         const struct fb_chart_page *page);

#endif

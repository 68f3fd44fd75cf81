/* The tables the chart scripts read: derived numbers (chart/derive.h) as TAB-separated data
 * files in one directory, each with a header row of column names (the scripts find columns
 * by name: `set datafile columnheaders`, column("nmin"), strcol("title")). Numbers are
 * written with %.10g ("NaN" for a point not measured, which gnuplot leaves undrawn; -1 for a
 * scalar that is unknown); text is written through fb_chart_label (chart/label.h), never as
 * gnuplot code. The chart scripts are plots/ (one .gp per chart); plots/README.md lists the same tables.
 *
 *   numbers.tsv   one row of scalars: the drawn range (nmin, nmax), the cache (cache_bytes,
 *                 n_cache), peak_gbps, bandwidth_max, copy_max, speedup_max, the end of the
 *                 launch-bound regime (n_launch, n_launch_fit 1 when from the fit), noisy,
 *                 dtype_cache_x (bytes per tensor at which the dtype chart's eager chain
 *                 fills the cache), nko (rows of chain_others.dat), nkwa (chain lengths
 *                 with a write-allocate ratio), speedup_level and ours_level (the levels,
 *                 in percent, of the speedup's and ours_ratio's intervals: measure/interval.h,
 *                 measure/pairing.h),
 *                 and the row count of each table below (ns, nx, nf, nd, nm, np, nsl, ncl,
 *                 nbl, nlb, ndt, nck, nfit)
 *   labels.tsv    one row of text: device, day, cache_text, cache_name, fit1..fit4 (the
 *                 fit's numbers, nfit of them), noisy_text, dtype_variant, dtype_pair,
 *                 dtype_cache_text
 *   page.tsv      one row: format (png, svg, pdf), width, height (pixels; inches for
 *                 pdf), font (points), lw (line width factor), ps (marker scale) of the chart being drawn
 *                 (chart/page.h); rewritten before each one
 *   series.tsv    i, title, colour (#rrggbb), pt, dt, copy (1: the copy ceiling, drawn
 *                 thick); s<i>.dat: n, time_s, p10_s, p90_s, bandwidth_gbps, dram_elements,
 *                 launches, kernel_time_s, copy_fraction, speedup
 *   fused.tsv     j, i: the series drawn on the copy-fraction chart; dram.tsv: those with
 *                 measured DRAM bytes
 *   pairs.tsv     i, title, colour, pt, dt, primary; x<i>.dat: n, speedup, speedup_lo,
 *                 speedup_hi (the speedup's 95% interval from the interleaved rounds; NaN none)
 *   speedup_lines.tsv, copy_lines.tsv (percent), bytes_lines.tsv: i, value, title, colour, dt,
 *                 from, to (the n over which the line's model applies; 0 and 1e300: all)
 *   curves.tsv    i, colour (the time chart's fitted model per series); m<i>.dat: n, t, t_cache
 *   predicted.tsv i, colour (the speedup the fit predicts per pair); p<i>.dat: n, speedup,
 *                 speedup_cache
 *   launches.tsv  i, label, counted, model (-1 none), colour (an integer, 0xRRGGBB)
 *   dtypes.tsv    i, dtype, colour, pt; d<i>.dat: n, bytes_per_tensor, speedup
 *   chains.tsv    i, title ("n = 1K"), colour, pt: one per size; c<i>.dat: kernels, speedup
 *                 (the first chain at each length); chain_others.dat: kernels, speedup,
 *                 name, i, colour (an integer; the other chains), label (the name on each chain's
 *                 highest point, "" on the others); chain_model.dat: kernels, launch_limit,
 *                 traffic_ratio, traffic_ratio_wa
 *   glance_pairs.tsv, glance.tsv, g<j>.dat: the at-a-glance figure's (chart/glance.h);
 *   audit.tsv, audit_labels.tsv: the audit chart's, for an audit's file (chart/audit.h);
 *   noisy.tsv     one row: noisy (rows of the charted run), nnt, nnx (rows of the two tables
 *                 below); noisy_time.dat: n, time_s, bandwidth_gbps, colour (an integer), pt
 *                 (open); noisy_speedup.dat: n, speedup, colour, pt: the noisy rows drawn
 *                 hollow beside their series and pairs (chart/noisy.h) */
#ifndef FB_CHART_TABLES_H
#define FB_CHART_TABLES_H

#include "chart/derive.h"
#include "chart/page.h"
#include "common/error.h"

/* Writes every table above (not page.tsv) into the directory dirfd, each file created new.
 * Returns FB_OK, or FB_ERR_RUNTIME naming the table when a file cannot be created or written
 * in full (a full disk: every write and the close are checked). */
int fb_chart_tables_write(int dirfd, const struct fb_chart_derived *d, struct fb_error *err);

/* Writes page.tsv (replacing the previous one) for a chart drawn in `format`
 * (fb_chart_formats) on `page` (chart/page.h: width and height in the terminal's unit,
 * font, line width factor). Errors as above. */
int fb_chart_page_write(int dirfd, const char *format, const struct fb_chart_page *page,
                        struct fb_error *err);

#endif

/* The drawing commands: --plot (charts from results files, or a trace's timeline) and
 * --derive (the charts' numbers as JSON). Both draw nothing new: chart/ derives and
 * chart/gnuplot.h draws. */
#ifndef FB_APP_REDRAW_H
#define FB_APP_REDRAW_H

#include "chart/options.h"

/* The --plot command: fb_plots_render (chart/gnuplot.h), or for one FILE.json (a trace of
 * --profile --trace) or FILE-timeline.tsv fb_plots_render_timeline of the timeline table
 * written beside the trace (output/trace_output.h);
 * its exit status as an fb_status: FB_OK (drawn), FB_ERR_USAGE (bad input, or gnuplot
 * missing), FB_ERR_INTERRUPTED (a signal: its number in fb_interrupted), FB_ERR_RUNTIME (a
 * chart failed). */
int fb_app_redraw(const char *const *csv_files, int n, const char *out_dir,
                  const struct fb_plot_options *opt);

/* The --derive command: the numbers the charts and summaries show, derived from
 * csv_files[0..n-1] (chart/derive_json.h), as JSON on stdout. Returns FB_OK, FB_ERR_USAGE
 * (bad input; message on stderr) or FB_ERR_RUNTIME. Writes no file. */
int fb_app_derive(const char *const *csv_files, int n);

#endif

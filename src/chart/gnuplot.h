/* Drawing the charts: fusebench derives every number a chart shows (src/chart/), writes them
 * as tables into a staging directory inside the output directory, and runs gnuplot on the
 * chart scripts (plots/ (one .gp per chart)), which only draw what the tables hold. Charts can be redrawn
 * from any results file without measuring.
 *
 * Publishing: each chart is drawn into the staging directory, checked whole for its format
 * (chart/chart_file.h: not empty, ends with IEND, </svg> or %%EOF), given its provenance
 * (chart/provenance.h: SVG title and desc, PDF information dictionary), checked whole again
 * and renamed over the chart it replaces: a reader sees the old chart or the new one, never
 * a torn one.
 * The staging directory is removed on every exit this process can catch (success, failure,
 * SIGINT, SIGTERM, SIGHUP); one left by a fusebench killed with SIGKILL is removed by the
 * next drawing into the same directory.
 * Children: gnuplot runs in its own process group, in the staging directory, with
 * PR_SET_PDEATHSIG (SIGKILL), so it never outlives fusebench, even a fusebench killed with
 * SIGKILL; a signal to fusebench kills it at once; a gnuplot that runs past the hang guard
 * (FB_PLOTS_HANG_S) is killed and its chart fails. Nothing from a results file (names,
 * device, file names, directories) is ever passed to gnuplot or a shell as code.
 * Progress: one line per chart on stderr ("charts: 3/9 speedup"); the path of every chart
 * written on stdout. */
#ifndef FB_CHART_GNUPLOT_H
#define FB_CHART_GNUPLOT_H

#include <stddef.h>

#include "chart/charts.h"
#include "chart/derive.h"
#include "chart/table.h"
#include "common/error.h"

#include "chart/options.h"
#include "chart/provenance.h"
#include "chart/runner.h" /* FB_PLOTS_OK ... FB_PLOTS_NO_GNUPLOT, FB_PLOTS_HANG_S */

/* Draws the charts of csv_files[0..n-1] (the first is the run charted, the others overlaid)
 * into out_dir (NULL or "": the directory of the first CSV): those opt asks for, in its
 * formats and size, with its labels (NULL: fb_plot_options_defaults). GNUPLOT in the environment
 * names the gnuplot to run (default: gnuplot on PATH). Returns 0 when every chart that has
 * something to show was drawn; 1 when a chart failed (gnuplot failed or wrote an incomplete
 * file; the previous chart is kept); 2 bad input (a CSV missing, malformed, or over
 * FB_CHART_MAX_ROWS rows; an output directory that cannot be made); 3 gnuplot (with the
 * pngcairo, svg and pdfcairo terminals) is not installed; 128 + N when signal N arrived (the signal's
 * earlier handler, if it had one, runs once the charts are cleaned up). Prints its own
 * messages. */
int fb_plots_render(const char *const *csv_files, int n, const char *out_dir,
                    const struct fb_plot_options *opt);

/* A set of charts to draw (fb_plots_render's: fb_charts; --compare's: its own). */
struct fb_plots_job {
    const struct fb_chart_derived *d; /* its tables are written (chart/tables.h); each
                                         chart's skip() is asked of it (NULL skip: drawn) */
    const struct fb_chart *const *charts;
    size_t n_charts;
    const char *stem;                 /* charts are <stem>-<chart>.<format> */
    const char *out_dir;              /* NULL or "": the directory of first_csv */
    const char *first_csv;            /* named in messages */
    /* More tables for the charts' scripts, added after d's (NULL: none). */
    void (*add_tables)(struct fb_tables *ts, const void *ctx);
    /* A file for the charts' scripts written into the staging directory dirfd (the
     * timeline's table as --profile wrote it; NULL: none); FB_OK or an error naming it. */
    int (*write_extra)(int dirfd, const void *ctx, struct fb_error *err);
    const void *ctx;
    /* [plot]'s choices (chart/options.h), NULL: the defaults; its chart choice applies
     * to the charts of fb_charts only. */
    const struct fb_plot_options *opt;
    /* Where the charts come from, written into each SVG and PDF (chart/provenance.h; its
     * title is set per chart); NULL: only the producer and the chart's name. */
    const struct fb_chart_provenance *source;
};

/* Stages, draws, checks and publishes job's charts as fb_plots_render does (the contract
 * above: the staging directory, gnuplot as a child, signals, progress). Returns its codes
 * (0, 1, 2, 3, 128 + N). */
int fb_plots_draw(const struct fb_plots_job *job);

/* The chart file name stem of results files whose stems (names less ".csv") are
 * stems[0..n-1]: joined by "-vs-", then suffix (may be NULL), into out. Returns 0, or 2 with a
 * message when the name would not leave room for "-<chart>.<format>" within NAME_MAX. */
int fb_plots_stem(const char (*stems)[FB_CHART_TEXT_MAX], size_t n, const char *suffix,
                  char *out, size_t size);

/* The directory charts of `csv` go to by default: its directory, "." for a bare name. */
void fb_plots_dir_of(const char *csv, char *out, size_t size);

/* Draws --profile's timeline chart (plots/timeline.gp) from the table at table_path
 * (chart/timeline.h: FILE-timeline.tsv, written beside FILE.json by --profile --trace) into
 * out_dir (NULL or "": the table's directory) as <stem>-timeline.<format>, stem the table's
 * name less "-timeline.tsv", staged, checked and published as every chart is. A path that
 * is not such a table (a FIFO, a foreign file, one past FB_TIMELINE_MAX_BYTES) is refused
 * before anything is staged. opt (NULL: the defaults) gives the formats and the page size;
 * its chart choice does not apply. Returns as fb_plots_render. */
int fb_plots_render_timeline(const char *table_path, const char *out_dir,
                             const struct fb_plot_options *opt);

#endif

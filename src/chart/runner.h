/* The gnuplot runner: draws one chart in one format. gnuplot runs in the staging directory
 * (where the tables are, chart/table.h) on plots/style.gp and the chart's scripts, as a child
 * in its own process group that dies with fusebench (PR_SET_PDEATHSIG), its stdin and stdout
 * /dev/null, its messages passed on; past one timeout (FB_PLOTS_HANG_S) it is killed. The file
 * it wrote is checked whole (chart/chart_file.h), given its provenance (chart/provenance.h),
 * checked again and renamed over the chart it replaces: a reader sees the old chart or the
 * new one, never a torn one. Nothing from a results file is passed to gnuplot as code. */
#ifndef FB_CHART_RUNNER_H
#define FB_CHART_RUNNER_H

#include <limits.h>
#include <signal.h>

#include "chart/chart_file.h"
#include "chart/charts.h"
#include "chart/options.h"
#include "chart/provenance.h"

/* A gnuplot that takes longer than this on one chart is taken as hung (a chart of the
 * largest accepted input draws in a few seconds). */
#define FB_PLOTS_HANG_S 600

/* What the drawing returns, besides 128 + N for signal N. */
enum { FB_PLOTS_OK = 0, FB_PLOTS_FAILED = 1, FB_PLOTS_USAGE = 2, FB_PLOTS_NO_GNUPLOT = 3 };

struct fb_runner {
    const char *gnuplot;                      /* GNUPLOT, else gnuplot on PATH */
    char scripts[PATH_MAX - 64];              /* plots/ of the source tree */
    const char *out_dir;                      /* where the charts go, as the user named it */
    int out_fd, stage_fd;                     /* it, and the staging directory inside it */
    char stem[NAME_MAX + 1];                  /* charts are <stem>-<chart>.<format> */
    const struct fb_plot_options *opt;        /* the page size */
    const struct fb_chart_provenance *source; /* NULL: none but the producer */
    char counts[4096];                        /* gnuplot -e: the tables' rows_<table> */
    size_t text_rows;                         /* the chart's text_rows_table's rows */
};

/* The signal that stops the drawing (0: none), and the process group of the gnuplot running
 * (0: none), for the caller's signal handler to kill. */
extern volatile sig_atomic_t fb_runner_stop, fb_runner_child;

/* Whether gnuplot runs and has the pngcairo, svg and pdfcairo terminals: FB_PLOTS_OK, or
 * FB_PLOTS_NO_GNUPLOT having said how to install it, or 128 + N for a signal. */
int fb_runner_check(const struct fb_runner *r);

/* Draws chart c in format fmt (page.tsv written first) and publishes it as
 * <stem>-<chart>.<format>, its path printed on stdout. FB_PLOTS_OK; FB_PLOTS_FAILED having
 * said why (the previous chart is kept); FB_PLOTS_USAGE for a name too long; 128 + N. */
int fb_runner_draw(const struct fb_runner *r, const struct fb_chart *c,
                   const struct fb_chart_format *fmt);

#endif

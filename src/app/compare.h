/* The --compare command: several results files side by side (compare/runs.h), a regression
 * verdict of every run against the first (compare/verdict.h), the headline table as
 * markdown on stdout and in <stem>-compare.md beside the charts, and the charts
 * <stem>-compare-<chart>.png|svg (stem: the files' names less ".csv" joined by "-vs-"; the
 * first one's and "-vs-<N>-more" when that would be too long a file name),
 * drawn as chart/gnuplot.h draws (staged, checked, published whole). */
#ifndef FB_APP_COMPARE_H
#define FB_APP_COMPARE_H

#include <stdbool.h>

struct fb_app_compare_options {
    const char *const *files;  /* the results files, the first the reference run */
    int n_files;
    const char *plot_dir;      /* NULL or "": the first file's directory */
    const char *threshold;     /* --threshold text ("5%", "0.05"); NULL: 5% */
    bool no_verdict;           /* charts and table only: exit 0 whatever the times */
    bool no_plot;              /* table and verdict only: no chart, no file written */
    bool force;                /* replace a foreign file at DIR/STEM-compare.md */
};

/* Runs the comparison. Returns FB_OK (no run regressed, everything asked for drawn);
 * FB_ERR_VERIFY when a run regressed (exit 1; the charts are still drawn); FB_ERR_RUNTIME
 * when a chart or the table file failed (exit 1); FB_ERR_USAGE (exit 2, nothing written)
 * for unusable input: fewer than 2 or more than 8 files, a file missing or malformed, a run
 * with nothing to compare, a bad threshold, runs of different variants or without a common
 * size (the message says what is missing), a --plot-dir that cannot be made or written or a
 * foreign file at the table's name without force (judged before the verdict is printed), or no gnuplot; FB_ERR_INTERRUPTED when a signal
 * stopped the drawing (its number in fb_interrupted). Prints its own messages. */
int fb_app_compare(const struct fb_app_compare_options *opt);

#endif

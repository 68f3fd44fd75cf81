/* The sweep command (`fusebench CONFIG`): measure every point of the config on its backend,
 * keep the results file whole after every point, print the summary, draw the charts. */
#ifndef FB_APP_SWEEP_H
#define FB_APP_SWEEP_H

#include <stdbool.h>

#include "config/config.h"

/* What the command line asks of a sweep beyond the config. */
struct fb_app_sweep_options {
    bool resume;  /* --resume: keep the ok rows of the results file, run only the others */
    bool dry_run; /* --dry-run: print the plan (stdout) and stop before anything is written */
    bool no_plot; /* --no-plot: no charts at the end */
    bool quiet;   /* -q: no start line, no progress bar */
    bool force;   /* --force: replace a results file that is not one (fb_results_judge) */
    bool report;  /* --report: the one-page report (app/report.h) after the charts */
};

/* Runs the sweep of cfg: opens the backend, checks memory, judges every path it will write
 * before anything is measured, creating nothing (the results file: fb_results_judge; the
 * charts directory unless no_plot: fb_output_dir_check; a dry run stops there, printing the
 * plan and what it would write), makes the results' directories, takes the results lock,
 * catches SIGINT/SIGTERM (sigaction; the handlers stay until the process ends: a first
 * signal stops after the sample in progress, a second one exits at once with 128 + its
 * number), opens the CUPTI probe where there is one, measures (progress bar on
 * stderr), finishes the results file, prints the summary (stdout) and draws the charts.
 * Prints its own messages (stderr), naming files and what to do next, every path and name
 * in them escaped (common/text.h).
 * Returns FB_OK; FB_ERR_USAGE for a config or output-path problem found before measuring
 * (or a results file --resume cannot read); FB_ERR_VERIFY when points failed verification;
 * FB_ERR_INTERRUPTED when a signal came (also after the sweep, while drawing; its number is
 * in fb_interrupted, common/interrupt.h); another negative fb_status when the sweep stopped
 * on an error. */
int fb_app_sweep(const struct fb_app_sweep_options *opt, const struct fb_config *cfg);

#endif

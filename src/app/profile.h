/* The --profile command: which kernels a call of each variant really runs, and how long each
 * takes, at one size; with --trace, the same records as a Chrome trace (Perfetto) and a
 * timeline chart drawn from them. */
#ifndef FB_APP_PROFILE_H
#define FB_APP_PROFILE_H

#include <stdbool.h>

#include "config/config.h"

/* The calls traced per variant (after 3 warm-up calls). */
#define FB_PROFILE_CALLS 20

struct fb_app_profile_options {
    const char *size_text;  /* N, as typed */
    const char *trace_path; /* --trace FILE.json; NULL: no trace */
    bool force;             /* --force: replace a file at trace_path that fusebench did not
                               write */
    bool no_plot;           /* --no-plot: no timeline chart */
    const char *plot_dir;   /* --plot-dir: where the chart goes; NULL: beside the trace (the
                               config's [output] plots is the sweep's) */
};

/* --profile N: size_text (N) is read like one --sizes item (same syntax, limit 1e12 elements)
 * and must fit in memory like a sweep's largest size, checked before anything is allocated;
 * cfg's sizes become {N}. A trace path is judged before anything is measured too
 * (output/trace_output.h). Then, per enabled variant in the order the variants list gives them
 * ("all": the plan's order), runs it at N elements (3 warm-up calls, then FB_PROFILE_CALLS
 * calls; a call another program disturbed is dropped and retaken within the sweep's retake
 * budget, measure/disturbance.h) and prints a kernel table (name, calls, total, average, min,
 * max) on stdout, with the records per call against what the plan declares: kernels of ours,
 * host launches, platform calls (memcpy). Kernel durations come from CUPTI activity records
 * where CUPTI works, else each step is timed on the host (measure/host_trace.h). With a trace
 * path, writes the trace (output/trace_json.h) and, unless no_plot, draws the timeline chart
 * <trace stem>-timeline.png and .svg into plot_dir (default: beside the trace).
 * Prints its own messages (stderr). Returns FB_OK; FB_ERR_USAGE for a bad N (the message
 * starts with "--profile N: "), one that does not fit, or a trace path that cannot be written;
 * another negative fb_status when a step failed, the trace could not be written or the chart
 * not drawn. */
int fb_app_profile(struct fb_config *cfg, const struct fb_app_profile_options *opt);

#endif

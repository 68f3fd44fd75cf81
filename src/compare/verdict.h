/* The regression verdict between two runs: for every point present in both (same series key:
 * variant, dtype, stores, cache mode; chart/derive.h; and the same n), the ratio of the
 * later run's median time per call to the first run's, with an interval from the spreads of
 * their samples, judged against a threshold.
 *
 * The interval: a run's median is taken to lie anywhere within the central 80% of its
 * samples (its p10 .. p90 times per call), so the ratio lies within
 *     lo = run.p10 / base.p90  ..  hi = run.p90 / base.p10,
 * a distribution-free bound that holds whatever the shape of the samples. It is wider than a
 * standard error on purpose: the samples of one run share the machine's state (clocks, other
 * load, placement), so what differs between two runs of one build is not captured by their
 * sample counts, and a standard-error interval raises false alarms between runs of the same
 * build. A point regressed when the whole interval lies above 1 + threshold (lo > 1 + t: the
 * later run is slower beyond the threshold even at its best against the first run's worst);
 * it is faster when hi < 1 / (1 + t); else it is within the noise.
 *
 * Only rows that chart/derive.h draws are compared: status ok with a positive time (a noisy
 * or failed row is not a measurement of the build). */
#ifndef FB_COMPARE_VERDICT_H
#define FB_COMPARE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "chart/derive.h"
#include "common/error.h"

/* The default threshold: 5%. */
#define FB_COMPARE_THRESHOLD_DEFAULT 0.05

/* Parses a threshold: "5%" (a percentage) or "0.05" (a fraction); strictly between 0 and
 * 1000% (a fraction below 10). A plain number of 1 or more is refused as ambiguous (5 means
 * 5%? write "5%"). Returns FB_OK with *out the fraction, or FB_ERR_USAGE with a message
 * quoting the text. */
int fb_compare_threshold_parse(const char *text, double *out, struct fb_error *err);

enum fb_compare_state { FB_COMPARE_SAME, FB_COMPARE_REGRESSED, FB_COMPARE_FASTER };

struct fb_compare_point {
    char key[FB_CHART_KEY_MAX];  /* the series key */
    double n;
    double base_s, run_s;        /* median seconds per call, first run and this one */
    double ratio, lo, hi;        /* run / base, and its interval (above) */
    enum fb_compare_state state;
};

struct fb_compare_verdict {
    struct fb_compare_point *points; /* in the first run's series order, then by n */
    size_t n_points;
    size_t regressed, faster;
    size_t only_base, only_run;      /* points of the common series at an n of one run only */
    double ratio_min, ratio_max;     /* over the points (NaN when none) */
    size_t worst;                    /* the point with the largest lo (SIZE_MAX when none) */
};

/* One point: run's median time against base's at the same n, with the interval and the state
 * above, for the series `key`. */
void fb_compare_point_make(const char *key, const struct fb_chart_point *base,
                           const struct fb_chart_point *run, double threshold,
                           struct fb_compare_point *out);

/* Compares `run` with `base` (each derived from one results file alone: file 0 of its own
 * fb_chart_derive) at `threshold` (a fraction). base_name and run_name name the files in
 * messages. Unusable input is FB_ERR_USAGE with a message that says what is missing: a
 * series (variant and format) of one run that the other lacks (every one is named, up to
 * the message's room), or no n common to the two runs (both runs' sizes are named). A
 * common series with some sizes in one run only is compared at the common ones and counted
 * (only_base, only_run). FB_ERR_RUNTIME when out of memory. On success free *out with
 * fb_compare_verdict_free (also safe after a failure). */
int fb_compare_verdict(const struct fb_chart_derived *base, const struct fb_chart_derived *run,
                       double threshold, const char *base_name, const char *run_name,
                       struct fb_compare_verdict *out, struct fb_error *err);

void fb_compare_verdict_free(struct fb_compare_verdict *v);

#endif

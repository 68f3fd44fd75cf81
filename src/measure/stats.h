/* Statistics of timing samples, and the rule that says when to stop taking them.
 *
 * Pure functions on arrays of doubles (seconds per call). None of them modifies the caller's
 * samples: the ones that need order statistics sort a copy, either in a scratch buffer the
 * caller passes (n doubles, reused across calls in a timing loop) or in one they allocate.
 *
 * Percentile definition (numpy's default, "linear"): for n sorted samples x[0..n-1] and
 * p in [0, 100], h = (n - 1) * p / 100, and
 *     P(p) = x[floor(h)] + (h - floor(h)) * (x[floor(h) + 1] - x[floor(h)]),
 * so P(0) = min, P(100) = max, P(50) = the median (mean of the two middle samples when n is
 * even). */
#ifndef FB_MEASURE_STATS_H
#define FB_MEASURE_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

struct fb_stats_summary {
    double median, min, max, p10, p90; /* seconds */
    double noise; /* fb_stats_noise_sorted(): relative half-width of the median's 95% CI */
    size_t n;     /* samples summarised */
};

/* When to stop repeating a measurement. The config validates these; the contract of
 * fb_stats_should_stop() below is defined for any values. */
struct fb_stop_rule {
    int min_reps;        /* never stop on noise with fewer samples */
    int max_reps;        /* always stop at this many samples */
    double min_time_s;   /* never stop on noise before this much time was spent timing */
    double max_time_s;   /* stop once this much time was spent (with at least one sample) */
    double target_noise; /* stop when fb_stats_noise_sorted() <= this (e.g. 0.01 = 1%) */
};

/* Sorts x[0..n-1] ascending in place. NaN samples (not expected from a timer) sort after every
 * number, so they never become the min or the median by accident. */
void fb_stats_sort(double *x, size_t n);

/* Smallest / largest of x[0..n-1], unsorted input. NaN when n == 0. */
double fb_stats_min(const double *x, size_t n);
double fb_stats_max(const double *x, size_t n);

/* The p-th percentile (p in [0, 100], clamped) of already sorted samples, by the definition at
 * the top of this file. NaN when n == 0. */
double fb_stats_percentile_sorted(const double *sorted, size_t n, double p);

/* The p-th percentile of unsorted samples: copies x into scratch (n doubles, must not alias x),
 * sorts scratch, and returns fb_stats_percentile_sorted(scratch, n, p). x is not modified. */
double fb_stats_percentile(const double *x, size_t n, double p, double *scratch);

/* fb_stats_percentile(x, n, 50, scratch). */
double fb_stats_median(const double *x, size_t n, double *scratch);

/* The level of the median's confidence interval below, in percent, and the standard normal
 * quantile it takes: Phi(FB_STATS_CI_Z) = 1 - (1 - 0.95) / 2. */
#define FB_STATS_CI_PERCENT 95
#define FB_STATS_CI_Z 1.96

/* Relative half-width of a distribution-free 95% confidence interval of the median, from
 * sorted samples (no assumption about the distribution's shape: timing noise is skewed).
 *
 * The number of samples below the true median is Binomial(n, 1/2); by its normal
 * approximation (mean n/2, standard deviation sqrt(n)/2) the interval between the order
 * statistics of 1-based ranks
 *     j = floor(n/2 - 1.96 * sqrt(n)/2),   k = ceil(n/2 + 1 + 1.96 * sqrt(n)/2)
 * covers the median with probability ~95% (J.-Y. Le Boudec, Performance Evaluation of
 * Computer and Communication Systems, thm. 2.1). The ranks are clamped to [1, n]; below
 * n = 8 the clamp binds and the interval is the whole sample range, which is narrower than a
 * true 95% interval would be: a stop rule should ask for min_reps >= 8 for the target to mean
 * 95%. Result: (x_(k) - x_(j)) / 2 / |median|, dimensionless (0.01 = +-1%).
 *
 * Returns INFINITY when n == 1 (one sample says nothing about spread), NaN when n == 0,
 * 0 when all samples are equal (even if they are 0), INFINITY when the median is 0 and the
 * samples are not all equal. */
double fb_stats_noise_sorted(const double *sorted, size_t n);

/* Everything above at once. scratch: n doubles the function may overwrite (must not alias
 * samples), or NULL to let it allocate its own. samples is not modified.
 * n == 0 gives a summary of NaNs with n = 0 and returns FB_OK.
 * Returns FB_OK, or FB_ERR_RUNTIME when scratch was NULL and the allocation failed. */
int fb_stats_summarize(const double *samples, size_t n, double *scratch,
                       struct fb_stats_summary *out, struct fb_error *err);

/* Whether a timing loop that has taken `reps` samples in `elapsed_s` seconds, with the
 * current noise `noise` (fb_stats_noise_sorted; NaN or INFINITY when unknown), should stop.
 * In order:
 *   1. reps >= max_reps                                      -> stop (the rep cap);
 *   2. elapsed_s >= max_time_s and reps >= 1                 -> stop (the time cap: it
 *      overrides min_reps, so a point that takes seconds per call still ends; one sample is
 *      needed so there is something to report);
 *   3. reps >= min_reps and elapsed_s >= min_time_s and noise <= target_noise -> stop
 *      (stable enough; a NaN noise never compares <=, so it never stops here);
 *   4. otherwise                                              -> continue.
 * reps <= 0 never stops. */
bool fb_stats_should_stop(const struct fb_stop_rule *rule, int reps, double elapsed_s,
                          double noise);

#endif

#include "measure/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Total order for qsort: numbers ascending, NaN after all of them (a plain `<` comparator
 * is not a total order with NaN and qsort's result would be unspecified). */
static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

void fb_stats_sort(double *x, size_t n)
{
    if (n > 1)
        qsort(x, n, sizeof *x, cmp_double);
}

double fb_stats_min(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double m = x[0];
    for (size_t i = 1; i < n; i++)
        if (x[i] < m || isnan(m))
            m = x[i];
    return m;
}

double fb_stats_max(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double m = x[0];
    for (size_t i = 1; i < n; i++)
        if (x[i] > m || isnan(m))
            m = x[i];
    return m;
}

double fb_stats_percentile_sorted(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    if (!(p > 0)) /* also catches NaN p */
        p = 0;
    if (p > 100)
        p = 100;
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)floor(h);
    if (lo >= n - 1)
        return sorted[n - 1];
    double frac = h - (double)lo;
    /* Written as a + f*(b - a) so that equal neighbours give exactly that value. */
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double fb_stats_percentile(const double *x, size_t n, double p, double *scratch)
{
    if (n == 0)
        return NAN;
    memcpy(scratch, x, n * sizeof *x);
    fb_stats_sort(scratch, n);
    return fb_stats_percentile_sorted(scratch, n, p);
}

double fb_stats_median(const double *x, size_t n, double *scratch)
{
    return fb_stats_percentile(x, n, 50.0, scratch);
}

double fb_stats_noise_sorted(const double *sorted, size_t n)
{
    if (n == 0)
        return NAN;
    if (n == 1)
        return INFINITY;
    /* z = the standard normal's 97.5% quantile; sqrt(n)/2 = Binomial(n, 1/2)'s deviation. */
    double half = FB_STATS_CI_Z * sqrt((double)n) / 2.0;
    double j = floor((double)n / 2.0 - half);
    double k = ceil((double)n / 2.0 + 1.0 + half);
    if (j < 1)
        j = 1;
    if (k > (double)n)
        k = (double)n;
    double lo = sorted[(size_t)j - 1], hi = sorted[(size_t)k - 1];
    double width = hi - lo;
    if (width == 0)
        return 0.0;
    double med = fabs(fb_stats_percentile_sorted(sorted, n, 50.0));
    if (med == 0)
        return INFINITY;
    return width / 2.0 / med;
}

int fb_stats_summarize(const double *samples, size_t n, double *scratch,
                       struct fb_stats_summary *out, struct fb_error *err)
{
    out->n = n;
    if (n == 0) {
        out->median = out->min = out->max = out->p10 = out->p90 = out->noise = NAN;
        return FB_OK;
    }
    double *own = NULL;
    if (!scratch) {
        own = malloc(n * sizeof *own);
        if (!own)
            return fb_fail(err, FB_ERR_RUNTIME, "statistics: cannot allocate %zu samples", n);
        scratch = own;
    }
    memcpy(scratch, samples, n * sizeof *samples);
    fb_stats_sort(scratch, n);
    out->min = scratch[0];
    out->max = scratch[n - 1];
    out->median = fb_stats_percentile_sorted(scratch, n, 50.0);
    out->p10 = fb_stats_percentile_sorted(scratch, n, 10.0);
    out->p90 = fb_stats_percentile_sorted(scratch, n, 90.0);
    out->noise = fb_stats_noise_sorted(scratch, n);
    free(own);
    return FB_OK;
}

bool fb_stats_should_stop(const struct fb_stop_rule *rule, int reps, double elapsed_s,
                          double noise)
{
    if (reps <= 0)
        return false;
    if (reps >= rule->max_reps)
        return true;
    if (elapsed_s >= rule->max_time_s)
        return true;
    return reps >= rule->min_reps && elapsed_s >= rule->min_time_s &&
           noise <= rule->target_noise;
}

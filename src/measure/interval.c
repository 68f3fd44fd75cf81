#include "measure/interval.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "measure/stats.h"

/* splitmix64 (Steele, Lea, Flood 2014): a small generator whose whole state is the seed. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The k-th smallest of a[0..m-1] (0-based), reordering a (Hoare's selection, expected O(m);
 * the values are finite: NaNs were left out). */
static double select_kth(double *a, size_t m, size_t k)
{
    size_t lo = 0, hi = m - 1;
    while (lo < hi) {
        double pivot = a[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                double t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return a[k];
    }
    return a[k];
}

/* The median as stats.h defines it (the mean of the two middle values for even m), reordering
 * a: O(m) where a sort would be O(m log m), for the bootstrap's 2 x 2000 medians per pair. */
static double median_of(double *a, size_t m)
{
    double upper = select_kth(a, m, m / 2);
    if (m % 2)
        return upper;
    /* after the selection every a[i < m/2] <= a[m/2]: the lower middle is their maximum */
    double lower = a[0];
    for (size_t i = 1; i < m / 2; i++)
        lower = a[i] > lower ? a[i] : lower;
    return (lower + upper) / 2.0;
}

static bool clean(double t)
{
    return isfinite(t) && t > 0;
}

/* The median of the clean values of t[0..m-1], gathered into scratch; NaN when none. */
static double clean_median(const double *t, size_t m, double *scratch)
{
    size_t n = 0;
    for (size_t i = 0; i < m; i++)
        if (clean(t[i]))
            scratch[n++] = t[i];
    return n ? median_of(scratch, n) : NAN;
}

struct fb_ratio_interval fb_interval_paired(const double *x, const double *y, size_t rounds)
{
    struct fb_ratio_interval out = {NAN, NAN, NAN, 0};
    size_t used = 0; /* rounds with a clean sample of either side: the units resampled */
    for (size_t k = 0; k < rounds; k++) {
        out.rounds += clean(x[k]) && clean(y[k]);
        used += clean(x[k]) || clean(y[k]);
    }
    if (used == 0)
        return out;
    /* ux, uy: the used rounds (NaN where that side has none); sx, sy: one resample's rounds;
     * scratch: one side's clean values for a median; ratios */
    double *memory = malloc((5 * used + FB_INTERVAL_RESAMPLES) * sizeof *memory);
    if (!memory)
        return out;
    double *ux = memory, *uy = ux + used, *sx = uy + used, *sy = sx + used,
           *scratch = sy + used, *ratios = scratch + used;
    for (size_t k = 0, j = 0; k < rounds; k++)
        if (clean(x[k]) || clean(y[k])) {
            ux[j] = x[k];
            uy[j++] = y[k];
        }
    out.ratio = clean_median(ux, used, scratch) / clean_median(uy, used, scratch);
    if (out.rounds >= FB_INTERVAL_MIN_ROUNDS) {
        uint64_t state = FB_INTERVAL_SEED;
        for (size_t b = 0; b < FB_INTERVAL_RESAMPLES; b++) {
            double mx, my;
            do { /* a resample without one side's sample has no ratio: drawn again */
                for (size_t i = 0; i < used; i++) {
                    size_t k = (size_t)(next(&state) % used); /* bias < used / 2^64 */
                    sx[i] = ux[k];
                    sy[i] = uy[k];
                }
                mx = clean_median(sx, used, scratch);
                my = clean_median(sy, used, scratch);
            } while (isnan(mx) || isnan(my));
            ratios[b] = mx / my;
        }
        fb_stats_sort(ratios, FB_INTERVAL_RESAMPLES);
        const double tail = (100.0 - FB_INTERVAL_PERCENT) / 2.0;
        out.lo = fb_stats_percentile_sorted(ratios, FB_INTERVAL_RESAMPLES, tail);
        out.hi = fb_stats_percentile_sorted(ratios, FB_INTERVAL_RESAMPLES, 100.0 - tail);
    }
    free(memory);
    return out;
}

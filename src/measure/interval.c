#include "measure/interval.h"

#include <math.h>
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

struct fb_ratio_interval fb_interval_paired(const double *x, const double *y, size_t rounds)
{
    struct fb_ratio_interval out = {NAN, NAN, NAN, 0};
    size_t m = 0;
    for (size_t k = 0; k < rounds; k++)
        m += isfinite(x[k]) && isfinite(y[k]) && x[k] > 0 && y[k] > 0;
    out.rounds = m;
    if (m == 0)
        return out;
    /* px, py: the paired rounds; sx, sy: one resample (also the sort scratch); ratios */
    double *memory = malloc((4 * m + FB_INTERVAL_RESAMPLES) * sizeof *memory);
    if (!memory)
        return out;
    double *px = memory, *py = px + m, *sx = py + m, *sy = sx + m, *ratios = sy + m;
    for (size_t k = 0, j = 0; k < rounds; k++)
        if (isfinite(x[k]) && isfinite(y[k]) && x[k] > 0 && y[k] > 0) {
            px[j] = x[k];
            py[j++] = y[k];
        }
    out.ratio = fb_stats_median(px, m, sx) / fb_stats_median(py, m, sy);
    if (m >= FB_INTERVAL_MIN_ROUNDS) {
        uint64_t state = FB_INTERVAL_SEED;
        for (size_t b = 0; b < FB_INTERVAL_RESAMPLES; b++) {
            for (size_t i = 0; i < m; i++) {
                size_t k = (size_t)(next(&state) % m); /* bias < m / 2^64: none to speak of */
                sx[i] = px[k];
                sy[i] = py[k];
            }
            ratios[b] = median_of(sx, m) / median_of(sy, m);
        }
        fb_stats_sort(ratios, FB_INTERVAL_RESAMPLES);
        const double tail = (100.0 - FB_INTERVAL_PERCENT) / 2.0;
        out.lo = fb_stats_percentile_sorted(ratios, FB_INTERVAL_RESAMPLES, tail);
        out.hi = fb_stats_percentile_sorted(ratios, FB_INTERVAL_RESAMPLES, 100.0 - tail);
    }
    free(memory);
    return out;
}

/* Noisy points drawn hollow (contract in noisy.h). */
#include "chart/noisy.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"

int fb_chart_open_marker(int point_type)
{
    /* gnuplot's point types from 4 on come in pairs, open then filled: 4/5 square, 6/7
     * circle, 8/9 triangle, 10/11 inverted triangle, 12/13 diamond, 14/15 pentagon. */
    return point_type >= 5 && point_type % 2 == 1 ? point_type - 1 : point_type;
}

/* The series of file 0 that row r would belong to, or SIZE_MAX. */
static size_t series_of(const struct fb_chart_derived *d, const struct fb_record *r)
{
    const char *dtype = fb_dtype_canonical(r->dtype);
    const char *stores = fb_stores_canonical(r->stores);
    bool cold = strcmp(r->cache, "cold") == 0;
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *s = &d->series[i];
        if (s->file == 0 && s->cold == cold && strcmp(s->variant, r->variant) == 0 &&
            strcmp(s->dtype, dtype) == 0 && strcmp(s->stores, stores) == 0)
            return i;
    }
    return SIZE_MAX;
}

/* The time of series s's ok point at n, or NaN (its points are sorted by n). */
static double ok_time(const struct fb_chart_series *s, double n)
{
    size_t lo = 0, hi = s->n_points;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->points[mid].n < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n_points && s->points[lo].n == n ? s->points[lo].time_s : NAN;
}

static int compare_points(const void *pa, const void *pb)
{
    const struct fb_chart_noisy_point *a = pa, *b = pb;
    if (a->of != b->of)
        return a->of < b->of ? -1 : 1;
    return (a->n > b->n) - (a->n < b->n);
}

/* The noisy time of series s at n, or NaN (d->noisy_times sorted by series, n). */
static double noisy_time(const struct fb_chart_derived *d, size_t s, double n)
{
    const struct fb_chart_noisy_point key = {.of = s, .n = n};
    const struct fb_chart_noisy_point *p =
        d->n_noisy_times ? bsearch(&key, d->noisy_times, d->n_noisy_times,
                                   sizeof *d->noisy_times, compare_points)
                         : NULL;
    return p ? p->value : NAN;
}

static int add_times(struct fb_chart_derived *d, const struct fb_csv_table *t0,
                     struct fb_error *err)
{
    size_t noisy = 0;
    for (size_t i = 0; i < t0->n_records; i++)
        noisy += t0->records[i].status == FB_POINT_NOISY;
    if (noisy == 0)
        return FB_OK;
    d->noisy_times = malloc(noisy * sizeof *d->noisy_times);
    if (!d->noisy_times)
        return fb_fail(err, FB_ERR_RUNTIME, "charts: out of memory");
    for (size_t i = 0; i < t0->n_records; i++) {
        const struct fb_record *r = &t0->records[i];
        if (r->status != FB_POINT_NOISY || r->n <= 0 || !isfinite(r->time_median_s) ||
            r->time_median_s <= 0)
            continue;
        size_t s = series_of(d, r);
        /* no series: nothing of that variant was measured clean, nothing to draw it beside;
         * an ok row of the same point (a retake) stands instead of it */
        if (s == SIZE_MAX || isfinite(ok_time(&d->series[s], (double)r->n)))
            continue;
        const struct fb_chart_series *se = &d->series[s];
        d->noisy_times[d->n_noisy_times++] = (struct fb_chart_noisy_point){
            s, (double)r->n, r->time_median_s,
            r->bytes_model > 0 ? (double)r->bytes_model / r->time_median_s / 1e9 : NAN,
            se->colour, fb_chart_open_marker(se->point_type)};
    }
    qsort(d->noisy_times, d->n_noisy_times, sizeof *d->noisy_times, compare_points);
    /* a repeated noisy point: the later row was sorted after the earlier (qsort is not
     * stable, so keep the first of equal keys: either reads the same kind of doubtful time) */
    size_t kept = 0;
    for (size_t i = 0; i < d->n_noisy_times; i++)
        if (kept == 0 || compare_points(&d->noisy_times[kept - 1], &d->noisy_times[i]) != 0)
            d->noisy_times[kept++] = d->noisy_times[i];
    d->n_noisy_times = kept;
    return FB_OK;
}

/* One pair's noisy speedups: the sizes where one side is noisy and the other has a time. */
static void add_pair_speedups(struct fb_chart_derived *d, size_t pi)
{
    const struct fb_chart_pair *p = &d->pairs[pi];
    const struct fb_chart_series *e = &d->series[p->eager];
    for (size_t i = 0; i < d->n_noisy_times; i++) {
        const struct fb_chart_noisy_point *q = &d->noisy_times[i];
        double te, tf;
        if (q->of == p->eager) {
            te = q->value;
            tf = ok_time(&d->series[p->fused], q->n);
            if (isnan(tf))
                tf = noisy_time(d, p->fused, q->n);
        } else if (q->of == p->fused) {
            te = ok_time(e, q->n);
            tf = q->value; /* eager noisy too: counted above, from the eager side */
        } else {
            continue;
        }
        if (!isfinite(te) || !isfinite(tf) || tf <= 0)
            continue;
        d->noisy_speedups[d->n_noisy_speedups++] = (struct fb_chart_noisy_point){
            pi, q->n, te / tf, NAN, e->colour, fb_chart_open_marker(e->point_type)};
    }
}

int fb_chart_add_noisy(struct fb_chart_derived *d, const struct fb_csv_table *t0,
                       struct fb_error *err)
{
    int rc = add_times(d, t0, err);
    if (rc != FB_OK || d->n_noisy_times == 0)
        return rc;
    /* each noisy time gives at most one speedup per pair it is a side of: eager of one pair,
     * fused of possibly several (fused_add_relu: eager_add_relu's and the generic kernel's) */
    size_t most = 0;
    for (size_t pi = 0; pi < d->n_pairs; pi++)
        if (d->series[d->pairs[pi].eager].file == 0)
            for (size_t i = 0; i < d->n_noisy_times; i++)
                most += d->noisy_times[i].of == d->pairs[pi].eager ||
                        d->noisy_times[i].of == d->pairs[pi].fused;
    if (most == 0)
        return FB_OK;
    d->noisy_speedups = malloc(most * sizeof *d->noisy_speedups);
    if (!d->noisy_speedups)
        return fb_fail(err, FB_ERR_RUNTIME, "charts: out of memory");
    for (size_t pi = 0; pi < d->n_pairs; pi++)
        if (d->series[d->pairs[pi].eager].file == 0)
            add_pair_speedups(d, pi);
    return FB_OK;
}

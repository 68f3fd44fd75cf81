/* The regression verdict (contract in verdict.h). */
#include "compare/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

int fb_compare_threshold_parse(const char *text, double *out, struct fb_error *err)
{
    char shown[128];
    fb_text_escape(shown, sizeof shown, text ? text : "");
    if (!text || !*text)
        return fb_fail(err, FB_ERR_USAGE, "--threshold: give a percentage (5%%) or a "
                                          "fraction (0.05)");
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    bool percent = *end == '%';
    if (percent)
        end++;
    if (end == text || *end || errno || !isfinite(v))
        return fb_fail(err, FB_ERR_USAGE, "--threshold %s: not a number (give 5%% or 0.05)",
                       shown);
    if (!percent && v >= 1)
        return fb_fail(err, FB_ERR_USAGE, "--threshold %s: ambiguous; write %s%% for a "
                                          "percentage or a fraction below 1 (0.05)", shown,
                       shown);
    double fraction = percent ? v / 100 : v;
    if (!(fraction > 0) || !(fraction < 10))
        return fb_fail(err, FB_ERR_USAGE, "--threshold %s: must lie between 0 and 1000%% "
                                          "(exclusive)", shown);
    *out = fraction;
    return FB_OK;
}

static size_t find_key(const struct fb_chart_derived *d, const char *key)
{
    return fb_chart_find_series(d, 0, key);
}

/* Appends ", KEY" to the list in buf (room for the message), "..." once it is full. */
static void list_add(char *buf, size_t size, const char *key)
{
    size_t len = strlen(buf);
    if (len + 8 >= size)
        return;
    char shown[FB_CHART_KEY_MAX * 4];
    fb_text_escape(shown, sizeof shown, key);
    int w = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", shown);
    if (w < 0 || (size_t)w >= size - len - 5)
        snprintf(buf + len, size - len, "%s...", len ? ", " : "");
}

/* The series of `a` that `b` lacks, as a list; their count. */
static size_t missing_in(const struct fb_chart_derived *a, const struct fb_chart_derived *b,
                         char *buf, size_t size)
{
    size_t count = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < a->n_series; i++) {
        if (a->series[i].file != 0 || find_key(b, a->series[i].key) != SIZE_MAX)
            continue;
        list_add(buf, size, a->series[i].key);
        count++;
    }
    return count;
}

/* "n = 1000 .. 1e+08 (12 sizes)" over every series of d. */
static void sizes_text(const struct fb_chart_derived *d, char *buf, size_t size)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t count = 0;
    for (size_t i = 0; i < d->n_series; i++)
        for (size_t p = 0; p < d->series[i].n_points; p++) {
            double n = d->series[i].points[p].n;
            lo = fmin(lo, n);
            hi = fmax(hi, n);
            count++;
        }
    if (!count)
        snprintf(buf, size, "no measured point");
    else
        snprintf(buf, size, "n = %.6g .. %.6g (%zu points)", lo, hi, count);
}

static int unusable_variants(const struct fb_chart_derived *base,
                             const struct fb_chart_derived *run, const char *base_name,
                             const char *run_name, struct fb_error *err)
{
    char lacks_run[400], lacks_base[400];
    size_t a = missing_in(base, run, lacks_run, sizeof lacks_run);
    size_t b = missing_in(run, base, lacks_base, sizeof lacks_base);
    if (!a && !b)
        return FB_OK;
    char bn[256], rn[256];
    fb_text_escape(bn, sizeof bn, base_name);
    fb_text_escape(rn, sizeof rn, run_name);
    if (a && b)
        return fb_fail(err, FB_ERR_USAGE, "different variants: %s has %s that %s lacks; %s "
                                          "has %s that %s lacks (compare runs of the same "
                                          "variants, or use --no-verdict)",
                       bn, lacks_run, rn, rn, lacks_base, bn);
    return fb_fail(err, FB_ERR_USAGE, "different variants: %s has %s that %s lacks (compare "
                                      "runs of the same variants, or use --no-verdict)",
                   a ? bn : rn, a ? lacks_run : lacks_base, a ? rn : bn);
}

static double positive_or(double x, double fallback)
{
    return isfinite(x) && x > 0 ? x : fallback;
}

/* The state of a point whose ratio lies in [lo, hi]. */
static enum fb_compare_state judge(double lo, double hi, double threshold)
{
    if (lo > 1 + threshold)
        return FB_COMPARE_REGRESSED;
    if (hi < 1 / (1 + threshold))
        return FB_COMPARE_FASTER;
    return FB_COMPARE_SAME;
}

void fb_compare_point_make(const char *key, const struct fb_chart_point *base,
                           const struct fb_chart_point *run, double threshold,
                           struct fb_compare_point *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->key, sizeof out->key, "%s", key);
    out->n = base->n;
    out->base_s = base->time_s;
    out->run_s = run->time_s;
    out->ratio = run->time_s / base->time_s;
    /* A point without quantiles (an older file) has only its median: a zero-width spread. */
    double b10 = positive_or(base->p10_s, base->time_s), b90 = positive_or(base->p90_s, base->time_s);
    double r10 = positive_or(run->p10_s, run->time_s), r90 = positive_or(run->p90_s, run->time_s);
    out->lo = fmin(r10, run->time_s) / fmax(b90, base->time_s);
    out->hi = fmax(r90, run->time_s) / fmin(b10, base->time_s);
    out->state = judge(out->lo, out->hi, threshold);
}

static int add_point(struct fb_compare_verdict *v, size_t *cap, const char *key,
                     const struct fb_chart_point *b, const struct fb_chart_point *r,
                     double threshold)
{
    if (v->n_points == *cap) {
        size_t next = *cap ? *cap * 2 : 64;
        struct fb_compare_point *grown = realloc(v->points, next * sizeof *grown);
        if (!grown)
            return -1;
        v->points = grown;
        *cap = next;
    }
    fb_compare_point_make(key, b, r, threshold, &v->points[v->n_points++]);
    return 0;
}

/* Points of one common series, matched by n (both sorted by n, one per n). */
static int compare_series(struct fb_compare_verdict *v, size_t *cap,
                          const struct fb_chart_series *b, const struct fb_chart_series *r,
                          double threshold)
{
    size_t i = 0, j = 0;
    while (i < b->n_points || j < r->n_points) {
        if (j == r->n_points || (i < b->n_points && b->points[i].n < r->points[j].n)) {
            v->only_base++;
            i++;
        } else if (i == b->n_points || r->points[j].n < b->points[i].n) {
            v->only_run++;
            j++;
        } else {
            if (add_point(v, cap, b->key, &b->points[i], &r->points[j], threshold))
                return -1;
            i++;
            j++;
        }
    }
    return 0;
}

int fb_compare_verdict(const struct fb_chart_derived *base, const struct fb_chart_derived *run,
                       double threshold, const char *base_name, const char *run_name,
                       struct fb_compare_verdict *out, struct fb_error *err)
{
    memset(out, 0, sizeof *out);
    out->ratio_min = out->ratio_max = NAN;
    out->worst = SIZE_MAX;
    int rc = unusable_variants(base, run, base_name, run_name, err);
    if (rc != FB_OK)
        return rc;
    size_t cap = 0;
    for (size_t i = 0; i < base->n_series; i++) {
        const struct fb_chart_series *b = &base->series[i];
        size_t j = b->file == 0 ? find_key(run, b->key) : SIZE_MAX;
        if (j == SIZE_MAX)
            continue;
        if (compare_series(out, &cap, b, &run->series[j], threshold)) {
            fb_compare_verdict_free(out);
            return fb_fail(err, FB_ERR_RUNTIME, "compare: out of memory");
        }
    }
    if (out->n_points == 0) {
        char bn[256], rn[256], bs[128], rs[128];
        fb_text_escape(bn, sizeof bn, base_name);
        fb_text_escape(rn, sizeof rn, run_name);
        sizes_text(base, bs, sizeof bs);
        sizes_text(run, rs, sizeof rs);
        fb_compare_verdict_free(out);
        return fb_fail(err, FB_ERR_USAGE, "no common sizes: %s has %s, %s has %s, and no "
                                          "variant was measured at an n of both", bn, bs, rn,
                       rs);
    }
    for (size_t k = 0; k < out->n_points; k++) {
        const struct fb_compare_point *p = &out->points[k];
        out->regressed += p->state == FB_COMPARE_REGRESSED;
        out->faster += p->state == FB_COMPARE_FASTER;
        if (!(p->ratio >= out->ratio_min))
            out->ratio_min = p->ratio;
        if (!(p->ratio <= out->ratio_max))
            out->ratio_max = p->ratio;
        if (out->worst == SIZE_MAX || p->lo > out->points[out->worst].lo)
            out->worst = k;
    }
    return FB_OK;
}

void fb_compare_verdict_free(struct fb_compare_verdict *v)
{
    free(v->points);
    memset(v, 0, sizeof *v);
    v->ratio_min = v->ratio_max = NAN;
    v->worst = SIZE_MAX;
}

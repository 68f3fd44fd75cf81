/* Several runs side by side: each run's curves and headline numbers (contract in runs.h). */
#include "compare/runs.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

/* The main pair of the first run: its first pair (chart/derive.h's main pair). */
static int main_pair(struct fb_compare *c, const char *path, struct fb_error *err)
{
    const struct fb_chart_derived *d = c->runs[0].d;
    size_t k = 0;
    while (k < d->n_pairs && !d->pairs[k].primary)
        k++;
    if (k == d->n_pairs) {
        char shown[512];
        return fb_fail(err, FB_ERR_USAGE, "%s: no eager/fused pair measured at a common n: "
                                          "nothing to compare",
                       fb_text_escape(shown, sizeof shown, path));
    }
    const struct fb_chart_series *e = &d->series[d->pairs[k].eager];
    snprintf(c->eager_key, sizeof c->eager_key, "%s", e->key);
    snprintf(c->fused_key, sizeof c->fused_key, "%s", d->series[d->pairs[k].fused].key);
    snprintf(c->pair_title, sizeof c->pair_title, "%s", d->pairs[k].title);
    /* The copy ceiling of the same format: "copy" and the eager key's format suffix. */
    size_t variant_len = strlen(e->variant);
    const char *suffix = strncmp(e->key, e->variant, variant_len) == 0 ? e->key + variant_len
                                                                       : "";
    snprintf(c->copy_key, sizeof c->copy_key, "copy%s", suffix);
    return FB_OK;
}

static size_t find_pair(const struct fb_chart_derived *d, const char *eager, const char *fused)
{
    for (size_t k = 0; k < d->n_pairs; k++)
        if (d->pairs[k].primary && strcmp(d->series[d->pairs[k].eager].key, eager) == 0 &&
            strcmp(d->series[d->pairs[k].fused].key, fused) == 0)
            return k;
    return SIZE_MAX;
}

/* The point of series s at n, or NULL. */
static const struct fb_chart_point *point_at(const struct fb_chart_series *s, double n)
{
    for (size_t i = 0; i < s->n_points; i++)
        if (s->points[i].n == n)
            return &s->points[i];
    return NULL;
}

static void headline(struct fb_compare_run *r, const struct fb_compare *c)
{
    const struct fb_chart_derived *d = r->d;
    r->n_small = r->speedup_small = r->n_large = r->speedup_large = NAN;
    r->copy_fraction_large = r->copy_gbps_max = NAN;
    r->fit_launch_s = d->fit_launch_s > 0 ? d->fit_launch_s : NAN;
    r->fit_gbps = d->fit_gbps > 0 ? d->fit_gbps : NAN;
    if (r->pair != SIZE_MAX && d->pairs[r->pair].n_points) {
        const struct fb_chart_pair *p = &d->pairs[r->pair];
        r->n_small = p->points[0].n;
        r->speedup_small = p->points[0].speedup;
        r->n_large = p->points[p->n_points - 1].n;
        r->speedup_large = p->points[p->n_points - 1].speedup;
        size_t fused = fb_chart_find_series(d, 0, c->fused_key);
        const struct fb_chart_point *at = fused != SIZE_MAX ? point_at(&d->series[fused],
                                                                       r->n_large) : NULL;
        if (at && isfinite(at->copy_fraction))
            r->copy_fraction_large = at->copy_fraction;
    }
    if (r->copy != SIZE_MAX)
        for (size_t i = 0; i < d->series[r->copy].n_points; i++) {
            double bw = d->series[r->copy].points[i].bandwidth_gbps;
            if (isfinite(bw) && !(bw <= r->copy_gbps_max))
                r->copy_gbps_max = bw;
        }
}

/* "YYYY-MM-DD HH:MM" of an ISO 8601 date ("2026-11-30T08:16:46Z"); the text as it is when it
 * is not one. */
static void short_date(char *out, size_t size, const char *date)
{
    if (strlen(date) >= 16 && (date[10] == 'T' || date[10] == ' ') && date[13] == ':')
        snprintf(out, size, "%.10s %.5s", date, date + 11);
    else
        snprintf(out, size, "%s", date);
}

static void labels(struct fb_compare *c, const struct fb_csv_table *tables)
{
    for (size_t i = 0; i < c->n_runs; i++) {
        struct fb_compare_run *r = &c->runs[i];
        const char *date = fb_csv_meta_get(&tables[i], "date");
        short_date(r->date, sizeof r->date, date ? date : "");
        snprintf(r->label, sizeof r->label, "%.120s%s%.32s", r->d->device[0] ? r->d->device
                                                                             : r->d->stems[0],
                 r->date[0] ? ", " : "", r->date);
    }
    /* Two runs that would read the same get their files' stems, and then, when the stems
     * are the same too (results/<partition>/run.csv), their numbers in the table (#). */
    for (int pass = 0; pass < 2; pass++) {
        bool same[FB_CHART_MAX_FILES] = {false};
        for (size_t i = 0; i < c->n_runs; i++)
            for (size_t j = i + 1; j < c->n_runs; j++)
                if (strcmp(c->runs[i].label, c->runs[j].label) == 0)
                    same[i] = same[j] = true;
        for (size_t i = 0; i < c->n_runs; i++) {
            struct fb_compare_run *r = &c->runs[i];
            size_t len = strlen(r->label);
            if (same[i] && pass == 0)
                snprintf(r->label + len, sizeof r->label - len, " (%.80s)", r->d->stems[0]);
            else if (same[i])
                snprintf(r->label + len, sizeof r->label - len, " #%zu", i + 1);
        }
    }
}

/* Run i's fused times against the first run's, at every common n. */
static int ratios(struct fb_compare *c, size_t i)
{
    const struct fb_chart_derived *b = c->runs[0].d, *d = c->runs[i].d;
    size_t sb = fb_chart_find_series(b, 0, c->fused_key);
    size_t sr = fb_chart_find_series(d, 0, c->fused_key);
    if (sb == SIZE_MAX || sr == SIZE_MAX)
        return FB_OK;
    const struct fb_chart_series *base = &b->series[sb], *run = &d->series[sr];
    struct fb_compare_run *r = &c->runs[i];
    r->ratio = calloc(base->n_points ? base->n_points : 1, sizeof *r->ratio);
    if (!r->ratio)
        return FB_ERR_RUNTIME;
    for (size_t p = 0; p < base->n_points; p++) {
        const struct fb_chart_point *at = point_at(run, base->points[p].n);
        if (at)
            fb_compare_point_make(c->fused_key, &base->points[p], at, c->threshold,
                                  &r->ratio[r->n_ratio++]);
    }
    return FB_OK;
}

/* The drawn ranges over every run: n, and the working set over the cache. */
static void ranges(struct fb_compare *c)
{
    c->nmin = c->ws_min = INFINITY;
    c->nmax = c->ws_max = -INFINITY;
    c->cache_axis = true;
    for (size_t i = 0; i < c->n_runs; i++) {
        const struct fb_chart_derived *d = c->runs[i].d;
        bool cache = isfinite(d->n_cache) && d->n_cache > 0;
        c->cache_axis &= cache;
        for (size_t s = 0; s < d->n_series; s++)
            for (size_t p = 0; p < d->series[s].n_points; p++) {
                double n = d->series[s].points[p].n;
                c->nmin = fmin(c->nmin, n);
                c->nmax = fmax(c->nmax, n);
                if (cache) {
                    c->ws_min = fmin(c->ws_min, n / d->n_cache);
                    c->ws_max = fmax(c->ws_max, n / d->n_cache);
                }
            }
    }
    if (!isfinite(c->nmin))
        c->nmin = c->nmax = NAN;
    if (!c->cache_axis || !isfinite(c->ws_min))
        c->ws_min = c->ws_max = NAN;
}

int fb_compare_build(struct fb_compare *c, const struct fb_chart_derived *const *d,
                     const struct fb_csv_table *tables, const char *const *paths, size_t n,
                     double threshold, bool verdict, struct fb_error *err)
{
    memset(c, 0, sizeof *c);
    if (n < 2 || n > FB_CHART_MAX_FILES)
        return fb_fail(err, FB_ERR_USAGE, "--compare: give 2 to %d results files, not %zu",
                       FB_CHART_MAX_FILES, n);
    c->n_runs = n;
    c->threshold = threshold;
    c->verdict = verdict;
    for (size_t i = 0; i < n; i++) {
        c->runs[i].d = d[i];
        c->runs[i].path = paths[i];
        fb_compare_verdict_free(&c->verdicts[i]);
    }
    int rc = main_pair(c, paths[0], err);
    if (rc != FB_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        struct fb_compare_run *r = &c->runs[i];
        r->pair = find_pair(d[i], c->eager_key, c->fused_key);
        r->copy = fb_chart_find_series(d[i], 0, c->copy_key);
        headline(r, c);
        if (i > 0 && ratios(c, i) != FB_OK)
            return fb_fail(err, FB_ERR_RUNTIME, "--compare: out of memory");
    }
    labels(c, tables);
    ranges(c);
    for (size_t i = 1; verdict && i < n; i++) {
        rc = fb_compare_verdict(d[0], d[i], threshold, paths[0], paths[i], &c->verdicts[i], err);
        if (rc != FB_OK)
            return rc;
    }
    return FB_OK;
}

void fb_compare_free(struct fb_compare *c)
{
    for (size_t i = 0; i < c->n_runs && i < FB_CHART_MAX_FILES; i++) {
        free(c->runs[i].ratio);
        fb_compare_verdict_free(&c->verdicts[i]);
    }
    memset(c, 0, sizeof *c);
}

size_t fb_compare_regressed_runs(const struct fb_compare *c)
{
    size_t count = 0;
    for (size_t i = 1; c->verdict && i < c->n_runs; i++)
        count += c->verdicts[i].regressed > 0;
    return count;
}

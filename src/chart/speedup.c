/* The speedup chart: each eager series over its pair with its interval, each pair's model
 * lines where they apply, the regimes, and the speedup the fit predicts (plots/regimes.gp,
 * plots/speedup.gp).
 *   speedup_lines.tsv  the pairs' models (chart/lines.h): launch limit up to n_launch, traffic
 *                      ratios (with write-allocate where stores read their lines) from n_cache
 *   predicted.tsv      i, colour: the speedup the fit predicts per distinct pair model;
 *                      p<i>.dat: n, speedup, speedup_cache (with B_c where the eager bytes
 *                      fit the cache) */
#include "chart/charts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart/lines.h"
#include "chart/model.h"

static const char *no_pairs(const struct fb_chart_derived *d)
{
    return d->n_pairs ? NULL : "no eager/fused pair at a common n";
}

static bool positive(double x)
{
    return isfinite(x) && x > 0;
}

/* A pair's launch limit, traffic ratio and write-allocate ratio. */
static void add_pair_lines(struct fb_chart_lines *lines, const struct fb_chart_derived *d,
                           const struct fb_chart_pair *p, bool cpu_both)
{
    const struct fb_chart_series *e = &d->series[p->eager], *f = &d->series[p->fused];
    char title[FB_CHART_TEXT_MAX], frac[48];
    if (isfinite(p->launch_limit) && p->launch_limit != 1.0) {
        /* what the line is, as the speedup of the launch-bound regime sits near it (above it
         * where an eager launch costs more than the fused one) */
        if (e->host_launches > 0 && f->host_launches > 0)
            snprintf(title, sizeof title, "model: launch limit %.3g (launches: %.0f / %.0f)",
                     p->launch_limit, e->host_launches, f->host_launches);
        else
            snprintf(title, sizeof title, "model: launch limit %.3g", p->launch_limit);
        fb_chart_line_add(lines, p->launch_limit, FB_DASH_LAUNCH, title, e->colour);
    }
    fb_chart_fraction_text(p->elements_eager, p->elements_fused, frac, sizeof frac);
    /* with both store kinds on a CPU, this is the streaming stores' model (the normal
     * stores' is the write-allocate line) */
    snprintf(title, sizeof title, "model: traffic ratio %s%s", frac,
             cpu_both ? " (streaming stores)" : "");
    fb_chart_line_add(lines, p->traffic_ratio, FB_DASH_TRAFFIC, title, e->colour);
    if (isfinite(p->traffic_ratio_wa)) {
        fb_chart_fraction_text(fb_model_traffic(e->elements, fb_chart_stores(e), true),
                               fb_model_traffic(f->elements, fb_chart_stores(f), true), frac,
                               sizeof frac);
        snprintf(title, sizeof title, "model: %s %s",
                 cpu_both ? "write-allocate (normal stores)" : "traffic with write-allocate (CPU)",
                 frac);
        fb_chart_line_add(lines, p->traffic_ratio_wa, FB_DASH_WA, title, e->colour);
    }
}

void fb_chart_speedup_lines(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    bool streaming = false, normal = false;
    for (size_t i = 0; i < d->n_pairs; i++) {
        bool s = strcmp(d->series[d->pairs[i].eager].stores, "streaming") == 0;
        streaming |= s;
        normal |= !s;
    }
    bool cpu_both = strcmp(d->backend, "cpu") == 0 && streaming && normal;
    struct fb_chart_lines lines = {.n = 0};
    for (size_t i = 0; i < d->n_pairs; i++)
        add_pair_lines(&lines, d, &d->pairs[i], cpu_both);
    fb_chart_lines_settle(&lines, FB_DASH_LAUNCH, "models: launch limits (pairs' colours)");
    fb_chart_lines_settle(&lines, FB_DASH_TRAFFIC, "models: traffic ratios (pairs' colours)");
    fb_chart_lines_settle(&lines, FB_DASH_WA, "models: write-allocate traffic (pairs' colours)");
    /* each where its model applies: a launch limit is what the speedup tends to where
     * launches dominate, a traffic ratio where DRAM traffic does */
    for (size_t i = 0; i < lines.n; i++) {
        struct fb_chart_line *l = &lines.v[i];
        if (l->dash == FB_DASH_LAUNCH && positive(d->n_launch))
            l->to = d->n_launch;
        else if (l->dash != FB_DASH_LAUNCH && positive(d->n_cache))
            l->from = d->n_cache;
    }
    fb_chart_lines_table(ts, "speedup_lines.tsv", &lines);
}

/* Whether an earlier pair the fit covers has the same model as pair i. */
static bool repeated(const struct fb_chart_derived *d, size_t i)
{
    const struct fb_chart_series *e = &d->series[d->pairs[i].eager],
                                 *f = &d->series[d->pairs[i].fused];
    for (size_t k = 0; k < i; k++) {
        const struct fb_chart_pair *q = &d->pairs[k];
        const struct fb_chart_series *qe = &d->series[q->eager], *qf = &d->series[q->fused];
        if (q->primary && qe->elements == e->elements && qf->elements == f->elements &&
            qe->host_launches == e->host_launches && qf->host_launches == f->host_launches &&
            strcmp(qe->dtype, d->fit_dtype) == 0 && strcmp(qe->stores, d->fit_stores) == 0)
            return true;
    }
    return false;
}

static void add_predicted(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    struct fb_table *index = fb_table_add(ts, "i colour", "predicted.tsv");
    const double L = d->fit_launch_s, B = d->fit_gbps * 1e9, Bc = d->fit_cache_gbps * 1e9;
    for (size_t i = 0; i < d->n_pairs && fb_chart_has_fit(d); i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        if (!fb_chart_fit_covers(d, p) || repeated(d, i))
            continue;
        const struct fb_chart_series *e = &d->series[p->eager], *f = &d->series[p->fused];
        double size = (double)fb_model_element_size(e->dtype);
        fb_table_num(index, (double)fb_table_rows(index) + 1);
        fb_table_colour(index, e->colour);
        struct fb_table *c = fb_table_add(ts, "n speedup speedup_cache", "p%zu.dat",
                                          fb_table_rows(index));
        for (size_t j = 0; j < FB_CHART_CURVE_POINTS; j++) {
            double n = fb_chart_curve_n(d, j), be = e->elements * size * n,
                   bf = f->elements * size * n;
            fb_table_nums(c, (const double[]){n, fb_model_time(e->host_launches, L, be, B) /
                                                     fb_model_time(f->host_launches, L, bf, B),
                fb_chart_has_cache_fit(d) && be <= d->cache_bytes
                    ? fb_model_time(e->host_launches, L, be, Bc) /
                          fb_model_time(f->host_launches, L, bf, Bc)
                    : NAN}, 3);
        }
    }
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    fb_chart_speedup_lines(d, ts);
    add_predicted(d, ts);
}

const struct fb_chart fb_chart_speedup = {"speedup", {"regimes.gp", "speedup.gp"}, 1600, 1000,
                                          20, no_pairs, tables};

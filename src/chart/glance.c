/* The at-a-glance figure: its numbers and its tables (contract in glance.h). */
#include "chart/glance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/charts.h"
#include "chart/label.h"
#include "chart/model.h"

static bool positive(double x)
{
    return isfinite(x) && x > 0;
}

/* The point of series s at n, or NULL. */
static const struct fb_chart_point *at(const struct fb_chart_series *s, double n)
{
    for (size_t i = 0; i < s->n_points; i++)
        if (s->points[i].n == n)
            return &s->points[i];
    return NULL;
}

/* Measured DRAM traffic of s in arrays of n, at its largest n with counters. */
static double dram_of(const struct fb_chart_series *s)
{
    for (size_t i = s->n_points; i-- > 0;)
        if (isfinite(s->points[i].dram_elements))
            return s->points[i].dram_elements;
    return NAN;
}

static void pick_pairs(const struct fb_chart_derived *d, struct fb_glance *g)
{
    for (size_t i = 0; i < d->n_pairs && g->n_pairs < FB_GLANCE_PAIRS; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        const struct fb_chart_series *e = &d->series[p->eager], *f = &d->series[p->fused];
        if (!p->primary || strcmp(e->key, e->variant) != 0)
            continue;
        struct fb_glance_side se = {e->launches, e->host_launches, e->elements, dram_of(e)};
        struct fb_glance_side sf = {f->launches, f->host_launches, f->elements, dram_of(f)};
        bool seen = false;
        for (size_t k = 0; k < g->n_pairs && !seen; k++) {
            const struct fb_glance_side *a = &g->side[k][0], *b = &g->side[k][1];
            seen = a->kernels == se.kernels && a->launches == se.launches &&
                   a->arrays == se.arrays && b->kernels == sf.kernels &&
                   b->launches == sf.launches && b->arrays == sf.arrays;
        }
        if (seen)
            continue;
        size_t k = g->n_pairs++;
        g->pair[k] = i;
        g->side[k][0] = se;
        g->side[k][1] = sf;
        snprintf(g->what[k], sizeof g->what[k], "%s", e->title);
        /* the count is on the bars above the name: the name alone, shorter on a tick */
        snprintf(g->name[k], sizeof g->name[k], "%s", e->title);
        char *count = strrchr(g->name[k], '(');
        if (count && count > g->name[k] && count[-1] == ' ' &&
            (strstr(count, "kernel") || strstr(count, "launch")))
            count[-1] = '\0';
    }
}

/* The main pair's measured n in [lo, hi] nearest to target on a log scale, or NaN. */
static double nearest(const struct fb_chart_pair *p, double lo, double hi, double target)
{
    double best = NAN, gap = INFINITY;
    for (size_t i = 0; i < p->n_points; i++) {
        double n = p->points[i].n;
        if (n < lo || n > hi)
            continue;
        double g = fabs(log(n / target));
        if (g < gap) {
            gap = g;
            best = n;
        }
    }
    return best;
}

static void pick_sizes(const struct fb_chart_derived *d, struct fb_glance *g)
{
    const struct fb_chart_pair *main = &d->pairs[g->pair[0]];
    double lo = d->nmin, hi = d->nmax;
    double launch_end = positive(d->n_launch) ? fmin(fmax(d->n_launch, lo), hi) : lo;
    double cache_end = positive(d->n_cache) ? fmin(fmax(d->n_cache, launch_end), hi) : hi;
    const struct { double lo, hi, target; const char *name; } regimes[FB_GLANCE_SIZES] = {
        {lo, launch_end, sqrt(lo * launch_end), "launch-bound"},
        {launch_end * (1 + 1e-12), cache_end, sqrt(launch_end * cache_end), "in cache"},
        {cache_end * (1 + 1e-12), hi, hi, "memory-bound"},
    };
    for (size_t r = 0; r < FB_GLANCE_SIZES; r++) {
        double n = regimes[r].lo > regimes[r].hi
                       ? NAN : nearest(main, regimes[r].lo, regimes[r].hi, regimes[r].target);
        if (isnan(n)) {
            /* said on the figure, so that a panel is never missing without a word */
            char a[32], b[32];
            fb_chart_n_text(launch_end, a, sizeof a);
            fb_chart_n_text(cache_end, b, sizeof b);
            char *m = g->missing[g->n_missing++];
            const size_t size = sizeof g->missing[0];
            if (r == 2 && !positive(d->n_cache))
                snprintf(m, size, "no %s panel: the cache size is not known", regimes[r].name);
            else if (r == 0)
                snprintf(m, size, "no %s panel: no size measured up to n = %s", regimes[r].name,
                         a);
            else if (r == 1)
                snprintf(m, size, "no %s panel: no size measured in n = %s .. %s",
                         regimes[r].name, a, b);
            else /* the cache's own bound, not the largest n it was clipped to */
                snprintf(m, size, "no %s panel: no size measured beyond the cache (n = %.3g)",
                         regimes[r].name, d->n_cache);
            continue;
        }
        g->n[g->n_sizes] = n;
        g->regime[g->n_sizes] = regimes[r].name;
        g->n_sizes++;
    }
}

static void split(const struct fb_chart_derived *d, struct fb_glance *g)
{
    double L = d->fit_launch_s, B = d->fit_gbps * 1e9, Bc = d->fit_cache_gbps * 1e9;
    g->launch_fitted = positive(L);
    g->bytes_fitted = positive(B);
    /* exact: the part the fit lacks is the part left out of the bars */
    snprintf(g->unfitted, sizeof g->unfitted, "%s",
             g->launch_fitted ? (g->bytes_fitted ? "" : "(B not fitted)")
                              : (g->bytes_fitted ? "(L not fitted)" : "(L and B not fitted)"));
    for (size_t j = 0; j < g->n_sizes; j++)
        for (size_t k = 0; k < g->n_pairs; k++) {
            const struct fb_chart_pair *p = &d->pairs[g->pair[k]];
            const size_t sides[2] = {p->eager, p->fused};
            for (int s = 0; s < 2; s++) {
                const struct fb_chart_series *se = &d->series[sides[s]];
                const struct fb_chart_point *pt = at(se, g->n[j]);
                double bytes = se->elements * (double)fb_model_element_size(se->dtype) * g->n[j];
                double bw = positive(Bc) && positive(d->cache_bytes) && bytes <= d->cache_bytes
                                ? Bc : B;
                g->measured_s[j][k][s] = pt ? pt->time_s : NAN;
                g->launch_s[j][k][s] = g->launch_fitted && positive(se->host_launches)
                                           ? se->host_launches * L : NAN;
                g->bytes_s[j][k][s] = positive(bw) && positive(bytes) ? bytes / bw : NAN;
            }
        }
}

void fb_glance_derive(const struct fb_chart_derived *d, struct fb_glance *g)
{
    memset(g, 0, sizeof *g);
    pick_pairs(d, g);
    if (g->n_pairs == 0)
        return;
    pick_sizes(d, g);
    split(d, g);
}

/* --- its tables ------------------------------------------------------------------------ */

/* The unit a panel's times are drawn in: the largest that keeps max_s at 1 or more. */
static void time_unit(double max_s, const char **unit, double *scale)
{
    static const struct { const char *unit; double scale; } units[] = {
        {"s", 1}, {"ms", 1e3}, {"\xC2\xB5s", 1e6}, {"ns", 1e9}};
    size_t u = 0;
    while (u + 1 < 4 && !(isfinite(max_s) && max_s * units[u].scale >= 1))
        u++;
    *unit = units[u].unit;
    *scale = units[u].scale;
}

static void add_glance_pairs(struct fb_tables *ts, const struct fb_chart_derived *d,
                             const struct fb_glance *g)
{
    struct fb_table *t = fb_table_add(ts, "k title ek fk el fl ea fa ed fd ec fc ep fp edt fdt "
                                      "fpairs ftitle name", "glance_pairs.tsv");
    for (size_t k = 0; k < g->n_pairs; k++) {
        const struct fb_chart_pair *p = &d->pairs[g->pair[k]];
        const struct fb_chart_series *es = &d->series[p->eager], *fs = &d->series[p->fused];
        fb_table_num(t, (double)(k + 1));
        fb_table_text(t, g->what[k]);
        const struct fb_glance_side *e = &g->side[k][0], *f = &g->side[k][1];
        fb_table_nums(t, (const double[]){e->kernels, f->kernels, e->launches, f->launches,
            e->arrays, f->arrays, e->dram, f->dram, es->colour & 0xFFFFFF, fs->colour & 0xFFFFFF,
            es->point_type, fs->point_type, es->dash, fs->dash}, 14);
        /* A fused series that several pairs share (fused_add_relu) gets one key entry, on
         * its first pair, naming them all: "1, 2". */
        char pairs[FB_GLANCE_PAIRS * 4] = "";
        bool first = true;
        for (size_t q = 0; q < g->n_pairs; q++) {
            if (d->pairs[g->pair[q]].fused != p->fused)
                continue;
            if (q < k)
                first = false;
            size_t len = strlen(pairs);
            snprintf(pairs + len, sizeof pairs - len, "%s%zu", len ? ", " : "", q + 1);
        }
        fb_table_text(t, first ? pairs : "");
        fb_table_text(t, fs->title);
        fb_table_text(t, g->name[k]);
    }
}

static void add_glance(struct fb_tables *ts, const struct fb_chart_derived *d,
                       const struct fb_glance *g)
{
    add_glance_pairs(ts, d, g);
    struct fb_table *t = fb_table_add(ts, "j title unit scale", "glance.tsv");
    for (size_t j = 0; j < g->n_sizes; j++) {
        double max_s = 0;
        for (size_t k = 0; k < g->n_pairs; k++)
            for (int s = 0; s < 2; s++) {
                double parts = (isfinite(g->launch_s[j][k][s]) ? g->launch_s[j][k][s] : 0) +
                               (isfinite(g->bytes_s[j][k][s]) ? g->bytes_s[j][k][s] : 0);
                max_s = fmax(max_s, fmax(parts, isfinite(g->measured_s[j][k][s])
                                                    ? g->measured_s[j][k][s] : 0));
            }
        const char *unit;
        double scale;
        time_unit(max_s, &unit, &scale);
        char title[96], size[32];
        fb_chart_n_text(g->n[j], size, sizeof size);
        snprintf(title, sizeof title, "%s: n = %s%s%s", g->regime[j], size,
                 g->unfitted[0] ? " " : "", g->unfitted);
        fb_table_num(t, (double)(j + 1));
        fb_table_text(t, title);
        fb_table_text(t, unit);
        fb_table_num(t, scale);
        struct fb_table *dat = fb_table_add(ts, "x launch bytes measured colour side k pt",
                                            "g%zu.dat", j + 1);
        for (size_t k = 0; k < g->n_pairs; k++) {
            const struct fb_chart_pair *p = &d->pairs[g->pair[k]];
            for (int s = 0; s < 2; s++) {
                /* a part the fit lacks is drawn as 0 (the panel's title says which) */
                const double launch = g->launch_s[j][k][s], bytes = g->bytes_s[j][k][s];
                const struct fb_chart_series *se = &d->series[s ? p->fused : p->eager];
                /* pair k at 3k: eager at 3k - 1.6, fused at 3k - 0.6 (bars 0.9 wide) */
                fb_table_nums(dat, (const double[]){3.0 * (double)(k + 1) - (s ? 0.6 : 1.6),
                    isfinite(launch) ? launch * scale : 0, isfinite(bytes) ? bytes * scale : 0,
                    g->measured_s[j][k][s] * scale, se->colour & 0xFFFFFF}, 5);
                fb_table_text(dat, s ? "fused" : "eager");
                fb_table_nums(dat, (const double[]){k + 1, se->point_type}, 2);
            }
        }
    }
    for (size_t m = 0; m < g->n_missing; m++) {
        fb_table_num(t, 0);
        fb_table_text(t, g->missing[m]);
        fb_table_text(t, "-");
        fb_table_num(t, 1);
    }
}

static const char *no_glance(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_pairs; i++)
        if (d->pairs[i].primary)
            return NULL;
    return "no eager/fused pair in the charted run";
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    struct fb_glance *g = malloc(sizeof *g);
    if (!g) {
        ts->failed = true;
        return;
    }
    fb_glance_derive(d, g);
    add_glance(ts, d, g);
    free(g);
}

/* what each side launches and moves, and where a call's time goes, in four panels */
const struct fb_chart fb_chart_glance = {"glance", {"glance.gp"}, 2000, 1000, 20, no_glance,
                                         tables};

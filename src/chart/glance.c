/* The at-a-glance figure's numbers (contract in glance.h). */
#include "chart/glance.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

/* n as a panel title writes it: 215, 146780, 1K, 100M. */
static void n_text(double n, char *out, size_t size)
{
    if (n >= 1e6 && fmod(n, 1e6) == 0)
        snprintf(out, size, "%gM", n / 1e6);
    else if (n >= 1e3 && fmod(n, 1e3) == 0)
        snprintf(out, size, "%gK", n / 1e3);
    else
        snprintf(out, size, "%.6g", n);
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
            n_text(launch_end, a, sizeof a);
            n_text(cache_end, b, sizeof b);
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

/* The chain-length chart (speedup-k): the speedup against a chain's ops k, a line per size
 * through the first chain of each length, each length against its own launch limit and
 * traffic ratios, another chain of a length named once; when the charted run has chains of
 * 3 or more lengths, in one format, the first chain's (plots/chain_length.gp).
 *   chains.tsv         i, title ("n = 1K"), colour, pt: one per size; c<i>.dat: kernels,
 *                      speedup (the first chain at each length)
 *   chain_others.tsv   kernels, speedup, name, i (its size), colour (an integer), label (the
 *                      name on each chain's highest point, "" on the others)
 *   chain_model.tsv    kernels, launch_limit, traffic_ratio, traffic_ratio_wa: per length;
 *   chain_model_wa.tsv the same, of the lengths with a write-allocate ratio */
#include "chart/charts.h"
#include "chart/label.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A chain pair of the charted run at one size. */
struct chain_point {
    double kernels, n, speedup;
    const struct fb_chart_pair *pair;
    bool first_at_k; /* the first chain with this many ops (drawn joined by size) */
    const char *name; /* the eager variant */
};

struct chains {
    struct chain_point *v;
    size_t n, lengths; /* lengths: distinct k */
};

/* The chain pairs' points, in one format (the first chain's). */
static void find_chains(const struct fb_chart_derived *d, struct chains *c)
{
    size_t total = 0;
    for (size_t i = 0; i < d->n_pairs; i++)
        if (d->pairs[i].primary && d->pairs[i].chain)
            total += d->pairs[i].n_points;
    *c = (struct chains){malloc((total ? total : 1) * sizeof *c->v), 0, 0};
    const struct fb_chart_series *format = NULL;
    double seen[64];
    for (size_t i = 0; i < d->n_pairs && c->v; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        const struct fb_chart_series *e = &d->series[p->eager];
        if (!p->primary || !p->chain)
            continue;
        if (!format)
            format = e;
        if (strcmp(e->dtype, format->dtype) || strcmp(e->stores, format->stores) ||
            e->cold != format->cold)
            continue;
        double kernels = isfinite(e->launches) ? e->launches : e->model_launches;
        if (!(kernels >= 1))
            continue;
        bool first = true;
        for (size_t k = 0; k < c->lengths && first; k++)
            first = seen[k] != kernels;
        if (first && c->lengths < 64)
            seen[c->lengths++] = kernels;
        for (size_t j = 0; j < p->n_points; j++)
            c->v[c->n++] = (struct chain_point){kernels, p->points[j].n, p->points[j].speedup,
                                                p, first, e->variant};
    }
}

static const char *few_chains(const struct fb_chart_derived *d)
{
    struct chains c;
    find_chains(d, &c);
    free(c.v);
    return c.lengths >= 3 ? NULL : "fewer than 3 chain lengths";
}

static const unsigned colours[] = {0x1f77b4, 0x2ca02c, 0xd62728, 0x9467bd, 0xff7f0e};

/* chains.tsv and c<i>.dat; ns gets the sizes, ascending. */
static size_t add_sizes(const struct chains *c, struct fb_tables *ts, double ns[64])
{
    static const int points[] = {7, 5, 9, 11, 13};
    size_t n_ns = 0;
    for (size_t i = 0; i < c->n; i++) {
        bool seen = false;
        for (size_t k = 0; k < n_ns && !seen; k++)
            seen = ns[k] == c->v[i].n;
        if (!seen && n_ns < 64) {
            size_t at = n_ns++; /* sorted insert */
            for (; at > 0 && ns[at - 1] > c->v[i].n; at--)
                ns[at] = ns[at - 1];
            ns[at] = c->v[i].n;
        }
    }
    struct fb_table *t = fb_table_add(ts, "i title colour pt", "chains.tsv");
    for (size_t s = 0; s < n_ns; s++) {
        char title[32], n[24];
        fb_chart_n_text(ns[s], n, sizeof n);
        snprintf(title, sizeof title, "n = %s", n);
        fb_table_num(t, (double)(s + 1));
        fb_table_text(t, title);
        fb_table_colour(t, colours[s % 5]);
        fb_table_num(t, points[s % 5]);
        struct fb_table *dat = fb_table_add(ts, "kernels speedup", "c%zu.dat", s + 1);
        for (double k = 1; k <= 64; k++) /* by kernels: the chains were added in file order */
            for (size_t i = 0; i < c->n; i++)
                if (c->v[i].n == ns[s] && c->v[i].first_at_k && c->v[i].kernels == k)
                    fb_table_nums(dat, (const double[]){k, c->v[i].speedup}, 2);
    }
    return n_ns;
}

static void add_others(const struct chains *c, struct fb_tables *ts, const double *ns,
                       size_t n_ns)
{
    struct fb_table *t = fb_table_add(ts, "kernels speedup name i colour label",
                                      "chain_others.tsv");
    for (size_t i = 0; i < c->n; i++) {
        const struct chain_point *p = &c->v[i];
        if (p->first_at_k)
            continue;
        size_t s = 0;
        while (s < n_ns && ns[s] != p->n)
            s++;
        /* the chain's name on its highest point only (one label per chain, not one per size
         * stacked at one k) */
        bool top = true;
        for (size_t o = 0; o < c->n && top; o++) {
            const struct chain_point *q = &c->v[o];
            top = o == i || q->first_at_k || strcmp(q->name, p->name) != 0 ||
                  q->speedup < p->speedup || (q->speedup == p->speedup && o > i);
        }
        fb_table_nums(t, (const double[]){p->kernels, p->speedup}, 2);
        fb_table_text(t, p->name);
        fb_table_nums(t, (const double[]){s + 1, colours[s % 5]}, 2);
        fb_table_text(t, top ? p->name : "");
    }
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    struct chains c;
    find_chains(d, &c);
    if (!c.v) {
        ts->failed = true;
        return;
    }
    double ns[64];
    size_t n_ns = add_sizes(&c, ts, ns);
    add_others(&c, ts, ns, n_ns);
    struct fb_table *model = fb_table_add(ts, "kernels launch_limit traffic_ratio "
                                          "traffic_ratio_wa", "chain_model.tsv");
    struct fb_table *wa = fb_table_add(ts, "kernels launch_limit traffic_ratio "
                                       "traffic_ratio_wa", "chain_model_wa.tsv");
    for (double k = 1; k <= 64; k++)
        for (size_t i = 0; i < c.n; i++) {
            const struct fb_chart_pair *p = c.v[i].pair;
            if (!c.v[i].first_at_k || c.v[i].kernels != k)
                continue;
            const double row[] = {k, p->launch_limit, p->traffic_ratio, p->traffic_ratio_wa};
            fb_table_nums(model, row, 4);
            if (isfinite(p->traffic_ratio_wa))
                fb_table_nums(wa, row, 4);
            break;
        }
    free(c.v);
}

const struct fb_chart fb_chart_speedup_k = {"speedup-k", {"chain_length.gp"}, 1600, 1000, 20,
                                            few_chains, tables};

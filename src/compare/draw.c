/* The compare charts' tables and chart list (contract in runs.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chart/table.h"
#include "compare/runs.h"

/* One colour per run, told apart in print and by most colour-blind readers (Tableau 10's
 * first eight, reordered so that the first two runs are blue and red), and one point type. */
static const unsigned run_colours[FB_CHART_MAX_FILES] = {0x1f77b4, 0xd62728, 0x2ca02c,
                                                         0xff7f0e, 0x9467bd, 0x8c564b,
                                                         0xe377c2, 0x17becf};
static const int run_points[FB_CHART_MAX_FILES] = {7, 5, 9, 11, 13, 15, 3, 1};

static const struct fb_chart_point *point_at(const struct fb_chart_derived *d, size_t s,
                                             double n)
{
    if (s == SIZE_MAX)
        return NULL;
    for (size_t i = 0; i < d->series[s].n_points; i++)
        if (d->series[s].points[i].n == n)
            return &d->series[s].points[i];
    return NULL;
}

static const struct fb_chart_speedup *speedup_at(const struct fb_compare_run *r, double n)
{
    if (r->pair == SIZE_MAX)
        return NULL;
    const struct fb_chart_pair *p = &r->d->pairs[r->pair];
    for (size_t i = 0; i < p->n_points; i++)
        if (p->points[i].n == n)
            return &p->points[i];
    return NULL;
}

/* r<i>.dat: one row per n of the run's fused series (chart/derive.h: one point per n). */
static void add_run(struct fb_tables *ts, const struct fb_compare *c, size_t i)
{
    const struct fb_chart_derived *d = c->runs[i].d;
    struct fb_table *t = fb_table_add(ts, "n ws speedup lo hi copy_fraction copy_gbps fused_gbps",
                                      "r%zu.dat", i + 1);
    size_t fused = fb_chart_find_series(d, 0, c->fused_key);
    for (size_t k = 0; fused != SIZE_MAX && k < d->series[fused].n_points; k++) {
        const struct fb_chart_point *f = &d->series[fused].points[k];
        const struct fb_chart_speedup *s = speedup_at(&c->runs[i], f->n);
        const struct fb_chart_point *copy = point_at(d, c->runs[i].copy, f->n);
        fb_table_nums(t, (const double[]){f->n, d->n_cache > 0 ? f->n / d->n_cache : NAN,
            s ? s->speedup : NAN, s ? s->lo : NAN, s ? s->hi : NAN, f->copy_fraction * 100,
            copy ? copy->bandwidth_gbps : NAN, f->bandwidth_gbps}, 8);
    }
}

void fb_compare_tables_add(struct fb_tables *ts, const void *compare)
{
    const struct fb_compare *c = compare;
    for (size_t i = 0; i < c->n_runs; i++) {
        add_run(ts, c, i);
        if (i == 0)
            continue;
        /* q<i>.dat: run i's fused time over the first run's */
        struct fb_table *q = fb_table_add(ts, "n ratio lo hi", "q%zu.dat", i + 1);
        for (size_t k = 0; k < c->runs[i].n_ratio; k++)
            fb_table_nums(q, (const double[]){c->runs[i].ratio[k].n, c->runs[i].ratio[k].ratio,
                                              c->runs[i].ratio[k].lo, c->runs[i].ratio[k].hi}, 4);
    }
    struct fb_table *t = fb_table_add(ts, "i title colour pt", "cmp_runs.tsv");
    for (size_t i = 0; i < c->n_runs; i++) {
        fb_table_num(t, (double)(i + 1));
        fb_table_text(t, c->runs[i].label);
        fb_table_colour(t, run_colours[i]);
        fb_table_num(t, run_points[i]);
    }
    t = fb_table_add(ts, "pair fused copy", "cmp_labels.tsv");
    fb_table_text(t, c->pair_title);
    fb_table_text(t, c->fused_key);
    fb_table_text(t, c->copy_key);
    t = fb_table_add(ts, "nmin nmax ws_min ws_max cache_axis threshold", "cmp_numbers.tsv");
    fb_table_nums(t, (const double[]){c->nmin, c->nmax, c->cache_axis ? c->ws_min : -1,
        c->cache_axis ? c->ws_max : -1, c->cache_axis, c->verdict ? c->threshold : -1}, 6);
}

size_t fb_compare_charts(const struct fb_compare *c, const struct fb_chart **charts)
{
    static const struct fb_chart all[] = {
        {"speedup", {"compare_common.gp", "compare_speedup.gp"}, 1600, 1000, 20, NULL, NULL},
        {"speedup-cache", {"compare_common.gp", "compare_speedup_cache.gp"}, 1600, 1000, 20,
         NULL, NULL},
        {"copy_fraction", {"compare_common.gp", "compare_copy_fraction.gp"}, 1600, 1000, 20,
         NULL, NULL},
        {"bandwidth", {"compare_common.gp", "compare_bandwidth.gp"}, 1600, 1000, 20, NULL, NULL},
        {"ratio", {"compare_common.gp", "compare_ratio.gp"}, 1600, 1000, 20, NULL, NULL},
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (c->cache_axis || strcmp(all[i].name, "speedup-cache") != 0)
            charts[n++] = &all[i];
    return n;
}

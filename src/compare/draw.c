/* The compare charts' tables and chart list (contract in runs.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chart/label.h"
#include "chart/tsv.h"
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
static int write_run(int dirfd, const struct fb_compare *c, size_t i, size_t *rows,
                     struct fb_error *err)
{
    const struct fb_compare_run *r = &c->runs[i];
    const struct fb_chart_derived *d = r->d;
    char name[32];
    snprintf(name, sizeof name, "r%zu.dat", i + 1);
    struct fb_tsv t;
    int rc = fb_tsv_open(&t, dirfd, name, false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "n\tws\tspeedup\tlo\thi\tcopy_fraction\tcopy_gbps\tfused_gbps\n");
    size_t fused = fb_chart_find_series(d, 0, c->fused_key);
    *rows = 0;
    for (size_t k = 0; fused != SIZE_MAX && k < d->series[fused].n_points; k++) {
        const struct fb_chart_point *f = &d->series[fused].points[k];
        const struct fb_chart_speedup *s = speedup_at(r, f->n);
        const struct fb_chart_point *copy = point_at(d, r->copy, f->n);
        fb_tsv_num(&t, f->n, "\t");
        fb_tsv_num(&t, d->n_cache > 0 ? f->n / d->n_cache : NAN, "\t");
        fb_tsv_num(&t, s ? s->speedup : NAN, "\t");
        fb_tsv_num(&t, s ? s->lo : NAN, "\t");
        fb_tsv_num(&t, s ? s->hi : NAN, "\t");
        fb_tsv_num(&t, f->copy_fraction * 100, "\t");
        fb_tsv_num(&t, copy ? copy->bandwidth_gbps : NAN, "\t");
        fb_tsv_num(&t, f->bandwidth_gbps, "\n");
        ++*rows;
    }
    return fb_tsv_close(&t, FB_OK, err);
}

/* q<i>.dat: run i's fused time over the first run's. */
static int write_ratio(int dirfd, const struct fb_compare_run *r, size_t i, struct fb_error *err)
{
    char name[32];
    snprintf(name, sizeof name, "q%zu.dat", i + 1);
    struct fb_tsv t;
    int rc = fb_tsv_open(&t, dirfd, name, false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "n\tratio\tlo\thi\n");
    for (size_t k = 0; k < r->n_ratio; k++) {
        fb_tsv_num(&t, r->ratio[k].n, "\t");
        fb_tsv_num(&t, r->ratio[k].ratio, "\t");
        fb_tsv_num(&t, r->ratio[k].lo, "\t");
        fb_tsv_num(&t, r->ratio[k].hi, "\n");
    }
    return fb_tsv_close(&t, FB_OK, err);
}

int fb_compare_tables_write(int dirfd, const void *compare, struct fb_error *err)
{
    const struct fb_compare *c = compare;
    size_t rows[FB_CHART_MAX_FILES] = {0};
    int rc = FB_OK;
    for (size_t i = 0; rc == FB_OK && i < c->n_runs; i++) {
        rc = write_run(dirfd, c, i, &rows[i], err);
        if (rc == FB_OK && i > 0)
            rc = write_ratio(dirfd, &c->runs[i], i, err);
    }
    struct fb_tsv t;
    if (rc == FB_OK && (rc = fb_tsv_open(&t, dirfd, "cmp_runs.tsv", false, err)) == FB_OK) {
        fb_tsv_printf(&t, "i\ttitle\tcolour\tpt\tns\tnq\n");
        for (size_t i = 0; i < c->n_runs; i++) {
            fb_tsv_printf(&t, "%zu\t", i + 1);
            fb_tsv_text(&t, c->runs[i].label, "\t");
            fb_tsv_printf(&t, "#%06x\t%d\t%zu\t%zu\n", run_colours[i], run_points[i], rows[i],
                c->runs[i].n_ratio);
        }
        rc = fb_tsv_close(&t, FB_OK, err);
    }
    if (rc == FB_OK && (rc = fb_tsv_open(&t, dirfd, "cmp_labels.tsv", false, err)) == FB_OK) {
        fb_tsv_printf(&t, "pair\tfused\tcopy\n");
        fb_tsv_text(&t, c->pair_title, "\t");
        fb_tsv_text(&t, c->fused_key, "\t");
        fb_tsv_text(&t, c->copy_key, "\n");
        rc = fb_tsv_close(&t, FB_OK, err);
    }
    if (rc == FB_OK && (rc = fb_tsv_open(&t, dirfd, "cmp_numbers.tsv", false, err)) == FB_OK) {
        fb_tsv_printf(&t, "nr\tnmin\tnmax\tws_min\tws_max\tcache_axis\tthreshold\n");
        fb_tsv_printf(&t, "%zu\t", c->n_runs);
        fb_tsv_num(&t, c->nmin, "\t");
        fb_tsv_num(&t, c->nmax, "\t");
        fb_tsv_num(&t, c->cache_axis ? c->ws_min : -1, "\t");
        fb_tsv_num(&t, c->cache_axis ? c->ws_max : -1, "\t");
        fb_tsv_printf(&t, "%d\t", c->cache_axis ? 1 : 0);
        fb_tsv_num(&t, c->verdict ? c->threshold : -1, "\n");
        rc = fb_tsv_close(&t, FB_OK, err);
    }
    return rc;
}

size_t fb_compare_charts(const struct fb_compare *c, struct fb_chart *charts)
{
    static const struct fb_chart all[] = {
        {"speedup", {"compare_common.gp", "compare_speedup.gp"}, 1600, 1000, 20, NULL},
        {"speedup-cache", {"compare_common.gp", "compare_speedup_cache.gp"}, 1600, 1000, 20,
         NULL},
        {"copy_fraction", {"compare_common.gp", "compare_copy_fraction.gp"}, 1600, 1000, 20,
         NULL},
        {"bandwidth", {"compare_common.gp", "compare_bandwidth.gp"}, 1600, 1000, 20, NULL},
        {"ratio", {"compare_common.gp", "compare_ratio.gp"}, 1600, 1000, 20, NULL},
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (c->cache_axis || strcmp(all[i].name, "speedup-cache") != 0)
            charts[n++] = all[i];
    return n;
}

/* The run's tables, which every chart script reads (contract in tables.h). */
#include "chart/tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/interval.h"
#include "measure/pairing.h"

/* A scalar: -1 when unknown. */
static double scalar(double x)
{
    return isfinite(x) ? x : -1;
}

static void add_numbers(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "nmin nmax cache_bytes n_cache peak_gbps bandwidth_max "
        "copy_max speedup_max n_launch n_launch_fit noisy speedup_level ours_level", "numbers.tsv");
    const double values[] = {d->nmin, d->nmax, d->cache_bytes, d->n_cache, d->peak_gbps,
                             d->bandwidth_max, d->copy_max, d->speedup_max, d->n_launch,
                             d->n_launch_from_fit ? 1 : 0, (double)d->noisy,
                             FB_INTERVAL_PERCENT, FB_PAIRING_OURS_PERCENT};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        fb_table_num(t, scalar(values[i]));
}

static void add_labels(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "device day cache_text cache_name noisy_text",
                                      "labels.tsv");
    fb_table_text(t, d->device);
    fb_table_text(t, d->day);
    fb_table_text(t, d->cache_text);
    fb_table_text(t, d->cache_name[0] ? d->cache_name : "cache");
    char noisy[160] = "";
    if (d->noisy)
        snprintf(noisy, sizeof noisy, "hollow: %zu noisy point%s (another program disturbed "
                 "%s samples); retake with --resume", d->noisy, d->noisy == 1 ? "" : "s",
                 d->noisy == 1 ? "its" : "their");
    fb_table_text(t, noisy);
    t = fb_table_add(ts, "text", "fit.tsv"); /* the fit's numbers, a line each */
    for (size_t i = 0; i < d->n_fit_text; i++)
        fb_table_text(t, d->fit_text[i]);
}

static void add_series(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "i title colour pt dt copy", "series.tsv");
    bool copy_seen = false;
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *s = &d->series[i];
        bool copy = !copy_seen && s->file == 0 && strcmp(s->role, "copy_ceiling") == 0;
        copy_seen |= copy;
        fb_table_num(t, (double)(i + 1));
        fb_table_text(t, s->title);
        fb_table_colour(t, s->colour);
        fb_table_nums(t, (const double[]){s->point_type, s->dash, copy}, 3);
        struct fb_table *dat = fb_table_add(ts, "n time_s p10_s p90_s bandwidth_gbps "
            "dram_elements launches kernel_time_s copy_fraction speedup ours_ratio ours_lo "
            "ours_hi", "s%zu.dat", i + 1);
        for (size_t k = 0; k < s->n_points; k++) {
            const struct fb_chart_point *p = &s->points[k];
            fb_table_nums(dat, (const double[]){p->n, p->time_s, p->p10_s, p->p90_s,
                p->bandwidth_gbps, p->dram_elements, p->launches, p->kernel_time_s,
                p->copy_fraction, p->speedup, p->ours_ratio, p->ours_lo, p->ours_hi}, 13);
        }
    }
}

static void add_pairs(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "i title colour pt dt primary", "pairs.tsv");
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        const struct fb_chart_series *e = &d->series[p->eager];
        fb_table_num(t, (double)(i + 1));
        fb_table_text(t, p->title);
        fb_table_colour(t, e->colour);
        fb_table_nums(t, (const double[]){e->point_type, e->dash, p->primary}, 3);
        struct fb_table *dat = fb_table_add(ts, "n speedup speedup_lo speedup_hi", "x%zu.dat",
                                            i + 1);
        for (size_t k = 0; k < p->n_points; k++)
            fb_table_nums(dat, (const double[]){p->points[k].n, p->points[k].speedup,
                                                p->points[k].lo, p->points[k].hi}, 4);
    }
}

/* noisy_time.tsv and noisy_speedup.tsv (chart/noisy.h). */
static void add_noisy(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "n time_s bandwidth_gbps colour pt", "noisy_time.tsv");
    for (size_t i = 0; i < d->n_noisy_times; i++) {
        const struct fb_chart_noisy_point *p = &d->noisy_times[i];
        fb_table_nums(t, (const double[]){p->n, p->value, p->bandwidth_gbps,
                                          p->colour & 0xFFFFFF, p->point_type}, 5);
    }
    t = fb_table_add(ts, "n speedup colour pt", "noisy_speedup.tsv");
    for (size_t i = 0; i < d->n_noisy_speedups; i++) {
        const struct fb_chart_noisy_point *p = &d->noisy_speedups[i];
        fb_table_nums(t, (const double[]){p->n, p->value, p->colour & 0xFFFFFF,
                                          p->point_type}, 4);
    }
}

void fb_chart_tables_fill(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    add_numbers(ts, d);
    add_labels(ts, d);
    add_series(ts, d);
    add_pairs(ts, d);
    add_noisy(ts, d);
}

void fb_chart_page_table(struct fb_tables *ts, const char *format, const struct fb_chart_page *page)
{
    struct fb_table *t = fb_table_add(ts, "format width height font small rows lw ps",
                                      "page.tsv");
    fb_table_text(t, format);
    fb_table_nums(t, (const double[]){page->width, page->height, page->font, page->small,
                                      page->rows, page->lw, page->ps}, 7);
}

/* The chart scripts' tables (contract in tables.h), filled into the table model
 * (chart/table.h). */
#include "chart/tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/glance.h"
#include "measure/interval.h"
#include "measure/pairing.h"

/* A scalar: -1 when unknown. */
static double scalar(double x)
{
    return isfinite(x) ? x : -1;
}

static void add_numbers(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    bool chain_wa = false; /* a chain length with a write-allocate traffic ratio */
    for (size_t i = 0; i < d->n_chain_points; i++)
        chain_wa |= d->chain_points[i].first_at_k && isfinite(d->chain_points[i].traffic_ratio_wa);
    struct fb_table *t = fb_table_add(ts, "nmin nmax cache_bytes n_cache peak_gbps bandwidth_max "
        "copy_max speedup_max n_launch n_launch_fit noisy dtype_cache_x chain_wa speedup_level "
        "ours_level", "numbers.tsv");
    const double values[] = {d->nmin, d->nmax, d->cache_bytes, d->n_cache, d->peak_gbps,
                             d->bandwidth_max, d->copy_max, d->speedup_max, d->n_launch,
                             d->n_launch_from_fit ? 1 : 0, (double)d->noisy,
                             d->dtype_arrays > 0 ? d->cache_bytes / d->dtype_arrays : NAN,
                             chain_wa, FB_INTERVAL_PERCENT, FB_PAIRING_OURS_PERCENT};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        fb_table_num(t, scalar(values[i]));
}

static void add_labels(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "device day cache_text cache_name noisy_text "
        "dtype_variant dtype_pair dtype_cache_text", "labels.tsv");
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
    fb_table_text(t, d->dtype_variant);
    fb_table_text(t, d->dtype_pair);
    char quarter[FB_CHART_TEXT_MAX] = "";
    if (d->dtype_arrays > 0)
        snprintf(quarter, sizeof quarter, "%s / %d (eager: %d tensors)",
                 d->cache_name[0] ? d->cache_name : "cache", d->dtype_arrays, d->dtype_arrays);
    fb_table_text(t, quarter);
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

/* An index table "j, i" of series. */
static void add_index(struct fb_tables *ts, const char *name, const size_t *which, size_t n)
{
    struct fb_table *t = fb_table_add(ts, "j i", "%s", name);
    for (size_t j = 0; j < n; j++)
        fb_table_nums(t, (const double[]){j + 1, which[j] + 1}, 2);
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

static void add_lines(struct fb_tables *ts, const char *name, const struct fb_chart_line *lines,
                      size_t n)
{
    struct fb_table *t = fb_table_add(ts, "i value title colour dt from to", "%s", name);
    for (size_t i = 0; i < n; i++) {
        fb_table_nums(t, (const double[]){i + 1, lines[i].value}, 2);
        fb_table_text(t, lines[i].title);
        fb_table_colour(t, lines[i].colour);
        /* gnuplot reads no infinity: the largest double for "no bound" */
        fb_table_nums(t, (const double[]){lines[i].dash, lines[i].from,
                                          isfinite(lines[i].to) ? lines[i].to : 1e300}, 3);
    }
}

static void add_curves(struct fb_tables *ts, const char *index, const char *prefix,
                       const char *columns, const struct fb_chart_curve *curves, size_t n)
{
    struct fb_table *t = fb_table_add(ts, "i colour", "%s", index);
    for (size_t i = 0; i < n; i++) {
        fb_table_num(t, (double)(i + 1));
        fb_table_colour(t, curves[i].colour);
        struct fb_table *dat = fb_table_add(ts, columns, "%s%zu.dat", prefix, i + 1);
        for (size_t k = 0; k < FB_CHART_CURVE_POINTS; k++)
            fb_table_nums(dat, (const double[]){curves[i].n[k], curves[i].y[k],
                                                curves[i].y_cache[k]}, 3);
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

static void add_launches(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "i label counted model colour", "launches.tsv");
    size_t k = 0;
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *s = &d->series[i];
        if (!isfinite(s->launches))
            continue;
        fb_table_num(t, (double)++k);
        fb_table_text(t, s->title);
        fb_table_nums(t, (const double[]){s->launches, s->model_launches,
                                          s->colour & 0xFFFFFF}, 3);
    }
}

static void add_dtypes(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "i dtype colour pt", "dtypes.tsv");
    for (size_t i = 0; i < d->n_dtype_lines; i++) {
        const struct fb_chart_dtype_line *l = &d->dtype_lines[i];
        fb_table_num(t, (double)(i + 1));
        fb_table_text(t, l->dtype);
        fb_table_colour(t, l->colour);
        fb_table_num(t, l->point_type);
        struct fb_table *dat = fb_table_add(ts, "n bytes_per_tensor speedup", "d%zu.dat", i + 1);
        for (size_t k = 0; k < l->n_points; k++)
            fb_table_nums(dat, (const double[]){l->n[k], l->bytes_per_tensor[k], l->speedup[k]},
                          3);
    }
}

static void size_text(double n, char *out_text, size_t size)
{
    if (n >= 1e6 && fmod(n, 1e6) == 0)
        snprintf(out_text, size, "n = %gM", n / 1e6);
    else if (n >= 1e3 && fmod(n, 1e3) == 0)
        snprintf(out_text, size, "n = %gK", n / 1e3);
    else
        snprintf(out_text, size, "n = %g", n);
}

/* The chain-length chart's tables (none of its rows below 3 chain lengths). */
static void add_chains(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    static const unsigned colours[] = {0x1f77b4, 0x2ca02c, 0xd62728, 0x9467bd, 0xff7f0e};
    static const int points[] = {7, 5, 9, 11, 13};
    double ns[64];
    size_t n_ns = 0;
    for (size_t i = 0; i < d->n_chain_points && d->chain_lengths >= 3; i++) {
        bool seen = false;
        for (size_t k = 0; k < n_ns && !seen; k++)
            seen = ns[k] == d->chain_points[i].n;
        if (!seen && n_ns < 64) {
            size_t at = n_ns++; /* sorted insert */
            while (at > 0 && ns[at - 1] > d->chain_points[i].n) {
                ns[at] = ns[at - 1];
                at--;
            }
            ns[at] = d->chain_points[i].n;
        }
    }
    struct fb_table *t = fb_table_add(ts, "i title colour pt", "chains.tsv");
    for (size_t s = 0; s < n_ns; s++) {
        char title[32];
        size_text(ns[s], title, sizeof title);
        fb_table_num(t, (double)(s + 1));
        fb_table_text(t, title);
        fb_table_colour(t, colours[s % 5]);
        fb_table_num(t, points[s % 5]);
        struct fb_table *dat = fb_table_add(ts, "kernels speedup", "c%zu.dat", s + 1);
        /* by kernels: the chains were added in file order */
        for (double k = 1; k <= 64; k++)
            for (size_t i = 0; i < d->n_chain_points; i++) {
                const struct fb_chart_chain_point *c = &d->chain_points[i];
                if (c->n == ns[s] && c->first_at_k && c->kernels == k)
                    fb_table_nums(dat, (const double[]){c->kernels, c->speedup}, 2);
            }
    }
    /* label: the chain's name on its highest point only (one label per chain, not one per
     * size stacked at one k), "" on the others */
    t = fb_table_add(ts, "kernels speedup name i colour label", "chain_others.tsv");
    for (size_t i = 0; i < d->n_chain_points && n_ns; i++) {
        const struct fb_chart_chain_point *c = &d->chain_points[i];
        if (c->first_at_k)
            continue;
        size_t s = 0;
        while (s < n_ns && ns[s] != c->n)
            s++;
        bool top = true;
        for (size_t o = 0; o < d->n_chain_points && top; o++) {
            const struct fb_chart_chain_point *q = &d->chain_points[o];
            top = o == i || q->first_at_k || strcmp(q->name, c->name) != 0 ||
                  q->speedup < c->speedup || (q->speedup == c->speedup && o > i);
        }
        fb_table_nums(t, (const double[]){c->kernels, c->speedup}, 2);
        fb_table_text(t, c->name);
        fb_table_nums(t, (const double[]){s + 1, colours[s % 5]}, 2);
        fb_table_text(t, top ? c->name : "");
    }
    t = fb_table_add(ts, "kernels launch_limit traffic_ratio traffic_ratio_wa", "chain_model.dat");
    for (double k = 1; k <= 64 && n_ns; k++)
        for (size_t i = 0; i < d->n_chain_points; i++) {
            const struct fb_chart_chain_point *c = &d->chain_points[i];
            if (c->first_at_k && c->kernels == k) {
                fb_table_nums(t, (const double[]){c->kernels, c->launch_limit, c->traffic_ratio,
                                                  c->traffic_ratio_wa}, 4);
                break;
            }
        }
}

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

/* The at-a-glance figure's tables (chart/glance.h). */
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
        size_text(g->n[j], size, sizeof size);
        snprintf(title, sizeof title, "%s: %s%s%s", g->regime[j], size,
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

void fb_chart_tables_fill(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    size_t *dram = malloc((d->n_series ? d->n_series : 1) * 2 * sizeof *dram), n_dram = 0;
    struct fb_glance *g = malloc(sizeof *g);
    if (!dram || !g) {
        free(dram);
        free(g);
        ts->failed = true;
        return;
    }
    size_t *ours = dram + (d->n_series ? d->n_series : 1), n_ours = 0;
    for (size_t i = 0; i < d->n_series; i++) {
        if (d->series[i].has_dram)
            dram[n_dram++] = i;
        if (d->series[i].has_ours_ratio)
            ours[n_ours++] = i;
    }
    add_numbers(ts, d);
    add_labels(ts, d);
    add_series(ts, d);
    add_index(ts, "fused.tsv", d->fused_on_copy_chart, d->n_fused_on_copy_chart);
    add_index(ts, "dram.tsv", dram, n_dram);
    add_index(ts, "ours.tsv", ours, n_ours);
    add_pairs(ts, d);
    add_lines(ts, "speedup_lines.tsv", d->speedup_lines, d->n_speedup_lines);
    add_lines(ts, "copy_lines.tsv", d->copy_lines, d->n_copy_lines);
    add_lines(ts, "bytes_lines.tsv", d->bytes_lines, d->n_bytes_lines);
    add_curves(ts, "curves.tsv", "m", "n t t_cache", d->time_curves, d->n_time_curves);
    add_curves(ts, "predicted.tsv", "p", "n speedup speedup_cache", d->predicted_curves,
               d->n_predicted_curves);
    add_launches(ts, d);
    add_dtypes(ts, d);
    add_chains(ts, d);
    fb_glance_derive(d, g);
    add_glance(ts, d, g);
    add_noisy(ts, d);
    free(dram);
    free(g);
}

void fb_chart_page_table(struct fb_tables *ts, const char *format, const struct fb_chart_page *page)
{
    struct fb_table *t = fb_table_add(ts, "format width height font small lw ps", "page.tsv");
    fb_table_text(t, format);
    fb_table_nums(t, (const double[]){page->width, page->height, page->font, page->small,
                                      page->lw, page->ps}, 6);
}

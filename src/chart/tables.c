/* The chart scripts' tables (contract in tables.h). */
#include "chart/tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/audit.h"
#include "chart/glance.h"
#include "chart/label.h"
#include "chart/tsv.h"
#include "measure/interval.h"
#include "measure/pairing.h"

/* A scalar: -1 when unknown. */
static void scalar(struct fb_tsv *t, double x, const char *sep)
{
    fb_tsv_num(t, isfinite(x) ? x : -1, sep);
}

static void colour(struct fb_tsv *t, unsigned c, const char *sep)
{
    fb_tsv_printf(t, "#%06x%s", c & 0xFFFFFF, sep);
}

static int write_numbers(int dirfd, const struct fb_chart_derived *d, const size_t counts[14],
                         struct fb_error *err)
{
    static const char *const count_names[14] = {"ns", "nx", "nf", "nd", "nm", "np", "nsl",
                                                "ncl", "nbl", "nlb", "ndt", "nck", "nfit",
                                                "no"};
    size_t others = 0, with_wa = 0; /* the chain chart's other chains, lengths with a wa ratio */
    for (size_t i = 0; i < d->n_chain_points; i++) {
        others += !d->chain_points[i].first_at_k;
        with_wa += d->chain_points[i].first_at_k && isfinite(d->chain_points[i].traffic_ratio_wa);
    }
    struct fb_tsv t;
    int rc = fb_tsv_open(&t, dirfd, "numbers.tsv", false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "nmin\tnmax\tcache_bytes\tn_cache\tpeak_gbps\tbandwidth_max\tcopy_max\t"
            "speedup_max\tn_launch\tn_launch_fit\tnoisy\tdtype_cache_x\tnko\tnkwa\t"
            "speedup_level\tours_level");
    for (int i = 0; i < 14; i++)
        fb_tsv_printf(&t, "\t%s", count_names[i]);
    fb_tsv_printf(&t, "\n");
    const double values[] = {d->nmin, d->nmax, d->cache_bytes, d->n_cache, d->peak_gbps,
                             d->bandwidth_max, d->copy_max, d->speedup_max, d->n_launch,
                             d->n_launch_from_fit ? 1 : 0, (double)d->noisy,
                             d->dtype_arrays > 0 ? d->cache_bytes / d->dtype_arrays : NAN,
                             (double)others, (double)with_wa, FB_INTERVAL_PERCENT,
                             FB_PAIRING_OURS_PERCENT};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        scalar(&t, values[i], "\t");
    for (int i = 0; i < 14; i++)
        fb_tsv_printf(&t, "%zu%s", counts[i], i == 13 ? "\n" : "\t");
    return fb_tsv_close(&t, FB_OK, err);
}

static int write_labels(int dirfd, const struct fb_chart_derived *d, struct fb_error *err)
{
    struct fb_tsv t;
    int rc = fb_tsv_open(&t, dirfd, "labels.tsv", false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "device\tday\tcache_text\tcache_name\tfit1\tfit2\tfit3\tfit4\tnoisy_text\t"
            "dtype_variant\tdtype_pair\tdtype_cache_text\n");
    fb_tsv_text(&t, d->device, "\t");
    fb_tsv_text(&t, d->day, "\t");
    fb_tsv_text(&t, d->cache_text, "\t");
    fb_tsv_text(&t, d->cache_name[0] ? d->cache_name : "cache", "\t");
    for (size_t i = 0; i < 4; i++)
        fb_tsv_text(&t, i < d->n_fit_text ? d->fit_text[i] : "", "\t");
    char noisy[160] = "";
    if (d->noisy)
        snprintf(noisy, sizeof noisy, "hollow: %zu noisy point%s (another program disturbed "
                 "%s samples); retake with --resume", d->noisy, d->noisy == 1 ? "" : "s",
                 d->noisy == 1 ? "its" : "their");
    fb_tsv_text(&t, noisy, "\t");
    fb_tsv_text(&t, d->dtype_variant, "\t");
    fb_tsv_text(&t, d->dtype_pair, "\t");
    char quarter[FB_CHART_TEXT_MAX] = "";
    if (d->dtype_arrays > 0)
        snprintf(quarter, sizeof quarter, "%s / %d (eager: %d tensors)",
                 d->cache_name[0] ? d->cache_name : "cache", d->dtype_arrays, d->dtype_arrays);
    fb_tsv_text(&t, quarter, "\n");
    return fb_tsv_close(&t, FB_OK, err);
}

/* A data file "<prefix><i>.dat". */
static int open_data(int dirfd, const char *prefix, size_t i, char *name, size_t size,
                     struct fb_tsv *t, struct fb_error *err)
{
    snprintf(name, size, "%s%zu.dat", prefix, i);
    return fb_tsv_open(t, dirfd, name, false, err);
}

static int write_series(int dirfd, const struct fb_chart_derived *d, struct fb_error *err)
{
    struct fb_tsv t, dat;
    int rc = fb_tsv_open(&t, dirfd, "series.tsv", false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "i\ttitle\tcolour\tpt\tdt\tcopy\n");
    bool copy_seen = false;
    for (size_t i = 0; i < d->n_series && rc == FB_OK; i++) {
        const struct fb_chart_series *s = &d->series[i];
        bool copy = !copy_seen && s->file == 0 && strcmp(s->role, "copy_ceiling") == 0;
        copy_seen |= copy;
        fb_tsv_printf(&t, "%zu\t", i + 1);
        fb_tsv_text(&t, s->title, "\t");
        colour(&t, s->colour, "\t");
        fb_tsv_printf(&t, "%d\t%d\t%d\n", s->point_type, s->dash, copy);
        char name[32];
        rc = open_data(dirfd, "s", i + 1, name, sizeof name, &dat, err);
        if (rc)
            break;
        fb_tsv_printf(&dat, "n\ttime_s\tp10_s\tp90_s\tbandwidth_gbps\tdram_elements\tlaunches\t"
                  "kernel_time_s\tcopy_fraction\tspeedup\tours_ratio\tours_lo\tours_hi\n");
        for (size_t k = 0; k < s->n_points; k++) {
            const struct fb_chart_point *p = &s->points[k];
            const double v[] = {p->n, p->time_s, p->p10_s, p->p90_s, p->bandwidth_gbps,
                                p->dram_elements, p->launches, p->kernel_time_s,
                                p->copy_fraction, p->speedup, p->ours_ratio, p->ours_lo,
                                p->ours_hi};
            for (size_t c = 0; c < 13; c++)
                fb_tsv_num(&dat, v[c], c == 12 ? "\n" : "\t");
        }
        rc = fb_tsv_close(&dat, FB_OK, err);
    }
    int rc2 = fb_tsv_close(&t, FB_OK, rc ? NULL : err);
    return rc ? rc : rc2;
}

/* An index table "j, i" of series. */
static int write_index(int dirfd, const char *name, const size_t *which, size_t n,
                       struct fb_error *err)
{
    struct fb_tsv t;
    int rc = fb_tsv_open(&t, dirfd, name, false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "j\ti\n");
    for (size_t j = 0; j < n; j++)
        fb_tsv_printf(&t, "%zu\t%zu\n", j + 1, which[j] + 1);
    return fb_tsv_close(&t, FB_OK, err);
}

static int write_pairs(int dirfd, const struct fb_chart_derived *d, struct fb_error *err)
{
    struct fb_tsv t, dat;
    int rc = fb_tsv_open(&t, dirfd, "pairs.tsv", false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "i\ttitle\tcolour\tpt\tdt\tprimary\n");
    for (size_t i = 0; i < d->n_pairs && rc == FB_OK; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        const struct fb_chart_series *e = &d->series[p->eager];
        fb_tsv_printf(&t, "%zu\t", i + 1);
        fb_tsv_text(&t, p->title, "\t");
        colour(&t, e->colour, "\t");
        fb_tsv_printf(&t, "%d\t%d\t%d\n", e->point_type, e->dash, p->primary);
        char name[32];
        rc = open_data(dirfd, "x", i + 1, name, sizeof name, &dat, err);
        if (rc)
            break;
        fb_tsv_printf(&dat, "n\tspeedup\tspeedup_lo\tspeedup_hi\n");
        for (size_t k = 0; k < p->n_points; k++) {
            fb_tsv_num(&dat, p->points[k].n, "\t");
            fb_tsv_num(&dat, p->points[k].speedup, "\t");
            fb_tsv_num(&dat, p->points[k].lo, "\t");
            fb_tsv_num(&dat, p->points[k].hi, "\n");
        }
        rc = fb_tsv_close(&dat, FB_OK, err);
    }
    int rc2 = fb_tsv_close(&t, FB_OK, rc ? NULL : err);
    return rc ? rc : rc2;
}

static int write_lines(int dirfd, const char *name, const struct fb_chart_line *lines,
                       size_t n, struct fb_error *err)
{
    struct fb_tsv t;
    int rc = fb_tsv_open(&t, dirfd, name, false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "i\tvalue\ttitle\tcolour\tdt\tfrom\tto\n");
    for (size_t i = 0; i < n; i++) {
        fb_tsv_printf(&t, "%zu\t", i + 1);
        fb_tsv_num(&t, lines[i].value, "\t");
        fb_tsv_text(&t, lines[i].title, "\t");
        colour(&t, lines[i].colour, "\t");
        fb_tsv_printf(&t, "%d\t", lines[i].dash);
        /* gnuplot reads no infinity: the largest double for "no bound" */
        fb_tsv_num(&t, lines[i].from, "\t");
        fb_tsv_num(&t, isfinite(lines[i].to) ? lines[i].to : 1e300, "\n");
    }
    return fb_tsv_close(&t, FB_OK, err);
}

static int write_curves(int dirfd, const char *index, const char *prefix, const char *y,
                        const struct fb_chart_curve *curves, size_t n, struct fb_error *err)
{
    struct fb_tsv t, dat;
    int rc = fb_tsv_open(&t, dirfd, index, false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "i\tcolour\n");
    for (size_t i = 0; i < n && rc == FB_OK; i++) {
        fb_tsv_printf(&t, "%zu\t", i + 1);
        colour(&t, curves[i].colour, "\n");
        char name[32];
        rc = open_data(dirfd, prefix, i + 1, name, sizeof name, &dat, err);
        if (rc)
            break;
        fb_tsv_printf(&dat, "n\t%s\t%s_cache\n", y, y);
        for (size_t k = 0; k < FB_CHART_CURVE_POINTS; k++) {
            fb_tsv_num(&dat, curves[i].n[k], "\t");
            fb_tsv_num(&dat, curves[i].y[k], "\t");
            fb_tsv_num(&dat, curves[i].y_cache[k], "\n");
        }
        rc = fb_tsv_close(&dat, FB_OK, err);
    }
    int rc2 = fb_tsv_close(&t, FB_OK, rc ? NULL : err);
    return rc ? rc : rc2;
}

/* noisy.tsv (the counts), noisy_time.dat and noisy_speedup.dat (chart/noisy.h). */
static int write_noisy(int dirfd, const struct fb_chart_derived *d, struct fb_error *err)
{
    struct fb_tsv t;
    int rc = fb_tsv_open(&t, dirfd, "noisy.tsv", false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "noisy\tnnt\tnnx\n%zu\t%zu\t%zu\n", d->noisy, d->n_noisy_times,
        d->n_noisy_speedups);
    rc = fb_tsv_close(&t, FB_OK, err);
    if (rc == FB_OK && (rc = fb_tsv_open(&t, dirfd, "noisy_time.dat", false, err)) == FB_OK) {
        fb_tsv_printf(&t, "n\ttime_s\tbandwidth_gbps\tcolour\tpt\n");
        for (size_t i = 0; i < d->n_noisy_times; i++) {
            const struct fb_chart_noisy_point *p = &d->noisy_times[i];
            fb_tsv_num(&t, p->n, "\t");
            fb_tsv_num(&t, p->value, "\t");
            fb_tsv_num(&t, p->bandwidth_gbps, "\t");
            fb_tsv_printf(&t, "%u\t%d\n", p->colour & 0xFFFFFF, p->point_type);
        }
        rc = fb_tsv_close(&t, FB_OK, err);
    }
    if (rc == FB_OK && (rc = fb_tsv_open(&t, dirfd, "noisy_speedup.dat", false, err)) == FB_OK) {
        fb_tsv_printf(&t, "n\tspeedup\tcolour\tpt\n");
        for (size_t i = 0; i < d->n_noisy_speedups; i++) {
            const struct fb_chart_noisy_point *p = &d->noisy_speedups[i];
            fb_tsv_num(&t, p->n, "\t");
            fb_tsv_num(&t, p->value, "\t");
            fb_tsv_printf(&t, "%u\t%d\n", p->colour & 0xFFFFFF, p->point_type);
        }
        rc = fb_tsv_close(&t, FB_OK, err);
    }
    return rc;
}

static size_t write_launches(struct fb_tsv *t, const struct fb_chart_derived *d)
{
    fb_tsv_printf(t, "i\tlabel\tcounted\tmodel\tcolour\n");
    size_t k = 0;
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *s = &d->series[i];
        if (!isfinite(s->launches))
            continue;
        fb_tsv_printf(t, "%zu\t", ++k);
        fb_tsv_text(t, s->title, "\t");
        fb_tsv_num(t, s->launches, "\t");
        fb_tsv_printf(t, "%d\t%u\n", s->model_launches, s->colour & 0xFFFFFF);
    }
    return k;
}

static int write_dtypes(int dirfd, const struct fb_chart_derived *d, struct fb_error *err)
{
    struct fb_tsv t, dat;
    int rc = fb_tsv_open(&t, dirfd, "dtypes.tsv", false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "i\tdtype\tcolour\tpt\n");
    for (size_t i = 0; i < d->n_dtype_lines && rc == FB_OK; i++) {
        const struct fb_chart_dtype_line *l = &d->dtype_lines[i];
        fb_tsv_printf(&t, "%zu\t", i + 1);
        fb_tsv_text(&t, l->dtype, "\t");
        colour(&t, l->colour, "\t");
        fb_tsv_printf(&t, "%d\n", l->point_type);
        char name[32];
        rc = open_data(dirfd, "d", i + 1, name, sizeof name, &dat, err);
        if (rc)
            break;
        fb_tsv_printf(&dat, "n\tbytes_per_tensor\tspeedup\n");
        for (size_t k = 0; k < l->n_points; k++) {
            fb_tsv_num(&dat, l->n[k], "\t");
            fb_tsv_num(&dat, l->bytes_per_tensor[k], "\t");
            fb_tsv_num(&dat, l->speedup[k], "\n");
        }
        rc = fb_tsv_close(&dat, FB_OK, err);
    }
    int rc2 = fb_tsv_close(&t, FB_OK, rc ? NULL : err);
    return rc ? rc : rc2;
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

/* The chain-length chart's tables; *sizes gets the number of sizes (chains.tsv rows). */
static int write_chains(int dirfd, const struct fb_chart_derived *d, size_t *sizes,
                        struct fb_error *err)
{
    static const unsigned colours[] = {0x1f77b4, 0x2ca02c, 0xd62728, 0x9467bd, 0xff7f0e};
    static const int points[] = {7, 5, 9, 11, 13};
    double ns[64];
    size_t n_ns = 0;
    for (size_t i = 0; i < d->n_chain_points; i++) {
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
    *sizes = n_ns;
    struct fb_tsv t, dat, others, model;
    int rc = fb_tsv_open(&t, dirfd, "chains.tsv", false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "i\ttitle\tcolour\tpt\n");
    for (size_t s = 0; s < n_ns && rc == FB_OK; s++) {
        char title[32], name[32];
        size_text(ns[s], title, sizeof title);
        fb_tsv_printf(&t, "%zu\t", s + 1);
        fb_tsv_text(&t, title, "\t");
        colour(&t, colours[s % 5], "\t");
        fb_tsv_printf(&t, "%d\n", points[s % 5]);
        rc = open_data(dirfd, "c", s + 1, name, sizeof name, &dat, err);
        if (rc)
            break;
        fb_tsv_printf(&dat, "kernels\tspeedup\n");
        /* by kernels: the chains were added in file order */
        for (double k = 1; k <= 64; k++)
            for (size_t i = 0; i < d->n_chain_points; i++) {
                const struct fb_chart_chain_point *c = &d->chain_points[i];
                if (c->n == ns[s] && c->first_at_k && c->kernels == k) {
                    fb_tsv_num(&dat, c->kernels, "\t");
                    fb_tsv_num(&dat, c->speedup, "\n");
                }
            }
        rc = fb_tsv_close(&dat, FB_OK, err);
    }
    int rc2 = fb_tsv_close(&t, FB_OK, rc ? NULL : err);
    if (rc || rc2)
        return rc ? rc : rc2;
    rc = fb_tsv_open(&others, dirfd, "chain_others.dat", false, err);
    if (rc)
        return rc;
    /* label: the chain's name on its highest point only (one label per chain, not one per
     * size stacked at one k), "" on the others */
    fb_tsv_printf(&others, "kernels\tspeedup\tname\ti\tcolour\tlabel\n");
    for (size_t i = 0; i < d->n_chain_points; i++) {
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
        fb_tsv_num(&others, c->kernels, "\t");
        fb_tsv_num(&others, c->speedup, "\t");
        fb_tsv_text(&others, c->name, "\t");
        fb_tsv_printf(&others, "%zu\t%u\t", s + 1, colours[s % 5]);
        fb_tsv_text(&others, top ? c->name : "", "\n");
    }
    rc = fb_tsv_close(&others, FB_OK, err);
    if (rc)
        return rc;
    rc = fb_tsv_open(&model, dirfd, "chain_model.dat", false, err);
    if (rc)
        return rc;
    fb_tsv_printf(&model, "kernels\tlaunch_limit\ttraffic_ratio\ttraffic_ratio_wa\n");
    for (double k = 1; k <= 64; k++)
        for (size_t i = 0; i < d->n_chain_points; i++) {
            const struct fb_chart_chain_point *c = &d->chain_points[i];
            if (c->first_at_k && c->kernels == k) {
                fb_tsv_num(&model, c->kernels, "\t");
                fb_tsv_num(&model, c->launch_limit, "\t");
                fb_tsv_num(&model, c->traffic_ratio, "\t");
                fb_tsv_num(&model, c->traffic_ratio_wa, "\n");
                break;
            }
        }
    return fb_tsv_close(&model, FB_OK, err);
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

/* The at-a-glance figure's tables (chart/glance.h). */
static int write_glance(int dirfd, const struct fb_chart_derived *d, struct fb_error *err)
{
    struct fb_glance *g = malloc(sizeof *g);
    if (!g)
        return fb_fail(err, FB_ERR_RUNTIME, "charts: out of memory");
    fb_glance_derive(d, g);
    struct fb_tsv t, dat;
    int rc = fb_tsv_open(&t, dirfd, "glance_pairs.tsv", false, err);
    if (rc) {
        free(g);
        return rc;
    }
    fb_tsv_printf(&t, "k\ttitle\tek\tfk\tel\tfl\tea\tfa\ted\tfd\tec\tfc\tep\tfp\tedt\tfdt\tfpairs\t"
            "ftitle\tname\n");
    for (size_t k = 0; k < g->n_pairs; k++) {
        const struct fb_chart_pair *p = &d->pairs[g->pair[k]];
        const struct fb_chart_series *es = &d->series[p->eager], *fs = &d->series[p->fused];
        fb_tsv_printf(&t, "%zu\t", k + 1);
        fb_tsv_text(&t, g->what[k], "\t");
        const struct fb_glance_side *e = &g->side[k][0], *f = &g->side[k][1];
        const double v[] = {e->kernels, f->kernels, e->launches, f->launches, e->arrays,
                            f->arrays, e->dram, f->dram};
        for (size_t c = 0; c < 8; c++)
            fb_tsv_num(&t, v[c], "\t");
        fb_tsv_printf(&t, "%u\t%u\t%d\t%d\t%d\t%d\t", es->colour & 0xFFFFFF, fs->colour & 0xFFFFFF,
            es->point_type, fs->point_type, es->dash, fs->dash);
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
        fb_tsv_text(&t, first ? pairs : "", "\t");
        fb_tsv_text(&t, fs->title, "\t");
        fb_tsv_text(&t, g->name[k], "\n");
    }
    rc = fb_tsv_close(&t, FB_OK, err);
    if (rc == FB_OK)
        rc = fb_tsv_open(&t, dirfd, "glance.tsv", false, err);
    if (rc) {
        free(g);
        return rc;
    }
    fb_tsv_printf(&t, "j\ttitle\tunit\tscale\n");
    for (size_t j = 0; j < g->n_sizes && rc == FB_OK; j++) {
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
        fb_tsv_printf(&t, "%zu\t", j + 1);
        fb_tsv_text(&t, title, "\t");
        fb_tsv_text(&t, unit, "\t");
        fb_tsv_printf(&t, "%g\n", scale);
        char name[32];
        rc = open_data(dirfd, "g", j + 1, name, sizeof name, &dat, err);
        if (rc)
            break;
        fb_tsv_printf(&dat, "x\tlaunch\tbytes\tmeasured\tcolour\tside\tk\tpt\n");
        for (size_t k = 0; k < g->n_pairs; k++) {
            const struct fb_chart_pair *p = &d->pairs[g->pair[k]];
            for (int s = 0; s < 2; s++) {
                /* pair k at 3k: eager at 3k - 1.6, fused at 3k - 0.6 (bars 0.9 wide) */
                fb_tsv_num(&dat, 3.0 * (double)(k + 1) - (s ? 0.6 : 1.6), "\t");
                /* a part the fit lacks is drawn as 0 (the panel's title says which) */
                const double launch = g->launch_s[j][k][s], bytes = g->bytes_s[j][k][s];
                fb_tsv_num(&dat, isfinite(launch) ? launch * scale : 0, "\t");
                fb_tsv_num(&dat, isfinite(bytes) ? bytes * scale : 0, "\t");
                fb_tsv_num(&dat, g->measured_s[j][k][s] * scale, "\t");
                const struct fb_chart_series *se = &d->series[s ? p->fused : p->eager];
                fb_tsv_printf(&dat, "%u\t%s\t%zu\t%d\n", se->colour & 0xFFFFFF, s ? "fused" : "eager",
                    k + 1, se->point_type);
            }
        }
        rc = fb_tsv_close(&dat, FB_OK, err);
    }
    for (size_t m = 0; m < g->n_missing && rc == FB_OK; m++) {
        fb_tsv_printf(&t, "0\t");
        fb_tsv_text(&t, g->missing[m], "\t-\t1\n");
    }
    int rc2 = fb_tsv_close(&t, FB_OK, rc ? NULL : err);
    free(g);
    return rc ? rc : rc2;
}

int fb_chart_tables_write(int dirfd, const struct fb_chart_derived *d, struct fb_error *err)
{
    size_t *dram = malloc((d->n_series ? d->n_series : 1) * 2 * sizeof *dram), n_dram = 0;
    if (!dram)
        return fb_fail(err, FB_ERR_RUNTIME, "charts: out of memory");
    size_t *ours = dram + (d->n_series ? d->n_series : 1), n_ours = 0;
    for (size_t i = 0; i < d->n_series; i++) {
        if (d->series[i].has_dram)
            dram[n_dram++] = i;
        if (d->series[i].has_ours_ratio)
            ours[n_ours++] = i;
    }
    struct fb_tsv launches;
    size_t n_launches = 0, n_chain_sizes = 0;
    int rc = write_series(dirfd, d, err);
    if (rc == FB_OK)
        rc = write_index(dirfd, "fused.tsv", d->fused_on_copy_chart, d->n_fused_on_copy_chart,
                         err);
    if (rc == FB_OK)
        rc = write_index(dirfd, "dram.tsv", dram, n_dram, err);
    if (rc == FB_OK)
        rc = write_index(dirfd, "ours.tsv", ours, n_ours, err);
    if (rc == FB_OK)
        rc = write_pairs(dirfd, d, err);
    if (rc == FB_OK)
        rc = write_lines(dirfd, "speedup_lines.tsv", d->speedup_lines, d->n_speedup_lines, err);
    if (rc == FB_OK)
        rc = write_lines(dirfd, "copy_lines.tsv", d->copy_lines, d->n_copy_lines, err);
    if (rc == FB_OK)
        rc = write_lines(dirfd, "bytes_lines.tsv", d->bytes_lines, d->n_bytes_lines, err);
    if (rc == FB_OK)
        rc = write_curves(dirfd, "curves.tsv", "m", "t", d->time_curves, d->n_time_curves, err);
    if (rc == FB_OK)
        rc = write_curves(dirfd, "predicted.tsv", "p", "speedup", d->predicted_curves,
                          d->n_predicted_curves, err);
    if (rc == FB_OK && (rc = fb_tsv_open(&launches, dirfd, "launches.tsv", false, err)) == FB_OK) {
        n_launches = write_launches(&launches, d);
        rc = fb_tsv_close(&launches, FB_OK, err);
    }
    if (rc == FB_OK)
        rc = write_dtypes(dirfd, d, err);
    if (rc == FB_OK)
        rc = write_chains(dirfd, d, &n_chain_sizes, err);
    if (rc == FB_OK)
        rc = write_labels(dirfd, d, err);
    if (rc == FB_OK)
        rc = write_glance(dirfd, d, err);
    if (rc == FB_OK)
        rc = write_noisy(dirfd, d, err);
    rc = rc == FB_OK ? fb_audit_tables_write(dirfd, d, err) : rc;
    if (rc == FB_OK) {
        const size_t counts[14] = {d->n_series, d->n_pairs, d->n_fused_on_copy_chart, n_dram,
                                   d->n_time_curves, d->n_predicted_curves, d->n_speedup_lines,
                                   d->n_copy_lines, d->n_bytes_lines, n_launches,
                                   d->n_dtype_lines, d->chain_lengths >= 3 ? n_chain_sizes : 0,
                                   d->n_fit_text, n_ours};
        rc = write_numbers(dirfd, d, counts, err);
    }
    free(dram);
    return rc;
}

int fb_chart_page_write(int dirfd, const char *format, const struct fb_chart_page *page,
                        struct fb_error *err)
{
    struct fb_tsv t;
    int rc = fb_tsv_open(&t, dirfd, "page.tsv", true, err);
    if (rc)
        return rc;
    fb_tsv_printf(&t, "format\twidth\theight\tfont\tsmall\tlw\tps\n"
                      "%s\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\n",
        format, page->width, page->height, page->font, page->small, page->lw, page->ps);
    return fb_tsv_close(&t, FB_OK, err);
}

/* The compare charts' tables and chart list (contract in runs.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "chart/label.h"
#include "compare/runs.h"

/* One colour per run, told apart in print and by most colour-blind readers (Tableau 10's
 * first eight, reordered so that the first two runs are blue and red), and one point type. */
static const unsigned run_colours[FB_CHART_MAX_FILES] = {0x1f77b4, 0xd62728, 0x2ca02c,
                                                         0xff7f0e, 0x9467bd, 0x8c564b,
                                                         0xe377c2, 0x17becf};
static const int run_points[FB_CHART_MAX_FILES] = {7, 5, 9, 11, 13, 15, 3, 1};

/* A table being written: every write checked, the first failure kept for the message. */
struct tsv {
    FILE *f;
    const char *name;
    int failed;
};

static int tsv_open(int dirfd, const char *name, struct tsv *t, struct fb_error *err)
{
    t->name = name;
    t->failed = 0;
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    t->f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (t->f)
        return FB_OK;
    int e = errno;
    if (fd >= 0)
        close(fd);
    return fb_fail(err, FB_ERR_RUNTIME, "compare: cannot create the table %s: %s", name,
                   strerror(e));
}

static void put(struct tsv *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vfprintf(t->f, fmt, ap) < 0 && !t->failed)
        t->failed = errno ? errno : EIO;
    va_end(ap);
}

/* A number cell ("NaN" when not one: gnuplot leaves it undrawn), then sep. */
static void put_num(struct tsv *t, double x, const char *sep)
{
    if (isfinite(x))
        put(t, "%.10g%s", x, sep);
    else
        put(t, "NaN%s", sep);
}

/* A text cell through the one quoting routine (chart/label.h), then sep. */
static void put_text(struct tsv *t, const char *s, const char *sep)
{
    char label[FB_CHART_LABEL_SIZE];
    put(t, "%s%s", fb_chart_label(label, sizeof label, s), sep);
}

static int tsv_close(struct tsv *t, struct fb_error *err)
{
    if (fflush(t->f) != 0 && !t->failed)
        t->failed = errno;
    if (fclose(t->f) != 0 && !t->failed)
        t->failed = errno;
    if (t->failed)
        return fb_fail(err, FB_ERR_RUNTIME, "compare: cannot write the table %s: %s", t->name,
                       strerror(t->failed));
    return FB_OK;
}

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
    struct tsv t;
    int rc = tsv_open(dirfd, name, &t, err);
    if (rc)
        return rc;
    put(&t, "n\tws\tspeedup\tlo\thi\tcopy_fraction\tcopy_gbps\tfused_gbps\n");
    size_t fused = fb_chart_find_series(d, 0, c->fused_key);
    *rows = 0;
    for (size_t k = 0; fused != SIZE_MAX && k < d->series[fused].n_points; k++) {
        const struct fb_chart_point *f = &d->series[fused].points[k];
        const struct fb_chart_speedup *s = speedup_at(r, f->n);
        const struct fb_chart_point *copy = point_at(d, r->copy, f->n);
        put_num(&t, f->n, "\t");
        put_num(&t, d->n_cache > 0 ? f->n / d->n_cache : NAN, "\t");
        put_num(&t, s ? s->speedup : NAN, "\t");
        put_num(&t, s ? s->lo : NAN, "\t");
        put_num(&t, s ? s->hi : NAN, "\t");
        put_num(&t, f->copy_fraction * 100, "\t");
        put_num(&t, copy ? copy->bandwidth_gbps : NAN, "\t");
        put_num(&t, f->bandwidth_gbps, "\n");
        ++*rows;
    }
    return tsv_close(&t, err);
}

/* q<i>.dat: run i's fused time over the first run's. */
static int write_ratio(int dirfd, const struct fb_compare_run *r, size_t i, struct fb_error *err)
{
    char name[32];
    snprintf(name, sizeof name, "q%zu.dat", i + 1);
    struct tsv t;
    int rc = tsv_open(dirfd, name, &t, err);
    if (rc)
        return rc;
    put(&t, "n\tratio\tlo\thi\n");
    for (size_t k = 0; k < r->n_ratio; k++) {
        put_num(&t, r->ratio[k].n, "\t");
        put_num(&t, r->ratio[k].ratio, "\t");
        put_num(&t, r->ratio[k].lo, "\t");
        put_num(&t, r->ratio[k].hi, "\n");
    }
    return tsv_close(&t, err);
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
    struct tsv t;
    if (rc == FB_OK && (rc = tsv_open(dirfd, "cmp_runs.tsv", &t, err)) == FB_OK) {
        put(&t, "i\ttitle\tcolour\tpt\tns\tnq\n");
        for (size_t i = 0; i < c->n_runs; i++) {
            put(&t, "%zu\t", i + 1);
            put_text(&t, c->runs[i].label, "\t");
            put(&t, "#%06x\t%d\t%zu\t%zu\n", run_colours[i], run_points[i], rows[i],
                c->runs[i].n_ratio);
        }
        rc = tsv_close(&t, err);
    }
    if (rc == FB_OK && (rc = tsv_open(dirfd, "cmp_labels.tsv", &t, err)) == FB_OK) {
        put(&t, "pair\tfused\tcopy\n");
        put_text(&t, c->pair_title, "\t");
        put_text(&t, c->fused_key, "\t");
        put_text(&t, c->copy_key, "\n");
        rc = tsv_close(&t, err);
    }
    if (rc == FB_OK && (rc = tsv_open(dirfd, "cmp_numbers.tsv", &t, err)) == FB_OK) {
        put(&t, "nr\tnmin\tnmax\tws_min\tws_max\tcache_axis\tthreshold\n");
        put(&t, "%zu\t", c->n_runs);
        put_num(&t, c->nmin, "\t");
        put_num(&t, c->nmax, "\t");
        put_num(&t, c->cache_axis ? c->ws_min : -1, "\t");
        put_num(&t, c->cache_axis ? c->ws_max : -1, "\t");
        put(&t, "%d\t", c->cache_axis ? 1 : 0);
        put_num(&t, c->verdict ? c->threshold : -1, "\n");
        rc = tsv_close(&t, err);
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

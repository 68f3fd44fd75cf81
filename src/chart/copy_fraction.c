/* The copy-fraction chart: each fused series' bandwidth as a fraction of the charted run's
 * copy ceiling (a peer's fused rows too), with the models: 1 (both move their model bytes),
 * the write-allocate ratio where stores read their lines, the 90% target
 * (plots/copy_fraction.gp).
 *   fused.tsv        j, i: the fused series with a copy_fraction
 *   copy_lines.tsv   the models, in percent (chart/lines.h) */
#include "chart/charts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart/lines.h"
#include "chart/model.h"

/* Fused over copy: the bandwidth target (DESIGN.md: fused >= 90% of copy), in percent. */
#define COPY_TARGET_PERCENT 90.0

static bool on_chart(const struct fb_chart_series *s)
{
    return strcmp(s->role, "fused") == 0 && s->has_copy_fraction;
}

static const char *no_copy_fraction(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_series; i++)
        if (on_chart(&d->series[i]))
            return NULL;
    return "no fused series with a copy_fraction";
}

static long gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The write-allocate model of fused series f against the copy ceiling: (ef / tf) / (ec / tc)
 * = ef tc / (tf ec), as a line. */
static void add_write_allocate(struct fb_chart_lines *lines, const struct fb_chart_series *f,
                               const struct fb_chart_series *copy)
{
    double tf = fb_model_traffic(f->elements, fb_chart_stores(f), true);
    double tc = fb_model_traffic(copy->elements, fb_chart_stores(copy), true);
    double num = f->elements * tc, den = tf * copy->elements;
    char title[FB_CHART_TEXT_MAX], frac[48];
    if (num == floor(num) && den == floor(den) && num > 0 && den > 0 && num < 1e9) {
        long g = gcd((long)num, (long)den);
        snprintf(frac, sizeof frac, "%ld/%ld", (long)num / g, (long)den / g);
    } else {
        snprintf(frac, sizeof frac, "%.3g", num / den);
    }
    snprintf(title, sizeof title, "%s: model, normal stores (write-allocate)", frac);
    fb_chart_line_add(lines, 100.0 * num / den, FB_DASH_WA, title, FB_LINE_BROWN);
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    const struct fb_chart_series *copy = NULL;
    for (size_t i = 0; i < d->n_series && !copy; i++)
        if (d->series[i].file == 0 && strcmp(d->series[i].role, "copy_ceiling") == 0)
            copy = &d->series[i];
    struct fb_table *t = fb_table_add(ts, "j i", "fused.tsv");
    struct fb_chart_lines lines = {.n = 0};
    bool streaming = false;
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *f = &d->series[i];
        if (!on_chart(f))
            continue;
        fb_table_nums(t, (const double[]){fb_table_rows(t) + 1, i + 1}, 2);
        streaming |= strcmp(f->stores, "streaming") == 0;
        if (copy && f->write_allocate && copy->write_allocate)
            add_write_allocate(&lines, f, copy);
    }
    const char *plain = strcmp(d->backend, "cpu") != 0 ? "1: traffic model"
                        : streaming ? "1: model, streaming stores (no write-allocate)"
                                    : "1: model without write-allocate";
    fb_chart_line_add(&lines, 100.0, FB_DASH_TRAFFIC, plain, FB_LINE_GREY);
    char target[64];
    snprintf(target, sizeof target, "target %.0f%%", COPY_TARGET_PERCENT);
    fb_chart_line_add(&lines, COPY_TARGET_PERCENT, FB_DASH_LAUNCH, target, FB_LINE_TARGET_RED);
    fb_chart_lines_table(ts, "copy_lines.tsv", &lines);
}

const struct fb_chart fb_chart_copy_fraction = {"copy_fraction", {"copy_fraction.gp"}, 1600,
                                                1000, 20, no_copy_fraction, tables};

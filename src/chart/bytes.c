/* The bytes chart: measured DRAM traffic per element against each series' model
 * (plots/bytes.gp).
 *   dram.tsv         j, i: the series with measured DRAM bytes
 *   bytes_lines.tsv  the models, one line per role and arrays moved (chart/lines.h) */
#include "chart/charts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart/lines.h"

static const char *no_dram(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_series; i++)
        if (d->series[i].has_dram)
            return NULL;
    return "no measured DRAM bytes: no dram_bytes_per_element values";
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    struct fb_table *t = fb_table_add(ts, "j i", "dram.tsv");
    struct fb_chart_lines lines = {.n = 0};
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *s = &d->series[i];
        if (!s->has_dram)
            continue;
        fb_table_nums(t, (const double[]){fb_table_rows(t) + 1, i + 1}, 2);
        if (!isfinite(s->elements))
            continue;
        bool eager = strcmp(s->role, "eager") == 0, fused = strcmp(s->role, "fused") == 0;
        const char *role = strcmp(s->role, "copy_ceiling") == 0 ? "copy" : s->role;
        char title[FB_CHART_TEXT_MAX];
        snprintf(title, sizeof title, "model %s: %g", role[0] ? role : "?", s->elements);
        /* one line per value and role: dash 2 for eager and fused, 3 for the rest */
        bool seen = false;
        for (size_t k = 0; k < lines.n && !seen; k++)
            seen = lines.v[k].value == s->elements && strcmp(lines.v[k].title, title) == 0;
        if (!seen && lines.n < sizeof lines.v / sizeof lines.v[0]) {
            struct fb_chart_line *l = &lines.v[lines.n++];
            *l = (struct fb_chart_line){.value = s->elements, .dash = eager || fused ? 2 : 3,
                                        .from = 0, .to = INFINITY,
                                        .colour = eager ? FB_LINE_EAGER
                                                  : fused ? FB_LINE_FUSED : 0x000000};
            snprintf(l->title, sizeof l->title, "%s", title);
        }
    }
    fb_chart_lines_table(ts, "bytes_lines.tsv", &lines);
}

const struct fb_chart fb_chart_bytes = {"bytes", {"bytes.gp"}, 1600, 1000, 20, no_dram, tables};

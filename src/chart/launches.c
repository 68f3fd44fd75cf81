/* The launches chart: kernels per call as counted, one bar per series, with the model's
 * count (plots/launches.gp).
 *   launches.tsv  i, label, counted, model (-1 none), colour (an integer, 0xRRGGBB) */
#include "chart/charts.h"

#include <math.h>

static const char *no_launches(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_series; i++)
        if (isfinite(d->series[i].launches))
            return NULL;
    return "no launches column";
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    struct fb_table *t = fb_table_add(ts, "i label counted model colour", "launches.tsv");
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *s = &d->series[i];
        if (!isfinite(s->launches))
            continue;
        fb_table_num(t, (double)fb_table_rows(t) + 1);
        fb_table_text(t, s->title);
        fb_table_nums(t, (const double[]){s->launches, s->model_launches, s->colour & 0xFFFFFF},
                      3);
    }
}

const struct fb_chart fb_chart_launches = {"launches", {"launches.gp"}, 1600, 1000, 20,
                                           no_launches, tables, "launches.tsv"};

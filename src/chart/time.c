/* The time chart: time per call against n, every series, and with a fit the fitted model of
 * each eager and fused series it covers (plots/time.gp).
 *   curves.tsv  i, colour; m<i>.dat: n, t (with B), t_cache (with B_c where the bytes fit the
 *               cache; NaN elsewhere) */
#include "chart/charts.h"

#include <math.h>
#include <stdlib.h>

#include "chart/model.h"

static const char *no_series(const struct fb_chart_derived *d)
{
    return d->n_series ? NULL : "no series";
}

static void add_curve(const struct fb_chart_derived *d, struct fb_tables *ts,
                      struct fb_table *index, const struct fb_chart_series *s)
{
    const double L = d->fit_launch_s, B = d->fit_gbps * 1e9, Bc = d->fit_cache_gbps * 1e9;
    const double size = (double)fb_model_element_size(s->dtype);
    fb_table_num(index, (double)fb_table_rows(index) + 1);
    fb_table_colour(index, s->colour);
    struct fb_table *m = fb_table_add(ts, "n t t_cache", "m%zu.dat", fb_table_rows(index));
    for (size_t j = 0; j < FB_CHART_CURVE_POINTS; j++) {
        double n = fb_chart_curve_n(d, j), bytes = s->elements * size * n;
        fb_table_nums(m, (const double[]){n, fb_model_time(s->host_launches, L, bytes, B),
            fb_chart_has_cache_fit(d) && bytes <= d->cache_bytes
                ? fb_model_time(s->host_launches, L, bytes, Bc) : NAN}, 3);
    }
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    struct fb_table *index = fb_table_add(ts, "i colour", "curves.tsv");
    bool *curved = calloc(d->n_series ? d->n_series : 1, sizeof *curved);
    if (!curved) {
        ts->failed = true;
        return;
    }
    for (size_t i = 0; i < d->n_pairs && fb_chart_has_fit(d); i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        if (!fb_chart_fit_covers(d, p))
            continue;
        const size_t sides[2] = {p->eager, p->fused};
        for (int k = 0; k < 2; k++)
            if (!curved[sides[k]]) {
                curved[sides[k]] = true;
                add_curve(d, ts, index, &d->series[sides[k]]);
            }
    }
    free(curved);
}

const struct fb_chart fb_chart_time = {"time", {"time.gp"}, 1600, 1000, 20, no_series, tables};
